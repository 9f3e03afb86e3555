"""NVIDIA's DCGM exporter on every GPU node of the placement contract, and nowhere else.

The exporter reads GPU telemetry through a DCGM host engine, its own embedded one or the node's (below),
and serves it for Prometheus on port 9400. Like the device plugin it must reach nodes that the contract
taints, so its tolerations and nodeSelector come from the same `PlacementContract`. It attributes GPUs to
pods through the kubelet's pod-resources socket, mounted read-only from the host. A ClusterIP Service names
its metrics port, and a NetworkPolicy admits scrapes only from the monitoring namespace and lets the pods
send nothing but TCP to DCGM's port where it uses the node's engine.

What it needs and why (upstream at tag 4.5.3-4.8.2: dcgm-exporter.yaml, docker/Dockerfile,
internal/pkg/capabilities/capabilities.go):
- UID 0: the kubelet's pod-resources socket is root's and writable only by root (`srwxr-xr-x root root`,
  NVIDIA/gpu-operator#2092), and connecting to a unix socket needs write permission on it (unix(7)); the
  image itself runs as root.
- CAP_SYS_ADMIN, and no other capability: DCGM's profiling fields (`DCGM_FI_PROF_*`, part of the default
  counters) need it; upstream adds exactly this one and drops the rest.
- All GPUs without requesting any: the image sets `NVIDIA_VISIBLE_DEVICES=all`, which the NVIDIA runtime
  (the default runtime on the EKS NVIDIA AMIs) honours, so the exporter takes no `nvidia.com/gpu` from
  the workloads.
Everything else is off: no privilege escalation, a read-only root filesystem (`/tmp` is an emptyDir; the
embedded engine's log goes to stdout with `DCGM_EXPORTER_ENABLE_DCGM_LOG=true`, default false:
pkg/cmd/app.go, internal/pkg/dcgmprovider/dcgm.go sets `__DCGM_DBG_FILE=-`), RuntimeDefault seccomp, no
service-account token (it never calls the Kubernetes API), no host network or PID namespace.

One DCGM host engine per node. With node auto repair, the EKS node monitoring agent runs its own engine,
`dcgm-server` (`nv-hostengine -n -b ALL`, privileged, hostPort 5555), on the GPU nodes its node affinity
admits (aws/eks-node-monitoring-agent v1.7.0, charts/eks-node-monitoring-agent/templates/dcgm-daemonset.yaml
and values.yaml `dcgmAgent.affinity`; facts/node_agents.py). A second, embedded engine on the same GPUs
cannot share DCGM's profiling module with it (NVIDIA/dcgm-exporter#7, NVIDIA/DCGM#106 and #287): the
tensor-core panel or the agent's GPU checks break. There the exporter connects to that engine instead
(`DCGM_REMOTE_HOSTENGINE_INFO=<node IP>:5555`, pkg/cmd/app.go; the VPC CNI chains the portmap plugin with
SNAT, aws/amazon-vpc-cni-k8s misc/10-aws.conflist, so a pod reaches a hostPort on its own node's address),
and needs no CAP_SYS_ADMIN of its own; its NetworkPolicy lets it send to port 5555 only. On the GPU nodes
the agent's affinity leaves out, a second DaemonSet (`<name>-embedded`, the exact complement of that
affinity) embeds the engine as before, so every GPU node has exactly one engine and one exporter. The
exporter still opens NVML in Kubernetes mode (pkg/cmd/app.go: for MIG device ids), so the GPUs stay
visible to it in both modes.

Bottlerocket differs: its NVIDIA runtime ignores `NVIDIA_VISIBLE_DEVICES` in unprivileged containers
(`settings.nvidia-container-runtime.visible-devices-envvar-when-unprivileged`, default false; Bottlerocket
settings reference), so an unprivileged exporter sees no GPU and fails with "Failed to initialize NVML"
(NVIDIA/dcgm-exporter#279, bottlerocket-os/bottlerocket#3992). There the container runs privileged, which
the runtime honours, rather than turning that setting on for every pod of the node.

EKS Auto Mode nodes (`auto_mode_nodes`) are left out. EKS runs its own node monitoring there, with its NVIDIA
checks (EKS user guide, node-health: the agent and repair "are automatically enabled with EKS Auto Mode
compute"), on an AMI it chooses and locks down, and publishes neither whether that monitoring holds a DCGM host
engine (whose profiling module a second one cannot share, above) nor how an unprivileged container reaches the
GPUs there; the node monitoring agent's own `dcgm-server` keeps off them (`eks.amazonaws.com/compute-type NotIn
auto`, facts/node_agents.py). Without a source that an exporter works there, it does not run there (docs/gpu-pools.md,
"What Auto Mode runs on its nodes", says so).
"""

