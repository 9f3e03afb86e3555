"""What a change does, from an earlier plan's JSON document to this one's: `plan --compare PREVIOUS.json`.

Both sides are the JSON documents the plan writes (`--format json`), so the earlier one may come from another
branch, as the pull-request workflow plans the base and the head. Resources are matched by URN (without its
stack and project, so that two stacks compare too); each one in
both is compared input by input (the documents' `resources[].inputs`), and the providers' own rules
(`facts/replace_rules.py`) say whether a changed input replaces the resource or updates it in place. A type
those rules do not cover may replace: not known. The costly resources come first (`rank`): a GPU node group
(a node group the plan modelled as a pool with GPUs), the cluster, the VPC.

A node group whose in-place update replaces every node (`ROLLING_UPDATE_ON_CHANGE`: a new launch template version,
release or Kubernetes version) says so, with its node count and the Deployments on it (`rolling.py`); an
EC2NodeClass whose AMI pin changes says which Karpenter pools' nodes all drift (`drift.py`).

Two plans of different stack names are two stacks, not one stack's next update: the comparison says so first,
matches resources whose names differ only by the stack name, and sets apart what follows from the name (the
`pulumi:stack` tag, names holding the stack name): a resource whose every difference is such is listed under that
heading, not as a change.

Pure functions of the two documents: no Pulumi, no files but the one `load_previous` reads.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from ...facts.replace_rules import (
    COMPONENT_REPLACE_ON_CHANGE,
    MAY_REPLACE_ON_CHANGE,
    NOT_KNOWN,
    REPLACE_ON_CHANGE,
    ROLLING_UPDATE_ON_CHANGE,
    SOURCES,
)
from ...facts.resource_types import CLUSTER_TYPES, NAT_GATEWAY, NODE_GROUP, STACK, VPC
from ..stack_config import UsageError
from .drift import Drift, ami_drift
from .rolling import RollingUpdate, rolling_update
from .stack_names import paired, same, same_value, stack_names, stack_renamer

Action = Literal["replace", "may-replace", "update"]
"""What the engine does to a resource whose inputs changed: replaces it, may replace it (the provider's rules
are not known here), or updates it in place."""
ACTIONS: tuple[Action, ...] = ("replace", "may-replace", "update")
"""The order the comparison lists them in: what replaces first."""
COST_KEYS = ("cost", "monthlyUsd", "desired")
"""Where a plan's JSON document gives the stack's monthly cost at the pools' desired sizes."""
_ABSENT = object()
_INDEX = re.compile(r"\[\d+\]")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


@dataclass(frozen=True)
class InputChange:
    """One input that differs: its path (wire names, dotted, `[n]` for a list item), the values before and after
    (`None` when absent on that side), and whether the provider replaces the resource for it (`None`: not known)."""

    path: str
    before: Any
    after: Any
    replaces: bool | None
    follows: str = ""
    """The resource being replaced whose new id this input takes (its value in both plans is the old id)."""
    from_stack_name: bool = False
    """The difference is the stack name's alone: the two plans are of two stacks (`Comparison.stacks`)."""


@dataclass(frozen=True)
class ResourceChange:
    """A resource in both plans whose inputs differ."""

    type: str
    name: str
    urn: str
    action: Action
    changes: tuple[InputChange, ...]
    rank: int
    """0 a GPU node group, 1 the cluster, 2 the VPC, 3 another node group or a NAT gateway, 4 anything else."""
    delete_first: bool = False
    """A replacement deletes the resource before creating the new one; otherwise both exist for a while (for a
    node group, twice its nodes)."""
    rolling: RollingUpdate | None = None
    """An in-place update that replaces every node of the group, one after another."""
    drift: Drift | None = None
    """An in-place update of an EC2NodeClass's AMI that drifts every node of its Karpenter pools."""

    @property
    def replacing(self) -> tuple[InputChange, ...]:
        """The changes that replace the resource."""
        return tuple(change for change in self.changes if change.replaces and not change.from_stack_name)

    @property
    def from_stack_name(self) -> bool:
        """Every difference is the stack name's (`InputChange.from_stack_name`)."""
        return all(change.from_stack_name for change in self.changes)


