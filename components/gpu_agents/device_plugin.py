"""The NVIDIA device plugin DaemonSet, placed on the GPU nodes by the placement contract.

The stock manifest tolerates only `nvidia.com/gpu` and has no nodeSelector (docs/traps.md#device-plugin): on nodes
tainted `GPU=true:NoSchedule` it never runs, so no pod can request `nvidia.com/gpu`, while it lands
on CPU nodes where it has nothing to do. Here its tolerations and nodeSelector come from the same
`PlacementContract` that labels and taints the GPU node group. The plugin gets its own token-less
ServiceAccount and a NetworkPolicy that denies it all traffic: it talks to the kubelet over a unix socket.
"""

import pulumi
import pulumi_kubernetes as k8s

from ..args.validate import Validation, args_path, coerce, placement_contract
from ..facts import auto_mode, versions
from ..facts.contract import PlacementContract
from ..facts.identity import PROJECT
from ..facts.kubernetes import KUBE_SYSTEM
from ..facts.markers import DEVICE_PLUGIN_LABEL_VALUE
from ..kube.labels import checkov_annotations, created_name, created_namespace, selector_labels, standard_labels
from ..kube.labels import network_policy as network_policy_manifest
from ..kube.security_context import locked_down
from ..settings import DevicePluginSettings
from .args import NvidiaDevicePluginArgs

NAME = "nvidia-device-plugin"
DEFAULT_NAMESPACE = KUBE_SYSTEM
# The kubelet's device plugin registry: the plugin creates its socket here (root-owned on the host).
DEVICE_PLUGIN_DIR = "/var/lib/kubelet/device-plugins"
# Evicting the plugin takes every GPU off the node; only this class outranks the GPU workloads.
PRIORITY_CLASS = "system-node-critical"
RESOURCES = {
    "requests": {"cpu": "50m", "memory": "64Mi"},
    # The plugin idles after enumerating the GPUs once through NVML; the limits only stop a runaway.
    "limits": {"cpu": "200m", "memory": "256Mi"},
}
# The checks a root device plugin cannot pass, each with its reason.
CHECKOV_SKIPS = {
    "CKV_K8S_23": "the plugin runs as root to create its socket in the root-owned kubelet device-plugins dir",
    "CKV_K8S_40": "the plugin runs as root (UID 0) to create its socket in the kubelet device-plugins dir",
    "CKV_K8S_8": "the plugin serves no health endpoint to probe (the upstream manifest has no probes)",
    "CKV_K8S_9": "the plugin serves no readiness endpoint; it is ready once registered with the kubelet",
    "CKV_K8S_43": "the image is pinned to a release tag (facts/versions.py, devicePlugin.version)",
    "CKV_K8S_15": "a pinned release tag needs no re-pull; a registry outage must not stop the plugin restarting",
}


def validated(name: str, args: NvidiaDevicePluginArgs) -> tuple[PlacementContract, str, str, str]:
    """The contract, image version, object name and namespace from `args`; raises `ConfigError` naming every
    bad argument."""
    where = args_path("NvidiaDevicePlugin", name)
    validation = Validation(where, args)
    args = validation.known(args)
    contract, _ = placement_contract(args.placement, validation)
    settings = validation.section(DevicePluginSettings, args)
    object_name = validation.object_name(args.name or name)
    namespace = validation.namespace(args.namespace or DEFAULT_NAMESPACE)
    validation.done()
    return contract, settings.version, object_name, namespace


class NvidiaDevicePlugin(pulumi.ComponentResource):
    """The NVIDIA device plugin on every GPU node of the placement contract, and nowhere else."""

    daemonset_name: pulumi.Output[str]
    """Name of the plugin's DaemonSet."""
    namespace: pulumi.Output[str]
    """Namespace of the plugin's objects."""

    def __init__(self, name: str, args: NvidiaDevicePluginArgs, opts: pulumi.ResourceOptions | None = None):
        args = coerce(NvidiaDevicePluginArgs, args, args_path("NvidiaDevicePlugin", name))
        # Checked before anything is registered.
        contract, version, object_name, namespace = validated(name, args)
        super().__init__(f"{PROJECT}:index:NvidiaDevicePlugin", name, None, opts)
        child = pulumi.ResourceOptions(parent=self)
        account = service_account(name, namespace, version, object_name)
        k8s.core.v1.ServiceAccount(
            f"{name}-sa",
            metadata=account["metadata"],
            automount_service_account_token=account["automountServiceAccountToken"],
            opts=child,
        )
        manifest = daemonset(name, contract, version, namespace, object_name)
        if args.auto_mode_nodes:
            # Auto Mode's nodes run the NVIDIA device plugin themselves (facts/auto_mode.py).
            template = manifest["spec"]["template"]
            template["spec"] = auto_mode.off_auto_mode_nodes(template["spec"])
        plugin = k8s.apps.v1.DaemonSet(f"{name}-ds", metadata=manifest["metadata"], spec=manifest["spec"], opts=child)
        policy = network_policy(name, namespace, version, object_name)
        k8s.networking.v1.NetworkPolicy(f"{name}-netpol", metadata=policy["metadata"], spec=policy["spec"], opts=child)
        self.daemonset_name = plugin.metadata.apply(created_name)
        self.namespace = plugin.metadata.apply(created_namespace)
        self.register_outputs({"daemonset_name": self.daemonset_name, "namespace": self.namespace})


