"""One DCGM host engine per GPU node: where the node monitoring agent runs `dcgm-server`, the exporter connects to
it; elsewhere it embeds its own. Both modes as the program registers them, and verdict 10 on each."""

from __future__ import annotations

import itertools
import json

import pytest
from conftest import ROOT, dev_stack_config, merge

from components.facts.contract import PlacementContract
from components.facts.node_agents import DCGM_INSTANCE_TYPES, DCGM_SERVER
from components.facts.resource_types import DAEMONSET, NETWORK_POLICY
from components.gpu_agents.dcgm_exporter import EMBEDDED, ENGINE_LABEL_KEY, HOST_ENGINE, daemonset
from components.placement import node_matches
from components.placement.exporter import dcgm_exporter_covers_gpu_pools, is_dcgm_exporter, uses_remote_engine
from components.placement.workloads import daemonset_pod
from components.stackcheck.__main__ import main
from tests.support.placement_guard import GPU_TAINT, node, system_pool

CONTRACT = PlacementContract()


def registered(run, type_token: str) -> dict[str, dict]:
    """The exporter's objects of one type, by object name."""
    return {
        r.inputs["metadata"]["name"]: r.inputs
        for r in run.of_type(type_token)
        if r.inputs["metadata"]["name"].startswith("dcgm-exporter")
    }


def container_of(daemonset_inputs: dict) -> dict:
    [container] = daemonset_inputs["spec"]["template"]["spec"]["containers"]
    return container


def env_of(daemonset_inputs: dict) -> dict[str, dict]:
    return {variable["name"]: variable for variable in container_of(daemonset_inputs)["env"]}


def test_with_node_repair_the_exporter_reads_dcgm_servers_engine_and_a_second_one_embeds_its_own(stack):
    run = stack({})  # node repair is on by default: the node monitoring agent runs dcgm-server
    daemonsets, policies = registered(run, DAEMONSET), registered(run, NETWORK_POLICY)
    assert set(daemonsets) == set(policies) == {"dcgm-exporter", "dcgm-exporter-embedded"}
    remote, embedded = daemonsets["dcgm-exporter"], daemonsets["dcgm-exporter-embedded"]
    # The first keeps the resource names of a single exporter; the second's add `-embedded` (a rename would
    # replace the objects).
    for type_token, kind in ((DAEMONSET, "ds"), (NETWORK_POLICY, "netpol")):
        names = {r.inputs["metadata"]["name"]: r.name for r in run.of_type(type_token)}
        assert names["dcgm-exporter"].endswith(f"-{kind}")
        assert names["dcgm-exporter-embedded"] == names["dcgm-exporter"].removesuffix(f"-{kind}") + f"-embedded-{kind}"

    remote_env = env_of(remote)
    assert remote_env["NODE_IP"] == {"name": "NODE_IP", "valueFrom": {"fieldRef": {"fieldPath": "status.hostIP"}}}
    assert remote_env["DCGM_REMOTE_HOSTENGINE_INFO"]["value"] == "$(NODE_IP):5555"
    names = list(remote_env)
    assert names.index("NODE_IP") < names.index("DCGM_REMOTE_HOSTENGINE_INFO")  # expanded from an earlier variable
    assert "DCGM_EXPORTER_ENABLE_DCGM_LOG" not in remote_env
    assert container_of(remote)["securityContext"]["capabilities"] == {"drop": ["ALL"]}
    assert policies["dcgm-exporter"]["spec"]["egress"] == [{"ports": [{"protocol": "TCP", "port": 5555}]}]

    embedded_env = env_of(embedded)
    assert embedded_env["DCGM_EXPORTER_ENABLE_DCGM_LOG"]["value"] == "true"
    assert "DCGM_REMOTE_HOSTENGINE_INFO" not in embedded_env
    assert container_of(embedded)["securityContext"]["capabilities"] == {"add": ["SYS_ADMIN"], "drop": ["ALL"]}
    assert "egress" not in policies["dcgm-exporter-embedded"]["spec"]

    # Disjoint selectors, each policy on its own DaemonSet's pods.
    assert remote["spec"]["selector"]["matchLabels"][ENGINE_LABEL_KEY] == HOST_ENGINE
    assert embedded["spec"]["selector"]["matchLabels"][ENGINE_LABEL_KEY] == EMBEDDED
    for name, selected in daemonsets.items():
        assert policies[name]["spec"]["podSelector"] == selected["spec"]["selector"]
        labels = selected["spec"]["template"]["metadata"]["labels"]
        assert selected["spec"]["selector"]["matchLabels"].items() <= labels.items()


