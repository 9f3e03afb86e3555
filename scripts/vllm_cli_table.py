"""Write components/facts/vllm_cli.py: every option of `vllm serve`, read from the pinned vLLM's own parser.

    python scripts/vllm_cli_table.py                      # download the pinned wheel (pip, no dependencies)
    python scripts/vllm_cli_table.py --wheel vllm-X.whl   # or read a wheel already downloaded
    python scripts/vllm_cli_table.py --check              # exit 1 when the committed table is out of date

The version is `components/facts/versions.py`'s `VLLM_VERSION`; run this after changing it and commit the
table (tests/facts/test_vllm_cli_table.py fails, naming this command, while the table's version differs).

vLLM's parser is built at import time from its config dataclasses (`vllm serve` calls
`vllm/entrypoints/launchers/cli_args.py` `make_arg_parser`, which adds `FrontendArgs` and `AsyncEngineArgs`
from `vllm/engine/arg_utils.py`), so the options cannot be read from the source text alone. The wheel's
Python files are imported in a child process of this interpreter with every module vLLM needs and this
environment lacks (torch, transformers, CUDA bindings, ...) replaced by inert stand-ins: none of them decides
which options exist, and a choice that a stand-in would fill is either resolved below as on CUDA or makes
the script fail. Nothing of this reaches the product: the table is plain data.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "components" / "facts" / "vllm_cli.py"
COMMAND = "python scripts/vllm_cli_table.py"

# The argparse `type` callables of vLLM's options, by the name the table gives their values
# (vllm/engine/arg_utils.py and vllm/utils/argparse_utils.py at the pinned tag).
TYPE_NAMES = {
    "int": "int",
    "float": "float",
    "str": "str",
    "human_readable_int": "human_int",
    "human_readable_int_or_auto": "human_int_or_auto",
    "loads": "json",
    "parse_dataclass": "json_object",
    "union_dict_and_str": "dict_or_str",
}
# The backend options lower-case their value and read `-` as `_` before checking the choices
# (`lambda s: s.lower().replace("-", "_")`, vllm/engine/arg_utils.py); `--device-ids` splits a comma list.
LAMBDA_TYPES = {"lower_snake": ("A-b", "a_b"), "str": ("1, x", [1, "x"])}
# `--mm-processor-device` offers "auto", "cpu" and `current_platform.device_type` ("cuda" on CUDA, which the
# vllm/vllm-openai image is built for: vllm/config/multimodal.py, `MMProcessorDevice`).
PLATFORM_DEVICE_TYPE = "cuda"


def _stand_ins() -> None:
    """Let vLLM's modules import without their compiled dependencies (child process only)."""
    import importlib.abc
    import importlib.machinery
    import importlib.metadata
    import re
    import types

    cache: dict[str, type] = {}

    class Stub(type):
        def __new__(mcls, name, bases=(), namespace=None, **_):
            return super().__new__(mcls, name, bases, dict(namespace or {}))

        def __init__(cls, name, bases=(), namespace=None, **_):
            super().__init__(name, bases, dict(namespace or {}))

        def __getattr__(cls, name):
            if name.startswith("__") and name.endswith("__"):
                raise AttributeError(name)
            return make(f"{cls.__name__}.{name}")

        def __call__(cls, *args, **kwargs):
            if len(args) == 1 and callable(args[0]) and not kwargs:
                return args[0]  # used as a decorator
            return make(f"{cls.__name__}()")

        def __get_pydantic_core_schema__(cls, source, handler):
            from pydantic_core import core_schema

            return core_schema.any_schema()

        def __getitem__(cls, item):
            return cls

        def __iter__(cls):
            return iter(())

        def __bool__(cls):
            return False

        def __len__(cls):
            return 0

        def __int__(cls):
            return 0

        def __index__(cls):
            return 0

        def __float__(cls):
            return 0.0

        def __hash__(cls):
            return id(cls)

        def __eq__(cls, other):
            return cls is other

        def __contains__(cls, item):
            return False

        def __enter__(cls):
            return cls

        def __exit__(cls, *exc):
            return False

        def __lt__(cls, other):
            return False

        __gt__ = __lt__

        def __le__(cls, other):
            return True

        __ge__ = __le__

        def _same(cls, *args):
            return cls

        __or__ = __ror__ = __and__ = __rand__ = __add__ = __radd__ = __sub__ = __rsub__ = _same
        __mul__ = __rmul__ = __truediv__ = __rtruediv__ = __floordiv__ = __mod__ = __pow__ = __rpow__ = _same
        __lshift__ = __rshift__ = __neg__ = _same

    def make(name: str) -> type:
        if name not in cache:
            cache[name] = Stub(name, (), {})
        return cache[name]

    class StubModule(types.ModuleType):
        def __getattr__(self, name):
            if name.startswith("__") and name.endswith("__"):
                raise AttributeError(name)
            value = make(f"{self.__name__}.{name}")
            setattr(self, name, value)
            return value

    # Importable here but of another version than vLLM needs, or only partly usable without a GPU.
    forced = {"torch", "transformers", "numpy"}

    class Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
        def find_spec(self, fullname, path, target=None):
            root = fullname.split(".")[0]
            if root == "vllm" or root in sys.stdlib_module_names:
                return None
            if root not in forced:
                for finder in sys.meta_path:
                    if finder is not self and finder.find_spec(fullname, path, target) is not None:
                        return None
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

        def create_module(self, spec):
            module = StubModule(spec.name)
            module.__path__ = []
            return module

        def exec_module(self, module):
            pass

    sys.modules["regex"] = re  # vLLM uses `regex` only for patterns `re` also reads
    sys.meta_path.insert(0, Finder())
    version = importlib.metadata.version

    def any_version(name):
        try:
            return version(name)
        except importlib.metadata.PackageNotFoundError:
            return "99.0.0"

    importlib.metadata.version = any_version
    # Patches torch's operators at import; nothing of the parser.
    sys.modules["vllm.env_override"] = types.ModuleType("vllm.env_override")


