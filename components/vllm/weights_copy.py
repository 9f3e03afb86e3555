"""Seeding the weights (`vllm.source.seed`): the Job that copies the pinned revision from the Hugging Face Hub to
the server's S3 prefix, its write-only policy, its NetworkPolicy, and the init container that makes the server
wait for the copy. Pure functions of the settings; `model_weights.register_weights_copy` registers them.

Why a Job with an init container rather than an ordering: the Job runs once per revision on a system node while
the GPU node launches, and the server's pod, wherever and whenever it starts (a first start, a scale-up, a
bucket a person seeds by hand with the same marker), checks the marker itself, with a bounded wait, instead of
loading a prefix that is still being written.

Why no `ttlSecondsAfterFinished`: a Job the TTL controller deletes is missing on the next `pulumi refresh`, and
the next `pulumi up` creates it again (the copy then exits at once on its marker, but every update shows it):
pulumi/pulumi-kubernetes#856 (a Job's state follows the cluster's object; replacing it takes a changed
`metadata.name`). The Job is named by the model, revision and prefix instead, so a new revision is a new Job
and the finished one stays, with its pod's log, until the next revision replaces it.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence

from ..facts import cold_start, naming, pod_identity, system_nodes, versions
from ..facts.node_agents import SYSTEM_POOL_LABEL
from ..kube.config_maps import program_config_map, program_data
from ..kube.labels import DNS_EGRESS, HTTPS_EGRESS, checkov_annotations, network_policy, standard_labels
from ..settings import SystemNodeGroupSettings, VllmSettings
from . import weights_copy_script
from .manifests import CHECKOV_SKIPS, XET_CHUNK_CACHE, image_user_security_context

APP = "vllm-weights-copy"
COMPONENT = "weights-copy"
SCRIPT_DIR = "/opt/weights-copy"
SCRIPT_FILE = "weights_copy.py"
WORK_PATH = "/work"
WORK_SIZE = f"{cold_start.WEIGHTS_COPY_WORK_GIB}Gi"
TMP_SIZE = "1Gi"
TOKEN_DIR = "/var/run/secrets/huggingface"
TOKEN_KEY = "token"
# The copy's deadline: twice the estimate of facts/system_nodes.py (from the model's size and the system node's network
# and volume), at least 30 minutes; four hours for a model of unknown size. It covers every retry of the Job, and a
# retry resumes where the last attempt stopped (the program skips files S3 already holds whole), so twice the
# estimate leaves a whole second run. The server's init container waits that long and the Job's scheduling besides.
DEADLINE_FACTOR = 2
MIN_DEADLINE_SECONDS = 1800
UNKNOWN_SIZE_DEADLINE_SECONDS = 4 * 3600
SCHEDULING_MARGIN_SECONDS = 300
BACKOFF_LIMIT = 2
WAIT_CONTAINER = "wait-for-weights"
DEFAULT_NODE_TYPES = tuple(SystemNodeGroupSettings().instance_types)
"""The system node group's default instance types, where the copy runs unless told otherwise."""


def active_deadline(settings: VllmSettings, node_types: Sequence[str] = DEFAULT_NODE_TYPES) -> int:
    """Seconds the Job may run on a system node of one of `node_types`, every retry included (its
    `activeDeadlineSeconds`)."""
    size = settings.weights_bytes
    if size is None:
        return UNKNOWN_SIZE_DEADLINE_SECONDS
    estimate = system_nodes.weights_copy_step(size, node_types).seconds
    return max(MIN_DEADLINE_SECONDS, math.ceil(DEADLINE_FACTOR * estimate))


def wait_seconds(settings: VllmSettings, node_types: Sequence[str] = DEFAULT_NODE_TYPES) -> int:
    """Seconds the server's init container waits for the marker: the Job's deadline and its scheduling."""
    return active_deadline(settings, node_types) + SCHEDULING_MARGIN_SECONDS


def labels(instance: str, settings: VllmSettings) -> dict[str, str]:
    """Labels of the copy's objects: an app of their own, so the server's Service and policy never select them."""
    return standard_labels(app=APP, instance=instance, component=COMPONENT, version=settings.revision or "")


