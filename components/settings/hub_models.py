"""`pool: auto` for a model neither the model catalog nor `modelFacts` describes: its facts come from the Hugging
Face Hub, which the program reads at `pulumi preview` and `up` (vllm/hub_facts.py) before the settings resolve
`auto`, so `auto` ranks the pools by the same rules as for a catalog model.

Which models the program reads first is decided here from the raw config (`auto_models_to_read`), since the
settings cannot parse without the facts; the reads come back keyed by (model, revision) (`HubReads`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..facts import model_catalog
from ..facts.model_config import HubRead
from ..facts.model_facts import ModelFacts
from .errors import ConfigProblem
from .vllm import VllmSettings

ModelRevision = tuple[str, str | None]
"""A model of the Hub at a revision (None: its default branch)."""
HubReads = Mapping[ModelRevision, HubRead]
"""What the Hub told of each model `auto_models_to_read` named."""
AUTO_POOL = "auto"
# Both spellings of the key a model's facts are given under (the stack config's, and the Python field name
# component arguments may use).
_MODEL_FACTS_KEYS = ("modelFacts", "model_facts")


def auto_models_to_read(values: Mapping[str, Any]) -> list[ModelRevision]:
    """The models of `models` (the project's keys, not yet validated) that `pool: auto` must size and only the Hub
    describes: enabled, `pool` `auto` or unset, no `modelFacts`, and a `model` the catalog does not hold; each
    (model, revision) once. An entry the settings will refuse anyway is left to their message."""
    models = values.get("models")
    if not isinstance(models, Sequence) or isinstance(models, str):
        return []
    wanted: list[ModelRevision] = []
    for entry in models:
        if not isinstance(entry, Mapping):
            continue
        model, revision = entry.get("model"), entry.get("revision")
        if (
            entry.get("pool", AUTO_POOL) != AUTO_POOL
            or entry.get("enabled") is False
            or any(key in entry for key in _MODEL_FACTS_KEYS)
            or not isinstance(model, str)
            or not (revision is None or isinstance(revision, str))
            or model_catalog.lookup(model) is not None
        ):
            continue
        wanted.append((model, revision))
    return list(dict.fromkeys(wanted))


def described(settings: VllmSettings) -> bool:
    """Whether the stack itself knows the model's facts: `modelFacts`, or the catalog."""
    return settings.model_facts is not None or model_catalog.lookup(settings.model) is not None


def hub_facts(settings: VllmSettings, reads: HubReads | None) -> ModelFacts | None:
    """The facts the Hub gave of the model at its revision; None when it was not read or did not answer."""
    read = (reads or {}).get((settings.model, settings.revision))
    return None if read is None else read.facts


def auto_without_facts(key: str, settings: VllmSettings, reads: HubReads | None, pools: Sequence[str]) -> ConfigProblem:
    """`<key>.pool` `auto` for a model whose facts neither the stack nor the Hub gave: nothing to rank pools by.

    Offline (the plan runs the program with `HF_HUB_OFFLINE` and parses without reads) this is a problem, not a
    warning: the plan's purpose is to show each model on its pool before anything is bought, and for this model it
    can tell neither the pool nor whether it fits, so a plan that passed would claim what it never checked. Naming
    the pool keeps the plan going (the model then named not checked) while preview still sizes it from the Hub.
    """
    read = (reads or {}).get((settings.model, settings.revision))
    names = ", ".join(pools)
    head = f"'auto' cannot choose a pool for {settings.model}: neither the model catalog nor modelFacts describes it"
    facts = f"{key}.modelFacts with its facts"
    if read is None or read.offline:
        message = (
            f"{head}, and its facts come from the Hugging Face Hub only at pulumi preview and up (the offline plan "
            f"reads nothing); allowed: pool set to one of {names} (the plan then names the model not checked, and "
            f"preview checks it), or {facts}"
        )
    else:
        message = f"{head}, and the Hub did not answer: {read.problem}; allowed: pool set to one of {names}, or {facts}"
    return ConfigProblem(f"{key}.pool", message)