@dataclass(frozen=True)
class ResourceRef:
    """A resource only one of the plans has."""

    type: str
    name: str
    urn: str
    rank: int


@dataclass(frozen=True)
class VerdictChange:
    """A GPU guard verdict whose outcome differs, or that only one plan has (`None` on the other side)."""

    id: int
    name: str
    before: bool | None
    after: bool | None
    message: str
    """The verdict's message in this plan, else in the earlier one."""


@dataclass(frozen=True)
class CostDelta:
    """The monthly cost at desired size, before and after (`COST_KEYS`), in USD."""

    before: float
    after: float

    @property
    def delta(self) -> float:
        return round(self.after - self.before, 2)


@dataclass(frozen=True)
class Comparison:
    """Everything that differs between an earlier plan and this one."""

    previous: str
    """How the earlier plan is named in the report: the file given to `--compare`."""
    changed: tuple[ResourceChange, ...]
    """Replacements first, then possible replacements, then updates; costly resources first within each; without
    the resources whose every difference follows from the stack name (`by_stack_name`)."""
    added: tuple[ResourceRef, ...]
    removed: tuple[ResourceRef, ...]
    verdicts: tuple[VerdictChange, ...]
    cost: CostDelta | None
    inputs_compared: bool
    """False when the earlier document carries no inputs (written before the plan recorded them)."""
    stacks: tuple[str, str] | None = None
    """The earlier plan's stack name and this one's, when they differ; None for one stack's two plans."""
    by_stack_name: tuple[ResourceChange, ...] = ()
    """The resources whose every difference follows from the stack name."""

    def of_action(self, action: Action) -> tuple[ResourceChange, ...]:
        return tuple(change for change in self.changed if change.action == action)

    @property
    def rolling(self) -> tuple[ResourceChange, ...]:
        """The node groups an in-place update rolls, every node of each."""
        return tuple(change for change in self.changed if change.rolling is not None)


