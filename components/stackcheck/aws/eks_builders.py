"""The create requests EKS receives for what a Pulumi program registers, as its providers build them.

`aws:eks/nodeGroup:NodeGroup` -> EKS CreateNodegroup, add-ons, access entries and policy associations, the
`aws:eks/cluster:Cluster` control plane, and the remote `eks:index:Cluster` component as the calls pulumi-eks
makes from its inputs. The request model and shared helpers are in stackcheck/aws/builders.py.
"""

from __future__ import annotations

import json
from typing import Any

from ...facts import auto_mode
from ...facts.regions import aws_managed_policy_arn
from ...facts.resource_types import (
    ACCESS_ENTRY,
    ACCESS_POLICY_ASSOCIATION,
    ADDON,
    EKS_CLUSTER,
    EKS_CONTROL_PLANE,
    NODE_GROUP,
)
from .api_models import UNKNOWN, service_model
from .builders import (
    AUTONAME_SUFFIX,
    Builder,
    Request,
    Stack,
    _drop_none,
    _name,
    _role_arn,
    _tag_list,
    _taken,
    ref,
)


def _nodegroup(inputs: dict, resource: Any, stack: Stack, notes: list[str]) -> list[Request]:
    """terraform-provider-aws internal/service/eks/node_group.go, resourceNodeGroupCreate."""
    params = _taken(
        inputs,
        {
            "clusterName": "clusterName",
            "nodeRoleArn": "nodeRole",
            "subnetIds": "subnets",
            "tags": "tags",
            "amiType": "amiType",
            "capacityType": "capacityType",
            "diskSize": "diskSize",
            "instanceTypes": "instanceTypes",
            "labels": "labels",
            "releaseVersion": "releaseVersion",
            "scalingConfig": "scalingConfig",
            "taints": "taints",
            "updateConfig": "updateConfig",
            "version": "version",
            "nodeRepairConfig": "nodeRepairConfig",
        },
        notes,
        ignored=("nodeGroupName", "nodeGroupNamePrefix", "launchTemplate", "remoteAccess", "forceUpdateVersion"),
    )
    if params.get("subnets") is not None:
        params["subnets"] = ref(stack, params["subnets"], "subnet-")
    params["nodegroupName"] = _name(
        inputs,
        resource.name,
        autonamed=False,
        key="nodeGroupName",
        prefix_key="nodeGroupNamePrefix",
        notes=notes,
        member="nodegroupName",
    )
    if inputs.get("launchTemplate"):
        params["launchTemplate"] = dict(inputs["launchTemplate"])
    remote = inputs.get("remoteAccess")
    if remote:
        params["remoteAccess"] = {
            "ec2SshKey": remote.get("ec2SshKey"),
            "sourceSecurityGroups": remote.get("sourceSecurityGroupIds"),
        }
        params["remoteAccess"] = {k: v for k, v in params["remoteAccess"].items() if v is not None}
    return [Request("eks", "CreateNodegroup", params)]


def _addon(inputs: dict, resource: Any, stack: Stack, notes: list[str]) -> list[Request]:
    """terraform-provider-aws internal/service/eks/addon.go, resourceAddonCreate."""
    params = _taken(
        inputs,
        {
            "clusterName": "clusterName",
            "addonName": "addonName",
            "addonVersion": "addonVersion",
            "serviceAccountRoleArn": "serviceAccountRoleArn",
            "resolveConflictsOnCreate": "resolveConflicts",
            "configurationValues": "configurationValues",
            "tags": "tags",
            "podIdentityAssociations": "podIdentityAssociations",
        },
        notes,
        ignored=("resolveConflictsOnUpdate", "preserve"),
    )
    return [Request("eks", "CreateAddon", params)]


def _access_entry(inputs: dict, resource: Any, stack: Stack, notes: list[str]) -> list[Request]:
    """terraform-provider-aws internal/service/eks/access_entry.go, resourceAccessEntryCreate."""
    params = _taken(
        inputs,
        {
            "clusterName": "clusterName",
            "principalArn": "principalArn",
            "kubernetesGroups": "kubernetesGroups",
            "tags": "tags",
            "userName": "username",
            "type": "type",
        },
        notes,
    )
    return [Request("eks", "CreateAccessEntry", params)]


def _access_policy_association(inputs: dict, resource: Any, stack: Stack, notes: list[str]) -> list[Request]:
    """terraform-provider-aws internal/service/eks/access_policy_association.go."""
    params = _taken(
        inputs,
        {
            "clusterName": "clusterName",
            "principalArn": "principalArn",
            "policyArn": "policyArn",
            "accessScope": "accessScope",
        },
        notes,
    )
    return [Request("eks", "AssociateAccessPolicy", params)]


