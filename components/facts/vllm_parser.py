"""`vllm serve` arguments read as the pinned vLLM reads them, item by item, so each problem names its item.

`vllm serve` hands its arguments to vLLM's `FlexibleArgumentParser.parse_args`
(vllm/utils/argparse_utils.py at the pinned tag), which first rewrites them and then parses them with
Python's argparse:
- in a `--` item, `_` reads as `-` in the name up to its first `.` (`--max_model_len=8` is `--max-model-len=8`);
- `-O3`, `-O=3` and `-O 3` become `--optimization-level 3`;
- an item naming a flag with a `.` (`--compilation-config.mode 3`, `-cc.mode=3`, `--x.list+ a,b`) sets one key
  of that flag's JSON value; such items are taken out and the JSON they build is passed at the end.
argparse then reads the options of the table in facts/vllm_cli.py, keeping `allow_abbrev` on (a prefix of a
long option that names one option only is that option) and reading `--flag=value`. `read` walks the items the
same way, and `argparse_error` runs argparse itself, built from the same table, over the rewritten items.
Standard library only: the settings import this module.
"""

from __future__ import annotations

import argparse
import difflib
import functools
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NoReturn

from .vllm_cli import OPTIONS, VLLM_CLI_VERSION, VllmOption

# argparse's `_negative_number_matcher`: with no option that looks like a negative number, `-1` is a value.
_NEGATIVE_NUMBER = re.compile(r"^-\d+$|^-\d*\.\d+$")
# vllm/utils/argparse_utils.py `human_readable_int`.
_HUMAN_INT = re.compile(r"(\d+(?:\.\d+)?)([kKmMgGtT])")
# vllm/engine/arg_utils.py `union_dict_and_str`: a value in braces is JSON, anything else a string.
_JSON_LIKE = re.compile(r"(?s)^\s*{.*}\s*$")
# Dashes that look like `-` but that argparse does not read as one.
_LOOKALIKE_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
ALLOWED_FLAGS = f"the flags of vllm serve {VLLM_CLI_VERSION} (`vllm serve --help=all`)"


@dataclass(frozen=True)
class Setting:
    """One option as `vllm serve` reads it: the item that names it, as written, and the values it takes."""

    index: int
    """Position of the item that names the option."""
    option: VllmOption
    written: str
    """The option's name as the item spells it (before any `=`)."""
    values: tuple[str, ...]
    """The values given to it (none for a flag)."""
    value: object
    """The value argparse stores: the last value converted, or True/False for a flag, or the values' list."""
    problem: str | None = None
    """Why argparse would refuse the values (their type or choices); `value` is then None."""


@dataclass(frozen=True)
class Problem:
    """Why argparse would refuse an item; `index` is the item's position."""

    index: int
    message: str


@dataclass(frozen=True)
class Reading:
    """Every option the items set, in order, and every problem found but those of values (on each setting)."""

    settings: tuple[Setting, ...]
    problems: tuple[Problem, ...]


@dataclass(frozen=True)
class _Token:
    text: str
    index: int
    written: str


@functools.cache
def _by_flag() -> dict[str, VllmOption]:
    """Every option string of the table and its option."""
    return {flag: option for option in OPTIONS for flag in option.flags}


def read(items: Sequence[str]) -> Reading:
    """`items` (arguments after the positional model) as `vllm serve` reads them."""
    problems: list[Problem] = []
    tokens = _rewritten(items, problems)
    settings: list[Setting] = []
    position = 0
    while position < len(tokens):
        token = tokens[position]
        position += 1
        if token.text == "--":
            # argparse keeps `--` among the strings to match; after the options that come before extraArgs
            # nothing takes it, so it is refused even as the last item.
            problems.append(Problem(token.index, _after_double_dash()))
            break
        kind, found = _lookup(token.text)
        if kind == "positional":
            problems.append(Problem(token.index, _positional(items[token.index])))
            continue
        if kind in ("unknown", "ambiguous"):
            problems.append(
                Problem(token.index, _unknown(token.written) if kind == "unknown" else _ambiguous(token, found[0]))
            )
            # The value after it is most likely its own: reported with it, not as a positional argument.
            if position < len(tokens) and tokens[position].text[:1] not in ("-", ""):
                position += 1
            continue
        option, flag, explicit = found
        values, position, problem = _values(option, flag, token, explicit, tokens, position)
        if problem:
            problems.append(Problem(token.index, problem))
            continue
        converted, problem = _converted(option, flag, values)
        settings.append(Setting(token.index, option, token.written, tuple(values), converted, problem))
    return Reading(tuple(settings), tuple(problems))


