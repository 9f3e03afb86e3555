"""The Cluster Autoscaler: node groups follow pending pods, and the GPU node group scales from and to zero.

Rendered as plain Kubernetes objects (not a Helm chart), so the offline plan, the schema check, checkov
and the placement guard see each of them. The RBAC rules, flags and security context follow the
upstream AWS example for the pinned release (kubernetes/autoscaler, tag `cluster-autoscaler-<version>`,
`cluster-autoscaler/cloudprovider/aws/examples/cluster-autoscaler-autodiscover.yaml`), written here from
its facts. AWS credentials come through EKS Pod Identity: an IAM role trusted by `pods.eks.amazonaws.com`
and a `PodIdentityAssociation` for the autoscaler's ServiceAccount.

It carries no toleration for the GPU taint, so it runs on the system node group and never on a GPU node
(the plan's guard shows where it lands).
"""

import json

import pulumi
import pulumi_aws as aws
import pulumi_kubernetes as k8s

from ..args.validate import Validation, args_path, coerce
from ..facts import naming, pod_identity, versions
from ..facts.identity import PROJECT
from ..facts.kubernetes import KUBE_SYSTEM
from ..kube.labels import DNS_EGRESS, HTTPS_EGRESS, checkov_annotations, created_name, selector_labels, standard_labels
from ..kube.labels import network_policy as network_policy_manifest
from ..kube.security_context import locked_down
from ..settings import AutoscalerSettings, arguments, autoscaler_release_problems
from ..settings.autoscaler import AutoscaledClusterSettings
from .args import ClusterAutoscalerArgs

NAME = "cluster-autoscaler"
NAMESPACE = KUBE_SYSTEM
METRICS_PORT = 8085
# The tags EKS puts on every managed node group's Auto Scaling group, which auto-discovery matches
# (EKS user guide, "Managed node groups": node groups are tagged for the Cluster Autoscaler).
DISCOVERY_TAG = "k8s.io/cluster-autoscaler/enabled"
# Evicting the autoscaler stops all scaling; this class outranks every workload but node agents.
PRIORITY_CLASS = "system-cluster-critical"
# The priority expander reads its priorities from this ConfigMap (cluster-autoscaler expander/priority README).
PRIORITY_CONFIGMAP = "cluster-autoscaler-priority-expander"
RESOURCES = {"requests": {"cpu": "100m", "memory": "600Mi"}, "limits": {"cpu": "100m", "memory": "600Mi"}}
# The image's base, gcr.io/distroless/static:nonroot, carries CA certificates, so no host certificate mount
# is needed (cluster-autoscaler/Dockerfile at the pinned tags), and its default user is `nonroot`, UID 65532.
# The pod runs as 65534 (`nobody`; distroless names both in common/variables.bzl, NOBODY = 65534 and
# NONROOT = 65532) as the upstream AWS example does at every pinned tag (`runAsUser: 65534`, `fsGroup:
# 65534`): the binary is static and reads only its service-account token, which `fsGroup` makes readable, so
# either UID works, and this one keeps the pod as upstream runs it.
RUN_AS_UID = 65534
CHECKOV_SKIPS = {
    "CKV_K8S_38": "the autoscaler watches pods and nodes and evicts pods: it needs its service-account token",
    "CKV_K8S_43": "the image is pinned to the release matching the cluster version (facts/versions.py)",
    "CKV_K8S_15": "a pinned release tag needs no re-pull; a registry outage must not stop the autoscaler restarting",
}