import pulumi
import pulumi_kubernetes as k8s

from ..args.validate import Validation, args_path, coerce, placement_contract
from ..facts import auto_mode, versions
from ..facts.contract import PlacementContract
from ..facts.identity import PROJECT
from ..facts.kubernetes import KUBE_SYSTEM
from ..facts.markers import DCGM_EXPORTER_LABEL_VALUE, DCGM_REMOTE_ENGINE_ENV
from ..facts.node_agents import DCGM_SERVER, DCGM_SERVER_HOST_PORT
from ..kube.labels import checkov_annotations, created_name, in_namespace, label_value, selector_labels, standard_labels
from ..kube.labels import network_policy as network_policy_manifest
from ..kube.security_context import locked_down
from ..settings import ObservabilitySettings
from .args import DcgmExporterArgs

NAME = "dcgm-exporter"
DEFAULT_NAMESPACE = KUBE_SYSTEM
PORT = 9400
PORT_NAME = "metrics"
METRICS_PATH = "/metrics"
HEALTH_PATH = "/health"
# The kubelet's pod-resources API socket lives here; the exporter maps GPUs to pods through it.
POD_RESOURCES_DIR = "/var/lib/kubelet/pod-resources"
# The counters the image ships (etc/default-counters.csv at the tag); the dashboard and alerts use only
# metrics from this file (dashboards/metrics/).
COUNTERS_FILE = "/etc/dcgm-exporter/default-counters.csv"
# How the exporter reaches DCGM: through the node monitoring agent's engine, or an engine of its own.
HOST_ENGINE = "host-engine"
EMBEDDED = "embedded"
# Set on both DaemonSets when there are two, so that their selectors do not overlap.
ENGINE_LABEL_KEY = f"{PROJECT}/dcgm-engine"
# Upstream's requests and limits (dcgm-exporter.yaml at the tag).
RESOURCES = {"requests": {"cpu": "100m", "memory": "128Mi"}, "limits": {"cpu": "200m", "memory": "256Mi"}}
# The Helm chart waits this long before probing: DCGM enumerates the GPUs first (values.yaml at the tag).
PROBE_DELAY_SECONDS = 45
CHECKOV_SKIPS = {
    "CKV_K8S_23": "the exporter runs as root to connect to the kubelet's root-owned pod-resources socket",
    "CKV_K8S_40": "the exporter runs as UID 0 for the kubelet's root-owned pod-resources socket",
    "CKV_K8S_43": "the image is pinned to a release tag in facts/versions.py",
    "CKV_K8S_15": "a pinned release tag needs no re-pull; a registry outage must not stop the exporter restarting",
}
SYS_ADMIN_CHECKOV_SKIPS = {
    "CKV_K8S_39": "CAP_SYS_ADMIN is the one capability kept: DCGM profiling metrics (DCGM_FI_PROF_*) need it",
    "CKV_K8S_25": "SYS_ADMIN is the one capability added, for DCGM profiling metrics (DCGM_FI_PROF_*); all others dropped",
}
BOTTLEROCKET_CHECKOV_SKIPS = {
    "CKV_K8S_16": "on Bottlerocket the NVIDIA runtime gives GPUs to unprivileged containers only when they "
    "request them; the exporter watches every GPU, so it runs privileged there",
    "CKV_K8S_20": "privileged on Bottlerocket (see CKV_K8S_16), which Kubernetes allows only with privilege escalation",
    "CKV_K8S_37": "privileged on Bottlerocket (see CKV_K8S_16): a privileged container has every capability",
    "CKV_K8S_28": "privileged on Bottlerocket (see CKV_K8S_16): a privileged container has every capability",
}


def validated(name: str, args: DcgmExporterArgs) -> tuple[PlacementContract, str, str, str]:
    """The contract, monitoring namespace, object name and namespace from `args`; raises `ConfigError` naming
    every bad argument."""
    where = args_path("DcgmExporter", name)
    validation = Validation(where, args)
    args = validation.known(args)
    contract, _ = placement_contract(args.placement, validation)
    observability = validation.section(ObservabilitySettings, args)
    object_name = validation.object_name(args.name or name)
    namespace = validation.namespace(args.namespace or DEFAULT_NAMESPACE)
    validation.done()
    return contract, observability.monitoring_namespace, object_name, namespace