def _rewritten(items: Sequence[str], problems: list[Problem]) -> list[_Token]:
    """The items after `FlexibleArgumentParser.parse_args`'s rewriting, each token with its item's position."""
    tokens: list[_Token] = []
    for index, item in enumerate(items):
        written = item.split("=", 1)[0]
        if item.startswith("--help="):
            tokens.append(_Token("--help", index, written))
        elif item.startswith("--"):
            key, equals, value = item.partition("=")
            head, dot, tail = key[2:].partition(".")
            tokens.append(_Token(f"--{head.replace('_', '-')}{dot}{tail}{equals}{value}", index, written))
        elif item.startswith("-O") and item != "-O":
            level = item[3:] if item[2] == "=" else item[2:]
            tokens += [_Token("--optimization-level", index, "-O"), _Token(level, index, "-O")]
        elif item == "-O" and index + 1 < len(items) and items[index + 1] in {"0", "1", "2", "3"}:
            tokens.append(_Token("--optimization-level", index, "-O"))
        else:
            tokens.append(_Token(item, index, written))
    return _json_keys(tokens, problems)


def _json_keys(tokens: list[_Token], problems: list[Problem]) -> list[_Token]:
    """`--flag.key value` items folded into one `--flag <json>` pair at the end, as vLLM does."""
    kept: list[_Token] = []
    objects: dict[str, tuple[_Token, dict]] = {}
    skip = False
    for position, token in enumerate(tokens):
        if skip:
            skip = False
            continue
        text = token.text
        if not text.startswith("-") or "." not in text or (text.startswith("--") and "." not in text):
            kept.append(token)
            continue
        if "=" in text:
            name, value = text.split("=", 1)
            if "." not in name:
                kept.append(token)  # the `.` was in the value
                continue
        elif position + 1 < len(tokens):
            name, value, skip = text, tokens[position + 1].text, True
        else:
            problems.append(Problem(token.index, f"JSON key {token.written!r} has no value; allowed: a value after it"))
            continue
        if name.endswith("+"):
            name, value = name[:-1], json.dumps(value.split(","))
        flag, *keys = name.split(".")
        nested: object = _json_key_value(value)
        for key in reversed(keys):
            nested = {key: nested}
        first, merged = objects.setdefault(flag, (_Token(flag, token.index, token.written.split(".")[0]), {}))
        _merge(merged, nested)  # type: ignore[arg-type]
    for first, merged in objects.values():
        kept += [first, _Token(json.dumps(merged), first.index, first.written)]
    return kept


def _json_key_value(value: str) -> object:
    try:
        return json.loads(value)
    except json.JSONDecodeError:
        try:
            return _human_int(value)
        except ValueError:
            return value


def _merge(original: dict, update: dict) -> None:
    for key, value in update.items():
        if isinstance(value, dict) and isinstance(original.get(key), dict):
            _merge(original[key], value)
        elif isinstance(value, list) and isinstance(original.get(key), list):
            original[key] += value
        else:
            original[key] = value


def _lookup(text: str) -> tuple[str, tuple]:
    """What argparse's `_parse_optional` makes of `text` (CPython 3.11/3.12 `argparse`, allow_abbrev on)."""
    flags = _by_flag()
    if not text or text[0] != "-":
        return "positional", ()
    if text in flags:
        return "option", (flags[text], text, None)
    if len(text) == 1:
        return "positional", ()
    if "=" in text:
        name, explicit = text.split("=", 1)
        if name in flags:
            return "option", (flags[name], name, explicit)
    matches = _prefix_matches(text)
    if len(matches) > 1:
        return "ambiguous", ({flag for _, flag, _ in matches},)
    if matches:
        return "option", matches[0]
    if _NEGATIVE_NUMBER.match(text) or " " in text:
        return "positional", ()
    return "unknown", ()


def _prefix_matches(text: str) -> list[tuple[VllmOption, str, str | None]]:
    flags = _by_flag()
    if text.startswith("--"):
        prefix, _, explicit = text.partition("=")
        return [
            (option, flag, explicit if "=" in text else None)
            for flag, option in flags.items()
            if flag.startswith(prefix)
        ]
    matches: list[tuple[VllmOption, str, str | None]] = []
    for flag, option in flags.items():
        if flag == text[:2]:
            matches.append((option, flag, text[2:]))  # a one-letter option glued to its value: `-q4`
        elif flag.startswith(text):
            matches.append((option, flag, None))
    return matches


