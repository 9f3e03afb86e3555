"""The plan's check of custom resources honours every JSON-schema keyword the committed CRDs use, the integer
formats among them, and the settings keep KEDA's int32 fields inside what KEDA decodes.

Expected answers come from the consumers: Go's int32 and int64 ranges (the Go specification, "Numeric types":
-2**31..2**31-1 and -2**63..2**63-1), KEDA's CRD (kedacore/keda v2.20.2 config/crd/bases/keda.sh_scaledobjects.yaml:
`pollingInterval`, `minReplicaCount`, `maxReplicaCount` are `format: int32`), the prometheus-operator CRDs (v0.93.0:
`ServiceMonitor.spec.sampleLimit` is `format: int64`, `spec.scrapeProtocols` `x-kubernetes-list-type: set`,
`PrometheusRule.spec.groups` a `map` keyed by `name`), RFC 3339 section 5.6 for `date-time`.
"""

from __future__ import annotations

import copy
import json

import pytest

from components.settings import ConfigError, VllmSettings, parse_settings
from components.stackcheck.plan import crd_schema
from components.vllm.scaling_manifests import scaled_object

INT32_MAX = 2_147_483_647
INT64_MAX = 9_223_372_036_854_775_807


def _scaled_object(**spec) -> dict:
    settings = VllmSettings.model_validate({"autoscaling": {"enabled": True}})
    manifest = scaled_object("vllm", settings, "http://prometheus.monitoring:9090")
    manifest["spec"].update(spec)
    return manifest


@pytest.mark.parametrize(
    ("field", "value", "valid"),
    [
        pytest.param("pollingInterval", INT32_MAX, True, id="the largest int32"),
        pytest.param("pollingInterval", INT32_MAX + 1, False, id="one past int32"),
        pytest.param("pollingInterval", 3_000_000_000, False, id="three billion"),
        pytest.param("maxReplicaCount", INT32_MAX, True, id="the largest int32 replica count"),
        pytest.param("minReplicaCount", INT32_MAX + 1, False, id="a replica count one past int32"),
    ],
)
def test_an_int32_field_of_kedas_crd_holds_only_what_go_int32_holds(field, value, valid):
    # Below, the CRD's own `minimum` (1 or 0) refuses first; the format's lower bound matters only where none is set.
    errors = crd_schema.validation_errors(_scaled_object(**{field: value}))
    assert (errors == []) is valid
    if not valid:
        assert errors == [f"spec.{field}: {value} is not a 'int32'"]


def _service_monitor(**spec) -> dict:
    return {
        "apiVersion": "monitoring.coreos.com/v1",
        "kind": "ServiceMonitor",
        "metadata": {"name": "m", "namespace": "monitoring"},
        "spec": {"selector": {}, "endpoints": [{"port": "metrics"}], **spec},
    }


@pytest.mark.parametrize(
    ("spec", "error"),
    [
        pytest.param({"sampleLimit": INT64_MAX}, None, id="the largest int64"),
        pytest.param(
            {"sampleLimit": INT64_MAX + 1}, f"spec.sampleLimit: {INT64_MAX + 1} is not a 'int64'", id="past int64"
        ),
        pytest.param({"scrapeProtocols": ["PrometheusProto", "OpenMetricsText1.0.0"]}, None, id="a set, each once"),
        pytest.param(
            {"scrapeProtocols": ["PrometheusProto", "PrometheusProto"]},
            "spec.scrapeProtocols: duplicate entry 'PrometheusProto' in a list of type set",
            id="a set with an item twice",
        ),
    ],
)
def test_int64_and_list_sets_are_checked_as_the_api_server_checks_them(spec, error):
    errors = crd_schema.validation_errors(_service_monitor(**spec))
    assert errors == ([] if error is None else [error])


def test_a_list_map_holds_each_key_once():
    rule = {"name": "a", "rules": [{"record": "x", "expr": "1"}]}
    manifest = {
        "apiVersion": "monitoring.coreos.com/v1",
        "kind": "PrometheusRule",
        "metadata": {"name": "r", "namespace": "monitoring"},
        "spec": {"groups": [rule, copy.deepcopy(rule)]},
    }
    assert crd_schema.validation_errors(manifest) == ["spec.groups: duplicate entry name='a' in a list of type map"]
    manifest["spec"]["groups"][1]["name"] = "b"
    assert crd_schema.validation_errors(manifest) == []


@pytest.mark.parametrize(
    ("value", "valid"),
    [
        pytest.param("2026-12-04T10:00:00Z", True, id="UTC"),
        pytest.param("2026-12-04T10:00:00.5+01:00", True, id="a fraction and an offset"),
        pytest.param("2026-12-04 10:00", False, id="no seconds, a space"),
        pytest.param("yesterday", False, id="words"),
    ],
)
def test_a_date_time_is_an_rfc_3339_date_time(value, valid):
    manifest = _scaled_object()
    manifest["status"] = {"lastActiveTime": value}
    assert (crd_schema.validation_errors(manifest) == []) is valid


def _keywords(schema, found: set[str]) -> set[str]:
    if isinstance(schema, dict):
        for key, value in schema.items():
            found.add(key)
            children = value.values() if key in ("properties", "patternProperties") else [value]
            for child in children:
                _keywords(child, found)
    elif isinstance(schema, list):
        for item in schema:
            _keywords(item, found)
    return found


def test_the_module_says_how_it_treats_every_keyword_the_committed_crds_use():
    found: set[str] = set()
    for path in sorted(crd_schema.CRD_DIR.glob("*.json")):
        _keywords(json.loads(path.read_text())["schema"], found)
    # Property names that happen to sit beside keywords in `default` values (the EC2NodeClass's metadata options,
    # the NodePool's disruption defaults) are data, not keywords.
    defaults = {
        "httpEndpoint",
        "httpProtocolIPv6",
        "httpPutResponseHopLimit",
        "httpTokens",
        "consolidateAfter",
        "nodes",
    }
    docstring = crd_schema.__doc__ or ""
    assert sorted(k for k in found - defaults if f"`{k}`" not in docstring) == []


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("pollingIntervalSeconds", INT32_MAX + 1),
        ("maxReplicas", INT32_MAX + 1),
        ("minReplicas", 3_000_000_000),
    ],
)
def test_the_settings_refuse_what_kedas_int32_cannot_hold_naming_the_key(key, value):
    with pytest.raises(ConfigError) as error:
        parse_settings({"vllm": {"autoscaling": {"enabled": True, key: value}}})
    messages = {problem.key: problem.message for problem in error.value.problems}
    assert messages[f"vllm.autoscaling.{key}"].startswith(
        f"invalid value {value}; allowed: an integer from 1 to 2,147,483,647"
    )


def test_the_largest_values_the_settings_take_render_a_scaled_object_keda_accepts():
    settings = VllmSettings.model_validate(
        {"autoscaling": {"enabled": True, "pollingIntervalSeconds": INT32_MAX, "maxReplicas": INT32_MAX}}
    )
    manifest = scaled_object("vllm", settings, "http://prometheus.monitoring:9090")
    assert (manifest["spec"]["pollingInterval"], manifest["spec"]["maxReplicaCount"]) == (INT32_MAX, INT32_MAX)
    assert crd_schema.validation_errors(manifest) == []