def _extract(source: str) -> list[dict]:
    """The options of `vllm serve` in the vLLM source tree at `source` (child process)."""
    sys.path.insert(0, source)
    _stand_ins()
    import vllm.logger

    class Quiet:
        # The parser builds each config class to read its defaults; with stand-ins some refuse, and the
        # defaults are not part of the table.
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return True

    vllm.logger.suppress_logging = lambda *args, **kwargs: Quiet()
    from vllm.entrypoints.launchers.cli_args import make_arg_parser
    from vllm.utils.argparse_utils import FlexibleArgumentParser
    from vllm.version import __version__

    parser = make_arg_parser(FlexibleArgumentParser(prog="vllm serve"))
    options = [_option(action) for action in parser._actions]
    return [{"version": __version__}, *options]


def _option(action: argparse.Action) -> dict:
    kind = {
        "_StoreAction": "store",
        "_StoreTrueAction": "store_true",
        "_StoreFalseAction": "store_false",
        "BooleanOptionalAction": "boolean",
        "_AppendAction": "append",
        "_HelpAction": "help",
        "LoRAParserAction": "store",
        "DeprecatedLogConfigFileAction": "store",
    }[type(action).__name__]
    value_type, optional = _value_type(action.type)
    choices = None
    if action.choices is not None:
        choices = [PLATFORM_DEVICE_TYPE if _is_stand_in(c) and "device_type" in repr(c) else c for c in action.choices]
        bad = [c for c in choices if not isinstance(c, (str, int, type(None)))]
        if bad:
            raise SystemExit(f"{action.option_strings}: choices {bad!r} came from a stand-in module; resolve them")
    nargs = action.nargs
    if action.option_strings and kind == "store" and nargs == "?" and action.const is None:
        raise SystemExit(f"{action.option_strings}: nargs '?' without a const")
    return {
        "flags": list(action.option_strings),
        "dest": action.dest,
        "kind": kind,
        "nargs": nargs,
        "type": value_type,
        "optional": optional,
        "choices": choices,
    }


def _is_stand_in(value) -> bool:
    return type(value).__name__ == "Stub"


def _value_type(function) -> tuple[str | None, bool]:
    """The table's name of an argparse `type`, and whether it reads "" and "None" as None (`optional_type`)."""
    if function is None:
        return None, False
    name = getattr(function, "__name__", "")
    if name in ("_optional_type", "_parse_type"):
        [inner] = [cell.cell_contents for cell in function.__closure__ if callable(cell.cell_contents)]
        value_type, _ = _value_type(inner)
        return value_type, name == "_optional_type"
    if name == "<lambda>":
        for value_type, (given, read) in LAMBDA_TYPES.items():
            if function(given) == read:
                return value_type, False
    if name not in TYPE_NAMES:
        raise SystemExit(f"unknown argparse type {function!r}; name it in TYPE_NAMES")
    return TYPE_NAMES[name], False