def _values(option, flag, token, explicit, tokens, position) -> tuple[list[str], int, str | None]:
    """The values `option` takes from `explicit` or the following tokens, the next position, and any problem."""
    if explicit is not None:
        if option.nargs == 0:
            return [], position, f"flag {token.written!r} takes no value; allowed: {_usage(option)}"
        return [explicit], position, None
    following: list[str] = []
    while (
        position + len(following) < len(tokens) and _lookup(tokens[position + len(following)].text)[0] == "positional"
    ):
        if tokens[position + len(following)].text == "--":
            break
        following.append(tokens[position + len(following)].text)
    wanted: dict[object, int] = {0: 0, None: 1, "?": min(1, len(following)), "+": len(following), "*": len(following)}
    count = option.nargs if isinstance(option.nargs, int) else wanted[option.nargs]
    if len(following) < count or (option.nargs == "+" and not following):
        return [], position, f"flag {token.written!r} expects a value; allowed: {_usage(option)}"
    return following[:count], position + count, None


def _converted(option: VllmOption, flag: str, values: list[str]) -> tuple[object, str | None]:
    if option.nargs == 0:
        return option.kind not in ("store_false",) and not flag.startswith("--no-"), None
    if option.nargs == "?" and not values:
        return True, None
    if "--" in values:
        # argparse drops the first `--` of an option's values (`_get_values`), so `--flag=--` stores [].
        values = list(values)
        values.remove("--")
        if not values:
            return [], None
    read: list[object] = []
    for value in values:
        try:
            converted = None if option.optional and value in ("", "None") else _CONVERT.get(option.type, str)(value)
        except (ValueError, argparse.ArgumentTypeError):
            return None, f"invalid value {value!r} for {flag}; allowed: {_TYPE_TEXT.get(option.type or '', 'a string')}"
        if option.choices is not None and converted not in option.choices:
            allowed = ", ".join(str(choice) for choice in option.choices if choice is not None)
            return None, f"invalid choice {value!r} for {flag}; allowed: {allowed}"
        read.append(converted)
    if option.nargs in ("+", "*") or option.kind == "append":
        return read, None
    return read[-1], None


def _human_int(value: str) -> int:
    value = value.strip()
    match = _HUMAN_INT.fullmatch(value)
    if match:
        number, suffix = match.groups()
        if suffix in "kmgt":
            return int(float(number) * 10 ** (3 * ("kmgt".index(suffix) + 1)))
        return int(number) * 2 ** (10 * ("KMGT".index(suffix) + 1))
    return int(value)


def _human_int_or_auto(value: str) -> int:
    return -1 if value.strip() in ("-1", "auto") or value.strip().lower() == "auto" else _human_int(value)


def _json_object(value: str) -> object:
    expanded = re.sub(r"\b\d+(?:\.\d+)?[kKmMgGtT]\b", lambda m: str(_human_int(m.group())), value)
    read = json.loads(expanded)
    if not isinstance(read, dict):
        raise ValueError(value)
    return read


def _dict_or_str(value: str) -> object:
    return json.loads(value) if _JSON_LIKE.match(value) else value


_CONVERT: dict[str | None, Callable[[str], object]] = {
    "int": int,
    "float": float,
    "str": str,
    None: str,
    "json": json.loads,
    "json_object": _json_object,
    "dict_or_str": _dict_or_str,
    "human_int": _human_int,
    "human_int_or_auto": _human_int_or_auto,
    "lower_snake": lambda value: value.lower().replace("-", "_"),
}
_TYPE_TEXT = {
    "int": "an integer",
    "float": "a number",
    "json": "JSON",
    "json_object": "a JSON object, or its keys as --flag.key value",
    "dict_or_str": "a string, or a JSON object in braces",
    "human_int": "an integer, optionally with a k/m/g/t (decimal) or K/M/G/T (binary) suffix",
    "human_int_or_auto": "an integer with an optional k/m/g/t or K/M/G/T suffix, -1 or auto",
}


def _usage(option: VllmOption) -> str:
    longs = [flag for flag in option.flags if flag.startswith("--")] or list(option.flags)
    if option.nargs == 0:
        return " or ".join(longs) + " with no value"
    return f"{longs[0]} <value> (two items) or {longs[0]}=<value>"


def _long_flags() -> list[str]:
    return [flag for flag in _by_flag() if flag.startswith("--")]


