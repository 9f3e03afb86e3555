"""Each field type of `components/settings/fields.py` refusing a value, its whole message (reason, value, what is
allowed), one row per validator and per reason it gives, with the value on the passing side of each limit. The
types are validated as the settings validate them (pydantic, strict); the message is what the stack config shows
after the key (`Value error, ` is dropped there)."""

from __future__ import annotations

import importlib.util
from types import FunctionType, ModuleType
from typing import Annotated, Any

import pytest
from pydantic import TypeAdapter, ValidationError

from components.facts import eks_model, versions
from components.settings import fields
from tests.support.finding_values import problems_of

_KEY = (
    "allowed: 1-63 characters, an optional DNS-subdomain prefix and '/', then a name of letters, digits, '-', '_' "
    "or '.', starting and ending with a letter or digit"
)
_VALUE = "characters of letters, digits, '-', '_' or '.', starting and ending with a letter or digit"
_KUBELET = "the kubelet refuses node labels in the kubernetes.io and k8s.io namespaces, so the nodes would never join: "
_OUTSIDE = "allowed: a key outside kubernetes.io and k8s.io (for example example.com/gpu), or under node.kubernetes.io/"
_ALL_EFFECTS = "allowed: NoSchedule, NoExecute, PreferNoSchedule"
_REPELLING = "allowed: NoSchedule, NoExecute"
_DNS_LABEL = "allowed: a DNS label: 1-63 lowercase letters, digits or '-'"
_GO = "a Go duration such as 10m, 1h30m, 1.5h or 300ms (units ns, us (or µs), ms, s, m, h)"
_INT32 = eks_model.INT32_MAX
_GP3 = fields.MAX_GP3_DISK_GIB


def _refusal(kind: Any, value: Any) -> str:
    with pytest.raises(ValidationError) as error:
        TypeAdapter(kind).validate_python(value, strict=True)
    [detail] = error.value.errors()
    return detail["msg"].removeprefix("Value error, ")


def _row(kind: Any, value: Any, message: str, case: str):
    """A row: `kind` is a type of `fields`, or a function of a `fields` module that builds one from its factories."""
    return pytest.param(kind, value, message, id=case)


def _fields_built_now() -> ModuleType:
    """`components/settings/fields.py` run again, unregistered, as the test runs: its factories (`rule`, `checked`,
    `each_once`, `go_duration`, `release_tag`) build the types now, not when the module was first imported (a
    mutation run switches a mutant on only after every module has loaded)."""
    spec = importlib.util.spec_from_file_location(fields.__name__, fields.__file__)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_NAME_OF = {id(value): name for name, value in vars(fields).items()}


def _kinds(kind: Any) -> tuple[Any, Any]:
    """A row's type as the sections use it, and the same type built by the factories as the test runs."""
    if isinstance(kind, FunctionType):
        return kind(fields), kind(_fields_built_now())
    return kind, getattr(_fields_built_now(), _NAME_OF[id(kind)])


