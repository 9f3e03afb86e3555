"""`provisioner: autoMode` without Pulumi: the settings it accepts and refuses, the NodePool and NodeClass it renders
(the NodeClass against the fields the EKS user guide documents, as no CRD schema of it is published), the placement
model's Auto Mode node, the kept-off-Auto-Mode affinity, and the Auto Mode rules of CreateCluster."""

from __future__ import annotations

import pytest

from components.facts import auto_mode
from components.facts.contract import PlacementContract
from components.placement import NodeGroupSpec, pools_for_node_groups
from components.placement.pools import pool_labels
from components.pools.auto_mode import manifests as manifests
from components.settings import ConfigError, GpuNodeGroupSettings, parse_settings, validate_section
from components.stackcheck.aws import rules

AUTO = {"provisioner": "autoMode"}


def problems_of(data: dict) -> list[str]:
    with pytest.raises(ConfigError) as error:
        validate_section(GpuNodeGroupSettings, data, where="gpuNodeGroup")
    return [str(problem) for problem in error.value.problems]


def test_auto_mode_is_accepted_with_the_defaults():
    settings = validate_section(GpuNodeGroupSettings, AUTO, where="gpuNodeGroup")

    assert settings.auto_mode and not settings.node_group and not settings.karpenter


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        pytest.param(
            {"amiFamily": "Bottlerocket"},
            "gpuNodeGroup.amiFamily: 'Bottlerocket' with provisioner 'autoMode'; allowed: 'AL2023' or unset (EKS Auto "
            "Mode chooses its nodes' AMI itself), or provisioner 'nodeGroup'",
            id="amiFamily Bottlerocket",
        ),
        pytest.param(
            {"nodeRepair": False},
            "gpuNodeGroup.nodeRepair: false with provisioner 'autoMode', whose nodes EKS always monitors and "
            "repairs; allowed: true or unset, or provisioner 'nodeGroup'",
            id="nodeRepair false",
        ),
        pytest.param(
            {"diskSize": 60000},
            "gpuNodeGroup.diskSize: 60000 with provisioner 'autoMode'; allowed: at most 59000 GiB (the NodeClass's "
            "ephemeral storage)",
            id="diskSize above the NodeClass's ephemeral storage",
        ),
        pytest.param(
            {"imageCache": "soci"},
            "gpuNodeGroup.imageCache: 'soci' with provisioner 'autoMode', whose nodes' AMI and volumes EKS manages; "
            "allowed: 'none' or unset, or provisioner 'nodeGroup' or 'karpenter'",
            id="imageCache soci",
        ),
    ],
)
def test_auto_mode_refuses_what_it_does_not_let_a_pool_choose(overrides, expected):
    assert problems_of({**AUTO, **overrides}) == [expected]


def test_an_unknown_provisioner_names_every_allowed_one():
    assert problems_of({"provisioner": "fargate"}) == [
        "gpuNodeGroup.provisioner: Input should be 'nodeGroup', 'karpenter' or 'autoMode'; got 'fargate'"
    ]


def test_every_catalog_gpu_family_but_g7_is_one_auto_mode_launches():
    from components.facts import gpu_catalog

    families = {name.split(".", 1)[0] for name in gpu_catalog.GPU_INSTANCE_TYPES}
    # automode-learn-instances lists g7e and not g7.
    assert families - auto_mode.GPU_FAMILIES == {"g7"}
    assert not auto_mode.supports("g6f.xlarge") and auto_mode.supports("g5.xlarge")


def test_a_stack_of_auto_mode_pools_needs_no_autoscaler_device_plugin_or_node_monitoring_agent():
    settings = parse_settings({"gpuNodeGroup": AUTO})

    assert settings.installs_auto_mode
    assert not settings.installs_autoscaler and not settings.installs_karpenter
    assert not settings.device_plugin_enabled and not settings.node_repair