# RBAC of the upstream AWS example (its ClusterRole `cluster-autoscaler`) at the newest pinned release,
# cluster-autoscaler-1.36.1. The pinned releases do not share one rule set: `cluster_rules` gives each the
# rules of its own tag.
CLUSTER_RULES = [
    {"apiGroups": [""], "resources": ["events", "endpoints"], "verbs": ["create", "patch"]},
    {"apiGroups": [""], "resources": ["pods/eviction"], "verbs": ["create"]},
    {"apiGroups": [""], "resources": ["pods/status"], "verbs": ["update"]},
    {"apiGroups": [""], "resources": ["endpoints"], "resourceNames": [NAME], "verbs": ["get", "update"]},
    {"apiGroups": [""], "resources": ["nodes"], "verbs": ["watch", "list", "get", "update"]},
    {
        "apiGroups": [""],
        "resources": [
            "namespaces",
            "pods",
            "services",
            "replicationcontrollers",
            "persistentvolumeclaims",
            "persistentvolumes",
        ],
        "verbs": ["watch", "list", "get"],
    },
    {"apiGroups": ["extensions"], "resources": ["replicasets", "daemonsets"], "verbs": ["watch", "list", "get"]},
    {"apiGroups": ["policy"], "resources": ["poddisruptionbudgets"], "verbs": ["watch", "list"]},
    {
        "apiGroups": ["apps"],
        "resources": ["statefulsets", "replicasets", "daemonsets"],
        "verbs": ["watch", "list", "get"],
    },
    {
        "apiGroups": ["resource.k8s.io"],
        "resources": ["deviceclasses", "resourceslices", "resourceclaims"],
        "verbs": ["watch", "list", "get"],
    },
    {
        "apiGroups": ["storage.k8s.io"],
        "resources": ["storageclasses", "csinodes", "csidrivers", "csistoragecapacities", "volumeattachments"],
        "verbs": ["watch", "list", "get"],
    },
    {"apiGroups": ["batch", "extensions"], "resources": ["jobs"], "verbs": ["get", "list", "watch", "patch"]},
    {"apiGroups": ["coordination.k8s.io"], "resources": ["leases"], "verbs": ["create"]},
    {
        "apiGroups": ["coordination.k8s.io"],
        "resources": ["leases"],
        "resourceNames": [NAME],
        "verbs": ["get", "update"],
    },
]
# What the example's ClusterRole gained after 1.32, compared at the pinned tags: `volumeattachments` is read
# from 1.33 (absent at cluster-autoscaler-1.32.7, present at 1.33.6, 1.34.5, 1.35.2 and 1.36.1), and the
# `resource.k8s.io` rule (dynamic resource allocation) from 1.36 (absent at 1.35.2, present at 1.36.1).
VOLUME_ATTACHMENTS_SINCE = (1, 33)
DYNAMIC_RESOURCES_SINCE = (1, 36)


def cluster_rules(kubernetes_version: str) -> list[dict]:
    """The ClusterRole rules of the upstream AWS example at the release pinned for `kubernetes_version` ("1.34")."""
    minor = tuple(int(part) for part in kubernetes_version.split(".")[:2])
    rules = []
    for rule in CLUSTER_RULES:
        if rule["apiGroups"] == ["resource.k8s.io"] and minor < DYNAMIC_RESOURCES_SINCE:
            continue
        if rule["apiGroups"] == ["storage.k8s.io"] and minor < VOLUME_ATTACHMENTS_SINCE:
            rule = {**rule, "resources": [r for r in rule["resources"] if r != "volumeattachments"]}
        rules.append(rule)
    return rules


NAMESPACE_RULES = [
    {"apiGroups": [""], "resources": ["configmaps"], "verbs": ["create", "list", "watch"]},
    {
        "apiGroups": [""],
        "resources": ["configmaps"],
        "resourceNames": ["cluster-autoscaler-status", PRIORITY_CONFIGMAP],
        "verbs": ["delete", "get", "update", "watch"],
    },
]
# Reading the groups and instance types may cover every resource; scaling only this cluster's groups
# (the autoscaler's AWS README, "IAM Policy"; EKS Best Practices Guide, Cluster Autoscaler: scope the
# mutating actions with a condition on the Auto Scaling group's tags).
DESCRIBE_ACTIONS = [
    "autoscaling:DescribeAutoScalingGroups",
    "autoscaling:DescribeAutoScalingInstances",
    "autoscaling:DescribeLaunchConfigurations",
    "autoscaling:DescribeScalingActivities",
    "ec2:DescribeImages",
    "ec2:DescribeInstanceTypes",
    "ec2:DescribeLaunchTemplateVersions",
    "ec2:GetInstanceTypesFromInstanceRequirements",
    "eks:DescribeNodegroup",
]
SCALING_ACTIONS = ["autoscaling:SetDesiredCapacity", "autoscaling:TerminateInstanceInAutoScalingGroup"]


