"""Settings of the Cluster Autoscaler (`autoscaler`), components/cluster_autoscaler.py."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator

from ..facts import versions
from .cluster import ClusterName, KubernetesVersion
from .errors import ConfigProblem, _bad
from .fields import Duration
from .section import SectionModel


def _priorities(value: dict[str, list[str]]) -> dict[str, list[str]]:
    for priority, patterns in value.items():
        if not re.match(r"^-?\d+$", priority):
            raise _bad(priority, "integer priorities such as '10'", "invalid priority")
        for pattern in patterns:
            try:
                re.compile(pattern)
            except re.error:
                raise _bad(pattern, "regular expressions matching node group names", "invalid pattern") from None
    return value


class AutoscalerSettings(SectionModel):
    """The Cluster Autoscaler, which scales the node groups (the GPU one from zero) with pending pods (`autoscaler`)."""

    enabled: bool = True
    """Install the Cluster Autoscaler, and the `eks-pod-identity-agent` add-on its credentials come through;
    without it node group sizes change only by hand."""
    expander: Literal["least-waste", "priority", "most-pods", "random"] = "least-waste"
    """How it picks among node groups that fit a pending pod: `least-waste` (the group left with the least idle
    CPU and memory), `priority` (following `expanderPriorities`), `most-pods` or `random`."""
    expander_priorities: Annotated[dict[str, list[str]], AfterValidator(_priorities)] = {}
    """For the `priority` expander: priority (an integer, higher wins) to node group name patterns (regular
    expressions), as the autoscaler's priority ConfigMap takes them: `{"<integer>": [<regex>, ...]}`."""
    scale_down_unneeded_time: Duration = "30m"
    """How long a node stays unneeded before it is removed, a duration such as `10m` or `1h30m`; three times the
    autoscaler's own default (10m), as removing a GPU node throws away a loaded model, which takes minutes to
    download and load again."""
    scale_down_delay_after_add: Duration = "20m"
    """How long after a scale-up scale-down is considered again, a duration (the autoscaler's own default is
    10m)."""
    max_node_provision_time: Duration = "20m"
    """How long a new node may take to register before the autoscaler gives up on it, a duration; longer than
    the autoscaler's own 15m, as GPU nodes boot larger AMIs and may wait for capacity."""

    def problems(self) -> list[ConfigProblem]:
        if self.expander == "priority" and not self.expander_priorities:
            return [
                ConfigProblem(
                    "expanderPriorities",
                    "empty with expander 'priority'; allowed: at least one "
                    "priority with node group name patterns, or another expander",
                )
            ]
        return []


class AutoscaledClusterSettings(SectionModel):
    """The cluster a `ClusterAutoscaler` scales, as its arguments name it (the stack config's are
    `cluster.name` and `cluster.version`)."""

    cluster_name: ClusterName
    """The EKS cluster whose node groups it scales (their Auto Scaling groups carry this name in a tag)."""
    cluster_version: KubernetesVersion = versions.DEFAULT_KUBERNETES_VERSION
    """Kubernetes minor version of the cluster, which picks the autoscaler release."""
