"""The table of `vllm serve` options (components/facts/vllm_cli.py) is the pinned release's, as the script writes it."""

from __future__ import annotations

from pathlib import Path

from components.facts import versions, vllm_cli
from components.settings import vllm_flags
from scripts import vllm_cli_table

ROOT = Path(__file__).resolve().parents[2]


def test_the_table_is_read_from_the_pinned_vllm_release():
    assert vllm_cli.VLLM_CLI_VERSION == versions.VLLM_VERSION, (
        f"components/facts/vllm_cli.py is of vLLM {vllm_cli.VLLM_CLI_VERSION}, the pinned image is "
        f"{versions.VLLM_VERSION}; run `{vllm_cli_table.COMMAND}` and commit the table"
    )


def test_the_committed_table_is_the_scripts_output_for_its_rows():
    options = [option._asdict() for option in vllm_cli.OPTIONS]
    for option in options:
        option["choices"] = list(option["choices"]) if option["choices"] is not None else None
    text = vllm_cli_table.render(vllm_cli.VLLM_CLI_VERSION.removeprefix("v"), options)
    assert (ROOT / "components" / "facts" / "vllm_cli.py").read_text(encoding="utf-8") == text


def test_every_option_the_rules_name_is_in_the_table():
    # A release that renames or drops one of them would otherwise let it through unjudged.
    dests = {option.dest for option in vllm_cli.OPTIONS}
    named = {
        *vllm_flags.MANAGED,
        *vllm_flags.SECRET,
        *vllm_flags.REFUSED,
        *vllm_flags.VALUE_RULES,
        *vllm_flags.GPU_FACTORS,
    }
    assert sorted(named - dests) == []


def test_the_table_holds_the_spellings_vllm_declares():
    flags = {flag: option for option in vllm_cli.OPTIONS for flag in option.flags}
    # vllm/engine/arg_utils.py v0.32.0 EngineArgs.add_cli_args: short aliases and BooleanOptionalAction's `--no-` form.
    assert flags["-tp"].dest == flags["--tensor-parallel-size"].dest == "tensor_parallel_size"
    assert flags["-pp"].dest == "pipeline_parallel_size"
    assert flags["-dp"].dest == "data_parallel_size"
    assert flags["--no-enable-prefix-caching"] is flags["--enable-prefix-caching"]
    assert flags["--enable-prefix-caching"].kind == "boolean"
    assert flags["--port"].type == "int"
    assert "fp8" in flags["--kv-cache-dtype"].choices
    [model] = [option for option in vllm_cli.OPTIONS if not option.flags]
    assert (model.dest, model.nargs) == ("model_tag", "?")
