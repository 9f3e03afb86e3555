"""Values that resolve only once other resources exist, so whatever takes them waits for those resources.

A resource given such a value depends on the resources it waits for: Pulumi creates it after them and,
because the engine deletes in the reverse order of dependencies, deletes it before them. The node role
hands out its ARN this way (node groups wait for the role's policies), and the network its subnet ids
(node groups wait for the subnets' routes and route-table associations).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import pulumi

T = TypeVar("T")


def once_created(value: pulumi.Input[T], resources: Sequence[pulumi.CustomResource]) -> pulumi.Output[T]:
    """`value`, resolving only once every one of `resources` has been created.

    The resources' ids join the value's dependencies (an Output carries the resources it came from),
    without changing the value itself.
    """
    return pulumi.Output.all(value, *(resource.id for resource in resources)).apply(lambda values: values[0])