def validated(name: str, args: ClusterAutoscalerArgs) -> tuple[AutoscalerSettings, str]:
    """The autoscaler's settings and the cluster's Kubernetes version from `args`; raises `ConfigError` naming
    every bad argument."""
    where = args_path("ClusterAutoscaler", name)
    validation = Validation(where, args)
    args = validation.known(args)
    settings = validation.section(AutoscalerSettings, args)
    cluster = validation.section(AutoscaledClusterSettings, args)
    if cluster is not None:
        problems = autoscaler_release_problems(cluster.cluster_version, "no ClusterAutoscaler", "clusterVersion")
        validation.add([problem.written(arguments(where)) for problem in problems])
    validation.tags(args.tags)
    validation.done()
    return settings, cluster.cluster_version


class ClusterAutoscaler(pulumi.ComponentResource):
    """The Cluster Autoscaler in `kube-system`, with a least-privilege IAM role through EKS Pod Identity.

    Give it the Kubernetes provider through `opts.providers`; its AWS resources use the default provider.
    One per cluster: a second would scale the same node groups, so its objects keep fixed names
    (`cluster-autoscaler` in `kube-system`, and a cluster-wide ClusterRole of that name).
    """

    deployment_name: pulumi.Output[str]
    """Name of the autoscaler's Deployment in `kube-system`."""
    role_arn: pulumi.Output[str]
    """ARN of the IAM role the autoscaler acts as (EKS Pod Identity)."""

    def __init__(self, name: str, args: ClusterAutoscalerArgs, opts: pulumi.ResourceOptions | None = None):
        args = coerce(ClusterAutoscalerArgs, args, args_path("ClusterAutoscaler", name))
        # Checked before anything is registered.
        settings, cluster_version = validated(name, args)
        super().__init__(f"{PROJECT}:index:ClusterAutoscaler", name, None, opts)
        child = pulumi.ResourceOptions(parent=self)
        version = versions.CLUSTER_AUTOSCALER_VERSIONS[cluster_version]
        labels = autoscaler_labels(name, version)

        role = aws.iam.Role(
            naming.autonamed_role_resource_name(f"{name}-role"),
            description=f"Cluster Autoscaler of EKS cluster {args.cluster_name} (EKS Pod Identity)",
            assume_role_policy=json.dumps(pod_identity.trust_policy()),
            tags=args.tags or None,
            opts=child,
        )
        scaling = aws.iam.RolePolicy(
            f"{name}-scaling", role=role.id, policy=json.dumps(scaling_policy(args.cluster_name)), opts=child
        )
        association = aws.eks.PodIdentityAssociation(
            f"{name}-pod-identity",
            cluster_name=args.eks_cluster_name or args.cluster_name,
            namespace=NAMESPACE,
            service_account=NAME,
            role_arn=role.arn,
            tags=args.tags or None,
            # The Deployment waits for the association; with this, for the policy too: credentials without their
            # permissions would fail its first scaling calls.
            opts=pulumi.ResourceOptions(parent=self, depends_on=[scaling]),
        )

        account = k8s.core.v1.ServiceAccount(
            f"{name}-sa", metadata={"name": NAME, "namespace": NAMESPACE, "labels": labels}, opts=child
        )
        cluster_role = k8s.rbac.v1.ClusterRole(  # type: ignore[call-overload]  # camelCase keys, as the API spells them; the SDK types dicts in snake_case
            f"{name}-clusterrole",
            metadata={"name": NAME, "labels": labels},
            rules=cluster_rules(cluster_version),
            opts=child,
        )
        k8s.rbac.v1.ClusterRoleBinding(  # type: ignore[call-overload]  # camelCase keys, as the API spells them; the SDK types dicts in snake_case
            f"{name}-clusterrolebinding",
            metadata={"name": NAME, "labels": labels},
            role_ref={"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": NAME},
            subjects=[{"kind": "ServiceAccount", "name": NAME, "namespace": NAMESPACE}],
            opts=pulumi.ResourceOptions(parent=self, depends_on=[cluster_role]),
        )
        role_in_namespace = k8s.rbac.v1.Role(  # type: ignore[call-overload]  # camelCase keys, as the API spells them; the SDK types dicts in snake_case
            f"{name}-role",
            metadata={"name": NAME, "namespace": NAMESPACE, "labels": labels},
            rules=NAMESPACE_RULES,
            opts=child,
        )
        k8s.rbac.v1.RoleBinding(  # type: ignore[call-overload]  # camelCase keys, as the API spells them; the SDK types dicts in snake_case
            f"{name}-rolebinding",
            metadata={"name": NAME, "namespace": NAMESPACE, "labels": labels},
            role_ref={"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": NAME},
            subjects=[{"kind": "ServiceAccount", "name": NAME, "namespace": NAMESPACE}],
            opts=pulumi.ResourceOptions(parent=self, depends_on=[role_in_namespace]),
        )
        if settings.uses_priorities:
            k8s.core.v1.ConfigMap(
                f"{name}-priorities",
                metadata={"name": PRIORITY_CONFIGMAP, "namespace": NAMESPACE, "labels": labels},
                data={"priorities": priorities_document(settings.expander_priorities)},
                opts=child,
            )

        region = args.region or aws.get_region_output(opts=pulumi.InvokeOutputOptions(parent=self)).region
        manifest = deployment(name, args.cluster_name, version, settings)
        manifest["spec"]["template"]["spec"]["containers"][0]["env"] = [{"name": "AWS_REGION", "value": region}]
        autoscaler = k8s.apps.v1.Deployment(
            f"{name}-deployment",
            metadata=manifest["metadata"],
            spec=manifest["spec"],
            # Credentials must exist before the first start, or it crash-loops until they do.
            opts=pulumi.ResourceOptions(
                parent=self, depends_on=[association, account, *filter(None, [args.pod_identity_agent])]
            ),
        )
        budget = disruption_budget(name, version)
        k8s.policy.v1.PodDisruptionBudget(f"{name}-pdb", metadata=budget["metadata"], spec=budget["spec"], opts=child)
        policy = network_policy(name, version)
        k8s.networking.v1.NetworkPolicy(f"{name}-netpol", metadata=policy["metadata"], spec=policy["spec"], opts=child)

        self.deployment_name = autoscaler.metadata.apply(created_name)
        self.role_arn = role.arn
        self.register_outputs({"deployment_name": self.deployment_name, "role_arn": self.role_arn})


