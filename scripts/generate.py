"""Write every file derived from the components' inputs, declared once in the settings models
(components/settings/) and each concern's inputs.py:

- each concern's `args.py` (and components/args/placement.py): the components' args classes;
- Pulumi.yaml: the stack config's declarations (its `config:` block);
- docs/reference/configuration.md: the configuration reference, every key of the stack config;
- docs/reference/components.md: the components reference, every component's args field by field;
- plugin/schema.json: the component package's schema, as Pulumi's analyzer infers it from the args and outputs;
- components/observability/dashboards/gpu-inference-alerts.yaml: the alert rules at the defaults (components/observability/alert_rules.py);
- docs/reference/verdicts.md: the plan's verdicts, from their registry (components/placement/verdicts.py).

    python scripts/generate.py           # rewrite them
    python scripts/generate.py --check   # exit 1, naming this command, when one is out of date

Run it after changing an input (a settings field, an entry of a concern's inputs.py) or a component's outputs,
and commit the files with the change: the tests run the check (tests/project/test_generated.py), so a change without
its regenerated files fails.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from components.observability.alert_rules import RULES_FILE, rules_file_text  # noqa: E402
from plugin.host import SCHEMA_FILE, UPDATE_COMMAND, SchemaError, schema, schema_text  # noqa: E402 needs the checkout on the path
from scripts.generate_args import PACKAGE, DeclarationError, args_modules, generated_args  # noqa: E402
from scripts.generate_config import CONFIGURATION_PAGE, GeneratedRegionError, configuration_page, pulumi_yaml  # noqa: E402
from scripts.generate_reference import (  # noqa: E402
    COMPONENTS_PAGE,
    VERDICTS_PAGE,
    VERDICTS_SOURCE,
    components_page,
    verdicts_page,
)


def derived_files(root: Path = ROOT) -> dict[Path, str]:
    """Each derived file but the schema, and the text it must hold."""
    files = {root / path: text for path, text in args_modules().items()}
    files[root / "Pulumi.yaml"] = pulumi_yaml((root / "Pulumi.yaml").read_text(encoding="utf-8"))
    files[root / CONFIGURATION_PAGE] = configuration_page()
    files[root / COMPONENTS_PAGE] = components_page()
    files[root / RULES_FILE.relative_to(ROOT)] = rules_file_text()
    files[root / VERDICTS_PAGE] = verdicts_page()
    return files


def check(root: Path = ROOT) -> list[str]:
    """What is out of date, each with the fix; empty when every derived file holds what the inputs give now."""
    problems = []
    expected = derived_files(root)
    for path, text in expected.items():
        if not path.is_file():
            problems.append(f"{_shown(path)} is missing; create it with `{UPDATE_COMMAND}` and commit it")
        elif path.read_text(encoding="utf-8") != text:
            source = (
                f"{VERDICTS_SOURCE} gives"
                if path == root / VERDICTS_PAGE
                else "the settings and the input declarations give"
            )
            problems.append(
                f"{_shown(path)} differs from what {source} now; update it with `{UPDATE_COMMAND}` and commit it"
            )
    for path in generated_args(root):
        if path not in expected:
            problems.append(f"{_shown(path)} is no args module the input declarations name; remove it")
    schema_problem = check_schema(root / SCHEMA_FILE.relative_to(ROOT))
    return problems + ([schema_problem] if schema_problem else [])


def check_schema(path: Path = SCHEMA_FILE) -> str | None:
    """None when `path` holds exactly the schema the analyzer infers now, else what is wrong and the fix."""
    expected = schema_text(schema())
    try:
        committed = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return f"{_shown(path)} is missing; create it with `{UPDATE_COMMAND}` and commit it"
    if committed != expected:
        return (
            f"{_shown(path)} differs from the schema the components' args and outputs give now; "
            f"update it with `{UPDATE_COMMAND}` and commit it"
        )
    return None


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def write(root: Path = ROOT) -> list[Path]:
    """Rewrite every derived file that differs; the paths written."""
    written = []
    expected = derived_files(root)
    for path, text in expected.items():
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            written.append(path)
    for path in generated_args(root):
        if path not in expected:
            path.unlink()
            written.append(path)
    schema_file = root / SCHEMA_FILE.relative_to(ROOT)
    text = _schema_after(written)
    if not schema_file.is_file() or schema_file.read_text(encoding="utf-8") != text:
        schema_file.write_text(text, encoding="utf-8")
        written.append(schema_file)
    return written


def _schema_after(written: list[Path]) -> str:
    """The schema from the args as written now: analysed in a fresh interpreter when args this one already
    imported were rewritten."""
    if not imported_args_rewritten(written):
        return schema_text(schema())
    code = "import sys; from plugin.host import schema, schema_text; sys.stdout.write(schema_text(schema()))"
    completed = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return completed.stdout


def imported_args_rewritten(written: list[Path]) -> bool:
    """Whether `written` rewrote args modules of the checkout this interpreter imports them from, after it did.

    The args of another checkout (a copy under test) are not what this interpreter analyses, and the copy's
    texts are the ones this interpreter's declarations give, so its schema is this interpreter's.
    """
    imported = {Path(module.__file__) for module in list(sys.modules.values()) if getattr(module, "__file__", None)}
    return any(path.is_relative_to(ROOT / PACKAGE) and path in imported for path in written)


def main(argv: list[str] | None = None, root: Path = ROOT) -> int:
    """The command: write the derived files under `root` (the checkout), or with `--check` compare them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing; exit 1 when out of date")
    options = parser.parse_args(argv)
    try:
        if options.check:
            problems = check(root)
            for problem in problems:
                print(problem, file=sys.stderr)
            if not problems:
                print("every generated file is up to date")
            return 1 if problems else 0
        for path in write(root):
            print(f"wrote {_shown(path)}")
        return 0
    except (SchemaError, DeclarationError, GeneratedRegionError) as error:
        print(f"generate: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
