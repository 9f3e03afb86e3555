"""Each component's resources under its own options, its lookups with their whole arguments, and its args errors
whole: the network, the Cluster Autoscaler, the DCGM exporter (both engines) and the Prometheus monitors, called
with explicit AWS and Kubernetes providers as a program that imports the package calls them."""

from __future__ import annotations

import textwrap

import pytest

from components.facts.identity import PROJECT
from components.facts.zones import EKS_UNSUPPORTED_ZONE_IDS
from components.stackcheck.runtime import ProgramRun, run_program

PROGRAM = """
import pulumi
import pulumi_aws as aws
import pulumi_kubernetes as k8s
from components.autoscaling.cluster_autoscaler import ClusterAutoscaler, ClusterAutoscalerArgs
from components.gpu_agents.dcgm_exporter import DcgmExporter, DcgmExporterArgs
from components.observability.monitoring import PrometheusMonitors, PrometheusMonitorsArgs, vllm_target
from components.cluster.network import Network, NetworkArgs

east = aws.Provider("east", region="us-east-1")
cluster = k8s.Provider("cluster", kubeconfig="{}")
both = pulumi.ResourceOptions(providers=[east, cluster])
Network("net", NetworkArgs(gpu_instance_types=["g5.xlarge"], interface_endpoints=True), opts=both)
ClusterAutoscaler("scaler", ClusterAutoscalerArgs(cluster_name="ml"), opts=both)
DcgmExporter("exp", DcgmExporterArgs(), opts=both)
DcgmExporter("split", DcgmExporterArgs(dcgm_host_engine=True, name="dcgm-split"), opts=both)
PrometheusMonitors("mon", PrometheusMonitorsArgs(targets=[vllm_target("chat", "default")]), opts=both)
"""

COMPONENT_TYPES = {
    "net": f"{PROJECT}:index:Network",
    "scaler": f"{PROJECT}:index:ClusterAutoscaler",
    "exp": f"{PROJECT}:index:DcgmExporter",
    "split": f"{PROJECT}:index:DcgmExporter",
    "mon": f"{PROJECT}:index:PrometheusMonitors",
}

# What each component registers, by (type suffix, name): the whole set, so that a resource registered
# outside the component (without `parent=self`) or not at all is seen.
CHILDREN = {
    "net": {
        *(("Vpc", "net-vpc"), ("InternetGateway", "net-igw"), ("RouteTable", "net-public")),
        ("Route", "net-public-internet"),
        ("Eip", "net-nat-0"),
        ("NatGateway", "net-nat-0"),
        *(("Subnet", f"net-{role}-{i}") for role in ("public", "private") for i in range(3)),
        *(("RouteTableAssociation", f"net-{role}-{i}") for role in ("public", "private") for i in range(3)),
        *(("RouteTable", f"net-private-{i}") for i in range(3)),
        *(("Route", f"net-private-{i}-nat") for i in range(3)),
        ("SecurityGroup", "net-endpoints"),
        *(("VpcEndpoint", f"net-{e}") for e in ("s3", "ecr-api", "ecr-dkr", "sts", "eks-auth")),
    },
    "scaler": {
        ("Role", "scaler-role"),
        ("RolePolicy", "scaler-scaling"),
        ("PodIdentityAssociation", "scaler-pod-identity"),
        ("ServiceAccount", "scaler-sa"),
        ("ClusterRole", "scaler-clusterrole"),
        ("ClusterRoleBinding", "scaler-clusterrolebinding"),
        ("Role", "scaler-role"),
        ("RoleBinding", "scaler-rolebinding"),
        ("Deployment", "scaler-deployment"),
        ("PodDisruptionBudget", "scaler-pdb"),
        ("NetworkPolicy", "scaler-netpol"),
    },
    "exp": {
        ("ServiceAccount", "exp-sa"),
        ("DaemonSet", "exp-ds"),
        ("NetworkPolicy", "exp-netpol"),
        ("Service", "exp-svc"),
    },
    "split": {
        ("ServiceAccount", "split-sa"),
        ("DaemonSet", "split-ds"),
        ("NetworkPolicy", "split-netpol"),
        ("DaemonSet", "split-embedded-ds"),
        ("NetworkPolicy", "split-embedded-netpol"),
        ("Service", "split-svc"),
    },
    "mon": {("ServiceMonitor", "mon-vllm-server"), ("PrometheusRule", "mon-rules")},
}


