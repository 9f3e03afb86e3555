"""The components as a Python program calls them: nested args as their class or a mapping in either spelling, each
misuse named by its argument with the value and what is allowed, in Python names, as one `ArgumentError`."""

from __future__ import annotations

import textwrap

import pulumi
import pytest

from components.args.validate import ArgumentError, contract_of
from components.settings import ConfigError, parse_settings
from components.stackcheck.plan.report.build import render
from components.stackcheck.plan.run import PlanOptions, run_plan
from components.stackcheck.runtime import ProgramRun
from tests.support.component_args import run_components

NODE_GROUP = "aws:eks/nodeGroup:NodeGroup"
REQUIRED = (
    'cluster_name="ml", node_role_arn="arn:aws:iam::123456789012:role/n", subnet_ids=["subnet-0123456789abcdef0"]'
)


def node_group(placement: str) -> str:
    return f"""
    from components.args.validate import PlacementArgs, TaintArgs
    from components.pools.gpu_node_group import GpuNodeGroup, GpuNodeGroupArgs

    GpuNodeGroup("gpu-a", GpuNodeGroupArgs({REQUIRED}, placement={placement}))
    """


PLACEMENT_ALLOWED = "allowed: PlacementArgs or a mapping of its fields"
MISUSES = [
    pytest.param(
        """
        from components.pools.gpu_node_group import GpuNodeGroup

        GpuNodeGroup("gpu-a", None)
        """,
        ["GpuNodeGroup(gpu-a).args: None; allowed: GpuNodeGroupArgs or a mapping of its fields"],
        id="args None",
    ),
    pytest.param(
        """
        from components.vllm.args import ModelCacheArgs
        from components.vllm.server import VllmServer

        VllmServer("chat", ModelCacheArgs(type="pvc"))
        """,
        [
            "VllmServer(chat).args: a ModelCacheArgs ModelCacheArgs(type='pvc', size=None, storage_class=None); "
            "allowed: VllmServerArgs or a mapping of its fields"
        ],
        id="args of another class",
    ),
    pytest.param(
        node_group("'GPU'"),
        [f"GpuNodeGroup(gpu-a).args.placement: a str 'GPU'; {PLACEMENT_ALLOWED}"],
        id="placement a string",
    ),
    pytest.param(
        node_group("TaintArgs(key='GPU')"),
        [
            f"GpuNodeGroup(gpu-a).args.placement: a TaintArgs TaintArgs(key='GPU', value=None, effect=None); {PLACEMENT_ALLOWED}"
        ],
        id="placement of another args class",
    ),
    pytest.param(
        node_group("{'taint_efect': 'NoSchedule'}"),
        [
            "GpuNodeGroup(gpu-a).args.placement.taint_efect: unknown argument 'taint_efect'; did you mean "
            "'taint_effect'?; allowed: label_key, label_value, taint_key, taint_value, taint_effect, "
            "require_node_affinity, extra_labels, extra_taints (or their camelCase spelling)"
        ],
        id="mapping with a misspelt key",
    ),
    pytest.param(
        node_group("{'taint_effect': 'NoSchedule', 'taintEffect': 'NoExecute'}"),
        [
            "GpuNodeGroup(gpu-a).args.placement.taint_effect: given twice, as 'taint_effect' and 'taintEffect'; "
            "allowed: one spelling"
        ],
        id="mapping with both spellings of one key",
    ),
    pytest.param(
        node_group("{'extraTaints': {'key': 'team'}}"),
        [
            "GpuNodeGroup(gpu-a).args.placement.extra_taints: a dict {'key': 'team'}; allowed: a list of TaintArgs "
            "or of mappings of its fields"
        ],
        id="a list argument given one mapping",
    ),
    pytest.param(
        node_group("{'extra_taints': [{'key': 'team'}, 'dedicated']}"),
        [
            "GpuNodeGroup(gpu-a).args.placement.extra_taints[1]: a str 'dedicated'; allowed: TaintArgs or a mapping of its fields"
        ],
        id="a list item of the wrong type",
    ),
    pytest.param(
        """
        from components.pools.gpu_node_group import GpuNodeGroup

        GpuNodeGroup("gpu-a", {"instanceTypes": ["g6.xlarge"], "subnet_ids": [], "placement": 7})
        """,
        [
            "GpuNodeGroup(gpu-a).args.cluster_name: missing; allowed: a value (required)",
            "GpuNodeGroup(gpu-a).args.node_role_arn: missing; allowed: a value (required)",
            f"GpuNodeGroup(gpu-a).args.placement: an int 7; {PLACEMENT_ALLOWED}",
        ],
        id="a mapping missing required arguments, every problem at once",
    ),
    pytest.param(
        node_group("{'taintEffect': 'NO_SCHEDULE'}"),
        [
            "GpuNodeGroup(gpu-a).args.placement.taint_effect: EKS API spelling; write 'NoSchedule' instead of "
            "'NO_SCHEDULE'; allowed: NoSchedule, NoExecute"
        ],
        id="a bad value in a camelCase mapping, named in Python",
    ),
    pytest.param(
        f"""
        from components.pools.gpu_node_group import GpuNodeGroup, GpuNodeGroupArgs

        GpuNodeGroup("gpu-a", GpuNodeGroupArgs({REQUIRED}, instance_types=["g5"], placement="GPU"))
        """,
        [
            f"GpuNodeGroup(gpu-a).args.placement: a str 'GPU'; {PLACEMENT_ALLOWED}",
            "GpuNodeGroup(gpu-a).args.instance_types[0]: malformed instance type 'g5'; allowed: EC2 instance type "
            "names such as g5.xlarge",
        ],
        id="a misshapen argument and a bad value, together",
    ),
    pytest.param(
        """
        from components.gpu_agents.device_plugin import NvidiaDevicePlugin

        NvidiaDevicePlugin("plugin", {"versoin": "v0.17.0", "version": "latest"})
        """,
        [
            "NvidiaDevicePlugin(plugin).args.versoin: unknown argument 'versoin'; did you mean 'version'?; allowed: "
            "placement, version, auto_mode_nodes, name, namespace (or their camelCase spelling)",
            "NvidiaDevicePlugin(plugin).args.version: invalid value 'latest'; allowed: a release tag such as v0.20.0",
        ],
        id="an unknown key and a bad value of a mapping, together",
    ),
    pytest.param(
        f"""
        from components.pools.gpu_node_group import GpuNodeGroup, GpuNodeGroupArgs

        GpuNodeGroup("gpu-a", GpuNodeGroupArgs({REQUIRED}, tags=["team=ml"]))
        """,
        ["GpuNodeGroup(gpu-a).args.tags: a list ['team=ml']; allowed: a mapping of tag keys to values"],
        id="tags not a mapping",
    ),
    pytest.param(
        """
        from components.gpu_agents.device_plugin import NvidiaDevicePlugin, NvidiaDevicePluginArgs

        NvidiaDevicePlugin("plugin", NvidiaDevicePluginArgs(name=5, namespace=["kube-system"]))
        """,
        [
            "NvidiaDevicePlugin(plugin).args.name: an int 5; allowed: a string",
            "NvidiaDevicePlugin(plugin).args.namespace: a list ['kube-system']; allowed: a string",
        ],
        id="object name and namespace not strings",
    ),
    pytest.param(
        """
        from components.vllm.server import VllmServer, VllmServerArgs

        VllmServer(7, VllmServerArgs())
        """,
        ["VllmServer(7).name: an int 7; allowed: a non-empty string"],
        id="component name not a string",
    ),
    pytest.param(
        """
        from components.vllm.server import VllmServer, VllmServerArgs

        VllmServer("chat", VllmServerArgs(hf_token=12345))
        """,
        ["VllmServer(chat).args.hf_token: an int 12345; allowed: a string, or an Output of one"],
        id="secret neither a string nor an Output",
    ),
    pytest.param(
        """
        from components import ModelSourceArgs, VllmServer, VllmServerArgs

        VllmServer("chat", VllmServerArgs(source=ModelSourceArgs(type="s3", bucket="Models")))
        """,
        [
            "VllmServer(chat).args.source.bucket: invalid bucket name 'Models'; allowed: an S3 bucket name: 3-63 "
            "lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit, no '..', not "
            "an IP address",
            "VllmServer(chat).args.cluster_name: is not set, and source.type 's3' reads the weights through an EKS "
            "Pod Identity association in that cluster; allowed: the cluster's name (EksCluster.cluster_name), or "
            "source.type 'huggingface'",
        ],
        id="weights from S3 without a cluster for the Pod Identity association",
    ),
    pytest.param(
        """
        from components.cluster.cluster import EksCluster, EksClusterArgs

        EksCluster("ml", EksClusterArgs(system_node_group={"instanceTypes": ["g5.xlarge"]},
                                        gpu_placement={"taintEffect": "NO_SCHEDULE"}))
        """,
        [
            "EksCluster(ml).args.system_node_group.instance_types: GPU instance types ['g5.xlarge'] in the system "
            "node group; allowed: non-GPU types such as m6i.large (GPU nodes belong in gpu_node_group)",
            "EksCluster(ml).args.gpu_placement.taint_effect: EKS API spelling; write 'NoSchedule' instead of "
            "'NO_SCHEDULE'; allowed: NoSchedule, NoExecute",
        ],
        id="nested mappings of the cluster, named in Python",
    ),
    pytest.param(
        f"""
        from components.pools.gpu_node_group import GpuNodeGroup, GpuNodeGroupArgs

        GpuNodeGroup("gpu-a", GpuNodeGroupArgs({REQUIRED}, min_size=3, desired_size=2))
        """,
        [
            "GpuNodeGroup(gpu-a).args.min_size: 3 is greater than desired_size 2; allowed: min_size <= "
            "desired_size <= max_size"
        ],
        id="a rule across fields, named and explained in Python",
    ),
]


