"""Weights from S3 (`vllm.source`): the settings' rules, and what the program registers for a server that reads
its model with the Run:ai model streamer: the bucket, the read-only role through EKS Pod Identity, the server's
arguments, its region and its egress to the Pod Identity agent. Without seeding (`seed: false`), which
tests/vllm/test_weights_copy.py covers."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from components.facts.identity import PROJECT
from components.facts.resource_types import (
    ADDON,
    POD_IDENTITY_ASSOCIATION,
    ROLE,
    ROLE_POLICY,
    S3_BUCKET,
    S3_ENCRYPTION,
    S3_OWNERSHIP_CONTROLS,
    S3_PUBLIC_ACCESS_BLOCK,
    S3_VERSIONING,
)
from components.stackcheck.__main__ import main
from components.vllm.weights import bucket_resource_name, read_policy
from tests.conftest import dev_stack_config, dev_stack_file, plan_stack_file

REVISION = dev_stack_config()["vllm"]["revision"]
"""The dev stack's pinned model revision, which names the default prefix of weights from S3."""
PREFIX = f"Qwen/Qwen2.5-7B-Instruct/{REVISION}"

DEV_STREAMER_BOUND = 7_000_607_948
"""The streamer's bound on the dev stack's g5.xlarge (16 GiB, 58 pods): the server's limit is 13107Mi (80% of
16384Mi, under the EKS allocatable 16384 - 893 - 100 less 5% and 512Mi), so 90% of 13107 x 2^20 B =
12369317068.8 B, less the engine's two processes at 2 GiB each and 1 GiB of /dev/shm, for its one GPU worker."""

ROOT = Path(__file__).resolve().parents[2]
S3_TYPES = {S3_BUCKET, S3_ENCRYPTION, S3_OWNERSHIP_CONTROLS, S3_PUBLIC_ACCESS_BLOCK, S3_VERSIONING}


def plan(capsys, tmp_path, overrides: dict) -> tuple[int, dict]:
    """Plan the dev stack with `overrides` merged into its config; the exit code and the JSON document."""
    return plan_stack_file(dev_stack_file(tmp_path, overrides, name="s3"), tmp_path / "out")


def registered(document: dict, type_token: str) -> list[dict]:
    return [resource for resource in document["resources"] if resource["type"] == type_token]


def written(tmp_path: Path, name: str) -> dict:
    return yaml.safe_load((tmp_path / "out" / name).read_text())


def server_container(tmp_path: Path) -> dict:
    return written(tmp_path, "vllm.deployment.vllm-server.yaml")["spec"]["template"]["spec"]["containers"][0]


def test_the_dev_stack_with_weights_from_s3_plans_clean_with_a_private_bucket(capsys, tmp_path):
    code, document = plan(capsys, tmp_path, {"vllm": {"source": {"type": "s3", "seed": False}}})

    assert code == 0, document["failures"]
    [bucket] = registered(document, S3_BUCKET)
    assert bucket["name"] == "gpu-inference-dev-vllm-weights"
    [block] = registered(document, S3_PUBLIC_ACCESS_BLOCK)
    assert block["inputs"] == {
        "blockPublicAcls": True,
        "blockPublicPolicy": True,
        "bucket": bucket["id"],
        "ignorePublicAcls": True,
        "restrictPublicBuckets": True,
    }
    [ownership] = registered(document, S3_OWNERSHIP_CONTROLS)
    assert ownership["inputs"]["rule"] == {"objectOwnership": "BucketOwnerEnforced"}
    [encryption] = registered(document, S3_ENCRYPTION)
    assert encryption["inputs"]["rules"] == [{"applyServerSideEncryptionByDefault": {"sseAlgorithm": "AES256"}}]
    [versioning] = registered(document, S3_VERSIONING)
    assert versioning["inputs"]["versioningConfiguration"] == {"status": "Enabled"}
    assert {block["inputs"]["bucket"], ownership["inputs"]["bucket"], encryption["inputs"]["bucket"]} == {bucket["id"]}


