"""Rules of the AWS request check, the settings and the audit's snapshot model, pinned by the value each reports
or keeps, where earlier tests checked only that the rule fires."""

from __future__ import annotations

import pytest

from components.placement import tolerates
from components.placement.workloads import daemonset_pod
from components.settings import ConfigError, parse_settings
from components.settings.errors import python_text
from components.stackcheck.audit.model import Snapshot
from components.stackcheck.aws.network_rules import permission_descriptions
from tests.support.audit_objects import daemonset

NETWORK_UNAVAILABLE = {"key": "node.kubernetes.io/network-unavailable", "effect": "NoSchedule"}


def test_a_bad_ingress_cidr_is_reported_with_its_value_and_place():
    params = {
        "IpPermissions": [
            {"IpRanges": [{"CidrIp": "10.0.0.0/16", "Description": "ok"}]},
            {"IpRanges": [{"CidrIp": "10.0.0.0/16"}, {"CidrIp": "10.0.0.300/16"}]},
        ]
    }
    [violation] = permission_descriptions(params, None)  # type: ignore[arg-type]
    assert (violation.path, violation.value) == ("IpPermissions[1].IpRanges[1].CidrIp", "10.0.0.300/16")
    assert violation.rule.startswith("is not IPv4 CIDR notation")


def test_model_facts_whose_kv_heads_do_not_divide_the_attention_heads_are_refused_naming_both():
    shape = {"parameters": 10**9, "layers": 2, "attentionHeads": 8, "kvHeads": 3, "headDim": 64, "maxContext": 8192}
    with pytest.raises(ConfigError) as error:
        parse_settings({"vllm": {"model": "acme/x", "modelFacts": shape}})
    messages = [(p.key, p.message) for p in error.value.problems]
    assert (
        "vllm.modelFacts.kvHeads",
        "3 does not divide attentionHeads 8; allowed: a divisor of attentionHeads",
    ) in messages


def test_python_text_renames_only_the_setting_names_and_keeps_every_other_word():
    # A camelCase word that names no setting (`httpTokens`, a launch-template field) stays as written.
    assert (
        python_text("minSize 3 is more than maxSize with httpTokens")
        == "min_size 3 is more than max_size with httpTokens"
    )


@pytest.mark.parametrize("host_network", [True, False], ids=["host network", "pod network"])
def test_a_daemonset_on_the_host_network_keeps_it_and_so_its_default_toleration(host_network):
    item = daemonset("agent")
    if host_network:
        item["spec"]["template"]["spec"]["hostNetwork"] = True
    built = Snapshot()
    built.add("DaemonSet", item)
    [read] = built.daemonsets
    assert bool(read.obj["spec"]["template"]["spec"].get("hostNetwork")) is host_network
    # The DaemonSet controller adds the network-unavailable toleration only to host-network pods
    # (kubernetes pkg/controller/daemon/util/daemonset_util.go, AddOrUpdateDaemonPodTolerations).
    pod = daemonset_pod(read.obj)
    tolerations = pod["spec"].get("tolerations") or []
    assert any(tolerates(toleration, NETWORK_UNAVAILABLE) for toleration in tolerations) is host_network


def test_the_exporter_verdict_states_its_one_problem_whole_and_counts_the_others():
    from tests.support.placement_exporter import exporter, exporter_verdict
    from tests.support.placement_guard import device_plugin, gpu_pool, system_pool

    one = exporter_verdict([device_plugin(), exporter(node_selector={})], [system_pool(), gpu_pool()])
    assert one.message == one.details[0] and len(one.details) == 1
    two = exporter_verdict([device_plugin(), exporter(tolerations=[])], [system_pool(), gpu_pool("a"), gpu_pool("b")])
    assert len(two.details) == 2
    assert two.message == f"{two.details[0]} (and 1 more)"


def test_the_autoscalers_template_node_is_linux_in_lower_case_so_os_selectors_match():
    # The autoscaler labels its template node kubernetes.io/os with cloudprovider.DefaultOS, "linux"
    # (kubernetes/autoscaler cluster-autoscaler/cloudprovider/aws/aws_manager.go, buildGenericLabels); label
    # values match case-sensitively, so a pod selecting the OS as charts do must fit it.
    from components.placement import explain
    from components.placement.scale_from_zero import template_node

    node = template_node("gpu", "g5.xlarge", {})
    assert node["metadata"]["labels"]["kubernetes.io/os"] == "linux"
    pod = {
        "kind": "Pod",
        "metadata": {"name": "p"},
        "spec": {"nodeSelector": {"kubernetes.io/os": "linux"}, "containers": [{"name": "c", "image": "i"}]},
    }
    assert explain(pod, node) == []


def test_items_without_a_comma_between_them_are_refused_naming_the_byte_where_it_is_missing():
    import io

    from components.stackcheck.audit.snapshot import SnapshotError, read_list

    first = b'{"kind": "List", "items": [{"kind": "Node", "metadata": {"name": "a"}}'
    data = first + b' {"kind": "Node", "metadata": {"name": "b"}}]}'
    with pytest.raises(SnapshotError) as error:
        read_list(io.BytesIO(data), "t.json", lambda kind, item: None)
    assert str(error.value) == f"t.json: not valid JSON (expected ',' or ']' after an item) at byte {len(first) + 1}"
