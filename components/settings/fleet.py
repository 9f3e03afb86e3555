"""The fleet form of the stack config: several GPU pools (`gpuPools`) and models (`models`), beside the one-pool,
one-model form (`gpuNodeGroup` + `vllm`).

A pool takes every key `gpuNodeGroup` has; a model every key `vllm` has, plus its `name` and `pool`. Both forms
come down to the same thing, a list of `Pool`s and a list of `Server`s (`Settings.pools`, `Settings.servers`),
which the program turns into node groups and vLLM servers. `pool: auto` is resolved here, before any resource
exists, by the fits gate's own arithmetic (facts/model_memory.py).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

from ..facts import gpu_catalog, model_catalog, prices, vllm_image
from ..facts.contract import PlacementContract, Taint
from ..facts.kubernetes import INITIAL_NAMESPACES
from ..facts.model_facts import ModelFacts
from ..facts.model_memory import ModelFit, ServedModel, model_fit
from ..facts.node_agents import NODE_POOL_LABEL_KEY, SYSTEM_POOL_LABEL
from . import vllm_flags
from .errors import ConfigProblem, Where, suggestion
from .fields import rule
from .hub_models import AUTO_POOL, HubReads, auto_without_facts, described, hub_facts
from .node_groups import GpuNodeGroupSettings
from .section import validate
from .shared_prefix import shared_prefix_problems
from .startup import startup_memory_problems
from .vllm import VllmSettings

# `auto` chooses a pool; `system` names the system node group's nodes (NODE_POOL_LABEL_KEY).
RESERVED_POOL_NAMES = (AUTO_POOL, SYSTEM_POOL_LABEL[1])
# A pool or model name names node groups, Kubernetes objects and the Service clients call: an RFC 1035 label
# (a Service name), short enough that `<cluster>-gpu-<pool>` stays a readable resource name.
_NAME = re.compile(r"^[a-z]([-a-z0-9]{0,30}[a-z0-9])?$")
NAME_RULE = "1-32 lowercase letters, digits or '-', starting with a letter and ending with a letter or digit"
# A Hugging Face commit id; a revision in this form cannot move under the same config.
_COMMIT = re.compile(r"^[0-9a-f]{40}$")
# A release tag (`v1.0`, `2.1.3`): pinned by convention, unlike a branch.
_VERSION_TAG = re.compile(r"^v?\d+(\.\d+)*([-.+][0-9A-Za-z.]+)?$")


def is_name(value: str) -> bool:
    return bool(_NAME.match(value))


ModelName = Annotated[str, rule(is_name, NAME_RULE, "invalid name")]


class ModelSettings(VllmSettings):
    """One model of `models`: a vLLM server of its own, on one GPU pool. Every key of `vllm`, plus `name` and
    `pool`; `namespace` defaults to the model's name."""

    name: ModelName
    """The model's name in the stack: its vLLM server's Kubernetes objects and Service, and its namespace unless
    `namespace` is set; 1-32 lowercase letters, digits or '-', unique among the models."""
    pool: str = AUTO_POOL
    """The key of `gpuPools` the server runs on, or `auto`: the pool whose GPUs fit the model (the fits gate,
    `model-fits-gpu`) with the least GPU memory."""


@dataclass(frozen=True)
class Pool:
    """A GPU node group of the stack, in either form."""

    key: str | None
    """The pool's name in `gpuPools`; None for the one-pool form's `gpuNodeGroup`."""
    settings: GpuNodeGroupSettings

    @property
    def config_key(self) -> str:
        """Where the stack config sets it: `gpuNodeGroup` or `gpuPools.<name>`."""
        return "gpuNodeGroup" if self.key is None else f"gpuPools.{self.key}"

    @property
    def node_labels(self) -> dict[str, str]:
        """The label naming the pool on its nodes, which its servers require: none in the one-pool form."""
        return {} if self.key is None else {NODE_POOL_LABEL_KEY: self.key}

    @property
    def label(self) -> str:
        """How the config names the pool: `gpuNodeGroup` or the pool's name."""
        return self.key or "gpuNodeGroup"

    @property
    def node_pool_name(self) -> str:
        """The name of the pool's Karpenter NodePool and EC2NodeClass: `gpu`, or `gpu-<pool>`."""
        return "gpu" if self.key is None else f"gpu-{self.key}"

    def resource_name(self, cluster_name: str) -> str:
        """The name of the pool's `GpuNodeGroup`; the one-pool form keeps the name deployed stacks have."""
        return f"{cluster_name}-gpu" if self.key is None else f"{cluster_name}-gpu-{self.key}"


