"""`vllm serve` flags as vLLM's own parser reads them, so `vllm.extraArgs` is checked against what it sets.

vLLM's `FlexibleArgumentParser` accepts one setting under several spellings: `_` for `-` in the
name, `--flag=value`, `--flag.key value` for one key of a JSON flag, short aliases such as `-tp`,
and (as any Python `argparse` parser with the default `allow_abbrev=True`, which vLLM keeps) a
prefix of a long or short option that names one option only. `settings_flag` maps an argument to
the setting it reaches, so a managed flag cannot be overridden under another spelling. Standard
library only: the settings import this module.
"""

from __future__ import annotations

# Short aliases of `vllm serve` options (vllm-project/vllm v0.32.0, vllm/engine/arg_utils.py
# EngineArgs.add_cli_args, and vllm/entrypoints/launchers/cli_args.py for -asc).
SHORT_ALIASES: dict[str, str] = {
    "-q": "--quantization",
    "-pp": "--pipeline-parallel-size",
    "-n": "--nnodes",
    "-r": "--node-rank",
    "-tp": "--tensor-parallel-size",
    "-dcp": "--decode-context-parallel-size",
    "-pcp": "--prefill-context-parallel-size",
    "-dp": "--data-parallel-size",
    "-dpn": "--data-parallel-rank",
    "-dpr": "--data-parallel-start-rank",
    "-dpl": "--data-parallel-size-local",
    "-dpa": "--data-parallel-address",
    "-dpp": "--data-parallel-rpc-port",
    "-dpb": "--data-parallel-backend",
    "-dph": "--data-parallel-hybrid-lb",
    "-dpe": "--data-parallel-external-lb",
    "-dpm": "--data-parallel-multi-port-external-lb",
    "-ep": "--enable-expert-parallel",
    "-sc": "--speculative-config",
    "-dc": "--diffusion-config",
    "-cc": "--compilation-config",
    "-ac": "--attention-config",
    "-asc": "--api-server-count",
}
# `-O3`, `-O=3` and `-O 3` are rewritten to `--optimization-level` before parsing
# (vllm/utils/argparse_utils.py, FlexibleArgumentParser.parse_args, at v0.32.0).
OPTIMIZATION_LEVEL = "--optimization-level"


def canonical_flag(arg: str) -> str | None:
    """The option `arg` names, spelled as vLLM registers it; None for a value or positional argument.

    `--max_model_len=4096` -> `--max-model-len`; `--compilation-config.level 3` -> `--compilation-config`;
    `-tp` -> `--tensor-parallel-size`; `-O3` -> `--optimization-level`. vLLM turns `_` into `-`
    between the leading `--` and the first `.` of a long option (parse_args, as above). An unknown
    short option is returned as written.
    """
    if not arg.startswith("-") or arg == "-" or _is_number(arg):
        return None
    name = arg.split("=", 1)[0]
    if name.startswith("--"):
        head = name[2:].split(".", 1)[0]
        return "--" + head.replace("_", "-")
    if name.startswith("-O"):
        return OPTIMIZATION_LEVEL
    return SHORT_ALIASES.get(name, name)


def settings_flag(arg: str, flags: tuple[str, ...] | list[str]) -> str | None:
    """The flag of `flags` (long spellings) that `arg` sets under any spelling vLLM accepts, else None.

    Besides the spellings `canonical_flag` undoes, a proper prefix of one of `flags` (or of its short
    alias) counts: argparse expands it to that flag when it names no other option, and rejects it as
    ambiguous otherwise, so it is never a valid way to pass anything else. No `vllm serve` option at
    v0.32.0 is itself a proper prefix of a flag this stack manages.
    """
    name = canonical_flag(arg)
    if name is None:
        return None
    if name in flags:
        return name
    written = arg.split("=", 1)[0]
    if written.startswith("--"):
        written = "--" + written[2:].split(".", 1)[0].replace("_", "-")
        matches = [flag for flag in flags if flag.startswith(written) and len(written) > 2]
    else:
        matches = [
            long
            for short, long in SHORT_ALIASES.items()
            if long in flags and short.startswith(written) and len(written) > 1
        ]
    return matches[0] if matches else None


def _is_number(arg: str) -> bool:
    # argparse reads `-1` or `-0.5` as a value when the parser has no option that looks like a number.
    try:
        float(arg)
    except ValueError:
        return False
    return True
