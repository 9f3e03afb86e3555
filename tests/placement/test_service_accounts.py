"""Verdict 17, `service-accounts-exist`: each workload's pods run as a ServiceAccount the stack registers in their
namespace, or as the namespace's `default`; what EKS or a Helm chart may make is noted, not failed."""

from __future__ import annotations

import pytest
from conftest import dev_stack_file, plan_stack_file, verdict

from components.facts.resource_types import HELM_RELEASE, SERVICE_ACCOUNT
from components.placement.evidence import Evidence
from components.placement.service_accounts import service_accounts_verdict
from components.placement.verdicts import VERDICTS
from components.stackcheck.plan.render import kubernetes_objects
from components.stackcheck.plan.run import PlanResult, _placement
from components.stackcheck.runtime import RegisteredResource


def _workload(kind: str, name: str, namespace: str | None, **spec) -> dict:
    metadata = {"name": name, **({"namespace": namespace} if namespace else {})}
    pod = {"metadata": {"labels": {"app": name}}, "spec": {"containers": [{"name": "main", "image": "x:1"}], **spec}}
    if kind == "Pod":
        return {"apiVersion": "v1", "kind": "Pod", "metadata": metadata, "spec": pod["spec"]}
    if kind == "CronJob":
        body = {"schedule": "@daily", "jobTemplate": {"spec": {"template": pod}}}
        return {"apiVersion": "batch/v1", "kind": kind, "metadata": metadata, "spec": body}
    return {"apiVersion": "apps/v1", "kind": kind, "metadata": metadata, "spec": {"template": pod}}


def _account(name: str, namespace: str | None) -> dict:
    return {
        "apiVersion": "v1",
        "kind": "ServiceAccount",
        "metadata": {"name": name, **({"namespace": namespace} if namespace else {})},
    }


_REFUSED = (
    "which the stack does not register: the API server refuses its pods (ServiceAccount admission), so none would "
    "run; register it, or name one that exists"
)

# (case, workloads, ServiceAccounts, Helm release namespaces, passed, message, details)
CASES = [
    (
        "a DaemonSet naming a ServiceAccount nobody registers",
        [_workload("DaemonSet", "exporter", "monitoring", serviceAccountName="exporter")],
        [_account("other", "monitoring")],
        [],
        False,
        f"DaemonSet monitoring/exporter runs as ServiceAccount monitoring/exporter, {_REFUSED}",
        [f"DaemonSet monitoring/exporter runs as ServiceAccount monitoring/exporter, {_REFUSED}"],
    ),
    (
        "the right name in another namespace",
        [_workload("Deployment", "server", "vllm", serviceAccountName="server")],
        [_account("server", "default")],
        [],
        False,
        f"Deployment vllm/server runs as ServiceAccount vllm/server, {_REFUSED}",
        [f"Deployment vllm/server runs as ServiceAccount vllm/server, {_REFUSED}"],
    ),
    (
        "no name: the namespace's default",
        [_workload("Deployment", "web", None)],
        [],
        [],
        True,
        "each of 1 workload(s) runs as a ServiceAccount of its namespace",
        ["Deployment default/web: default/default (every namespace has it)"],
    ),
    (
        "the deprecated serviceAccount field, a CronJob's template, a namespace left out",
        [
            _workload("Pod", "once", "jobs", serviceAccount="runner"),
            _workload("CronJob", "nightly", None, serviceAccountName="cron"),
        ],
        [_account("runner", "jobs"), _account("cron", None)],
        [],
        True,
        "each of 2 workload(s) runs as a ServiceAccount of its namespace",
        ["Pod jobs/once: jobs/runner", "CronJob default/nightly: default/cron"],
    ),
    (
        "kube-system and a Helm release's namespace are noted, and a real miss still fails",
        [
            _workload("DaemonSet", "agent", "kube-system", serviceAccountName="aws-node"),
            _workload("Deployment", "scaler", "keda", serviceAccountName="keda-operator"),
            _workload("Deployment", "server", "vllm", serviceAccountName="vllm"),
        ],
        [],
        ["keda"],
        False,
        f"Deployment vllm/server runs as ServiceAccount vllm/vllm, {_REFUSED}",
        [
            f"Deployment vllm/server runs as ServiceAccount vllm/vllm, {_REFUSED}",
            "DaemonSet kube-system/agent: kube-system/aws-node is not registered by the stack; not checked (EKS and its "
            "add-ons may make it)",
            "Deployment keda/scaler: keda/keda-operator is not registered by the stack; not checked (a Helm release's "
            "chart may make it)",
        ],
    ),
    (
        "only what cannot be checked",
        [_workload("DaemonSet", "agent", "kube-system", serviceAccountName="aws-node")],
        [],
        [],
        True,
        "each of 1 workload(s) runs as a ServiceAccount of its namespace (1 not checked)",
        [
            "DaemonSet kube-system/agent: kube-system/aws-node is not registered by the stack; not checked (EKS and its "
            "add-ons may make it)"
        ],
    ),
    ("no workload", [], [_account("x", "default")], [], True, "the stack registers no workload", []),
]


