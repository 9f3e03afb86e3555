"""Settings problems read exactly as a user needs them: the key, the bad value, what is allowed, and a
suggestion for a misspelt key wherever it sits."""

from __future__ import annotations

import pytest

from components.cluster.access import deployer_access_warning
from components.settings import ConfigError, parse_settings

DNS_LABEL = "allowed: a DNS label: 1-63 lowercase letters, digits or '-'"


def problems_of(values: dict) -> list[str]:
    with pytest.raises(ConfigError) as error:
        parse_settings(values)
    return [str(problem) for problem in error.value.problems]


@pytest.mark.parametrize(
    ("values", "problem"),
    [
        pytest.param(
            {"vllm": {"namespace": "Inference_NS"}},
            f"eks-gpu-inference:vllm.namespace: invalid value 'Inference_NS'; {DNS_LABEL}",
            id="a namespace that is not a DNS label is named with what is allowed",
        ),
        pytest.param(
            {"vllm": {"namespace": "n" * 64}},
            f"eks-gpu-inference:vllm.namespace: invalid value '{'n' * 64}'; {DNS_LABEL}",
            id="a namespace of 64 characters is one too long",
        ),
        pytest.param(
            {"vllm": {"allowedClientNamespaces": ["ok", "-bad"]}},
            f"eks-gpu-inference:vllm.allowedClientNamespaces: invalid value '-bad'; {DNS_LABEL}",
            id="a client namespace that is not a DNS label is named",
        ),
    ],
)
def test_a_bad_namespace_is_reported_with_the_value_and_the_rule(values, problem):
    assert problems_of(values) == [problem]


def test_a_taint_effect_in_eks_spelling_gets_the_kubernetes_spelling():
    assert problems_of({"gpuPlacement": {"taintEffect": "NO_SCHEDULE"}}) == [
        "eks-gpu-inference:gpuPlacement.taintEffect: EKS API spelling; write 'NoSchedule' instead of 'NO_SCHEDULE'; "
        "allowed: NoSchedule, NoExecute"
    ]


@pytest.mark.parametrize(
    ("values", "problem"),
    [
        pytest.param(
            {"HFTOKEN": "x"},
            "eks-gpu-inference:HFTOKEN: unknown key 'HFTOKEN'; did you mean 'hfToken'?; allowed: cluster, "
            "systemNodeGroup, gpuNodeGroup, gpuPlacement, vllm, devicePlugin, network, autoscaler, observability, "
            "cost, gpuPools, models, hfToken, vllmApiKey",
            id="a key in the wrong case is matched whatever its case",
        ),
        pytest.param(
            {"gpuNod": {}},
            "eks-gpu-inference:gpuNod: unknown key 'gpuNod'; did you mean 'gpuNodeGroup'?; allowed: cluster, "
            "systemNodeGroup, gpuNodeGroup, gpuPlacement, vllm, devicePlugin, network, autoscaler, observability, "
            "cost, gpuPools, models, hfToken, vllmApiKey",
            id="a key half as long as the one meant is still matched",
        ),
        pytest.param(
            {"zzz": {}},
            "eks-gpu-inference:zzz: unknown key 'zzz'; allowed: cluster, systemNodeGroup, gpuNodeGroup, "
            "gpuPlacement, vllm, devicePlugin, network, autoscaler, observability, cost, gpuPools, models, hfToken, "
            "vllmApiKey",
            id="a key like no other gets no suggestion",
        ),
    ],
)
def test_an_unknown_top_level_key_gets_the_closest_known_key(values, problem):
    assert problems_of(values) == [problem]


@pytest.mark.parametrize(
    ("values", "key", "suggestion", "allowed"),
    [
        pytest.param(
            {"gpuNodeGroup": {"extraTaints": [{"key": "a", "efect": "NoExecute"}]}},
            "gpuNodeGroup.extraTaints.0.efect",
            "effect",
            "key, value, effect",
            id="a misspelt field of a taint in a list is matched against the taint's fields",
        ),
        pytest.param(
            {"vllm": {"model_cache": {"sise": "1Gi"}}},
            "vllm.modelCache.sise",
            "size",
            "type, size, storageClass",
            id="a misspelt field under a section written in snake case is matched against that section",
        ),
    ],
)
def test_an_unknown_nested_key_is_matched_against_its_own_section(values, key, suggestion, allowed):
    (problem,) = problems_of(values)
    assert problem.startswith(f"eks-gpu-inference:{key}: unknown key")
    assert f"did you mean {suggestion!r}?" in problem
    assert problem.endswith(f"allowed: {allowed}")


