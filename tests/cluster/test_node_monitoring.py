"""The node monitoring agent add-on: pinned, and configured so its DCGM DaemonSet runs on the GPU nodes."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from conftest import CUSTOM_CONTRACT

from components.facts import versions
from components.facts.contract import KUBERNETES_TAINT_EFFECT_OF_EKS as KUBERNETES_EFFECTS
from components.facts.resource_types import ADDON, NODE_GROUP
from components.placement import tolerates

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = (
    ROOT
    / "components"
    / "data"
    / f"eks-node-monitoring-agent-{versions.NODE_MONITORING_AGENT_CHART}.configuration.schema.json"
)


def monitoring_addons(run) -> list:
    return [addon for addon in run.of_type(ADDON) if addon.inputs["addonName"] == "eks-node-monitoring-agent"]


def addon_inputs(run) -> dict:
    (addon,) = monitoring_addons(run)
    return addon.inputs


def gpu_taints(run) -> list[dict]:
    [group] = [g for g in run.of_type(NODE_GROUP) if g.name.endswith("-gpu")]
    return [{**taint, "effect": KUBERNETES_EFFECTS[taint["effect"]]} for taint in group.inputs.get("taints") or []]


def test_addon_version_is_pinned_to_the_chart_the_schema_and_facts_come_from(dev_run):
    inputs = addon_inputs(dev_run)
    assert inputs["addonName"] == "eks-node-monitoring-agent"
    assert inputs["addonVersion"] == versions.NODE_MONITORING_AGENT_VERSION
    assert inputs["addonVersion"].startswith(versions.NODE_MONITORING_AGENT_CHART + "-eksbuild.")


@pytest.mark.parametrize("overrides", [{}, CUSTOM_CONTRACT], ids=["default-contract", "custom-contract"])
def test_registered_configuration_is_valid_for_the_pinned_addon_schema(stack, overrides):
    configuration = json.loads(addon_inputs(stack(overrides))["configurationValues"])
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft7Validator.check_schema(schema)
    jsonschema.validate(configuration, schema, cls=jsonschema.Draft7Validator)


def test_schema_rejects_what_the_addon_would_reject():
    """The committed schema is strict enough to catch a misspelt key (it is not an accept-all schema)."""
    schema = json.loads(SCHEMA.read_text())
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"dcgmAgnet": {"tolerations": []}}, schema, cls=jsonschema.Draft7Validator)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"dcgmAgent": {"tolerations": {"key": "GPU"}}}, schema, cls=jsonschema.Draft7Validator)


@pytest.mark.parametrize("overrides", [{}, CUSTOM_CONTRACT], ids=["default-contract", "custom-contract"])
def test_dcgm_server_tolerates_every_repelling_taint_of_the_gpu_nodes(stack, overrides):
    run = stack(overrides)
    tolerations = json.loads(addon_inputs(run)["configurationValues"])["dcgmAgent"]["tolerations"]
    repelling = [taint for taint in gpu_taints(run) if taint["effect"] in ("NoSchedule", "NoExecute")]
    assert len(repelling) == (2 if overrides else 1)
    for taint in repelling:
        assert any(tolerates(toleration, taint) for toleration in tolerations), taint


def test_node_agent_keeps_its_chart_default_of_tolerating_everything(dev_run):
    assert set(json.loads(addon_inputs(dev_run)["configurationValues"])) == {"dcgmAgent"}


def test_no_addon_without_node_repair(stack):
    assert monitoring_addons(stack({"gpuNodeGroup": {"nodeRepair": False}})) == []