@pytest.mark.parametrize(
    ("case", "workloads", "accounts", "releases", "passed", "message", "details"), CASES, ids=[c[0] for c in CASES]
)
def test_each_pod_runs_as_a_service_account_that_exists(case, workloads, accounts, releases, passed, message, details):
    found = service_accounts_verdict(workloads, accounts, releases)

    assert found.name == "service-accounts-exist"
    assert (found.passed, found.message, found.details) == (passed, message, details)


def test_the_dev_plan_runs_each_workload_as_a_service_account_it_registers(tmp_path):
    code, document = plan_stack_file(dev_stack_file(tmp_path, {}), tmp_path / "out")

    found = verdict(document, "service-accounts-exist")
    assert code == 0 and found["passed"]
    assert found["details"] == [
        "DaemonSet kube-system/nvidia-device-plugin: kube-system/nvidia-device-plugin",
        "DaemonSet kube-system/dcgm-exporter: kube-system/dcgm-exporter",
        "DaemonSet kube-system/dcgm-exporter-embedded: kube-system/dcgm-exporter",
        "Deployment kube-system/cluster-autoscaler: kube-system/cluster-autoscaler",
        "Deployment vllm/vllm-server: vllm/vllm-server",
    ]
    registered = {
        f"{r['inputs']['metadata']['namespace']}/{r['inputs']['metadata']['name']}"
        for r in document["resources"]
        if r["type"] == "kubernetes:core/v1:ServiceAccount"
    }
    assert {line.rsplit(": ", 1)[1] for line in found["details"]} <= registered
    workloads = {
        f"{o['kind']} {o['namespace']}/{o['name']}"
        for o in document["objects"]
        if o["kind"] in ("DaemonSet", "Deployment")
    }
    assert {line.split(": ", 1)[0] for line in found["details"]} == workloads


def _registered(type_token: str, name: str, inputs: dict) -> RegisteredResource:
    return RegisteredResource(type_token, name, inputs, None, f"urn:pulumi:t::p::{type_token}::{name}", True)


def test_the_plan_reads_service_accounts_and_helm_release_namespaces_from_what_the_program_registered():
    def deployment(namespace: str, account: str) -> dict:
        pod = {"metadata": {"labels": {"app": account}}, "spec": {"serviceAccountName": account, "containers": []}}
        return {"metadata": {"name": account, "namespace": namespace}, "spec": {"template": pod}}

    resources = [
        _registered(HELM_RELEASE, "tools-release", {"chart": "tools", "namespace": "tools"}),
        _registered("kubernetes:apps/v1:Deployment", "tools", deployment("tools", "tools-sa")),
        _registered("kubernetes:apps/v1:Deployment", "app", deployment("apps", "app-sa")),
        _registered("kubernetes:apps/v1:Deployment", "web", deployment("web", "web-sa")),
        _registered(SERVICE_ACCOUNT, "app-sa", {"metadata": {"name": "app-sa", "namespace": "apps"}}),
    ]
    placed = _placement(resources, kubernetes_objects(resources), PlanResult("p", "t", "Pulumi.t.yaml", "out"))

    assert placed is not None
    assert [workload["metadata"]["name"] for workload in placed.workloads] == ["tools-sa", "app-sa", "web-sa"]
    # Judged as the plan judges it: the registry's entry over the evidence the plan gathered.
    judged = VERDICTS.entry("service-accounts-exist").run(Evidence(placement=placed))
    assert judged is not None
    found = judged.verdict

    # apps/app-sa is registered: a failing verdict lists only the misses and what it could not check.
    assert not found.passed
    assert found.details == [
        f"Deployment web/web-sa runs as ServiceAccount web/web-sa, {_REFUSED}",
        "Deployment tools/tools-sa: tools/tools-sa is not registered by the stack; not checked (a Helm release's "
        "chart may make it)",
    ]
