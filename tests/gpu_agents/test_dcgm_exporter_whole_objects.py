"""Every object the DCGM exporter registers but its container (tests/gpu_agents/test_dcgm_exporter_whole.py), whole, with its
parent and provider: each DaemonSet's metadata, annotations, selector, update strategy and pod spec, each mode's
NetworkPolicy (the egress to the node engine's port 5555 included), the Service and the ServiceAccount. The dev stack
(node repair on: an exporter for each DCGM engine, components/gpu_agents/dcgm_exporter.py says why), a stack without node repair
and with the Prometheus operator in another namespace (one exporter with its own engine, no scrape annotations), and
Bottlerocket (its checkov notes).

The node engine's affinity is the one aws/eks-node-monitoring-agent v1.7.0 gives `dcgm-server`
(charts/eks-node-monitoring-agent/values.yaml `dcgmAgent.affinity`, facts/node_agents.py cites it, read
2026-12-02); its port 5555 is dcgm-daemonset.yaml's hostPort at that tag.
"""

from __future__ import annotations

import pytest
from conftest import dev_stack_config, merge, run_stack

from components.facts import resource_types, versions
from components.facts.contract import PlacementContract
from components.facts.identity import PROJECT
from components.facts.node_agents import DCGM_INSTANCE_TYPES
from components.gpu_agents import dcgm_exporter
from components.stackcheck.runtime import run_program

EXPORTER = "eks-gpu-inference:index:DcgmExporter"
K8S_PROVIDER = resource_types.KUBERNETES_PROVIDER
DAEMONSET = resource_types.DAEMONSET
NETWORK_POLICY = resource_types.NETWORK_POLICY
SERVICE = resource_types.SERVICE
SERVICE_ACCOUNT = resource_types.SERVICE_ACCOUNT
INSTANCE = "gpu-inference-dev-dcgm-exporter"
ENGINE_LABEL = "eks-gpu-inference/dcgm-engine"
OTHER = {
    "gpuNodeGroup": {"nodeRepair": False},
    "observability": {"prometheusOperator": True, "monitoringNamespace": "observability"},
}
BOTTLEROCKET = {"gpuNodeGroup": {"amiFamily": "Bottlerocket"}}

SKIPS = [
    "CKV_K8S_23=the exporter runs as root to connect to the kubelet's root-owned pod-resources socket",
    "CKV_K8S_40=the exporter runs as UID 0 for the kubelet's root-owned pod-resources socket",
    "CKV_K8S_43=the image is pinned to a release tag in facts/versions.py",
    "CKV_K8S_15=a pinned release tag needs no re-pull; a registry outage must not stop the exporter restarting",
]
SYS_ADMIN_SKIPS = [
    "CKV_K8S_39=CAP_SYS_ADMIN is the one capability kept: DCGM profiling metrics (DCGM_FI_PROF_*) need it",
    "CKV_K8S_25=SYS_ADMIN is the one capability added, for DCGM profiling metrics (DCGM_FI_PROF_*); all others dropped",
]
BOTTLEROCKET_SKIPS = [
    "CKV_K8S_16=on Bottlerocket the NVIDIA runtime gives GPUs to unprivileged containers only when they request "
    "them; the exporter watches every GPU, so it runs privileged there",
    "CKV_K8S_20=privileged on Bottlerocket (see CKV_K8S_16), which Kubernetes allows only with privilege escalation",
    "CKV_K8S_37=privileged on Bottlerocket (see CKV_K8S_16): a privileged container has every capability",
    "CKV_K8S_28=privileged on Bottlerocket (see CKV_K8S_16): a privileged container has every capability",
]
# Where dcgm-server runs: the agent's one node selector term (all four expressions ANDed).
HOST_ENGINE_EXPRESSIONS = [
    {"key": "node.kubernetes.io/instance-type", "operator": "In", "values": list(DCGM_INSTANCE_TYPES)},
    {"key": "eks.amazonaws.com/compute-type", "operator": "NotIn", "values": ["fargate", "auto", "hybrid"]},
    {"key": "sagemaker.amazonaws.com/compute-type", "operator": "NotIn", "values": ["hyperpod"]},
    {"key": "kubernetes.io/arch", "operator": "In", "values": ["amd64"]},
]
NEGATED = {"In": "NotIn", "NotIn": "In"}


