"""Field types shared by the sections: a value's type with the rule it must meet, written once.

Each type is `Annotated[<type>, AfterValidator(<check>)]`; a section declares `taint_key: LabelKey` instead
of repeating a validator. A check raises `_bad(value, allowed, reason)`, so every message names the bad
value and what is allowed. A list of checked items (`list[InstanceTypeName]`) reports each bad item; the
whole-list rules (not empty, no duplicates) run once every item is good.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from pydantic import AfterValidator

from ..facts import eks_model
from ..facts.contract import (
    KUBERNETES_TAINT_EFFECT_OF_EKS,
    KUBERNETES_TAINT_EFFECTS,
    REPELLING_EFFECTS,
    kubelet_refuses_node_label,
)
from ..facts.go_duration import UNIT_NAMES, GoDurationError, format_go_duration, parse_go_duration
from .errors import _bad

_QUALIFIED_NAME = re.compile(r"^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$")
_DNS_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
_DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
_INSTANCE_TYPE = re.compile(r"^[a-z][a-z0-9-]*\.[a-z0-9-]+$")
_QUANTITY = re.compile(r"^\d+(\.\d+)?(Ki|Mi|Gi|Ti|Pi|k|M|G|T|P)?$")
_SEMVER_TAG = re.compile(r"^v\d+\.\d+\.\d+$")
# A Prometheus duration, as the prometheus-operator CRDs pattern `interval` (ServiceMonitor
# `spec.endpoints[].interval`, monitoring.coreos.com_servicemonitors.yaml at v0.93.0), without the bare `0`.
_PROMETHEUS_DURATION = re.compile(
    r"^(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?"
    r"(([0-9]+)ms)?$"
)
# Node volumes are gp3 (components/pools/node_group.py).
MAX_GP3_DISK_GIB = eks_model.MAX_GP3_VOLUME_GIB

T = TypeVar("T")


def rule(ok: Callable[[Any], bool], allowed: str, reason: str = "invalid value") -> AfterValidator:
    """A validator refusing values for which `ok` is false: "<reason> <value>; allowed: <allowed>"."""

    def check(value: T) -> T:
        if not ok(value):
            raise _bad(value, allowed, reason)
        return value

    return AfterValidator(check)


def checked(check: Callable[[Any], object]) -> AfterValidator:
    """A validator from a check that raises on a bad value (its return value is ignored)."""

    def run(value: T) -> T:
        check(value)
        return value

    return AfterValidator(run)


def each_once(what: str, reason: str = "duplicates in") -> AfterValidator:
    """A list with no item twice: "<reason> [...]; allowed: each <what> once"."""
    return rule(lambda items: len(set(items)) == len(items), f"each {what} once", reason)


# Label and taint keys and values, as both Kubernetes and the EKS API accept them.


def check_label_key(key: str) -> None:
    """A node label or taint key as both Kubernetes and the EKS API accept it."""
    low, high = eks_model.length_limits("labelKey")
    allowed = (
        f"{low}-{high} characters, an optional DNS-subdomain prefix and '/', then a name of letters, "
        "digits, '-', '_' or '.', starting and ending with a letter or digit"
    )
    if not isinstance(key, str) or not low <= len(key) <= high:
        raise _bad(key, allowed, "bad length of key")
    prefix, _, name = key.rpartition("/")
    if (prefix and not _DNS_SUBDOMAIN.match(prefix)) or not _QUALIFIED_NAME.match(name):
        raise _bad(key, allowed, "invalid key")


def check_label_value(value: str, shape: str = "labelValue") -> None:
    """A node label value (`labelValue`, 1-63 for EKS) or taint value (`taintValue`, 0-63)."""
    low, high = eks_model.length_limits(shape)
    allowed = f"{low}-{high} characters of letters, digits, '-', '_' or '.', starting and ending with a letter or digit"
    if not isinstance(value, str) or not low <= len(value) <= high:
        raise _bad(value, allowed, "bad length of value" if value else "empty value")
    if value and not _QUALIFIED_NAME.match(value):
        raise _bad(value, allowed)


def check_labels(labels: dict[str, str]) -> dict[str, str]:
    """A map of node or pod labels, every key and value checked; returned unchanged."""
    for key, value in labels.items():
        check_label_key(key)
        check_label_value(value)
    return labels


def check_node_label_key(key: str) -> None:
    """A label key a node group may give its nodes: also outside the namespaces the kubelet refuses."""
    check_label_key(key)
    if kubelet_refuses_node_label(key):
        raise _bad(
            key,
            "a key outside kubernetes.io and k8s.io (for example example.com/gpu), or under node.kubernetes.io/",
            "the kubelet refuses node labels in the kubernetes.io and k8s.io "
            "namespaces, so the nodes would never join:",
        )


def check_node_labels(labels: dict[str, str]) -> dict[str, str]:
    """A map of node labels (see `check_node_label_key`); returned unchanged."""
    for key, value in labels.items():
        check_node_label_key(key)
        check_label_value(value)
    return labels


def check_kubernetes_taint_effect(effect: str, allowed_effects: tuple[str, ...] = KUBERNETES_TAINT_EFFECTS) -> None:
    """A taint effect in Kubernetes spelling, with a hint when the EKS spelling was used."""
    if effect in allowed_effects:
        return
    allowed = ", ".join(allowed_effects)
    kubernetes_spelling = KUBERNETES_TAINT_EFFECT_OF_EKS.get(effect)
    if kubernetes_spelling in allowed_effects:
        raise _bad(effect, allowed, f"EKS API spelling; write {kubernetes_spelling!r} instead of")
    if effect == "PreferNoSchedule":
        raise _bad(effect, allowed, "PreferNoSchedule does not keep pods off GPU nodes:")
    raise _bad(effect, allowed, "unknown taint effect")


def check_namespace_name(value: str) -> None:
    if len(value) > 63 or not _DNS_LABEL.match(value):
        raise _bad(value, "a DNS label: 1-63 lowercase letters, digits or '-'")


LabelKey = Annotated[str, checked(check_label_key)]
"""A label or taint key (`example.com/name`, 1-63 characters for EKS)."""
NodeLabelKey = Annotated[str, checked(check_node_label_key)]
"""A label key a node may carry: a `LabelKey` outside the namespaces the kubelet refuses on nodes."""
LabelValue = Annotated[str, checked(check_label_value)]
"""A label value, 1-63 characters."""
TaintValue = Annotated[str, checked(lambda value: check_label_value(value, "taintValue"))]
"""A taint value, 0-63 characters."""
Labels = Annotated[dict[str, str], AfterValidator(check_labels)]
"""Pod or object labels, every key and value checked."""
NodeLabels = Annotated[dict[str, str], AfterValidator(check_node_labels)]
"""Node labels, every key a `NodeLabelKey`."""
TaintEffect = Annotated[str, checked(check_kubernetes_taint_effect)]
"""`NoSchedule`, `NoExecute` or `PreferNoSchedule` (Kubernetes spelling)."""
RepellingTaintEffect = Annotated[str, checked(lambda effect: check_kubernetes_taint_effect(effect, REPELLING_EFFECTS))]
"""A taint effect that keeps pods off: `NoSchedule` or `NoExecute`."""
NamespaceName = Annotated[str, checked(check_namespace_name)]
"""A Kubernetes namespace name: a DNS label."""

# AWS names and numbers.

InstanceTypeName = Annotated[
    str,
    rule(
        lambda name: bool(_INSTANCE_TYPE.match(name)),
        "EC2 instance type names such as g5.xlarge",
        "malformed instance type",
    ),
]
"""An EC2 instance type name such as `g5.xlarge` (whether it exists is the section's check)."""
InstanceTypes = Annotated[
    list[InstanceTypeName],
    rule(bool, "one or more EC2 instance types", "empty list"),
    each_once("instance type"),
]
"""One or more instance type names, each once."""


def _node_count(value: int) -> int:
    if value < 0:
        raise _bad(value, "an integer >= 0", "negative size")
    if value > eks_model.INT32_MAX:
        raise _bad(
            value, f"an integer up to {eks_model.INT32_MAX} (the EKS API's 32-bit integers)", "size out of range:"
        )
    return value


NodeCount = Annotated[int, AfterValidator(_node_count)]
"""A node group size: 0 up to the EKS API's 32-bit integer maximum."""
Gp3DiskSize = Annotated[
    int,
    rule(
        lambda size: size <= MAX_GP3_DISK_GIB,
        f"at most {MAX_GP3_DISK_GIB} GiB (the largest gp3 volume)",
        "disk too large:",
    ),
]
"""A gp3 root volume size in GiB, at most the largest gp3 volume (each node group adds its floor)."""
SubnetId = Annotated[
    str,
    rule(
        lambda subnet: bool(re.match(r"^subnet-[0-9a-f]{8,17}$", subnet)), "subnet ids such as subnet-0123456789abcdef0"
    ),
]
"""A subnet id such as `subnet-0123456789abcdef0`."""
SubnetIds = Annotated[list[SubnetId], each_once("subnet", "duplicate subnets in")]
"""Subnet ids, each once."""


def _is_ipv4_cidr(cidr: str) -> bool:
    try:
        ipaddress.IPv4Network(cidr, strict=True)
    except ValueError:
        return False
    return True


Ipv4Cidr = Annotated[str, rule(_is_ipv4_cidr, "IPv4 CIDR blocks such as 203.0.113.0/24")]
"""An IPv4 CIDR block, host bits zero."""

# Kubernetes values.

Quantity = Annotated[str, rule(lambda value: bool(_QUANTITY.match(value)), "a Kubernetes quantity such as 100Gi")]
"""A Kubernetes quantity such as `100Gi`."""
_GO_DURATION_EXAMPLES = "a Go duration such as 10m, 1h30m, 1.5h or 300ms (units " + UNIT_NAMES + ")"


def go_duration(minimum: int) -> AfterValidator:
    """A string Go's `time.ParseDuration` accepts (`facts/go_duration.py`), of at least `minimum`
    nanoseconds; the message names Go's reason and, for a value too small, what Go reads it as."""
    at_least = "0s or more" if minimum == 0 else f"more than {format_go_duration(minimum - 1)}"

    def check(value: str) -> str:
        try:
            nanoseconds = parse_go_duration(value)
        except GoDurationError as error:
            raise _bad(value, _GO_DURATION_EXAMPLES, str(error)) from None
        if nanoseconds < minimum:
            reason = "negative duration" if nanoseconds < 0 else "zero duration"
            raise ValueError(
                f"{reason} {value!r} (Go reads {format_go_duration(nanoseconds)}); allowed: {at_least}, "
                + _GO_DURATION_EXAMPLES
            )
        return value

    return AfterValidator(check)


Duration = Annotated[str, go_duration(0)]
"""A Go duration of 0s or more, as Go's `time.ParseDuration` reads it: `1h30m`, `1.5h`, `300ms`, `0`."""
PositiveDuration = Annotated[str, go_duration(1)]
"""A Go duration above zero, as Go's `time.ParseDuration` reads it."""
PrometheusDuration = Annotated[
    str,
    rule(
        lambda value: bool(value) and bool(_PROMETHEUS_DURATION.match(value)) and bool(re.search(r"[1-9]", value)),
        "a non-zero Prometheus duration such as 15s, 30s or 1m",
    ),
]
"""A non-zero Prometheus duration such as `30s` or `1m`."""


def release_tag(example: str) -> AfterValidator:
    """A release tag `vX.Y.Z`, the message showing `example`."""
    return rule(lambda value: bool(_SEMVER_TAG.match(value)), f"a release tag such as {example}")


def is_release_tag(tag: str) -> bool:
    return bool(_SEMVER_TAG.match(tag))