@dataclass(frozen=True)
class Server:
    """A vLLM server of the stack, in either form, with the pool it runs on."""

    name: str | None
    """The model's `name` in `models`; None for the one-model form's `vllm`."""
    settings: VllmSettings
    pool: Pool
    config_key: str
    """Where the stack config sets it: `vllm` or `models.<position>`."""
    pool_reason: str = ""
    """Why `pool: auto` chose this pool; empty when the config names the pool."""

    def resource_name(self, cluster_name: str) -> str:
        """The name of the server's `VllmServer`; the one-model form keeps the name deployed stacks have."""
        return f"{cluster_name}-vllm" if self.name is None else f"{cluster_name}-vllm-{self.name}"


def _is_mapping(value: Any) -> bool:
    return isinstance(value, Mapping)


def parse_pools(value: Any, where: Where) -> tuple[dict[str, GpuNodeGroupSettings] | None, list[ConfigProblem]]:
    """`gpuPools` validated: pool name -> the pool's settings, or None and every problem."""
    if not _is_mapping(value):
        return None, [
            ConfigProblem(
                "gpuPools", f"{type(value).__name__} value; allowed: a map of pool name -> the keys of gpuNodeGroup"
            ).written(where)
        ]
    if not value:
        return None, [ConfigProblem("gpuPools", "empty map; allowed: at least one pool").written(where)]
    pools: dict[str, GpuNodeGroupSettings] = {}
    problems: list[ConfigProblem] = []
    for name, data in value.items():
        key = f"gpuPools.{name}"
        if not isinstance(name, str) or not is_name(name) or name in RESERVED_POOL_NAMES:
            reserved = " or ".join(repr(reserved) for reserved in RESERVED_POOL_NAMES)
            problems.append(
                ConfigProblem(
                    "gpuPools", f"invalid pool name {name!r}; allowed: {NAME_RULE}, other than {reserved}"
                ).written(where)
            )
            continue
        if not _is_mapping(data):
            problems.append(
                ConfigProblem(key, f"{type(data).__name__} value; allowed: the keys of gpuNodeGroup").written(where)
            )
            continue
        pool, found = validate(GpuNodeGroupSettings, data, key, where)
        problems.extend(found)
        if pool is not None:
            pools[name] = pool
    return (None if problems else pools), problems


def parse_models(value: Any, where: Where) -> tuple[list[ModelSettings] | None, list[ConfigProblem]]:
    """`models` validated: each model's settings in order, or None and every problem."""
    if not isinstance(value, Sequence) or isinstance(value, str):
        return None, [
            ConfigProblem(
                "models", f"{type(value).__name__} value; allowed: a list of models, each with name, model and pool"
            ).written(where)
        ]
    models: list[ModelSettings] = []
    problems: list[ConfigProblem] = []
    for index, data in enumerate(value):
        key = f"models.{index}"
        if not _is_mapping(data):
            problems.append(
                ConfigProblem(
                    key, f"{type(data).__name__} value; allowed: the keys of vllm, with name and pool"
                ).written(where)
            )
            continue
        name = data.get("name")
        # The namespace defaults to the model's name (`vllm`'s default would put every model in one namespace).
        defaults = {"namespace": name} if isinstance(name, str) and is_name(name) else {}
        if "namespace" not in data and defaults.get("namespace") in INITIAL_NAMESPACES:
            # The namespace stands for the name here, so the name is the key the user wrote.
            problems.append(
                ConfigProblem(
                    f"{key}.name",
                    f"{name!r} would name the model's namespace (namespace is not set), and every cluster has "
                    f"{name!r}, which the server would take over and delete on destroy; allowed: another name, or "
                    "namespace set to one of its own",
                ).written(where)
            )
            defaults = {}
        model, found = validate(ModelSettings, {**defaults, **data}, key, where)
        problems.extend(found)
        if model is not None:
            models.append(model)
    return (None if problems else models), problems