class DcgmExporter(pulumi.ComponentResource):
    """The DCGM exporter DaemonSet, its Service and its NetworkPolicy; with `dcgm_host_engine`, a DaemonSet and
    NetworkPolicy for each engine (module docstring) behind the one Service."""

    daemonset_name: pulumi.Output[str]
    """Name of the exporter's DaemonSet (with `dcgm_host_engine`, the one on the node engine's GPU nodes)."""
    service_name: pulumi.Output[str]
    """Name of the Service in front of the exporter's metrics port (9400)."""

    def __init__(self, name: str, args: DcgmExporterArgs, opts: pulumi.ResourceOptions | None = None):
        args = coerce(DcgmExporterArgs, args, args_path("DcgmExporter", name))
        # Checked before anything is registered.
        contract, monitoring_namespace, object_name, namespace = validated(name, args)
        super().__init__(f"{PROJECT}:index:DcgmExporter", name, None, opts)
        child = pulumi.ResourceOptions(parent=self)
        account = service_account(name, namespace, object_name)
        k8s.core.v1.ServiceAccount(
            f"{name}-sa",
            metadata=account["metadata"],
            automount_service_account_token=account["automountServiceAccountToken"],
            opts=child,
        )
        split = bool(args.dcgm_host_engine)
        # The first keeps the names a single exporter has, so a stack without the node's engine replaces nothing.
        engines = [(HOST_ENGINE, "", object_name), (EMBEDDED, "-embedded", f"{object_name}-embedded")]
        exporters = []
        for engine, suffix, engine_object in engines if split else [(EMBEDDED, "", object_name)]:
            manifest = daemonset(
                name,
                contract,
                namespace=namespace,
                bottlerocket=bool(args.bottlerocket),
                pod_annotations=dict(args.pod_annotations or {}),
                name=engine_object,
                engine=engine,
                split=split,
                service_account_name=object_name,
            )
            if args.auto_mode_nodes:
                template = manifest["spec"]["template"]
                template["spec"] = auto_mode.off_auto_mode_nodes(template["spec"])
            exporters.append(
                k8s.apps.v1.DaemonSet(
                    f"{name}{suffix}-ds", metadata=manifest["metadata"], spec=manifest["spec"], opts=child
                )
            )
            policy = network_policy(name, namespace, monitoring_namespace, engine_object, engine=engine, split=split)
            k8s.networking.v1.NetworkPolicy(
                f"{name}{suffix}-netpol", metadata=policy["metadata"], spec=policy["spec"], opts=child
            )
        svc_manifest = service(name, namespace, object_name)
        svc = k8s.core.v1.Service(
            f"{name}-svc", metadata=svc_manifest["metadata"], spec=svc_manifest["spec"], opts=child
        )
        self.daemonset_name = exporters[0].metadata.apply(created_name)
        self.service_name = svc.metadata.apply(created_name)
        self.register_outputs({"daemonset_name": self.daemonset_name, "service_name": self.service_name})


def exporter_labels(instance: str, engine: str | None = None) -> dict[str, str]:
    """The exporter's labels; the placement guard recognises it by its component label. With `engine`, the
    labels of one of two exporters, which its selector includes."""
    labels = standard_labels(
        app=NAME,
        instance=instance,
        component=DCGM_EXPORTER_LABEL_VALUE,
        version=label_value(versions.DCGM_EXPORTER_VERSION),
    )
    return {**labels, ENGINE_LABEL_KEY: engine} if engine else labels


def engine_selector(labels: dict[str, str]) -> dict[str, str]:
    """What selects the pods of one exporter DaemonSet: its component's pods, of its engine if it has one."""
    engine = {ENGINE_LABEL_KEY: labels[ENGINE_LABEL_KEY]} if ENGINE_LABEL_KEY in labels else {}
    return {**selector_labels(labels), **engine}


def tolerations(contract: PlacementContract) -> list[dict[str, str]]:
    """Every NoSchedule/NoExecute taint of the GPU nodes tolerated, plus `nvidia.com/gpu` (Exists, NoSchedule)."""
    return contract.daemon_tolerations()


def security_context(bottlerocket: bool, engine: str = EMBEDDED) -> dict:
    """Root with a read-only root and CAP_SYS_ADMIN only for an embedded engine (none with the node's engine);
    privileged on Bottlerocket (module docstring)."""
    context = locked_down(
        capabilities={"add": ["SYS_ADMIN"], "drop": ["ALL"]} if engine == EMBEDDED else {"drop": ["ALL"]},
        runAsNonRoot=False,
        runAsUser=0,
        seccompProfile={"type": "RuntimeDefault"},
    )
    if bottlerocket:
        # The API server rejects `privileged: true` with `allowPrivilegeEscalation: false` (kubernetes
        # pkg/apis/core/validation, ValidateSecurityContext), and a privileged container has every
        # capability, so the capability list has nothing left to say.
        context.update({"privileged": True, "allowPrivilegeEscalation": True})
        context.pop("capabilities")
    return context