@pytest.fixture(scope="module")
def other_run():
    return run_stack(merge(dev_stack_config(), OTHER))


@pytest.fixture(scope="module")
def bottlerocket_run():
    return run_stack(merge(dev_stack_config(), BOTTLEROCKET))


def annotations(*skips: str) -> dict[str, str]:
    return {f"checkov.io/skip{index}": skip for index, skip in enumerate(skips, 1)}


def labels(engine: str | None = None) -> dict[str, str]:
    base = {
        "app.kubernetes.io/name": "dcgm-exporter",
        "app.kubernetes.io/instance": INSTANCE,
        "app.kubernetes.io/component": "dcgm-exporter",
        "app.kubernetes.io/part-of": "eks-gpu-inference",
        "app.kubernetes.io/managed-by": "pulumi",
        "app.kubernetes.io/version": versions.DCGM_EXPORTER_VERSION,
    }
    return {**base, ENGINE_LABEL: engine} if engine else base


def selector(engine: str | None = None) -> dict[str, str]:
    base = {"app.kubernetes.io/name": "dcgm-exporter", "app.kubernetes.io/instance": INSTANCE}
    return {**base, ENGINE_LABEL: engine} if engine else base


def children(run, type_: str) -> dict[str, object]:
    """The exporter's children of `type_`, by resource name; each checked to be its child through the stack's
    Kubernetes provider."""
    (exporter,) = run.of_type(EXPORTER)
    (provider,) = run.of_type(K8S_PROVIDER)
    found = {r.name: r for r in run.of_type(type_) if r.parent == exporter.urn}
    assert {r.provider for r in found.values()} == {f"{provider.urn}::{provider.id}"}
    return found


def pod_spec(account: str, affinity_expressions: list[list[dict]] | None) -> dict:
    """The pod spec but its containers: the contract's GPU nodes, tolerating their taints, no token, one
    read-only hostPath and a small /tmp."""
    spec = {
        "serviceAccountName": account,
        "automountServiceAccountToken": False,
        "enableServiceLinks": False,
        "nodeSelector": {"GPU": "true"},
        "tolerations": [
            {"key": "GPU", "operator": "Equal", "value": "true", "effect": "NoSchedule"},
            {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},
        ],
        "securityContext": {"seccompProfile": {"type": "RuntimeDefault"}},
        "volumes": [
            {"name": "pod-resources", "hostPath": {"path": "/var/lib/kubelet/pod-resources", "type": "Directory"}},
            {"name": "tmp", "emptyDir": {"sizeLimit": "64Mi"}},
        ],
    }
    if affinity_expressions is not None:
        terms = [{"matchExpressions": expressions} for expressions in affinity_expressions]
        spec["affinity"] = {
            "nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}}
        }
    return spec


SCRAPE = {"prometheus.io/scrape": "true", "prometheus.io/port": "9400", "prometheus.io/path": "/metrics"}
# name, engine label, checkov skips, node terms, pod annotations
DEV_DAEMONSETS = {
    f"{INSTANCE}-ds": ("dcgm-exporter", "host-engine", SKIPS, [HOST_ENGINE_EXPRESSIONS], SCRAPE),
    f"{INSTANCE}-embedded-ds": (
        "dcgm-exporter-embedded",
        "embedded",
        SKIPS + SYS_ADMIN_SKIPS,
        # The exact complement: one term per expression, negated (terms are ORed).
        [[{**expression, "operator": NEGATED[expression["operator"]]}] for expression in HOST_ENGINE_EXPRESSIONS],
        SCRAPE,
    ),
}


def expected_daemonset(name: str, engine: str | None, skips: list[str], terms, pod_annotations: dict | None) -> dict:
    template_metadata: dict = {"labels": labels(engine)}
    if pod_annotations:
        template_metadata["annotations"] = pod_annotations
    return {
        "metadata": {
            "name": name,
            "namespace": "kube-system",
            "labels": labels(engine),
            "annotations": annotations(*skips),
        },
        "spec": {
            "selector": {"matchLabels": selector(engine)},
            "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1}},
            "template": {"metadata": template_metadata, "spec": pod_spec("dcgm-exporter", terms)},
        },
    }


