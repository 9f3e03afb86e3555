"""ConfigMaps of the programs the stack ships beside the vLLM image (the weights copy, the queue's consumer, the
compile cache): the image carries Python and boto3, so each program is the module's own source, mounted as a file,
and the file the tests run is the file the pod runs. Pure: plain values in, a manifest out."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType


def program_config_map(name: str, namespace: str, labels: dict[str, str], file_name: str, program: ModuleType) -> dict:
    """The ConfigMap `name` in `namespace` holding `program`'s source as `file_name`."""
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": name, "namespace": namespace, "labels": labels},
        "data": program_data(file_name, program),
    }


def program_data(file_name: str, program: ModuleType) -> dict[str, str]:
    """A ConfigMap's data: `program`'s source under `file_name`."""
    assert program.__file__ is not None
    return {file_name: Path(program.__file__).read_text()}