def autoscaler_labels(instance: str, version: str) -> dict[str, str]:
    return standard_labels(app=NAME, instance=instance, component="autoscaler", version=version)


def image(version: str) -> str:
    return f"{versions.CLUSTER_AUTOSCALER_IMAGE_REPOSITORY}:{version}"


def container_command(cluster_name: str, settings: AutoscalerSettings) -> list[str]:
    """The autoscaler's command line: AWS auto-discovery of this cluster's node groups, GPU-minded scale-down."""
    return [
        "./cluster-autoscaler",
        "--cloud-provider=aws",
        f"--node-group-auto-discovery=asg:tag={DISCOVERY_TAG},k8s.io/cluster-autoscaler/{cluster_name}",
        "--balance-similar-node-groups",
        f"--expander={settings.expander}",
        # vLLM's model cache and /dev/shm are emptyDirs; with the default (true) a node that ever ran a
        # server would never be scaled down (cluster-autoscaler FAQ, flag table).
        "--skip-nodes-with-local-storage=false",
        f"--scale-down-unneeded-time={settings.scale_down_unneeded_time}",
        f"--scale-down-delay-after-add={settings.scale_down_delay_after_add}",
        f"--max-node-provision-time={settings.max_node_provision_time}",
        "--stderrthreshold=info",
        "--v=2",
    ]


