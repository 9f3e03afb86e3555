"""Cases of the AWS request check: the dev stack's registered resources with one of them edited, and the problems
the check finds in its requests. Shared by the request tests of the node groups, the cluster and the network.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from typing import Any

from components.facts.resource_types import EKS_CLUSTER, LAUNCH_TEMPLATE, NODE_GROUP
from components.stackcheck.aws.check import build_stack, check_resources
from components.stackcheck.aws.network_builders import ID_PREFIXES
from components.stackcheck.runtime import RegisteredResource


def gpu_group(resource: RegisteredResource) -> bool:
    """Whether `resource` is the GPU node group (the tainted one)."""
    return resource.type == NODE_GROUP and bool(resource.inputs.get("taints"))


def gpu_template(run) -> Callable[[RegisteredResource], bool]:
    """A `pick` for `edited` that selects the GPU node group's launch template."""
    template_id = next(r for r in run.resources if gpu_group(r)).inputs["launchTemplate"]["id"]
    return lambda resource: resource.type == LAUNCH_TEMPLATE and resource.id == template_id


def edited(
    run, pick: Callable[[RegisteredResource], bool], edit: Callable[[dict], Any], name: str | None = None
) -> tuple[list[RegisteredResource], RegisteredResource]:
    """The run's resources with the one `pick` selects given edited inputs (and optionally another name)."""
    resources, target = [], None
    for resource in run.resources:
        if target is None and pick(resource):
            inputs = copy.deepcopy(resource.inputs)
            edit(inputs)
            resource = target = dataclasses.replace(resource, inputs=inputs, name=name or resource.name)
        resources.append(resource)
    assert target is not None
    return resources, target


def problems_of(resources: list[RegisteredResource], target: RegisteredResource) -> list[tuple[str, str, Any, str]]:
    """(request, member path, value, rule) of every problem the check finds in `target`'s requests."""
    check = next(
        c for c in check_resources(resources) if (c.resource_type, c.resource_name) == (target.type, target.name)
    )
    return [(label, violation.path, violation.value, violation.rule) for label, violation in check.problems]


def only_problem(run, pick, edit, name=None) -> tuple[str, str, Any, str]:
    """The one problem the check finds after `edit`; fails unless there is exactly one."""
    found = problems_of(*edited(run, pick, edit, name))
    assert len(found) == 1, found
    return found[0]


def stand_ins(run, resource_type: str) -> dict[str, str]:
    """Mock id -> the stand-in id AWS would give, for the resources of `resource_type`."""
    ids = build_stack(run.resources).ids
    prefix = ID_PREFIXES[resource_type]
    return {r.id: ids[r.id][prefix] for r in run.resources if r.type == resource_type}


def cluster_resource(run) -> RegisteredResource:
    """The run's pulumi-eks `Cluster` (the remote component)."""
    return next(r for r in run.resources if r.type == EKS_CLUSTER)