def _eks_cluster(inputs: dict, resource: Any, stack: Stack, notes: list[str]) -> list[Request]:
    """What pulumi-eks creates from an `eks:index:Cluster`'s inputs (nodejs/eks/cluster/cluster.ts, createCore).

    The control plane `${name}-eksCluster` (aws.eks.Cluster, autonamed unless `name` is given), its
    service role `ServiceRole("${name}-eksRole")`, whose `aws.iam.Role` is `${name}-eksRole-role`
    (nodejs/eks/servicerole.ts) with AmazonEKSClusterPolicy attached, and one access entry per
    `accessEntries` key with its policy associations (nodejs/eks/cluster/authenticationMode.ts,
    createAccessEntries). Security groups, add-ons and node groups it also creates are not checked.
    (pulumi/pulumi-eks, these files are the same at v4.3.0 and at 7bf0c1b1 of 2026-08-12.)

    With `autoMode.enabled` (cluster.ts at 7bf0c1b1): the service role gets the four Auto Mode policies too, and
    the control plane `computeConfig` (`enabled: true`, the node role pulumi-eks creates unless `createNodeRole`
    is false, the built-in node pools unless `computeConfig` names others), `storageConfig.blockStorage` and
    `kubernetesNetworkConfig.elasticLoadBalancing` enabled, and `bootstrapSelfManagedAddons: false`.
    """
    requests: list[Request] = []
    cluster_name = _name(inputs, f"{resource.name}-eksCluster", autonamed=True, notes=notes, member="name")
    auto = inputs.get("autoMode") or {}
    auto_enabled = bool(auto.get("enabled"))
    role_arn = inputs.get("serviceRole")
    if not role_arn:
        role_name = f"{resource.name}-eksRole-role{AUTONAME_SUFFIX}"
        notes.append(
            f"service role: RoleName autonamed by Pulumi from {resource.name}-eksRole-role + '-' + 7 random characters"
        )
        role_arn = _role_arn(role_name, stack.partition)
        trust = {
            "Version": "2012-10-17",
            "Statement": [
                {
                    "Action": ["sts:AssumeRole", "sts:TagSession"],
                    "Effect": "Allow",
                    "Principal": {"Service": ["eks.amazonaws.com"]},
                }
            ],
        }
        requests.append(
            Request(
                "iam",
                "CreateRole",
                _drop_none(
                    {
                        "RoleName": role_name,
                        "AssumeRolePolicyDocument": json.dumps(trust),
                        "Description": "Allows EKS to manage clusters on your behalf.",
                        "Tags": _tag_list(inputs.get("tags")),
                    }
                ),
            )
        )
        policies = ["AmazonEKSClusterPolicy", *(auto_mode.CLUSTER_ROLE_POLICIES if auto_enabled else ())]
        requests += [
            Request(
                "iam",
                "AttachRolePolicy",
                {"RoleName": role_name, "PolicyArn": aws_managed_policy_arn(stack.partition, policy)},
            )
            for policy in policies
        ]
    if isinstance(role_arn, dict):  # a role resource passed by reference resolves to its outputs
        role_arn = role_arn.get("arn", UNKNOWN)

    subnets = inputs.get("subnetIds")
    if subnets is None and (inputs.get("publicSubnetIds") is not None or inputs.get("privateSubnetIds") is not None):
        subnets = list(inputs.get("publicSubnetIds") or []) + list(inputs.get("privateSubnetIds") or [])
    vpc_config = _drop_none(
        {
            "subnetIds": ref(stack, subnets, "subnet-"),
            "securityGroupIds": None if inputs.get("skipDefaultSecurityGroups") else [UNKNOWN],
            "endpointPrivateAccess": inputs.get("endpointPrivateAccess"),
            "endpointPublicAccess": inputs.get("endpointPublicAccess"),
            "publicAccessCidrs": inputs.get("publicAccessCidrs"),
        }
    )
    network = _drop_none(
        {"serviceIpv4Cidr": inputs.get("kubernetesServiceIpAddressRange"), "ipFamily": inputs.get("ipFamily")}
    )
    compute, storage = None, None
    if auto_enabled:
        network = {"ipFamily": "ipv4", **network, "elasticLoadBalancing": {"enabled": True}}
        compute = _auto_mode_compute(auto, resource.name, stack, notes)
        storage = {"blockStorage": {"enabled": True}}
    log_types = inputs.get("enabledClusterLogTypes")
    key_arn = inputs.get("encryptionConfigKeyArn")
    mode = inputs.get("authenticationMode")
    requests.insert(
        0,
        Request(
            "eks",
            "CreateCluster",
            _drop_none(
                {
                    "name": cluster_name,
                    "version": inputs.get("version"),
                    "roleArn": role_arn,
                    "resourcesVpcConfig": vpc_config,
                    "kubernetesNetworkConfig": network or None,
                    "logging": _logging(log_types or []),
                    "encryptionConfig": [{"resources": ["secrets"], "provider": {"keyArn": key_arn}}]
                    if key_arn
                    else None,
                    "accessConfig": {"authenticationMode": mode, "bootstrapClusterCreatorAdminPermissions": True}
                    if mode
                    else None,
                    "tags": {
                        "Name": f"{resource.name}-eksCluster",
                        **(inputs.get("clusterTags") or {}),
                        **(inputs.get("tags") or {}),
                    },
                    "bootstrapSelfManagedAddons": False
                    if auto_enabled
                    else inputs.get("bootstrapSelfManagedAddons", True),
                    "computeConfig": compute,
                    "storageConfig": storage,
                    "upgradePolicy": inputs.get("upgradePolicy"),
                    "deletionProtection": inputs.get("deletionProtection"),
                }
            ),
        ),
    )
    for entry in (inputs.get("accessEntries") or {}).values():
        requests.append(
            Request(
                "eks",
                "CreateAccessEntry",
                _drop_none(
                    {
                        "clusterName": cluster_name,
                        "principalArn": entry.get("principalArn"),
                        "kubernetesGroups": entry.get("kubernetesGroups"),
                        "tags": entry.get("tags"),
                        "username": entry.get("username"),
                        "type": entry.get("type"),
                    }
                ),
            )
        )
        for association in (entry.get("accessPolicies") or {}).values():
            requests.append(
                Request(
                    "eks",
                    "AssociateAccessPolicy",
                    _drop_none(
                        {
                            "clusterName": cluster_name,
                            "principalArn": entry.get("principalArn"),
                            "policyArn": association.get("policyArn"),
                            "accessScope": association.get("accessScope"),
                        }
                    ),
                )
            )
    mapped = {
        "name",
        "version",
        "serviceRole",
        "subnetIds",
        "publicSubnetIds",
        "privateSubnetIds",
        "skipDefaultSecurityGroups",
        "endpointPrivateAccess",
        "endpointPublicAccess",
        "publicAccessCidrs",
        "kubernetesServiceIpAddressRange",
        "ipFamily",
        "enabledClusterLogTypes",
        "encryptionConfigKeyArn",
        "authenticationMode",
        "tags",
        "clusterTags",
        "bootstrapSelfManagedAddons",
        "upgradePolicy",
        "deletionProtection",
        "accessEntries",
        "vpcId",
        "skipDefaultNodeGroup",
        "autoMode",
    }
    rest = sorted(set(inputs) - mapped)
    if rest:
        notes.append(f"inputs not checked (requests of other resources pulumi-eks creates): {', '.join(rest)}")
    return requests