@pytest.mark.parametrize(("source", "problems"), MISUSES)
def test_each_misuse_is_named_with_its_argument_value_and_what_is_allowed(tmp_path, source, problems):
    run = ProgramRun()
    with pytest.raises(ArgumentError) as raised:
        run_components(tmp_path, source, run)
    assert [str(problem) for problem in raised.value.problems] == problems
    assert run.resources == [], "nothing is registered before the arguments hold"


def test_argument_errors_are_titled_by_the_component_and_end_a_pulumi_run_without_a_traceback(tmp_path):
    with pytest.raises(ArgumentError) as raised:
        run_components(tmp_path, node_group("{'taintEffect': 'NO_SCHEDULE'}"))
    error = raised.value
    assert error.title == "Invalid arguments to GpuNodeGroup(gpu-a)"
    assert str(error).startswith("invalid arguments to GpuNodeGroup(gpu-a) (1 problem(s)):\n  - GpuNodeGroup(gpu-a)")
    # Pulumi's language host prints a RunError's message alone; the plan and callers still catch ConfigError.
    assert isinstance(error, pulumi.RunError) and isinstance(error, ConfigError)


def test_the_plan_of_a_program_with_bad_arguments_titles_them_by_the_component_and_prints_each_once(tmp_path):
    (tmp_path / "Pulumi.yaml").write_text("name: ml-platform\nruntime: python\n")
    (tmp_path / "Pulumi.dev.yaml").write_text("config:\n  aws:region: us-west-2\n")
    (tmp_path / "__main__.py").write_text(textwrap.dedent(node_group("{'taintEffect': 'NO_SCHEDULE'}")))
    result = run_plan(PlanOptions(project_dir=tmp_path, stack="dev", out_dir=tmp_path / "out"))
    assert result.exit_code == 2
    text = render(result, "text")
    problem = "GpuNodeGroup(gpu-a).args.placement.taint_effect: EKS API spelling"
    assert text.count(problem) == 1, text
    assert "Invalid arguments to GpuNodeGroup(gpu-a) (1 problem(s))" in text
    assert "Invalid stack config" not in text


