"""The placement model's messages where a reader acts on the exact words: invalid affinity terms and
the fix the guard suggests when no GPU-only label exists."""

from __future__ import annotations

import copy

import pytest

from components.placement import gpu_guard, node_affinity_mismatch
from tests.support.placement_guard import device_plugin, gpu_pool, system_pool, vllm
from tests.support.placement_messages import VERDICT_NAMES

NODE = {"metadata": {"name": "gpu-0", "labels": {"GPU": "true", "gpus": "4"}}}


def pod_requiring(*expressions: dict, fields: tuple = ()) -> dict:
    term = {}
    if expressions:
        term["matchExpressions"] = list(expressions)
    if fields:
        term["matchFields"] = list(fields)
    return {
        "spec": {
            "affinity": {
                "nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [term]}}
            }
        }
    }


@pytest.mark.parametrize(
    ("field", "reason"),
    [
        pytest.param(
            {"key": "metadata.namespace", "operator": "In", "values": ["x"]},
            "invalid matchFields requirement metadata.namespace In [x]: only metadata.name is supported",
            id="a matchFields key other than metadata.name is named with the requirement",
        ),
        pytest.param(
            {"operator": "In", "values": ["x"]},
            "invalid matchFields requirement  In [x]: only metadata.name is supported",
            id="a matchFields requirement without a key is invalid",
        ),
        pytest.param(
            {"key": "metadata.name", "operator": "Exists"},
            "invalid matchFields requirement metadata.name Exists: only In and NotIn are supported",
            id="a matchFields operator other than In or NotIn is named",
        ),
        pytest.param(
            {"key": "metadata.name", "values": ["gpu-0"]},
            "invalid matchFields requirement metadata.name  [gpu-0]: only In and NotIn are supported",
            id="a matchFields requirement without an operator is invalid",
        ),
        pytest.param(
            {"key": "metadata.name", "operator": "NotIn", "values": ["a", "b"]},
            "invalid matchFields requirement metadata.name NotIn [a, b]: NotIn needs exactly one value",
            id="a matchFields requirement with two names is invalid",
        ),
    ],
)
def test_invalid_match_fields_requirement_is_explained_in_full(field, reason):
    message = node_affinity_mismatch(pod_requiring(fields=(field,)), NODE)
    assert message == f"node affinity/selector mismatch: required node affinity: {reason}"


def test_a_gt_bound_written_as_a_yaml_number_is_invalid_not_a_crash():
    # YAML `values: [3]` gives an int; the API takes strings only, so the term is invalid.
    message = node_affinity_mismatch(pod_requiring({"key": "gpus", "operator": "Gt", "values": [3]}), NODE)
    assert message == (
        "node affinity/selector mismatch: required node affinity: invalid requirement gpus Gt [3]: "
        "Gt needs exactly one integer value"
    )


def _unlabelled_gpu_pools() -> list[dict]:
    """Two GPU pools that share no label the system pool lacks, so no nodeSelector can be suggested."""
    first, second = gpu_pool("gpu-a"), gpu_pool("gpu-b")
    first["node"]["metadata"]["labels"] = {"kubernetes.io/os": "linux", "team": "a"}
    second["node"]["metadata"]["labels"] = {"kubernetes.io/os": "linux", "team": "b"}
    return [system_pool(), first, second]


def test_without_a_gpu_only_label_the_guard_suggests_a_selector_or_affinity_in_words():
    workload = vllm(node_selector={})
    verdicts = {v.id: v for v in gpu_guard([device_plugin(node_selector={}), workload], _unlabelled_gpu_pools())}
    fix = "(add a nodeSelector or required node affinity for GPU nodes)"
    assert not verdicts[1].passed and not verdicts[3].passed
    assert any(problem.endswith(f"only resource fit {fix}") for problem in verdicts[1].details), verdicts[1].details
    assert any(problem.endswith(f"nothing keeps it off {fix}") for problem in verdicts[3].details), verdicts[3].details


def test_with_a_gpu_only_label_the_guard_suggests_that_label():
    verdicts = {v.id: v for v in gpu_guard([device_plugin(), vllm(node_selector={})], [system_pool(), gpu_pool()])}
    assert any(problem.endswith("only resource fit (add nodeSelector GPU=true)") for problem in verdicts[1].details)


def test_a_failed_verdict_shows_its_first_problem_and_counts_the_others():
    second = vllm(node_selector={})
    second["metadata"]["name"] = "vllm-2"
    verdicts = {
        v.id: v for v in gpu_guard([device_plugin(), vllm(node_selector={}), second], [system_pool(), gpu_pool()])
    }
    assert not verdicts[1].passed
    assert verdicts[1].message.startswith("GPU workload llm/vllm can be placed on non-GPU pool system")
    assert verdicts[1].message.endswith("(add nodeSelector GPU=true) (and 1 more)")
    single = {v.id: v for v in gpu_guard([device_plugin(), vllm(node_selector={})], [system_pool(), gpu_pool()])}
    assert not single[1].message.endswith("more)")


@pytest.mark.parametrize(
    ("expression", "reason"),
    [
        pytest.param(
            {"operator": "Exists"},
            "invalid requirement  Exists: empty key",
            id="a requirement without a key is invalid for its empty key",
        ),
        pytest.param(
            {"key": "GPU", "values": ["true"]},
            "invalid requirement GPU  [true]: unknown operator '' (In, NotIn, Exists, DoesNotExist, Gt, Lt)",
            id="a requirement without an operator names the empty operator",
        ),
        pytest.param(
            {"key": "GPU", "operator": "In"},
            "invalid requirement GPU In []: In needs at least one value",
            id="an In requirement without values shows its empty list",
        ),
        pytest.param(
            {"key": "GPU", "operator": "DoesNotExist", "values": ["x"]},
            "invalid requirement GPU DoesNotExist [x]: DoesNotExist takes no values",
            id="a DoesNotExist requirement with values shows them",
        ),
    ],
)
def test_invalid_label_requirement_is_explained_in_full(expression, reason):
    message = node_affinity_mismatch(pod_requiring(expression), NODE)
    assert message == f"node affinity/selector mismatch: required node affinity: {reason}"