def test_the_server_reads_only_its_prefix_through_an_eks_pod_identity_role(capsys, tmp_path):
    code, document = plan(capsys, tmp_path, {"vllm": {"source": {"type": "s3", "seed": False}}})

    assert code == 0, document["failures"]
    [role] = [role for role in registered(document, ROLE) if role["name"] == "gpu-inference-dev-vllm-weights-reader"]
    trust = json.loads(role["inputs"]["assumeRolePolicy"])
    assert trust["Statement"] == [
        {
            "Effect": "Allow",
            "Principal": {"Service": "pods.eks.amazonaws.com"},
            "Action": ["sts:AssumeRole", "sts:TagSession"],
        }
    ]
    [policy] = [policy for policy in registered(document, ROLE_POLICY) if policy["inputs"]["role"] == role["id"]]
    statements = json.loads(policy["inputs"]["policy"])["Statement"]
    assert [(s["Action"], s["Resource"], s.get("Condition")) for s in statements] == [
        (["s3:GetObject"], [f"arn:aws:s3:::gpu-inference-dev-vllm-weights/{PREFIX}/*"], None),
        (
            ["s3:ListBucket"],
            ["arn:aws:s3:::gpu-inference-dev-vllm-weights"],
            {"StringLike": {"s3:prefix": [PREFIX, f"{PREFIX}/*"]}},
        ),
    ]
    [association] = [
        item for item in registered(document, POD_IDENTITY_ASSOCIATION) if item["inputs"]["namespace"] == "vllm"
    ]
    assert association["inputs"]["serviceAccount"] == "vllm-server"
    assert association["inputs"]["clusterName"] == "gpu-inference-dev"
    assert association["inputs"]["roleArn"].endswith(":role/gpu-inference-dev-vllm-weights-reader")


def test_the_server_loads_s3_weights_with_the_streamer_and_serves_them_under_the_model_id(capsys, tmp_path):
    code, document = plan(capsys, tmp_path, {"vllm": {"source": {"type": "s3", "seed": False}}})

    assert code == 0, document["failures"]
    container = server_container(tmp_path)
    args = container["args"]
    assert args[0] == f"s3://gpu-inference-dev-vllm-weights/{PREFIX}"
    # The revision names what the prefix holds; the streamer reads the prefix, and vLLM gets no Hub revision.
    assert "--revision" not in args
    assert args[args.index("--served-model-name") + 1] == "Qwen/Qwen2.5-7B-Instruct"
    assert args[args.index("--load-format") + 1] == "runai_streamer"
    # The streamer's own concurrency, and a bound on its CPU buffer that the container's limit holds.
    assert json.loads(args[args.index("--model-loader-extra-config") + 1]) == {"memory_limit": DEV_STREAMER_BOUND}
    assert args.count("--model-loader-extra-config") == 1
    assert {"name": "AWS_REGION", "value": "us-west-2"} in container["env"]
    egress = written(tmp_path, "vllm.networkpolicy.vllm-server.yaml")["spec"]["egress"]
    assert {"to": [{"ipBlock": {"cidr": "169.254.170.23/32"}}], "ports": [{"protocol": "TCP", "port": 80}]} in egress
    [start] = document["coldStart"]
    assert [step["step"] for step in start["steps"]][5] == "weights stream from S3 to the GPUs"
    # Where to seed the weights, as a stack output.
    assert document["outputs"]["vllmWeights"] == f"s3://gpu-inference-dev-vllm-weights/{PREFIX}"


def test_a_given_bucket_and_prefix_are_read_as_they_are_and_no_bucket_is_created(capsys, tmp_path):
    source = {"type": "s3", "bucket": "team-models", "prefix": "qwen/7b-instruct", "concurrency": 32}
    code, document = plan(capsys, tmp_path, {"vllm": {"source": source}})

    assert code == 0, document["failures"]
    assert not [resource for resource in document["resources"] if resource["type"] in S3_TYPES]
    args = server_container(tmp_path)["args"]
    assert args[0] == "s3://team-models/qwen/7b-instruct"
    # One document: the concurrency the settings give and the bound beside it.
    assert json.loads(args[args.index("--model-loader-extra-config") + 1]) == {
        "concurrency": 32,
        "memory_limit": DEV_STREAMER_BOUND,
    }
    policies = [json.loads(policy["inputs"]["policy"]) for policy in registered(document, ROLE_POLICY)]
    assert read_policy("team-models", "qwen/7b-instruct") in policies


def test_without_the_autoscaler_weights_from_s3_still_get_the_pod_identity_agent(capsys, tmp_path):
    overrides = {
        "vllm": {"source": {"type": "s3", "seed": False}},
        "autoscaler": {"enabled": False},
        "gpuNodeGroup": {"minSize": 1},
    }
    code, document = plan(capsys, tmp_path, overrides)

    assert code == 0, document["failures"]
    addons = [addon["inputs"]["addonName"] for addon in registered(document, ADDON)]
    assert "eks-pod-identity-agent" in addons