def test_the_stack_config_keeps_its_config_key_names():
    with pytest.raises(ConfigError) as raised:
        parse_settings({"gpuNodeGroup": {"instanceTypes": ["g5"], "minSize": 3, "desiredSize": 2}})
    keys = [str(problem).split(": ", 1)[0] for problem in raised.value.problems]
    assert keys == ["eks-gpu-inference:gpuNodeGroup.instanceTypes"]
    assert not isinstance(raised.value, ArgumentError)
    with pytest.raises(ConfigError) as raised:
        parse_settings({"gpuNodeGroup": {"minSize": 3, "desiredSize": 2}})
    assert str(raised.value.problems[0]).startswith(
        "eks-gpu-inference:gpuNodeGroup.minSize: 3 is greater than desiredSize 2; allowed: minSize <= desiredSize"
    )


@pytest.mark.parametrize(
    "placement",
    [
        "PlacementArgs(label_key='pool', label_value='l4', taint_effect='NoExecute', extra_taints=[TaintArgs(key='team')])",
        "{'label_key': 'pool', 'label_value': 'l4', 'taint_effect': 'NoExecute', 'extra_taints': [{'key': 'team'}]}",
        "{'labelKey': 'pool', 'labelValue': 'l4', 'taintEffect': 'NoExecute', 'extraTaints': [TaintArgs(key='team')]}",
        "{'labelKey': 'pool', 'label_value': 'l4', 'taintEffect': 'NoExecute', 'extra_taints': ({'key': 'team'},)}",
    ],
    ids=["args classes", "mapping in Python names", "mapping in camelCase", "mixed spellings and a tuple"],
)
def test_every_spelling_of_a_nested_argument_builds_the_same_node_group(tmp_path, placement):
    run = run_components(tmp_path, node_group(placement))
    (group,) = run.of_type(NODE_GROUP)
    assert group.inputs["labels"]["pool"] == "l4"
    assert sorted((taint["key"], taint["effect"]) for taint in group.inputs["taints"]) == [
        ("GPU", "NO_EXECUTE"),
        ("team", "NO_SCHEDULE"),
    ]