def test_a_failed_does_not_exist_requirement_reads_without_a_value_list():
    message = node_affinity_mismatch(pod_requiring({"key": "GPU", "operator": "DoesNotExist"}), NODE)
    assert message == "node affinity/selector mismatch: required node affinity: GPU DoesNotExist (node has GPU=true)"


def test_a_node_without_a_name_is_called_unnamed():
    unnamed = copy.deepcopy(NODE)
    del unnamed["metadata"]["name"]
    field = {"key": "metadata.name", "operator": "In", "values": ["gpu-0"]}
    assert node_affinity_mismatch(pod_requiring(fields=(field,)), unnamed) == (
        "node affinity/selector mismatch: required node affinity: metadata.name In [gpu-0] (node is named <unnamed>)"
    )


def test_each_verdict_keeps_its_name_whether_it_passes_or_fails():
    passing = gpu_guard([device_plugin(), vllm()], [system_pool(), gpu_pool()])
    failing = gpu_guard([device_plugin(node_selector={}), vllm(node_selector={})], [gpu_pool(taints=[])])
    assert {v.id: v.name for v in passing} == VERDICT_NAMES
    assert {v.id: v.name for v in failing} == VERDICT_NAMES
    assert all(v.passed for v in passing)
    assert not all(v.passed for v in failing)


# Each early return of a verdict builds its Verdict anew: the id and name must hold on every one of them.
EDGE_STACKS = [
    pytest.param([], [system_pool(), gpu_pool()], id="no workload"),
    pytest.param([device_plugin(), vllm()], [system_pool()], id="no GPU pool"),
    pytest.param([device_plugin(), vllm()], [gpu_pool()], id="no system pool"),
    pytest.param([vllm()], [system_pool(), gpu_pool()], id="no device plugin"),
    pytest.param([device_plugin()], [system_pool(), gpu_pool()], id="no GPU workload"),
    pytest.param([], [], id="nothing at all"),
]


@pytest.mark.parametrize(("workloads", "pools"), EDGE_STACKS)
def test_each_verdict_keeps_its_id_and_name_on_every_early_return(workloads, pools):
    verdicts = gpu_guard(workloads, pools)

    assert [(v.id, v.name) for v in verdicts] == sorted(VERDICT_NAMES.items())


def test_a_passing_verdict_still_details_the_gpu_pools_a_workload_cannot_use():
    # vLLM fits the 4-GPU pool but not the 1-GPU one: verdict 1 passes and says why the small pool is out.
    pools = [system_pool(), gpu_pool("small", gpus=1), gpu_pool("large", gpus=4)]
    verdict = {v.id: v for v in gpu_guard([device_plugin(), vllm(gpus=4)], pools)}[1]
    assert verdict.passed
    assert verdict.message == "every GPU workload lands on a GPU pool and on no other pool: llm/vllm on large"
    assert [detail.split(":")[0] for detail in verdict.details] == ["llm/vllm cannot land on GPU pool small"]


def test_verdicts_without_gpu_pools_or_with_host_advertised_gpus_pass_by_name():
    no_gpu = {v.id: v for v in gpu_guard([], [system_pool()])}
    assert no_gpu[2].passed is True and no_gpu[2].message == "there is no GPU pool"
    host = {v.id: v for v in gpu_guard([vllm()], [system_pool(), gpu_pool(advertised=True)])}
    assert host[3].passed is True and host[3].name == VERDICT_NAMES[3]
    assert host[3].message.endswith("(the AMI runs the device plugin on the host, e.g. Bottlerocket): gpu")


def test_messages_list_every_workload_and_pool_they_concern():
    second = vllm()
    second["metadata"]["name"] = "vllm-2"
    both = {v.id: v for v in gpu_guard([device_plugin(), vllm(), second], [system_pool(), gpu_pool()])}
    assert both[1].message.endswith(": llm/vllm on gpu; llm/vllm-2 on gpu")
    silent = {v.id: v for v in gpu_guard([vllm()], [system_pool(), gpu_pool("gpu-a"), gpu_pool("gpu-b")])}
    assert "and GPU pool(s) gpu-a, gpu-b do not advertise nvidia.com/gpu" in silent[3].message


def test_a_pool_advertised_by_the_host_does_not_excuse_the_next_gpu_pool():
    host = gpu_pool("host", advertised=True)
    host["gpuAdvertisedByHost"] = True
    other = gpu_pool("other", taints=[{"key": "team", "value": "ml", "effect": "NoSchedule"}])
    verdict = {v.id: v for v in gpu_guard([device_plugin(), vllm()], [system_pool(), host, other])}[3]
    assert not verdict.passed
    assert "cannot land on GPU pool other" in verdict.message


def test_a_system_pool_without_nodes_is_named_with_its_count():
    verdict = {v.id: v for v in gpu_guard([], [system_pool(count=-1)])}[4]
    assert not verdict.passed
    assert verdict.details == ["system: count -1, no node to land on"]


def test_every_system_pool_that_takes_add_ons_is_listed():
    second = system_pool()
    second["name"] = "system-b"
    verdict = {v.id: v for v in gpu_guard([], [system_pool(), second])}[4]
    assert verdict.message == "a CoreDNS-like system add-on pod lands on non-GPU pool(s) system, system-b"