def run_source(tmp_path, source: str, config: dict | None = None, run: ProgramRun | None = None) -> ProgramRun:
    program = tmp_path / "__main__.py"
    program.write_text(textwrap.dedent(source))
    return run_program(program, config or {}, project=PROJECT, stack="test", run=run)


@pytest.fixture(scope="module")
def components_run(tmp_path_factory) -> ProgramRun:
    return run_source(tmp_path_factory.mktemp("components"), PROGRAM)


def reference(run: ProgramRun, provider_type: str) -> str:
    (provider,) = run.of_type(provider_type)
    return f"{provider.urn}::{provider.id}"


def test_each_component_registers_exactly_its_resources_as_its_children(components_run):
    urns = {name: resource.urn for resource in components_run.resources if (name := resource.name) in COMPONENT_TYPES}
    assert {r.name: r.type for r in components_run.resources if r.name in COMPONENT_TYPES} == COMPONENT_TYPES
    for component, children in CHILDREN.items():
        found = {(r.type.rsplit(":", 1)[1], r.name) for r in components_run.resources if r.parent == urns[component]}
        assert found == children, component
    stack_children = {r.name for r in components_run.resources if r.parent and r.parent.endswith(f"::{PROJECT}-test")}
    assert stack_children == {"east", "cluster", *COMPONENT_TYPES}


@pytest.mark.parametrize("component", sorted(CHILDREN))
def test_every_resource_of_a_component_goes_through_the_provider_its_options_give(components_run, component):
    aws_provider = reference(components_run, "pulumi:providers:aws")
    kubernetes_provider = reference(components_run, "pulumi:providers:kubernetes")
    (owner,) = [r for r in components_run.resources if r.name == component and r.type == COMPONENT_TYPES[component]]
    children = [r for r in components_run.resources if r.parent == owner.urn]
    assert children
    for resource in children:
        expected = aws_provider if resource.type.startswith("aws:") else kubernetes_provider
        assert resource.type.split(":", 1)[0] in {"aws", "kubernetes"}, resource.type
        assert resource.provider == expected, (resource.type, resource.name)


def test_every_lookup_is_made_with_its_whole_arguments_through_the_components_provider(components_run):
    aws_provider = reference(components_run, "pulumi:providers:aws")
    assert components_run.calls == [
        (
            "aws:index/getAvailabilityZones:getAvailabilityZones",
            {
                "state": "available",
                "excludeZoneIds": list(EKS_UNSUPPORTED_ZONE_IDS),
                "filters": [{"name": "opt-in-status", "values": ["opt-in-not-required"]}],
            },
        ),
        (
            "aws:ec2/getInstanceTypeOfferings:getInstanceTypeOfferings",
            {
                "locationType": "availability-zone-id",
                "filters": [{"name": "instance-type", "values": ["g5.xlarge"]}],
            },
        ),
        ("aws:index/getRegion:getRegion", {}),
        ("aws:index/getRegion:getRegion", {}),
    ]
    assert components_run.call_providers == [aws_provider] * 4


