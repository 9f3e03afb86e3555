"""The Kubernetes objects a stack would apply, as manifests and as YAML files.

A Kubernetes resource registered under mocks carries its manifest as inputs (wire names). Here
the inputs become the object: apiVersion and kind from the type token, Pulumi-internal keys
dropped, secrets redacted, integral numbers made integers again (the RPC layer turns every
number into a float). Files are written in a stable key order so two runs give the same bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ...placement.ownership import Declared, double_declarations
from ..runtime import RegisteredResource, Secret
from .crd_schema import cluster_scoped

KUBERNETES_PACKAGE = "kubernetes"
REDACTED = "[redacted]"
# First line of every file the plan writes; only files starting with it are deleted as stale.
HEADER = "# Rendered by `python -m components.stackcheck plan`: regenerated on every run, do not edit.\n"
CLUSTER_SCOPE = "_cluster"
# Keys shown first; every other key is sorted.
_LEADING_KEYS = ("apiVersion", "kind", "metadata")
# Fields whose keys are user data, where a leading "__" is a legitimate ConfigMap or Secret key.
_DATA_FIELDS = ("data", "stringData", "binaryData")
# Modules of the kubernetes package whose resources are not Kubernetes objects.
_NOT_OBJECTS = ("helm.sh/", "yaml/", "kustomize/")
# Kinds that live outside namespaces (the built-in ones; custom resources default to namespaced).
CLUSTER_SCOPED_KINDS = frozenset(
    {
        "APIService",
        "CertificateSigningRequest",
        "ClusterRole",
        "ClusterRoleBinding",
        "ClusterTrustBundle",
        "ComponentStatus",
        "CSIDriver",
        "CSINode",
        "CustomResourceDefinition",
        "DeviceClass",
        "FlowSchema",
        "IngressClass",
        "MutatingAdmissionPolicy",
        "MutatingAdmissionPolicyBinding",
        "MutatingWebhookConfiguration",
        "Namespace",
        # EKS Auto Mode's eks.amazonaws.com/v1 NodeClass (EKS user guide, automode/create-node-class.adoc: no
        # namespace in any of its examples; `kubectl get nodeclass` lists them cluster-wide).
        "NodeClass",
        "Node",
        "PersistentVolume",
        "PriorityClass",
        "PriorityLevelConfiguration",
        "ResourceSlice",
        "RuntimeClass",
        "StorageClass",
        "StorageVersionMigration",
        "ValidatingAdmissionPolicy",
        "ValidatingAdmissionPolicyBinding",
        "ValidatingWebhookConfiguration",
        "VolumeAttachment",
        "VolumeAttributesClass",
    }
)


@dataclass(frozen=True)
class KubernetesObject:
    """One Kubernetes object the stack would apply, and the Pulumi resource that registers it."""

    manifest: dict[str, Any]
    """The object as it would be applied: stable key order, secrets redacted."""
    resource_name: str
    """The Pulumi resource name (also the object's name when metadata.name is unset: Pulumi autonames it)."""
    resource_type: str
    """The Pulumi type token, for example `kubernetes:apps/v1:DaemonSet`."""
    secret_fields: tuple[str, ...] = ()
    """Fields (other than Secret data) that are secret as a whole, so every value in them is redacted."""

    @property
    def api_version(self) -> str:
        return self.manifest["apiVersion"]

    @property
    def kind(self) -> str:
        return self.manifest["kind"]

    @property
    def name(self) -> str:
        return (self.manifest.get("metadata") or {}).get("name") or self.resource_name

    @property
    def namespace(self) -> str | None:
        """The namespace, `default` when unset; None for a cluster-scoped kind."""
        if self.kind in CLUSTER_SCOPED_KINDS or cluster_scoped(self.manifest.get("apiVersion"), self.kind):
            return None
        return (self.manifest.get("metadata") or {}).get("namespace") or "default"

    @property
    def id(self) -> str:
        """`Kind namespace/name`, or `Kind name` when cluster-scoped."""
        return f"{self.kind} {self.namespace}/{self.name}" if self.namespace else f"{self.kind} {self.name}"

    @property
    def file_name(self) -> str:
        """`<namespace>.<kind>.<name>.yaml`, lowercase; `_cluster` stands in for the namespace of cluster-scoped kinds."""
        return f"{self.namespace or CLUSTER_SCOPE}.{self.kind}.{self.name}.yaml".lower()

    def workload(self) -> dict[str, Any]:
        """The manifest with `metadata.name` filled in, for the placement model."""
        metadata = dict(self.manifest.get("metadata") or {})
        metadata.setdefault("name", self.name)
        return {**self.manifest, "metadata": metadata}


@dataclass(frozen=True)
class WrittenFile:
    """A YAML file the plan wrote, relative to the output folder."""

    path: str
    object: KubernetesObject


def api_version_and_kind(type_token: str) -> tuple[str, str]:
    """`kubernetes:apps/v1:DaemonSet` -> (`apps/v1`, `DaemonSet`); the core group drops its name (`v1`)."""
    package, module, kind = type_token.split(":")
    if package != KUBERNETES_PACKAGE:
        raise ValueError(f"{type_token!r} is not a Kubernetes type token")
    return module.removeprefix("core/"), kind


def is_kubernetes_object(resource: RegisteredResource) -> bool:
    """Whether `resource` is a Kubernetes object the provider applies (not a provider, component or Helm release)."""
    parts = resource.type.split(":")
    if len(parts) != 3 or parts[0] != KUBERNETES_PACKAGE or not resource.custom:
        return False
    return not parts[1].startswith(_NOT_OBJECTS)


def kubernetes_objects(resources: list[RegisteredResource]) -> list[KubernetesObject]:
    """Every Kubernetes object among `resources`, in registration order."""
    objects = []
    for resource in resources:
        if not is_kubernetes_object(resource):
            continue
        api_version, kind = api_version_and_kind(resource.type)
        body = {key: value for key, value in resource.inputs.items() if key not in ("apiVersion", "kind")}
        secret_fields: list[str] = []
        manifest = {"apiVersion": api_version, "kind": kind, **_clean(body, secret_fields, top_level=True)}
        objects.append(KubernetesObject(_ordered(manifest), resource.name, resource.type, tuple(secret_fields)))
    return objects


def to_yaml(manifest: dict[str, Any]) -> str:
    """`manifest` as a YAML document, keys in the order given, long strings never folded."""
    return yaml.dump(
        manifest, Dumper=_Dumper, sort_keys=False, default_flow_style=False, allow_unicode=True, width=1_000_000
    )


def registered(resources: list[RegisteredResource]) -> list[dict[str, Any]]:
    """Each resource's type, name, id and inputs as plain data, for the ownership verdict (`placement.ownership`)."""
    return [
        {"type": resource.type, "name": resource.name, "id": resource.id, "inputs": resource.inputs}
        for resource in resources
    ]


def declared(objects: list[KubernetesObject]) -> list[Declared]:
    """Each object's identity (API group, kind, namespace, name) and the resource declaring it, for the ownership
    verdict (`placement.ownership`)."""
    return [
        Declared(
            obj.api_version.rpartition("/")[0], obj.kind, obj.namespace, obj.name, obj.resource_type, obj.resource_name
        )
        for obj in objects
    ]


def duplicate_objects(objects: list[KubernetesObject]) -> list[str]:
    """Objects that more than one resource declares (same API group, kind, namespace and name).

    The cluster holds one object per identity: two resources declaring it would overwrite each other
    on every update, and deleting either deletes the object of both.
    """
    return double_declarations(declared(objects))


def write_objects(objects: list[KubernetesObject], out_dir: Path) -> list[WrittenFile]:
    """Write one YAML file per object into `out_dir`, replacing the files an earlier run wrote.

    Only `*.yaml` files that start with `HEADER` are removed; anything else in the folder is left.
    Two objects that would share a file name get `-2`, `-3`... before `.yaml`.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    planned: dict[str, KubernetesObject] = {}
    for obj in objects:
        file_name = obj.file_name
        counter = 1
        while file_name in planned:
            counter += 1
            file_name = f"{obj.file_name.removesuffix('.yaml')}-{counter}.yaml"
        planned[file_name] = obj
    for stale in sorted(out_dir.glob("*.yaml")):
        if stale.name not in planned and _is_ours(stale):
            stale.unlink()
    written = []
    for file_name, obj in planned.items():
        data = (HEADER + to_yaml(obj.manifest)).encode("utf-8")
        path = out_dir / file_name
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
        written.append(WrittenFile(file_name, obj))
    return written


def _is_ours(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return handle.read(len(HEADER)) == HEADER.encode("utf-8")
    except OSError:
        return False


def _clean(value: Any, secret_fields: list[str], *, top_level: bool = False, path: str = "") -> Any:
    """Redact secrets, drop Pulumi-internal `__` keys, and turn integral floats back into ints.

    A secret that holds an object or list is noted in `secret_fields`: Pulumi marks a whole input
    secret when any value inside it is, so the whole field is redacted.
    """
    if isinstance(value, Secret):
        if isinstance(value.value, (dict, list)) and path not in _DATA_FIELDS:
            secret_fields.append(path)
        return _redacted(_clean(value.value, [], top_level=top_level, path=path))
    if isinstance(value, dict):
        cleaned = {}
        for key, item in value.items():
            if key.startswith("__"):
                continue
            inner = f"{path}.{key}" if path else key
            if top_level and key in _DATA_FIELDS and isinstance(item, dict):
                cleaned[key] = {k: _clean(v, secret_fields, path=f"{inner}.{k}") for k, v in item.items()}
            else:
                cleaned[key] = _clean(item, secret_fields, path=inner)
        return cleaned
    if isinstance(value, list):
        return [_clean(item, secret_fields, path=f"{path}[{index}]") for index, item in enumerate(value)]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _redacted(value: Any) -> Any:
    """Every value inside `value` replaced by `REDACTED`, keys kept.

    A secret inside an object marks the whole property secret (the keys of `stringData`, say);
    keeping the keys keeps the object's shape, so it still validates and reads as it would apply.
    """
    if isinstance(value, dict):
        return {key: _redacted(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_redacted(item) for item in value]
    return REDACTED


def _ordered(value: Any, *, top_level: bool = True) -> Any:
    if isinstance(value, dict):
        leading = [key for key in _LEADING_KEYS if key in value] if top_level else []
        rest = sorted(key for key in value if key not in leading)
        return {key: _ordered(value[key], top_level=False) for key in (*leading, *rest)}
    if isinstance(value, list):
        return [_ordered(item, top_level=False) for item in value]
    return value


# libyaml's emitter when PyYAML has it (its wheels carry it): about five times faster per object. The
# documents read back the same; byte for byte they differ only in how characters beyond the Basic
# Multilingual Plane are escaped.
class _Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]  # a base chosen at import
    """Safe YAML with multi-line strings as literal blocks and no anchors for repeated values."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _represent_str(dumper: yaml.SafeDumper, data: str) -> yaml.Node:
    style = "|" if "\n" in data and not data.endswith((" ", "\t")) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


_Dumper.add_representer(str, _represent_str)