def test_a_shared_claim_for_several_replicas_is_refused_with_both_ways_out():
    assert problems_of({"vllm": {"modelCache": {"type": "pvc"}, "replicas": 2}}) == [
        "eks-gpu-inference:vllm.modelCache.type: 'pvc' with replicas 2: a ReadWriteOnce claim attaches to one "
        "node only; allowed: 'emptyDir', or replicas 1"
    ]


@pytest.mark.parametrize(
    ("values", "problem"),
    [
        pytest.param(
            {"systemNodeGroup": {"minSize": 0, "desiredSize": 0}},
            "eks-gpu-inference:systemNodeGroup.minSize: 0; allowed: an integer >= 1, or CoreDNS and other "
            "add-ons have no untainted node to run on",
            id="a system group that may shrink to zero is refused",
        ),
        pytest.param(
            {"systemNodeGroup": {"minSize": 3, "desiredSize": 2}},
            "eks-gpu-inference:systemNodeGroup.minSize: 3 is greater than desiredSize 2; allowed: minSize <= "
            "desiredSize <= maxSize",
            id="a system group whose min exceeds its desired size is refused",
        ),
        pytest.param(
            {"systemNodeGroup": {"desiredSize": 4, "maxSize": 3}},
            "eks-gpu-inference:systemNodeGroup.desiredSize: 4 is greater than maxSize 3; allowed: minSize <= "
            "desiredSize <= maxSize",
            id="a system group whose desired size exceeds its max is refused",
        ),
        pytest.param(
            {"systemNodeGroup": {"instanceTypes": ["g5.xlarge"]}},
            "eks-gpu-inference:systemNodeGroup.instanceTypes: GPU instance types ['g5.xlarge'] in the system node "
            "group; allowed: non-GPU types such as m6i.large (GPU nodes belong in gpuNodeGroup)",
            id="a GPU type in the system group is refused with where it belongs",
        ),
        pytest.param(
            {"systemNodeGroup": {"instanceTypes": ["m6i.large", "m7g.large"]}},
            "eks-gpu-inference:systemNodeGroup.instanceTypes: ['m6i.large', 'm7g.large'] mix architectures "
            "['arm64', 'x86_64']; allowed: one architecture",
            id="a system group mixing Intel and Graviton is refused",
        ),
    ],
)
def test_a_bad_system_group_is_refused_with_the_rule(values, problem):
    assert problems_of(values) == [problem]


def test_every_unknown_key_of_a_section_is_reported_and_the_error_lists_them_one_per_line():
    with pytest.raises(ConfigError) as error:
        parse_settings({"vllm": {"replica": 2, "modle": "a/b", "maxModelLen": 8}})
    problems = [str(problem) for problem in error.value.problems]
    assert sorted(problem.split(":")[1] for problem in problems) == ["vllm.maxModelLen", "vllm.modle", "vllm.replica"]
    assert str(error.value) == "invalid stack config (3 problem(s)):\n" + "\n".join(f"  - {p}" for p in problems)


def test_the_duplicate_admin_warning_explains_why_the_second_entry_fails():
    role = "arn:aws:iam::123456789012:role/ci"
    warning = deployer_access_warning("arn:aws:sts::123456789012:assumed-role/ci/run-1", [role], True)
    assert warning == (
        "cluster.adminPrincipalArns lists the identity running this update "
        "(arn:aws:sts::123456789012:assumed-role/ci/run-1); if this update creates the cluster, EKS already makes "
        "that identity an admin and the second access entry fails (ResourceInUseException). Remove it from the "
        "list, or set cluster.creatorAdmin false"
    )