REFUSALS = [
    _row(fields.LabelKey, "k" * 64, f"bad length of key '{'k' * 64}'; {_KEY}", "a label key of 64"),
    _row(fields.LabelKey, "", f"bad length of key ''; {_KEY}", "an empty label key"),
    _row(fields.LabelKey, "Bad_/x", f"invalid key 'Bad_/x'; {_KEY}", "a prefix that is no DNS subdomain"),
    _row(fields.LabelKey, "example.com/-x", f"invalid key 'example.com/-x'; {_KEY}", "a name starting with a hyphen"),
    _row(fields.NodeLabelKey, "kubernetes.io/x", f"{_KUBELET}'kubernetes.io/x'; {_OUTSIDE}", "kubernetes.io"),
    _row(fields.NodeLabelKey, "k8s.io/x", f"{_KUBELET}'k8s.io/x'; {_OUTSIDE}", "k8s.io"),
    _row(fields.NodeLabelKey, "-x", f"invalid key '-x'; {_KEY}", "a node label key read as a label key first"),
    _row(fields.LabelValue, "", f"empty value ''; allowed: 1-63 {_VALUE}", "an empty label value"),
    _row(fields.LabelValue, "v" * 64, f"bad length of value '{'v' * 64}'; allowed: 1-63 {_VALUE}", "a value of 64"),
    _row(fields.LabelValue, "-v", f"invalid value '-v'; allowed: 1-63 {_VALUE}", "a value starting with a hyphen"),
    _row(fields.TaintValue, "v" * 64, f"bad length of value '{'v' * 64}'; allowed: 0-63 {_VALUE}", "a taint of 64"),
    _row(fields.TaintValue, "a b", f"invalid value 'a b'; allowed: 0-63 {_VALUE}", "a taint value with a space"),
    _row(fields.Labels, {"app": ""}, f"empty value ''; allowed: 1-63 {_VALUE}", "labels with an empty value"),
    _row(fields.Labels, {"-app": "x"}, f"invalid key '-app'; {_KEY}", "labels with a bad key"),
    _row(fields.NodeLabels, {"kubernetes.io/a": "x"}, f"{_KUBELET}'kubernetes.io/a'; {_OUTSIDE}", "node labels"),
    _row(fields.NodeLabels, {"a": "-"}, f"invalid value '-'; allowed: 1-63 {_VALUE}", "node labels with a bad value"),
    _row(
        fields.TaintEffect,
        "NO_SCHEDULE",
        f"EKS API spelling; write 'NoSchedule' instead of 'NO_SCHEDULE'; {_ALL_EFFECTS}",
        "the EKS spelling of NoSchedule",
    ),
    _row(
        fields.TaintEffect,
        "PREFER_NO_SCHEDULE",
        f"EKS API spelling; write 'PreferNoSchedule' instead of 'PREFER_NO_SCHEDULE'; {_ALL_EFFECTS}",
        "the EKS spelling of PreferNoSchedule where it is allowed",
    ),
    _row(fields.TaintEffect, "Never", f"unknown taint effect 'Never'; {_ALL_EFFECTS}", "an unknown effect"),
    _row(
        fields.RepellingTaintEffect,
        "PreferNoSchedule",
        f"PreferNoSchedule does not keep pods off GPU nodes: 'PreferNoSchedule'; {_REPELLING}",
        "PreferNoSchedule where pods must be kept off",
    ),
    _row(
        fields.RepellingTaintEffect,
        "PREFER_NO_SCHEDULE",
        f"unknown taint effect 'PREFER_NO_SCHEDULE'; {_REPELLING}",
        "the EKS spelling of an effect not allowed here",
    ),
    _row(
        fields.RepellingTaintEffect,
        "NO_EXECUTE",
        f"EKS API spelling; write 'NoExecute' instead of 'NO_EXECUTE'; {_REPELLING}",
        "the EKS spelling of NoExecute",
    ),
    _row(fields.NamespaceName, "n" * 64, f"invalid value '{'n' * 64}'; {_DNS_LABEL}", "a namespace of 64"),
    _row(fields.NamespaceName, "", f"invalid value ''; {_DNS_LABEL}", "an empty namespace"),
    _row(fields.NamespaceName, "ns-", f"invalid value 'ns-'; {_DNS_LABEL}", "a namespace ending with a hyphen"),
    _row(
        fields.InstanceTypeName,
        "g5",
        "malformed instance type 'g5'; allowed: EC2 instance type names such as g5.xlarge",
        "an instance type without a size",
    ),
    _row(fields.InstanceTypes, [], "empty list []; allowed: one or more EC2 instance types", "no instance types"),
    _row(
        fields.InstanceTypes,
        ["g5.xlarge", "g5.xlarge"],
        "duplicates in ['g5.xlarge', 'g5.xlarge']; allowed: each instance type once",
        "an instance type twice",
    ),
    _row(fields.NodeCount, -1, "negative size -1; allowed: an integer >= 0", "a negative node count"),
    _row(
        fields.NodeCount,
        _INT32 + 1,
        f"size out of range: {_INT32 + 1}; allowed: an integer up to {_INT32} (the EKS API's 32-bit integers)",
        "a node count past 32 bits",
    ),
    _row(
        fields.Gp3DiskSize,
        _GP3 + 1,
        f"disk too large: {_GP3 + 1}; allowed: at most {_GP3} GiB (the largest gp3 volume)",
        "a disk past the largest gp3 volume",
    ),
    _row(
        fields.SubnetId,
        "subnet-1234567",
        "invalid value 'subnet-1234567'; allowed: subnet ids such as subnet-0123456789abcdef0",
        "a subnet id of 7 digits",
    ),
    _row(
        fields.SubnetId,
        "subnet-" + "a" * 18,
        f"invalid value 'subnet-{'a' * 18}'; allowed: subnet ids such as subnet-0123456789abcdef0",
        "a subnet id of 18 digits",
    ),
    _row(
        fields.SubnetIds,
        ["subnet-12345678", "subnet-12345678"],
        "duplicate subnets in ['subnet-12345678', 'subnet-12345678']; allowed: each subnet once",
        "a subnet twice",
    ),
    _row(
        fields.Ipv4Cidr,
        "10.0.0.1/16",
        "invalid value '10.0.0.1/16'; allowed: IPv4 CIDR blocks such as 203.0.113.0/24",
        "a CIDR with host bits",
    ),
    _row(fields.Ipv4Cidr, "::/0", "invalid value '::/0'; allowed: IPv4 CIDR blocks such as 203.0.113.0/24", "IPv6"),
    _row(fields.Quantity, "10gi", "invalid value '10gi'; allowed: a Kubernetes quantity such as 100Gi", "10gi"),
    _row(fields.Duration, "10", f"missing unit in duration '10'; allowed: {_GO}", "a duration without a unit"),
    _row(fields.Duration, "1x", f"unknown unit \"x\" in duration '1x'; allowed: {_GO}", "an unknown unit"),
    _row(
        fields.Duration,
        "-1s",
        f"negative duration '-1s' (Go reads -1s); allowed: 0s or more, {_GO}",
        "a negative duration",
    ),
    _row(
        fields.PositiveDuration,
        "0s",
        f"zero duration '0s' (Go reads 0s); allowed: more than 0s, {_GO}",
        "a zero duration where one above zero is needed",
    ),
    _row(
        fields.PositiveDuration,
        "-90s",
        f"negative duration '-90s' (Go reads -1m30s); allowed: more than 0s, {_GO}",
        "a negative duration as Go reads it",
    ),
    _row(
        fields.PrometheusDuration,
        "0m",
        "invalid value '0m'; allowed: a non-zero Prometheus duration such as 15s, 30s or 1m",
        "a zero Prometheus duration",
    ),
    _row(
        fields.PrometheusDuration,
        "1.5m",
        "invalid value '1.5m'; allowed: a non-zero Prometheus duration such as 15s, 30s or 1m",
        "a fractional Prometheus duration",
    ),
    _row(
        lambda f: Annotated[str, f.release_tag("v1.2.3")],
        "1.2.3",
        "invalid value '1.2.3'; allowed: a release tag such as v1.2.3",
        "a release tag without its v",
    ),
    _row(
        lambda f: Annotated[int, f.rule(lambda n: n > 1, "more than 1")],
        1,
        "invalid value 1; allowed: more than 1",
        "rule",
    ),
    _row(
        lambda f: Annotated[int, f.rule(lambda n: n > 1, "more than 1", "too small:")],
        1,
        "too small: 1; allowed: more than 1",
        "a rule with its own reason",
    ),
    _row(
        lambda f: Annotated[list[str], f.each_once("item")],
        ["a", "a"],
        "duplicates in ['a', 'a']; allowed: each item once",
        "each once",
    ),
    _row(
        lambda f: Annotated[list[str], f.each_once("item", "twice in")],
        ["a", "a"],
        "twice in ['a', 'a']; allowed: each item once",
        "each once with its own reason",
    ),
    _row(
        lambda f: Annotated[str, f.checked(f.check_namespace_name)],
        "A",
        f"invalid value 'A'; {_DNS_LABEL}",
        "a check that raises, as a validator",
    ),
]


