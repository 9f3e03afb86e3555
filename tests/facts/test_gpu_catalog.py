"""Behaviour of the instance type catalogue (facts/gpu_catalog.py)."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from pathlib import Path

import pytest

from components.facts.gpu_catalog import (
    CLUSTER_AUTOSCALER_TEMPLATE_TAG,
    CPU_INSTANCE_TYPES,
    GPU_INSTANCE_TYPES,
    InstanceType,
    architecture_of,
    gpu_families,
    gpu_instance_type,
    is_gpu_instance_type,
    lookup,
)

REPO_ROOT = Path(__file__).resolve().parents[2]
ALL_ENTRIES = [*GPU_INSTANCE_TYPES.values(), *CPU_INSTANCE_TYPES.values()]

EXPECTED_GPU_SIZES = {
    "g4dn": {"xlarge", "2xlarge", "4xlarge", "8xlarge", "12xlarge", "16xlarge", "metal"},
    "g5": {"xlarge", "2xlarge", "4xlarge", "8xlarge", "12xlarge", "16xlarge", "24xlarge", "48xlarge"},
    "g5g": {"xlarge", "2xlarge", "4xlarge", "8xlarge", "16xlarge", "metal"},
    "g6": {"xlarge", "2xlarge", "4xlarge", "8xlarge", "12xlarge", "16xlarge", "24xlarge", "48xlarge"},
    "g6e": {"xlarge", "2xlarge", "4xlarge", "8xlarge", "12xlarge", "16xlarge", "24xlarge", "48xlarge"},
    "gr6": {"4xlarge", "8xlarge"},
    # The families EKS's accelerated AMIs serve beyond those (EKS user guide, ml-eks-optimized-ami, and the g7 fix of
    # awslabs/amazon-eks-ami#2768): the sizes Karpenter v1.14.1's instance-type reference lists for each.
    "g7": {"2xlarge", "4xlarge", "8xlarge", "12xlarge", "24xlarge", "48xlarge"},
    "g7e": {"2xlarge", "4xlarge", "8xlarge", "12xlarge", "24xlarge", "48xlarge"},
    "p3dn": {"24xlarge"},
    "p6-b200": {"48xlarge"},
    "p6-b300": {"48xlarge"},
    "p4d": {"24xlarge"},
    "p4de": {"24xlarge"},
    "p5": {"4xlarge", "48xlarge"},
    "p5e": {"48xlarge"},
    "p5en": {"48xlarge"},
}

_LARGE_TO_4XLARGE = {"large", "xlarge", "2xlarge", "4xlarge"}
_MEDIUM_TO_2XLARGE = {"medium", "large", "xlarge", "2xlarge"}
EXPECTED_CPU_SIZES = {
    **{family: _LARGE_TO_4XLARGE for family in ("m5", "m6i", "m6a", "m7i", "m7a", "m6g", "m7g")},
    **{family: _MEDIUM_TO_2XLARGE for family in ("t3", "t3a", "t4g")},
    **{family: _LARGE_TO_4XLARGE for family in ("c5", "c6i", "c7g")},
    "r6i": {"large", "xlarge", "2xlarge"},
}

# GPU feature discovery's nvidia.com/gpu.product value for each family's GPU.
EXPECTED_GPU_PRODUCT = {
    "g4dn": "Tesla-T4",
    "g5": "NVIDIA-A10G",
    "g5g": "NVIDIA-T4G",
    "g6": "NVIDIA-L4",
    "gr6": "NVIDIA-L4",
    "g6e": "NVIDIA-L40S",
    "p4d": "NVIDIA-A100-SXM4-40GB",
    "p4de": "NVIDIA-A100-SXM4-80GB",
    "p5": "NVIDIA-H100-80GB-HBM3",
    "p5e": "NVIDIA-H200",
    "p5en": "NVIDIA-H200",
    # NVML names of NVIDIA's supported-GPU list (amazon-eks-ami's nvidia-open-supported-devices-595.txt), dashed.
    "g7": "NVIDIA-RTX-PRO-4500-Blackwell-Server-Edition",
    "g7e": "NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition",
    "p3dn": "Tesla-V100-SXM2-32GB",
    "p6-b200": "NVIDIA-B200",
    "p6-b300": "NVIDIA-B300-SXM6-AC",
}

# Kubernetes label value syntax: at most 63 characters, alphanumerics at both ends.
LABEL_VALUE_RE = re.compile(r"(?=.{1,63}$)[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?")


def _sizes_by_family(table) -> dict[str, set[str]]:
    sizes: dict[str, set[str]] = {}
    for name in table:
        family, size = name.split(".", 1)
        sizes.setdefault(family, set()).add(size)
    return sizes


# Table contents.


@pytest.mark.parametrize("entry", GPU_INSTANCE_TYPES.values(), ids=lambda entry: entry.name)
def test_every_gpu_entry_has_complete_gpu_facts(entry: InstanceType) -> None:
    assert entry.gpus > 0
    assert entry.is_gpu
    assert entry.gpu_model and entry.gpu_model.startswith("NVIDIA ")
    assert entry.gpu_memory_gib is not None and entry.gpu_memory_gib > 0
    assert entry.gpu_product


# nvidia-smi's totals (MiB) as the catalog cites them: what CUDA reports, and vLLM multiplies.
VISIBLE_MIB = {"g4dn.xlarge": 15360, "g5.xlarge": 23028, "g6.xlarge": 23034, "g6e.xlarge": 46068, "p5.48xlarge": 81559}


@pytest.mark.parametrize(("name", "mib"), VISIBLE_MIB.items())
def test_gpu_memory_as_cuda_reports_it_is_the_cited_total_below_the_nominal_size(name, mib):
    entry = GPU_INSTANCE_TYPES[name]
    assert entry.gpu_memory_visible_gib == mib / 1024
    assert (
        entry.gpu_memory_gib is not None
        and 0.9 * entry.gpu_memory_gib < entry.gpu_memory_visible_gib < entry.gpu_memory_gib
    )


def test_a_gpu_without_a_cited_visible_total_has_none_rather_than_a_guess():
    assert GPU_INSTANCE_TYPES["g5g.xlarge"].gpu_memory_visible_gib is None  # T4G


@pytest.mark.parametrize("entry", CPU_INSTANCE_TYPES.values(), ids=lambda entry: entry.name)
def test_every_cpu_entry_has_no_gpu_facts(entry: InstanceType) -> None:
    assert entry.gpus == 0
    assert not entry.is_gpu
    assert (entry.gpu_model, entry.gpu_memory_gib, entry.gpu_product) == (None, None, None)


def test_gpu_table_has_every_size_of_every_required_family() -> None:
    assert _sizes_by_family(GPU_INSTANCE_TYPES) == EXPECTED_GPU_SIZES


def test_cpu_table_has_the_system_node_group_families_and_sizes() -> None:
    assert _sizes_by_family(CPU_INSTANCE_TYPES) == EXPECTED_CPU_SIZES


@pytest.mark.parametrize("entry", ALL_ENTRIES, ids=lambda entry: entry.name)
def test_entries_have_positive_capacity_and_float_memory(entry: InstanceType) -> None:
    assert entry.vcpus > 0
    assert isinstance(entry.memory_gib, float) and entry.memory_gib > 0
    assert entry.max_pods > 0


def test_names_are_unique_across_both_tables() -> None:
    assert not GPU_INSTANCE_TYPES.keys() & CPU_INSTANCE_TYPES.keys()


@pytest.mark.parametrize("entry", ALL_ENTRIES, ids=lambda entry: entry.name)
def test_each_entry_is_keyed_by_its_own_name(entry: InstanceType) -> None:
    table = GPU_INSTANCE_TYPES if entry.is_gpu else CPU_INSTANCE_TYPES
    assert table[entry.name] is entry


@pytest.mark.parametrize("entry", GPU_INSTANCE_TYPES.values(), ids=lambda entry: entry.name)
def test_gpu_product_is_the_feature_discovery_label_for_the_family(entry: InstanceType) -> None:
    assert entry.gpu_product == EXPECTED_GPU_PRODUCT[entry.family]


@pytest.mark.parametrize("product", sorted({entry.gpu_product for entry in GPU_INSTANCE_TYPES.values()}))
def test_gpu_products_are_valid_kubernetes_label_values(product: str) -> None:
    assert LABEL_VALUE_RE.fullmatch(product)


@pytest.mark.parametrize("family", sorted(EXPECTED_GPU_SIZES))
def test_a_gpu_family_has_one_gpu_model_and_memory(family: str) -> None:
    entries = [entry for entry in GPU_INSTANCE_TYPES.values() if entry.family == family]
    assert len({(entry.gpu_model, entry.gpu_memory_gib, entry.gpu_product) for entry in entries}) == 1


def test_g5g_is_arm64() -> None:
    assert {entry.architecture for entry in GPU_INSTANCE_TYPES.values() if entry.family == "g5g"} == {"arm64"}
    assert GPU_INSTANCE_TYPES["g5g.xlarge"].kubernetes_arch == "arm64"


def test_g5_is_x86_64() -> None:
    assert {entry.architecture for entry in GPU_INSTANCE_TYPES.values() if entry.family == "g5"} == {"x86_64"}
    assert GPU_INSTANCE_TYPES["g5.xlarge"].kubernetes_arch == "amd64"


def test_only_graviton_families_are_arm64() -> None:
    arm64_families = {entry.family for entry in ALL_ENTRIES if entry.architecture == "arm64"}
    assert arm64_families == {"g5g", "m6g", "m7g", "t4g", "c7g"}


def test_p4d_has_eight_40_gib_a100s() -> None:
    p4d = GPU_INSTANCE_TYPES["p4d.24xlarge"]
    assert (p4d.gpus, p4d.gpu_model, p4d.gpu_memory_gib) == (8, "NVIDIA A100", 40)


def test_p4de_has_eight_80_gib_a100s() -> None:
    p4de = GPU_INSTANCE_TYPES["p4de.24xlarge"]
    assert (p4de.gpus, p4de.gpu_model, p4de.gpu_memory_gib) == (8, "NVIDIA A100", 80)


def test_g5_48xlarge_has_eight_a10gs() -> None:
    g5 = GPU_INSTANCE_TYPES["g5.48xlarge"]
    assert (g5.gpus, g5.gpu_model, g5.gpu_memory_gib) == (8, "NVIDIA A10G", 24)
    assert (g5.vcpus, g5.memory_gib) == (192, 768.0)


def test_g6e_xlarge_has_one_48_gib_l40s() -> None:
    g6e = GPU_INSTANCE_TYPES["g6e.xlarge"]
    assert (g6e.gpus, g6e.gpu_model, g6e.gpu_memory_gib) == (1, "NVIDIA L40S", 48)
    assert (g6e.vcpus, g6e.memory_gib) == (4, 32.0)


def test_p5_48xlarge_has_eight_80_gib_h100s_and_p5e_eight_h200s() -> None:
    p5 = GPU_INSTANCE_TYPES["p5.48xlarge"]
    p5e = GPU_INSTANCE_TYPES["p5e.48xlarge"]
    assert (p5.gpus, p5.gpu_model, p5.gpu_memory_gib) == (8, "NVIDIA H100", 80)
    assert (p5e.gpus, p5e.gpu_model, p5e.gpu_memory_gib) == (8, "NVIDIA H200", 141)


def test_g4dn_metal_has_eight_t4s_where_g4dn_12xlarge_has_four() -> None:
    assert GPU_INSTANCE_TYPES["g4dn.metal"].gpus == 8
    assert GPU_INSTANCE_TYPES["g4dn.12xlarge"].gpus == 4
    assert GPU_INSTANCE_TYPES["g4dn.16xlarge"].gpus == 1


def test_gr6_is_a_memory_heavy_single_l4() -> None:
    gr6 = GPU_INSTANCE_TYPES["gr6.4xlarge"]
    g6 = GPU_INSTANCE_TYPES["g6.4xlarge"]
    assert (gr6.gpus, gr6.gpu_model) == (1, "NVIDIA L4")
    assert gr6.vcpus == g6.vcpus
    assert gr6.memory_gib == 2 * g6.memory_gib


@pytest.mark.parametrize(
    ("name", "max_pods"),
    [
        ("g4dn.xlarge", 29),
        ("g4dn.16xlarge", 58),
        ("g5.xlarge", 58),
        ("g5.48xlarge", 345),
        ("g6e.12xlarge", 292),
        ("g6e.48xlarge", 492),
        ("p4d.24xlarge", 737),
        ("p5.48xlarge", 100),
        ("p5en.48xlarge", 198),
        ("t3.medium", 17),
        ("t3.large", 35),
        ("m5.large", 29),
        ("m7g.4xlarge", 234),
        ("r6i.2xlarge", 58),
    ],
)
def test_max_pods_follows_the_eks_eni_max_pods_table(name: str, max_pods: int) -> None:
    assert lookup(name).max_pods == max_pods


# InstanceType behaviour.


@pytest.mark.parametrize(
    ("name", "family"),
    [("g5.xlarge", "g5"), ("g4dn.metal", "g4dn"), ("p5en.48xlarge", "p5en"), ("c7i-flex.large", "c7i-flex")],
)
def test_family_is_the_part_of_the_name_before_the_dot(name: str, family: str) -> None:
    entry = InstanceType(name=name, architecture="x86_64", vcpus=2, memory_gib=4, max_pods=10)
    assert entry.family == family


@pytest.mark.parametrize("entry", ALL_ENTRIES, ids=lambda entry: entry.name)
def test_catalogued_family_is_the_name_prefix(entry: InstanceType) -> None:
    assert entry.name == f"{entry.family}.{entry.name.split('.', 1)[1]}"
    assert "." not in entry.family


def test_kubernetes_arch_uses_amd64_for_x86_64() -> None:
    assert CPU_INSTANCE_TYPES["m5.large"].kubernetes_arch == "amd64"
    assert CPU_INSTANCE_TYPES["m7g.large"].kubernetes_arch == "arm64"


def test_instance_type_is_immutable() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        GPU_INSTANCE_TYPES["g5.xlarge"].gpus = 2  # type: ignore[misc]


def test_integer_memory_is_stored_as_float() -> None:
    entry = InstanceType(name="m5.large", architecture="x86_64", vcpus=2, memory_gib=8, max_pods=29)
    assert entry.memory_gib == 8.0 and isinstance(entry.memory_gib, float)


@pytest.mark.parametrize(
    "fields",
    [
        pytest.param({"gpus": 1}, id="a GPU count without the GPU fields"),
        pytest.param(
            {"gpus": 1, "gpu_model": "NVIDIA L4", "gpu_memory_gib": 24}, id="a GPU count without a GPU product"
        ),
        pytest.param({"gpu_model": "NVIDIA L4"}, id="a CPU-only type with a GPU model"),
        pytest.param({"gpu_product": "NVIDIA-L4"}, id="a CPU-only type with a GPU product"),
        pytest.param({"gpus": -1}, id="a negative GPU count"),
        pytest.param({"architecture": "amd64"}, id="an architecture outside x86_64 and arm64"),
        pytest.param({"vcpus": 0}, id="zero vCPUs"),
        pytest.param({"max_pods": 0}, id="zero max pods"),
        pytest.param({"name": "nonsense"}, id="a malformed name"),
    ],
)
def test_inconsistent_instance_types_are_rejected(fields: dict) -> None:
    base = {"name": "g6.xlarge", "architecture": "x86_64", "vcpus": 4, "memory_gib": 16, "max_pods": 58}
    with pytest.raises(ValueError):
        InstanceType(**{**base, **fields})


# Look-ups.


def test_lookup_finds_gpu_and_cpu_types() -> None:
    assert lookup("g5.xlarge") is GPU_INSTANCE_TYPES["g5.xlarge"]
    assert lookup("m5.large") is CPU_INSTANCE_TYPES["m5.large"]


@pytest.mark.parametrize("name", ["m8g.large", "g5.96xlarge", "nonsense", ""])
def test_lookup_returns_none_for_uncatalogued_names(name: str) -> None:
    assert lookup(name) is None


def test_gpu_instance_type_finds_only_gpu_types() -> None:
    assert gpu_instance_type("p4de.24xlarge") is GPU_INSTANCE_TYPES["p4de.24xlarge"]
    assert gpu_instance_type("m5.large") is None
    assert gpu_instance_type("nonsense") is None


def test_m5_large_is_not_a_gpu_instance_type() -> None:
    assert not is_gpu_instance_type("m5.large")


@pytest.mark.parametrize("name", ["g4dn.xlarge", "g5g.metal", "gr6.8xlarge", "p5.4xlarge"])
def test_catalogued_gpu_types_are_gpu_instance_types(name: str) -> None:
    assert is_gpu_instance_type(name)


@pytest.mark.parametrize("name", ["g6f.large", "p6e-gb200.36xlarge", "nonsense", ""])
def test_uncatalogued_names_are_not_gpu_instance_types(name: str) -> None:
    assert not is_gpu_instance_type(name)


@pytest.mark.parametrize(
    ("name", "architecture"),
    [
        ("g5g.2xlarge", "arm64"),
        ("g5.2xlarge", "x86_64"),
        ("t4g.medium", "arm64"),
        ("m5.large", "x86_64"),
    ],
)
def test_architecture_of_catalogued_types_comes_from_the_table(name: str, architecture: str) -> None:
    assert architecture_of(name) == architecture == lookup(name).architecture


@pytest.mark.parametrize(
    ("name", "architecture"),
    [
        ("m8g.large", "arm64"),
        ("c6gn.xlarge", "arm64"),
        ("r8g.metal-24xl", "arm64"),
        ("x2gd.medium", "arm64"),
        ("im4gn.large", "arm64"),
        ("c7gd.metal", "arm64"),
        ("a1.medium", "arm64"),
        ("p6e-gb200.36xlarge", "arm64"),
        ("m8i.large", "x86_64"),
        ("c7i-flex.large", "x86_64"),
        ("m7i.metal-48xl", "x86_64"),
        ("g4ad.xlarge", "x86_64"),
        ("g6.96xlarge", "x86_64"),
        ("inf2.xlarge", "x86_64"),
        ("u-12tb1.metal", "x86_64"),
        ("p6-b100.48xlarge", "x86_64"),
    ],
)
def test_architecture_of_uncatalogued_types_is_inferred_from_the_family(name: str, architecture: str) -> None:
    assert lookup(name) is None
    assert architecture_of(name) == architecture


@pytest.mark.parametrize("family", sorted({entry.family for entry in ALL_ENTRIES}))
def test_inference_agrees_with_the_catalogue_for_every_family(family: str) -> None:
    catalogued = {entry.architecture for entry in ALL_ENTRIES if entry.family == family}
    uncatalogued_size = f"{family}.96xlarge"
    assert lookup(uncatalogued_size) is None
    assert {architecture_of(uncatalogued_size)} == catalogued


@pytest.mark.parametrize(
    "name",
    [
        "nonsense",
        "",
        "m5",
        "m5.",
        ".large",
        "M5.LARGE",
        " m5.large",
        "m5.large ",
        "m5.huge",
        "large.xlarge",
        "m5..large",
    ],
)
def test_architecture_of_malformed_names_is_none(name: str) -> None:
    assert architecture_of(name) is None


def test_gpu_families_are_sorted_and_complete() -> None:
    families = gpu_families()
    assert families == sorted(EXPECTED_GPU_SIZES)


def test_gpu_families_returns_a_fresh_list() -> None:
    gpu_families().append("x1")
    assert "x1" not in gpu_families()


# Read-only tables and dependencies.


@pytest.mark.parametrize("table", [GPU_INSTANCE_TYPES, CPU_INSTANCE_TYPES], ids=["gpu", "cpu"])
def test_tables_cannot_be_modified(table) -> None:
    name = next(iter(table))
    with pytest.raises(TypeError):
        table["x9.large"] = table[name]
    with pytest.raises(TypeError):
        del table[name]
    assert not hasattr(table, "pop")
    assert name in table


def test_module_imports_nothing_outside_the_standard_library() -> None:
    # -S leaves site-packages (pulumi included) off the path, so any third-party import fails here.
    code = (
        "import sys, components.facts.gpu_catalog\n"
        "top = {m.split('.')[0] for m in sys.modules}\n"
        "extra = top - set(sys.stdlib_module_names) - {'components', '__main__'}\n"
        "print(sorted(extra))\n"
    )
    result = subprocess.run(
        [sys.executable, "-S", "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_the_autoscaler_template_tag_prefix_is_spelt_as_the_autoscaler_reads_it():
    """Every module and test builds the node-template tags from this one name, so only this spelling,
    copied from the autoscaler's AWS README, would catch a typo in it."""
    assert CLUSTER_AUTOSCALER_TEMPLATE_TAG == "k8s.io/cluster-autoscaler/node-template"
