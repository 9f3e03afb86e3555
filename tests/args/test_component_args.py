"""The components' public args: what Pulumi's schema analyzer reads from them, how bad args fail (naming the
argument, before anything is registered), and the outputs each component registers."""

from __future__ import annotations

import inspect
import json

import pytest
from pulumi.provider.experimental.component import ComponentProvider
from pulumi.provider.experimental.util import camel_case

from components.cluster.cluster import EksCluster
from components.facts import versions
from components.pools.gpu_node_group import GpuNodeGroup
from components.settings import PROJECT, ConfigError, parse_settings
from components.stackcheck.runtime import ProgramRun
from tests.support.component_args import COMPONENTS, run_components, schema_of

SERVICE = "kubernetes:core/v1:Service"


@pytest.mark.parametrize("component", COMPONENTS, ids=lambda c: c.__name__)
def test_the_analyzer_describes_every_input_and_output_with_its_default(component):
    schema = schema_of(component)
    resource = schema["resources"][f"{PROJECT}:index:{component.__name__}"]
    assert resource["isComponent"] is True
    inputs = resource["inputProperties"]
    assert inputs, "no inputs inferred"
    for name, spec in inputs.items():
        text = spec.get("description", "")
        assert "Default" in text or "Required" in text, f"{name} does not state its default: {text!r}"
        # A field that must be known at construction says so, where the schema marks it plain.
        assert text.startswith("Plain.") == bool(spec.get("plain")), f"{name}: {text!r}"
    for name, spec in resource["properties"].items():
        assert spec.get("description"), f"output {name} has no description"
        assert "type" in spec or "$ref" in spec, f"output {name} has no type"
    # Nested args are named types of the package, described field by field too.
    for type_name, spec in schema.get("types", {}).items():
        for name, field in spec["properties"].items():
            text = field.get("description", "")
            assert "Default" in text or "Required" in text, f"{type_name}.{name}"
            assert text.startswith("Plain.") == bool(field.get("plain")), f"{type_name}.{name}: {text!r}"


def test_the_analyzer_takes_every_component_together_into_one_package():
    schema = json.loads(ComponentProvider(list(COMPONENTS), PROJECT).schema)
    assert sorted(schema["resources"]) == sorted(f"{PROJECT}:index:{c.__name__}" for c in COMPONENTS)
    assert {"PlacementArgs", "TaintArgs", "ModelCacheArgs", "ScrapeTarget"} <= {
        name.rsplit(":", 1)[-1] for name in schema["types"]
    }


def test_a_cluster_version_without_an_autoscaler_release_is_named_as_the_autoscaler_argument(tmp_path, monkeypatch):
    # Every supported version has a release pinned today; the rule is for the day one is added without.
    monkeypatch.delitem(versions.CLUSTER_AUTOSCALER_VERSIONS, "1.36")
    with pytest.raises(ConfigError) as raised:
        run_components(
            tmp_path,
            """
            from components.autoscaling.cluster_autoscaler import ClusterAutoscaler, ClusterAutoscalerArgs

            ClusterAutoscaler("scaler", ClusterAutoscalerArgs(cluster_name="ml", cluster_version="1.36"))
            """,
        )
    problems = [str(problem) for problem in raised.value.problems]
    assert problems == [
        "ClusterAutoscaler(scaler).args.cluster_version: '1.36' has no Cluster Autoscaler release pinned "
        "(facts/versions.py); allowed: 1.32, 1.33, 1.34, 1.35, or no ClusterAutoscaler"
    ]


def test_fields_that_shape_resources_are_plain_in_the_schema_and_outputs_may_be_computed():
    inputs = schema_of(GpuNodeGroup)["resources"][f"{PROJECT}:index:GpuNodeGroup"]["inputProperties"]
    # Known at construction: validated then, and they decide the node group's shape.
    assert all(inputs[name].get("plain") for name in ("instanceTypes", "minSize", "maxSize", "placement"))
    # Made elsewhere in the same program: may be Outputs.
    assert not any(inputs[name].get("plain") for name in ("clusterName", "nodeRoleArn", "subnetIds"))
    assert "clusterName" in schema_of(GpuNodeGroup)["resources"][f"{PROJECT}:index:GpuNodeGroup"]["requiredInputs"]