def image(version: str) -> str:
    """The device plugin image for a release tag."""
    return f"{versions.DEVICE_PLUGIN_IMAGE_REPOSITORY}:{version}"


def plugin_labels(instance: str, version: str) -> dict[str, str]:
    """The device plugin's labels; the placement guard recognises the plugin by its component label."""
    return standard_labels(app=NAME, instance=instance, component=DEVICE_PLUGIN_LABEL_VALUE, version=version)


def tolerations(contract: PlacementContract) -> list[dict[str, str]]:
    """Every NoSchedule/NoExecute taint of the GPU nodes tolerated, plus `nvidia.com/gpu` (Exists, NoSchedule)."""
    return contract.daemon_tolerations()


def container(version: str) -> dict:
    """The plugin container: root for its socket, but no capabilities, no escalation, read-only root."""
    return {
        "name": NAME,
        "image": image(version),
        "imagePullPolicy": "IfNotPresent",
        # No FAIL_ON_INIT_ERROR=false: the plugin's default (true) makes it exit when it cannot open NVML,
        # so a GPU node without a working driver shows a crash-looping plugin pod. With false it logs
        # "No devices found. Waiting indefinitely.", stays Running and advertises no GPUs (upstream
        # NVIDIA/k8s-device-plugin v0.20.0: README "FAIL_ON_INIT_ERROR", cmd/nvidia-device-plugin/main.go,
        # internal/resource/factory.go; removed from the static examples in v0.18.0, CHANGELOG).
        "resources": RESOURCES,
        # It writes only its socket, in the hostPath mount: the root filesystem stays read-only.
        "securityContext": locked_down(seccompProfile={"type": "RuntimeDefault"}),
        "volumeMounts": [{"name": "device-plugins", "mountPath": DEVICE_PLUGIN_DIR}],
    }


def pod_spec(contract: PlacementContract, version: str, service_account_name: str = NAME) -> dict:
    """The plugin's pod spec: on the contract's nodes only, tolerating their taints, one hostPath volume.

    No `runtimeClassName`: EKS AMIs define no `nvidia` RuntimeClass and make the NVIDIA runtime the
    default (docs/traps.md#runtime-class).
    """
    return {
        "serviceAccountName": service_account_name,
        "automountServiceAccountToken": False,
        "priorityClassName": PRIORITY_CLASS,
        "nodeSelector": contract.node_selector(),
        "tolerations": tolerations(contract),
        "securityContext": {"seccompProfile": {"type": "RuntimeDefault"}},
        "containers": [container(version)],
        "volumes": [{"name": "device-plugins", "hostPath": {"path": DEVICE_PLUGIN_DIR, "type": "Directory"}}],
    }


def daemonset(
    instance: str, contract: PlacementContract, version: str, namespace: str = DEFAULT_NAMESPACE, name: str = NAME
) -> dict:
    """The DaemonSet manifest `name` (`instance` is the component name, used in the instance label)."""
    labels = plugin_labels(instance, version)
    return {
        "apiVersion": "apps/v1",
        "kind": "DaemonSet",
        "metadata": {
            "name": name,
            "namespace": namespace,
            "labels": labels,
            "annotations": checkov_annotations(CHECKOV_SKIPS),
        },
        "spec": {
            "selector": {"matchLabels": selector_labels(labels)},
            "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1}},
            "template": {
                "metadata": {"labels": labels},
                "spec": pod_spec(contract, version, service_account_name=name),
            },
        },
    }


def service_account(instance: str, namespace: str, version: str, name: str = NAME) -> dict:
    """The plugin's own ServiceAccount, without a token: the plugin never calls the Kubernetes API."""
    return {
        "apiVersion": "v1",
        "kind": "ServiceAccount",
        "metadata": {"name": name, "namespace": namespace, "labels": plugin_labels(instance, version)},
        "automountServiceAccountToken": False,
    }


def network_policy(instance: str, namespace: str, version: str, name: str = NAME) -> dict:
    """Deny all traffic to and from the plugin pods: the plugin talks to the kubelet over a unix socket only."""
    labels = plugin_labels(instance, version)
    return network_policy_manifest({"name": name, "namespace": namespace, "labels": labels}, labels)
