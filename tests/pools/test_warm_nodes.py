"""Warm nodes (`warmNodes`): the placeholders that hold a pool's nodes, their settings rules and their price.

Figures from their sources, not from the code under test:

- the Cluster Autoscaler's `--expendable-pods-priority-cutoff` defaults to -10 (kubernetes/autoscaler
  cluster-autoscaler/config/flags/flags.go at cluster-autoscaler-1.36.1), and a pod is expendable when its priority is
  `< cutoff` (core/utils/expendable.go at that tag): -10 still scales up and holds a node, -11 does not;
- a pod without a priorityClassName has priority 0 (Kubernetes docs, Pod Priority and Preemption, with no
  globalDefault class, and the stack registers none), as the vLLM servers have: 0 > -10 preempts the placeholder;
- g5.xlarge is $1.006 an hour on demand in us-east-1 (the AWS price list row in facts/price_table.py), so a warm
  node is 1.006 x 730 = $734.38 a month; g5.4xlarge $1.624, $1,185.52 a month.
"""

from __future__ import annotations

import pytest

from components.facts import versions
from components.facts.contract import PlacementContract, Taint
from components.pools import warm_manifests
from components.settings import GpuNodeGroupSettings
from components.settings.errors import ConfigError
from components.settings.stack import parse_settings
from components.stackcheck.plan.schema import validator_version
from components.stackcheck.plan.warm_cost import node_hour
from tests.support.orderings import picked, variant_run
from tests.support.pod_security import restricted_violations

CLUSTER_AUTOSCALER_DEFAULT_CUTOFF = -10
SERVER_PRIORITY = 0
CONTRACT = PlacementContract(extra_taints=(Taint("team", "ml", "NoExecute"),))
LABELS = {"GPU": "true", "nvidia.com/gpu.product": "NVIDIA-A10G", "pool": "chat"}


def placeholder_pod(gpus: int = 4, count: int = 2) -> tuple[dict, dict]:
    deployment = warm_manifests.placeholders("chat", count, gpus, CONTRACT, LABELS)
    return deployment, deployment["spec"]["template"]["spec"]


def test_the_placeholder_priority_still_scales_up_and_holds_a_node_but_any_server_preempts_it():
    priority = warm_manifests.priority_class("chat")["value"]

    expendable = priority < CLUSTER_AUTOSCALER_DEFAULT_CUTOFF
    assert not expendable
    assert priority < SERVER_PRIORITY
    assert priority == -10


def test_the_priority_class_is_no_default_and_never_preempts_anything_itself():
    priority = warm_manifests.priority_class("chat")

    assert priority["globalDefault"] is False
    assert priority["preemptionPolicy"] == "Never"
    _, pod = placeholder_pod()
    assert pod["priorityClassName"] == priority["metadata"]["name"] == "chat-warm"


def test_each_placeholder_requests_every_gpu_of_a_node_so_it_holds_one_node():
    deployment, pod = placeholder_pod(gpus=4, count=2)

    [container] = pod["containers"]
    assert deployment["spec"]["replicas"] == 2
    assert container["resources"]["requests"]["nvidia.com/gpu"] == "4"
    assert container["resources"]["limits"]["nvidia.com/gpu"] == "4"


def test_placeholders_tolerate_every_repelling_taint_and_select_the_pools_own_labels():
    _, pod = placeholder_pod()

    assert pod["nodeSelector"] == LABELS
    assert {"key": "GPU", "operator": "Equal", "value": "true", "effect": "NoSchedule"} in pod["tolerations"]
    assert {"key": "team", "operator": "Equal", "value": "ml", "effect": "NoExecute"} in pod["tolerations"]


def test_placeholders_run_the_pinned_vllm_image_and_only_a_shell_that_exits_on_sigterm():
    _, pod = placeholder_pod()

    [container] = pod["containers"]
    assert container["image"] == f"vllm/vllm-openai:{versions.VLLM_VERSION}"
    # The image's entrypoint (vllm serve) is replaced: nothing opens a GPU.
    assert container["command"][:2] == ["/bin/sh", "-c"]
    assert "trap 'exit 0' TERM" in container["command"][2]
    assert "vllm" not in container["command"][2]
    assert pod["terminationGracePeriodSeconds"] == 1
    assert container["securityContext"]["allowPrivilegeEscalation"] is False


def test_placeholders_meet_the_restricted_pod_security_standard():
    """The placeholders run where the servers run, in a namespace that may enforce the `restricted` Pod Security
    Standard (kubernetes.io, Pod Security Standards): non-root, no privilege escalation, every capability dropped,
    the runtime's seccomp profile (tests/support/pod_security.py checks each rule)."""
    deployment = warm_manifests.placeholders("chat", 2, 4, CONTRACT, LABELS)

    assert restricted_violations(deployment["spec"]["template"]["spec"]) == []