def test_the_cluster_exposes_the_eks_cluster_its_provider_the_node_role_and_security_groups():
    outputs = schema_of(EksCluster)["resources"][f"{PROJECT}:index:EksCluster"]["properties"]
    assert outputs["eksCluster"]["$ref"].endswith("#/resources/eks:index:Cluster")
    assert outputs["provider"]["$ref"].endswith("#/resources/pulumi:providers:kubernetes")
    assert outputs["nodeRole"]["$ref"].endswith("#/resources/aws:iam%2Frole:Role")
    assert outputs["clusterSecurityGroupId"]["type"] == "string"
    assert outputs["controlPlaneSecurityGroupId"]["type"] == "string"


BAD_ARGS = {
    "GpuNodeGroup": (
        """
        from components.args.validate import PlacementArgs, TaintArgs
        from components.pools.gpu_node_group import GpuNodeGroup, GpuNodeGroupArgs

        GpuNodeGroup("gpu-a", GpuNodeGroupArgs(
            cluster_name="ml", node_role_arn="arn:aws:iam::123456789012:role/n", subnet_ids=["subnet-0123456789abcdef0"],
            instance_types=["g5"], disk_size=20,
            placement=PlacementArgs(taint_effect="NO_SCHEDULE", extra_taints=[TaintArgs(key="a b")]),
        ))
        """,
        [
            "GpuNodeGroup(gpu-a).args.instance_types[0]: malformed instance type 'g5'",
            "GpuNodeGroup(gpu-a).args.disk_size: disk too small",
            "GpuNodeGroup(gpu-a).args.placement.taint_effect: EKS API spelling",
            "GpuNodeGroup(gpu-a).args.placement.extra_taints[0].key: invalid key 'a b'",
        ],
    ),
    "VllmServer": (
        """
        from components.vllm.args import ModelCacheArgs
        from components.vllm.server import VllmServer, VllmServerArgs

        VllmServer("chat", VllmServerArgs(
            image="vllm/vllm-openai:latest", gpu_memory_utilization=1.5, namespace="kube-system",
            model_cache=ModelCacheArgs(type="pvc"), replicas=2,
        ))
        """,
        [
            "VllmServer(chat).args.image",
            "VllmServer(chat).args.gpu_memory_utilization",
            "VllmServer(chat).args.namespace",
        ],
    ),
    "NvidiaDevicePlugin": (
        """
        from components.gpu_agents.device_plugin import NvidiaDevicePlugin, NvidiaDevicePluginArgs

        NvidiaDevicePlugin("plugin", NvidiaDevicePluginArgs(version="latest", name="Plugin_1"))
        """,
        ["NvidiaDevicePlugin(plugin).args.version", "NvidiaDevicePlugin(plugin).args.name"],
    ),
    "DcgmExporter": (
        """
        from components.gpu_agents.dcgm_exporter import DcgmExporter, DcgmExporterArgs

        DcgmExporter("gpu-metrics", DcgmExporterArgs(monitoring_namespace="Monitoring", namespace="kube_system"))
        """,
        ["DcgmExporter(gpu-metrics).args.monitoring_namespace", "DcgmExporter(gpu-metrics).args.namespace"],
    ),
    "Network": (
        """
        from components.cluster.network import Network, NetworkArgs

        Network("net", NetworkArgs(cidr="10.0.0.0/8", availability_zones=["us-west-2a"], nat_gateways="one"))
        """,
        ["Network(net).args.cidr", "Network(net).args.availability_zones", "Network(net).args.nat_gateways"],
    ),
    "ClusterAutoscaler": (
        """
        from components.autoscaling.cluster_autoscaler import ClusterAutoscaler, ClusterAutoscalerArgs

        ClusterAutoscaler("scaler", ClusterAutoscalerArgs(cluster_name="ml", expander="priority",
                                                          scale_down_unneeded_time="soon"))
        """,
        ["ClusterAutoscaler(scaler).args.scale_down_unneeded_time: invalid duration 'soon'"],
    ),
    "PrometheusMonitors": (
        """
        from components.observability.monitoring import PrometheusMonitors, PrometheusMonitorsArgs

        PrometheusMonitors("monitors", PrometheusMonitorsArgs(targets=[], scrape_interval="0s",
                                                              monitor_labels={"release": "-bad-"}))
        """,
        ["PrometheusMonitors(monitors).args.scrape_interval", "PrometheusMonitors(monitors).args.monitor_labels"],
    ),
    "EksCluster": (
        """
        from components.cluster.args import ClusterNetwork, SystemNodeGroupArgs
        from components.cluster.cluster import EksCluster, EksClusterArgs

        EksCluster("ml", EksClusterArgs(version="1.20", public_access_cidrs=["10.0.0.0/33"],
                                        system_node_group=SystemNodeGroupArgs(instance_types=["g5.xlarge"]),
                                        vpc_id="vpc-0123456789abcdef0",
                                        network=ClusterNetwork(vpc_id="vpc-1", private_subnet_ids=[],
                                                               public_subnet_ids=[])))
        """,
        [
            "EksCluster(ml).args.version",
            "EksCluster(ml).args.public_access_cidrs",
            "EksCluster(ml).args.system_node_group.instance_types",
            "EksCluster(ml).args.network: is set while vpc_id 'vpc-0123456789abcdef0' names a VPC",
        ],
    ),
}


