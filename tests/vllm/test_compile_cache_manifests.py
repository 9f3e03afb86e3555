"""The compile cache's pure builders (vllm/compile_cache_manifests.py), whole, without a program run: what a server's
Deployment gains (the cache root on a volume of its own, no Triton directory, the restore after any init container
already there, the saver beside vLLM), the ConfigMap's name and labels, and the grant on the cache's prefix alone.
The image is the pinned `vllm/vllm-openai:v0.32.0` (facts/versions.py); the saver's requests are the server's
(vllm/sizing.py, tests/vllm/test_compile_cache.py)."""

from __future__ import annotations

from pathlib import Path

from components.settings import VllmSettings
from components.vllm import compile_cache_manifests
from components.vllm.manifests import image_user_security_context
from components.vllm.sizing import compile_cache_saver_resources

SETTINGS = VllmSettings(compile_cache={"enabled": True}, namespace="models")
ENV = [{"name": "COMPILE_CACHE_BUCKET", "value": "cache-bucket"}, {"name": "AWS_REGION", "value": "us-east-1"}]
MOUNTS = [
    {"name": "compile-cache-script", "mountPath": "/opt/compile-cache", "readOnly": True},
    {"name": "compile-cache", "mountPath": "/vllm-cache"},
    {"name": "tmp", "mountPath": "/tmp"},
]
ARGS = [
    "--prefix",
    "compile-cache/Qwen/Qwen2.5-7B-Instruct",
    "--version",
    "v0.32.0",
    "--root",
    "/vllm-cache",
    "--timeout",
    "120",
]


def deployment() -> dict:
    server = {
        "name": "vllm",
        "env": [
            {"name": "HF_HOME", "value": "/models"},
            {"name": "VLLM_CACHE_ROOT", "value": "/tmp/vllm"},
            {"name": "TRITON_CACHE_DIR", "value": "/tmp/triton"},
        ],
        "volumeMounts": [{"name": "tmp", "mountPath": "/tmp"}],
    }
    pod = {
        "initContainers": [{"name": "wait-for-weights"}],
        "containers": [server],
        "volumes": [{"name": "tmp", "emptyDir": {}}],
    }
    return {"spec": {"template": {"spec": pod}}}


def test_the_server_keeps_its_cache_on_the_cache_volume_and_no_triton_directory_of_its_own():
    pod = compile_cache_manifests.with_compile_cache(deployment(), SETTINGS, "vllm-server", ENV)["spec"]["template"][
        "spec"
    ]
    server = pod["containers"][0]

    # VLLM_CACHE_ROOT in its place, TRITON_CACHE_DIR gone, so Inductor keeps Triton's kernels in the saved hash.
    assert server["env"] == [
        {"name": "HF_HOME", "value": "/models"},
        {"name": "VLLM_CACHE_ROOT", "value": "/vllm-cache"},
    ]
    assert server["volumeMounts"] == [
        {"name": "tmp", "mountPath": "/tmp"},
        {"name": "compile-cache", "mountPath": "/vllm-cache"},
    ]
    assert pod["volumes"] == [
        {"name": "tmp", "emptyDir": {}},
        {"name": "compile-cache-script", "configMap": {"name": "vllm-server-compile-cache"}},
        {"name": "compile-cache", "emptyDir": {"sizeLimit": "10Gi"}},
    ]


def test_the_restore_runs_last_of_the_init_containers_and_the_saver_beside_vllm():
    pod = compile_cache_manifests.with_compile_cache(deployment(), SETTINGS, "vllm-server", ENV)["spec"]["template"][
        "spec"
    ]
    [waits, restore] = pod["initContainers"]
    [_, saver] = pod["containers"]
    common = {
        "image": "vllm/vllm-openai:v0.32.0",
        "imagePullPolicy": "IfNotPresent",
        "env": [{"name": "HOME", "value": "/tmp"}, *ENV],
        "securityContext": image_user_security_context(),
        "volumeMounts": MOUNTS,
    }

    assert waits == {"name": "wait-for-weights"}
    assert restore == {
        "name": "restore-compile-cache",
        "command": ["python3", "/opt/compile-cache/compile_cache.py", "restore", *ARGS, "--keep", "4"],
        "resources": {"requests": {"cpu": "1", "memory": "1Gi"}, "limits": {"cpu": "1", "memory": "1Gi"}},
        **common,
    }
    assert saver == {
        "name": "save-compile-cache",
        "command": ["python3", "/opt/compile-cache/compile_cache.py", "save", *ARGS],
        "resources": compile_cache_saver_resources(),
        **common,
    }


def test_a_pod_without_init_containers_gets_the_restore_alone():
    manifest = deployment()
    del manifest["spec"]["template"]["spec"]["initContainers"]

    pod = compile_cache_manifests.with_compile_cache(manifest, SETTINGS, "vllm-server", ENV)["spec"]["template"]["spec"]

    assert [container["name"] for container in pod["initContainers"]] == ["restore-compile-cache"]


def test_the_config_map_is_named_for_the_server_in_its_namespace_and_holds_the_shipped_script():
    config_map = compile_cache_manifests.config_map("gpu-inference-dev-vllm", SETTINGS, "vllm-server")
    metadata = config_map["metadata"]

    assert metadata == {
        "name": "vllm-server-compile-cache",
        "namespace": "models",
        "labels": {
            "app.kubernetes.io/name": "vllm",
            "app.kubernetes.io/instance": "gpu-inference-dev-vllm",
            "app.kubernetes.io/component": "compile-cache",
            "app.kubernetes.io/part-of": "eks-gpu-inference",
            "app.kubernetes.io/managed-by": "pulumi",
            "app.kubernetes.io/version": "v0.32.0",
        },
    }
    # The containers run /opt/compile-cache/compile_cache.py: the shipped script's own text under that name.
    shipped = Path(__file__).parents[2] / "components" / "vllm" / "compile_cache_script.py"
    assert config_map["data"] == compile_cache_manifests.script_data() == {"compile_cache.py": shipped.read_text()}


def test_the_grant_reads_writes_and_lists_the_cache_prefix_alone_in_the_partition_given():
    """S3 ARNs in the China Regions begin `arn:aws-cn:s3:::` (AWS docs, "Identify AWS resources with Amazon Resource
    Names"); a prefix is listed with an `s3:prefix` condition (Amazon S3 User Guide, "Policy examples")."""
    assert compile_cache_manifests.read_write_policy("cache-bucket", "compile-cache/m", "aws-cn") == {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Sid": "ReadWriteTheCompileCache",
                "Effect": "Allow",
                "Action": ["s3:GetObject", "s3:PutObject", "s3:AbortMultipartUpload"],
                "Resource": ["arn:aws-cn:s3:::cache-bucket/compile-cache/m/*"],
            },
            {
                "Sid": "ListTheCompileCache",
                "Effect": "Allow",
                "Action": ["s3:ListBucket"],
                "Resource": ["arn:aws-cn:s3:::cache-bucket"],
                "Condition": {"StringLike": {"s3:prefix": ["compile-cache/m", "compile-cache/m/*"]}},
            },
        ],
    }
    assert compile_cache_manifests.read_write_policy("b", "p")["Statement"][1]["Resource"] == ["arn:aws:s3:::b"]


def test_a_configured_prefix_is_the_caches_own():
    settings = VllmSettings(compile_cache={"enabled": True, "prefix": "team/cache"})

    assert compile_cache_manifests.script_args("save", settings)[3:5] == ["--prefix", "team/cache"]
