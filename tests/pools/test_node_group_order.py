"""Node groups are created after, and deleted before, what lets their nodes reach the internet and join."""

from __future__ import annotations

from components.facts.resource_types import NODE_GROUP, ROUTE, ROUTE_TABLE_ASSOCIATION


def _private_routing(run) -> set[str]:
    """URNs of the private subnets' NAT routes and route-table associations."""
    routes = {r.urn for r in run.of_type(ROUTE) if r.name.endswith("-nat")}
    associations = {r.urn for r in run.of_type(ROUTE_TABLE_ASSOCIATION) if "-private-" in r.name}
    return routes | associations


def test_node_groups_wait_for_every_private_nat_route_and_association(dev_run):
    routing = _private_routing(dev_run)
    zones = len([r for r in dev_run.of_type(ROUTE) if r.name.endswith("-nat")])
    assert zones >= 2 and len(routing) == 2 * zones
    groups = dev_run.of_type(NODE_GROUP)
    assert {group.name for group in groups} == {"gpu-inference-dev-system", "gpu-inference-dev-gpu"}
    for group in groups:
        # Registered dependencies are what the engine orders creation by, and deletion in reverse.
        assert routing <= set(group.dependencies), group.name


def test_node_groups_do_not_wait_for_the_public_subnets_they_do_not_use(dev_run):
    public = {r.urn for r in dev_run.of_type(ROUTE_TABLE_ASSOCIATION) if "-public-" in r.name}
    internet = {r.urn for r in dev_run.of_type(ROUTE) if r.name.endswith("-public-internet")}
    groups = dev_run.of_type(NODE_GROUP)
    # Both node groups, so that the loop below checks something when run alone.
    assert public and internet and len(groups) == 2
    for group in groups:
        assert not (public | internet) & set(group.dependencies), group.name
