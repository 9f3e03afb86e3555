"""One door for validated settings: a component built from the stack config takes its section as the stack
validated it (`args_from_settings` hands the section over with the args) instead of turning its args back into
the section and validating them a second time; args a program builds itself are still validated whole, each
problem named by its argument path, before anything is registered."""

from __future__ import annotations

import dataclasses
import logging
import textwrap
from collections import Counter

import pytest
from conftest import dev_stack_config, merge, run_stack

import components.args.validate as component_validation
import components.settings.stack as stack_settings
from components.args.validate import args_from_settings, settings_data
from components.cluster.args import EksClusterArgs, NetworkArgs, SystemNodeGroupArgs
from components.facts import model_catalog
from components.facts.identity import PROJECT
from components.pools.args import GpuNodeGroupArgs
from components.pools.auto_mode.args import AutoModeNodePoolArgs
from components.pools.karpenter.args import KarpenterNodePoolArgs
from components.settings import (
    ClusterSettings,
    ConfigError,
    GpuNodeGroupSettings,
    NetworkSettings,
    SystemNodeGroupSettings,
    VllmSettings,
    parse_settings,
    validate_section,
)
from components.stackcheck.runtime import ProgramRun, run_program
from components.vllm.args import VllmServerArgs

CLUSTER = "gpu-inference-dev"
"""The dev stack's cluster name (Pulumi.dev.yaml); the components are named after it by the program."""
MADE_FROM_THE_STACK = {
    "NetworkSettings": f"Network({CLUSTER}-network).args",
    "ClusterSettings": f"EksCluster({CLUSTER}).args",
    "SystemNodeGroupSettings": f"EksCluster({CLUSTER}).args.system_node_group",
    "GpuNodeGroupSettings": f"GpuNodeGroup({CLUSTER}-gpu).args",
    "VllmSettings": f"VllmServer({CLUSTER}-vllm).args",
    "AutoscalerSettings": f"ClusterAutoscaler({CLUSTER}-autoscaler).args",
    "DevicePluginSettings": f"NvidiaDevicePlugin({CLUSTER}-device-plugin).args",
    "ObservabilitySettings": f"DcgmExporter({CLUSTER}-dcgm-exporter).args",
}
"""Each section the program makes a component's args from, and where that component would name its problems."""


def test_a_stack_built_component_does_not_validate_its_section_a_second_time(monkeypatch):
    by_stack: Counter[str] = Counter()
    by_components: Counter[tuple[str, str]] = Counter()
    stack_validate, component_validate = stack_settings.validate, component_validation.validate_section

    def count_stack(model, data, key, where):
        by_stack[model.__name__] += 1
        return stack_validate(model, data, key, where)

    def count_component(model, data, *, where, python_names=False):
        by_components[(model.__name__, where)] += 1
        return component_validate(model, data, where=where, python_names=python_names)

    monkeypatch.setattr(stack_settings, "validate", count_stack)
    monkeypatch.setattr(component_validation, "validate_section", count_component)

    run = run_stack(dev_stack_config())

    assert run.named(f"{CLUSTER}-vllm-deployment")
    assert by_stack["VllmSettings"] == 1
    assert by_stack["GpuNodeGroupSettings"] == 1
    validated_again = {(model, where) for model, where in by_components if MADE_FROM_THE_STACK.get(model) == where}
    assert validated_again == set()
    # The count sees the components' validations: the placement each takes is still checked there.
    assert by_components[("GpuPlacementSettings", f"GpuNodeGroup({CLUSTER}-gpu).args.placement")] == 1


def run_components(tmp_path, source: str, run: ProgramRun | None = None) -> ProgramRun:
    program = tmp_path / "__main__.py"
    program.write_text(textwrap.dedent(source))
    return run_program(program, {}, project=PROJECT, stack="test", run=run)


def test_hand_built_args_with_a_bad_value_still_fail_naming_the_argument(tmp_path):
    run = ProgramRun()
    with pytest.raises(ConfigError) as raised:
        run_components(
            tmp_path,
            """
            from components.vllm.server import VllmServer, VllmServerArgs

            VllmServer("chat", VllmServerArgs(instance_types=["g5.xlarge"], tensor_parallel_size=0))
            """,
            run,
        )

    # The rule of the settings field (components/settings/vllm.py, `tensor_parallel_size`).
    assert (
        "VllmServer(chat).args.tensor_parallel_size: invalid value 0; allowed: an integer >= 1, at most the GPUs "
        "per instance"
    ) in str(raised.value)
    assert run.resources == []


def test_args_made_from_a_section_with_a_value_of_their_own_are_validated_whole(tmp_path):
    run = ProgramRun()
    with pytest.raises(ConfigError) as raised:
        run_components(
            tmp_path,
            """
            from components.args.validate import args_from_settings
            from components.settings import VllmSettings
            from components.vllm.server import VllmServer, VllmServerArgs

            args = args_from_settings(VllmServerArgs, VllmSettings(), instance_types=["g5.xlarge"], tensor_parallel_size=0)
            VllmServer("chat", args)
            """,
            run,
        )

    assert "VllmServer(chat).args.tensor_parallel_size: invalid value 0" in str(raised.value)
    assert run.resources == []


