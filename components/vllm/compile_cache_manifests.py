"""The compile cache's parts of a vLLM server (`vllm.compileCache`) as plain manifests and policies: the ConfigMap
with its program (compile_cache_script.py), the init container that restores the cache, the container beside
vLLM that saves it after the first start, the volume vLLM writes it to, and the role's read/write grant on the
cache's prefix. Pure functions of the settings; `compile_cache.register_compile_cache` registers the AWS parts.

Where the cache lives: an emptyDir of its own at `CACHE_PATH`, vLLM's `VLLM_CACHE_ROOT` (vllm/envs.py in the vllm
0.32.0 wheel: `VLLM_CACHE_ROOT`, default `~/.cache/vllm`), the same path in every pod, so what one pod compiled
another reads where it was written. `TRITON_CACHE_DIR` is left unset in the server so that Inductor puts Triton's
kernels inside the hash directory it saves (vllm/compilation/compiler_interface.py, `initialize_cache`: "Keep
artifacts together unless the caller supplies a Triton cache"). The namespace's restricted Pod Security profile
allows emptyDir and ConfigMap volumes, no hostPath: nothing outlives the pod but what is in S3.
"""

from __future__ import annotations

from ..kube.config_maps import program_config_map, program_data
from ..kube.labels import standard_labels
from ..settings import VllmSettings
from . import compile_cache_script
from .manifests import APP, image_user_security_context, image_version
from .sizing import compile_cache_saver_resources

CACHE_PATH = "/vllm-cache"
CACHE_VOLUME = "compile-cache"
CACHE_SIZE = "10Gi"
"""The cache volume's bound: what `/tmp` (`manifests.TMP_SIZE`), the cache's place without it, allows."""
SCRIPT_DIR = "/opt/compile-cache"
SCRIPT_FILE = "compile_cache.py"
SCRIPT_VOLUME = "compile-cache-script"
RESTORE_CONTAINER = "restore-compile-cache"
SAVE_CONTAINER = "save-compile-cache"
RESTORE_TIMEOUT_SECONDS = 120
"""The most the restore may delay vLLM: past it the server starts and compiles what was not unpacked. Above the
cached compile's saving (facts/cold_start_figures.py `COMPILE` less `COMPILE_CACHED`, 37 s) a restore is a loss;
the limit bounds that loss rather than predicting a restore's time, which no source gives (the archive's size is
not published)."""
KEEP_ARCHIVES = 4
"""The newest archives restored: one per configuration of the model the pods serve (a rollout of a new
configuration meets the old one's archive beside its own)."""
RESTORE_RESOURCES = {"cpu": "1", "memory": "1Gi"}
"""The restore's CPU and memory, requests equal to limits (an init container's do not add to the pod's, which
asks for the larger of them and of its containers' sum: Kubernetes docs, "Init Containers", "Resource sharing
within containers")."""


def object_name(server_name: str) -> str:
    """The ConfigMap's name."""
    return f"{server_name}-compile-cache"


def prefix(settings: VllmSettings) -> str:
    return settings.compile_cache.prefix_for(settings.model)


def script_data() -> dict[str, str]:
    return program_data(SCRIPT_FILE, compile_cache_script)


def config_map(instance: str, settings: VllmSettings, server_name: str) -> dict:
    labels = standard_labels(
        app=APP, instance=instance, component="compile-cache", version=image_version(settings.image)
    )
    return program_config_map(object_name(server_name), settings.namespace, labels, SCRIPT_FILE, compile_cache_script)


def script_args(mode: str, settings: VllmSettings) -> list[str]:
    return [
        "python3",
        f"{SCRIPT_DIR}/{SCRIPT_FILE}",
        mode,
        "--prefix",
        prefix(settings),
        "--version",
        image_version(settings.image),
        "--root",
        CACHE_PATH,
        "--timeout",
        str(RESTORE_TIMEOUT_SECONDS),
    ]


def _container(name: str, settings: VllmSettings, command: list[str], resources: dict, env: list[dict]) -> dict:
    return {
        "name": name,
        "image": settings.image,
        "imagePullPolicy": "IfNotPresent",
        "command": command,
        "env": [{"name": "HOME", "value": "/tmp"}, *env],
        "resources": resources,
        "securityContext": image_user_security_context(),
        "volumeMounts": [
            {"name": SCRIPT_VOLUME, "mountPath": SCRIPT_DIR, "readOnly": True},
            {"name": CACHE_VOLUME, "mountPath": CACHE_PATH},
            {"name": "tmp", "mountPath": "/tmp"},
        ],
    }


def with_compile_cache(manifest: dict, settings: VllmSettings, server_name: str, env: list[dict]) -> dict:
    """The server's Deployment `manifest` with its compile cache: `VLLM_CACHE_ROOT` on the cache volume and no
    `TRITON_CACHE_DIR` in the server, the restore as the last init container (after a weights wait, so a restore
    never waits on a copy), the saver beside vLLM. `env` holds `COMPILE_CACHE_BUCKET` and `AWS_REGION` (values
    known once the bucket exists)."""
    pod = manifest["spec"]["template"]["spec"]
    server = pod["containers"][0]
    server["env"] = [
        {"name": "VLLM_CACHE_ROOT", "value": CACHE_PATH} if item["name"] == "VLLM_CACHE_ROOT" else item
        for item in server["env"]
        if item["name"] != "TRITON_CACHE_DIR"
    ]
    server["volumeMounts"] = [*server["volumeMounts"], {"name": CACHE_VOLUME, "mountPath": CACHE_PATH}]
    restore = _container(
        RESTORE_CONTAINER,
        settings,
        [*script_args("restore", settings), "--keep", str(KEEP_ARCHIVES)],
        {"requests": dict(RESTORE_RESOURCES), "limits": dict(RESTORE_RESOURCES)},
        env,
    )
    saver = _container(SAVE_CONTAINER, settings, script_args("save", settings), compile_cache_saver_resources(), env)
    pod["initContainers"] = [*pod.get("initContainers", []), restore]
    pod["containers"] = [*pod["containers"], saver]
    pod["volumes"] = [
        *pod["volumes"],
        {"name": SCRIPT_VOLUME, "configMap": {"name": object_name(server_name)}},
        {"name": CACHE_VOLUME, "emptyDir": {"sizeLimit": CACHE_SIZE}},
    ]
    return manifest


def read_write_policy(bucket: str, cache_prefix: str, partition: str = "aws") -> dict:
    """Read and write the archives under `cache_prefix` and list that prefix, nothing else: `s3:GetObject` and
    `s3:PutObject` (which covers a multipart upload's parts) with `s3:AbortMultipartUpload` (boto3's transfer
    manager calls it when an upload fails: Amazon S3 User Guide, "Multipart upload API and permissions") on
    `<prefix>/*`; `s3:ListBucket` on the bucket under an `s3:prefix` condition (Amazon S3 User Guide, "Policy
    examples"). No delete: an archive is only ever added."""
    return {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Sid": "ReadWriteTheCompileCache",
                "Effect": "Allow",
                "Action": ["s3:GetObject", "s3:PutObject", "s3:AbortMultipartUpload"],
                "Resource": [f"arn:{partition}:s3:::{bucket}/{cache_prefix}/*"],
            },
            {
                "Sid": "ListTheCompileCache",
                "Effect": "Allow",
                "Action": ["s3:ListBucket"],
                "Resource": [f"arn:{partition}:s3:::{bucket}"],
                "Condition": {"StringLike": {"s3:prefix": [cache_prefix, f"{cache_prefix}/*"]}},
            },
        ],
    }