def test_a_fleet_mixing_provisioners_keeps_the_device_plugin_and_the_autoscaler_for_its_node_group():
    settings = parse_settings(
        {
            "gpuPools": {
                "small": {"instanceTypes": ["g5.xlarge"]},
                "big": {"instanceTypes": ["g6e.xlarge"], "provisioner": "autoMode"},
            }
        }
    )

    assert settings.installs_auto_mode and settings.installs_autoscaler and settings.device_plugin_enabled


def test_one_stack_takes_karpenter_or_auto_mode_pools_not_both():
    with pytest.raises(ConfigError) as error:
        parse_settings(
            {
                "gpuPools": {
                    "small": {"instanceTypes": ["g5.xlarge"], "provisioner": "karpenter"},
                    "big": {"instanceTypes": ["g6e.xlarge"], "provisioner": "autoMode"},
                }
            }
        )

    assert [str(problem) for problem in error.value.problems] == [
        "eks-gpu-inference:gpuPools.big.provisioner: 'autoMode' beside Karpenter pools (gpuPools.small); allowed: "
        "one of 'karpenter' "
        "and 'autoMode' in a stack (both run the karpenter.sh NodePool API), or 'nodeGroup'"
    ]


def _settings(**overrides) -> GpuNodeGroupSettings:
    return validate_section(GpuNodeGroupSettings, {**AUTO, **overrides}, where="gpuNodeGroup")


def test_the_node_pool_is_karpenters_with_an_eks_node_class_and_auto_modes_expiry():
    pool = manifests.node_pool("gpu", _settings(maxSize=3), PlacementContract())
    template = pool["spec"]["template"]

    assert (pool["apiVersion"], pool["kind"]) == ("karpenter.sh/v1", "NodePool")
    assert template["spec"]["nodeClassRef"] == {"group": "eks.amazonaws.com", "kind": "NodeClass", "name": "gpu"}
    assert template["spec"]["taints"] == [{"key": "GPU", "value": "true", "effect": "NoSchedule"}]
    assert template["metadata"]["labels"]["GPU"] == "true"
    assert pool["spec"]["limits"] == {"nvidia.com/gpu": "3", "cpu": "12"}
    lifetime = int(template["spec"]["expireAfter"][:-1]) + int(template["spec"]["terminationGracePeriod"][:-1])
    assert lifetime <= auto_mode.MAX_NODE_LIFETIME_HOURS


def test_the_node_class_has_the_documented_fields_only():
    node_class = manifests.node_class(
        "gpu", _settings(diskSize=200), "nodes-role", ["subnet-a", "subnet-b"], "sg-1", {"team": "ml"}
    )

    assert manifests.node_class_problems(node_class) == []
    assert node_class["spec"] == {
        "role": "nodes-role",
        "subnetSelectorTerms": [{"id": "subnet-a"}, {"id": "subnet-b"}],
        "securityGroupSelectorTerms": [{"id": "sg-1"}],
        "ephemeralStorage": {"size": "200Gi"},
        "tags": {"team": "ml"},
    }


def test_the_node_class_leaves_out_the_tags_auto_mode_keeps():
    tags = {"kubernetes.io/cluster/x": "owned", "karpenter.sh/nodepool": "x", "pulumi:stack": "dev"}
    node_class = manifests.node_class("gpu", _settings(), "role", ["subnet-a"], "sg-1", tags)

    assert node_class["spec"]["tags"] == {"pulumi:stack": "dev"}


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda m: m["spec"].update(amiSelectorTerms=[{"alias": "x"}]),
            "spec.amiSelectorTerms: not a documented field",
        ),
        (lambda m: m["spec"].pop("role"), "spec.role: required"),
        (lambda m: m["metadata"].update(name="default"), "metadata.name 'default'"),
        (
            lambda m: m["spec"]["subnetSelectorTerms"].append({"subnetId": "x"}),
            "spec.subnetSelectorTerms[1]: ['subnetId']",
        ),
        (lambda m: m["spec"]["ephemeralStorage"].update(size="70000Gi"), "spec.ephemeralStorage.size '70000Gi'"),
        (
            lambda m: m["spec"].update(tags={"eks.amazonaws.com/nodeclass": "x"}),
            "spec.tags.eks.amazonaws.com/nodeclass",
        ),
    ],
    ids=["an EC2NodeClass field", "no role", "named default", "a term by subnetId", "storage too large", "a kept tag"],
)
def test_a_node_class_off_the_documented_fields_is_named(change, expected):
    node_class = manifests.node_class("gpu", _settings(), "role", ["subnet-a"], "sg-1")
    change(node_class)

    [problem] = manifests.node_class_problems(node_class)
    assert problem.startswith(expected)