def test_without_node_repair_one_exporter_embeds_the_engine_everywhere_as_before(stack):
    run = stack({"gpuNodeGroup": {"nodeRepair": False}})
    daemonsets, policies = registered(run, DAEMONSET), registered(run, NETWORK_POLICY)
    assert set(daemonsets) == set(policies) == {"dcgm-exporter"}
    [only] = daemonsets.values()
    env = env_of(only)
    assert env["DCGM_EXPORTER_ENABLE_DCGM_LOG"]["value"] == "true" and "DCGM_REMOTE_HOSTENGINE_INFO" not in env
    assert container_of(only)["securityContext"]["capabilities"] == {"add": ["SYS_ADMIN"], "drop": ["ALL"]}
    assert "affinity" not in only["spec"]["template"]["spec"]
    # The selector a deployed single exporter already has: a change would replace the DaemonSet.
    assert ENGINE_LABEL_KEY not in only["spec"]["selector"]["matchLabels"]
    assert "egress" not in policies["dcgm-exporter"]["spec"]


def node_labelled(instance_type: str, arch: str, extra: dict[str, str]) -> dict:
    labels = {
        "GPU": "true",
        "kubernetes.io/os": "linux",
        "node.kubernetes.io/instance-type": instance_type,
        "kubernetes.io/arch": arch,
        **extra,
    }
    return node("n", labels, [GPU_TAINT], {})


SPECIAL_NODES = [{}, {"eks.amazonaws.com/compute-type": "auto"}, {"sagemaker.amazonaws.com/compute-type": "hyperpod"}]


@pytest.mark.parametrize(
    ("instance_type", "arch", "extra"),
    list(itertools.product(["g5.xlarge", "g5g.xlarge", "g4ad.xlarge"], ["amd64", "arm64"], SPECIAL_NODES)),
    ids=lambda value: json.dumps(value) if isinstance(value, dict) else value,
)
def test_every_gpu_node_gets_exactly_one_exporter_and_it_reads_dcgm_server_exactly_where_that_runs(
    instance_type, arch, extra
):
    gpu_node = node_labelled(instance_type, arch, extra)
    pods = {
        engine: daemonset_pod(daemonset("x", CONTRACT, engine=engine, split=True)) for engine in (HOST_ENGINE, EMBEDDED)
    }
    landing = [engine for engine, pod in pods.items() if node_matches(pod, gpu_node)]
    dcgm_server = {"spec": {**DCGM_SERVER.pod_spec, "tolerations": CONTRACT.tolerations()}}

    assert len(landing) == 1
    assert (landing == [HOST_ENGINE]) == node_matches(dcgm_server, gpu_node)
    assert (landing == [HOST_ENGINE]) == (instance_type in DCGM_INSTANCE_TYPES and arch == "amd64" and not extra)


def gpu_pool_of(name: str, instance_type: str, arch: str) -> dict:
    return {"name": name, "count": 1, "gpusPerNode": 1, "node": node_labelled(instance_type, arch, {})}


def dcgm_server(tolerated: bool = True) -> dict:
    spec = {**DCGM_SERVER.pod_spec, "tolerations": CONTRACT.tolerations() if tolerated else []}
    return {
        "kind": "DaemonSet",
        "metadata": {"name": "dcgm-server", "namespace": "kube-system"},
        "spec": {"template": {"spec": spec}},
    }


def split_exporters() -> list[dict]:
    return [
        daemonset("x", CONTRACT, name=name, engine=engine, split=True)
        for engine, name in ((HOST_ENGINE, "dcgm-exporter"), (EMBEDDED, "dcgm-exporter-embedded"))
    ]


AMD64_POOL = gpu_pool_of("l4", "g6.xlarge", "amd64")
GRAVITON_POOL = gpu_pool_of("graviton", "g5g.xlarge", "arm64")
SINGLE = [daemonset("x", CONTRACT, name="dcgm-exporter")]


