"""Build of the installable package: the project's top-level packages under one import name.

In the repository, `components/`, `placement/`, `stackcheck/`, `dashboards/` and `facts/` are top-level
packages: the Pulumi program (`__main__.py`), the tests and the offline tools import them as
`components`, `placement`, ... . An installed copy must not claim those names: a stack that installs it
often has a `components` package of its own, and only one of the two could be imported. The wheel
therefore holds them as `eks_gpu_inference.components`, `eks_gpu_inference.placement`, ... (see
docs/architecture.md, "Import name"), and its build rewrites the project's own absolute imports, and
strings that name its modules, in the built copies; the sources keep their plain imports.

Static metadata, package data and the command are in pyproject.toml. This file holds what setuptools
takes only from code: the package list (each top-level package and every package found under it, under
the import name; a new subpackage ships without a change here) and the rewriting build step.
"""

from __future__ import annotations

import ast
import io
import tokenize
from collections.abc import Collection, Iterator
from pathlib import Path

from setuptools import find_packages, setup
from setuptools.command.build_py import build_py

IMPORT_NAME = "eks_gpu_inference"
"""The one top-level name the installed package claims."""
PACKAGES = ("components", "placement", "stackcheck", "dashboards", "facts")
"""The repository's top-level packages; each one present is installed as `eks_gpu_inference.<name>`."""
ROOT = Path(__file__).resolve().parent


def package_layout(root: Path = ROOT) -> tuple[list[str], dict[str, str]]:
    """The packages to install and the directory of each top-level one (setuptools `package_dir`).

    `eks_gpu_inference` itself has no `__init__.py`: an implicit namespace package whose only content is
    the packages below it (PEP 420); each of them carries its own `py.typed` (PEP 561).
    """
    packages: list[str] = []
    package_dir: dict[str, str] = {}
    for name in PACKAGES:
        if not (root / name).is_dir():
            continue
        installed = f"{IMPORT_NAME}.{name}"
        package_dir[installed] = name
        packages.append(installed)
        packages += [f"{installed}.{sub}" for sub in find_packages(where=str(root / name))]
    return packages, package_dir


def own_modules(root: Path = ROOT) -> set[str]:
    """Dotted names of the project's modules and packages as the sources import them (`placement.guard`)."""
    modules = set()
    for name in PACKAGES:
        for path in (root / name).rglob("*.py") if (root / name).is_dir() else ():
            parts = path.relative_to(root).with_suffix("").parts
            modules.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
            modules.update(".".join(parts[:end]) for end in range(1, len(parts)))
    return modules


def rewrite_source(source: str, modules: Collection[str]) -> str:
    """`source` with its absolute imports of the project's packages, and its strings that are exactly the
    dotted name of one of `modules` (or of something in one, as `"placement.guard.gpu_guard"`), moved
    under `eks_gpu_inference`; everything else, comments and layout included, as it was.

    `import placement` becomes `import eks_gpu_inference.placement as placement` and
    `import placement.guard` becomes `import eks_gpu_inference.placement.guard, eks_gpu_inference.placement
    as placement`, so each binds the name the code uses.
    """
    lines = source.splitlines(keepends=True)
    edits = sorted(_edits(source, modules), reverse=True)
    for (row, start), end, text in edits:
        line = lines[row - 1]
        lines[row - 1] = line[:start] + text + line[end:]
    return "".join(lines)


def _edits(source: str, modules: Collection[str]) -> Iterator[tuple[tuple[int, int], int, str]]:
    """((row, start column), end column, replacement) for each piece `rewrite_source` replaces."""
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.ENCODING}
    tokens = [token for token in tokenize.generate_tokens(io.StringIO(source).readline) if token.type not in skip]
    statement_start = True
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if statement_start and token.type == tokenize.NAME and token.string == "from":
            module = tokens[index + 1]
            if module.type == tokenize.NAME and module.string in PACKAGES:
                yield module.start, module.end[1], f"{IMPORT_NAME}.{module.string}"
        elif statement_start and token.type == tokenize.NAME and token.string == "import":
            index = yield from _import_edits(tokens, index + 1)
            continue
        elif token.type == tokenize.STRING:
            yield from _string_edit(token, modules)
        statement_start = token.type in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT) or (
            token.type == tokenize.OP and token.string in (";", ":")
        )
        index += 1


def _import_edits(tokens: list[tokenize.TokenInfo], index: int):
    """Edits of the names of one `import a.b as c, d` statement starting at `tokens[index]`; returns the
    index of the token after the statement."""
    while True:
        first = last = tokens[index]
        index += 1
        while tokens[index].string == "." and tokens[index].type == tokenize.OP:
            last = tokens[index + 1]
            index += 2
        aliased = tokens[index].type == tokenize.NAME and tokens[index].string == "as"
        if aliased:
            index += 2
        if first.type == tokenize.NAME and first.string in PACKAGES and first.start[0] == last.end[0]:
            dotted = _line_text(first, last)
            if aliased or first is last:
                alias = "" if aliased else f" as {first.string}"
                yield first.start, last.end[1], f"{IMPORT_NAME}.{dotted}{alias}"
            else:
                yield (
                    first.start,
                    last.end[1],
                    f"{IMPORT_NAME}.{dotted}, {IMPORT_NAME}.{first.string} as {first.string}",
                )
        elif first.type == tokenize.NAME and first.string in PACKAGES:
            raise ValueError(f"line {first.start[0]}: write `import {first.string}...` on one line")
        if not (tokens[index].type == tokenize.OP and tokens[index].string == ","):
            return index
        index += 1


def _line_text(first: tokenize.TokenInfo, last: tokenize.TokenInfo) -> str:
    return first.line[first.start[1] : last.end[1]].replace(" ", "")


def _string_edit(token: tokenize.TokenInfo, modules: Collection[str]):
    try:
        value = ast.literal_eval(token.string)
    except (SyntaxError, ValueError):  # an f-string
        return
    if not isinstance(value, str) or token.start[0] != token.end[0]:
        return
    parts = value.split(".")
    if len(parts) < 2 or parts[0] not in PACKAGES or not all(part.isidentifier() for part in parts):
        return
    if not any(".".join(parts[:end]) in modules for end in range(2, len(parts) + 1)):
        return  # "placement.yaml": a file name, not a module
    quoted = token.string.index(value)
    yield token.start, token.end[1], token.string[:quoted] + f"{IMPORT_NAME}." + token.string[quoted:]


class RewritingBuildPy(build_py):
    """Copies the modules as setuptools does, then rewrites each copy with `rewrite_source`."""

    def finalize_options(self):
        super().finalize_options()
        self.own_modules = own_modules()

    def build_module(self, module, module_file, package):
        outfile, copied = super().build_module(module, module_file, package)
        if not self.dry_run:
            path = Path(outfile)
            source = path.read_text(encoding="utf-8")
            try:
                rewritten = rewrite_source(source, self.own_modules)
            except ValueError as error:
                raise ValueError(f"{module_file}: {error}") from None
            if rewritten != source:
                path.write_text(rewritten, encoding="utf-8")
        return outfile, copied


if __name__ == "__main__":
    # setuptools runs this file as __main__, in this directory, while it builds; the tests import it for
    # the names above.
    packages, package_dir = package_layout()
    setup(packages=packages, package_dir=package_dir, cmdclass={"build_py": RewritingBuildPy})