def engine_env(engine: str) -> list[dict]:
    """How the exporter reaches DCGM: the node's engine on the node's address, or its own engine logging to stdout."""
    if engine == HOST_ENGINE:
        return [
            {"name": "NODE_IP", "valueFrom": {"fieldRef": {"fieldPath": "status.hostIP"}}},
            # Kubernetes expands $(NODE_IP) from the variable above (dependent environment variables).
            {"name": DCGM_REMOTE_ENGINE_ENV, "value": f"$(NODE_IP):{DCGM_SERVER_HOST_PORT}"},
        ]
    return [{"name": "DCGM_EXPORTER_ENABLE_DCGM_LOG", "value": "true"}]


def container(bottlerocket: bool = False, engine: str = EMBEDDED) -> dict:
    """The exporter container: Kubernetes mode (pod attribution), the default counters, probes on /health."""
    probe = {"httpGet": {"path": HEALTH_PATH, "port": PORT_NAME}, "initialDelaySeconds": PROBE_DELAY_SECONDS}
    return {
        "name": NAME,
        "image": versions.DCGM_EXPORTER_IMAGE,
        "imagePullPolicy": "IfNotPresent",
        "args": ["-f", COUNTERS_FILE],
        "env": [
            {"name": "DCGM_EXPORTER_LISTEN", "value": f":{PORT}"},
            # Adds the pod, namespace and container of each GPU's workload, read from the pod-resources socket.
            {"name": "DCGM_EXPORTER_KUBERNETES", "value": "true"},
            # The node's name rather than the pod's in the exporter's Hostname label, as upstream sets it.
            {"name": "NODE_NAME", "valueFrom": {"fieldRef": {"fieldPath": "spec.nodeName"}}},
            *engine_env(engine),
        ],
        "ports": [{"name": PORT_NAME, "containerPort": PORT, "protocol": "TCP"}],
        "resources": RESOURCES,
        "livenessProbe": {**probe, "periodSeconds": 10},
        "readinessProbe": {**probe, "periodSeconds": 10},
        "securityContext": security_context(bottlerocket, engine),
        "volumeMounts": [
            {"name": "pod-resources", "mountPath": POD_RESOURCES_DIR, "readOnly": True},
            {"name": "tmp", "mountPath": "/tmp"},
        ],
    }


def host_engine_node_terms() -> list[dict]:
    """The node selector terms of the GPU nodes the node monitoring agent's `dcgm-server` runs on (its affinity)."""
    return DCGM_SERVER.required_node_terms()


def embedded_engine_node_terms() -> list[dict]:
    """The exact complement of `host_engine_node_terms`: one term per expression, negated (terms are ORed).

    `NotIn` and `DoesNotExist` also match a node without the label, and `In` and `Exists` only one with it, so
    each negation matches exactly the nodes its expression does not.
    """
    negation = {"In": "NotIn", "NotIn": "In", "Exists": "DoesNotExist", "DoesNotExist": "Exists"}
    [term] = host_engine_node_terms()  # the complement of several terms (ORed) would take every combination
    return [
        {"matchExpressions": [{**expression, "operator": negation[expression["operator"]]}]}
        for expression in term["matchExpressions"]
    ]


def pod_spec(
    contract: PlacementContract,
    *,
    bottlerocket: bool = False,
    service_account_name: str = NAME,
    engine: str = EMBEDDED,
    split: bool = False,
) -> dict:
    """On the contract's GPU nodes only, tolerating their taints; one read-only hostPath. With `split` (an
    exporter for each engine), only on the GPU nodes where the node's engine runs (`HOST_ENGINE`) or does not.

    No priority class: the exporter must never preempt the model server to fit on a full GPU node, and
    under node pressure it is evicted before the Guaranteed vLLM pod.
    """
    spec: dict = {
        "serviceAccountName": service_account_name,
        "automountServiceAccountToken": False,
        "enableServiceLinks": False,
        "nodeSelector": contract.node_selector(),
        "tolerations": tolerations(contract),
        "securityContext": {"seccompProfile": {"type": "RuntimeDefault"}},
        "containers": [container(bottlerocket, engine)],
        "volumes": [
            {"name": "pod-resources", "hostPath": {"path": POD_RESOURCES_DIR, "type": "Directory"}},
            {"name": "tmp", "emptyDir": {"sizeLimit": "64Mi"}},
        ],
    }
    if split:
        terms = host_engine_node_terms() if engine == HOST_ENGINE else embedded_engine_node_terms()
        spec["affinity"] = {
            "nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}}
        }
    return spec