@pytest.mark.parametrize(("kind", "value", "message"), REFUSALS)
def test_each_field_type_refuses_with_its_whole_message(kind, value, message):
    as_loaded, built_now = _kinds(kind)

    assert _refusal(as_loaded, value) == message
    assert _refusal(built_now, value) == message


@pytest.mark.parametrize("example", ["v1.2.3", versions.DEVICE_PLUGIN_VERSION])
def test_a_release_tag_refusal_shows_the_example_it_was_made_with(example):
    kind = Annotated[str, fields.release_tag(example)]

    assert _refusal(kind, "latest") == f"invalid value 'latest'; allowed: a release tag such as {example}"


PASSES = [
    _row(fields.LabelKey, "k" * 63, "k" * 63, "a label key of 63"),
    _row(fields.LabelKey, "example.com/gpu", "example.com/gpu", "a prefixed label key"),
    _row(fields.NodeLabelKey, "node.kubernetes.io/x", "node.kubernetes.io/x", "node.kubernetes.io"),
    _row(fields.LabelValue, "v" * 63, "v" * 63, "a label value of 63"),
    _row(fields.LabelValue, "v", "v", "a label value of 1"),
    _row(fields.TaintValue, "", "", "an empty taint value"),
    _row(fields.TaintEffect, "PreferNoSchedule", "PreferNoSchedule", "PreferNoSchedule where allowed"),
    _row(fields.RepellingTaintEffect, "NoExecute", "NoExecute", "NoExecute"),
    _row(fields.NamespaceName, "n" * 63, "n" * 63, "a namespace of 63"),
    _row(fields.NodeCount, 0, 0, "no nodes"),
    _row(fields.NodeCount, _INT32, _INT32, "the 32-bit maximum"),
    _row(fields.Gp3DiskSize, _GP3, _GP3, "the largest gp3 volume"),
    _row(fields.SubnetId, "subnet-12345678", "subnet-12345678", "a subnet id of 8 digits"),
    _row(fields.SubnetId, "subnet-" + "a" * 17, "subnet-" + "a" * 17, "a subnet id of 17 digits"),
    _row(fields.Ipv4Cidr, "0.0.0.0/0", "0.0.0.0/0", "everywhere"),
    _row(fields.Quantity, "1.5", "1.5", "a bare decimal quantity"),
    _row(fields.Duration, "0", "0", "Go's bare zero"),
    _row(fields.PositiveDuration, "1ns", "1ns", "one nanosecond"),
    _row(fields.PrometheusDuration, "1h30m", "1h30m", "a Prometheus duration of two units"),
    _row(fields.InstanceTypes, ["g5.xlarge", "g6.xlarge"], ["g5.xlarge", "g6.xlarge"], "two instance types"),
]


