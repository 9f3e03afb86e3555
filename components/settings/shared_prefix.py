"""Two servers seeding one bucket and prefix with different weights: a rule across the models of the fleet form."""

from __future__ import annotations

from collections.abc import Sequence

from .errors import ConfigProblem
from .vllm import VllmSettings


def shared_prefix_problems(models: Sequence[VllmSettings]) -> list[ConfigProblem]:
    """Two different models (or revisions) in one bucket and prefix, each named by its key: the prefix's marker
    names one of them, so the other's copy Job stops on it (components/vllm/weights_copy_script.py,
    `AnotherRevision`) and its server waits for weights that never come, or, unseeded, loads the other's. Only a
    bucket the config names can be shared: a server without one gets a bucket of its own."""
    problems = []
    holders: dict[tuple[str, str], tuple[int, VllmSettings]] = {}
    for index, model in enumerate(models):
        if model.source.type != "s3" or model.source.bucket is None:
            continue
        where = (model.source.bucket, model.weights_prefix)
        first_index, first = holders.setdefault(where, (index, model))
        if (first.model, first.revision) != (model.model, model.revision):
            problems.append(
                ConfigProblem(
                    f"models.{index}.source.prefix",
                    f"s3://{where[0]}/{where[1]} holds models.{first_index}'s {first.model} at revision "
                    f"{first.revision} (models.{first_index}.source.prefix), and this model is {model.model} at "
                    f"revision {model.revision}: each would stop the other's copy or load its weights; allowed: a "
                    "prefix of its own",
                )
            )
    return problems
