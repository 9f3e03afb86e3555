"""The `vllm serve` arguments of the server's container: pure functions of the settings and the container's memory
limit; components/vllm/manifests.py puts them into the pod spec, components/vllm/server.py once the weights' bucket
is known."""

from __future__ import annotations

from ..facts import cold_start, runai_streamer
from ..facts.quantity import parse_quantity
from ..facts.serving_memory import streamer_bound
from ..settings import VllmSettings
from .sizing import shm_size

PORT = 8000


def container_args(
    settings: VllmSettings,
    weights_uri: str | None = None,
    memory_limit: str | None = None,
    baseline_gbps: float | None = None,
) -> list[str]:
    """`vllm serve` arguments: the model first, then parallelism and memory from settings, the port, `extraArgs`.

    Weights from S3 (`weights_uri`, `s3://<bucket>/<prefix>`, or the settings' own when they name the bucket) are
    the positional model, read by the Run:ai model streamer (`--load-format runai_streamer`; an `s3://` model is
    object storage to it, vllm/transformers_utils/runai_utils.py `is_runai_obj_uri`); clients still name the model
    by its id. Its `--model-loader-extra-config` is one JSON document every setting that writes it adds to
    (`loader_extra_config`).

    The image's entrypoint is `vllm serve` (docker/Dockerfile, `vllm-openai` stage), so these are its
    arguments. The model is the positional `model_tag`: vLLM 0.32 warns that `--model` "will be removed
    in a future version", and rejects `--served-model-name` when no positional model comes first
    (vllm/utils/argparse_utils.py, FlexibleArgumentParser.parse_args, at v0.32.0).
    """
    uri = weights_uri or settings.weights_uri
    args = [
        uri or settings.model,
        "--served-model-name",
        settings.model_name,
        "--tensor-parallel-size",
        str(settings.tensor_parallel_size),
        "--max-model-len",
        str(settings.max_model_len),
        "--gpu-memory-utilization",
        f"{settings.gpu_memory_utilization:g}",
        "--port",
        str(PORT),
        "--shutdown-timeout",
        str(settings.shutdown_timeout_seconds),
    ]
    # From S3 the revision is the copied prefix's, not one vLLM asks the Hub for.
    if settings.revision and settings.source.type != "s3":
        args += ["--revision", settings.revision]
    if uri:
        args += ["--load-format", "runai_streamer"]
        document = loader_extra_config(settings, memory_limit, baseline_gbps)
        if document:
            args += [runai_streamer.EXTRA_CONFIG_FLAG, runai_streamer.extra_config_document(document)]
    return [*args, *settings.extra_args]


def streamer_concurrency(settings: VllmSettings, baseline_gbps: float | None) -> int | None:
    """The streamer's S3 connections: `source.concurrency`, else what fills the sizing instance's baseline network
    bandwidth when the streamer's default does not (facts/cold_start.py `default_concurrency`), else None (its own
    default)."""
    return settings.source.concurrency or cold_start.default_concurrency(baseline_gbps)


def loader_extra_config(
    settings: VllmSettings, memory_limit: str | None, baseline_gbps: float | None = None
) -> dict[str, int]:
    """The keys of `--model-loader-extra-config` for weights streamed from S3 (facts/runai_streamer.py): the
    streamer's concurrent clients (`streamer_concurrency`, from the instance's `baseline_gbps` by default), and its CPU buffer bound per GPU worker, sized from the
    container's `memory_limit` so that its processes, its `/dev/shm` and every worker's buffer stay within 90% of
    it (facts/serving_memory.py `streamer_bound`); without the bound the buffer is the weights' size up to 40 GB
    per worker, which OOM-kills a 7B model's server on a 16 GiB instance while it loads."""
    document = {}
    concurrency = streamer_concurrency(settings, baseline_gbps)
    if concurrency:
        document[runai_streamer.CONCURRENCY_KEY] = concurrency
    if memory_limit is not None:
        gpus = settings.gpus_per_replica
        shm = parse_quantity(shm_size(gpus))
        document[runai_streamer.MEMORY_LIMIT_KEY] = streamer_bound(
            float(parse_quantity(memory_limit)), gpus, float(shm)
        )
    return document