def _auto_mode_compute(auto: dict, name: str, stack: Stack, notes: list[str]) -> dict[str, Any]:
    """The control plane's `computeConfig` as pulumi-eks spreads `autoMode.computeConfig` over its defaults."""
    config = {key: value for key, value in (auto.get("computeConfig") or {}).items() if value is not None}
    role_arn = None
    if auto.get("createNodeRole", True):
        role_arn = _role_arn(f"{name}-nodeRole-role{AUTONAME_SUFFIX}", stack.partition)
        notes.append(f"Auto Mode node role: RoleName autonamed by Pulumi from {name}-nodeRole-role")
    return _drop_none({"enabled": True, "nodeRoleArn": role_arn, "nodePools": ["general-purpose", "system"], **config})


def _aws_eks_cluster(inputs: dict, resource: Any, stack: Stack, notes: list[str]) -> list[Request]:
    """terraform-provider-aws internal/service/eks/cluster.go, resourceClusterCreate (an `aws.eks.Cluster`)."""
    params = _taken(
        inputs,
        {
            "roleArn": "roleArn",
            "version": "version",
            "vpcConfig": "resourcesVpcConfig",
            "tags": "tags",
            "accessConfig": "accessConfig",
            "kubernetesNetworkConfig": "kubernetesNetworkConfig",
            "bootstrapSelfManagedAddons": "bootstrapSelfManagedAddons",
            "upgradePolicy": "upgradePolicy",
            "deletionProtection": "deletionProtection",
            "zonalShiftConfig": "zonalShiftConfig",
            "computeConfig": "computeConfig",
            "storageConfig": "storageConfig",
            "remoteNetworkConfig": "remoteNetworkConfig",
            "outpostConfig": "outpostConfig",
        },
        notes,
        ignored=("name", "enabledClusterLogTypes", "encryptionConfig", "forceUpdateVersion", "defaultAddonsToRemoves"),
    )
    params["name"] = _name(inputs, resource.name, autonamed=True, notes=notes, member="name")
    params["logging"] = _logging(inputs.get("enabledClusterLogTypes") or [])
    if inputs.get("encryptionConfig"):
        params["encryptionConfig"] = [inputs["encryptionConfig"]]
    return [Request("eks", "CreateCluster", params)]


def _logging(enabled: list[str]) -> dict[str, Any]:
    """terraform-provider-aws internal/service/eks/cluster.go, expandLogging: the enabled types, then every
    other LogType of the model disabled."""
    model = service_model("eks")
    every = model.shape("LogType")["enum"]
    return {
        "clusterLogging": [
            {"enabled": True, "types": enabled},
            {"enabled": False, "types": [kind for kind in every if kind not in enabled]},
        ]
    }


EKS_BUILDERS: dict[str, Builder] = {
    NODE_GROUP: _nodegroup,
    ADDON: _addon,
    ACCESS_ENTRY: _access_entry,
    ACCESS_POLICY_ASSOCIATION: _access_policy_association,
    EKS_CLUSTER: _eks_cluster,
    EKS_CONTROL_PLANE: _aws_eks_cluster,
}
