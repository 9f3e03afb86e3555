"""The whole stack config: every section resolved to its defaults, the checks across sections, and
`parse_settings`, which checks the config namespace's keys all at once."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..facts import eks_model, versions
from ..facts.contract import NVIDIA_GPU_PRESENT_LABEL, NVIDIA_GPU_PRODUCT_LABEL, PlacementContract, Taint
from ..facts.eks_node import ami_family_runs_device_plugin
from ..facts.identity import PROJECT
from .autoscaler import AutoscalerSettings
from .cluster import ClusterSettings
from .cost import CostSettings
from .device_plugin import DevicePluginSettings
from .errors import ConfigError, ConfigProblem, _suggestion, stack_config
from .gpu_placement import GpuPlacementSettings
from .network import NetworkSettings
from .node_groups import GpuNodeGroupSettings, SystemNodeGroupSettings
from .observability import ObservabilitySettings
from .section import DEFER_PROBLEMS, SectionModel, validate
from .vllm import VllmSettings


def server_pool_problems(vllm: VllmSettings, gpu: GpuNodeGroupSettings) -> list[ConfigProblem]:
    """A vLLM server against the GPU node group it runs on; keys inside the server's settings
    (`tensorParallelSize`, `extraArgs`). The stack config and `VllmServerArgs` both check these."""
    problems = []
    if vllm.tensor_parallel_size > gpu.gpus_per_instance:
        problems.append(
            ConfigProblem(
                "tensorParallelSize",
                f"{vllm.tensor_parallel_size!r} is more than the "
                f"{gpu.gpus_per_instance} GPU(s) per {gpu.instance_types[0]}; allowed: "
                f"1-{gpu.gpus_per_instance}, or larger GPU instance types",
            )
        )
    elif vllm.gpus_per_replica > gpu.gpus_per_instance:
        # The pipeline, prefill context and data parallel sizes of extraArgs multiply the GPUs one server uses.
        problems.append(
            ConfigProblem(
                "extraArgs",
                f"{vllm.gpus_per_replica} GPUs per server (tensorParallelSize {vllm.tensor_parallel_size} x "
                f"{vllm.gpus_per_replica // vllm.tensor_parallel_size} from --pipeline-parallel-size, "
                "--prefill-context-parallel-size and --data-parallel-size) is more than the "
                f"{gpu.gpus_per_instance} GPU(s) per {gpu.instance_types[0]}; allowed: at most "
                f"{gpu.gpus_per_instance} in all, or larger GPU instance types",
            )
        )
    if vllm.require_gpu_product and vllm.require_gpu_product != gpu.gpu_product:
        provided = f"{gpu.gpu_product!r}" if gpu.gpu_product else "no single product (mixed GPU models)"
        problems.append(
            ConfigProblem(
                "requireGpuProduct",
                f"{vllm.require_gpu_product!r} is not what the GPU node group provides; allowed: {provided}",
            )
        )
    return problems


def autoscaler_release_problems(version: str, instead: str, key: str = "version") -> list[ConfigProblem]:
    """A Kubernetes version without a pinned Cluster Autoscaler release, under `key`; `instead` names the way
    out besides a pinned version. The stack config and `ClusterAutoscalerArgs` both check this."""
    if version in versions.CLUSTER_AUTOSCALER_VERSIONS:
        return []
    known = ", ".join(versions.CLUSTER_AUTOSCALER_VERSIONS)
    return [
        ConfigProblem(
            key,
            f"{version!r} has no Cluster Autoscaler release pinned (facts/versions.py); allowed: {known}, or {instead}",
        )
    ]


def contract_problems(contract: PlacementContract, taint_key_name: str) -> list[ConfigProblem]:
    """The GPU nodes' extra labels and taints against the contract's own; keys `extraLabels.<key>` and
    `extraTaints`, `taint_key_name` naming the contract's taint key where it was set. The stack config and
    `PlacementArgs` both check these."""
    problems = []
    reserved = {contract.label_key, NVIDIA_GPU_PRESENT_LABEL, NVIDIA_GPU_PRODUCT_LABEL}
    for key in sorted(reserved & set(contract.extra_labels)):
        problems.append(
            ConfigProblem(
                f"extraLabels.{key}",
                f"{contract.extra_labels[key]!r} overrides a label the placement contract sets; allowed: other keys",
            )
        )
    if contract.taint.key in {taint.key for taint in contract.extra_taints}:
        problems.append(
            ConfigProblem(
                "extraTaints",
                f"repeats the contract taint key {contract.taint.key!r} ({taint_key_name}); allowed: other keys",
            )
        )
    taint_count = len(contract.node_taints())
    if taint_count > eks_model.MAX_TAINTS_PER_NODE_GROUP:
        problems.append(
            ConfigProblem(
                "extraTaints",
                f"{taint_count} taints with the contract taint; "
                f"allowed: at most {eks_model.MAX_TAINTS_PER_NODE_GROUP} per node group",
            )
        )
    return problems


class Settings(SectionModel):
    """The whole stack config, every section resolved to its defaults."""

    cluster: ClusterSettings = ClusterSettings()
    system_node_group: SystemNodeGroupSettings = SystemNodeGroupSettings()
    gpu_node_group: GpuNodeGroupSettings = GpuNodeGroupSettings()
    gpu_placement: GpuPlacementSettings = GpuPlacementSettings()
    vllm: VllmSettings = VllmSettings()
    device_plugin: DevicePluginSettings = DevicePluginSettings()
    network: NetworkSettings = NetworkSettings()
    autoscaler: AutoscalerSettings = AutoscalerSettings()
    observability: ObservabilitySettings = ObservabilitySettings()
    cost: CostSettings = CostSettings()
    hf_token: str | None = None
    """Hugging Face token for gated models, a secret: `pulumi config set --secret hfToken <token>` (plain text is
    rejected). Default none."""
    vllm_api_key: str | None = None
    """Key vLLM requires from clients (`Authorization: Bearer <key>`), given to it as `VLLM_API_KEY` from a Secret;
    a secret: `pulumi config set --secret vllmApiKey <key>` (plain text is rejected). A top-level key because
    Pulumi.yaml can declare only whole keys secret, not a value inside the `vllm` object. Default none (no
    key)."""

    @property
    def contract(self) -> PlacementContract:
        """The placement contract every GPU consumer derives from."""
        placement = self.gpu_placement
        return PlacementContract(
            label_key=placement.label_key,
            label_value=placement.label_value,
            taint=Taint(placement.taint_key, placement.taint_value, placement.taint_effect),
            extra_labels=dict(self.gpu_node_group.extra_labels),
            extra_taints=tuple(taint.to_taint() for taint in self.gpu_node_group.extra_taints),
            gpu_product=self.gpu_node_group.gpu_product,
        )

    @property
    def device_plugin_enabled(self) -> bool:
        if self.device_plugin.enabled is not None:
            return self.device_plugin.enabled
        return not ami_family_runs_device_plugin(self.gpu_node_group.ami_family)

    @property
    def creates_network(self) -> bool:
        """Whether the stack creates its own VPC (no `cluster.vpcId`, `network.mode` `create`)."""
        return not self.cluster.vpc_id and self.network.mode == "create"

    def problems(self) -> list[ConfigProblem]:
        """Checks across sections; keys are the config keys (`vllm.tensorParallelSize`)."""
        problems: list[ConfigProblem] = []
        gpu = self.gpu_node_group
        contract = self.contract
        vllm = self.vllm
        if vllm.enabled:
            problems.extend(problem.under("vllm") for problem in server_pool_problems(vllm, gpu))
        problems.extend(
            problem.under("gpuNodeGroup") for problem in contract_problems(contract, "gpuPlacement.taintKey")
        )
        if self.cluster.vpc_id and self.network.model_fields_set:
            problems.append(
                ConfigProblem(
                    "network",
                    f"is set while cluster.vpcId {self.cluster.vpc_id!r} brings its "
                    "own VPC; allowed: remove network, or unset cluster.vpcId to let the stack "
                    "create the VPC",
                )
            )
        if self.autoscaler.enabled:
            problems.extend(
                problem.under("cluster")
                for problem in autoscaler_release_problems(self.cluster.version, "autoscaler.enabled false")
            )
        if vllm.enabled and vllm.replicas > 0 and not self.autoscaler.enabled and gpu.desired_size == 0:
            # minSize <= desiredSize, so the group starts empty and only an autoscaler would add a node.
            problems.append(
                ConfigProblem(
                    "gpuNodeGroup.desiredSize",
                    f"0 with autoscaler.enabled false and vllm.replicas {vllm.replicas}: nothing ever adds a "
                    "GPU node, so the server's pods stay Pending; allowed: gpuNodeGroup.desiredSize 1 or more "
                    "(an autoscaler installed another way owns the size afterwards, down to minSize), "
                    "autoscaler.enabled true, or vllm.replicas 0",
                )
            )
        if self.device_plugin.enabled and ami_family_runs_device_plugin(gpu.ami_family):
            problems.append(
                ConfigProblem(
                    "devicePlugin.enabled",
                    "true with gpuNodeGroup.amiFamily 'Bottlerocket', whose "
                    "AMI runs the device plugin itself; allowed: false or unset",
                )
            )
        return problems


SECTIONS: dict[str, type[SectionModel]] = {
    "cluster": ClusterSettings,
    "systemNodeGroup": SystemNodeGroupSettings,
    "gpuNodeGroup": GpuNodeGroupSettings,
    "gpuPlacement": GpuPlacementSettings,
    "vllm": VllmSettings,
    "devicePlugin": DevicePluginSettings,
    "network": NetworkSettings,
    "autoscaler": AutoscalerSettings,
    "observability": ObservabilitySettings,
    "cost": CostSettings,
}
SECRET_KEYS = ("hfToken", "vllmApiKey")
TOP_LEVEL_KEYS = (*SECTIONS, *SECRET_KEYS)
# The checks across sections read these; one of them invalid (left at its default) would make them misleading.
_CROSS_CHECKED_SECTIONS = {"gpuNodeGroup", "gpuPlacement", "vllm", "devicePlugin", "systemNodeGroup"}


def parse_settings(values: Mapping[str, Any], project: str = PROJECT) -> Settings:
    """Build `Settings` from the config namespace's keys (without the `project:` prefix).

    Each section is checked on its own, so one bad section does not hide another's problems;
    checks across sections run on the sections that parsed. Problems are written `project:key`.
    """
    where = stack_config(project)
    problems: list[ConfigProblem] = []
    parsed: dict[str, Any] = {}
    for key, value in values.items():
        if key in SECTIONS:
            section, found = validate(SECTIONS[key], value, key, where)
            problems.extend(found)
            if section is not None:
                parsed[key] = section
        elif key in SECRET_KEYS:
            if value is not None and not isinstance(value, str):
                problems.append(
                    ConfigProblem(
                        key,
                        f"{type(value).__name__} value; allowed: a string (pulumi config set --secret {key} <value>)",
                        project,
                    )
                )
            elif value == "":
                # The value is secret: the message names the key only.
                problems.append(
                    ConfigProblem(key, "empty value; allowed: a non-empty string, or leave the key unset", project)
                )
            else:
                parsed[key] = value
        else:
            message = f"unknown key{_suggestion(key, TOP_LEVEL_KEYS)}; allowed: {', '.join(TOP_LEVEL_KEYS)}"
            problems.append(ConfigProblem(key, message, project))
    settings = Settings.model_validate(parsed, context={DEFER_PROBLEMS: True})
    bad_sections = {problem.key.split(".", 1)[0] for problem in problems}
    if not bad_sections & _CROSS_CHECKED_SECTIONS:
        problems.extend(problem.written(where) for problem in settings.problems())
    if problems:
        raise ConfigError(problems)
    return settings
