"""Tags given to a component are checked against AWS's tag rules (facts/aws_tags.py) when it is constructed,
each bad tag named by its key, before anything is registered; good tags reach the AWS resources as given."""

from __future__ import annotations

import pytest

from components.facts.aws_tags import MAX_TAG_KEY_LENGTH, MAX_TAG_VALUE_LENGTH, tag_problems
from components.facts.resource_types import NODE_GROUP
from components.settings import ConfigError
from components.stackcheck.runtime import ProgramRun
from tests.support.component_args import run_components
from tests.support.component_plain_inputs import REQUIRED_INPUTS

TAGGED = ["Network", "EksCluster", "GpuNodeGroup", "ClusterAutoscaler"]
MODULES = {
    "Network": "components.cluster.network",
    "EksCluster": "components.cluster.cluster",
    "GpuNodeGroup": "components.pools.gpu_node_group",
    "ClusterAutoscaler": "components.autoscaling.cluster_autoscaler",
}
BAD_TAGS = {"aws:owner": "me", "team": "AWS:platform", "k" * (MAX_TAG_KEY_LENGTH + 1): "v", "cost": "x" * 257}


@pytest.mark.parametrize("component", TAGGED)
def test_tags_aws_refuses_are_named_by_key_before_anything_is_registered(tmp_path, component):
    run = ProgramRun()
    with pytest.raises(ConfigError) as raised:
        run_components(
            tmp_path,
            f"""
            from {MODULES[component]} import {component}, {component}Args

            values = {REQUIRED_INPUTS.get(component, {})!r}
            {component}("it", {component}Args(**values, tags={BAD_TAGS!r}))
            """,
            run,
        )
    message = str(raised.value)
    for key in BAD_TAGS:
        assert f"{component}(it).args.tags[{key!r}]: tag" in message, key
    assert "keys starting with 'aws:' (any case) are AWS's" in message
    assert "values starting with 'aws:' (any case) are AWS's" in message
    assert f"allowed: a string of 1-{MAX_TAG_KEY_LENGTH} characters" in message
    assert f"allowed: a string of at most {MAX_TAG_VALUE_LENGTH} characters" in message
    assert run.resources == [], [resource.name for resource in run.resources]


def test_acceptable_tags_reach_the_node_group(tmp_path):
    # On the bounds: keys of 1 and 128 characters, values of 0 and 256.
    tags = {"team": "ml-platform", "k" * MAX_TAG_KEY_LENGTH: "v" * MAX_TAG_VALUE_LENGTH, "cost-centre": "", "t": "x"}
    run = run_components(
        tmp_path,
        f"""
        from components.pools.gpu_node_group import GpuNodeGroup, GpuNodeGroupArgs

        GpuNodeGroup("it", GpuNodeGroupArgs(**{REQUIRED_INPUTS["GpuNodeGroup"]!r}, tags={tags!r}))
        """,
    )
    (node_group,) = run.of_type(NODE_GROUP)
    assert tags.items() <= node_group.inputs["tags"].items()


@pytest.mark.parametrize(
    ("tags", "problems"),
    [
        pytest.param({"team": "ml"}, 0, id="an ordinary tag is fine"),
        pytest.param({"Aws:Team": "ml"}, 1, id="the reserved prefix in mixed case is refused"),
        pytest.param({"": "x"}, 1, id="an empty key is refused"),
        pytest.param({"t": "x"}, 0, id="a one-character key is fine"),
        pytest.param({"team": ""}, 0, id="an empty value is fine"),
    ],
)
def test_tag_rules(tags, problems):
    assert len(tag_problems(tags)) == problems
