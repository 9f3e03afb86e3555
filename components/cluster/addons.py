"""The EKS managed add-ons of a cluster: their versions, resolved at preview for the cluster's Kubernetes version.

CoreDNS, kube-proxy and the VPC CNI are installed by EKS on every cluster as self-managed add-ons ("Amazon EKS
add-ons", EKS user guide); as self-managed ones nothing upgrades them with the control plane. The stack installs
them, the pod identity agent and the node monitoring agent as EKS managed add-ons (`aws.eks.Addon`), each at the
newest version EKS offers for the cluster's Kubernetes version, asked at preview (DescribeAddonVersions through
`aws.eks.get_addon_version`, `most_recent`), so a Kubernetes upgrade moves them along. Offline (under the plan's
mocks) nobody answers: the version pinned in facts/versions.py is used, and the plan says it was not resolved.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pulumi
import pulumi_aws as aws

from ..facts import versions
from ..facts.node_agents import COREDNS, SYSTEM_POOL_LABEL


@dataclass(frozen=True)
class ManagedAddon:
    """One EKS managed add-on the cluster installs."""

    addon: str
    """The add-on's name in the EKS API (`coredns`)."""
    configuration: dict | None = None
    """Configuration values (checked by EKS against the add-on version's configuration schema)."""
    before_nodes: bool = False
    """Installed before the node groups: nodes need it to become Ready."""


def chosen_version(addon: str, kubernetes_version: str, resolved: str | None) -> str | None:
    """The version `addon` is installed at: the one EKS offers (`resolved`), else the pinned one (None: EKS's default)."""
    if not resolved:
        return versions.pinned_addon_version(addon, kubernetes_version)
    return resolved


def schema_version_warning(addon: str, kubernetes_version: str, resolved: str | None) -> str | None:
    """What to tell the user when EKS offers `resolved` for an add-on whose configuration values follow the committed
    schema of another version (`versions.SCHEMA_VERSIONS`), which the stack installs all the same.

    Values one version's schema accepts may be refused, or mean something else, in another's; a newer eksbuild must
    not fail every preview either, so the stack keeps the schema's version and says what EKS offers.
    """
    schema_version = versions.SCHEMA_VERSIONS[addon]
    if not resolved or resolved == schema_version:
        return None
    return (
        f"add-on {addon}: EKS offers {resolved} for Kubernetes {kubernetes_version}; the stack installs "
        f"{schema_version}, the version whose configuration schema its values follow (components/data/). A release "
        "of this stack that commits the newer schema moves to it"
    )


def coredns_configuration() -> dict:
    """CoreDNS on the system node group: a node affinity for its label, besides the add-on's own os/arch terms.

    The add-on's configuration schema takes `affinity` (AWS containers blog, "Amazon EKS add-ons: Advanced
    configuration"; its CoreDNS example sets `affinity.nodeAffinity`), and EKS checks the values against the
    version's schema at CreateAddon (`aws eks describe-addon-configuration`), so a key it lacks fails there, not
    silently. The affinity replaces the default one, so the default's `kubernetes.io/os` and
    `kubernetes.io/arch` terms (facts/node_agents.py `COREDNS`, from eksctl's copies of the EKS manifest) are kept. Tolerations
    stay the add-on's (CriticalAddonsOnly, control-plane), which tolerate no GPU taint.
    """
    key, value = SYSTEM_POOL_LABEL
    terms = [
        {"matchExpressions": [*term["matchExpressions"], {"key": key, "operator": "In", "values": [value]}]}
        for term in COREDNS.required_node_terms()
    ]
    return {
        "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}}}
    }


def child_urn(parent_urn: str, type_token: str, name: str) -> str:
    """The URN of the resource `name` of type `type_token` whose parent has `parent_urn`.

    A URN is `urn:pulumi:<stack>::<project>::<parent types>$<type>::<name>` (Pulumi docs, "Resource names and
    URNs"): a child's type chain is its parent's with its own type appended.
    """
    head, _, _ = parent_urn.rpartition("::")
    return f"{head}${type_token}::{name}"


def create_addon(
    name: str,
    spec: ManagedAddon,
    *,
    cluster_name: pulumi.Input[str],
    kubernetes_version: str,
    parent: pulumi.Resource,
    depends_on: list[pulumi.Resource] | None = None,
    aliases: list[pulumi.Alias] | None = None,
    tags: dict[str, str] | None = None,
) -> aws.eks.Addon:
    """Register the add-on `spec` as `name`, its version resolved at preview (`chosen_version`), or, for an add-on whose
    values follow a committed schema, that schema's version (`schema_version_warning`).

    `aliases` name the resource an earlier release of the stack had for the same add-on, so that `pulumi up` updates
    it in place rather than creating a second add-on of the same name, which CreateAddon refuses.
    """
    looked_up = aws.eks.get_addon_version_output(
        addon_name=spec.addon,
        kubernetes_version=kubernetes_version,
        most_recent=True,
        opts=pulumi.InvokeOutputOptions(parent=parent),
    )
    version: pulumi.Input[str | None]
    schema_version = versions.SCHEMA_VERSIONS.get(spec.addon)
    if schema_version is None:
        version = looked_up.version.apply(lambda resolved: chosen_version(spec.addon, kubernetes_version, resolved))
    else:
        # The version of the schema the values follow, whatever EKS offers; what it offers is told, not installed.
        def warn(resolved: str | None) -> None:
            warning = schema_version_warning(spec.addon, kubernetes_version, resolved)
            if warning:
                pulumi.log.warn(warning, resource=parent)

        looked_up.version.apply(warn)
        version = schema_version
    return aws.eks.Addon(
        name,
        cluster_name=cluster_name,
        addon_name=spec.addon,
        addon_version=version,
        # The stack's tags, as pulumi-eks gave the add-ons it made (`tags: args.tags`, cluster.ts), so taking them
        # over strips nothing and a tag policy sees them on every add-on.
        tags=tags or None,
        configuration_values=json.dumps(spec.configuration, sort_keys=True, separators=(",", ":"))
        if spec.configuration
        else None,
        # The self-managed CoreDNS, kube-proxy and aws-node EKS installed are taken over, their fields set to the
        # add-on's ("OVERWRITE", CreateAddon `resolveConflicts`, EKS API reference); updates do the same.
        resolve_conflicts_on_create="OVERWRITE",
        resolve_conflicts_on_update="OVERWRITE",
        # Deleting the add-on keeps its software on the cluster (pulumi-aws `eks.Addon` `preserve`): removing the
        # stack's hold on kube-proxy or the VPC CNI must not take pod networking from running nodes.
        preserve=spec.before_nodes or spec.addon == versions.KUBE_PROXY_ADDON,
        opts=pulumi.ResourceOptions(parent=parent, depends_on=depends_on or [], aliases=aliases or None),
    )