def without_containers(daemonset) -> dict:
    spec = daemonset.inputs["spec"]
    pod = {key: value for key, value in spec["template"]["spec"].items() if key != "containers"}
    template = {**spec["template"], "spec": pod}
    return {"metadata": daemonset.inputs["metadata"], "spec": {**spec, "template": template}}


@pytest.mark.parametrize("resource_name", sorted(DEV_DAEMONSETS))
def test_each_dev_daemonset_is_registered_whole_but_its_container(dev_run, resource_name):
    daemonsets = children(dev_run, DAEMONSET)

    assert sorted(daemonsets) == sorted(DEV_DAEMONSETS)
    assert without_containers(daemonsets[resource_name]) == expected_daemonset(*DEV_DAEMONSETS[resource_name])
    assert daemonsets[resource_name].inputs["apiVersion"] == "apps/v1"
    assert daemonsets[resource_name].inputs["kind"] == "DaemonSet"


def test_without_node_repair_one_daemonset_embeds_the_engine_on_every_gpu_node_unannotated_for_the_operator(other_run):
    daemonsets = children(other_run, DAEMONSET)

    assert sorted(daemonsets) == [f"{INSTANCE}-ds"]
    # Its own engine, so CAP_SYS_ADMIN and its notes; no engine label and no affinity; ServiceMonitors scrape it.
    assert without_containers(daemonsets[f"{INSTANCE}-ds"]) == expected_daemonset(
        "dcgm-exporter", None, SKIPS + SYS_ADMIN_SKIPS, None, None
    )


@pytest.mark.parametrize("resource_name", sorted(DEV_DAEMONSETS))
def test_on_bottlerocket_each_daemonset_carries_the_privileged_notes_instead_of_sys_admin(
    bottlerocket_run, resource_name
):
    daemonset = children(bottlerocket_run, DAEMONSET)[resource_name]

    assert daemonset.inputs["metadata"]["annotations"] == annotations(*SKIPS, *BOTTLEROCKET_SKIPS)


def ingress_from(namespace: str) -> list[dict]:
    return [
        {
            "from": [{"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": namespace}}}],
            "ports": [{"protocol": "TCP", "port": 9400}],
        }
    ]


def expected_policy(name: str, engine: str | None, monitoring: str, egress: list[dict] | None) -> dict:
    spec: dict = {
        "podSelector": {"matchLabels": selector(engine)},
        "policyTypes": ["Ingress", "Egress"],
        "ingress": ingress_from(monitoring),
    }
    if egress is not None:
        spec["egress"] = egress
    return {
        "apiVersion": "networking.k8s.io/v1",
        "kind": "NetworkPolicy",
        "metadata": {"name": name, "namespace": "kube-system", "labels": labels(engine)},
        "spec": spec,
    }


# Scrapes from the monitoring namespace only; out, nothing but TCP to the node engine's port where it uses it.
POLICIES = {
    "dev": {
        f"{INSTANCE}-netpol": (
            "dcgm-exporter",
            "host-engine",
            "monitoring",
            [{"ports": [{"protocol": "TCP", "port": 5555}]}],
        ),
        f"{INSTANCE}-embedded-netpol": ("dcgm-exporter-embedded", "embedded", "monitoring", None),
    },
    "other": {f"{INSTANCE}-netpol": ("dcgm-exporter", None, "observability", None)},
}


@pytest.mark.parametrize(
    ("stack_name", "resource_name"),
    [(stack_name, name) for stack_name, policies in POLICIES.items() for name in sorted(policies)],
)
def test_each_network_policy_is_registered_whole(dev_run, other_run, stack_name, resource_name):
    run = dev_run if stack_name == "dev" else other_run
    policies = children(run, NETWORK_POLICY)

    assert sorted(policies) == sorted(POLICIES[stack_name])
    assert policies[resource_name].inputs == expected_policy(*POLICIES[stack_name][resource_name])


