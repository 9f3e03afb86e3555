"""The compile cache (`vllm.compileCache`) as the program registers it, planned in the fleet form (the example's
stack file; `models` entries take every `vllm` key, so the one-model form reads the same section): a model with
weights from S3 shares the weights' bucket and role, a model on the Hub gets a bucket and a Pod Identity role of
its cache's own; each grant reads and writes its model's cache prefix alone; the pod restores the cache before
vLLM and saves it beside it, within the restricted profile; the plan counts the cached compile."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from components.facts import cold_start_figures
from components.facts.gpu_catalog import gpu_instance_type
from components.facts.identity import PROJECT
from components.facts.resource_types import CONFIG_MAP, POD_IDENTITY_ASSOCIATION, ROLE, ROLE_POLICY, S3_BUCKET
from components.settings import VllmSettings, parse_settings
from components.vllm import compile_cache_manifests
from components.vllm.sizing import server_resources
from tests.conftest import plan_stack_file

ROOT = Path(__file__).resolve().parents[2]
CACHE = {"enabled": True}


@pytest.fixture(scope="module")
def planned(tmp_path_factory) -> tuple[int, dict, Path]:
    tmp_path = tmp_path_factory.mktemp("compile-cache")
    document = yaml.safe_load((ROOT / "examples" / "fleet" / "Pulumi.fleet.yaml").read_text())
    models = {model["name"]: model for model in document["config"][f"{PROJECT}:models"]}
    models["llama-8b"].update(source={"type": "s3", "seed": False}, compileCache=CACHE)
    models["qwen-14b"]["compileCache"] = CACHE
    stack_file = tmp_path / "Pulumi.fleet.yaml"
    stack_file.write_text(yaml.safe_dump(document))
    code, report = plan_stack_file(stack_file, tmp_path / "out")
    return code, report, tmp_path / "out"


def registered(report: dict, type_token: str) -> list[dict]:
    return [resource for resource in report["resources"] if resource["type"] == type_token]


def pod(out: Path, model: str) -> dict:
    deployment = yaml.safe_load((out / f"{model}.deployment.{model}.yaml").read_text())
    return deployment["spec"]["template"]["spec"]


def statements(report: dict, name_end: str) -> list[tuple]:
    [policy] = [item for item in registered(report, ROLE_POLICY) if item["name"].endswith(name_end)]
    return [
        (s["Action"], s["Resource"], s.get("Condition")) for s in json.loads(policy["inputs"]["policy"])["Statement"]
    ]


def test_the_stack_plans_clean_with_a_compile_cache(planned):
    code, report, _ = planned
    assert code == 0, report["failures"]


def test_weights_from_s3_share_their_bucket_and_role_with_the_cache_on_its_own_prefix(planned):
    _, report, _ = planned
    [bucket] = [item["name"] for item in registered(report, S3_BUCKET) if item["name"].endswith("llama-8b-weights")]
    prefix = "compile-cache/meta-llama/Llama-3.1-8B-Instruct"
    [reader] = [item for item in registered(report, ROLE) if item["name"].endswith("llama-8b-weights-reader")]
    [grant] = [
        item for item in registered(report, ROLE_POLICY) if item["name"].endswith("llama-8b-compile-cache-access")
    ]

    assert grant["inputs"]["role"] == reader["name"]
    assert statements(report, "llama-8b-compile-cache-access") == [
        (["s3:GetObject", "s3:PutObject", "s3:AbortMultipartUpload"], [f"arn:aws:s3:::{bucket}/{prefix}/*"], None),
        (["s3:ListBucket"], [f"arn:aws:s3:::{bucket}"], {"StringLike": {"s3:prefix": [prefix, f"{prefix}/*"]}}),
    ]
    associations = [
        item for item in registered(report, POD_IDENTITY_ASSOCIATION) if item["inputs"]["namespace"] == "llama-8b"
    ]
    assert len(associations) == 1, "a ServiceAccount takes one role: the weights' reader, granted the cache too"


def test_a_model_on_the_hub_gets_a_bucket_and_a_pod_identity_role_of_its_cache_own(planned):
    _, report, _ = planned
    [bucket] = [
        item["name"] for item in registered(report, S3_BUCKET) if item["name"].endswith("qwen-14b-compile-cache")
    ]
    [role] = [item for item in registered(report, ROLE) if item["name"].endswith("qwen-14b-compile-cache")]
    [association] = [
        item for item in registered(report, POD_IDENTITY_ASSOCIATION) if item["inputs"]["namespace"] == "qwen-14b"
    ]
    prefix = "compile-cache/Qwen/Qwen2.5-14B-Instruct"

    assert json.loads(role["inputs"]["assumeRolePolicy"])["Statement"][0]["Principal"] == {
        "Service": "pods.eks.amazonaws.com"
    }
    assert association["inputs"]["serviceAccount"] == "qwen-14b"
    assert association["inputs"]["roleArn"].endswith(f":role/{role['name']}")
    assert statements(report, "qwen-14b-compile-cache-access")[0][1] == [f"arn:aws:s3:::{bucket}/{prefix}/*"]


def test_models_without_the_setting_register_nothing_of_it(planned):
    _, report, out = planned
    names = [item["name"] for item in report["resources"] if "compile-cache" in item["name"]]
    assert not [name for name in names if "qwen-1-5b" in name or "llama-70b" in name]
    assert "initContainers" not in pod(out, "qwen-1-5b")


def test_the_pod_restores_before_vllm_and_saves_beside_it_on_a_volume_of_its_own(planned):
    _, report, out = planned
    spec = pod(out, "qwen-14b")
    server, saver = spec["containers"]
    [restore] = spec["initContainers"]
    env = {item["name"]: item.get("value") for item in server["env"]}
    [script] = [
        item for item in registered(report, CONFIG_MAP) if item["name"].endswith("qwen-14b-compile-cache-script")
    ]

    assert env["VLLM_CACHE_ROOT"] == "/vllm-cache" and "TRITON_CACHE_DIR" not in env
    assert {"name": "compile-cache", "mountPath": "/vllm-cache"} in server["volumeMounts"]
    assert restore["command"][2:] == [
        "restore",
        "--prefix",
        "compile-cache/Qwen/Qwen2.5-14B-Instruct",
        "--version",
        "v0.32.0",
        "--root",
        "/vllm-cache",
        "--timeout",
        "120",
        "--keep",
        "4",
    ]
    assert saver["command"][2] == "save"
    # boto3 in both containers needs the bucket's Region: the stack file's `aws:region`, us-west-2.
    for container in (restore, saver):
        cache_env = {item["name"]: item.get("value") for item in container["env"]}
        assert cache_env["AWS_REGION"] == "us-west-2"
        assert cache_env["COMPILE_CACHE_BUCKET"]
    assert {"name": "compile-cache", "emptyDir": {"sizeLimit": "10Gi"}} in spec["volumes"]
    # The init container runs /opt/compile-cache/compile_cache.py: the shipped script's own text, under that name.
    shipped = Path(__file__).parents[2] / "components" / "vllm" / "compile_cache_script.py"
    assert script["inputs"]["data"] == {"compile_cache.py": shipped.read_text()}
    for container in (restore, saver):
        assert container["securityContext"]["readOnlyRootFilesystem"] is True
        assert container["securityContext"]["capabilities"] == {"drop": ["ALL"]}
        assert container["resources"]["requests"] == container["resources"]["limits"]
    assert not [volume for volume in spec["volumes"] if "hostPath" in volume]


def test_the_plan_counts_the_cached_compile_for_the_models_that_keep_it(planned):
    _, report, _ = planned
    compile_seconds = {
        start["model"].split(" ")[0]: step["seconds"]
        for start in report["coldStart"]
        for step in start["steps"]
        if step["step"] == "torch.compile"
    }
    assert compile_seconds["qwen-14b"] == cold_start_figures.COMPILE_CACHED.value == 8
    assert compile_seconds["llama-8b"] == 8
    assert compile_seconds["qwen-1-5b"] == cold_start_figures.COMPILE.value == 45


def test_the_saver_s_cpu_and_memory_come_off_the_server_s():
    """g5.xlarge: 4 vCPUs, 16 GiB; the server alone 3000m and 13107Mi (80% of 16384Mi); the saver takes 100m and
    256Mi of them, so the pod asks for the same and stays Guaranteed."""
    alone = server_resources(gpu_instance_type("g5.xlarge"), 1)["limits"]
    beside = server_resources(gpu_instance_type("g5.xlarge"), 1, cache_saver=True)["limits"]
    assert (alone["cpu"], alone["memory"]) == ("3000m", "13107Mi")
    assert (beside["cpu"], beside["memory"]) == ("2900m", "12851Mi")


def test_a_compile_cache_without_a_cluster_is_refused_naming_the_argument():
    from components.settings import ConfigError
    from components.vllm.args import VllmServerArgs
    from components.vllm.server import validated

    with pytest.raises(ConfigError) as error:
        validated("s", VllmServerArgs(compile_cache={"enabled": True}, instance_types=["g5.xlarge"]))
    assert "VllmServer(s).args.cluster_name" in str(error.value) and "compile_cache.enabled" in str(error.value)


def test_the_setting_reads_in_the_one_model_form_with_its_default_prefix():
    settings = parse_settings({"vllm": {"compileCache": {"enabled": True}}})
    assert settings.vllm.compile_cache.enabled is True
    assert compile_cache_manifests.prefix(VllmSettings(compile_cache={"enabled": True})) == (
        "compile-cache/Qwen/Qwen2.5-7B-Instruct"
    )