def render(version: str, options: list[dict]) -> str:
    """The text of components/facts/vllm_cli.py."""
    rows = "\n".join(
        f"    VllmOption({tuple(o['flags'])!r}, {o['dest']!r}, {o['kind']!r}, {o['nargs']!r}, {o['type']!r}, "
        f"{o['optional']!r}, {tuple(o['choices']) if o['choices'] is not None else None!r}),"
        for o in sorted(options, key=lambda o: (not o["flags"], o["flags"][:1], o["dest"]))
    )
    return f'''"""The options of `vllm serve` at vLLM {version}, read from its own parser. Generated: do not edit.

Written by `{COMMAND}` from the vllm {version} wheel (vllm/entrypoints/launchers/cli_args.py
`make_arg_parser`, with `FrontendArgs` and vllm/engine/arg_utils.py `AsyncEngineArgs.add_cli_args`); run it
again when `versions.VLLM_VERSION` changes. Each row is one argparse action: its option strings (the
`--no-` form of a boolean among them), where it stores, the action, `nargs`, the value's type (`int`,
`float`, `str`, `json`, `json_object`, `dict_or_str`, `human_int`, `human_int_or_auto`, `lower_snake`: lower-cased
with `-` read as `_`; None for no value),
whether `""` and `"None"` read as None, and the choices.
"""

from __future__ import annotations

from typing import NamedTuple


class VllmOption(NamedTuple):
    """One option of `vllm serve` as its argparse action declares it."""

    flags: tuple[str, ...]
    """Option strings; empty for the positional model."""
    dest: str
    """The attribute the value is stored in."""
    kind: str
    """`store`, `store_true`, `store_false`, `boolean` (argparse.BooleanOptionalAction), `append` or `help`."""
    nargs: str | int | None
    """argparse `nargs`: None for one value, `?`, `+`, `*`, or 0 for none."""
    type: str | None
    """The value's type, as named in the module docstring."""
    optional: bool
    """`""` and `"None"` read as None (vLLM's `optional_type`)."""
    choices: tuple[str | int | None, ...] | None
    """The values allowed, when argparse checks them."""


VLLM_CLI_VERSION = "v{version}"
"""The vLLM release this table was read from."""

# fmt: off
OPTIONS: tuple[VllmOption, ...] = (
{rows}
)
# fmt: on
'''


def _pinned_version() -> str:
    sys.path.insert(0, str(ROOT))
    from components.facts.versions import VLLM_VERSION

    return VLLM_VERSION.removeprefix("v")


def _table_text(version: str, wheel: Path | None) -> str:
    with tempfile.TemporaryDirectory() as work:
        if wheel is None:
            subprocess.run(
                [sys.executable, "-m", "pip", "download", "--no-deps", f"vllm=={version}", "-d", work, "-q"],
                check=True,
            )
            [wheel] = Path(work).glob("vllm-*.whl")
        source = Path(work) / "src"
        with zipfile.ZipFile(wheel) as archive:
            archive.extractall(source, [name for name in archive.namelist() if name.endswith(".py")])
        result = subprocess.run(
            [sys.executable, __file__, "--extract", str(source)], capture_output=True, text=True, check=False
        )
    if result.returncode:
        raise SystemExit(f"reading vLLM's parser failed:\n{result.stderr}")
    header, *options = json.loads(result.stdout.splitlines()[-1])
    if header["version"] != version:
        raise SystemExit(f"the wheel is vLLM {header['version']}, not the pinned {version}")
    return render(version, options)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheel", type=Path, help="a downloaded vllm wheel of the pinned version")
    parser.add_argument("--check", action="store_true", help="exit 1 when the committed table is out of date")
    parser.add_argument("--extract", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.extract:
        print(json.dumps(_extract(args.extract)))
        return 0
    text = _table_text(_pinned_version(), args.wheel)
    if args.check:
        if TABLE.read_text(encoding="utf-8") != text:
            print(f"{TABLE.relative_to(ROOT)} is out of date; run `{COMMAND}`", file=sys.stderr)
            return 1
        return 0
    TABLE.write_text(text, encoding="utf-8")
    print(f"wrote {TABLE.relative_to(ROOT)} ({len(text.splitlines())} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
