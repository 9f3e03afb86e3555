"""The report's "Models" section: the fits gate's rows (stackcheck/plan/models.py, `model-fits-gpu`)."""

from __future__ import annotations

from ..run import PlanResult
from .sections import Column, Items, Mark, Row, Section, Table


def models_section(result: PlanResult) -> Section:
    """Each served model on each instance type of its pool: whether it fits, the memory per GPU, and why."""

    def gib(value: float | None, digits: int = 1) -> str:
        return "-" if value is None else f"{value:.{digits}f}"

    def verdict(fits: bool | None) -> Mark:
        if fits is None:
            return Mark("skip", "not checked")
        return Mark("pass", "fits") if fits else Mark("fail", "does not fit")

    rows = tuple(
        Row(
            (
                fit.name,
                fit.pool,
                fit.instance_type,
                verdict(fit.fits),
                gib(fit.usable_gib_per_gpu),
                gib(fit.weights_gib_per_gpu),
                gib(fit.kv_gib_per_sequence_per_gpu, 2),
                gib(fit.margin_gib),
                "-" if fit.sequences_at_max_model_len is None else str(fit.sequences_at_max_model_len),
            ),
            status=verdict(fit.fits).status,
        )
        for fit in result.models
    )
    headers = ("Usable GiB/GPU", "Weights GiB/GPU", "KV GiB/seq/GPU", "Margin GiB", "Sequences at maxModelLen")
    columns = (
        Column("Model", code=True),
        Column("Pool", code=True),
        Column("Instance", code=True),
        Column("Fits"),
        *(Column(header) for header in headers),
    )
    # How each checked row counted: the layout the arithmetic assumed and where the model's facts came from.
    counted = tuple(
        f"{fit.name} on {fit.instance_type}: {fit.layout}; KV cache {fit.kv_cache}"
        + (f"; {fit.activation}" if fit.activation else "")
        + (f"; {fit.encoder}" if fit.encoder else "")
        + f"; facts from {fit.facts_from}"
        + ("" if fit.source == fit.facts_from else f" ({fit.source})")
        for fit in result.models
        if fit.layout
    )
    failed = any(fit.fits is False for fit in result.models)
    unchecked = any(fit.fits is None for fit in result.models)
    return Section(
        "models",
        "Models (does each model fit its GPUs, verdict model-fits-gpu)",
        "error" if failed else "warning" if unchecked else "ok",
        (
            Table(columns, rows),
            Items(tuple(fit.reason for fit in result.models), label="Why"),
            Items(counted, label="Counted as"),
        ),
        data={"models": [fit.to_dict() for fit in result.models]},
    )
