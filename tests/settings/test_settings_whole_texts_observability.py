"""Each refusal of the `observability` settings pinned whole: every problem's key and full message, and no other,
with the passing side of each limit. A test that reads a fragment of a message (or only that a key is named) lets
the rest of it change unread."""

from __future__ import annotations

import pytest

from components.settings import parse_settings
from tests.support.finding_values import problems_of

_URL = "allowed: an http:// or https:// URL such as http://prometheus.monitoring:9090"
_WORKSPACE = (
    "allowed: an Amazon Managed Service for Prometheus workspace ID such as ws-0123abcd-4567-89ef-0123-456789abcdef, "
    "or its ARN arn:aws:aps:<region>:<account>:workspace/<id>"
)
_ONE_SOURCE = "allowed: one of url, ampWorkspace or install: true (where KEDA reads)"
_NAMESPACE = "allowed: a DNS label: 1-63 lowercase letters, digits or '-'"
_INTERVAL = "allowed: a non-zero Prometheus duration such as 15s, 30s or 1m"
_LABEL_KEY = (
    "allowed: 1-63 characters, an optional DNS-subdomain prefix and '/', then a name of letters, digits, '-', '_' "
    "or '.', starting and ending with a letter or digit"
)
_LABEL_VALUE = (
    "allowed: 1-63 characters of letters, digits, '-', '_' or '.', starting and ending with a letter or digit"
)
_ARN = "arn:aws:aps:us-west-2:123456789012:workspace/ws-0123abcd"


def _prometheus(**keys) -> dict:
    return {"observability": {"prometheus": keys}}


def _observability(**keys) -> dict:
    return {"observability": keys}


REFUSED = [
    pytest.param(
        _prometheus(url="ftp://prometheus:9090"),
        [("observability.prometheus.url", f"invalid value 'ftp://prometheus:9090'; {_URL}")],
        id="a URL of another scheme",
    ),
    pytest.param(
        _prometheus(url="http://"),
        [("observability.prometheus.url", f"invalid value 'http://'; {_URL}")],
        id="a URL without a host",
    ),
    pytest.param(
        _prometheus(ampWorkspace="ws-" + "a" * 62),
        [("observability.prometheus.ampWorkspace", f"invalid value '{'ws-' + 'a' * 62}'; {_WORKSPACE}")],
        id="a workspace ID of 65 characters",
    ),
    pytest.param(
        _prometheus(ampWorkspace="-ws"),
        [("observability.prometheus.ampWorkspace", f"invalid value '-ws'; {_WORKSPACE}")],
        id="a workspace ID starting with a hyphen",
    ),
    pytest.param(
        _prometheus(ampWorkspace="arn:aws:aps:us-west-2:1234:workspace/ws-1"),
        [
            (
                "observability.prometheus.ampWorkspace",
                f"invalid value 'arn:aws:aps:us-west-2:1234:workspace/ws-1'; {_WORKSPACE}",
            )
        ],
        id="a workspace ARN without a 12-digit account",
    ),
    pytest.param(
        _prometheus(url="http://prometheus:9090", ampWorkspace="ws-1"),
        [("observability.prometheus.ampWorkspace", f"given with url; {_ONE_SOURCE}")],
        id="url and ampWorkspace",
    ),
    pytest.param(
        _prometheus(url="http://prometheus:9090", install=True),
        [("observability.prometheus.install", f"given with url; {_ONE_SOURCE}")],
        id="url and install",
    ),
    pytest.param(
        _prometheus(ampWorkspace="ws-1", install=True),
        [("observability.prometheus.install", f"given with ampWorkspace; {_ONE_SOURCE}")],
        id="ampWorkspace and install",
    ),
    pytest.param(
        _prometheus(url="http://prometheus:9090", ampWorkspace="ws-1", install=True),
        [
            ("observability.prometheus.ampWorkspace", f"given with url; {_ONE_SOURCE}"),
            ("observability.prometheus.install", f"given with url; {_ONE_SOURCE}"),
        ],
        id="all three sources, each after the first reported",
    ),
    pytest.param(
        _observability(prometheusOperator=True, prometheus={"install": True}),
        [
            (
                "observability.prometheus.install",
                "true with prometheusOperator true, which says an operator runs already; allowed: prometheus.install "
                "true (the stack installs kube-prometheus-stack and its operator) or prometheusOperator true (yours), "
                "not both",
            )
        ],
        id="an installed Prometheus beside the operator that runs already",
    ),
    pytest.param(
        _observability(monitoringNamespace="Monitoring"),
        [("observability.monitoringNamespace", f"invalid value 'Monitoring'; {_NAMESPACE}")],
        id="a namespace with capitals",
    ),
    pytest.param(
        _observability(monitoringNamespace="m" * 64),
        [("observability.monitoringNamespace", f"invalid value '{'m' * 64}'; {_NAMESPACE}")],
        id="a namespace of 64 characters",
    ),
    pytest.param(
        _observability(scrapeInterval="0s"),
        [("observability.scrapeInterval", f"invalid value '0s'; {_INTERVAL}")],
        id="a zero scrape interval",
    ),
    pytest.param(
        _observability(scrapeInterval="30"),
        [("observability.scrapeInterval", f"invalid value '30'; {_INTERVAL}")],
        id="a scrape interval without a unit",
    ),
    pytest.param(
        _observability(scrapeInterval=""),
        [("observability.scrapeInterval", f"invalid value ''; {_INTERVAL}")],
        id="an empty scrape interval",
    ),
    pytest.param(
        _observability(scrapeInterval=30),
        [("observability.scrapeInterval", "Input should be a valid string; got 30")],
        id="a scrape interval given as a number",
    ),
    pytest.param(
        _observability(monitorLabels={"-release": "kps"}),
        [("observability.monitorLabels", f"invalid key '-release'; {_LABEL_KEY}")],
        id="a monitor label key starting with a hyphen",
    ),
    pytest.param(
        _observability(monitorLabels={"release": "kps-"}),
        [("observability.monitorLabels", f"invalid value 'kps-'; {_LABEL_VALUE}")],
        id="a monitor label value ending with a hyphen",
    ),
    pytest.param(
        _observability(dcgmExporter={"enabled": "yes"}),
        [("observability.dcgmExporter.enabled", "Input should be a valid boolean; got 'yes'")],
        id="the exporter switch given as text",
    ),
    pytest.param(
        _observability(dcgmExporter={"enabeld": False}),
        [("observability.dcgmExporter.enabeld", "unknown key 'enabeld'; did you mean 'enabled'?; allowed: enabled")],
        id="a misspelt exporter key",
    ),
    pytest.param(
        _prometheus(ulr="http://prometheus:9090"),
        [
            (
                "observability.prometheus.ulr",
                "unknown key 'ulr'; did you mean 'url'?; allowed: url, ampWorkspace, install",
            )
        ],
        id="a misspelt Prometheus key",
    ),
    pytest.param(
        _observability(scrapeIntervall="30s"),
        [
            (
                "observability.scrapeIntervall",
                "unknown key 'scrapeIntervall'; did you mean 'scrapeInterval'?; allowed: dcgmExporter, "
                "monitoringNamespace, prometheusOperator, scrapeInterval, monitorLabels, prometheus",
            )
        ],
        id="a misspelt observability key",
    ),
]


