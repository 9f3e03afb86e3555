"""`provisioner: autoMode` in the real program and plan: the dev stack with its GPU pool provisioned by EKS Auto Mode
enables the cluster's compute configuration through pulumi-eks, registers the nodes' role and access entry and the
pool's NodePool and NodeClass, keeps the device plugin and DCGM exporter off Auto Mode nodes, and plans clean with
verdict 12 holding; a NodePool that drifts from the placement contract fails the plan with the reason."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from conftest import (
    change_registrations,
    dev_stack_config,
    dev_stack_file,
    merge,
    plan_stack_file,
    run_stack,
    verdict,
)

from components.facts.resource_types import (
    ACCESS_ENTRY,
    ACCESS_POLICY_ASSOCIATION,
    AUTO_MODE_NODE_CLASS,
    DAEMONSET,
    EKS_CLUSTER,
    EKS_CONTROL_PLANE,
    KARPENTER_NODE_POOL,
    NODE_GROUP,
    ROLE_POLICY_ATTACHMENT,
)
from components.stackcheck.runtime import ProgramRun, run_program
from components.stackcheck.stack_config import load_stack_config

ROOT = Path(__file__).resolve().parents[2]
AUTO = {"gpuNodeGroup": {"provisioner": "autoMode"}}
FLEET = ROOT / "examples" / "fleet" / "Pulumi.fleet.yaml"


@pytest.fixture(scope="module")
def auto_run() -> ProgramRun:
    return run_stack(merge(dev_stack_config(), AUTO))


def auto_stack_file(tmp_path: Path, overrides: dict | None = None) -> Path:
    return dev_stack_file(tmp_path, AUTO, overrides or {}, name="auto")


@pytest.fixture(scope="module")
def auto_plan(tmp_path_factory) -> tuple[int, dict]:
    tmp_path = tmp_path_factory.mktemp("auto")
    return plan_stack_file(auto_stack_file(tmp_path), tmp_path / "out")


def test_the_dev_stack_keeps_its_node_group_provisioner():
    document = yaml.safe_load((ROOT / "Pulumi.dev.yaml").read_text())

    assert document["config"]["eks-gpu-inference:gpuNodeGroup"].get("provisioner", "nodeGroup") == "nodeGroup"


def test_the_cluster_enables_auto_mode_through_pulumi_eks_without_built_in_node_pools(auto_run):
    [cluster] = auto_run.of_type(EKS_CLUSTER)

    assert cluster.inputs["autoMode"] == {"enabled": True, "createNodeRole": False, "computeConfig": {"nodePools": []}}
    # The control plane's additional security group stays as it was without Auto Mode.
    assert cluster.inputs["skipDefaultSecurityGroups"] is False


def test_the_dev_stack_without_auto_mode_passes_no_auto_mode_input(dev_run):
    [cluster] = dev_run.of_type(EKS_CLUSTER)

    assert "autoMode" not in cluster.inputs
    assert not dev_run.of_type(AUTO_MODE_NODE_CLASS)


def test_the_pool_is_a_node_pool_of_an_eks_node_class_and_no_node_group(auto_run):
    [pool] = auto_run.of_type(KARPENTER_NODE_POOL)
    [node_class] = auto_run.of_type(AUTO_MODE_NODE_CLASS)

    assert [group.name for group in auto_run.of_type(NODE_GROUP)] == ["gpu-inference-dev-system"]
    assert pool.inputs["spec"]["template"]["spec"]["nodeClassRef"] == {
        "group": "eks.amazonaws.com",
        "kind": "NodeClass",
        "name": node_class.inputs["metadata"]["name"],
    }
    template = pool.inputs["spec"]["template"]
    assert template["spec"]["taints"] == [{"key": "GPU", "value": "true", "effect": "NoSchedule"}]
    assert template["metadata"]["labels"]["GPU"] == "true"
    # Pulumi.dev.yaml: maxSize 2 of g5.xlarge (1 A10G, 4 vCPUs).
    assert pool.inputs["spec"]["limits"] == {"nvidia.com/gpu": "2", "cpu": "8"}


def test_the_node_class_runs_in_the_gpu_subnets_with_the_cluster_security_group_and_the_pool_disk(auto_run):
    [node_class] = auto_run.of_type(AUTO_MODE_NODE_CLASS)
    spec = node_class.inputs["spec"]
    role = auto_run.named("gpu-inference-dev-auto-mode-node-role")

    assert spec["role"] == role.name
    assert spec["ephemeralStorage"] == {"size": "100Gi"}
    assert spec["subnetSelectorTerms"] and all(term["id"].startswith("gpu-inference-dev-network-private-")
                                               for term in spec["subnetSelectorTerms"])  # fmt: skip
    [group] = spec["securityGroupSelectorTerms"]
    assert group["id"].startswith("sg-")


def test_the_nodes_role_has_an_ec2_access_entry_with_the_auto_node_policy(auto_run):
    role = auto_run.named("gpu-inference-dev-auto-mode-node-role")
    [entry] = auto_run.of_type(ACCESS_ENTRY)
    [association] = [a for a in auto_run.of_type(ACCESS_POLICY_ASSOCIATION) if "auto-mode" in a.name]
    attached = {
        a.inputs["policyArn"].rsplit("/", 1)[1]
        for a in auto_run.of_type(ROLE_POLICY_ATTACHMENT)
        if "auto-mode" in a.name
    }

    assert entry.inputs["type"] == "EC2" and entry.inputs["principalArn"].endswith(f":role/{role.name}")
    assert association.inputs["policyArn"] == "arn:aws:eks::aws:cluster-access-policy/AmazonEKSAutoNodePolicy"
    assert association.inputs["accessScope"] == {"type": "cluster"}
    assert attached == {"AmazonEKSWorkerNodeMinimalPolicy", "AmazonEC2ContainerRegistryPullOnly"}
    assert json.loads(role.inputs["assumeRolePolicy"])["Statement"][0]["Principal"] == {"Service": "ec2.amazonaws.com"}


def test_the_control_plane_keeps_its_bootstrapped_add_ons_when_auto_mode_is_turned_on(auto_run):
    # A transform on the control plane pulumi-eks creates; under mocks the remote component registers no
    # children, so the transform is called here as the engine would.
    import pulumi

    from components.pools.auto_mode.cluster import bootstrap_addons_transform

    transform = bootstrap_addons_transform()
    args = pulumi.ResourceTransformArgs(
        custom=True, type_=EKS_CONTROL_PLANE, name="x", props={"bootstrapSelfManagedAddons": False}, opts=None
    )
    result = transform(args)

    assert result is not None and result.opts.ignore_changes == ["bootstrapSelfManagedAddons"]
    assert result.props == {"bootstrapSelfManagedAddons": False}
    other = pulumi.ResourceTransformArgs(custom=True, type_="aws:iam/role:Role", name="x", props={}, opts=None)
    assert transform(other) is None


def test_no_device_plugin_is_deployed_and_the_dcgm_exporter_keeps_off_auto_mode_nodes(auto_run):
    [exporter] = auto_run.of_type(DAEMONSET)
    terms = exporter.inputs["spec"]["template"]["spec"]["affinity"]["nodeAffinity"][
        "requiredDuringSchedulingIgnoredDuringExecution"
    ]["nodeSelectorTerms"]

    assert exporter.inputs["metadata"]["name"] == "dcgm-exporter"
    assert all(
        {"key": "eks.amazonaws.com/compute-type", "operator": "NotIn", "values": ["auto"]} in term["matchExpressions"]
        for term in terms
    )
    assert auto_run.outputs["devicePlugin"] == "not deployed: EKS Auto Mode's nodes run the device plugin themselves"


@pytest.fixture(scope="module")
def mixed_file(tmp_path_factory) -> Path:
    document = yaml.safe_load(FLEET.read_text())
    document["config"]["eks-gpu-inference:gpuPools"]["l40s"]["provisioner"] = "autoMode"
    stack_file = tmp_path_factory.mktemp("mixed-auto") / "Pulumi.fleet.yaml"
    stack_file.write_text(yaml.safe_dump(document))
    return stack_file


def test_beside_node_group_pools_the_device_plugin_keeps_off_auto_mode_nodes(mixed_file):
    config = load_stack_config(ROOT, stack_file=mixed_file)
    run = run_program(
        config.program, config.values, project=config.project, stack=config.stack, secret_keys=config.secret_keys
    )
    [plugin] = [d for d in run.of_type(DAEMONSET) if "device-plugin" in d.name]
    [term] = plugin.inputs["spec"]["template"]["spec"]["affinity"]["nodeAffinity"][
        "requiredDuringSchedulingIgnoredDuringExecution"
    ]["nodeSelectorTerms"]

    assert term["matchExpressions"] == [
        {"key": "eks.amazonaws.com/compute-type", "operator": "NotIn", "values": ["auto"]}
    ]
    groups = sorted(group.name for group in run.of_type(NODE_GROUP))
    assert groups == ["gpu-fleet-gpu-h100", "gpu-fleet-gpu-l4", "gpu-fleet-system"]
    [pool] = run.of_type(KARPENTER_NODE_POOL)
    assert pool.inputs["metadata"]["name"] == "gpu-l40s"


def test_a_fleet_with_an_auto_mode_pool_plans_clean_and_says_which_controller_scales_which_pool(mixed_file, tmp_path):
    code, report = plan_stack_file(mixed_file, tmp_path / "out")

    assert code == 0, report["failures"]
    assert verdict(report, "provisioners-place-pods-alike")["passed"]
    provisioners = {pool["name"]: pool["provisioner"] for pool in report["pools"]}
    assert provisioners["gpu-l40s"] == "autoMode"
    assert provisioners["gpu-fleet-gpu-l4"] == "nodeGroup"


def test_the_dev_stack_with_an_auto_mode_pool_plans_clean_with_verdict_12_holding(auto_plan):
    code, report = auto_plan

    assert code == 0, report["failures"]
    assert verdict(report, "provisioners-place-pods-alike")["passed"]
    assert "with gpu as a node group" in verdict(report, "provisioners-place-pods-alike")["message"]
    assert "vllm/vllm-server on gpu" in verdict(report, "gpu-workloads-land-on-gpu-pools")["message"]
    assert {(pool["name"], pool["provisioner"], pool["maxCount"], pool["gpuAdvertisedByHost"])
            for pool in report["pools"]} >= {("gpu", "autoMode", 2, True)}  # fmt: skip
    [node_pool] = [result for result in report["schema"] if result["object"].startswith("NodePool")]
    assert node_pool["passed"] and "CRD schema" in node_pool["message"]
    [node_class] = [result for result in report["schema"] if result["object"].startswith("NodeClass")]
    assert node_class["passed"] and node_class["message"].startswith("valid (NodeClass fields of the EKS user guide")


def test_a_node_class_off_the_documented_fields_fails_the_plan(tmp_path, monkeypatch):
    def misspelt(args):
        if args.typ == AUTO_MODE_NODE_CLASS:
            args.inputs["spec"]["ephemeralStorage"]["sizeGiB"] = 100
            return True
        return False

    change_registrations(monkeypatch, misspelt)
    code, report = plan_stack_file(auto_stack_file(tmp_path), tmp_path / "out")
    [node_class] = [result for result in report["schema"] if result["object"].startswith("NodeClass")]

    assert code == 1 and not node_class["passed"]
    assert "spec.ephemeralStorage.sizeGiB: not a documented field" in node_class["message"]


def test_the_auto_mode_cluster_request_passes_the_botocore_check_with_its_compute_configuration(auto_plan):
    _, report = auto_plan
    [check] = [c for c in report["awsRequests"] if c["type"] == EKS_CLUSTER]
    wanted = {ACCESS_ENTRY, ACCESS_POLICY_ASSOCIATION, ROLE_POLICY_ATTACHMENT}
    auto_checks = [c for c in report["awsRequests"] if c["type"] in wanted and "auto-mode" in c["name"]]

    assert check["checked"] and check["passed"], check
    assert {c["type"] for c in auto_checks} == wanted
    assert all(c["checked"] and c["passed"] for c in auto_checks), auto_checks


def test_the_cluster_request_has_auto_modes_three_capabilities_and_policies(auto_run):
    from components.stackcheck.aws.check import build_stack, check_resource

    [cluster] = auto_run.of_type(EKS_CLUSTER)
    check = check_resource(cluster, build_stack(auto_run.resources))
    requests = check.requests
    [create] = [r.params for r in requests if r.operation == "CreateCluster"]
    policies = {r.params["PolicyArn"].rsplit("/", 1)[1] for r in requests if r.operation == "AttachRolePolicy"}

    assert check.passed, check.failure_lines()
    assert create["computeConfig"] == {"enabled": True, "nodePools": []}
    assert create["storageConfig"] == {"blockStorage": {"enabled": True}}
    assert create["kubernetesNetworkConfig"]["elasticLoadBalancing"] == {"enabled": True}
    assert create["bootstrapSelfManagedAddons"] is False
    assert policies == {
        "AmazonEKSClusterPolicy",
        "AmazonEKSComputePolicy",
        "AmazonEKSBlockStoragePolicy",
        "AmazonEKSLoadBalancingPolicy",
        "AmazonEKSNetworkingPolicy",
    }


def test_a_node_pool_whose_taint_differs_from_the_contract_fails_a_verdict_with_the_reason(tmp_path, monkeypatch):
    def drifted_taint(args):
        if args.typ == KARPENTER_NODE_POOL:
            args.inputs["spec"]["template"]["spec"]["taints"] = [
                {"key": "nvidia.com/gpu", "value": "true", "effect": "NoSchedule"}
            ]
            return True
        return False

    changed = change_registrations(monkeypatch, drifted_taint)
    code, report = plan_stack_file(auto_stack_file(tmp_path), tmp_path / "out")

    assert code == 1 and changed == ["gpu-inference-dev-gpu-node-pool"]
    failed = verdict(report, "gpu-workloads-land-on-gpu-pools")
    assert not failed["passed"]
    assert "untolerated taint nvidia.com/gpu=true:NoSchedule" in json.dumps(report["matrix"])


def test_a_node_pool_selected_by_a_provisioner_label_fails_verdict_12(tmp_path, monkeypatch):
    # A server that selects Auto Mode's own label lands nowhere once its pool is a node group.
    def select_compute_type(args):
        if args.typ == "kubernetes:apps/v1:Deployment" and args.name.endswith("-vllm-deployment"):
            args.inputs["spec"]["template"]["spec"]["nodeSelector"]["eks.amazonaws.com/compute-type"] = "auto"
            return True
        return False

    change_registrations(monkeypatch, select_compute_type)
    code, report = plan_stack_file(auto_stack_file(tmp_path), tmp_path / "out")
    failed = verdict(report, "provisioners-place-pods-alike")

    assert code == 1 and not failed["passed"]
    assert "vllm/vllm-server lands on gpu as provisioned, and would not as a node group" in failed["message"]
