"""The programs the README and docs/library.md show for using the components from Python: each runs as shown, and
the library page's sample error is what the components say."""

from __future__ import annotations

import re

import pytest
from conftest import ROOT

from components.settings import PROJECT, ConfigError
from components.stackcheck.runtime import run_program

LIBRARY = ROOT / "docs" / "library.md"
SECTION = LIBRARY.read_text().split("## From Python", 1)[1].split("\n## ", 1)[0]
README_SECTION = (
    ROOT.joinpath("README.md").read_text().split("## The components from Python", 1)[1].split("\n## ", 1)[0]
)


def blocks(text: str, language: str) -> list[str]:
    """The fenced blocks of `language` in `text`, each without the indentation of its fence (a block inside a list
    item is indented as the item's text)."""
    found = []
    for indent, body in re.findall(rf"^( *)```{language}\n(.*?)^ *```", text, re.S | re.M):
        found.append("".join(line.removeprefix(indent) for line in body.splitlines(keepends=True)))
    return found


def run_as_shown(tmp_path, source: str):
    """`source` run under mocks as a consumer's program; installed, `components/` is `eks_gpu_inference`
    (tests/project/test_install.py runs the wheel), and here the repository's package stands in for it."""
    assert "from eks_gpu_inference import " in source
    program = tmp_path / "__main__.py"
    program.write_text(source.replace("eks_gpu_inference", "components"))
    return run_program(program, {}, project="consumer", stack="dev")


def test_the_readme_program_builds_a_guarded_pool_its_device_plugin_and_a_server_on_it(tmp_path):
    (source,) = blocks(README_SECTION, "python")
    # "label GPU=true, taint GPU=true:NoSchedule", as the program's own comment says of the default contract.
    assert "label GPU=true, taint GPU=true:NoSchedule" in source
    run = run_as_shown(tmp_path, source)

    groups = {g.name: g.inputs for g in run.of_type("aws:eks/nodeGroup:NodeGroup")}
    gpu = groups["ml-l4"]
    assert gpu["instanceTypes"] == ["g6.xlarge"] and gpu["labels"]["GPU"] == "true"
    assert {"key": "GPU", "value": "true", "effect": "NO_SCHEDULE"} in gpu["taints"]  # EKS's spelling of NoSchedule
    toleration = {"key": "GPU", "operator": "Equal", "value": "true", "effect": "NoSchedule"}
    (plugin,) = run.of_type("kubernetes:apps/v1:DaemonSet")
    plugin_pod = plugin.inputs["spec"]["template"]["spec"]
    assert plugin_pod["nodeSelector"]["GPU"] == "true" and toleration in plugin_pod["tolerations"]
    (server,) = run.of_type("kubernetes:apps/v1:Deployment")
    server_pod = server.inputs["spec"]["template"]["spec"]
    assert server_pod["nodeSelector"]["GPU"] == "true" and toleration in server_pod["tolerations"]
    (container,) = server_pod["containers"]
    assert container["resources"]["limits"]["nvidia.com/gpu"] == "1"
    # The nodes run in the network's private subnets (those it tags for internal load balancers), not the default VPC.
    private = {
        subnet.id
        for subnet in run.of_type("aws:ec2/subnet:Subnet")
        if "kubernetes.io/role/internal-elb" in subnet.inputs["tags"]
    }
    assert private and set(gpu["subnetIds"]) <= private


def test_the_library_program_builds_two_pools_and_two_servers_sharing_a_namespace(tmp_path):
    (source,) = blocks(SECTION, "python")
    run = run_as_shown(tmp_path, source)

    groups = {group.name: group.inputs for group in run.of_type("aws:eks/nodeGroup:NodeGroup")}
    assert groups["ml-l4"]["instanceTypes"] == ["g6.xlarge"] and groups["ml-l40s"]["instanceTypes"] == ["g6e.xlarge"]
    assert groups["ml-l4"]["labels"]["nvidia.com/gpu.product"] == "NVIDIA-L4"
    deployments = {d.inputs["metadata"]["name"]: d.inputs for d in run.of_type("kubernetes:apps/v1:Deployment")}
    assert {name: d["metadata"]["namespace"] for name, d in deployments.items()} == {
        "qwen-7b": "llm",
        "qwen-14b": "llm",
    }
    affinity = deployments["qwen-14b"]["spec"]["template"]["spec"]["affinity"]["nodeAffinity"]
    terms = affinity["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"][0]["matchExpressions"]
    assert {"key": "nvidia.com/gpu.product", "operator": "In", "values": ["NVIDIA-L40S"]} in terms
    assert [ns.inputs["metadata"]["name"] for ns in run.of_type("kubernetes:core/v1:Namespace")] == ["llm"]
    assert run.outputs["kubeconfig"]


def test_the_library_error_sample_is_what_a_bad_node_group_reports(tmp_path):
    (sample,) = blocks(SECTION, "text")
    program = tmp_path / "__main__.py"
    program.write_text(
        "from components import GpuNodeGroup, GpuNodeGroupArgs, PlacementArgs\n"
        'GpuNodeGroup("gpu-a", GpuNodeGroupArgs(cluster_name="ml", node_role_arn="arn:aws:iam::123456789012:role/n",\n'
        '    subnet_ids=[], instance_types=["g5"], placement=PlacementArgs(taint_effect="NO_SCHEDULE")))\n'
    )
    with pytest.raises(ConfigError) as raised:
        run_program(program, {}, project=PROJECT, stack="test")
    assert str(raised.value).strip() == sample.strip()
