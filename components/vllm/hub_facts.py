"""The facts of a model outside the catalog, read from the Hugging Face Hub at `pulumi preview` and `up`: its
`config.json` and its safetensors headers at the pinned revision, with the stack's `hfToken` for a gated model.

The requests are huggingface_hub's own (2.4.0, requirements.txt): a GET of
`{endpoint}/{model}/resolve/{revision}/{file}` (`hf_hub_url`) with its headers (`build_hf_headers`: the user agent
and, given a token, `authorization: Bearer <token>`) for `config.json` and `model.safetensors.index.json`, and
for each safetensors file the ranged GETs of `HfApi.parse_safetensors_file_metadata` (`range: bytes=0-100000`,
then the rest of a longer header), the calls `HfApi.get_safetensors_metadata` makes, without its copies into the
local cache. The endpoint is `HF_ENDPOINT` as set when the read runs (huggingface_hub reads it once, at import).

Nothing here raises for the Hub's sake: a Hub that cannot be reached, a gated model without a token, a model or
revision it does not know, or files the fits gate cannot read become the read's `problem`, which the program
warns of, naming the model. With `HF_HUB_OFFLINE` set nothing is requested at all: the offline plan sets it, and
there the fits gate names the model as not checked.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from ..facts import gpu_catalog
from ..facts.identity import PROJECT
from ..facts.model_catalog import MODEL_FACTS_KEY
from ..facts.model_config import EXPERT_TENSOR, HubRead, ModelConfigError, facts_from_files
from ..facts.model_memory import model_fit
from ..settings.errors import ConfigProblem
from ..settings.fleet import Server, served_model
from ..settings.hub_models import HubReads, auto_models_to_read, described

# The fits gate's name, as the plan's verdict spells it (placement/model_fit.py, which this layer does not import).
NAME = "model-fits-gpu"

CONFIG_FILE = "config.json"
SINGLE_FILE = "model.safetensors"
INDEX_FILE = "model.safetensors.index.json"
DEFAULT_ENDPOINT = "https://huggingface.co"
# Seconds to wait for each answer: huggingface_hub's default for metadata requests (HF_HUB_ETAG_TIMEOUT, 10).
TIMEOUT_SECONDS = 10.0
# Headers read at once: the shards of a large checkpoint (163 for DeepSeek-V3) are read side by side, as
# get_safetensors_metadata does with hf_thread_map.
PARALLEL_READS = 8
# huggingface_hub's spelling of a true environment flag (constants.py `_is_true`, `ENV_VARS_TRUE_VALUES`).
_TRUE = {"1", "ON", "YES", "TRUE"}


def hub_offline() -> bool:
    """Whether `HF_HUB_OFFLINE` is set, read now rather than at huggingface_hub's import."""
    return os.environ.get("HF_HUB_OFFLINE", "").upper() in _TRUE


def read_model_facts(model: str, revision: str | None, token: str | None) -> HubRead:
    """The facts of `model` at `revision` (None: the default branch), with `token` for a gated model."""
    if hub_offline():
        return HubRead(None, offline=True)
    from httpx2 import HTTPError  # huggingface_hub's HTTP client, loaded only when a model is read
    from huggingface_hub.errors import RepositoryNotFoundError, SafetensorsParsingError

    endpoint = os.environ.get("HF_ENDPOINT", DEFAULT_ENDPOINT).rstrip("/")
    at = revision or "main"
    try:
        reader = _Reader(endpoint, model, revision, token)
        config = reader.json(CONFIG_FILE)
        stored, experts = reader.stored_elements()
        source = f"{endpoint}/{model} at revision {at}: {CONFIG_FILE} and safetensors headers, read at preview"
        return HubRead(facts_from_files(config, stored, source, experts))
    except (HTTPError, OSError, SafetensorsParsingError, ModelConfigError, json.JSONDecodeError) as error:
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        # The Hub answers a gated model, and one it does not show, with 401 to a request without a token.
        hint = " (a gated model needs hfToken)" if not token and isinstance(error, RepositoryNotFoundError) else ""
        return HubRead(None, f"{model} at revision {at} not read from {endpoint}{hint}: {reason}")