@pytest.mark.parametrize("component", sorted(BAD_ARGS))
def test_bad_args_fail_naming_every_argument_before_anything_is_registered(tmp_path, component):
    source, keys = BAD_ARGS[component]
    run = ProgramRun()
    with pytest.raises(ConfigError) as raised:
        run_components(tmp_path, source, run)
    message = str(raised.value)
    for key in keys:
        assert key in message, f"{key} missing from:\n{message}"
    assert len(raised.value.problems) >= len(keys)
    assert run.resources == [], [resource.name for resource in run.resources]


def test_args_given_as_a_mapping_as_a_package_host_passes_them_are_checked_the_same_way(tmp_path):
    run = ProgramRun()
    with pytest.raises(ConfigError) as raised:
        run_components(
            tmp_path,
            """
            from components.gpu_agents.device_plugin import NvidiaDevicePlugin

            NvidiaDevicePlugin("plugin", {"placement": {"label_key": "kubernetes.io/gpu"}, "versoin": "v1"})
            """,
            run,
        )
    assert "NvidiaDevicePlugin(plugin).args.versoin: unknown argument" in str(raised.value)
    assert run.resources == []


def test_every_documented_output_is_registered_with_its_type(stack):
    """What the dev stack's components (with the Prometheus operator) register as outputs: every output the
    schema lists, of its type."""
    run = stack({"observability": {"prometheusOperator": True}})
    types = {"string": str, "integer": (int, float), "array": list, "object": dict}
    by_component = {}
    for urn, outputs in run.component_outputs.items():
        by_component[urn.split("::")[-2].rsplit(":", 1)[-1]] = outputs
    for component in COMPONENTS:
        declared = schema_of(component)["resources"][f"{PROJECT}:index:{component.__name__}"]["properties"]
        registered = by_component[component.__name__]
        names = {name: python for name, python in _python_names(component).items()}
        assert set(registered) == set(names.values()), component.__name__
        for schema_name, spec in declared.items():
            value = registered[names[schema_name]]
            assert value is not None, f"{component.__name__}.{schema_name}"
            if "type" in spec:
                assert isinstance(value, types[spec["type"]]), f"{component.__name__}.{schema_name}: {value!r}"
            else:  # a resource: registered as its URN or id (the mocks take no resource references)
                assert isinstance(value, str) and value, f"{component.__name__}.{schema_name}"