def test_a_programs_own_workloads_take_a_mapping_for_their_placement():
    contract = contract_of({"labelKey": "pool", "label_value": "l4"})
    assert contract.node_selector() == {"pool": "l4"}
    with pytest.raises(ArgumentError) as raised:
        contract_of({"label_key": "kubernetes.io/gpu"}, where="placement")
    assert [str(problem).split(":")[0] for problem in raised.value.problems] == ["placement.label_key"]
    with pytest.raises(ArgumentError) as raised:
        contract_of("GPU=true", where="placement")  # type: ignore[arg-type]
    assert [str(problem) for problem in raised.value.problems] == [f"placement: a str 'GPU=true'; {PLACEMENT_ALLOWED}"]


@pytest.mark.parametrize(
    ("key", "python"),
    [
        ("placement.taintEffect", "placement.taint_effect"),
        ("extraTaints[0].key", "extra_taints[0].key"),
        ("extraLabels.example.com/myTeam", "extra_labels.example.com/myTeam"),
        ("tags['costCenter']", "tags['costCenter']"),
        ("GpuNodeGroup(gpu-a).args.minSize", "GpuNodeGroup(gpu-a).args.min_size"),
    ],
    ids=["nested field", "list position", "label key kept", "tag key kept", "argument path"],
)
def test_python_names_replace_field_names_only_never_map_keys(key, python):
    from components.settings.errors import python_key, python_text

    assert python_key(key) == python
    # A quoted value stays as the user wrote it, even when it spells a field.
    assert python_text("'minSize' is not minSize") == "'minSize' is not min_size"
