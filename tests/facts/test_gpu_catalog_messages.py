"""An inconsistent catalog entry is refused with a message naming the entry and the broken rule."""

from __future__ import annotations

import pytest

from components.facts.gpu_catalog import InstanceType

BASE = {"name": "g6.xlarge", "architecture": "x86_64", "vcpus": 4, "memory_gib": 16, "max_pods": 58}
GPU = {"gpus": 1, "gpu_model": "NVIDIA L4", "gpu_memory_gib": 24, "gpu_product": "NVIDIA-L4"}


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        pytest.param({"name": "nonsense"}, "malformed instance type name 'nonsense'", id="a malformed name"),
        pytest.param(
            {"architecture": "amd64"},
            "g6.xlarge: architecture 'amd64' is not one of",
            id="an architecture in Kubernetes spelling",
        ),
        pytest.param({"vcpus": 0}, "g6.xlarge: vcpus, memory_gib and max_pods must be positive", id="no vCPUs"),
        pytest.param({"gpus": -1}, "g6.xlarge: gpus must not be negative", id="a negative GPU count"),
        pytest.param(
            {"gpus": 1, "gpu_model": "NVIDIA L4"},
            "g6.xlarge: a GPU type needs gpu_model, gpu_memory_gib and gpu_product",
            id="a GPU type missing facts",
        ),
        pytest.param(
            {"gpu_product": "NVIDIA-L4"},
            "g6.xlarge: a CPU-only type cannot have GPU fields",
            id="a CPU-only type with a GPU product",
        ),
        pytest.param(
            {**GPU, "gpu_memory_gib": 0}, "g6.xlarge: gpu_memory_gib must be positive", id="GPUs without memory"
        ),
    ],
)
def test_an_inconsistent_entry_is_refused_naming_the_rule(fields, message):
    with pytest.raises(ValueError) as error:
        InstanceType(**{**BASE, **fields})
    assert str(error.value).startswith(message)
