"""The stack variants whose runs register the program's orderings, and how an ordering is read from a run.

A resource is picked as `"<Kind> <name>"`: the end of its type token after a colon or slash (`Deployment`,
`VllmServer`, `rbac.authorization.k8s.io/v1:Role` where the kind alone is ambiguous) and its name without the stack's prefix (the cluster's name and a dash), `fnmatch` wildcards allowed
(`"Tag gpu-ca-*"`, `"* vllm-ns"`).
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conftest import PROGRAM, dev_stack_config, merge

from components.facts.identity import PROJECT
from components.facts.resource_types import EKS_CLUSTER
from components.stackcheck.runtime import ProgramRun, RegisteredResource, run_program
from components.stackcheck.stack_config import load_stack_config

ROOT = Path(__file__).resolve().parents[2]
FLEET = ROOT / "examples" / "fleet" / "Pulumi.fleet.yaml"
DEPENDS_ON = "dependsOn"
"""`Ordering.through` of an ordering the dependent's `depends_on` option holds."""
AMP_WORKSPACE = "arn:aws:aps:us-west-2:123456789012:workspace/ws-0123abcd-4567-89ef-0123-456789abcdef"
REVISION = "a" * 40


@dataclass(frozen=True)
class Variant:
    """A stack config the orderings are read from: the dev stack's with `overrides` (keys without the project
    prefix), `secret_keys` among them secret."""

    overrides: dict[str, Any]
    secret_keys: tuple[str, ...] = ()


VARIANTS: dict[str, Variant] = {
    "dev": Variant({}),
    # A gated model's token, the server's API key and a model cache on a claim: the objects its pods mount.
    "secrets": Variant(
        {"hfToken": "hf_token", "vllmApiKey": "sk-key", "vllm": {"modelCache": {"type": "pvc"}}},
        ("hfToken", "vllmApiKey"),
    ),
    # The image on a Bottlerocket snapshot that Fast Snapshot Restore keeps initialized.
    "karpenter": Variant(
        {
            "gpuNodeGroup": {
                "provisioner": "karpenter",
                "amiFamily": "Bottlerocket",
                "imageCache": "snapshot",
                "snapshotId": "snap-0123456789abcdef0",
                "fastSnapshotRestore": True,
            }
        }
    ),
    "autoMode": Variant({"gpuNodeGroup": {"provisioner": "autoMode"}}),
    # Weights from the stack's own bucket, seeded from the Hub by the copy Job with a token, and the compile cache kept in the weights' bucket.
    "s3Seeded": Variant(
        {
            "hfToken": "hf_token",
            "vllm": {"revision": REVISION, "source": {"type": "s3"}, "compileCache": {"enabled": True}},
        },
        ("hfToken",),
    ),
    # A node group with one warm node, its image on a snapshot that Fast Snapshot Restore keeps initialized, and a
    # server fed from a queue at zero replicas.
    "warmQueue": Variant(
        {
            "gpuNodeGroup": {
                "amiFamily": "Bottlerocket",
                "imageCache": "snapshot",
                "snapshotId": "snap-0123456789abcdef0",
                "fastSnapshotRestore": True,
                "warmNodes": 1,
            },
            "vllm": {
                "queue": {"enabled": True, "requestTimeoutSeconds": 900},
                "autoscaling": {"enabled": False, "minReplicas": 0, "maxReplicas": 2},
                "replicas": 0,
            },
        }
    ),
    "kedaAmp": Variant(
        {
            "vllm": {"autoscaling": {"enabled": True, "maxReplicas": 2, "targetKvCacheUsage": 0.8}},
            "observability": {"prometheus": {"ampWorkspace": AMP_WORKSPACE}},
        }
    ),
    "prometheusInstalled": Variant(
        {
            "vllm": {"autoscaling": {"enabled": True, "maxReplicas": 2}},
            "observability": {"prometheus": {"install": True}},
        }
    ),
}
FLEET_VARIANT = "fleet"
"""examples/fleet: three node-group pools, four models."""
ALL_VARIANTS = (*VARIANTS, FLEET_VARIANT)


def variant_run(variant: str) -> ProgramRun:
    """The program's run of `variant` (shared with other tests of the same config, see conftest `SharedRuns`)."""
    if variant == FLEET_VARIANT:
        config = load_stack_config(ROOT, stack_file=FLEET)
        return run_program(
            config.program, config.values, project=config.project, stack=config.stack, secret_keys=config.secret_keys
        )
    spec = VARIANTS[variant]
    config = {f"{PROJECT}:{key}": value for key, value in merge(dev_stack_config(), spec.overrides).items()}
    return run_program(
        PROGRAM, config, project=PROJECT, stack="test", secret_keys=tuple(f"{PROJECT}:{k}" for k in spec.secret_keys)
    )


SERVER_OBJECTS = (
    ("ServiceAccount", "sa"),
    ("Deployment", "deployment"),
    ("Service", "svc"),
    ("PodDisruptionBudget", "pdb"),
    ("NetworkPolicy", "netpol"),
)
"""What every vLLM server creates in its namespace: kind and name suffix."""
PRIVATE_ROUTING = ("Route network-private-*-nat", "RouteTableAssociation network-private-*")
# The Pod Identity webhook mutates only pods created after their ServiceAccount's association, and a pod with
# credentials asks the agent on its node for them (components/facts/pod_identity.py).
CREDENTIALS = (
    "a pod created before its Pod Identity association never gets the credentials (the webhook mutates new pods only)"
)
AGENT = (
    "the pod's AWS SDK fetches its credentials from the Pod Identity agent on the node; without it every AWS call fails"
)


@dataclass(frozen=True)
class Ordering:
    """One order the stack relies on: each resource `dependents` picks waits for each one `dependencies` picks.

    `through` is how: `DEPENDS_ON` (the dependent's `depends_on` option) or the input (wire name) whose value
    resolves only once the dependencies exist. Every pick must find at least one resource in each of `variants`.
    """

    slug: str
    variants: tuple[str, ...]
    dependents: tuple[str, ...]
    dependencies: tuple[str, ...]
    through: str
    why: str


def stack_prefix(run: ProgramRun) -> str:
    """The prefix of every resource name: the cluster component's name and a dash."""
    [cluster] = run.of_type(EKS_CLUSTER)
    return f"{cluster.name}-"


def matches(pick: str, resource: RegisteredResource, prefix: str) -> bool:
    kind, pattern = pick.split(" ", 1)
    kinds = (kind, f"*:{kind}", f"*/{kind}")
    return any(fnmatch.fnmatchcase(resource.type, each) for each in kinds) and fnmatch.fnmatchcase(
        resource.name.removeprefix(prefix), pattern
    )


def picked(run: ProgramRun, pick: str) -> list[RegisteredResource]:
    prefix = stack_prefix(run)
    return [resource for resource in run.resources if matches(pick, resource, prefix)]


def waited_for(resource: RegisteredResource, through: str) -> tuple[str, ...]:
    """The URNs `resource` waits for `through` its `depends_on` option or one input."""
    if through == DEPENDS_ON:
        return resource.depends_on
    return resource.input_dependencies.get(through, ())


def shown(run: ProgramRun, urns: set[str] | tuple[str, ...]) -> list[str]:
    """URNs as `"<Kind> <name>"`, sorted, for messages."""
    prefix = stack_prefix(run)
    by_urn = {resource.urn: resource for resource in run.resources}
    return sorted(f"{by_urn[u].type.rsplit(':', 1)[-1]} {by_urn[u].name.removeprefix(prefix)}" for u in urns)