class _Reader:
    """huggingface_hub's requests for one model at one revision."""

    def __init__(self, endpoint: str, model: str, revision: str | None, token: str | None):
        from huggingface_hub import HfApi

        self.endpoint, self.model, self.revision = endpoint, model, revision
        # False, not None: only the stack's token is sent, never one saved on the machine that previews.
        self.token: str | bool = token or False
        self.api = HfApi(endpoint=endpoint, token=self.token)

    def json(self, filename: str) -> Any:
        from huggingface_hub import hf_hub_url
        from huggingface_hub.utils import build_hf_headers, get_session, hf_raise_for_status

        url = hf_hub_url(self.model, filename, revision=self.revision, endpoint=self.endpoint)
        response = get_session().get(url, headers=build_hf_headers(token=self.token), timeout=TIMEOUT_SECONDS)
        hf_raise_for_status(response)
        return json.loads(response.content)

    def stored_elements(self) -> tuple[dict[str, int], dict[str, int]]:
        """Elements stored per safetensors dtype, over the one file or every shard of the index: all of them, and
        those of the routed experts."""
        from huggingface_hub.errors import RemoteEntryNotFoundError

        try:
            weight_map = self.json(INDEX_FILE).get("weight_map")
        except RemoteEntryNotFoundError:
            weight_map = {"": SINGLE_FILE}
        if not isinstance(weight_map, dict) or not weight_map:
            raise ModelConfigError(f"{INDEX_FILE} has no weight_map")
        shards = sorted(set(weight_map.values()))
        with ThreadPoolExecutor(PARALLEL_READS) as pool:
            headers = list(pool.map(self._header, shards))
        counts: dict[str, int] = {}
        experts: dict[str, int] = {}
        for header in headers:
            for name, tensor in header.tensors.items():
                for tally in (counts, experts) if EXPERT_TENSOR in name else (counts,):
                    tally[tensor.dtype] = tally.get(tensor.dtype, 0) + tensor.parameter_count
        return counts, experts

    def _header(self, filename: str) -> Any:
        # The client sends its own token (`HfApi._build_hf_headers` falls back to it when a call gives none).
        return self.api.parse_safetensors_file_metadata(
            self.model, filename, revision=self.revision, timeout=TIMEOUT_SECONDS
        )


@dataclass(frozen=True)
class PreviewCheck:
    """The fits gate at preview for the servers whose model only the Hub describes."""

    problems: list[ConfigProblem]
    """A server whose model does not fit an instance type of its pool, keyed by its `model` setting."""
    warnings: list[str]
    """A model whose facts could not be read: not checked."""
    notes: list[str]
    """How each read model was counted, where it fits, or that the Hub was not asked (offline)."""


def auto_pool_reads(config: Mapping[str, Any], project: str = PROJECT) -> dict[tuple[str, str | None], HubRead]:
    """The models `pool: auto` must size that neither `modelFacts` nor the catalog describes, read from the Hub
    before the settings parse (`config` is the whole stack config, `project:key` -> value, as Pulumi hands it
    over), with the config's `hfToken`; the settings then rank pools by these facts."""
    prefix = f"{project}:"
    values = {key[len(prefix) :]: value for key, value in config.items() if key.startswith(prefix)}
    token = values.get("hfToken")
    token = token if isinstance(token, str) and token else None
    return {
        (model, revision): read_model_facts(model, revision, token) for model, revision in auto_models_to_read(values)
    }


def preview_fits(servers: Sequence[Server], token: str | None, reads: HubReads | None = None) -> PreviewCheck:
    """Each server whose model neither `modelFacts` nor the catalog describes, read from the Hub at its revision
    (or taken from `reads`, what `auto_pool_reads` read already) and sized on each instance type of its pool by
    the fits gate's arithmetic (facts/model_memory.py)."""
    problems: list[ConfigProblem] = []
    warnings: list[str] = []
    notes: list[str] = []
    for server in servers:
        vllm = server.settings
        if described(vllm):
            continue
        read = (reads or {}).get((vllm.model, vllm.revision)) or read_model_facts(vllm.model, vllm.revision, token)
        if read.offline:
            notes.append(f"{NAME}: {vllm.model} not read from the Hub (HF_HUB_OFFLINE is set): not checked")
            continue
        if read.facts is None:
            warnings.append(f"{NAME}: {read.problem}; the fits gate does not check it ({MODEL_FACTS_KEY} would)")
            continue
        served = dataclasses.replace(served_model(vllm, server.pool.label), facts=read.facts)
        for instance_type in server.pool.settings.instance_types:
            fit = model_fit(served, gpu_catalog.lookup(instance_type), instance_type)
            counted = f"{fit.reason} (counted as {fit.layout}; KV cache {fit.kv_cache}; facts from {read.facts.source})"
            if fit.fits is False:
                problems.append(
                    ConfigProblem(
                        f"{server.config_key}.model",
                        f"{counted}; allowed: a pool whose GPUs hold it, a larger tensorParallelSize, a shorter "
                        "maxModelLen, or a smaller or quantized model",
                    )
                )
            else:
                notes.append(f"{NAME}: {counted}")
    return PreviewCheck(problems, warnings, notes)


@contextlib.contextmanager
def hub_switches(endpoint: str | None) -> Iterator[None]:
    """huggingface_hub's switches as the read above finds them: offline (`HF_HUB_OFFLINE`, as the offline plan runs
    the program), or reading from `endpoint` (`HF_ENDPOINT`); the environment is restored after."""
    saved = {key: os.environ.get(key) for key in ("HF_HUB_OFFLINE", "HF_ENDPOINT")}
    if endpoint is None:
        os.environ["HF_HUB_OFFLINE"] = "1"
    else:
        os.environ.pop("HF_HUB_OFFLINE", None)
        os.environ["HF_ENDPOINT"] = endpoint
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
