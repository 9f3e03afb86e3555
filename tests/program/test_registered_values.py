"""Values the program registers and the settings refuse, pinned where earlier tests checked only that a key or a
rule exists: each fails on a one-line slip in the value."""

from __future__ import annotations

import pytest

from components.facts.resource_types import DAEMONSET, DEPLOYMENT
from components.settings import ConfigError, parse_settings


def problems_of(values: dict) -> list[tuple[str, str]]:
    with pytest.raises(ConfigError) as error:
        parse_settings(values)
    return [(problem.key, problem.message) for problem in error.value.problems]


def test_every_workload_template_carries_the_labels_its_selector_matches(stack):
    # The API server refuses a Deployment or DaemonSet whose selector does not match its template's labels
    # (kubernetes pkg/apis/apps/validation/validation.go: "`selector` does not match template `labels`").
    run = stack({"autoscaler": {"enabled": True}})
    workloads = run.of_type(DEPLOYMENT) + run.of_type(DAEMONSET)
    names = {w.inputs["metadata"]["name"] for w in workloads}
    assert {"cluster-autoscaler", "vllm-server", "nvidia-device-plugin", "dcgm-exporter"} <= names
    for workload in workloads:
        spec = workload.inputs["spec"]
        selected = spec["selector"]["matchLabels"]
        assert selected, workload.name
        assert selected.items() <= spec["template"]["metadata"]["labels"].items(), workload.name


def test_an_open_public_endpoint_without_cidrs_is_refused_saying_what_to_give():
    assert problems_of({"cluster": {"endpointPublicAccess": True, "publicAccessCidrs": []}}) == [
        (
            "cluster.publicAccessCidrs",
            "[] with endpointPublicAccess true; allowed: at least one CIDR, or endpointPublicAccess false",
        )
    ]


def test_subnets_without_their_vpc_are_refused_asking_for_the_vpc_id():
    subnets = ["subnet-0123456789abcdef0", "subnet-0123456789abcdef1"]
    assert problems_of({"cluster": {"privateSubnetIds": subnets}}) == [
        ("cluster.vpcId", "missing while subnets are set; allowed: the id of the subnets' VPC")
    ]


def test_both_exporters_carry_the_exporters_name_component_and_version_labels(stack):
    from components.facts import versions
    from components.facts.identity import PROJECT

    exporters = [
        d.inputs for d in stack({}).of_type(DAEMONSET) if d.inputs["metadata"]["name"].startswith("dcgm-exporter")
    ]
    assert len(exporters) == 2
    for daemonset in exporters:
        for labels in (daemonset["metadata"]["labels"], daemonset["spec"]["template"]["metadata"]["labels"]):
            assert labels["app.kubernetes.io/name"] == "dcgm-exporter"
            assert labels["app.kubernetes.io/component"] == "dcgm-exporter"
            assert labels["app.kubernetes.io/version"] == versions.DCGM_EXPORTER_VERSION
            assert labels["app.kubernetes.io/part-of"] == PROJECT
            assert labels["app.kubernetes.io/managed-by"] == "pulumi"
            assert all(isinstance(value, str) and value for value in labels.values()), labels