@pytest.mark.parametrize("stack_name", ["dev", "other"])
def test_the_service_and_the_service_account_are_registered_whole(dev_run, other_run, stack_name):
    run = dev_run if stack_name == "dev" else other_run
    (service,) = children(run, SERVICE).values()
    (account,) = children(run, SERVICE_ACCOUNT).values()

    # One Service in front of both exporters: it selects by name and instance, not by engine.
    assert (service.name, service.inputs) == (
        f"{INSTANCE}-svc",
        {
            "apiVersion": "v1",
            "kind": "Service",
            "metadata": {
                "name": "dcgm-exporter",
                "namespace": "kube-system",
                "labels": labels(),
                # No endpoint while the GPU group is at zero: Pulumi must not wait for one.
                "annotations": {"pulumi.com/skipAwait": "true"},
            },
            "spec": {
                "type": "ClusterIP",
                "selector": selector(),
                "ports": [{"name": "metrics", "port": 9400, "targetPort": "metrics", "protocol": "TCP"}],
            },
        },
    )
    assert (account.name, account.inputs) == (
        f"{INSTANCE}-sa",
        {
            "apiVersion": "v1",
            "kind": "ServiceAccount",
            "metadata": {"name": "dcgm-exporter", "namespace": "kube-system", "labels": labels()},
            "automountServiceAccountToken": False,
        },
    )


@pytest.mark.parametrize("stack_name", ["dev", "other"])
def test_every_exporter_runs_as_the_service_account_the_component_registers(dev_run, other_run, stack_name):
    run = dev_run if stack_name == "dev" else other_run
    accounts = [
        (a.inputs["metadata"]["namespace"], a.inputs["metadata"]["name"])
        for a in children(run, SERVICE_ACCOUNT).values()
    ]
    used = {
        (d.inputs["metadata"]["namespace"], d.inputs["spec"]["template"]["spec"]["serviceAccountName"])
        for d in children(run, DAEMONSET).values()
    }

    # The API server refuses a pod whose ServiceAccount does not exist (the ServiceAccount admission plugin,
    # kubernetes plugin/pkg/admission/serviceaccount/admission.go), so each exporter names the one registered.
    assert accounts == [("kube-system", "dcgm-exporter")]
    assert used == {("kube-system", "dcgm-exporter")}


# The component as a program that imports the package calls it: every argument unlike the stack's.
PROGRAM = """
import pulumi
import pulumi_kubernetes as k8s
from components.args.validate import PlacementArgs
from components.gpu_agents.dcgm_exporter import DcgmExporter, DcgmExporterArgs

placement = PlacementArgs(
    label_key="accelerator", label_value="nvidia", taint_key="dedicated", taint_value="gpu", taint_effect="NoExecute"
)
DcgmExporter(
    "telemetry",
    DcgmExporterArgs(
        name="gpu-telemetry",
        namespace="gpu-monitoring",
        monitoring_namespace="prom",
        dcgm_host_engine=True,
        pod_annotations={"team": "ml"},
        placement=placement,
    ),
    opts=pulumi.ResourceOptions(providers=[k8s.Provider("cluster", kubeconfig="{}")]),
)
"""


@pytest.fixture(scope="module")
def component_run(tmp_path_factory):
    program = tmp_path_factory.mktemp("exporter") / "__main__.py"
    program.write_text(PROGRAM)
    return run_program(program, {}, project=PROJECT, stack="test")


def component_labels(engine: str | None = None) -> dict[str, str]:
    return {**labels(engine), "app.kubernetes.io/instance": "telemetry"}