def object_name(server_name: str) -> str:
    """The ServiceAccount's and ConfigMap's name."""
    return f"{server_name}-weights-copy"


def job_name(server_name: str, settings: VllmSettings) -> str:
    """The Job's name, one per model, revision and prefix (a label value: at most 63 characters)."""
    digest = hashlib.sha256(f"{settings.model}@{settings.revision}:{settings.weights_prefix}".encode()).hexdigest()
    return f"{naming.fit(f'{server_name}-weights', 63 - 9)}-{digest[:8]}"


def script_data() -> dict[str, str]:
    """The ConfigMap's data: the program the Job and the init container run."""
    return program_data(SCRIPT_FILE, weights_copy_script)


def _metadata(instance: str, settings: VllmSettings, name: str) -> dict:
    return {"name": name, "namespace": settings.namespace, "labels": labels(instance, settings)}


def config_map(instance: str, settings: VllmSettings, server_name: str) -> dict:
    return program_config_map(
        object_name(server_name), settings.namespace, labels(instance, settings), SCRIPT_FILE, weights_copy_script
    )


def service_account(instance: str, settings: VllmSettings, server_name: str) -> dict:
    """The Job's own ServiceAccount, the one its write role is associated with; no API token."""
    return {
        "apiVersion": "v1",
        "kind": "ServiceAccount",
        "metadata": _metadata(instance, settings, object_name(server_name)),
        "automountServiceAccountToken": False,
    }


def script_args(mode: str, settings: VllmSettings) -> list[str]:
    """The program's command line; the bucket comes in `WEIGHTS_BUCKET`, known once the bucket exists."""
    assert settings.revision is not None, "seeding needs a pinned revision (settings refuse it otherwise)"
    return [
        "python3",
        f"{SCRIPT_DIR}/{SCRIPT_FILE}",
        mode,
        "--prefix",
        settings.weights_prefix,
        "--model",
        settings.model,
        "--revision",
        settings.revision,
    ]


def job(
    instance: str,
    settings: VllmSettings,
    server_name: str,
    *,
    has_token: bool,
    token_secret: str,
    node_types: Sequence[str] = DEFAULT_NODE_TYPES,
) -> dict:
    """The copy Job on the system nodes (their label, of `node_types`; no GPU toleration), restricted-compliant; the
    component adds `WEIGHTS_BUCKET` and `AWS_REGION` to its environment."""
    env = [
        {"name": "HOME", "value": "/tmp"},
        {"name": "HF_HOME", "value": f"{WORK_PATH}/.hf"},
        {"name": "HF_HUB_DISABLE_TELEMETRY", "value": "1"},
        XET_CHUNK_CACHE,
    ]
    mounts = [
        {"name": "script", "mountPath": SCRIPT_DIR, "readOnly": True},
        {"name": "work", "mountPath": WORK_PATH},
        {"name": "tmp", "mountPath": "/tmp"},
    ]
    volumes: list[dict] = [
        {"name": "script", "configMap": {"name": object_name(server_name)}},
        {"name": "work", "emptyDir": {"sizeLimit": WORK_SIZE}},
        {"name": "tmp", "emptyDir": {"sizeLimit": TMP_SIZE}},
    ]
    if has_token:
        # The server's own Secret, read from a file: the token never sits in the environment.
        env.append({"name": "HF_TOKEN_PATH", "value": f"{TOKEN_DIR}/{TOKEN_KEY}"})
        mounts.append({"name": "hf-token", "mountPath": TOKEN_DIR, "readOnly": True})
        volumes.append(
            {
                "name": "hf-token",
                "secret": {
                    "secretName": token_secret,
                    "defaultMode": 0o400,
                    "items": [{"key": TOKEN_KEY, "path": TOKEN_KEY}],
                },
            }
        )
    key, value = SYSTEM_POOL_LABEL
    # The server's image and user, so the server's reasons for checkov's skips hold for the Job too. Pulumi waits
    # for a Job to complete and fails the update on a Failed one; without `replaceUnready` it would wait on that
    # same failed Job at the next update rather than run the copy again (pulumi_kubernetes 4.34.2,
    # batch/v1/Job.py docstring).
    metadata = {
        **_metadata(instance, settings, job_name(server_name, settings)),
        "annotations": {**checkov_annotations(CHECKOV_SKIPS), "pulumi.com/replaceUnready": "true"},
    }
    return {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": metadata,
        "spec": {
            "backoffLimit": BACKOFF_LIMIT,
            "activeDeadlineSeconds": active_deadline(settings, node_types),
            "template": {
                "metadata": {"labels": labels(instance, settings)},
                "spec": {
                    "serviceAccountName": object_name(server_name),
                    "automountServiceAccountToken": False,
                    "enableServiceLinks": False,
                    "restartPolicy": "Never",
                    "nodeSelector": {key: value},
                    "securityContext": {
                        "runAsNonRoot": True,
                        "runAsUser": versions.VLLM_USER_ID,
                        "runAsGroup": versions.VLLM_GROUP_ID,
                        "fsGroup": versions.VLLM_GROUP_ID,
                        "seccompProfile": {"type": "RuntimeDefault"},
                    },
                    "containers": [
                        {
                            "name": "copy",
                            "image": versions.WEIGHTS_COPY_IMAGE,
                            "imagePullPolicy": "IfNotPresent",
                            "command": [*script_args("copy", settings), "--workdir", WORK_PATH],
                            "env": env,
                            "resources": {
                                "requests": {"cpu": "250m", "memory": "1Gi"},
                                "limits": {"cpu": "1", "memory": "2Gi"},
                            },
                            "securityContext": image_user_security_context(),
                            "volumeMounts": mounts,
                        }
                    ],
                    "volumes": volumes,
                },
            },
        },
    }


