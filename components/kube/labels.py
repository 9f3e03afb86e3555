"""Metadata every Kubernetes object of this stack carries: the recommended labels and checkov skip notes."""

from __future__ import annotations

import re
from typing import Protocol

from ..facts.identity import PROJECT
from ..facts.kubernetes import KUBE_SYSTEM, NAMESPACE_NAME_LABEL

LABEL_PREFIX = "app.kubernetes.io"
_LABEL_VALUE_INVALID = re.compile(r"[^A-Za-z0-9._-]+")


def label_value(text: str) -> str:
    """`text` made a valid label value: other characters become `-`, at most 63, alphanumeric at both ends."""
    return _LABEL_VALUE_INVALID.sub("-", text)[:63].strip("-_.")


def standard_labels(*, app: str, instance: str, component: str, version: str) -> dict[str, str]:
    """The recommended `app.kubernetes.io/*` labels every object of this stack carries.

    `instance` is the Pulumi component name; values are made valid label values.
    """
    return {
        f"{LABEL_PREFIX}/name": app,
        f"{LABEL_PREFIX}/instance": label_value(instance),
        f"{LABEL_PREFIX}/component": component,
        f"{LABEL_PREFIX}/part-of": PROJECT,
        f"{LABEL_PREFIX}/managed-by": "pulumi",
        f"{LABEL_PREFIX}/version": label_value(version),
    }


def selector_labels(labels: dict[str, str]) -> dict[str, str]:
    """The labels that select one component's pods: name and instance, which never change with a release."""
    return {key: labels[key] for key in (f"{LABEL_PREFIX}/name", f"{LABEL_PREFIX}/instance")}


def checkov_annotations(skips: dict[str, str]) -> dict[str, str]:
    """`checkov.io/skipN: CHECK=reason` annotations, which checkov reads on the workload itself."""
    return {f"checkov.io/skip{index}": f"{check}={reason}" for index, (check, reason) in enumerate(skips.items(), 1)}


# CoreDNS pods on EKS carry k8s-app=kube-dns in kube-system (the EKS CoreDNS manifest; facts/node_agents.py).
DNS_EGRESS = {
    "to": [
        {
            "namespaceSelector": {"matchLabels": {NAMESPACE_NAME_LABEL: KUBE_SYSTEM}},
            "podSelector": {"matchLabels": {"k8s-app": "kube-dns"}},
        }
    ],
    "ports": [{"protocol": "UDP", "port": 53}, {"protocol": "TCP", "port": 53}],
}
HTTPS_EGRESS = {"ports": [{"protocol": "TCP", "port": 443}]}


def in_namespace(namespace: str) -> dict:
    """A NetworkPolicy peer: every pod of `namespace`."""
    return {"namespaceSelector": {"matchLabels": {NAMESPACE_NAME_LABEL: namespace}}}


def network_policy(
    metadata: dict, labels: dict[str, str], *, ingress: list[dict] | None = None, egress: list[dict] | None = None
) -> dict:
    """A NetworkPolicy for the pods `labels` select: only `ingress` and `egress` allowed, none when not given."""
    spec: dict = {"podSelector": {"matchLabels": selector_labels(labels)}, "policyTypes": ["Ingress", "Egress"]}
    if ingress:
        spec["ingress"] = ingress
    if egress:
        spec["egress"] = egress
    return {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy", "metadata": metadata, "spec": spec}


class CreatedMetadata(Protocol):
    """The metadata of an object the API server has created (`pulumi_kubernetes` ObjectMeta outputs)."""

    @property
    def name(self) -> str | None: ...

    @property
    def namespace(self) -> str | None: ...


def created_name(metadata: CreatedMetadata) -> str:
    """The name of a created object. The SDK types it optional, as in a request; every object the stack
    creates is named in its manifest, and the API server returns it."""
    assert metadata.name is not None
    return metadata.name


def created_namespace(metadata: CreatedMetadata) -> str:
    """The namespace of a created namespaced object (given in its manifest; optional in the SDK's type)."""
    assert metadata.namespace is not None
    return metadata.namespace