def test_the_components_arguments_reach_every_object(component_run):
    objects = {r.name: r.inputs for r in component_run.resources if r.name.startswith("telemetry-")}
    by_engine = {
        "telemetry-ds": ("gpu-telemetry", "host-engine"),
        "telemetry-embedded-ds": ("gpu-telemetry-embedded", "embedded"),
    }

    assert sorted(objects) == sorted(
        ["telemetry-sa", "telemetry-svc", *by_engine, "telemetry-netpol", "telemetry-embedded-netpol"]
    )
    assert objects["telemetry-sa"]["metadata"] == {
        "name": "gpu-telemetry",
        "namespace": "gpu-monitoring",
        "labels": component_labels(),
    }
    assert objects["telemetry-svc"]["metadata"]["name"] == "gpu-telemetry"
    assert objects["telemetry-svc"]["metadata"]["namespace"] == "gpu-monitoring"
    assert objects["telemetry-svc"]["spec"]["selector"] == {
        "app.kubernetes.io/name": "dcgm-exporter",
        "app.kubernetes.io/instance": "telemetry",
    }
    for resource_name, (object_name, engine) in by_engine.items():
        daemonset = objects[resource_name]
        pod = daemonset["spec"]["template"]["spec"]
        assert {key: daemonset["metadata"][key] for key in ("name", "namespace", "labels")} == {
            "name": object_name,
            "namespace": "gpu-monitoring",
            "labels": component_labels(engine),
        }
        assert daemonset["spec"]["template"]["metadata"] == {
            "labels": component_labels(engine),
            "annotations": {"team": "ml"},
        }
        assert (pod["serviceAccountName"], pod["nodeSelector"], pod["tolerations"]) == (
            "gpu-telemetry",
            {"accelerator": "nvidia"},
            [
                {"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoExecute"},
                {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},
            ],
        )
        policy = objects[resource_name.replace("-ds", "-netpol")]
        assert policy["metadata"] == {
            "name": object_name,
            "namespace": "gpu-monitoring",
            "labels": component_labels(engine),
        }
        assert policy["spec"]["ingress"] == ingress_from("prom")


def test_the_daemonset_builders_defaults_are_one_exporter_with_its_own_engine_in_kube_system():
    manifest = dcgm_exporter.daemonset("exp", PlacementContract())

    instance = {"app.kubernetes.io/instance": "exp"}
    assert manifest["metadata"] == {
        "name": "dcgm-exporter",
        "namespace": "kube-system",
        "labels": {**labels(), **instance},
        "annotations": annotations(*SKIPS, *SYS_ADMIN_SKIPS),
    }
    assert manifest["spec"]["template"]["metadata"] == {"labels": {**labels(), **instance}}
    pod = manifest["spec"]["template"]["spec"]
    assert {key: value for key, value in pod.items() if key != "containers"} == pod_spec("dcgm-exporter", None)
    assert pod["containers"] == [dcgm_exporter.container()]
    assert pod["containers"][0]["securityContext"]["capabilities"] == {"add": ["SYS_ADMIN"], "drop": ["ALL"]}


@pytest.mark.parametrize(
    ("expression", "negated"),
    [
        pytest.param(
            {"key": "k", "operator": "In", "values": ["a"]}, {"key": "k", "operator": "NotIn", "values": ["a"]}, id="in"
        ),
        pytest.param(
            {"key": "k", "operator": "NotIn", "values": ["a"]},
            {"key": "k", "operator": "In", "values": ["a"]},
            id="not-in",
        ),
        pytest.param({"key": "k", "operator": "Exists"}, {"key": "k", "operator": "DoesNotExist"}, id="exists"),
        pytest.param({"key": "k", "operator": "DoesNotExist"}, {"key": "k", "operator": "Exists"}, id="does-not-exist"),
    ],
)
def test_the_embedded_exporters_terms_negate_each_operator_of_the_node_engines(monkeypatch, expression, negated):
    other = {"key": "kubernetes.io/arch", "operator": "In", "values": ["amd64"]}
    monkeypatch.setattr(dcgm_exporter, "host_engine_node_terms", lambda: [{"matchExpressions": [expression, other]}])

    # One term per expression (terms are ORed), each the expression negated.
    assert dcgm_exporter.embedded_engine_node_terms() == [
        {"matchExpressions": [negated]},
        {"matchExpressions": [{**other, "operator": "NotIn"}]},
    ]


def test_the_exporter_outputs_its_daemonsets_and_its_services_names(dev_run, component_run):
    (stack_exporter,) = dev_run.of_type(EXPORTER)
    (component,) = component_run.of_type(EXPORTER)

    # The first DaemonSet of a split is the one on the node engine's nodes, with the single exporter's name.
    assert dev_run.component_outputs[stack_exporter.urn] == {
        "daemonset_name": "dcgm-exporter",
        "service_name": "dcgm-exporter",
    }
    assert component_run.component_outputs[component.urn] == {
        "daemonset_name": "gpu-telemetry",
        "service_name": "gpu-telemetry",
    }