def copy_network_policy(instance: str, settings: VllmSettings, server_name: str) -> dict:
    """No ingress; egress to DNS, HTTPS anywhere (the Hub, its CDN and S3, whose addresses are not fixed) and
    the Pod Identity agent."""
    return network_policy(
        _metadata(instance, settings, object_name(server_name)),
        labels(instance, settings),
        egress=[DNS_EGRESS, HTTPS_EGRESS, pod_identity.agent_egress()],
    )


def wait_container(settings: VllmSettings, node_types: Sequence[str] = DEFAULT_NODE_TYPES) -> dict:
    """The server's init container: the server's own image (on the node already, and carrying boto3 as the copy
    does), its read role, polling the marker for at most `wait_seconds`; the component adds the environment."""
    return {
        "name": WAIT_CONTAINER,
        "image": settings.image,
        "imagePullPolicy": "IfNotPresent",
        "command": [*script_args("wait", settings), "--timeout", str(wait_seconds(settings, node_types))],
        "env": [{"name": "HOME", "value": "/tmp"}],
        "resources": {"requests": {"cpu": "50m", "memory": "256Mi"}, "limits": {"cpu": "500m", "memory": "512Mi"}},
        "securityContext": image_user_security_context(),
        "volumeMounts": [
            {"name": "weights-copy", "mountPath": SCRIPT_DIR, "readOnly": True},
            {"name": "tmp", "mountPath": "/tmp"},
        ],
    }


def write_policy(bucket: str, prefix: str, partition: str = "aws") -> dict:
    """Write the objects under `prefix` and read them back, nothing else: `s3:PutObject` (which also covers a
    multipart upload's create, parts and completion) and `s3:AbortMultipartUpload`, which boto3's transfer manager
    calls when an upload fails (Amazon S3 User Guide, "Multipart upload API and permissions"), and `s3:GetObject`,
    which HeadObject needs (S3 API Reference, HeadObject, "Permissions"): the program reads the marker and the size of
    each file already there, to skip it on a retry. All on `<prefix>/*`. No `s3:ListBucket`: without it S3 answers a
    missing key with 403 rather than 404 (S3 API Reference, GetObject, "Permissions"), which the program reads as
    missing."""
    return {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Sid": "WriteTheModel",
                "Effect": "Allow",
                "Action": ["s3:PutObject", "s3:AbortMultipartUpload"],
                "Resource": [f"arn:{partition}:s3:::{bucket}/{prefix}/*"],
            },
            {
                "Sid": "ReadWhatItWrote",
                "Effect": "Allow",
                "Action": ["s3:GetObject"],
                "Resource": [f"arn:{partition}:s3:::{bucket}/{prefix}/*"],
            },
        ],
    }
