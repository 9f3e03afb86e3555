"""`provisioner: karpenter` in the real program and plan: the dev stack with its GPU pool provisioned by Karpenter
registers the controller, its AWS side and the pool's NodePool and EC2NodeClass, and plans clean; a NodePool that
drifts from the placement contract fails the plan with the reason; the fleet form mixes both provisioners."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
from conftest import (
    change_registrations,
    dev_stack_config,
    merge,
    plan_stack_file,
    run_stack,
    verdict,
)

from components.facts import versions
from components.facts.resource_types import (
    ACCESS_ENTRY,
    EC2_TAG,
    EVENT_RULE,
    EVENT_TARGET,
    HELM_RELEASE,
    KARPENTER_NODE_CLASS,
    KARPENTER_NODE_POOL,
    NODE_GROUP,
    POD_IDENTITY_ASSOCIATION,
    ROLE_POLICY,
    SQS_QUEUE,
    SQS_QUEUE_POLICY,
    SUBNET,
)
from components.stackcheck.runtime import ProgramRun
from tests.support.karpenter_stack import KARPENTER, karpenter_stack_file

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def karpenter_run() -> ProgramRun:
    return run_stack(merge(dev_stack_config(), KARPENTER))


def test_a_karpenter_pool_is_a_node_pool_and_no_node_group(karpenter_run):
    [pool] = karpenter_run.of_type(KARPENTER_NODE_POOL)
    [node_class] = karpenter_run.of_type(KARPENTER_NODE_CLASS)

    assert [group.name for group in karpenter_run.of_type(NODE_GROUP)] == ["gpu-inference-dev-system"]
    assert pool.inputs["spec"]["template"]["spec"]["nodeClassRef"]["name"] == node_class.inputs["metadata"]["name"]


def test_the_node_pool_carries_the_contract_label_and_taint_and_the_gpu_product(karpenter_run):
    [pool] = karpenter_run.of_type(KARPENTER_NODE_POOL)
    template = pool.inputs["spec"]["template"]

    assert template["metadata"]["labels"] == {
        "GPU": "true",
        "nvidia.com/gpu.present": "true",
        "nvidia.com/gpu.product": "NVIDIA-A10G",
    }
    assert template["spec"]["taints"] == [{"key": "GPU", "value": "true", "effect": "NoSchedule"}]


def test_the_node_pool_limits_gpus_to_max_size_times_gpus_per_instance(karpenter_run):
    [pool] = karpenter_run.of_type(KARPENTER_NODE_POOL)

    # Pulumi.dev.yaml: maxSize 2 of g5.xlarge (1 A10G, 4 vCPUs).
    assert pool.inputs["spec"]["limits"] == {"nvidia.com/gpu": "2", "cpu": "8"}


def test_the_node_class_boots_the_pinned_al2023_alias_with_imdsv2_hop_limit_one_and_an_encrypted_gp3_root(
    karpenter_run,
):
    [node_class] = karpenter_run.of_type(KARPENTER_NODE_CLASS)
    spec = node_class.inputs["spec"]

    assert spec["amiSelectorTerms"] == [{"alias": f"al2023@{versions.KARPENTER_AL2023_AMI_RELEASE}"}]
    assert spec["metadataOptions"]["httpTokens"] == "required"
    assert spec["metadataOptions"]["httpPutResponseHopLimit"] == 1
    [root] = spec["blockDeviceMappings"]
    assert root["ebs"] == {"volumeSize": "100Gi", "volumeType": "gp3", "encrypted": True, "deleteOnTermination": True}
    assert spec["subnetSelectorTerms"] == [{"tags": {"karpenter.sh/discovery": "gpu-inference-dev"}}]
    assert spec["securityGroupSelectorTerms"] == spec["subnetSelectorTerms"]


def test_the_node_class_role_is_karpenters_node_role_which_has_an_ec2_linux_access_entry(karpenter_run):
    [node_class] = karpenter_run.of_type(KARPENTER_NODE_CLASS)
    [entry] = karpenter_run.of_type(ACCESS_ENTRY)
    role = karpenter_run.named("gpu-inference-dev-karpenter-node-role")

    assert node_class.inputs["spec"]["role"] == role.name
    assert entry.inputs["type"] == "EC2_LINUX"
    assert entry.inputs["principalArn"].endswith(f":role/{role.name}")


def releases(run: ProgramRun) -> dict[str, Any]:
    return {release.inputs["chart"].rpartition("/")[2]: release for release in run.of_type(HELM_RELEASE)}


def test_the_controller_is_the_pinned_chart_on_the_system_nodes_reading_its_interruption_queue(karpenter_run):
    release = releases(karpenter_run)["karpenter"]
    [queue] = karpenter_run.of_type(SQS_QUEUE)

    assert release.inputs["chart"] == "oci://public.ecr.aws/karpenter/karpenter"
    assert release.inputs["version"] == versions.KARPENTER_VERSION
    values = release.inputs["values"]
    assert values["settings"] == {"clusterName": "gpu-inference-dev", "interruptionQueue": queue.name}
    assert values["nodeSelector"]["eks-gpu-inference/node-pool"] == "system"


def test_the_crds_are_the_karpenter_crd_chart_at_the_same_pin_installed_before_the_controller_which_skips_its_own(
    karpenter_run,
):
    found = releases(karpenter_run)
    controller, crds = found["karpenter"], found["karpenter-crd"]
    [component] = [item for item in karpenter_run.resources if item.type.endswith(":Karpenter")]

    assert set(found) == {"karpenter", "karpenter-crd"}
    assert crds.inputs["chart"] == "oci://public.ecr.aws/karpenter/karpenter-crd"
    assert crds.inputs["version"] == controller.inputs["version"] == versions.KARPENTER_VERSION
    assert (crds.inputs["name"], crds.inputs["namespace"]) == ("karpenter-crd", "kube-system")
    assert not crds.inputs.get("skipCrds") and controller.inputs["skipCrds"] is True
    assert crds.urn in controller.dependencies
    assert crds.parent == controller.parent == component.urn
    # The pools wait for the controller, and through it for the CRDs.
    [pool] = [item for item in karpenter_run.resources if item.type.endswith(":KarpenterNodePool")]
    assert controller.urn in pool.dependencies


def test_the_controller_gets_its_credentials_through_pod_identity_with_a_policy_scoped_to_the_cluster(karpenter_run):
    [association] = [
        item for item in karpenter_run.of_type(POD_IDENTITY_ASSOCIATION) if item.inputs["serviceAccount"] == "karpenter"
    ]
    [policy] = [
        item for item in karpenter_run.of_type(ROLE_POLICY) if item.name == "gpu-inference-dev-karpenter-controller"
    ]
    statements = {statement["Sid"]: statement for statement in json.loads(policy.inputs["policy"])["Statement"]}

    assert association.inputs["namespace"] == "kube-system"
    assert statements["AllowAPIServerEndpointDiscovery"]["Resource"].endswith(":cluster/gpu-inference-dev")
    deletion = statements["AllowScopedDeletion"]["Condition"]["StringEquals"]
    assert deletion == {"aws:ResourceTag/kubernetes.io/cluster/gpu-inference-dev": "owned"}
    [queue] = karpenter_run.of_type(SQS_QUEUE)
    assert statements["AllowInterruptionQueueActions"]["Resource"].endswith(f":{queue.name}")


def test_every_resource_of_karpenter_is_its_child_and_its_charts_go_to_the_stacks_cluster(karpenter_run):
    # A resource registered without the component's options sits outside its tree (a targeted destroy of Karpenter
    # leaves it behind: the controller's policy, with its rights to launch and terminate instances) and, for a
    # chart, goes through the default provider, that is to whatever cluster the ambient kubeconfig names.
    (karpenter,) = karpenter_run.of_type("eks-gpu-inference:index:Karpenter")
    (provider,) = karpenter_run.of_type("pulumi:providers:kubernetes")
    named = [item for item in karpenter_run.resources if item.name.startswith(f"{karpenter.name}-")]
    assert {"gpu-inference-dev-karpenter-controller", "gpu-inference-dev-karpenter-release"} <= {
        item.name for item in named
    }
    for resource in named:
        assert resource.parent == karpenter.urn, resource.name
        if resource.type.startswith("kubernetes:"):
            assert resource.provider == f"{provider.urn}::{provider.id}", resource.name


def test_the_controllers_role_says_whose_it_is(karpenter_run):
    # What an operator reads in the IAM console beside the autonamed role: its cluster and how pods assume it.
    [role] = [item for item in karpenter_run.of_type("aws:iam/role:Role") if "karpenter-controller" in item.name]
    assert role.inputs["description"] == "Karpenter controller of EKS cluster gpu-inference-dev (EKS Pod Identity)"


def test_every_interruption_event_reaches_the_queue(karpenter_run):
    rules = {rule.name: json.loads(rule.inputs["eventPattern"]) for rule in karpenter_run.of_type(EVENT_RULE)}
    targets = karpenter_run.of_type(EVENT_TARGET)
    [queue] = karpenter_run.of_type(SQS_QUEUE)

    assert {pattern["detail-type"][0] for pattern in rules.values()} >= {
        "EC2 Spot Instance Interruption Warning",
        "EC2 Instance Rebalance Recommendation",
        "EC2 Instance State-change Notification",
        "AWS Health Event",
    }
    assert sorted(target.inputs["rule"] for target in targets) == sorted(rules)
    assert {target.inputs["arn"] for target in targets} == {f"arn:aws:sqs:us-west-2:123456789012:{queue.name}"}


def test_the_private_subnets_the_stack_creates_carry_the_discovery_tag_in_their_own_tags(karpenter_run):
    """A subnet owns its `tags`: pulumi-aws's `aws.ec2.Tag` is "not to be combined with the providers resource for
    managing the parent resource" (its docs, pulumi-aws v7.15.0: the parent's resource removes the tag), so the
    subnets the stack creates carry `karpenter.sh/discovery` themselves, with the cluster's name (Pulumi.dev.yaml),
    and no tag resource points at them."""
    subnets = {subnet.name: subnet for subnet in karpenter_run.of_type(SUBNET)}
    private = [subnets[f"gpu-inference-dev-network-private-{index}"] for index in range(3)]
    public = [subnets[f"gpu-inference-dev-network-public-{index}"] for index in range(3)]
    tags = karpenter_run.of_type(EC2_TAG)

    assert all(subnet.inputs["tags"]["karpenter.sh/discovery"] == "gpu-inference-dev" for subnet in private)
    assert not any("karpenter.sh/discovery" in subnet.inputs["tags"] for subnet in public)
    assert not {tag.inputs["resourceId"] for tag in tags} & {subnet.id for subnet in [*private, *public]}
    # The cluster security group EKS creates, which the nodes use (EksCluster.cluster_security_group_id): EKS, not
    # this stack, manages it, so the tag resource is its only owner of that tag.
    [security_group] = tags
    assert (security_group.inputs["resourceId"], security_group.inputs["key"], security_group.inputs["value"]) == (
        "sg-0eks0000000000000",
        "karpenter.sh/discovery",
        "gpu-inference-dev",
    )


def test_without_karpenter_the_private_subnets_carry_no_discovery_tag(dev_run):
    assert not any("karpenter.sh/discovery" in subnet.inputs["tags"] for subnet in dev_run.of_type(SUBNET))


BROUGHT_SUBNETS = ["subnet-0123456789abcdef0", "subnet-0123456789abcdef1"]


def test_subnets_the_stack_brings_are_tagged_with_a_tag_resource_and_a_warning(caplog):
    """Subnets made elsewhere (`cluster.privateSubnetIds`) have no resource here to carry the tag, so a tag resource
    adds it; their owner may remove it at its next refresh (the pulumi-aws `aws.ec2.Tag` note), which the warning
    says, naming the subnets and the fix."""
    caplog.set_level(logging.WARNING)
    run = run_stack(
        merge(
            merge(dev_stack_config(), KARPENTER),
            {"network": None, "cluster": {"vpcId": "vpc-0123456789abcdef0", "privateSubnetIds": BROUGHT_SUBNETS}},
        )
    )
    tags = {tag.inputs["resourceId"]: tag.inputs for tag in run.of_type(EC2_TAG)}
    warnings = [record.getMessage() for record in caplog.records if "karpenter.sh/discovery" in record.getMessage()]

    assert run.of_type(SUBNET) == []
    assert {subnet: (tags[subnet]["key"], tags[subnet]["value"]) for subnet in BROUGHT_SUBNETS} == {
        subnet: ("karpenter.sh/discovery", "gpu-inference-dev") for subnet in BROUGHT_SUBNETS
    }
    assert warnings == [
        "Karpenter finds its subnets by the tag karpenter.sh/discovery, which this stack adds to "
        "subnet-0123456789abcdef0, subnet-0123456789abcdef1 with aws.ec2.Tag as it does not create them: if their "
        "owner manages their tags (a Pulumi or Terraform subnet resource), its next refresh or update removes the "
        "tag and Karpenter launches no node; add karpenter.sh/discovery=<cluster name> to the subnets' tags where "
        "they are defined"
    ]


def test_the_vllm_pods_keep_their_node_from_disruption_for_their_cold_start_from_the_pods_start(karpenter_run):
    [server] = [
        item
        for item in karpenter_run.of_type("kubernetes:apps/v1:Deployment")
        if item.name.endswith("-vllm-deployment")
    ]
    annotations = server.inputs["spec"]["template"]["metadata"]["annotations"]

    # The pinned image on a g5.xlarge, 464 s (12 GB compressed and 28.6 GB unpacked written at the instance's
    # 700 Mbps EBS baseline: tests/vllm/test_disruption_window.py), and the default startupTimeoutSeconds 1800: the
    # window counts from the pod's startTime, before the image.
    assert annotations["karpenter.sh/do-not-disrupt"] == "2264s"


def test_the_node_pool_expires_no_node_and_bounds_a_drain(karpenter_run):
    [pool] = karpenter_run.of_type(KARPENTER_NODE_POOL)
    template = pool.inputs["spec"]["template"]["spec"]

    assert (template["expireAfter"], template["terminationGracePeriod"]) == ("Never", "2h")
    assert pool.inputs["spec"]["disruption"]["budgets"] == [{"nodes": "1"}]


def test_a_node_pool_that_expires_its_nodes_and_a_server_without_its_window_fail_the_replacement_verdict(
    tmp_path, monkeypatch
):
    # One plan run for both mutations: each names its own problem in the verdict.
    def expiring_and_unguarded(args):
        if args.typ == KARPENTER_NODE_POOL:
            args.inputs["spec"]["template"]["spec"]["expireAfter"] = "720h"
            return True
        if args.typ != "kubernetes:apps/v1:Deployment":
            return False
        metadata = args.inputs["spec"]["template"]["metadata"]
        return metadata.get("annotations", {}).pop("karpenter.sh/do-not-disrupt", None) is not None

    changed = change_registrations(monkeypatch, expiring_and_unguarded)
    code, report = plan_stack_file(karpenter_stack_file(tmp_path), tmp_path / "out")

    assert code == 1
    assert sorted(changed) == ["gpu-inference-dev-gpu-node-pool", "gpu-inference-dev-vllm-deployment"]
    failed = verdict(report, "node-replacement-keeps-models-serving")
    assert not failed["passed"]
    assert any(line.startswith("gpu: expireAfter 720h expires nodes by force") for line in failed["details"])
    assert any(
        line.startswith("vllm/vllm-server on gpu: no karpenter.sh/do-not-disrupt, but from the pod's")
        for line in failed["details"]
    )


def test_with_no_node_group_pool_the_cluster_autoscaler_is_not_installed(karpenter_run):
    assert not [item for item in karpenter_run.resources if item.type.endswith(":ClusterAutoscaler")]


def test_the_dev_stack_with_a_karpenter_pool_plans_clean(tmp_path):
    code, report = plan_stack_file(karpenter_stack_file(tmp_path), tmp_path / "out")

    assert code == 0, report["failures"]
    assert verdict(report, "gpu-workloads-land-on-gpu-pools")["passed"]
    # The discovery tag has one owner: the subnets' own tags, and the tag resource on the security group EKS made.
    assert verdict(report, "one-owner-per-attribute")["passed"]
    assert "vllm/vllm-server on gpu" in verdict(report, "gpu-workloads-land-on-gpu-pools")["message"]
    assert {(pool["name"], pool["provisioner"], pool["maxCount"]) for pool in report["pools"]} >= {
        ("gpu", "karpenter", 2)
    }
    found = {result["object"]: result for result in report["schema"] if result["object"].startswith("Release ")}
    assert {name: (result["passed"], result["message"]) for name, result in found.items()} == {
        "Release kube-system/karpenter": (
            True,
            "valid (values of chart oci://public.ecr.aws/karpenter/karpenter 1.14.1)",
        ),
        "Release kube-system/karpenter-crd": (
            True,
            "valid (values of chart oci://public.ecr.aws/karpenter/karpenter-crd 1.14.1)",
        ),
    }


def test_the_karpenter_aws_requests_pass_the_botocore_check(tmp_path):
    code, report = plan_stack_file(karpenter_stack_file(tmp_path), tmp_path / "out")
    wanted = {SQS_QUEUE, SQS_QUEUE_POLICY, EVENT_RULE, EVENT_TARGET, EC2_TAG, ACCESS_ENTRY, ROLE_POLICY}
    checks = [check for check in report["awsRequests"] if check["type"] in wanted and "karpenter" in check["name"]]

    assert {check["type"] for check in checks} == wanted
    assert all(check["checked"] and check["passed"] for check in checks), checks


def test_a_node_pool_whose_taint_differs_from_the_contract_fails_a_verdict_with_the_reason(tmp_path, monkeypatch):
    def drifted_taint(args):
        if args.typ == KARPENTER_NODE_POOL:
            args.inputs["spec"]["template"]["spec"]["taints"] = [
                {"key": "nvidia.com/gpu", "value": "true", "effect": "NoSchedule"}
            ]
            return True
        return False

    changed = change_registrations(monkeypatch, drifted_taint)
    code, report = plan_stack_file(karpenter_stack_file(tmp_path), tmp_path / "out")

    assert code == 1 and changed == ["gpu-inference-dev-gpu-node-pool"]
    failed = verdict(report, "gpu-workloads-land-on-gpu-pools")
    assert not failed["passed"]
    assert "untolerated taint nvidia.com/gpu=true:NoSchedule" in json.dumps(report["matrix"])


def test_a_karpenter_pool_needs_private_subnets_to_tag(stack):
    from components.args.coerce import StackConfigError

    with pytest.raises(StackConfigError) as error:
        stack({**KARPENTER, "network": {"mode": "defaultVpc"}})

    assert "gpuNodeGroup.provisioner: 'karpenter' without private subnets to tag for it" in str(error.value)


def test_the_cost_of_a_karpenter_pool_is_nothing_idle_and_its_gpu_limit_at_max(tmp_path):
    code, report = plan_stack_file(
        karpenter_stack_file(tmp_path, {"gpuNodeGroup": {"instanceTypes": ["g6.xlarge", "g5.xlarge"]}}),
        tmp_path / "out",
    )
    [pool] = [item for item in report["cost"]["pools"] if item["name"] == "gpu"]

    assert code == 0, report["failures"]
    assert pool["nodes"] == {"min": 0, "desired": 0, "max": 2}
    # On-Demand capacity goes to the cheapest type allowed: a g6.xlarge costs less an hour than a g5.xlarge.
    assert pool["instanceType"] == "g6.xlarge" and pool["monthlyUsd"]["desired"] == 0


def test_a_long_cluster_name_still_gives_aws_names_within_their_limits(tmp_path):
    long_name = "inference-" + "x" * 60
    code, report = plan_stack_file(karpenter_stack_file(tmp_path, {"cluster": {"name": long_name}}), tmp_path / "out")
    checks = [check for check in report["awsRequests"] if check["type"] in {SQS_QUEUE, EVENT_RULE}]

    assert code == 0, report["failures"]
    assert len(checks) == 6 and all(check["passed"] for check in checks)


def test_a_crd_chart_value_of_another_version_fails_the_plan_naming_it(tmp_path, monkeypatch):
    def old_webhook(args):
        if args.typ == HELM_RELEASE and args.inputs["chart"].endswith("/karpenter-crd"):
            # The karpenter-crd chart's webhook values of Karpenter 1.0 (charts/karpenter-crd/values.yaml at v1.0.0);
            # 1.14.1 reads none.
            args.inputs["values"] = {"webhook": {"enabled": True}, "additionalAnnotations": {"team": "ml"}}
            return True
        return False

    changed = change_registrations(monkeypatch, old_webhook)
    code, report = plan_stack_file(karpenter_stack_file(tmp_path), tmp_path / "out")

    assert code == 1 and changed == ["gpu-inference-dev-karpenter-crd-release"]
    [failed] = [result for result in report["schema"] if not result["passed"]]
    assert failed == {
        **failed,
        "object": "Release kube-system/karpenter-crd",
        "message": "invalid (chart oci://public.ecr.aws/karpenter/karpenter-crd 1.14.1): reads no values.webhook",
    }