@pytest.mark.parametrize(("values", "problems"), REFUSED)
def test_each_observability_refusal_is_reported_whole(values, problems):
    assert problems_of(values) == problems


@pytest.mark.parametrize(
    ("values", "read"),
    [
        pytest.param(_prometheus(url="https://prometheus:9090"), ("url", "https://prometheus:9090"), id="https"),
        pytest.param(_prometheus(url="http://prometheus:9090"), ("url", "http://prometheus:9090"), id="http"),
        pytest.param(
            _prometheus(ampWorkspace="w" + "a" * 63), ("amp_workspace", "w" + "a" * 63), id="a workspace ID of 64"
        ),
        pytest.param(_prometheus(ampWorkspace=_ARN), ("amp_workspace", _ARN), id="a workspace ARN"),
        pytest.param(_prometheus(install=True), ("install", True), id="install alone"),
        pytest.param(
            _prometheus(url="http://prometheus:9090", install=False), ("install", False), id="url and install false"
        ),
    ],
)
def test_each_prometheus_source_alone_passes(values, read):
    field, value = read
    assert getattr(parse_settings(values).observability.prometheus, field) == value


@pytest.mark.parametrize(
    ("values", "field", "value"),
    [
        pytest.param(_observability(monitoringNamespace="m" * 63), "monitoring_namespace", "m" * 63, id="ns of 63"),
        pytest.param(_observability(monitoringNamespace="m"), "monitoring_namespace", "m", id="namespace of 1"),
        pytest.param(_observability(scrapeInterval="1m30s"), "scrape_interval", "1m30s", id="two units"),
        pytest.param(_observability(scrapeInterval="10ms"), "scrape_interval", "10ms", id="milliseconds"),
        pytest.param(_observability(monitorLabels={"release": "kps"}), "monitor_labels", {"release": "kps"}, id="lbl"),
        pytest.param(
            _observability(prometheusOperator=True, prometheus={"install": False}),
            "prometheus_operator",
            True,
            id="an operator of yours without install",
        ),
    ],
)
def test_the_passing_side_of_each_observability_limit(values, field, value):
    assert getattr(parse_settings(values).observability, field) == value


def test_the_observability_defaults():
    observability = parse_settings({}).observability
    assert (
        observability.dcgm_exporter.enabled,
        observability.monitoring_namespace,
        observability.prometheus_operator,
        observability.scrape_interval,
        observability.monitor_labels,
        observability.prometheus.url,
        observability.prometheus.amp_workspace,
        observability.prometheus.install,
        observability.operator_objects,
    ) == (True, "monitoring", False, "30s", {}, None, None, False, False)


@pytest.mark.parametrize(
    ("operator", "install", "objects"),
    [
        pytest.param(False, False, False, id="neither"),
        pytest.param(True, False, True, id="an operator of yours"),
        pytest.param(False, True, True, id="the installed chart"),
    ],
)
def test_operator_objects_follow_either_operator(operator, install, objects):
    values = _observability(prometheusOperator=operator, prometheus={"install": install})
    assert parse_settings(values).observability.operator_objects is objects


@pytest.mark.parametrize(
    ("workspace", "parts", "partition"),
    [
        pytest.param("ws-1", ("ws-1", "eu-west-1", None), None, id="an ID is in the stack's region and account"),
        pytest.param(_ARN, ("ws-0123abcd", "us-west-2", "123456789012"), "aws", id="an ARN names both"),
        pytest.param(
            "arn:aws-cn:aps:cn-north-1:123456789012:workspace/ws-9",
            ("ws-9", "cn-north-1", "123456789012"),
            "aws-cn",
            id="an ARN of another partition",
        ),
    ],
)
def test_the_workspace_parts_and_partition(workspace, parts, partition):
    prometheus = parse_settings(_prometheus(ampWorkspace=workspace)).observability.prometheus
    assert (prometheus.amp_parts("eu-west-1"), prometheus.amp_partition()) == (parts, partition)


def test_no_workspace_has_no_parts_and_no_partition():
    prometheus = parse_settings({}).observability.prometheus
    assert (prometheus.amp_parts("eu-west-1"), prometheus.amp_partition()) == (None, None)
