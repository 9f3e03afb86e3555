"""Settings of the Cluster Autoscaler (`autoscaler`), components/autoscaling/cluster_autoscaler.py.

Each value is checked as the autoscaler reads it, not as Python would: priority patterns with an RE2
binding (the autoscaler compiles them with Go's `regexp`, which is RE2 syntax), durations with Go's
`time.ParseDuration` (facts/go_duration.py), the expander as the comma-separated chain the autoscaler builds
(facts/autoscaler_expanders.py).
"""

from __future__ import annotations

import difflib
from typing import Annotated

from pydantic import AfterValidator

from ..facts import versions
from ..facts.autoscaler_expanders import EXPANDERS, PRIORITY, SINGLE_CHOICE, UNUSABLE
from .cluster import ClusterName, KubernetesVersion
from .errors import ConfigProblem, _bad
from .fields import Duration, PositiveDuration
from .section import SectionModel

# The priority ConfigMap's document is read into a Go `map[int][]string` (expander/priority/priority.go at
# tag cluster-autoscaler-1.36.1, parsePrioritiesYAMLString), and Go's `int` is 64 bits on the autoscaler's
# amd64 and arm64 images.
_INT64 = range(-(1 << 63), 1 << 63)
_PRIORITY_ALLOWED = "integer priorities such as '10', from -9223372036854775808 to 9223372036854775807"
_PATTERN_ALLOWED = (
    "Go regular expressions (RE2 syntax, as the autoscaler compiles them) matching node group names, such as "
    "'.*-gpu-.*'; no lookaround, backreferences, possessive quantifiers or \\C"
)


def _escapes_byte(pattern: str) -> bool:
    """Whether `pattern` uses `\\C` (any byte) outside `\\Q...\\E`: RE2 accepts it, Go's regexp/syntax does not
    (its escape list in `regexp/syntax/doc.go` leaves `\\C` out, and the parser refuses it as an invalid
    escape)."""
    position = 0
    while position < len(pattern) - 1:
        if pattern[position] != "\\":
            position += 1
            continue
        escaped = pattern[position + 1]
        if escaped == "C":
            return True
        if escaped == "Q":
            end = pattern.find("\\E", position + 2)
            if end < 0:
                return False
            position = end
        position += 2
    return False


def go_regexp_problem(pattern: str) -> str | None:
    """Why Go's `regexp.Compile` would refuse `pattern`, or None. Compiled with RE2 (google-re2), whose
    syntax Go's regexp implements; the one escape RE2 has and Go lacks (`\\C`) is refused here.

    Where the two still differ this errs on refusing: RE2 refuses the Unicode class names Go added in 1.25
    (`\\p{Letter}`, `\\p{Assigned}`; golang/go#70780), which releases whose go.mod names an older Go (1.32-1.34) may not
    know either (`\\pL` works everywhere); Go's limit on nesting (1000 levels) is not checked."""
    import re2  # the binding loads only when a pattern is checked

    options = re2.Options()
    # The binding writes each refused pattern to stderr unless told not to.
    options.log_errors = False
    try:
        re2.compile(pattern, options=options)
    except re2.error as error:
        detail = error.args[0] if error.args else error
        return detail.decode("utf-8", "replace") if isinstance(detail, bytes) else str(detail)
    except UnicodeEncodeError:
        return "not valid UTF-8"
    if _escapes_byte(pattern):
        return "invalid escape sequence: \\C"
    return None


def _priorities(value: dict[str, list[str]]) -> dict[str, list[str]]:
    seen: dict[int, str] = {}
    refused: list[str] = []
    for priority, patterns in value.items():
        if not priority.lstrip("-").isdigit() or not priority.isascii() or int(priority) not in _INT64:
            raise _bad(priority, _PRIORITY_ALLOWED, "invalid priority")
        if int(priority) in seen:
            raise _bad(
                priority,
                f"each priority once ({seen[int(priority)]!r} is the same integer)",
                "priority given twice:",
            )
        seen[int(priority)] = priority
        for pattern in patterns:
            problem = go_regexp_problem(pattern)
            if problem:
                refused.append(f"{pattern!r} ({problem})")
    if refused:
        raise ValueError(f"Go's regexp refuses {' and '.join(refused)}; allowed: {_PATTERN_ALLOWED}")
    return value