def test_the_default_source_registers_nothing_of_s3_and_keeps_the_hub_download(capsys, tmp_path):
    code, document = plan(capsys, tmp_path, {})

    assert code == 0, document["failures"]
    assert not [resource for resource in document["resources"] if resource["type"] in S3_TYPES]
    container = server_container(tmp_path)
    assert container["args"][0] == "Qwen/Qwen2.5-7B-Instruct" and "--load-format" not in container["args"]
    assert not [variable for variable in container["env"] if variable["name"] == "AWS_REGION"]
    assert "vllmWeights" not in document["outputs"]


def test_bad_source_settings_exit_2_naming_every_key_at_once(capsys, tmp_path):
    overrides = {"vllm": {"source": {"type": "s3", "bucket": "Team_Models", "prefix": "/models/*"}}}
    code, document = plan(capsys, tmp_path, overrides)

    assert code == 2
    problems = {problem["key"]: problem["message"] for problem in document["configProblems"]}
    assert set(problems) == {
        "vllm.source.bucket",
        "vllm.source.prefix",
    }
    assert "'Team_Models'" in problems["vllm.source.bucket"]
    assert "3-63 lowercase letters" in problems["vllm.source.bucket"]
    assert "no leading or trailing '/'" in problems["vllm.source.prefix"]
    assert not document["resources"]


def test_s3_refuses_a_loader_of_its_own_in_extra_args_and_takes_a_revision_as_what_the_prefix_holds(capsys, tmp_path):
    overrides = {
        "vllm": {
            "revision": "a" * 40,
            "extraArgs": ["--load-format", "safetensors"],
            "source": {"type": "s3", "seed": False},
        }
    }
    code, document = plan(capsys, tmp_path, overrides)

    assert code == 2
    problems = {problem["key"]: problem["message"] for problem in document["configProblems"]}
    assert set(problems) == {"vllm.extraArgs[0]"}
    assert "--load-format" in problems["vllm.extraArgs[0]"]


def test_bucket_prefix_and_concurrency_need_type_s3(capsys, tmp_path):
    code, document = plan(capsys, tmp_path, {"vllm": {"source": {"bucket": "team-models", "concurrency": 8}}})

    assert code == 2
    problems = {problem["key"]: problem["message"] for problem in document["configProblems"]}
    assert set(problems) == {"vllm.source.bucket", "vllm.source.concurrency"}
    assert "allowed: type 's3'" in problems["vllm.source.bucket"]


def test_a_created_bucket_is_named_as_a_bucket_may_be_whatever_the_server_is_called():
    assert bucket_resource_name("Gpu_Inference-DEV-vllm") == "gpu-inference-dev-vllm-weights"
    long_name = bucket_resource_name("a" * 80)
    assert len(long_name) <= 63 - 8 and long_name == long_name.lower()


def test_in_the_fleet_form_each_model_reads_from_its_own_source(capsys, tmp_path):
    document = yaml.safe_load((ROOT / "examples" / "fleet" / "Pulumi.fleet.yaml").read_text())
    models = document["config"][f"{PROJECT}:models"]
    [llama] = [model for model in models if model["name"] == "llama-8b"]
    llama["source"] = {"type": "s3", "seed": False}
    stack_file = tmp_path / "Pulumi.fleet.yaml"
    stack_file.write_text(yaml.safe_dump(document))
    args = ["plan", "--project-dir", str(ROOT), "--stack-file", str(stack_file), "--out", str(tmp_path / "out")]
    code = main([*args, "--format", "json"])
    planned = json.loads(capsys.readouterr().out)

    assert code == 0, planned["failures"]
    [bucket] = registered(planned, S3_BUCKET)
    assert bucket["name"].endswith("-vllm-llama-8b-weights")
    weights = {name: outputs.get("weights") for name, outputs in planned["outputs"]["models"].items()}
    assert weights.pop("llama-8b") == f"s3://{bucket['name']}/meta-llama/Llama-3.1-8B-Instruct"
    assert set(weights.values()) == {None}
    streamed = {
        start["model"]: any(step["step"] == "weights stream from S3 to the GPUs" for step in start["steps"])
        for start in planned["coldStart"]
    }
    assert [model for model, from_s3 in streamed.items() if from_s3] == ["llama-8b (meta-llama/Llama-3.1-8B-Instruct)"]