def served_model(settings: VllmSettings, pool: str, hub: ModelFacts | None = None) -> ServedModel:
    """`settings` as the fits gate sizes it on `pool`, with its facts (the config's `modelFacts`, else the
    catalog's, else `hub`, what the Hub gave at preview)."""
    facts = settings.model_facts.facts() if settings.model_facts else model_catalog.lookup(settings.model) or hub
    extra = vllm_flags.check(settings.extra_args)
    return ServedModel(
        settings.model,
        pool,
        settings.tensor_parallel_size,
        settings.max_model_len,
        settings.gpu_memory_utilization,
        facts,
        kv_cache_dtype=extra.kv_cache_dtype,
        context_overridden=extra.overrides_hf_config,
        pipeline_parallel_size=extra.pipeline_parallel_size,
        max_num_batched_tokens=extra.max_num_batched_tokens,
        dtype=extra.dtype,
        data_parallel_size=extra.data_parallel_size,
        expert_parallel=extra.expert_parallel,
        max_num_seqs=extra.capture.max_num_seqs,
        performance_mode=extra.capture.performance_mode,
        chunked_prefill=extra.chunked_prefill,
        encoder=extra.encoder,
    )


def pool_fits(settings: VllmSettings, pool: Pool, hub: ModelFacts | None = None) -> list[ModelFit]:
    """The fits gate's row for `settings` (facts from the Hub: `hub`) on each instance type of `pool`."""
    model = served_model(settings, pool.label, hub)
    return [
        model_fit(model, gpu_catalog.lookup(instance_type), instance_type)
        for instance_type in pool.settings.instance_types
    ]


def node_price(pool: Pool, region: str | None) -> float | None:
    """The on-demand hourly price of one node of `pool` in `region` (its first instance type, which EKS fills
    first), or None when unknown."""
    if region is None:
        return None
    price = prices.on_demand(pool.settings.instance_types[0], region)
    return None if price is None else price.usd_per_hour