def daemonset(
    instance: str,
    contract: PlacementContract,
    *,
    namespace: str = KUBE_SYSTEM,
    bottlerocket: bool = False,
    pod_annotations: dict[str, str] | None = None,
    name: str = NAME,
    engine: str = EMBEDDED,
    split: bool = False,
    service_account_name: str | None = None,
) -> dict:
    """The DaemonSet manifest `name` (`instance` is the component name, used in the instance label); with
    `split`, one of the two exporters of `DcgmExporter(dcgm_host_engine=True)`, for `engine`'s nodes.

    Its pods run as `service_account_name` (default `name`). Both exporters of a split share the component's one
    ServiceAccount: the API server refuses a pod whose ServiceAccount does not exist (the ServiceAccount admission
    plugin, kubernetes plugin/pkg/admission/serviceaccount/admission.go: "It ensures the ServiceAccount referenced
    by the pod exists"; read 2026-12-02), so the embedded exporter would never start under a name of its own."""
    labels = exporter_labels(instance, engine if split else None)
    skips = dict(CHECKOV_SKIPS)
    if bottlerocket:
        skips.update(BOTTLEROCKET_CHECKOV_SKIPS)
    elif engine == EMBEDDED:
        skips.update(SYS_ADMIN_CHECKOV_SKIPS)
    template_metadata: dict = {"labels": labels}
    if pod_annotations:
        template_metadata["annotations"] = dict(pod_annotations)
    return {
        "apiVersion": "apps/v1",
        "kind": "DaemonSet",
        "metadata": {"name": name, "namespace": namespace, "labels": labels, "annotations": checkov_annotations(skips)},
        "spec": {
            "selector": {"matchLabels": engine_selector(labels)},
            "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1}},
            "template": {
                "metadata": template_metadata,
                "spec": pod_spec(
                    contract,
                    bottlerocket=bottlerocket,
                    service_account_name=service_account_name or name,
                    engine=engine,
                    split=split,
                ),
            },
        },
    }


def service_account(instance: str, namespace: str = DEFAULT_NAMESPACE, name: str = NAME) -> dict:
    """The exporter's own ServiceAccount, without a token: the exporter never calls the Kubernetes API."""
    return {
        "apiVersion": "v1",
        "kind": "ServiceAccount",
        "metadata": {"name": name, "namespace": namespace, "labels": exporter_labels(instance)},
        "automountServiceAccountToken": False,
    }


def service(instance: str, namespace: str = DEFAULT_NAMESPACE, name: str = NAME) -> dict:
    """A ClusterIP Service naming the metrics port, for ServiceMonitors and service discovery."""
    labels = exporter_labels(instance)
    return {
        "apiVersion": "v1",
        "kind": "Service",
        # With no GPU node (the GPU group scales from zero) the Service has no endpoint; Pulumi would wait.
        "metadata": {
            "name": name,
            "namespace": namespace,
            "labels": labels,
            "annotations": {"pulumi.com/skipAwait": "true"},
        },
        "spec": {
            "type": "ClusterIP",
            "selector": selector_labels(labels),
            "ports": [{"name": PORT_NAME, "port": PORT, "targetPort": PORT_NAME, "protocol": "TCP"}],
        },
    }


def network_policy(
    instance: str,
    namespace: str,
    monitoring_namespace: str,
    name: str = NAME,
    engine: str = EMBEDDED,
    split: bool = False,
) -> dict:
    """Ingress on 9400 only from the monitoring namespace. No egress with an embedded engine (the pod-resources
    socket is local); with the node's engine, TCP to DCGM's port 5555 on any address, since the node's own
    address cannot be named ahead of the node. (The VPC CNI's network policy agent admits a pod's traffic to its
    own node in any case: aws/aws-network-policy-agent#65; the rule keeps the policy right under other engines.)"""
    labels = exporter_labels(instance, engine if split else None)
    egress = [{"ports": [{"protocol": "TCP", "port": DCGM_SERVER_HOST_PORT}]}] if engine == HOST_ENGINE else None
    policy = network_policy_manifest(
        {"name": name, "namespace": namespace, "labels": labels},
        labels,
        ingress=[{"from": [in_namespace(monitoring_namespace)], "ports": [{"protocol": "TCP", "port": PORT}]}],
        egress=egress,
    )
    policy["spec"]["podSelector"] = {"matchLabels": engine_selector(labels)}
    return policy