def load_previous(path: Path) -> dict[str, Any]:
    """The plan JSON document at `path`; `UsageError` naming `--compare` when it cannot be read or is not one."""
    allowed = "allowed: a JSON document written by `plan --format json`"
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise UsageError(f"--compare {path}: cannot read it: {error.strerror or error}; {allowed}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise UsageError(f"--compare {path}: not JSON ({error}); {allowed}") from None
    if not isinstance(document, dict) or not isinstance(document.get("resources"), list):
        raise UsageError(f"--compare {path}: has no `resources` list, so it is not a plan's document; {allowed}")
    if document.get("schemaVersion") != 1:
        raise UsageError(
            f"--compare {path}: schemaVersion {document.get('schemaVersion')!r} is not one this plan reads; "
            "allowed: schemaVersion 1"
        )
    return document


def compare(previous: Mapping[str, Any], current: Mapping[str, Any], label: str) -> Comparison:
    """What differs from the plan document `previous` to `current`; `label` names `previous` in the report."""
    gpu_pools = _gpu_pools(current) | _gpu_pools(previous)
    stacks = stack_names(previous, current)
    rename = stack_renamer(*stacks) if stacks else same
    after = _resources(current)
    before = paired(_resources(previous), after, rename)
    inputs_compared = all("inputs" in entry for entry in before.values())
    changes: dict[str, ResourceChange] = {}
    if inputs_compared:
        for key in after.keys() & before.keys():
            change = resource_change(before[key], after[key], gpu_pools, rename)
            if change is not None:
                changes[key] = change
        _follow_replacements(before, after, changes, gpu_pools)
        for key, change in changes.items():
            if _rolls(change):
                changes[key] = replace(change, rolling=rolling_update(before[key], after[key], current))
            drift = ami_drift(change.type, [item.path for item in change.changes], after[key], current)
            if drift is not None and change.action == "update":
                changes[key] = replace(change, drift=drift)
    changed = sorted(changes.values(), key=lambda c: (ACTIONS.index(c.action), c.rank, c.type, c.name))
    return Comparison(
        previous=label,
        changed=tuple(change for change in changed if not change.from_stack_name),
        added=_refs(after, before, gpu_pools),
        removed=_refs(before, after, gpu_pools),
        verdicts=verdict_changes(previous, current),
        cost=cost_delta(previous, current),
        inputs_compared=inputs_compared,
        stacks=stacks,
        by_stack_name=tuple(change for change in changed if change.from_stack_name),
    )


def resource_change(
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    gpu_pools: set[str],
    rename: Callable[[Any], Any] | None = None,
) -> ResourceChange | None:
    """How one resource's inputs changed, and what the engine does about it; None when they are equal. `rename`
    (`stack_renamer`) tells the differences that follow from the stack name, when the plans are of two stacks."""
    rename = rename or same
    resource_type = str(after["type"])
    old = dict(_leaves(before.get("inputs") or {}))
    new = dict(_leaves(after.get("inputs") or {}))
    # The earlier inputs as the later stack's name would make them.
    renamed = {rename(path): rename(value) for path, value in old.items()}
    changes = []
    for path in sorted(old.keys() | new.keys()):
        was, now = old.get(path, _ABSENT), new.get(path, _ABSENT)
        # `true` and `1` are equal to Python, not to a provider.
        if was != now or type(was) is not type(now):
            named = (
                same_value(renamed.get(path, _ABSENT), now)
                if now is not _ABSENT
                else same_value(rename(was), new.get(rename(path), _ABSENT))
            )
            changes.append(
                InputChange(
                    path,
                    None if was is _ABSENT else was,
                    None if now is _ABSENT else now,
                    replaces_on_change(resource_type, path),
                    from_stack_name=named and rename is not same,
                )
            )
    if not changes:
        return None
    return ResourceChange(
        resource_type,
        str(after["name"]),
        str(after["urn"]),
        _action(changes),
        tuple(changes),
        rank(after, gpu_pools),
        deletes_first(before, after),
    )


def _rolls(change: ResourceChange) -> bool:
    """An in-place update with a change that replaces the group's nodes (`ROLLING_UPDATE_ON_CHANGE`)."""
    paths = ROLLING_UPDATE_ON_CHANGE.get(change.type, ())
    return change.action == "update" and any(
        _covered(_INDEX.sub("[*]", item.path), paths) for item in change.changes if not item.from_stack_name
    )


def deletes_first(before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
    """Whether replacing the resource deletes it before creating the new one.

    The program asks for it with `deleteBeforeReplace`; pulumi-kubernetes also decides so itself for an object the
    program names (`metadata.name`, not `generateName` or Pulumi's autoname) when the name and namespace stay
    the same, since two objects of one name cannot coexist (`Diff`, `deleteBeforeReplace`, in
    provider/pkg/provider/provider.go at v4.32.0). Everything else is created first, Pulumi's default.
    """
    if after.get("deleteBeforeReplace"):
        return True
    if not str(after.get("type", "")).startswith("kubernetes:"):
        return False
    old, new = _metadata(before), _metadata(after)
    return bool(new.get("name")) and (old.get("name"), old.get("namespace")) == (new.get("name"), new.get("namespace"))


def _metadata(resource: Mapping[str, Any]) -> Mapping[str, Any]:
    inputs = resource.get("inputs")
    metadata = inputs.get("metadata") if isinstance(inputs, Mapping) else None
    return metadata if isinstance(metadata, Mapping) else {}


def _action(changes: list[InputChange] | tuple[InputChange, ...]) -> Action:
    """What the changes do, those of the stack name's alone aside when there are others."""
    own = [change for change in changes if not change.from_stack_name] or changes
    if any(change.replaces for change in own):
        return "replace"
    if any(change.replaces is None for change in own):
        return "may-replace"
    return "update"


def _follow_replacements(
    before: dict[str, Mapping[str, Any]],
    after: dict[str, Mapping[str, Any]],
    changes: dict[str, ResourceChange],
    gpu_pools: set[str],
) -> None:
    """Add to `changes` what a replacement changes in the resources that take the replaced one's id.

    A replaced resource gets a new id, unknown until it is created; an input holding the old id changes with it,
    and replaces its resource when the rules say so (a new launch template id replaces the node group), which in
    turn reaches what takes that one's id. Ids are matched as whole input values (the plan's `resources[].id`).
    """
    replaced = {
        str(before[key].get("id")): change.name
        for key, change in changes.items()
        if change.action == "replace" and before[key].get("id")
    }
    while replaced:
        newly: dict[str, str] = {}
        for key in sorted(after.keys() & before.keys()):
            current = changes.get(key)
            if current is not None and current.action == "replace":
                continue
            old = dict(_leaves(before[key].get("inputs") or {}))
            seen = {change.path for change in current.changes} if current else set()
            resource_type = str(after[key]["type"])
            followed = [
                InputChange(path, value, value, replaces_on_change(resource_type, path), follows=replaced[value])
                for path, value in _leaves(after[key].get("inputs") or {})
                if isinstance(value, str) and value in replaced and old.get(path) == value and path not in seen
            ]
            if not followed:
                continue
            items = (*(current.changes if current else ()), *followed)
            change = ResourceChange(
                resource_type,
                str(after[key]["name"]),
                str(after[key]["urn"]),
                _action(items),
                items,
                rank(after[key], gpu_pools),
                deletes_first(before[key], after[key]),
            )
            changes[key] = change
            if change.action == "replace" and before[key].get("id"):
                newly[str(before[key]["id"])] = change.name
        replaced = newly


def replaces_on_change(resource_type: str, path: str) -> bool | None:
    """Whether a change of the input at `path` replaces a resource of `resource_type`; None when not known.

    A rule covers its path and everything inside it (`launchTemplate.id`, `spec.selector.matchLabels.app`), with
    `[*]` standing for any list item, as pulumi-kubernetes matches its force-new paths against a change and as
    Terraform replaces for a change anywhere inside a `ForceNew` attribute. A path the provider replaces for only
    under a condition (`MAY_REPLACE_ON_CHANGE`) is not known either, nor is an input of a component other than
    those it passes to a child that replaces for them (`COMPONENT_REPLACE_ON_CHANGE`).
    """
    pattern = _INDEX.sub("[*]", path)
    if resource_type in COMPONENT_REPLACE_ON_CHANGE:
        return True if _covered(pattern, COMPONENT_REPLACE_ON_CHANGE[resource_type]) else None
    rules = REPLACE_ON_CHANGE.get(resource_type)
    if rules is None:
        return None
    if _covered(pattern, rules):
        return True
    return None if _covered(pattern, MAY_REPLACE_ON_CHANGE.get(resource_type, ())) else False


def _covered(pattern: str, rules: tuple[str, ...]) -> bool:
    return any(pattern == rule or pattern.startswith((f"{rule}.", f"{rule}[")) for rule in rules)


def rule_source(resource_type: str) -> str | None:
    """Where the replace rules of `resource_type` come from, or None when they are not known."""
    return SOURCES.get(resource_type)


def not_known_reason(resource_type: str) -> str:
    """Why the replace rules of `resource_type` are not known (`NOT_KNOWN`), or that the table lacks the type."""
    return NOT_KNOWN.get(resource_type, "the type is not in facts/replace_rules.py")


def rank(resource: Mapping[str, Any], gpu_pools: set[str]) -> int:
    """How costly a change of `resource` is to get wrong: 0 a GPU node group ... 4 anything else (`ResourceChange`)."""
    resource_type = resource.get("type")
    if resource_type == NODE_GROUP and resource.get("name") in gpu_pools:
        return 0
    if resource_type in CLUSTER_TYPES:
        return 1
    if resource_type == VPC:
        return 2
    if resource_type in (NODE_GROUP, NAT_GATEWAY):
        return 3
    return 4


def verdict_changes(previous: Mapping[str, Any], current: Mapping[str, Any]) -> tuple[VerdictChange, ...]:
    """The GPU guard verdicts that passed in one plan and failed in the other, or that only one plan has."""
    before = _verdicts(previous)
    after = _verdicts(current)
    found = []
    for verdict_id in sorted(before.keys() | after.keys()):
        old, new = before.get(verdict_id), after.get(verdict_id)
        was = None if old is None else bool(old.get("passed"))
        now = None if new is None else bool(new.get("passed"))
        if was != now:
            shown = new or old or {}
            found.append(VerdictChange(verdict_id, str(shown.get("name", "")), was, now, str(shown.get("message", ""))))
    return tuple(found)


def cost_delta(previous: Mapping[str, Any], current: Mapping[str, Any]) -> CostDelta | None:
    """The monthly cost at desired size before and after, when both documents give it (`COST_KEYS`)."""
    before, after = _cost(previous), _cost(current)
    if before is None or after is None:
        return None
    return CostDelta(before, after)


def _cost(document: Mapping[str, Any]) -> float | None:
    value: Any = document
    for key in COST_KEYS:
        if not isinstance(value, Mapping):
            return None
        value = value.get(key)
    # bool is an int to Python, and no price.
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _resources(document: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """The document's resources by URN without its stack and project part, so that a plan of one stack compares
    with another's; without the stack resource itself (every plan has one, with no inputs)."""
    return {
        _identity(str(entry["urn"])): entry
        for entry in document.get("resources") or []
        if isinstance(entry, Mapping) and "urn" in entry and entry.get("type") != STACK
    }


def _identity(urn: str) -> str:
    """`urn:pulumi:<stack>::<project>::<type chain>::<name>` without its stack and project."""
    parts = urn.split("::", 2)
    return parts[2] if len(parts) == 3 and parts[0].startswith("urn:pulumi:") else urn


def _refs(
    side: dict[str, Mapping[str, Any]], other: dict[str, Mapping[str, Any]], gpu_pools: set[str]
) -> tuple[ResourceRef, ...]:
    refs = [
        ResourceRef(str(entry.get("type")), str(entry.get("name")), urn, rank(entry, gpu_pools))
        for urn, entry in side.items()
        if urn not in other
    ]
    return tuple(sorted(refs, key=lambda ref: (ref.rank, ref.type, ref.name)))


def _gpu_pools(document: Mapping[str, Any]) -> set[str]:
    """The names of the node groups the plan modelled as pools with GPUs."""
    return {
        str(pool.get("name"))
        for pool in document.get("pools") or []
        if isinstance(pool, Mapping) and isinstance(pool.get("gpusPerNode"), int) and pool["gpusPerNode"] > 0
    }


def _verdicts(document: Mapping[str, Any]) -> dict[int, Mapping[str, Any]]:
    return {
        int(verdict["id"]): verdict
        for verdict in document.get("verdicts") or []
        if isinstance(verdict, Mapping) and isinstance(verdict.get("id"), int)
    }


def _leaves(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """Every leaf of `value` with its path; an empty object or list is a leaf of its own."""
    if isinstance(value, Mapping) and value:
        for key, item in value.items():
            yield from _leaves(item, _member(path, str(key)))
    elif isinstance(value, list) and value:
        for index, item in enumerate(value):
            yield from _leaves(item, f"{path}[{index}]")
    elif path:
        yield path, value


def _member(path: str, key: str) -> str:
    """`path` and `key` as Pulumi writes a property path: `a.b`, or `a["app.kubernetes.io/name"]` for a key that
    is not a plain name (`ignoreChanges` paths are written so)."""
    if _NAME.fullmatch(key):
        return f"{path}.{key}" if path else key
    return f"{path}[{json.dumps(key)}]"