def server_pool_problems(
    vllm: VllmSettings, gpu: GpuNodeGroupSettings, pool: str = "the GPU node group"
) -> list[ConfigProblem]:
    """A vLLM server against the GPU node group it runs on (named `pool` in the messages); keys inside the server's
    settings (`tensorParallelSize`, `extraArgs`). The stack config and `VllmServerArgs` both check these."""
    problems = []
    if vllm.tensor_parallel_size > gpu.gpus_per_instance:
        problems.append(
            ConfigProblem(
                "tensorParallelSize",
                f"{vllm.tensor_parallel_size!r} is more than the "
                f"{gpu.gpus_per_instance} GPU(s) per {gpu.instance_types[0]}; allowed: "
                f"{'1' if gpu.gpus_per_instance == 1 else f'1-{gpu.gpus_per_instance}'}, or larger GPU instance types",
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
    problems += startup_memory_problems(vllm, gpu)
    if vllm.require_gpu_product and vllm.require_gpu_product != gpu.gpu_product:
        provided = f"{gpu.gpu_product!r}" if gpu.gpu_product else "no single product (mixed GPU models)"
        problems.append(
            ConfigProblem(
                "requireGpuProduct",
                f"{vllm.require_gpu_product!r} is not what {pool} provides; allowed: {provided}",
            )
        )
    return problems


def image_pool_problems(image: str, pool: Pool) -> list[str]:
    """Why `image` cannot run on `pool`'s instance types: a CPU architecture the image is not published for, or a
    GPU its build for that architecture carries no kernels for (facts/vllm_image.py). Empty for an image whose
    build facts are unknown: what cannot be known narrows nothing (the gpu-driver-knows-the-gpu verdict reports it).
    """
    build = vllm_image.image_build(image)
    if build is None:
        return []
    problems = []
    for instance_type in pool.settings.instance_types:
        entry = gpu_catalog.lookup(instance_type)
        architecture = gpu_catalog.architecture_of(instance_type)
        if architecture is None:
            continue
        if architecture not in build.platforms:
            problems.append(f"{image} is not published for {architecture}, the CPU of {instance_type}")
        elif (
            entry
            and entry.gpu_compute_capability
            and not vllm_image.runs_on(build, architecture, entry.gpu_compute_capability)
        ):
            capability = ".".join(map(str, entry.gpu_compute_capability))
            problems.append(
                f"the {architecture} build of {image} carries no kernels for the {entry.gpu_model} of "
                f"{instance_type} (compute capability {capability})"
            )
    return problems


def choose_pool(
    settings: VllmSettings, pools: Sequence[Pool], region: str | None = None, hub: ModelFacts | None = None
) -> tuple[Pool | None, str]:
    """`pool: auto`: among the pools the server can run on at all (`server_pool_problems`: as many GPUs per node as
    its world size, tensor x pipeline x prefill context x data parallel, and `requireGpuProduct`; a CPU and GPU
    the image runs on, `image_pool_problems`), the pool whose
    every instance type fits the model, with the least GPU memory per GPU (to a tenth of a GiB: an A10G and an L4
    count alike), then the lowest on-demand node price in `region` where known, then the fewest GPUs per node,
    then the name; and why. (None, why not) when none fits or the model's facts are unknown. `hub`: the facts the
    Hub gave of a model the stack does not describe."""
    fitting = []
    refused = []
    for pool in pools:
        # What decides fit is filtered before anything ranks: a pool the server would be refused on never wins.
        cannot = [
            problem.message.partition("; allowed")[0]
            for problem in server_pool_problems(settings, pool.settings, pool.label)
        ]
        cannot += image_pool_problems(settings.image, pool)
        if cannot:
            refused.append(f"pool {pool.label}: " + ", and ".join(cannot))
            continue
        fits = pool_fits(settings, pool, hub)
        if any(fit.fits is None for fit in fits):
            return None, next(fit.reason for fit in fits if fit.fits is None)
        if all(fit.fits for fit in fits):
            memory = round(max(fit.usable_gib_per_gpu or 0.0 for fit in fits), 1)
            price = node_price(pool, region)
            rank = (memory, math.inf if price is None else price, pool.settings.gpus_per_instance, pool.label)
            fitting.append((rank, pool))
        else:
            refused.append(next(fit.reason for fit in fits if not fit.fits))
    if not fitting:
        return None, "no pool fits: " + "; ".join(refused)
    fitting.sort(key=lambda row: row[0])
    (memory, price, _, label), chosen = fitting[0]
    reason = f"pool auto: {chosen.label}, the least GPU memory that fits ({memory:.1f} GiB usable per GPU)"
    alike = [row for row in fitting if row[0][0] == memory]
    if len(alike) > 1 and price != math.inf:
        reason += f", the cheapest of {len(alike)} with as much (${price:.3f} an hour per node in {region})"
    if len(fitting) == 1:
        return chosen, reason + ", the only pool that fits"
    return chosen, reason + f", of {len(fitting)} pools that fit"


def pool_contract(
    contract: PlacementContract, pool: GpuNodeGroupSettings, node_labels: dict[str, str] | None = None
) -> PlacementContract:
    """`contract` (the label and taint every pool shares) with one pool's own labels (`node_labels` too), taints
    and GPU product."""
    return PlacementContract(
        label_key=contract.label_key,
        label_value=contract.label_value,
        taint=contract.taint,
        extra_labels={**pool.extra_labels, **(node_labels or {})},
        extra_taints=tuple(taint.to_taint() for taint in pool.extra_taints),
        gpu_product=pool.gpu_product,
    )


def every_pool_contract(contract: PlacementContract, pools: Sequence[Pool]) -> PlacementContract:
    """The contract the DaemonSets of every GPU node (device plugin, DCGM exporter) follow: the shared label and
    taint, and every pool's own taints, each once (`fleet_problems` holds a key to one value and effect)."""
    taints: list[Taint] = []
    for pool in pools:
        for taint in pool.settings.extra_taints:
            if taint.to_taint() not in taints:
                taints.append(taint.to_taint())
    products = {pool.settings.gpu_product for pool in pools}
    return PlacementContract(
        label_key=contract.label_key,
        label_value=contract.label_value,
        taint=contract.taint,
        extra_taints=tuple(taints),
        gpu_product=products.pop() if len(products) == 1 else None,
    )


def fleet_problems(pools: Sequence[Pool], models: Sequence[ModelSettings]) -> list[ConfigProblem]:
    """The rules of the fleet form across pools and models; keys `gpuPools.<name>...` and `models.<n>...`."""
    problems: list[ConfigProblem] = []
    names = [pool.key or "" for pool in pools]
    families = {pool.settings.ami_family for pool in pools}
    if len(families) > 1:
        first = pools[0]
        for pool in pools[1:]:
            if pool.settings.ami_family != first.settings.ami_family:
                problems.append(
                    ConfigProblem(
                        f"{pool.config_key}.amiFamily",
                        f"{pool.settings.ami_family!r} while pool {first.key} has {first.settings.ami_family!r}; "
                        "allowed: one AMI family for every pool (Bottlerocket runs the device plugin on the host, "
                        "the other AMIs need the one device-plugin DaemonSet of every pool)",
                    )
                )
    seen_taints: dict[str, tuple[str, Taint]] = {}
    for pool in pools:
        for index, taint in enumerate(pool.settings.extra_taints):
            earlier = seen_taints.setdefault(taint.key, (pool.key or "", taint.to_taint()))
            if earlier[1] != taint.to_taint():
                problems.append(
                    ConfigProblem(
                        f"{pool.config_key}.extraTaints.{index}",
                        f"taint {taint.key!r} is {taint.value!r}:{taint.effect} here and "
                        f"{earlier[1].value!r}:{earlier[1].effect} in pool {earlier[0]}; allowed: the same value and "
                        "effect in every pool that has the key (the device plugin and the DCGM exporter tolerate "
                        "each once)",
                    )
                )
    for pool in pools:
        if NODE_POOL_LABEL_KEY in pool.settings.extra_labels:
            problems.append(
                ConfigProblem(
                    f"{pool.config_key}.extraLabels.{NODE_POOL_LABEL_KEY}",
                    f"{pool.settings.extra_labels[NODE_POOL_LABEL_KEY]!r} overrides the label naming the pool, which "
                    "the stack sets to the pool's name and its models require; allowed: other keys",
                )
            )
    model_names: dict[str, int] = {}
    namespaces: dict[str, str] = {}
    for index, model in enumerate(models):
        key = f"models.{index}"
        if model.name in model_names:
            problems.append(
                ConfigProblem(
                    f"{key}.name",
                    f"{model.name!r} is also models.{model_names[model.name]}'s; allowed: a name no other model has",
                )
            )
        model_names.setdefault(model.name, index)
        if model.namespace in namespaces and namespaces[model.namespace] != model.name:
            problems.append(
                ConfigProblem(
                    f"{key}.namespace",
                    f"{model.namespace!r} is also model {namespaces[model.namespace]}'s; allowed: a namespace of its "
                    "own (each server owns its namespace and deletes it on destroy)",
                )
            )
        namespaces.setdefault(model.namespace, model.name)
        if model.pool != AUTO_POOL and model.pool not in names:
            allowed = ", ".join([*names, AUTO_POOL])
            problems.append(
                ConfigProblem(f"{key}.pool", f"unknown pool{suggestion(model.pool, names)}; allowed: {allowed}")
            )
    return problems + shared_prefix_problems(models)


def resolve_servers(
    pools: Sequence[Pool], models: Sequence[ModelSettings], region: str | None = None, hub_reads: HubReads | None = None
) -> tuple[list[Server], list[ConfigProblem]]:
    """Each enabled model with its pool, `auto` resolved (prices of `region` breaking ties; a model the stack does
    not describe sized by what the Hub gave, `hub_reads`); a model whose pool cannot be resolved is a problem."""
    by_name = {pool.key: pool for pool in pools}
    servers: list[Server] = []
    problems: list[ConfigProblem] = []
    for index, model in enumerate(models):
        key = f"models.{index}"
        if not model.enabled:
            continue
        if model.pool != AUTO_POOL:
            if model.pool in by_name:
                servers.append(Server(model.name, model, by_name[model.pool], key))
            continue
        hub = None
        if not described(model):
            hub = hub_facts(model, hub_reads)
            if hub is None:
                problems.append(auto_without_facts(key, model, hub_reads, [pool.label for pool in pools]))
                continue
        chosen, reason = choose_pool(model, pools, region, hub)
        if chosen is None:
            names = ", ".join(pool.label for pool in pools)
            problems.append(
                ConfigProblem(
                    f"{key}.pool", f"'auto' finds no pool for {model.model}: {reason}; allowed: one of {names}"
                )
            )
            continue
        servers.append(Server(model.name, model, chosen, key, reason))
    return servers, problems


def revision_warning(key: str, revision: str | None) -> str | None:
    """A warning for a `revision` that may move: not a commit id, nor a release tag (a branch such as `main`)."""
    if revision is None or _COMMIT.match(revision) or _VERSION_TAG.match(revision):
        return None
    return (
        f"{key}: revision {revision!r} looks like a branch: the weights it names can change under the same config; "
        "pin a commit id (40 hex digits) or a release tag"
    )