def test_a_component_taking_its_section_as_validated_still_warns_by_the_config_key(tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    run_components(
        tmp_path,
        """
        from components.args.validate import args_from_settings
        from components.settings import VllmSettings
        from components.vllm.server import VllmServer, VllmServerArgs

        VllmServer("chat", args_from_settings(VllmServerArgs, VllmSettings(revision="main"), instance_types=["g5.xlarge"]))
        """,
    )

    assert f"{PROJECT}:vllm.revision: revision 'main' looks like a branch" in caplog.text


def fleet_settings(provisioner: str):
    return parse_settings(
        {
            "gpuPools": {"a10g": {"instanceTypes": ["g5.xlarge"], "provisioner": provisioner, "maxSize": 3}},
            "models": [{"name": "chat", "model": "Qwen/Qwen2.5-7B-Instruct", "pool": "a10g", "tensorParallelSize": 1}],
        }
    )


REQUIRED = {
    GpuNodeGroupArgs: {"cluster_name": "ml", "node_role_arn": "arn:aws:iam::123456789012:role/n", "subnet_ids": []},
    KarpenterNodePoolArgs: {"cluster_name": "ml", "node_role_name": "nodes"},
    AutoModeNodePoolArgs: {"node_role_name": "nodes", "subnet_ids": [], "security_group_id": "sg-0123456789abcdef0"},
}
"""Values the args classes require that no settings section has."""
DEV = parse_settings(dev_stack_config())
CASES = {
    "network": (NetworkArgs, NetworkSettings, DEV.network),
    "cluster": (EksClusterArgs, ClusterSettings, DEV.cluster),
    "system-node-group": (SystemNodeGroupArgs, SystemNodeGroupSettings, DEV.system_node_group),
    "node-group-pool": (GpuNodeGroupArgs, GpuNodeGroupSettings, DEV.gpu_node_group),
    "vllm": (VllmServerArgs, VllmSettings, DEV.vllm),
    "karpenter-pool": (KarpenterNodePoolArgs, GpuNodeGroupSettings, fleet_settings("karpenter").pools[0].settings),
    "auto-mode-pool": (AutoModeNodePoolArgs, GpuNodeGroupSettings, fleet_settings("autoMode").pools[0].settings),
    "fleet-model": (VllmServerArgs, VllmSettings, fleet_settings("nodeGroup").servers[0].settings),
}
"""Args classes made from stack sections, the model their component validates them as, and the section."""


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_section_taken_as_validated_is_the_one_its_args_would_validate_to(case):
    args_class, model, section = CASES[case]
    args = args_from_settings(args_class, section, **REQUIRED.get(args_class, {}))
    validated = validate_section(model, settings_data(args, model), where="args", python_names=True)
    fields = {field.name for field in dataclasses.fields(args_class)} & set(model.model_fields)

    assert component_validation.settings_section(args) is section
    assert fields
    assert {name: getattr(section, name) for name in fields} == {name: getattr(validated, name) for name in fields}


def test_a_stacks_model_facts_size_the_weights_copy_as_the_catalogs_row_would():
    """The copy Job's deadline comes from the model's size (components/vllm/weights_copy.py): `modelFacts` for a
    model the catalog lacks, given here as the catalog's own row for Qwen2.5-7B-Instruct, sizes it alike."""
    row = model_catalog.lookup("Qwen/Qwen2.5-7B-Instruct")
    assert row is not None
    facts = {
        "parameters": row.parameters,
        "layers": row.layers,
        "attentionHeads": row.attention_heads,
        "kvHeads": row.kv_heads,
        "headDim": row.head_dim,
        "maxContext": row.max_context,
        "dtype": row.dtype,
    }
    seeded = {"vllm": {"source": {"type": "s3", "seed": True}}, "systemNodeGroup": {"diskSize": 100}}
    catalogued = run_stack(merge(dev_stack_config(), seeded))
    uncatalogued = run_stack(
        merge(dev_stack_config(), merge(seeded, {"vllm": {"model": "acme/qwen-7b-copy", "modelFacts": facts}}))
    )

    def deadline(run: ProgramRun) -> float:
        (job,) = run.of_type("kubernetes:batch/v1:Job")
        return job.inputs["spec"]["activeDeadlineSeconds"]

    # Four hours is the deadline of a model of unknown size (weights_copy.UNKNOWN_SIZE_DEADLINE_SECONDS).
    assert deadline(catalogued) != 4 * 3600
    # Qwen2.5-7B's 15.22 GB: the copy's estimate is 384.5 s (tests/vllm/test_weights_copy.py), twice that under the
    # 30-minute floor.
    assert deadline(uncatalogued) == deadline(catalogued) == 1800