@pytest.mark.parametrize(
    ("exporters", "engines", "pools", "passed", "fragment"),
    [
        pytest.param(
            split_exporters(),
            [dcgm_server()],
            [AMD64_POOL, GRAVITON_POOL],
            True,
            "l4 (kube-system/dcgm-exporter, the engine of kube-system/dcgm-server), "
            "graviton (kube-system/dcgm-exporter-embedded, its own engine)",
            id="split exporters beside dcgm-server: each pool reads one engine",
        ),
        pytest.param(
            SINGLE,
            [dcgm_server()],
            [AMD64_POOL],
            False,
            "DCGM exporter kube-system/dcgm-exporter embeds a DCGM engine on GPU pool l4, where kube-system/dcgm-server "
            "runs one",
            id="an embedded engine beside dcgm-server fails",
        ),
        pytest.param(
            split_exporters(),
            [],
            [AMD64_POOL],
            False,
            "connects to a DCGM host engine on GPU pool l4, where none runs: it exits at start",
            id="an exporter waiting for an engine nobody runs fails",
        ),
        pytest.param(
            SINGLE,
            [dcgm_server(tolerated=False)],
            [AMD64_POOL],
            True,
            "l4 (kube-system/dcgm-exporter, its own engine)",
            id="dcgm-server kept off the tainted pool leaves the embedded engine alone there",
        ),
        pytest.param(
            [*SINGLE, daemonset("y", CONTRACT, name="second-exporter")],
            [],
            [AMD64_POOL],
            False,
            "2 DCGM exporters land on GPU pool l4 (kube-system/dcgm-exporter, kube-system/second-exporter)",
            id="two exporters on one pool fail",
        ),
    ],
)
def test_verdict_10_holds_one_exporter_on_one_engine_per_pool(exporters, engines, pools, passed, fragment):
    verdict = dcgm_exporter_covers_gpu_pools(exporters, [system_pool(), *pools], host_engines=engines)
    assert verdict.passed is passed, verdict.message
    assert fragment in verdict.message


def test_an_exporter_pointed_at_an_engine_by_flag_or_variable_is_recognised():
    [remote, embedded] = split_exporters()
    assert uses_remote_engine(daemonset_pod(remote)) and not uses_remote_engine(daemonset_pod(embedded))
    for args in (["-r", "10.0.0.1:5555"], ["--remote-hostengine-info=10.0.0.1:5555"]):
        pod = {"spec": {"containers": [{"name": "e", "args": args}]}}
        assert uses_remote_engine(pod), args
    assert all(is_dcgm_exporter(manifest) for manifest in split_exporters())


@pytest.mark.parametrize(
    ("overrides", "detail"),
    [
        pytest.param({}, "(kube-system/dcgm-exporter, the engine of kube-system/dcgm-server)", id="dev: dcgm-server"),
        pytest.param(
            {"gpuNodeGroup": {"nodeRepair": False}}, "(kube-system/dcgm-exporter, its own engine)", id="no node repair"
        ),
        pytest.param(
            # A 1.5B model: the default 7B's 14.2 GiB of weights do not fit a 16 GiB T4G (verdict 11).
            {"gpuNodeGroup": {"instanceTypes": ["g5g.xlarge"]}, "vllm": {"model": "Qwen/Qwen2.5-1.5B-Instruct"}},
            "(kube-system/dcgm-exporter-embedded, its own engine)",
            id="Graviton GPUs, where dcgm-server does not run",
        ),
    ],
)
def test_the_plan_proves_one_engine_per_gpu_pool(tmp_path, capsys, overrides, detail):
    stack_file = tmp_path / "Pulumi.engines.yaml"
    config = {f"eks-gpu-inference:{key}": value for key, value in merge(dev_stack_config(), overrides).items()}
    stack_file.write_text(json.dumps({"config": {"aws:region": "us-west-2", **config}}))
    out = tmp_path / "out"
    code = main(
        ["plan", "--project-dir", str(ROOT), "--stack-file", str(stack_file), "--out", str(out), "--format", "json"]
    )
    document = json.loads(capsys.readouterr().out)
    [verdict] = [v for v in document["verdicts"] if v["id"] == 10]
    assert code == 0 and verdict["passed"], verdict
    assert detail in verdict["message"]


@pytest.mark.parametrize(
    ("container", "remote"),
    [
        pytest.param({"command": ["dcgm-exporter", "-r", "10.0.0.1:5555"]}, True, id="the flag in the command"),
        pytest.param(
            {"command": ["dcgm-exporter"], "args": ["--remote-hostengine-info=10.0.0.1:5555"]}, True, id="in the args"
        ),
        pytest.param({"command": ["dcgm-exporter"], "args": ["-f", "/etc/metrics.csv"]}, False, id="neither"),
    ],
)
def test_the_remote_engine_flag_is_read_from_the_command_and_from_the_args(container, remote):
    pod = {"spec": {"containers": [{"name": "e", **container}]}}
    assert uses_remote_engine(pod) is remote
