"""What the audit knows about the cluster besides its objects: the placement contract, GPU nodes, pools.

The contract (the label and taint that guard GPU nodes) comes from a stack's config when
`--stack` is given, else it is inferred from the snapshot and the report says so.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from ...facts.contract import NVIDIA_GPU_PRESENT_LABEL, REPELLING_EFFECTS
from ...placement import format_taint
from ...placement.pools import gpu_pool_label_hint
from .model import Node, Snapshot
from .snapshot import SnapshotError


@dataclass(frozen=True)
class Contract:
    """The GPU nodes' label and taint, and where they came from."""

    label: tuple[str, str] | None
    taint: dict | None
    """In Kubernetes spelling: key, value (may be empty), effect."""
    origin: str
    """`stack dev`, `inferred from 3 GPU nodes`, or why nothing was found."""

    def describe(self) -> str:
        label = f"{self.label[0]}={self.label[1]}" if self.label else "none"
        taint = format_taint(self.taint) if self.taint else "none"
        return f"label {label}, taint {taint} ({self.origin})"

    def to_dict(self) -> dict:
        return {
            "label": {"key": self.label[0], "value": self.label[1]} if self.label else None,
            "taint": self.taint,
            "origin": self.origin,
        }


def contract_from_stack(stack: str, project_dir: Path) -> Contract:
    """The contract a stack's config sets (Pulumi.<stack>.yaml read as the plan reads it)."""
    from ...settings import ConfigError, parse_stack_config
    from ..stack_config import load_stack_config

    config = load_stack_config(project_dir, stack)
    try:
        settings = parse_stack_config(config.values, config.secret_keys, project=config.project)
    except ConfigError as error:
        raise SnapshotError(f"{config.stack_file}: invalid stack config: {error}") from None
    contract = settings.contract
    return Contract((contract.label_key, contract.label_value), contract.taint.to_kubernetes(), f"stack {stack}")


def infer_contract(snapshot: Snapshot) -> Contract:
    """The label only GPU nodes carry and the repelling taint every GPU node carries, from the nodes.

    GPU nodes here are those with a catalogued GPU instance type or `nvidia.com/gpu` allocatable.
    """
    gpu = [n for n in snapshot.nodes if n.catalog_gpus > 0 or (n.gpus_allocatable or 0) > 0]
    if not gpu:
        return Contract(None, None, "not inferred: no node has a GPU instance type or advertises nvidia.com/gpu")
    other = [n for n in snapshot.nodes if not (n.catalog_gpus > 0 or (n.gpus_allocatable or 0) > 0)]
    pools = [{"gpusPerNode": 1, "node": n.view} for n in gpu] + [{"gpusPerNode": 0, "node": n.view} for n in other]
    hint = gpu_pool_label_hint(pools)
    label = hint.partition("=")[::2] if hint else None
    other_taints = {_taint_key(t) for n in other for t in n.taints}
    taint = None
    for candidate in gpu[0].taints:
        if (
            candidate.get("effect") in REPELLING_EFFECTS
            and _taint_key(candidate) not in other_taints
            and all(_taint_key(candidate) in {_taint_key(t) for t in n.taints} for n in gpu)
        ):
            taint = {k: v for k, v in candidate.items() if k in ("key", "value", "effect")}
            break
    return Contract(label, taint, f"inferred from {len(gpu)} GPU node(s); pass --stack to check against a stack")


def _taint_key(taint: dict) -> tuple:
    return (taint.get("key") or "", taint.get("value") or "", taint.get("effect") or "")


def is_gpu_node(node: Node, contract: Contract) -> bool:
    """A GPU node: a catalogued GPU instance type, the contract label, NVIDIA's GPU label, or GPUs advertised."""
    labels = node.labels
    if node.catalog_gpus > 0 or (node.gpus_allocatable or 0) > 0:
        return True
    if labels.get(NVIDIA_GPU_PRESENT_LABEL) == "true":
        return True
    return contract.label is not None and labels.get(contract.label[0]) == contract.label[1]


def pools_of(nodes: list[Node]) -> dict[str, list[Node]]:
    """Nodes by pool, pools and nodes sorted by name."""
    pools: dict[str, list[Node]] = defaultdict(list)
    for node in sorted(nodes, key=lambda n: n.name):
        pools[node.pool].append(node)
    return dict(sorted(pools.items()))