BAD_ARGS = {
    "network-not-args": (
        'Network("net", 5)',
        ["Network(net).args: an int 5; allowed: NetworkArgs or a mapping of its fields"],
    ),
    "network-values-of-another-type": (
        'Network("net", {"cidr": 5, "azCount": "two"})',
        [
            "Network(net).args.cidr: Input should be a valid string; got 5",
            "Network(net).args.az_count: Input should be a valid integer; got 'two'",
        ],
    ),
    "network-zones-of-another-region": (
        'Network("net", NetworkArgs(availability_zones=["us-east-1a", "us-west-2b"]))',
        [
            "Network(net).args.availability_zones: 'us-east-1a' is not a zone of us-west-2 that EKS supports "
            "(zone table of 2026-12-01); allowed: us-west-2b (usw2-az1), us-west-2a (usw2-az2), "
            "us-west-2c (usw2-az3), us-west-2d (usw2-az4)"
        ],
    ),
    "network-aws-tag": (
        'Network("net", NetworkArgs(tags={"aws:x": "1"}))',
        ["Network(net).args.tags['aws:x']: tag key 'aws:x'; keys starting with 'aws:' (any case) are AWS's"],
    ),
    "autoscaler-not-args": (
        'ClusterAutoscaler("ca", 5)',
        ["ClusterAutoscaler(ca).args: an int 5; allowed: ClusterAutoscalerArgs or a mapping of its fields"],
    ),
    "autoscaler-priorities-of-another-type": (
        'ClusterAutoscaler("ca", {"clusterName": "ml", "expanderPriorities": 3})',
        ["ClusterAutoscaler(ca).args.expander_priorities: Input should be a valid dictionary; got 3"],
    ),
    "exporter-not-args": (
        'DcgmExporter("exp", 5)',
        ["DcgmExporter(exp).args: an int 5; allowed: DcgmExporterArgs or a mapping of its fields"],
    ),
    "exporter-placement-not-args": (
        'DcgmExporter("exp", DcgmExporterArgs(placement=5))',
        ["DcgmExporter(exp).args.placement: an int 5; allowed: PlacementArgs or a mapping of its fields"],
    ),
    "exporter-placement-label-key": (
        'DcgmExporter("exp", DcgmExporterArgs(placement={"labelKey": "bad key"}))',
        [
            "DcgmExporter(exp).args.placement.label_key: invalid key 'bad key'; allowed: 1-63 characters, an "
            "optional DNS-subdomain prefix and '/', then a name of letters, digits, '-', '_' or '.', starting and "
            "ending with a letter or digit"
        ],
    ),
    "monitors-not-args": (
        'PrometheusMonitors("mon", 5)',
        ["PrometheusMonitors(mon).args: an int 5; allowed: PrometheusMonitorsArgs or a mapping of its fields"],
    ),
    "monitors-target-not-args": (
        'PrometheusMonitors("mon", PrometheusMonitorsArgs(targets=[5]))',
        ["PrometheusMonitors(mon).args.targets[0]: an int 5; allowed: ScrapeTarget or a mapping of its fields"],
    ),
}

BAD_ARGS_PROGRAM = """
import pulumi
from components.autoscaling.cluster_autoscaler import ClusterAutoscaler, ClusterAutoscalerArgs
from components.gpu_agents.dcgm_exporter import DcgmExporter, DcgmExporterArgs
from components.observability.monitoring import PrometheusMonitors, PrometheusMonitorsArgs
from components.cluster.network import Network, NetworkArgs
from components.settings import ConfigError

for case, source in CASES.items():
    try:
        eval(source)
    except ConfigError as error:
        pulumi.export(case, [str(error), [str(problem) for problem in error.problems]])
"""


@pytest.fixture(scope="module")
def bad_args_run(tmp_path_factory) -> ProgramRun:
    cases = {case: source for case, (source, _) in BAD_ARGS.items()}
    source = textwrap.dedent(BAD_ARGS_PROGRAM).replace("CASES.items()", f"{cases!r}.items()")
    return run_source(tmp_path_factory.mktemp("bad-args"), source, {"aws:region": "us-west-2"})


@pytest.mark.parametrize("case", sorted(BAD_ARGS))
def test_bad_args_fail_with_the_whole_message_naming_the_argument_and_register_nothing(bad_args_run, case):
    _, problems = BAD_ARGS[case]
    component = problems[0].split("(", 1)[0]
    instance = problems[0].split("(", 1)[1].split(")", 1)[0]
    message, found = bad_args_run.outputs[case]
    assert found == problems
    assert message == "\n".join(
        [f"invalid arguments to {component}({instance}) ({len(problems)} problem(s)):", *(f"  - {p}" for p in problems)]
    )


def test_bad_args_register_nothing(bad_args_run):
    assert sorted(bad_args_run.outputs) == sorted(BAD_ARGS)
    assert bad_args_run.resources == []