def _python_names(component) -> dict[str, str]:
    """Schema name -> attribute name of a component's outputs, as the analyzer maps them."""
    return {camel_case(name): name for name in inspect.get_annotations(component) if not name.startswith("_")}


def names_by_kind(run: ProgramRun) -> dict[str, list[tuple[str, str]]]:
    """(namespace, name) of every Kubernetes object the run registered, by kind."""
    found: dict[str, list[tuple[str, str]]] = {}
    for resource in run.resources:
        if resource.type.startswith("kubernetes:"):
            metadata = resource.inputs.get("metadata") or {}
            kind = resource.type.rsplit(":", 1)[-1]
            found.setdefault(kind, []).append((metadata.get("namespace", ""), metadata.get("name")))
    return found


def test_two_device_plugins_and_two_exporters_in_one_namespace_get_their_own_objects(tmp_path):
    run = run_components(
        tmp_path,
        """
        from components.args.validate import PlacementArgs
        from components.gpu_agents.dcgm_exporter import DcgmExporter, DcgmExporterArgs
        from components.gpu_agents.device_plugin import NvidiaDevicePlugin, NvidiaDevicePluginArgs

        for pool in ("l4", "l40s"):
            placement = PlacementArgs(label_key="pool", label_value=pool)
            NvidiaDevicePlugin(f"plugin-{pool}", NvidiaDevicePluginArgs(placement=placement))
            DcgmExporter(f"exporter-{pool}", DcgmExporterArgs(placement=placement))
        """,
    )
    objects = names_by_kind(run)
    assert sorted(objects["DaemonSet"]) == [
        ("kube-system", "exporter-l4"),
        ("kube-system", "exporter-l40s"),
        ("kube-system", "plugin-l4"),
        ("kube-system", "plugin-l40s"),
    ]
    for kind in ("ServiceAccount", "NetworkPolicy"):
        assert len(set(objects[kind])) == len(objects[kind]) == 4, kind
    # Each DaemonSet runs as its own ServiceAccount and selects only its own pods.
    selectors = set()
    for daemonset in run.of_type("kubernetes:apps/v1:DaemonSet"):
        spec = daemonset.inputs["spec"]
        assert spec["template"]["spec"]["serviceAccountName"] == daemonset.inputs["metadata"]["name"]
        selectors.add(tuple(sorted(spec["selector"]["matchLabels"].items())))
    assert len(selectors) == 4


def message_at(error: ConfigError, key: str) -> str:
    """The message of the one problem whose written key ends with `key`."""
    (message,) = [p.message for p in error.problems if str(p).split(": ", 1)[0].endswith(key)]
    return message


def test_the_stack_config_and_the_args_report_one_bad_value_with_the_same_message(tmp_path):
    with pytest.raises(ConfigError) as from_stack:
        parse_settings({"gpuNodeGroup": {"instanceTypes": ["g5.xlarge"]}, "vllm": {"tensorParallelSize": 2}})
    with pytest.raises(ConfigError) as from_args:
        run_components(
            tmp_path,
            """
            from components.vllm.server import VllmServer, VllmServerArgs

            VllmServer("chat", VllmServerArgs(instance_types=["g5.xlarge"], tensor_parallel_size=2))
            """,
        )
    assert message_at(from_args.value, ".tensor_parallel_size") == message_at(from_stack.value, ".tensorParallelSize")
    assert "VllmServer(chat).args.tensor_parallel_size: 2 is more than the 1 GPU(s) per g5.xlarge" in str(
        from_args.value
    )


