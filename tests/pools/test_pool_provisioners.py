"""The provisioner registry (components/pools/provisioners.py): one entry for each `provisioner` the settings
accept, and the program builds every pool through it, installing each provisioner's controller once.

The expected components are the README's ("GPU pools provisioned by Karpenter", "GPU pools provisioned by EKS
Auto Mode"): a node-group pool is a `GpuNodeGroup`, scaled by the Cluster Autoscaler rather than a controller of its
own; a Karpenter pool a `KarpenterNodePool`, with Karpenter installed (`Karpenter`); an EKS Auto Mode pool an
`AutoModeNodePool`, with the nodes' role and access entry (`AutoMode`) and the cluster's Auto Mode compute
configuration on.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import typing
from pathlib import Path

import pytest
import yaml
from conftest import dev_stack_config, merge, run_stack

from components.facts.identity import PROJECT
from components.pools import provisioners
from components.settings import GpuNodeGroupSettings, Settings
from components.stackcheck.runtime import ProgramRun, RegisteredResource, run_program
from components.stackcheck.stack_config import load_stack_config

ROOT = Path(__file__).resolve().parents[2]
REGISTRY = ROOT / "components" / "pools" / "provisioners.py"
FLEET = ROOT / "examples" / "fleet" / "Pulumi.fleet.yaml"
CLUSTER = "gpu-inference-dev"
"""The dev stack's cluster name (Pulumi.dev.yaml, `cluster.name`)."""

EXPECTED = {
    "nodeGroup": ("GpuNodeGroup", "GpuNodeGroupArgs", None, None),
    "karpenter": ("KarpenterNodePool", "KarpenterNodePoolArgs", "Karpenter", "KarpenterArgs"),
    "autoMode": ("AutoModeNodePool", "AutoModeNodePoolArgs", "AutoMode", "AutoModeArgs"),
}
"""provisioner -> (pool component, its args, controller component, its args)."""
CONTROLLER_NAMES = {"Karpenter": f"{CLUSTER}-karpenter", "AutoMode": f"{CLUSTER}-auto-mode"}
"""The controllers' resource names deployed stacks have: a new name would replace them."""


STACK = f"urn:pulumi:test::{PROJECT}::pulumi:pulumi:Stack::{PROJECT}-test"


def component_type(class_name: str) -> str:
    return f"{PROJECT}:index:{class_name}"


def gpu_pool(run: ProgramRun) -> RegisteredResource:
    """The one-pool form's GPU pool: the program's resource `<cluster>-gpu` (a node group's own child has the name
    too)."""
    (pool,) = [item for item in run.resources if item.name == f"{CLUSTER}-gpu" and item.parent == STACK]
    return pool


def accepted(model: type) -> set[str]:
    """The values the `provisioner` field of the settings model `model` accepts, read from its annotation."""
    return set(typing.get_args(model.model_fields["provisioner"].annotation))


def registry_keys() -> list[str]:
    """The keys of the `PROVISIONERS` literal as written, repeats included (a dict keeps only the last)."""
    for node in ast.walk(ast.parse(REGISTRY.read_text())):
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", None) == "PROVISIONERS":
            assert isinstance(node.value, ast.Dict)
            return [ast.literal_eval(key) for key in node.value.keys if key is not None]
    raise AssertionError("no PROVISIONERS literal")


def test_every_provisioner_the_settings_accept_has_exactly_one_registry_entry():
    one_pool = accepted(GpuNodeGroupSettings)
    (fleet_pool,) = typing.get_args(Settings.model_fields["gpu_pools"].annotation)[1:]
    keys = registry_keys()

    assert one_pool == {"nodeGroup", "karpenter", "autoMode"}
    assert accepted(fleet_pool) == one_pool
    assert sorted(keys) == sorted(one_pool)
    assert list(provisioners.PROVISIONERS) == keys


