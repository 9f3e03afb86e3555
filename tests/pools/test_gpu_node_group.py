"""Per-pool GPU facts: each GPU node group labels its nodes with its own instance types' GPU product."""

from __future__ import annotations

import textwrap

from components.facts.contract import NVIDIA_GPU_PRODUCT_LABEL, PlacementContract
from components.facts.gpu_catalog import CLUSTER_AUTOSCALER_TEMPLATE_TAG
from components.facts.resource_types import AUTOSCALING_TAG as TAG
from components.facts.resource_types import NODE_GROUP
from components.pools.gpu_node_group import gpu_node_labels
from components.settings import GpuNodeGroupSettings, parse_settings
from components.stackcheck.runtime import run_program

PRODUCT_TAG = f"{CLUSTER_AUTOSCALER_TEMPLATE_TAG}/label/{NVIDIA_GPU_PRODUCT_LABEL}"

# A program using the component API docs/library.md shows: one contract shared by an A10G group and an L40S group.
PROGRAM = textwrap.dedent("""
    from components.args.validate import PlacementArgs
    from components.pools.gpu_node_group import GpuNodeGroup, GpuNodeGroupArgs

    placement = PlacementArgs()
    for name, types in (("a10g", ["g5.xlarge"]), ("l40s", ["g6e.xlarge"])):
        GpuNodeGroup(name, GpuNodeGroupArgs(cluster_name="ml", node_role_arn="arn:aws:iam::123456789012:role/n",
                                            subnet_ids=["subnet-0123456789abcdef0"], placement=placement,
                                            instance_types=types))
""")


def test_two_gpu_node_groups_sharing_one_contract_get_their_own_product_labels(tmp_path):
    assert parse_settings({"gpuNodeGroup": {"instanceTypes": ["g5.xlarge"]}}).contract.gpu_product == "NVIDIA-A10G"
    program = tmp_path / "__main__.py"
    program.write_text(PROGRAM)
    run = run_program(program, {}, project="eks-gpu-inference", stack="test")

    labels = {group.name: group.inputs["labels"] for group in run.of_type(NODE_GROUP)}
    assert labels["a10g"][NVIDIA_GPU_PRODUCT_LABEL] == "NVIDIA-A10G"
    assert labels["l40s"][NVIDIA_GPU_PRODUCT_LABEL] == "NVIDIA-L40S"
    assert labels["a10g"]["GPU"] == labels["l40s"]["GPU"] == "true"
    products = {
        tag.name.split("-ca-")[0]: tag.inputs["tag"]["value"]
        for tag in run.of_type(TAG)
        if tag.inputs["tag"]["key"] == PRODUCT_TAG
    }
    assert products == {"a10g": "NVIDIA-A10G", "l40s": "NVIDIA-L40S"}


def test_mixed_gpu_models_in_one_group_set_no_product_label_whatever_the_contract_says():
    contract = PlacementContract(gpu_product="NVIDIA-A10G")
    mixed = GpuNodeGroupSettings(instance_types=["g6.xlarge", "g6e.xlarge"])  # L4 and L40S, one GPU each
    labels = gpu_node_labels(mixed, contract)
    assert NVIDIA_GPU_PRODUCT_LABEL not in labels
    # The autoscaler's GPU label is there whatever the models; with two of them it names no single one.
    assert labels == {"GPU": "true", "nvidia.com/gpu.present": "true", "k8s.amazonaws.com/accelerator": "nvidia"}