@pytest.mark.parametrize(
    ("section", "field", "value", "component", "args"),
    [
        ("gpuNodeGroup", "diskSize", 20, "GpuNodeGroup", "disk_size=20"),
        ("vllm", "image", "vllm/vllm-openai:latest", "VllmServer", "image='vllm/vllm-openai:latest'"),
        ("devicePlugin", "version", "latest", "NvidiaDevicePlugin", "version='latest'"),
    ],
    ids=["gpu-disk-size", "vllm-image", "device-plugin-version"],
)
def test_a_field_rule_says_the_same_in_the_stack_config_and_in_the_args(
    tmp_path, section, field, value, component, args
):
    with pytest.raises(ConfigError) as from_stack:
        parse_settings({section: {field: value}})
    required = 'cluster_name="ml", node_role_arn="r", subnet_ids=[], ' if component == "GpuNodeGroup" else ""
    with pytest.raises(ConfigError) as from_args:
        run_components(
            tmp_path,
            f"""
            from components import {component}, {component}Args

            {component}("x", {component}Args({required}{args}))
            """,
        )
    python_name = args.split("=", 1)[0]
    assert message_at(from_args.value, f"args.{python_name}") == message_at(from_stack.value, f"{section}.{field}")


def test_two_vllm_servers_in_one_namespace_get_distinct_object_names(tmp_path):
    run = run_components(
        tmp_path,
        """
        import pulumi
        from components.args.validate import PlacementArgs
        from components.vllm.args import ModelCacheArgs
        from components.vllm.server import VllmServer, VllmServerArgs

        placement = PlacementArgs()
        small = VllmServer("small", VllmServerArgs(namespace="llm", instance_types=["g6.xlarge"], placement=placement,
                                                   hf_token="hf_x", api_key="k", model_cache=ModelCacheArgs(type="pvc")))
        VllmServer("large", VllmServerArgs(namespace="llm", create_namespace=False, instance_types=["g6e.xlarge"],
                                           model="Qwen/Qwen2.5-14B-Instruct", placement=placement, hf_token="hf_y",
                                           api_key="l", model_cache=ModelCacheArgs(type="pvc")),
                   opts=pulumi.ResourceOptions(depends_on=[small]))
        """,
    )
    objects = names_by_kind(run)
    assert objects["Namespace"] == [("", "llm")]
    for kind in ("Deployment", "Service", "ServiceAccount", "PodDisruptionBudget", "NetworkPolicy"):
        assert sorted(objects[kind]) == [("llm", "large"), ("llm", "small")], kind
    assert sorted(objects["Secret"]) == sorted(
        ("llm", f"{server}-{suffix}") for server in ("small", "large") for suffix in ("hf-token", "api-key")
    )
    assert sorted(objects["PersistentVolumeClaim"]) == [("llm", "large-model-cache"), ("llm", "small-model-cache")]
    for deployment in run.of_type("kubernetes:apps/v1:Deployment"):
        server = deployment.inputs["metadata"]["name"]
        pod = deployment.inputs["spec"]["template"]["spec"]
        assert pod["serviceAccountName"] == server
        volumes = {volume["name"]: volume for volume in pod["volumes"]}
        assert volumes["hf-token"]["secret"]["secretName"] == f"{server}-hf-token"
        assert volumes["model-cache"]["persistentVolumeClaim"]["claimName"] == f"{server}-model-cache"
        env = {item["name"]: item for item in pod["containers"][0]["env"]}
        assert env["VLLM_API_KEY"]["valueFrom"]["secretKeyRef"]["name"] == f"{server}-api-key"
    # Each Service selects its own server's pods only.
    selectors = {svc.inputs["metadata"]["name"]: svc.inputs["spec"]["selector"] for svc in run.of_type(SERVICE)}
    assert selectors["small"] != selectors["large"]
    # One Namespace object, owned by the server that creates it.
    (namespace,) = run.of_type("kubernetes:core/v1:Namespace")
    assert namespace.parent and namespace.parent.endswith("::small")


def test_a_server_without_names_takes_its_namespace_and_object_names_from_the_component_name(tmp_path):
    run = run_components(
        tmp_path,
        """
        from components.vllm.server import VllmServer, VllmServerArgs

        VllmServer("chat", VllmServerArgs())
        """,
    )
    objects = names_by_kind(run)
    assert objects["Namespace"] == [("", "chat")]
    assert objects["Deployment"] == objects["Service"] == [("chat", "chat")]
    outputs = next(o for urn, o in run.component_outputs.items() if urn.endswith("VllmServer::chat"))
    assert outputs["service_dns_name"] == "chat.chat.svc.cluster.local"


