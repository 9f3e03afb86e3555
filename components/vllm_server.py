"""The vLLM OpenAI-compatible server on the GPU nodes, locked down to the restricted Pod Security Standard.

Every object is built by a pure function of the settings, the placement contract and the GPU
instance type (components/vllm_manifests.py), so the offline plan and the placement tools can render the
same manifests; the component only hands them to Pulumi.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pulumi
import pulumi_kubernetes as k8s

from components import vllm_api_key
from components.settings import VllmSettings
from components.vllm_manifests import (
    PORT,
    TOKEN_KEY,
    api_key_secret,
    deployment,
    disruption_budget,
    model_cache_claim,
    namespace,
    network_policy,
    rollout_timeout,
    service,
    service_account,
    service_dns_name,
    token_secret,
    try_command,
)
from facts import gpu_catalog
from facts.contract import PlacementContract
from facts.identity import PROJECT


@dataclass(frozen=True)
class VllmServerArgs:
    """Inputs of `VllmServer`."""

    settings: VllmSettings
    """The `vllm` section of the stack config. Required."""
    contract: PlacementContract
    """The GPU placement contract: nodeSelector, tolerations and node affinity come from it. Required."""
    instance: gpu_catalog.InstanceType
    """The smallest GPU instance type of the node group; CPU and memory are sized to fit it. Required."""
    require_node_affinity: bool = False
    """Add the contract's required node-affinity term (`gpuPlacement.requireNodeAffinity`). Default false."""
    hf_token: pulumi.Input[str] | None = None
    """Hugging Face token, mounted as a file from a Secret; kept secret. Default none (no Secret)."""
    api_key: pulumi.Input[str] | None = None
    """Key clients must send, given to vLLM as `VLLM_API_KEY` from a Secret; kept secret. Default none (no key)."""
    metrics_namespace: str | None = None
    """Namespace of the Prometheus scraping `/metrics`: the NetworkPolicy admits it on port 8000. Default none."""
    pod_annotations: dict[str, str] = field(default_factory=dict)
    """Annotations of the server pods, such as `prometheus.io/scrape`. Default none."""


class VllmServer(pulumi.ComponentResource):
    """vLLM serving one model on the GPU nodes, behind a ClusterIP Service and a NetworkPolicy."""

    namespace: pulumi.Output[str]
    service_name: pulumi.Output[str]
    service_dns_name: pulumi.Output[str]
    service_port: pulumi.Output[int]
    model: pulumi.Output[str]
    try_command: pulumi.Output[str]

    def __init__(self, name: str, args: VllmServerArgs, opts: pulumi.ResourceOptions | None = None):
        super().__init__(f"{PROJECT}:index:VllmServer", name, None, opts)
        settings = args.settings
        has_token = args.hf_token is not None
        has_api_key = args.api_key is not None

        ns_manifest = namespace(name, settings)
        ns = k8s.core.v1.Namespace(
            f"{name}-ns", metadata=ns_manifest["metadata"], opts=pulumi.ResourceOptions(parent=self)
        )
        in_namespace = pulumi.ResourceOptions(parent=self, depends_on=[ns])

        account = service_account(name, settings)
        account_resource = k8s.core.v1.ServiceAccount(
            f"{name}-sa",
            metadata=account["metadata"],
            automount_service_account_token=account["automountServiceAccountToken"],
            opts=in_namespace,
        )
        pod_needs = [ns, account_resource]
        if has_token:
            secret = token_secret(name, settings)
            pod_needs.append(
                k8s.core.v1.Secret(
                    f"{name}-hf-token",
                    metadata=secret["metadata"],
                    type=secret["type"],
                    string_data={TOKEN_KEY: pulumi.Output.secret(args.hf_token)},
                    opts=in_namespace,
                )
            )
        if has_api_key:
            secret = api_key_secret(name, settings)
            pod_needs.append(
                k8s.core.v1.Secret(
                    f"{name}-api-key",
                    metadata=secret["metadata"],
                    type=secret["type"],
                    string_data={vllm_api_key.SECRET_DATA_KEY: pulumi.Output.secret(args.api_key)},
                    opts=in_namespace,
                )
            )
        if settings.model_cache.type == "pvc":
            claim = model_cache_claim(name, settings)
            pod_needs.append(
                k8s.core.v1.PersistentVolumeClaim(
                    f"{name}-model-cache", metadata=claim["metadata"], spec=claim["spec"], opts=in_namespace
                )
            )

        manifest = deployment(
            name,
            settings,
            args.contract,
            args.instance,
            require_node_affinity=args.require_node_affinity,
            has_token=has_token,
            has_api_key=has_api_key,
            pod_annotations=args.pod_annotations,
        )
        timeout = rollout_timeout(settings)
        k8s.apps.v1.Deployment(
            f"{name}-deployment",
            metadata=manifest["metadata"],
            spec=manifest["spec"],
            opts=pulumi.ResourceOptions(
                parent=self, depends_on=pod_needs, custom_timeouts=pulumi.CustomTimeouts(create=timeout, update=timeout)
            ),
        )
        svc_manifest = service(name, settings)
        svc = k8s.core.v1.Service(
            f"{name}-svc", metadata=svc_manifest["metadata"], spec=svc_manifest["spec"], opts=in_namespace
        )
        budget = disruption_budget(name, settings)
        k8s.policy.v1.PodDisruptionBudget(
            f"{name}-pdb", metadata=budget["metadata"], spec=budget["spec"], opts=in_namespace
        )
        policy = network_policy(name, settings, metrics_namespace=args.metrics_namespace)
        k8s.networking.v1.NetworkPolicy(
            f"{name}-netpol", metadata=policy["metadata"], spec=policy["spec"], opts=in_namespace
        )

        self.namespace = ns.metadata.apply(lambda metadata: metadata.name)
        self.service_name = svc.metadata.apply(lambda metadata: metadata.name)
        self.service_dns_name = pulumi.Output.all(self.service_name, self.namespace).apply(
            lambda parts: service_dns_name(parts[1], parts[0])
        )
        self.service_port = pulumi.Output.from_input(PORT)
        self.model = pulumi.Output.from_input(settings.model_name)
        self.try_command = pulumi.Output.all(self.namespace, self.service_name).apply(
            lambda parts: try_command(parts[0], parts[1], settings.model_name)
        )
        self.register_outputs(
            {
                "namespace": self.namespace,
                "service_name": self.service_name,
                "service_dns_name": self.service_dns_name,
                "service_port": self.service_port,
                "model": self.model,
                "try_command": self.try_command,
            }
        )