def test_pulumi_does_not_wait_for_placeholders_that_wait_for_nodes():
    deployment, _ = placeholder_pod()

    assert deployment["metadata"]["annotations"]["pulumi.com/skipAwait"] == "true"


def test_more_warm_nodes_than_max_size_are_refused_naming_both():
    with pytest.raises(ConfigError) as error:
        parse_settings({"gpuNodeGroup": {"warmNodes": 3, "maxSize": 2}})

    assert "gpuNodeGroup.warmNodes: 3 is greater than maxSize 2; allowed: 0 to maxSize" in str(error.value)


def test_warm_nodes_on_auto_mode_are_refused_as_not_supported():
    with pytest.raises(ConfigError) as error:
        parse_settings({"gpuNodeGroup": {"provisioner": "autoMode", "instanceTypes": ["g6.xlarge"], "warmNodes": 1}})

    text = str(error.value)
    assert "gpuNodeGroup.warmNodes: 1 with provisioner 'autoMode': warm nodes are not supported there" in text
    assert "provisioner 'nodeGroup' or 'karpenter'" in text


@pytest.mark.parametrize(
    ("pool", "expected"),
    [
        ({"instanceTypes": ["g5.xlarge"], "warmNodes": 1}, ("g5.xlarge", 734.38)),
        # A node group fills On-Demand capacity in the order given: the first type.
        ({"instanceTypes": ["g5.4xlarge", "g5.xlarge"], "warmNodes": 1}, ("g5.4xlarge", 1185.52)),
        # Karpenter launches the cheapest type it may.
        (
            {"instanceTypes": ["g5.4xlarge", "g5.xlarge"], "provisioner": "karpenter", "warmNodes": 1},
            ("g5.xlarge", 734.38),
        ),
    ],
    ids=["one-type", "node-group-first-type", "karpenter-cheapest"],
)
def test_a_warm_node_is_priced_as_the_node_its_pool_launches(pool, expected):
    kind, price, why = node_hour(GpuNodeGroupSettings(**_snake(pool)), "us-east-1", None)

    assert price is not None, why
    assert (kind, round(price.per_month, 2)) == expected


def test_a_spot_warm_node_without_a_discount_is_not_priced_and_says_why():
    settings = GpuNodeGroupSettings(capacity_type="SPOT", warm_nodes=1)

    _, price, why = node_hour(settings, "us-east-1", None)

    assert price is None and "cost.spotDiscount" in why


def test_a_spot_warm_node_is_priced_as_its_dearest_type_less_the_discount():
    """Spot capacity may come from any type of the pool, so a warm node is priced as the dearest: g5.4xlarge's
    on-demand $1.624 an hour (the AWS price list row of facts/price_table.py) less a `cost.spotDiscount` of 0.6:
    1.624 x 0.4 = $0.6496 an hour, x 730 = $474.21 a month."""
    settings = GpuNodeGroupSettings(capacity_type="SPOT", instance_types=["g5.xlarge", "g5.4xlarge"], warm_nodes=1)

    kind, price, why = node_hour(settings, "us-east-1", 0.6)

    assert price is not None, why
    assert (kind, round(price.per_month, 2), why) == ("g5.4xlarge", 474.21, "")


def _snake(values: dict) -> dict:
    names = {"instanceTypes": "instance_types", "warmNodes": "warm_nodes", "provisioner": "provisioner"}
    return {names[key]: value for key, value in values.items()}


def test_both_builders_write_objects_the_api_server_accepts():
    """Each builder's dict is a whole object: kubernetes-validate checks it strictly (an unknown key is an error)
    against the OpenAPI schema of the stack's default Kubernetes version, as the plan checks what the program
    registers; an apiVersion the schemas do not hold, or a Deployment without its `kind`, is refused there."""
    import kubernetes_validate

    version = validator_version(versions.DEFAULT_KUBERNETES_VERSION)
    deployment, _ = placeholder_pod()

    for manifest, kind in ((warm_manifests.priority_class("chat"), "PriorityClass"), (deployment, "Deployment")):
        assert manifest["kind"] == kind
        kubernetes_validate.validate(manifest, version, strict=True)


def test_the_placeholders_and_their_class_carry_the_recommended_labels_as_the_pools_placeholder():
    """Kubernetes' recommended labels (Kubernetes docs, "Recommended Labels"): name, instance, component, part-of,
    managed-by and version, every value a string; the component says what the object is to someone listing pods."""
    deployment, _ = placeholder_pod()
    expected = {
        "app.kubernetes.io/name": "warm-node-placeholder",
        "app.kubernetes.io/instance": "chat",
        "app.kubernetes.io/component": "placeholder",
        "app.kubernetes.io/part-of": "eks-gpu-inference",
        "app.kubernetes.io/managed-by": "pulumi",
    }
    for labels in (
        deployment["metadata"]["labels"],
        deployment["spec"]["template"]["metadata"]["labels"],
        warm_manifests.priority_class("chat")["metadata"]["labels"],
    ):
        assert labels.items() >= expected.items()
        assert all(isinstance(value, str) and value for value in labels.values())