def test_inputs_as_a_package_host_maps_them_build_the_component(tmp_path):
    """A component hosted in a Pulumi package gets its args as the provider maps the schema's camelCase inputs:
    a mapping of Python names, nested args as mappings, integers sent as numbers."""
    run = run_components(
        tmp_path,
        """
        from pulumi.provider.experimental.component import ComponentProvider

        from components.vllm.server import VllmServer

        provider = ComponentProvider([VllmServer], "eks-gpu-inference")
        inputs = {
            "namespace": "llm",
            "instanceTypes": ["g6e.12xlarge"],
            "tensorParallelSize": 4.0,
            "modelCache": {"type": "pvc", "size": "200Gi"},
            "placement": {"labelKey": "pool", "labelValue": "l40s", "extraTaints": [{"key": "dedicated"}]},
        }
        mapped = provider.map_inputs(inputs, provider._component_defs["VllmServer"])
        VllmServer("big", mapped)
        """,
    )
    (deployment,) = run.of_type("kubernetes:apps/v1:Deployment")
    pod = deployment.inputs["spec"]["template"]["spec"]
    assert deployment.inputs["metadata"] == {**deployment.inputs["metadata"], "name": "big", "namespace": "llm"}
    assert pod["nodeSelector"] == {"pool": "l40s"}
    assert {"key": "dedicated", "operator": "Exists", "effect": "NoSchedule"} in pod["tolerations"]
    assert pod["containers"][0]["resources"]["limits"]["nvidia.com/gpu"] == "4"
    (claim,) = run.of_type("kubernetes:core/v1:PersistentVolumeClaim")
    assert claim.inputs["spec"]["resources"]["requests"]["storage"] == "200Gi"


def test_monitors_of_two_servers_in_one_namespace_select_each_server_by_its_names(tmp_path):
    run = run_components(
        tmp_path,
        """
        from components.observability.monitoring import PrometheusMonitors, PrometheusMonitorsArgs, vllm_target
        from components.vllm.server import VllmServer, VllmServerArgs

        first = VllmServer("small", VllmServerArgs(namespace="llm"))
        VllmServer("large", VllmServerArgs(namespace="llm", create_namespace=False))
        targets = [vllm_target(server, "llm", server) for server in ("small", "large")]
        PrometheusMonitors("monitors", PrometheusMonitorsArgs(targets=targets))
        """,
    )
    services = {svc.inputs["metadata"]["name"]: svc.inputs["spec"]["selector"] for svc in run.of_type(SERVICE)}
    monitors = {
        monitor.inputs["metadata"]["name"]: monitor.inputs["spec"]
        for monitor in run.of_type("kubernetes:monitoring.coreos.com/v1:ServiceMonitor")
    }
    assert set(monitors) == set(services) == {"small", "large"}
    for server, spec in monitors.items():
        assert spec["selector"]["matchLabels"] == services[server]
        assert spec["namespaceSelector"] == {"matchNames": ["llm"]}


def test_a_programs_own_workloads_take_their_placement_from_the_same_args():
    from components.args.validate import PlacementArgs, TaintArgs, contract_of

    contract = contract_of(PlacementArgs(label_key="pool", label_value="l4", extra_taints=[TaintArgs(key="team")]))
    assert contract.node_selector() == {"pool": "l4"}
    assert {"key": "team", "operator": "Exists", "effect": "NoSchedule"} in contract.tolerations()
    with pytest.raises(ConfigError) as raised:
        contract_of(PlacementArgs(label_key="kubernetes.io/gpu", extra_labels={"pool": "x"}), where="placement")
    assert [str(problem).split(":")[0] for problem in raised.value.problems] == ["placement.label_key"]