def test_the_cluster_enables_no_built_in_node_pool():
    assert manifests.compute_config() == {"node_pools": []}


def test_an_auto_mode_pool_node_carries_auto_modes_labels_and_advertises_its_gpus():
    [pool] = pools_for_node_groups(
        [NodeGroupSpec("gpu", "g5.xlarge", 0, gpu_advertised_by_host=True, provisioner="autoMode")]
    )
    labels = pool_labels(pool)

    assert labels["eks.amazonaws.com/compute-type"] == "auto"
    assert labels["karpenter.sh/nodepool"] == "gpu" and labels["karpenter.sh/capacity-type"] == "on-demand"
    assert labels["eks.amazonaws.com/instance-family"] == "g5"
    assert labels["eks.amazonaws.com/instance-gpu-count"] == "1"
    assert "eks.amazonaws.com/nodegroup" not in labels
    assert pool["node"]["status"]["allocatable"]["nvidia.com/gpu"] == "1"


def test_kept_off_auto_mode_nodes_adds_the_expression_to_every_term():
    spec = {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
        {"matchExpressions": [{"key": "a", "operator": "In", "values": ["1"]}]},
        {"matchExpressions": [{"key": "b", "operator": "Exists"}]},
    ]}}}}  # fmt: skip
    terms = auto_mode.off_auto_mode_nodes(spec)["affinity"]["nodeAffinity"][
        "requiredDuringSchedulingIgnoredDuringExecution"
    ]["nodeSelectorTerms"]

    assert [term["matchExpressions"][-1] for term in terms] == [auto_mode.NOT_ON_AUTO_MODE_NODES] * 2
    alone = auto_mode.off_auto_mode_nodes({})["affinity"]["nodeAffinity"]
    assert alone["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"] == [
        {"matchExpressions": [auto_mode.NOT_ON_AUTO_MODE_NODES]}
    ]


AUTO_MODE_REQUEST = {
    "computeConfig": {"enabled": True, "nodePools": []},
    "storageConfig": {"blockStorage": {"enabled": True}},
    "kubernetesNetworkConfig": {"elasticLoadBalancing": {"enabled": True}},
    "bootstrapSelfManagedAddons": False,
}


def test_an_auto_mode_create_cluster_request_as_the_stack_makes_it_passes():
    assert rules.auto_mode(AUTO_MODE_REQUEST) == []
    assert rules.auto_mode({"bootstrapSelfManagedAddons": True}) == []


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"storageConfig": {"blockStorage": {"enabled": False}}}, "storageConfig.blockStorage.enabled"),
        ({"kubernetesNetworkConfig": {}}, "kubernetesNetworkConfig.elasticLoadBalancing.enabled"),
        ({"bootstrapSelfManagedAddons": True}, "bootstrapSelfManagedAddons"),
        ({"computeConfig": {"enabled": True, "nodePools": [], "nodeRoleArn": "arn:role"}}, "computeConfig.nodeRoleArn"),
        ({"computeConfig": {"enabled": True, "nodePools": ["system"]}}, "computeConfig.nodePools"),
    ],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_an_auto_mode_create_cluster_request_eks_refuses_is_named(change, path):
    [violation] = rules.auto_mode({**AUTO_MODE_REQUEST, **change})

    assert violation.path == path
