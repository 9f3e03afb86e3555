"""Write the component package's schema to plugin/schema.json, as Pulumi's analyzer infers it from the args.

    python scripts/generate_schema.py           # rewrite plugin/schema.json
    python scripts/generate_schema.py --check   # exit 1, naming this command, when the file is out of date

Run it after changing a component's args or outputs, and commit the file with the change: CI runs the
check (tests/test_plugin_schema.py), so an args change without a schema update fails.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from plugin.host import SCHEMA_FILE, UPDATE_COMMAND, SchemaError, schema, schema_text  # noqa: E402 needs the checkout on the path


def check(path: Path = SCHEMA_FILE) -> str | None:
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing; exit 1 when out of date")
    args = parser.parse_args(argv)
    try:
        return _run(args.check)
    except SchemaError as error:
        print(f"generate_schema: {error}", file=sys.stderr)
        return 1


def _run(check_only: bool) -> int:
    if check_only:
        problem = check(SCHEMA_FILE)
        if problem:
            print(problem, file=sys.stderr)
            return 1
        print(f"{_shown(SCHEMA_FILE)} is up to date")
        return 0
    SCHEMA_FILE.write_text(schema_text(schema()), encoding="utf-8")
    print(f"wrote {_shown(SCHEMA_FILE)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