def suggestion(written: str) -> str | None:
    """The flag `written` most likely means: case, `_`, look-alike dashes and stray whitespace undone."""
    cleaned = written.strip().split("=", 1)[0].split()[0] if written.strip() else ""
    for dash in _LOOKALIKE_DASHES:
        cleaned = cleaned.replace(dash, "-")
    if cleaned.startswith("-") and not cleaned.startswith("--") and len(cleaned) > 2:
        glued = [
            flag for flag in _by_flag() if not flag.startswith("--") and cleaned.startswith(flag) and flag != cleaned
        ]
        if glued:
            flag = max(glued, key=len)
            return f"{flag} {cleaned[len(flag) :]}"
    name = "--" + cleaned.lstrip("-").lower().replace("_", "-")
    if name in _by_flag():
        return name
    close = difflib.get_close_matches(name, _long_flags(), n=1, cutoff=0.6)
    return close[0] if close else None


def _unknown(written: str) -> str:
    near = suggestion(written)
    hint = f"; did you mean {near!r}?" if near else ""
    return f"unknown flag {written!r}{hint}; allowed: {ALLOWED_FLAGS}"


def _ambiguous(token: _Token, flags: set[str]) -> str:
    names = sorted(flags)
    shown = ", ".join(names[:6]) + (f" and {len(names) - 6} more" if len(names) > 6 else "")
    return f"ambiguous flag {token.written!r}: a prefix of {shown}; allowed: one flag written in full"


def _positional(item: str) -> str:
    if item == "":
        return "empty argument ''; allowed: a flag or a flag's value (remove the empty item)"
    if item.strip() and item.strip()[0] in _LOOKALIKE_DASHES:
        near = suggestion(item)
        hint = f"; did you mean {near!r}?" if near else ""
        return f"{item!r} starts with a dash that is not ASCII '-'{hint}; allowed: {ALLOWED_FLAGS}"
    if item.startswith("-") and any(space in item for space in " \t\n"):
        near = suggestion(item)
        hint = f" ({near!r} and its value as two items)" if near else ""
        return f"flag and value in one item {item!r}; allowed: one flag or one value per item{hint}"
    return (
        f"positional argument {item!r} (vllm serve takes one, the model, which vllm.model sets); "
        "allowed: flags, each followed by its value"
    )


def _after_double_dash() -> str:
    return "'--' ends the options: argparse refuses it and every later item as positional arguments; allowed: flags"


class _Refused(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _Refused(message)


class _Flag(argparse.Action):
    """A flag of the table: store_true, store_false, BooleanOptionalAction (its `--no-` form) or help."""

    def __init__(self, option_strings, dest, kind="store_true", **kwargs):
        self.kind = kind
        super().__init__(option_strings, dest, nargs=0, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, self.kind != "store_false" and not str(option_string).startswith("--no-"))


def _argparse_type(option: VllmOption) -> Callable[[str], object]:
    convert = _CONVERT.get(option.type, str)

    def read_value(value: str) -> object:
        return None if option.optional and value in ("", "None") else convert(value)

    read_value.__name__ = option.type or "str"
    return read_value


@functools.cache
def parser() -> argparse.ArgumentParser:
    """An argparse parser with the options of `vllm serve` of the table, as vLLM declares them."""
    built = _Parser(prog="vllm serve", add_help=False, allow_abbrev=True)
    for option in OPTIONS:
        if not option.flags:
            built.add_argument(option.dest, nargs=option.nargs)
        elif option.nargs == 0:
            built.add_argument(*option.flags, dest=option.dest, action=_Flag, kind=option.kind)
        else:
            built.add_argument(
                *option.flags,
                dest=option.dest,
                nargs=option.nargs,
                type=_argparse_type(option),
                choices=option.choices,
                action="append" if option.kind == "append" else "store",
            )
    return built


def argparse_error(model: str, items: Sequence[str]) -> str | None:
    """argparse's own message when `vllm serve <model> --port 8000 <items>` is refused, after vLLM's rewriting
    (`items` follow a flag and its value, as `vllm.extraArgs` do in the container's arguments); else None."""
    rewriting: list[Problem] = []
    tokens = [token.text for token in _rewritten(items, rewriting)]
    if rewriting:
        # vLLM's rewriting itself fails (a `-x.y` item with no value after it ends in an IndexError).
        return rewriting[0].message
    try:
        parser().parse_args([model, "--port", "8000", *tokens])
    except _Refused as refused:
        return str(refused)
    return None