@pytest.mark.parametrize(("kind", "value", "read"), PASSES)
def test_the_passing_side_of_each_field_type(kind, value, read):
    as_loaded, built_now = _kinds(kind)

    assert TypeAdapter(as_loaded).validate_python(value, strict=True) == read
    assert TypeAdapter(built_now).validate_python(value, strict=True) == read


@pytest.mark.parametrize(
    ("values", "problems"),
    [
        pytest.param(
            {"gpuPlacement": {"taintEffect": "PreferNoSchedule"}},
            [
                (
                    "gpuPlacement.taintEffect",
                    f"PreferNoSchedule does not keep pods off GPU nodes: 'PreferNoSchedule'; {_REPELLING}",
                )
            ],
            id="the contract's taint effect",
        ),
        pytest.param(
            {"gpuNodeGroup": {"instanceTypes": ["g5.xlarge", "g5"]}},
            [
                (
                    "gpuNodeGroup.instanceTypes",
                    "malformed instance type 'g5'; allowed: EC2 instance type names such as g5.xlarge",
                )
            ],
            id="a bad item of a plain list reported on the list",
        ),
        pytest.param(
            {"gpuNodeGroup": {"extraLabels": {"k8s.io/role": "gpu"}}},
            [("gpuNodeGroup.extraLabels", f"{_KUBELET}'k8s.io/role'; {_OUTSIDE}")],
            id="a node label the kubelet refuses",
        ),
        pytest.param(
            {"autoscaler": {"maxNodeProvisionTime": "0s"}},
            [
                (
                    "autoscaler.maxNodeProvisionTime",
                    f"zero duration '0s' (Go reads 0s); allowed: more than 0s, {_GO}",
                )
            ],
            id="a zero provision time",
        ),
        pytest.param(
            {"devicePlugin": {"version": "0.17.0"}},
            [
                (
                    "devicePlugin.version",
                    f"invalid value '0.17.0'; allowed: a release tag such as {versions.DEVICE_PLUGIN_VERSION}",
                )
            ],
            id="a device plugin version without its v",
        ),
    ],
)
def test_field_refusals_read_the_same_under_their_stack_keys(values, problems):
    assert problems_of(values) == problems