def test_the_registered_priority_class_is_no_default_and_never_preempts():
    """What the program registers, not only what the builder returns: `globalDefault` false (a default class would
    give every pod of the cluster without one the placeholders' -10), `preemptionPolicy` Never."""
    [priority] = picked(variant_run("warmQueue"), "PriorityClass gpu-warm-priority")
    assert priority.inputs["globalDefault"] is False
    assert priority.inputs["value"] == -10
    assert priority.inputs["preemptionPolicy"] == "Never"


def test_the_registered_placeholders_are_the_builders_deployment_of_the_pools_warm_nodes():
    """The `warmQueue` variant keeps one warm node on the dev pool (one A10G a g5.xlarge): the program registers
    the placeholders under the pool's name, with the builder's metadata and spec, after their PriorityClass."""
    run = variant_run("warmQueue")
    [priority] = picked(run, "PriorityClass gpu-warm-priority")
    [deployment] = picked(run, "Deployment gpu-warm")

    assert deployment.inputs["metadata"]["name"] == priority.inputs["metadata"]["name"] == "gpu-inference-dev-gpu-warm"
    assert deployment.inputs["spec"]["replicas"] == 1
    [container] = deployment.inputs["spec"]["template"]["spec"]["containers"]
    assert container["resources"]["requests"]["nvidia.com/gpu"] == "1"
    assert priority.urn in deployment.depends_on


def test_the_builders_write_every_field_of_the_class_and_the_placeholders():
    """Whole objects, so a key misspelt or a value lost anywhere shows: the class at the autoscaler's cutoff (-10),
    never a default, never preempting; the placeholders locked down as the restricted Pod Security Standard asks,
    as the image's own user (UID 2000, group 0: vLLM's Dockerfile from v0.22.0, facts/versions.py), requests equal
    to limits; the Deployment selects its pods by the two selector labels (kube/labels.py)."""
    labels = {
        "app.kubernetes.io/name": "warm-node-placeholder",
        "app.kubernetes.io/instance": "chat",
        "app.kubernetes.io/component": "placeholder",
        "app.kubernetes.io/part-of": "eks-gpu-inference",
        "app.kubernetes.io/managed-by": "pulumi",
        "app.kubernetes.io/version": versions.VLLM_VERSION,
    }
    deployment, _ = placeholder_pod(gpus=4, count=2)
    amounts = {"cpu": "10m", "memory": "16Mi", "nvidia.com/gpu": "4"}

    assert warm_manifests.priority_class("chat") == {
        "apiVersion": "scheduling.k8s.io/v1",
        "kind": "PriorityClass",
        "metadata": {"name": "chat-warm", "labels": labels},
        "value": -10,
        "globalDefault": False,
        "preemptionPolicy": "Never",
        "description": "Placeholders holding warm GPU nodes of pool chat; every server preempts them.",
    }
    annotations = deployment["metadata"].pop("annotations")
    assert annotations["pulumi.com/skipAwait"] == "true"
    assert deployment == {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "chat-warm", "namespace": "default", "labels": labels},
        "spec": {
            "replicas": 2,
            "selector": {
                "matchLabels": {
                    "app.kubernetes.io/name": "warm-node-placeholder",
                    "app.kubernetes.io/instance": "chat",
                }
            },
            "template": {
                "metadata": {"labels": labels},
                "spec": {
                    "priorityClassName": "chat-warm",
                    "terminationGracePeriodSeconds": 1,
                    "automountServiceAccountToken": False,
                    "nodeSelector": LABELS,
                    "tolerations": CONTRACT.tolerations(),
                    "containers": [
                        {
                            "name": "placeholder",
                            "image": f"vllm/vllm-openai:{versions.VLLM_VERSION}",
                            "command": ["/bin/sh", "-c", "trap 'exit 0' TERM; sleep infinity & wait"],
                            "resources": {"requests": amounts, "limits": amounts},
                            "securityContext": {
                                "allowPrivilegeEscalation": False,
                                "capabilities": {"drop": ["ALL"]},
                                "privileged": False,
                                "readOnlyRootFilesystem": True,
                                "runAsNonRoot": True,
                                "runAsUser": 2000,
                                "runAsGroup": 0,
                                "seccompProfile": {"type": "RuntimeDefault"},
                            },
                        }
                    ],
                },
            },
        },
    }
