"""The ownership verdict, `one-owner-per-attribute`: no attribute of a resource is managed by two resources of the
stack.

Two owners of one thing undo each other, and not at once: each believes its own state, so the fight shows only at
a later refresh or update. The cases the stack can make:

- A tag resource on a resource whose own inputs hold `tags`. pulumi-aws's `aws.ec2.Tag` "should not be combined
  with the providers resource for managing the parent resource. For example, using `aws.ec2.Vpc` and `aws.ec2.Tag`
  to manage tags of the same VPC will cause a perpetual difference where the `aws.ec2.Vpc` resource will try to
  remove the tag being added by the `aws.ec2.Tag` resource" (pulumi-aws docs, `aws.ec2.Tag`, v7.15.0): the
  `pulumi up --refresh` after the first deployment reads the tag into the parent's tags, the update removes it, and
  the tag resource still believes it exists. For Karpenter's `karpenter.sh/discovery` on a subnet, no node launches.
- Two tag resources setting one key on one resource: each update of one overwrites the other's value.
- One Kubernetes object (API group, kind, namespace, name) declared by two resources: the cluster holds one object
  per identity, so the two overwrite each other on every update, and deleting either deletes the object of both.
- One Helm release (namespace, name) declared by two resources: Helm keeps one release history per name in a
  namespace, so each upgrade replaces the other's chart and values.

Pure: resources come in as plain mappings (`type`, `name`, `id`, `inputs`), Kubernetes objects as `Declared`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..facts.resource_types import AUTOSCALING_TAG, EC2_TAG, HELM_RELEASE
from .verdict import Verdict, _summary

VERDICT_NAME = "one-owner-per-attribute"
TAG_RESOURCES: dict[str, tuple[str, tuple[str, ...]]] = {
    EC2_TAG: ("resourceId", ("key",)),
    AUTOSCALING_TAG: ("autoscalingGroupName", ("tag", "key")),
}
"""Tag resources by type: the input naming the resource they tag, and the path of the tag's key in their inputs
(pulumi-aws `aws.ec2.Tag` `resourceId`/`key`, `aws.autoscaling.Tag` `autoscalingGroupName`/`tag.key`)."""
OWN_TAGS_INPUT = "tags"
"""The input through which a resource manages its own tags (every taggable pulumi-aws resource's `tags`)."""


@dataclass(frozen=True)
class Declared:
    """A Kubernetes object one resource of the stack declares."""

    group: str
    """The API group, empty for the core group."""
    kind: str
    namespace: str | None
    """None for a cluster-scoped kind."""
    name: str
    resource_type: str
    resource_name: str

    @property
    def shown(self) -> str:
        """`Kind namespace/name`, or `Kind name` when cluster-scoped."""
        return f"{self.kind} {self.namespace}/{self.name}" if self.namespace else f"{self.kind} {self.name}"


def ownership_verdict(resources: Iterable[Mapping[str, Any]], objects: Iterable[Declared]) -> Verdict:
    """The verdict over every registered resource (`type`, `name`, `id`, `inputs`) and Kubernetes object."""
    resources = list(resources)
    problems = [*tag_owners(resources), *double_declarations(objects), *release_owners(resources)]
    if problems:
        return Verdict(VERDICT_NAME, False, _summary(problems), problems)
    tags = [resource for resource in resources if resource.get("type") in TAG_RESOURCES]
    return Verdict(
        VERDICT_NAME,
        True,
        "every tag, Kubernetes object and Helm release the stack manages has one owner"
        + (f" ({len(tags)} tag resource(s), each on a resource whose tags the stack does not manage)" if tags else ""),
    )


def tag_owners(resources: list[Mapping[str, Any]]) -> list[str]:
    """A tag resource on a resource of the stack that manages its own `tags`, and two tag resources of one key on
    one resource."""
    by_id = {str(resource["id"]): resource for resource in resources if resource.get("id")}
    problems = []
    first: dict[tuple[str, str, str], Mapping[str, Any]] = {}
    for resource in resources:
        shape = TAG_RESOURCES.get(str(resource.get("type")))
        if shape is None:
            continue
        target_input, key_path = shape
        inputs = resource.get("inputs") or {}
        target, key = inputs.get(target_input), _at(inputs, key_path)
        if not isinstance(target, str) or not isinstance(key, str):
            continue
        parent = by_id.get(target)
        if parent is not None and OWN_TAGS_INPUT in (parent.get("inputs") or {}):
            problems.append(
                f"{_named(resource)} sets tag {key} on {_named(parent)}, whose own `tags` the stack manages too: the "
                f"next refresh reads {key} into them and the update after removes it, while the tag resource still "
                f"believes it is set; put {key} in {parent.get('name')}'s `tags` and drop the tag resource"
            )
        identity = (str(resource.get("type")), target, key)
        if identity in first:
            problems.append(
                f"tag {key} on {target} is set by {_named(first[identity])} and by {_named(resource)}: each update "
                "of one overwrites the other's value; allowed: one tag resource per key"
            )
        else:
            first[identity] = resource
    return problems


def double_declarations(objects: Iterable[Declared]) -> list[str]:
    """Objects that more than one resource declares (same API group, kind, namespace and name)."""
    first: dict[tuple[str, str, str | None, str], Declared] = {}
    found = []
    for obj in objects:
        identity = (obj.group, obj.kind, obj.namespace, obj.name)
        if identity in first:
            other = first[identity]
            found.append(
                f"{obj.shown} is declared twice: by {other.resource_type} {other.resource_name!r} and by "
                f"{obj.resource_type} {obj.resource_name!r}; allowed: one resource per object"
            )
        else:
            first[identity] = obj
    return found


def release_owners(resources: list[Mapping[str, Any]]) -> list[str]:
    """Helm releases of one name in one namespace declared by two resources."""
    first: dict[tuple[str, str], Mapping[str, Any]] = {}
    found = []
    for resource in resources:
        if resource.get("type") != HELM_RELEASE:
            continue
        inputs = resource.get("inputs") or {}
        identity = (str(inputs.get("namespace") or "default"), str(inputs.get("name") or resource.get("name")))
        if identity in first:
            found.append(
                f"Helm release {identity[0]}/{identity[1]} is declared twice: by {_named(first[identity])} and by "
                f"{_named(resource)}: each upgrade replaces the other's chart and values; allowed: one resource per "
                "release"
            )
        else:
            first[identity] = resource
    return found


def _at(inputs: Mapping[str, Any], path: tuple[str, ...]) -> Any:
    value: Any = inputs
    for key in path:
        value = value.get(key) if isinstance(value, Mapping) else None
    return value


def _named(resource: Mapping[str, Any]) -> str:
    return f"{resource.get('type')} {resource.get('name')!r}"
