"""The orders the stack relies on, read from what the real program registers under mocks: each row of
tests/support/ordering_table.py holds in the stack variants it names, and every `depends_on` the program registers in
those variants is one of the rows (a new one needs its row, so its test)."""

from __future__ import annotations

import pytest

from components.facts.resource_types import HELM_RELEASE
from tests.support.component_args import run_components
from tests.support.ordering_table import ORDERINGS
from tests.support.ordering_table_pools import FLEET_POOLS
from tests.support.orderings import (
    ALL_VARIANTS,
    DEPENDS_ON,
    FLEET_VARIANT,
    Ordering,
    matches,
    picked,
    shown,
    stack_prefix,
    variant_run,
    waited_for,
)

CASES = [
    pytest.param(ordering, variant, id=f"{ordering.slug}[{variant}]")
    for ordering in ORDERINGS
    for variant in ordering.variants
]


@pytest.mark.parametrize(("ordering", "variant"), CASES)
def test_the_ordering_holds(ordering: Ordering, variant: str):
    run = variant_run(variant)
    dependents = [resource for pick in ordering.dependents for resource in picked(run, pick)]
    for pick in (*ordering.dependents, *ordering.dependencies):
        assert picked(run, pick), f"{pick!r} picks nothing in {variant}"
    expected = {resource.urn for pick in ordering.dependencies for resource in picked(run, pick)}

    for dependent in dependents:
        missing = expected - set(waited_for(dependent, ordering.through))
        assert not missing, f"{dependent.name} does not wait ({ordering.through}) for {shown(run, missing)}"


def test_every_depends_on_the_program_registers_is_an_ordering_of_the_table():
    """A `depends_on` no row names would go untested: removing it would fail nothing."""
    unnamed: set[str] = set()
    for variant in ALL_VARIANTS:
        run = variant_run(variant)
        prefix = stack_prefix(run)
        by_urn = {resource.urn: resource for resource in run.resources}
        for resource in run.resources:
            for urn in resource.depends_on:
                if not any(
                    ordering.through == DEPENDS_ON
                    and any(matches(pick, resource, prefix) for pick in ordering.dependents)
                    and any(matches(pick, by_urn[urn], prefix) for pick in ordering.dependencies)
                    for ordering in ORDERINGS
                ):
                    unnamed.add(f"{shown(run, (resource.urn,))[0]} -> {shown(run, (urn,))[0]}")

    assert not unnamed, "depends_on without an ordering in tests/support/ordering_table.py: " + "; ".join(
        sorted(unnamed)
    )


def test_every_variant_registers_depends_on_for_the_table_to_name():
    """The check above reads each variant's `depends_on`: a run that recorded none would pass it vacuously."""
    for variant in ALL_VARIANTS:
        assert any(resource.depends_on for resource in variant_run(variant).resources), variant


def test_a_fleet_server_waits_for_its_own_pool_and_no_other():
    """Waiting for every pool would hold a server's rollout on pools it never runs on."""
    run = variant_run(FLEET_VARIANT)
    for server, pool in FLEET_POOLS.items():
        [component] = picked(run, f"VllmServer {server}")
        pools = {
            shown(run, (urn,))[0].split(" ", 1)[1].split("-ca-")[0].removesuffix("-lt") for urn in component.depends_on
        }

        assert pools == {f"gpu-{pool}"}, server


def test_what_takes_the_prometheus_stacks_namespace_waits_for_its_release(tmp_path):
    """`PrometheusStack.namespace` resolves once the release (with its CRDs) exists: a ServiceMonitor a library user
    puts in it is created after the CRD that defines it."""
    run = run_components(
        tmp_path,
        """
        import pulumi_kubernetes as k8s
        from components.observability.prometheus_stack import PrometheusStack, PrometheusStackArgs

        stack = PrometheusStack("prom", PrometheusStackArgs())
        k8s.core.v1.ConfigMap("user", metadata={"namespace": stack.namespace})
        """,
    )
    [release] = [resource for resource in run.of_type(HELM_RELEASE) if resource.name == "prom-release"]

    assert run.named("user").input_dependencies["metadata"] == (release.urn,)
