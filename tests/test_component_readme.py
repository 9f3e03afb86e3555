"""The README's "Using the components in another stack" section: its program runs as shown, and its sample
error is what the components say."""

from __future__ import annotations

import re

import pytest
from conftest import ROOT

from components.settings import PROJECT, ConfigError
from components.stackcheck.runtime import run_program

SECTION = ROOT.joinpath("README.md").read_text().split("## Using the components in another stack", 1)[1]
SECTION = SECTION.split("\n## ", 1)[0]


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", SECTION, re.S)


def test_the_readme_program_builds_two_pools_and_two_servers_sharing_a_namespace(tmp_path):
    (source,) = blocks("python")
    # Installed, `components/` is `eks_gpu_inference` (tests/test_install.py runs the wheel); here the
    # repository's package stands in for it.
    assert "from eks_gpu_inference import (" in source
    program = tmp_path / "__main__.py"
    program.write_text(source.replace("eks_gpu_inference", "components"))
    run = run_program(program, {}, project="consumer", stack="dev")

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


def test_the_readme_error_sample_is_what_a_bad_node_group_reports(tmp_path):
    (sample,) = blocks("text")
    program = tmp_path / "__main__.py"
    program.write_text(
        "from components import GpuNodeGroup, GpuNodeGroupArgs, PlacementArgs\n"
        'GpuNodeGroup("gpu-a", GpuNodeGroupArgs(cluster_name="ml", node_role_arn="arn:aws:iam::123456789012:role/n",\n'
        '    subnet_ids=[], instance_types=["g5"], placement=PlacementArgs(taint_effect="NO_SCHEDULE")))\n'
    )
    with pytest.raises(ConfigError) as raised:
        run_program(program, {}, project=PROJECT, stack="test")
    assert str(raised.value).strip() == "\n".join(line.removeprefix("  ") for line in sample.strip().splitlines())
