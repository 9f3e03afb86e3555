"""From tests/placement/test_placement_exporter.py, what other test modules use too: `device_plugin`, `exporter`, `exporter_verdict`, `gpu_pool`, `system_pool` and what they
need."""

from __future__ import annotations

from components.placement import gpu_guard
from tests.support.placement_guard import GPU_TOLERATION


def exporter(tolerations: list | None = None, node_selector: dict | None = None, image: str | None = None) -> dict:
    return {
        "apiVersion": "apps/v1",
        "kind": "DaemonSet",
        "metadata": {"name": "gpu-metrics", "namespace": "monitoring"},
        "spec": {
            "template": {
                "metadata": {"labels": {"app": "gpu-metrics"}},
                "spec": {
                    "nodeSelector": {"GPU": "true"} if node_selector is None else node_selector,
                    "tolerations": [GPU_TOLERATION] if tolerations is None else tolerations,
                    "containers": [
                        {
                            "name": "exporter",
                            "image": image or "nvcr.io/nvidia/k8s/dcgm-exporter:4.5.3-4.8.2-distroless",
                        }
                    ],
                },
            }
        },
    }


def exporter_verdict(workloads, pools):
    [verdict] = [v for v in gpu_guard(workloads, pools) if v.name == "dcgm-exporter-covers-gpu-pools"]
    return verdict
