"""The whole stack config: every section resolved to its defaults, the checks across sections, and
`parse_settings`, which checks the config namespace's keys all at once."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from pydantic import PrivateAttr

from ..facts import eks_model, versions
from ..facts.contract import NVIDIA_GPU_PRESENT_LABEL, NVIDIA_GPU_PRODUCT_LABEL, PlacementContract, Taint
from ..facts.eks_node import ami_family_runs_device_plugin
from ..facts.identity import PROJECT
from .autoscaler import AutoscalerSettings
from .cluster import ClusterSettings
from .cold_start_profile import fast_pool, fast_server
from .cost import CostSettings
from .device_plugin import DevicePluginSettings
from .errors import ConfigError, ConfigProblem, stack_config, suggestion
from .fleet import (
    ModelSettings,
    Pool,
    Server,
    every_pool_contract,
    fleet_problems,
    parse_models,
    parse_pools,
    pool_contract,
    resolve_servers,
    server_pool_problems,
)
from .gpu_placement import GpuPlacementSettings
from .hub_models import HubReads
from .network import NetworkSettings
from .node_groups import GpuNodeGroupSettings, SystemNodeGroupSettings
from .observability import ObservabilitySettings
from .section import DEFER_PROBLEMS, SectionModel, validate
from .vllm import VllmSettings


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
    gpu_pools: dict[str, GpuNodeGroupSettings] = {}
    """The fleet form's GPU pools: pool name -> the keys of `gpuNodeGroup`, each pool a node group of its own under
    the one placement contract. Not with `gpuNodeGroup` or `vllm`. Default none (the one-pool form)."""
    models: list[ModelSettings] = []
    """The fleet form's models, each a vLLM server of its own on a pool of `gpuPools`: the keys of `vllm`, plus
    `name` and `pool`. Default none."""
    region: str | None = None
    """The AWS region the stack runs in (`aws:region`), set by the stack config reader once it has checked it (not
    a key of the project's namespace): its prices break ties of `pool: auto`. Default unknown."""
    hf_token: str | None = None
    """Hugging Face token for gated models, a secret: `pulumi config set --secret hfToken <token>` (plain text is
    rejected). Default none."""
    vllm_api_key: str | None = None
    """Key vLLM requires from clients (`Authorization: Bearer <key>`), given to it as `VLLM_API_KEY` from a Secret;
    a secret: `pulumi config set --secret vllmApiKey <key>` (plain text is rejected). A top-level key because
    Pulumi.yaml can declare only whole keys secret, not a value inside the `vllm` object. Default none (no
    key)."""
    _hub_reads: HubReads | None = PrivateAttr(default=None)
    """What the Hub told at preview of the models `pool: auto` must size and the stack does not describe, set by
    `parse_settings` (hub_models.py); None when nothing was read (offline)."""

    @property
    def fleet(self) -> bool:
        """Whether the config uses the fleet form (`gpuPools`, `models`)."""
        return bool(self.model_fields_set & {"gpu_pools", "models"})

    @property
    def pools(self) -> list[Pool]:
        """The GPU node groups: `gpuNodeGroup`, or each pool of `gpuPools` in the config's order."""
        if self.fleet:
            return [Pool(key, self._profiled(pool)) for key, pool in self.gpu_pools.items()]
        return [Pool(None, self._profiled(self.gpu_node_group))]

    def _profiled(self, pool: GpuNodeGroupSettings) -> GpuNodeGroupSettings:
        """`pool` with its cold-start profile's choices (`coldStart: fast`)."""
        if pool.cold_start != "fast":
            return pool
        return fast_pool(pool, self.zones_known)[0]

    @property
    def zones_known(self) -> bool:
        """Whether the GPU nodes' zones are known before deploy: the stack's network, or private subnets given."""
        return self.creates_network or bool(self.cluster.private_subnet_ids)

    @property
    def servers(self) -> list[Server]:
        """The vLLM servers that run: `vllm` when enabled, or each enabled model of `models` with its pool
        (`auto` resolved; a model it cannot place is a problem of `problems`, and left out here)."""
        if self.fleet:
            servers = resolve_servers(self.pools, self.models, self.region, self._hub_reads)[0]
        else:
            servers = [Server(None, self.vllm, self.pools[0], "vllm")] if self.vllm.enabled else []
        # The pool's cold-start profile sets its servers' probes and compile cache.
        return [
            dataclasses.replace(server, settings=fast_server(server.settings)[0])
            if server.pool.settings.cold_start == "fast"
            else server
            for server in servers
        ]

    @property
    def contract(self) -> PlacementContract:
        """The placement contract every GPU consumer derives from: in the fleet form, the shared label and taint
        with every pool's own taints (what the DaemonSets of every GPU node tolerate)."""
        placement = self.gpu_placement
        shared = PlacementContract(
            label_key=placement.label_key,
            label_value=placement.label_value,
            taint=Taint(placement.taint_key, placement.taint_value, placement.taint_effect),
        )
        if self.fleet:
            return every_pool_contract(shared, self.pools)
        return pool_contract(shared, self.gpu_node_group)

    def pool_contract(self, pool: Pool) -> PlacementContract:
        """The contract of one pool's nodes and of the servers on it: the shared label and taint, the pool's own
        labels, taints and GPU product."""
        return pool_contract(self.contract, pool.settings, pool.node_labels)

    @property
    def gpu_ami_family(self) -> str:
        """The AMI family of the GPU nodes (one for every pool)."""
        return self.pools[0].settings.ami_family

    @property
    def node_repair(self) -> bool:
        """Whether a node-group or Karpenter GPU pool has node auto repair, so `EksCluster` installs the node
        monitoring agent (Auto Mode nodes have EKS's own)."""
        return any(pool.settings.node_repair and not pool.settings.auto_mode for pool in self.pools)

    @property
    def gpu_instance_types(self) -> list[str]:
        """Every pool's instance types, each once, in the config's order."""
        return list(dict.fromkeys(name for pool in self.pools for name in pool.settings.instance_types))

    @property
    def device_plugin_enabled(self) -> bool:
        if self.device_plugin.enabled is not None:
            return self.device_plugin.enabled
        # Auto Mode's nodes run the device plugin themselves (facts/auto_mode.py).
        return not ami_family_runs_device_plugin(self.gpu_ami_family) and not all(
            pool.settings.auto_mode for pool in self.pools
        )

    @property
    def installs_karpenter(self) -> bool:
        """Whether a GPU pool's provisioner is Karpenter, so the stack installs it."""
        return any(pool.settings.karpenter for pool in self.pools)

    @property
    def installs_autoscaler(self) -> bool:
        """Whether the stack installs the Cluster Autoscaler: enabled, and a node-group GPU pool to scale."""
        return self.autoscaler.enabled and any(pool.settings.node_group for pool in self.pools)

    @property
    def installs_auto_mode(self) -> bool:
        """Whether a GPU pool's provisioner is EKS Auto Mode, so the cluster enables its compute configuration."""
        return any(pool.settings.auto_mode for pool in self.pools)

    @property
    def creates_network(self) -> bool:
        """Whether the stack creates its own VPC (no `cluster.vpcId`, `network.mode` `create`)."""
        return not self.cluster.vpc_id and self.network.mode == "create"

    def problems(self) -> list[ConfigProblem]:
        """Checks across sections; keys are the config keys (`vllm.tensorParallelSize`)."""
        problems: list[ConfigProblem] = []
        form = self.form_problems()
        if form:
            return form
        pools = self.pools
        servers = self.servers
        if self.fleet:
            problems += fleet_problems(pools, self.models)
            problems += resolve_servers(pools, self.models, hub_reads=self._hub_reads)[1]
        for server in servers:
            problems.extend(
                problem.under(server.config_key)
                # A fleet's model names the pool it runs on; the one pool is the GPU node group.
                for problem in server_pool_problems(
                    server.settings,
                    server.pool.settings,
                    server.pool.config_key if self.fleet else "the GPU node group",
                )
            )
        for pool in pools:
            problems.extend(
                problem.under(pool.config_key)
                for problem in contract_problems(self.pool_contract(pool), "gpuPlacement.taintKey")
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
        for pool in pools:
            on_pool = [server for server in servers if server.pool == pool and server.settings.replicas > 0]
            if on_pool and not self.autoscaler.enabled and pool.settings.desired_size == 0 and pool.settings.node_group:
                # minSize <= desiredSize, so the group starts empty and only an autoscaler would add a node.
                replicas = " and ".join(
                    f"{server.config_key}.replicas {server.settings.replicas}" for server in on_pool
                )
                zero = " or ".join(f"{server.config_key}.replicas 0" for server in on_pool)
                problems.append(
                    ConfigProblem(
                        f"{pool.config_key}.desiredSize",
                        f"0 with autoscaler.enabled false and {replicas}: nothing ever adds a "
                        f"GPU node, so the server's pods stay Pending; allowed: {pool.config_key}.desiredSize 1 or more "
                        "(an autoscaler installed another way owns the size afterwards, down to minSize), "
                        f"autoscaler.enabled true, or {zero}",
                    )
                )
        karpenter_pools = [pool.config_key for pool in pools if pool.settings.karpenter]
        if karpenter_pools and not self.creates_network and not self.cluster.private_subnet_ids:
            problems.append(
                ConfigProblem(
                    f"{karpenter_pools[0]}.provisioner",
                    "'karpenter' without private subnets to tag for it; allowed: network.mode 'create' (the stack's "
                    "own VPC), cluster.privateSubnetIds, or provisioner 'nodeGroup'",
                )
            )
        if not self.creates_network and not self.cluster.private_subnet_ids:
            # The stack registers a restore per zone (pools/fast_snapshot_restore.py): a default VPC's are unknown.
            problems.extend(
                ConfigProblem(
                    f"{pool.config_key}.fastSnapshotRestore",
                    "true without the zones the GPU nodes launch in known before deploy (a default VPC); allowed: "
                    "network.mode 'create', cluster.privateSubnetIds, or fastSnapshotRestore false",
                )
                for pool in pools
                if pool.settings.fast_snapshot_restore
            )
        auto_pools = [pool.config_key for pool in pools if pool.settings.auto_mode]
        if auto_pools and karpenter_pools:
            # Both read the karpenter.sh NodePool API; AWS suggests one or the other (EKS user guide,
            # automode/automode-learn-instances.adoc at 06faff1: both "during a migration or in an advanced
            # configuration").
            problems.append(
                ConfigProblem(
                    f"{auto_pools[0]}.provisioner",
                    f"'autoMode' beside Karpenter pools ({', '.join(karpenter_pools)}); allowed: one of 'karpenter' "
                    "and 'autoMode' in a stack (both run the karpenter.sh NodePool API), or 'nodeGroup'",
                )
            )
        if self.device_plugin.enabled and ami_family_runs_device_plugin(self.gpu_ami_family):
            problems.append(
                ConfigProblem(
                    "devicePlugin.enabled",
                    f"true with {pools[0].config_key}.amiFamily 'Bottlerocket', whose "
                    "AMI runs the device plugin itself; allowed: false or unset",
                )
            )
        return problems

    def form_problems(self) -> list[ConfigProblem]:
        """The one-pool form (`gpuNodeGroup`, `vllm`) and the fleet form (`gpuPools`, `models`) are not mixed, and
        models need pools."""
        single = [key for key, name in _SINGLE_FORM.items() if name in self.model_fields_set]
        fleet = [key for key, name in _FLEET_FORM.items() if name in self.model_fields_set]
        if single and fleet:
            return [
                ConfigProblem(
                    fleet[0],
                    f"is set with {' and '.join(single)}; allowed: one form, gpuNodeGroup and vllm (one pool, one "
                    "model) or gpuPools and models (several)",
                )
            ]
        if fleet == ["models"]:
            return [ConfigProblem("models", "is set without gpuPools; allowed: gpuPools with the pools they run on")]
        return []


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
COLLECTIONS = {"gpuPools": parse_pools, "models": parse_models}
"""The fleet form's keys, a map and a list of sections, each checked by its parser."""
SECRET_KEYS = ("hfToken", "vllmApiKey")
TOP_LEVEL_KEYS = (*SECTIONS, *COLLECTIONS, *SECRET_KEYS)
# The checks across sections read these; one of them invalid (left at its default) would make them misleading.
_CROSS_CHECKED_SECTIONS = {"gpuNodeGroup", "gpuPlacement", "vllm", "devicePlugin", "systemNodeGroup", *COLLECTIONS}
# Config key -> field of each form.
_SINGLE_FORM = {"gpuNodeGroup": "gpu_node_group", "vllm": "vllm"}
_FLEET_FORM = {"gpuPools": "gpu_pools", "models": "models"}


def parse_settings(values: Mapping[str, Any], project: str = PROJECT, hub_reads: HubReads | None = None) -> Settings:
    """Build `Settings` from the config namespace's keys (without the `project:` prefix), with what the Hub told of
    the models `pool: auto` sizes (`hub_reads`, keyed as hub_models.auto_models_to_read names them).

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
        elif key in COLLECTIONS:
            collection, found = COLLECTIONS[key](value, where)
            problems.extend(found)
            if collection is not None:
                parsed[key] = collection
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
            message = f"unknown key{suggestion(key, TOP_LEVEL_KEYS)}; allowed: {', '.join(TOP_LEVEL_KEYS)}"
            problems.append(ConfigProblem(key, message, project))
    settings = Settings.model_validate(parsed, context={DEFER_PROBLEMS: True})
    settings._hub_reads = hub_reads
    bad_sections = {problem.key.split(".", 1)[0] for problem in problems}
    if not bad_sections & _CROSS_CHECKED_SECTIONS:
        problems.extend(problem.written(where) for problem in settings.problems())
    if problems:
        raise ConfigError(problems)
    return settings
