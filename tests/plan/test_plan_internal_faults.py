"""Inputs that used to crash the plan's own machinery: many node labels (the mock runtime's stack), and two
workloads declared with one kind, namespace and name (the placement report's rows)."""

from __future__ import annotations

import asyncio
import json
import textwrap
from pathlib import Path

import pytest

from components.facts.gpu_catalog import CLUSTER_AUTOSCALER_TEMPLATE_TAG
from components.stackcheck import runtime
from components.stackcheck.__main__ import main

ASG_TAG = "aws:autoscaling/tag:Tag"


@pytest.mark.parametrize("count", [1, 51, 200])
def test_every_node_label_gets_its_template_tag_however_many_there_are(stack, count):
    labels = {f"team{index}.example.com/tier": f"v{index}" for index in range(count)}

    run = stack({"gpuNodeGroup": {"extraLabels": labels}})

    tagged = {
        resource.inputs["tag"]["key"].removeprefix(f"{CLUSTER_AUTOSCALER_TEMPLATE_TAG}/label/"): resource.inputs["tag"][
            "value"
        ]
        for resource in run.of_type(ASG_TAG)
        if "/label/" in resource.inputs["tag"]["key"]
    }
    assert {key: tagged[key] for key in labels} == labels


TWO_DEPLOYMENTS_ONE_NAME = """
import pulumi_aws as aws
import pulumi_kubernetes as k8s

for pool in ("system", "batch"):
    aws.eks.NodeGroup(pool, cluster_name="c", node_role_arn="arn:aws:iam::123456789012:role/nodes",
                      subnet_ids=["subnet-1"], instance_types=["m6i.large"],
                      scaling_config={"min_size": 1, "desired_size": 1, "max_size": 1})
for resource_name, image in (("web-a", "nginx:1.27"), ("web-b", "nginx:1.28")):
    k8s.apps.v1.Deployment(resource_name, metadata={"name": "web", "namespace": "apps"}, spec={
        "selector": {"matchLabels": {"app": "web"}},
        "template": {"metadata": {"labels": {"app": "web"}},
                     "spec": {"containers": [{"name": "web", "image": image}]}}})
"""


@pytest.fixture(scope="module")
def twice_declared(tmp_path_factory) -> Path:
    project = tmp_path_factory.mktemp("twice") / "project"
    project.mkdir()
    (project / "Pulumi.yaml").write_text("name: other-project\nruntime: python\n")
    (project / "Pulumi.dev.yaml").write_text("config: {}\n")
    (project / "__main__.py").write_text(textwrap.dedent(TWO_DEPLOYMENTS_ONE_NAME))
    return project


def test_two_workloads_of_one_name_are_one_matrix_row_each_per_pool(capsys, twice_declared, tmp_path):
    code = main(["plan", "--project-dir", str(twice_declared), "--format", "json", "--out", str(tmp_path)])
    document = json.loads(capsys.readouterr().out)

    assert code == 1  # the duplicate object is a failed check, not an internal error
    rows = [(row["resource"], row["pool"]) for row in document["matrix"] if row["workload"] == "apps/web"]
    assert sorted(rows) == [
        ("kubernetes:apps/v1:Deployment::web-a", "batch"),
        ("kubernetes:apps/v1:Deployment::web-a", "system"),
        ("kubernetes:apps/v1:Deployment::web-b", "batch"),
        ("kubernetes:apps/v1:Deployment::web-b", "system"),
    ]


@pytest.mark.parametrize("form", ["text", "markdown"])
def test_two_workloads_of_one_name_each_get_a_line_naming_their_resource(capsys, twice_declared, tmp_path, form):
    code = main(["plan", "--project-dir", str(twice_declared), "--format", form, "--out", str(tmp_path)])
    captured = capsys.readouterr()

    assert code == 1 and "Traceback" not in captured.err
    lines = [line for line in captured.out.splitlines() if "apps/web (" in line]
    assert len(lines) == 2
    assert "apps/web (web-a)" in lines[0] and "apps/web (web-b)" in lines[1]
    assert all(line.count("lands") == 2 for line in lines)


def test_a_failing_program_is_reported_in_one_line_and_its_traceback_only_on_request(capsys, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "Pulumi.yaml").write_text("name: other-project\nruntime: python\n")
    (project / "Pulumi.dev.yaml").write_text("config: {}\n")
    (project / "__main__.py").write_text("def build():\n    raise ValueError('bucket name missing')\n\nbuild()\n")
    args = ["plan", "--project-dir", str(project), "--out", str(tmp_path / "out")]

    code = main(args)
    captured = capsys.readouterr()

    assert code == 1
    assert "The program failed: ValueError: bucket name missing" in captured.out
    assert captured.err == "stackcheck plan: the program raised an error (see the report); --debug shows where\n"

    code = main([*args, "--debug"])
    captured = capsys.readouterr()

    assert code == 1
    assert captured.err.startswith("Traceback") and "raise ValueError('bucket name missing')" in captured.err


def test_a_mock_answer_that_waits_on_a_future_is_finished_through_the_loop():
    loop = asyncio.new_event_loop()

    async def waits(outcome):
        future = loop.create_future()
        loop.call_soon(outcome, future)
        return await future + 1

    async def answer(outcome):
        return runtime._await_now(waits(outcome))

    def fail(future):
        future.set_exception(LookupError("no such output"))

    try:
        assert loop.run_until_complete(answer(lambda future: future.set_result(41))) == 42
        with pytest.raises(LookupError, match="no such output"):
            loop.run_until_complete(answer(fail))
    finally:
        loop.close()


def test_a_mock_answer_that_needs_no_wait_is_returned_without_running_the_loop():
    ran: list[str] = []

    async def plain():
        return {"answer": 42}

    loop = asyncio.new_event_loop()
    loop.call_soon(ran.append, "other work")
    try:
        assert runtime._await_now(plain()) == {"answer": 42}
        assert ran == []  # the loop's ready work stays for the loop
    finally:
        loop.close()