@pytest.mark.parametrize("provisioner", sorted(EXPECTED))
def test_each_entry_names_the_pool_component_its_args_and_its_controller(provisioner):
    pool, pool_args, controller, controller_args = EXPECTED[provisioner]
    entry = provisioners.PROVISIONERS[provisioner]

    assert (entry.pool_class().__name__, entry.args_class().__name__) == (pool, pool_args)
    if controller is None:
        assert entry.controller is None
    else:
        assert entry.controller is not None
        assert entry.controller.component_class().__name__ == controller
        assert entry.controller.args_class().__name__ == controller_args


def test_reading_the_registry_loads_no_pulumi_sdk_and_no_pool_component():
    probe = (
        "import sys, components.pools.provisioners as p; p.in_use(['karpenter']); "
        "print(sorted(m for m in sys.modules if m.split('.')[0].startswith('pulumi') or m.startswith("
        "('components.pools.karpenter.', 'components.pools.auto_mode.', 'components.pools.gpu_node_group'))))"
    )
    completed = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)

    assert completed.stdout.strip() == "[]"


def test_the_cluster_options_turn_on_auto_modes_compute_configuration_only_with_an_auto_mode_pool():
    assert provisioners.cluster_options(["nodeGroup", "karpenter"]) == {"auto_mode": False}
    assert provisioners.cluster_options(["nodeGroup", "autoMode"]) == {"auto_mode": True}


@pytest.fixture(scope="module", params=sorted(EXPECTED))
def provisioner_run(request) -> tuple[str, ProgramRun]:
    """The dev stack with its GPU pool launched by each provisioner."""
    provisioner = request.param
    return provisioner, run_stack(merge(dev_stack_config(), {"gpuNodeGroup": {"provisioner": provisioner}}))


def test_the_program_builds_the_pool_with_its_provisioners_component(provisioner_run):
    provisioner, run = provisioner_run
    assert gpu_pool(run).type == component_type(EXPECTED[provisioner][0])


def test_the_program_installs_exactly_the_controller_of_the_pools_provisioner(provisioner_run):
    provisioner, run = provisioner_run
    controller = EXPECTED[provisioner][2]
    installed = {
        resource.type: resource.name
        for resource in run.resources
        if resource.type in {component_type(name) for name in CONTROLLER_NAMES}
    }

    assert installed == ({} if controller is None else {component_type(controller): CONTROLLER_NAMES[controller]})


def test_a_karpenter_pool_waits_for_the_controllers_release_and_the_others_for_no_controller(provisioner_run):
    provisioner, run = provisioner_run
    pool = gpu_pool(run)
    release = f"{CLUSTER}-karpenter-release"

    if provisioner == "karpenter":
        assert list(pool.dependencies) == [run.named(release).urn]
    else:
        assert pool.dependencies == ()


def test_only_an_auto_mode_pool_turns_on_the_clusters_auto_mode(provisioner_run):
    provisioner, run = provisioner_run
    (cluster,) = run.of_type("eks:index:Cluster")

    assert bool(cluster.inputs.get("autoMode", {}).get("enabled")) == (provisioner == "autoMode")


def test_pools_of_one_provisioner_share_one_controller(tmp_path):
    document = yaml.safe_load(FLEET.read_text())
    pools = document["config"][f"{PROJECT}:gpuPools"]
    for pool in pools.values():
        pool["provisioner"] = "karpenter"
    stack_file = tmp_path / "Pulumi.fleet.yaml"
    stack_file.write_text(yaml.safe_dump(document))
    config = load_stack_config(ROOT, stack_file=stack_file)

    run = run_program(
        config.program, config.values, project=config.project, stack=config.stack, secret_keys=config.secret_keys
    )

    assert len(pools) > 1
    assert len(run.of_type(component_type("Karpenter"))) == 1
    assert len(run.of_type(component_type("KarpenterNodePool"))) == len(pools)
    assert not run.of_type(component_type("GpuNodeGroup"))
