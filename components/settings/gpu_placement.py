"""Settings of the placement contract (`gpuPlacement`), facts/contract.py: the label and taint that guard
GPU nodes, which every GPU consumer derives its selector and tolerations from."""

from __future__ import annotations

from ..facts.contract import PlacementContract
from .fields import LabelKey, LabelValue, NodeLabelKey, RepellingTaintEffect, TaintValue
from .section import SectionModel

_DEFAULT_CONTRACT = PlacementContract()


class GpuPlacementSettings(SectionModel):
    """The placement contract (`gpuPlacement`): the label and taint that guard GPU nodes."""

    label_key: NodeLabelKey = _DEFAULT_CONTRACT.label_key
    """Label that GPU workloads select, 1-63 characters, outside the kubernetes.io and k8s.io namespaces."""
    label_value: LabelValue = _DEFAULT_CONTRACT.label_value
    """Value of that label, 1-63 characters."""
    taint_key: LabelKey = _DEFAULT_CONTRACT.taint.key
    """Key of the taint that repels other pods, 1-63 characters."""
    taint_value: TaintValue = _DEFAULT_CONTRACT.taint.value
    """Value of that taint, 0-63 characters."""
    taint_effect: RepellingTaintEffect = _DEFAULT_CONTRACT.taint.effect
    """`NoSchedule` or `NoExecute`, Kubernetes spelling."""
    require_node_affinity: bool = False
    """Also give GPU workloads a required node-affinity term on the label."""
