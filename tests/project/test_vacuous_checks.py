"""No test passes vacuously: a test whose every check runs once per item of a collection that may be empty
checks nothing when it is empty, and passes while the behaviour it names is gone (a renamed resource type, a
filter that no longer matches).

A check is an `assert` statement or a `with pytest.raises(...)`/`pytest.warns(...)` block. A check is sure to
run when no loop around it iterates over a collection that may be empty; `assert all(... for x in xs)` counts
as such a loop, as `all` of nothing is true. A test is flagged when it has checks and none is sure to run; one
plain `assert xs` (or an exact comparison) before the loop makes it pass.

What keeps false positives low: a loop over a literal (`for flag in ("--a", "--b")`), over `range` of a
positive constant, over `.items()` of a literal dict, or over a module-level name bound to a non-empty
literal is sure to iterate; loops inside nested functions are not read (helpers called by the test are
not followed either, so the check never flags a test that delegates its checks). What it misses: a check
inside an `if`, and a check whose loop is guarded by an assert on some other value.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
ITERATING = ("enumerate", "sorted", "reversed", "list", "tuple", "set", "zip")
"""Builtins that iterate a non-empty collection into a non-empty one."""


def surely_non_empty(expr: ast.expr, names: set[str]) -> bool:
    """Whether `expr` is a collection that cannot be empty; `names` are module names bound to such ones."""
    if isinstance(expr, ast.List | ast.Tuple | ast.Set):
        return any(not isinstance(element, ast.Starred) for element in expr.elts)
    if isinstance(expr, ast.Dict):
        return bool(expr.keys)
    if isinstance(expr, ast.Constant):
        return isinstance(expr.value, str | bytes) and bool(expr.value)
    if isinstance(expr, ast.Name):
        return expr.id in names
    if not isinstance(expr, ast.Call):
        return False
    function, args = expr.func, expr.args
    if isinstance(function, ast.Name) and function.id == "range":
        if not 1 <= len(args) <= 2 or not all(isinstance(arg, ast.Constant) for arg in args):
            return False
        start, stop = (0, args[0].value) if len(args) == 1 else (args[0].value, args[1].value)
        return stop > start
    if isinstance(function, ast.Name) and function.id in ITERATING:
        return bool(args) and all(surely_non_empty(arg, names) for arg in args)
    if isinstance(function, ast.Attribute) and function.attr in ("items", "keys", "values") and not args:
        return surely_non_empty(function.value, names)
    return False


def non_empty_names(tree: ast.Module) -> set[str]:
    """Module-level names bound to a collection that cannot be empty, in order of binding."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if surely_non_empty(node.value, names):
                names.update(target.id for target in targets if isinstance(target, ast.Name))
    return names


def _is_pytest_check(node: ast.With) -> bool:
    calls = [item.context_expr for item in node.items if isinstance(item.context_expr, ast.Call)]
    return any(
        isinstance(call.func, ast.Attribute)
        and call.func.attr in ("raises", "warns")
        and isinstance(call.func.value, ast.Name)
        and call.func.value.id == "pytest"
        for call in calls
    )


def _all_over_maybe_empty(node: ast.Assert, names: set[str]) -> bool:
    test = node.test
    if not (isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "all"):
        return False
    if len(test.args) != 1 or not isinstance(test.args[0], ast.GeneratorExp | ast.ListComp):
        return False
    return any(generator.ifs or not surely_non_empty(generator.iter, names) for generator in test.args[0].generators)


def checks(statements: list[ast.stmt], names: set[str], sure: bool = True):
    """`(check, sure to run)` for every check among `statements`, nested functions and classes left out."""
    for node in statements:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        if isinstance(node, ast.Assert):
            yield node, sure and not _all_over_maybe_empty(node, names)
        elif isinstance(node, ast.With) and _is_pytest_check(node):
            yield node, sure
        if isinstance(node, ast.For | ast.AsyncFor):
            yield from checks(node.body, names, sure and surely_non_empty(node.iter, names))
            yield from checks(node.orelse, names, sure)
            continue
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            for child in getattr(node, field, ()):
                yield from checks(
                    child.body if isinstance(child, ast.excepthandler | ast.match_case) else [child], names, sure
                )


def vacuous_tests(source: str) -> list[str]:
    """The test functions of `source` that have checks, none of them sure to run."""
    tree = ast.parse(source)
    names = non_empty_names(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test"):
            found_checks = list(checks(node.body, names))
            if found_checks and not any(sure for _, sure in found_checks):
                found.append(node.name)
    return found


def test_no_test_checks_only_inside_a_loop_that_may_not_run():
    flagged = [
        f"{path.relative_to(TESTS.parent)}::{name}"
        for path in sorted(TESTS.glob("test_*.py"))
        for name in vacuous_tests(path.read_text(encoding="utf-8"))
    ]
    assert flagged == [], "assert the collection is non-empty (or the exact expected set) before the loop"


FLAGGED = """
def test_loop_over_a_filter(run):
    for group in run.of_type("NodeGroup"):
        assert group.ok

def test_nested_loop_under_a_literal(run):
    for kind in ("a", "b"):
        for resource in run.of_type(kind):
            assert resource.ok

def test_all_over_a_filter(run):
    assert all(r.ok for r in run.resources if r.kind == "x")

def test_raises_in_a_loop(run):
    for value in run.values():
        with pytest.raises(ValueError):
            check(value)
"""

PASSING = """
FLAGS = ("--a", "--b")
EMPTY = ()

def test_guarded_loop(run):
    groups = run.of_type("NodeGroup")
    assert len(groups) == 2
    for group in groups:
        assert group.ok

def test_literal_loop():
    for flag in ("--a", "--b"):
        assert flag.startswith("--")

def test_constant_loop():
    for flag in FLAGS:
        assert flag

def test_range_and_items():
    for n in range(3):
        assert n >= 0
    for key, value in {"a": 1}.items():
        assert value

def test_all_over_a_literal():
    assert all(flag for flag in ("--a", "--b"))

def test_delegates_its_checks(run):
    check_everything(run)

def test_raises_outside(run):
    with pytest.raises(ValueError):
        run.go()
    for value in run.values():
        assert value
"""


def test_the_check_flags_each_kind_of_loop_that_may_not_run():
    assert vacuous_tests(textwrap.dedent(FLAGGED)) == [
        "test_loop_over_a_filter",
        "test_nested_loop_under_a_literal",
        "test_all_over_a_filter",
        "test_raises_in_a_loop",
    ]


def test_the_check_passes_guarded_literal_and_delegating_tests():
    assert vacuous_tests(textwrap.dedent(PASSING)) == []


@pytest.mark.parametrize(
    ("loop", "flagged"),
    [
        pytest.param("for x in EMPTY:", ["test_it"], id="a module name bound to an empty literal may be empty"),
        pytest.param("for x in (*run.items,):", ["test_it"], id="a literal of starred items may be empty"),
        pytest.param("for x in range(0):", ["test_it"], id="range(0) is empty"),
        pytest.param("for x in sorted(FLAGS):", [], id="sorted of a non-empty constant"),
    ],
)
def test_the_check_reads_what_a_loop_iterates(loop, flagged):
    source = f"FLAGS = ('--a',)\nEMPTY = ()\n\ndef test_it(run):\n    {loop}\n        assert x\n"
    assert vacuous_tests(source) == flagged