def _expander_chain(value: str) -> str:
    """The `--expander` value as the autoscaler builds its chain from it (facts/autoscaler_expanders.py)."""
    allowed = (
        f"one of {', '.join(EXPANDERS)}, or several joined by commas without spaces and each once, such as "
        f"'priority,least-waste', tried in order ({', '.join(SINGLE_CHOICE)} only last)"
    )
    names = value.split(",")
    for position, name in enumerate(names):
        if name in UNUSABLE:
            reason = f"expander {name!r} {UNUSABLE[name]}"
        elif name not in EXPANDERS:
            close = difflib.get_close_matches(name, EXPANDERS, n=1, cutoff=0.5)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            reason = f"unknown expander {name!r}{hint}" if name else "empty expander name"
        elif name in names[:position]:
            reason = f"expander {name!r} given twice"
        elif name in SINGLE_CHOICE and position < len(names) - 1:
            reason = f"expander {name!r} always picks one node group, so the ones after it never run"
        else:
            continue
        where = f" in {value!r}" if name != value else ""
        raise ValueError(f"{reason}{where}; allowed: {allowed}")
    return value


class AutoscalerSettings(SectionModel):
    """The Cluster Autoscaler, which scales the node groups (the GPU one from zero) with pending pods (`autoscaler`)."""

    enabled: bool = True
    """Install the Cluster Autoscaler, and the `eks-pod-identity-agent` add-on its credentials come through;
    without it node group sizes change only by hand."""
    expander: Annotated[str, AfterValidator(_expander_chain)] = "least-waste"
    """How it picks among node groups that fit a pending pod: `least-waste` (the group left with the least idle
    CPU and memory), `priority` (following `expanderPriorities`), `most-pods`, `least-nodes` or `random`; or a
    chain of them joined by commas, each narrowing the choice of the one before (`priority,least-waste`),
    `random` only last."""
    expander_priorities: Annotated[dict[str, list[str]], AfterValidator(_priorities)] = {}
    """For the `priority` expander: priority (an integer, higher wins) to node group name patterns (Go regular
    expressions, RE2 syntax), as the autoscaler's priority ConfigMap takes them: `{"<integer>": [<regex>,
    ...]}`."""
    scale_down_unneeded_time: Duration = "30m"
    """How long a node stays unneeded before it is removed, a Go duration such as `10m`, `1h30m` or `1.5h`; three
    times the autoscaler's own default (10m), as removing a GPU node throws away a loaded model, which takes
    minutes to download and load again."""
    scale_down_delay_after_add: Duration = "20m"
    """How long after a scale-up scale-down is considered again, a Go duration (the autoscaler's own default is
    10m)."""
    # At zero a scale-up request expires the moment it is made and every unregistered node is "long
    # unregistered" at once (clusterstate/clusterstate.go at tag cluster-autoscaler-1.36.1: ExpectedAddTime
    # is now plus this, and UnregisteredSince plus this is compared with now).
    max_node_provision_time: PositiveDuration = "20m"
    """How long a new node may take to register before the autoscaler gives up on it, a Go duration above zero
    (at zero every new node would be given up on at once); longer than the autoscaler's own 15m, as GPU nodes
    boot larger AMIs and may wait for capacity."""

    @property
    def uses_priorities(self) -> bool:
        """Whether the expander chain includes `priority`, which reads the priority ConfigMap."""
        return PRIORITY in self.expander.split(",")

    def problems(self) -> list[ConfigProblem]:
        if self.uses_priorities and not self.expander_priorities:
            return [
                ConfigProblem(
                    "expanderPriorities",
                    f"empty with expander {self.expander!r}; allowed: at least one "
                    "priority with node group name patterns, or an expander chain without 'priority'",
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