def deployment(instance: str, cluster_name: str, version: str, settings: AutoscalerSettings) -> dict:
    """The Deployment: one replica (it elects a leader), non-root, read-only, on untainted nodes only."""
    labels = autoscaler_labels(instance, version)
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {
            "name": NAME,
            "namespace": NAMESPACE,
            "labels": labels,
            "annotations": checkov_annotations(CHECKOV_SKIPS),
        },
        "spec": {
            "replicas": 1,
            "selector": {"matchLabels": selector_labels(labels)},
            "template": {
                "metadata": {"labels": labels},
                "spec": {
                    "serviceAccountName": NAME,
                    "priorityClassName": PRIORITY_CLASS,
                    "securityContext": {
                        "runAsNonRoot": True,
                        "runAsUser": RUN_AS_UID,
                        "runAsGroup": RUN_AS_UID,
                        "fsGroup": RUN_AS_UID,
                        "seccompProfile": {"type": "RuntimeDefault"},
                    },
                    "containers": [
                        {
                            "name": NAME,
                            "image": image(version),
                            "imagePullPolicy": "IfNotPresent",
                            "command": container_command(cluster_name, settings),
                            "ports": [{"name": "metrics", "containerPort": METRICS_PORT, "protocol": "TCP"}],
                            "resources": RESOURCES,
                            "livenessProbe": {
                                "httpGet": {"path": "/health-check", "port": METRICS_PORT},
                                "initialDelaySeconds": 60,
                                "periodSeconds": 30,
                            },
                            "readinessProbe": {
                                "httpGet": {"path": "/health-check", "port": METRICS_PORT},
                                "periodSeconds": 10,
                            },
                            "securityContext": locked_down(runAsNonRoot=True),
                        }
                    ],
                },
            },
        },
    }


def disruption_budget(instance: str, version: str) -> dict:
    """One replica may be evicted: a node drain never waits on the autoscaler, which restarts in seconds."""
    labels = autoscaler_labels(instance, version)
    return {
        "apiVersion": "policy/v1",
        "kind": "PodDisruptionBudget",
        "metadata": {"name": NAME, "namespace": NAMESPACE, "labels": labels},
        "spec": {"maxUnavailable": 1, "selector": {"matchLabels": selector_labels(labels)}},
    }


def network_policy(instance: str, version: str) -> dict:
    """No inbound traffic; out only to DNS, HTTPS (the Kubernetes API, the AWS APIs) and the Pod Identity agent."""
    labels = autoscaler_labels(instance, version)
    return network_policy_manifest(
        {"name": NAME, "namespace": NAMESPACE, "labels": labels},
        labels,
        egress=[DNS_EGRESS, HTTPS_EGRESS, pod_identity.agent_egress()],
    )


def scaling_policy(cluster_name: str) -> dict:
    """Describe anything; change the size of, or terminate instances in, only this cluster's tagged groups."""
    return {
        "Version": "2012-10-17",
        "Statement": [
            {"Sid": "Describe", "Effect": "Allow", "Action": DESCRIBE_ACTIONS, "Resource": "*"},
            {
                "Sid": "ScaleThisClustersGroups",
                "Effect": "Allow",
                "Action": SCALING_ACTIONS,
                "Resource": "*",
                "Condition": {
                    "StringEquals": {
                        f"aws:ResourceTag/k8s.io/cluster-autoscaler/{cluster_name}": "owned",
                        f"aws:ResourceTag/{DISCOVERY_TAG}": "true",
                    }
                },
            },
        ],
    }


def priorities_document(priorities: dict[str, list[str]]) -> str:
    """The priority expander's `priorities` key: YAML of priority to node group name patterns."""
    lines = []
    for priority in sorted(priorities, key=int, reverse=True):
        lines.append(f"{int(priority)}:")
        lines.extend(f"  - {json.dumps(pattern)}" for pattern in priorities[priority])
    return "\n".join(lines) + "\n"
