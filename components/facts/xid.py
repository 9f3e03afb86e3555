"""NVIDIA XID errors: which ones mean GPU hardware or driver trouble, and how the DCGM exporter reports them.

An XID is an error report of the NVIDIA kernel driver. NVIDIA's XID catalog gives each one a resolution bucket
(https://docs.nvidia.com/deploy/xid-errors/analyzing-xid-catalog.html, read 2026-12-02): `RESTART_APP` for the
errors an application causes (13 Graphics Engine Exception, 31 GPU memory page fault, 43 GPU stopped processing,
45 preemptive cleanup), and `RESET_GPU`, `RESTART_BM`, `RESTART_VM`, `CONTACT_SUPPORT` or a workflow of its own
for faults that only a GPU reset or a new node clears.
"""

from __future__ import annotations

from .versions import NODE_MONITORING_AGENT_CHART

HARDWARE_XIDS: tuple[int, ...] = (
    46,  # GPU stopped processing (RESET_GPU)
    48,  # double-bit ECC error (WORKFLOW_XID_48)
    54,  # auxiliary power not connected (CHECK_MECHANICALS)
    62,  # internal micro-controller halt (RESET_GPU)
    63,  # GPU memory remapping event (IGNORE in the catalog; EC2 replaces the instance)
    64,  # GPU memory remapping failure (RESET_GPU)
    74,  # NVLink error (WORKFLOW_NVLINK_ERR)
    79,  # GPU has fallen off the bus (RESTART_BM)
    95,  # uncontained memory error (RESET_GPU)
    109,  # context switch timeout (RESET_GPU)
    110,  # security fault (RESET_GPU)
    119,  # GSP RPC timeout (RESET_GPU)
    120,  # GSP error (RESET_GPU)
    136,  # link training failed (RESET_GPU)
    140,  # unrecoverable ECC error (RESET_GPU)
    142,  # NVENC3 error (CONTACT_SUPPORT)
    143,  # GPU initialization error (RESET_GPU)
    151,  # key rotation error (RESTART_VM)
    155,  # NVLink SW defined error (RESET_GPU)
    156,  # resource retirement event (RESET_GPU)
    158,  # GPU fatal timeout (RESET_GPU)
)
"""The XIDs that mean GPU hardware or driver trouble: exactly the `WellKnownXidCodes` of the EKS node monitoring
agent at the pinned chart (aws/eks-node-monitoring-agent `monitors/nvidia/dcgm/dcgm_policies.go`), which
transcribes each one's bucket from NVIDIA's catalog. The agent sets `AcceleratedHardwareReady=False` for these,
which node auto repair acts on, and only logs an event for any other XID, so the critical alert pages for the
same XIDs that make EKS replace the node."""

HARDWARE_XIDS_SOURCE = (
    f"aws/eks-node-monitoring-agent {NODE_MONITORING_AGENT_CHART} monitors/nvidia/dcgm/dcgm_policies.go "
    "(WellKnownXidCodes), after https://docs.nvidia.com/deploy/xid-errors/analyzing-xid-catalog.html"
)

XID_FIELD = "DCGM_FI_DEV_XID_ERRORS"
"""The exporter's XID field: a gauge holding the value of the last XID the GPU reported, not a count
(NVIDIA/dcgm-exporter `etc/default-counters.csv`: "Value of the last XID error encountered"). It keeps that value
until the exporter restarts (NVIDIA/dcgm-exporter#500), so `> 0` alone never resolves. The counted field,
`DCGM_EXP_XID_ERRORS_COUNT`, is commented out of the default counters file at the pinned tag."""
