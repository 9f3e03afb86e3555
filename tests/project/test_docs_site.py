"""The documentation: `docs/` builds as a MkDocs site with `--strict` (every link and anchor resolves, every page is
in the navigation), and the README stays a short front page whose links name files that exist."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

# mkdocs-material prints a notice about MkDocs 2.0 on every build unless this is set (its own message says so).
QUIET = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


def build(project: Path, site: Path) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` of the project at `project`, with the interpreter running the tests."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(project / "mkdocs.yml")]
        + ["--site-dir", str(site)],
        capture_output=True,
        text=True,
        env=QUIET,
        timeout=120,
        check=False,
    )


def test_the_site_builds_strict_with_every_page(tmp_path):
    done = build(ROOT, tmp_path / "site")

    assert done.returncode == 0, done.stderr
    pages = {path.relative_to(ROOT / "docs").with_suffix("") for path in (ROOT / "docs").rglob("*.md")}
    built = {path.parent.relative_to(tmp_path / "site") for path in (tmp_path / "site").rglob("index.html")} | {
        Path("index")
    }
    assert pages <= built, pages - built


def test_a_broken_link_and_a_page_left_out_of_the_navigation_fail_the_build(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(ROOT / "docs", project / "docs")
    shutil.copy(ROOT / "mkdocs.yml", project / "mkdocs.yml")
    page = project / "docs" / "models.md"
    page.write_text(page.read_text() + "\nSee [the old page](choosing-a-model.md).\n")
    (project / "docs" / "orphan.md").write_text("# A page nobody lists\n")

    done = build(project, tmp_path / "site")

    assert done.returncode == 1
    assert "'models.md' contains a link 'choosing-a-model.md', but the target is not found" in done.stderr
    assert "orphan.md" in done.stderr and 'not included in the "nav" configuration' in done.stderr


def test_the_readme_is_a_short_front_page_whose_links_name_files_of_the_repository():
    readme = (ROOT / "README.md").read_text()
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", readme)
    local = [target for target in targets if not target.startswith(("http://", "https://"))]

    assert len(readme.splitlines()) <= 250
    assert "docs/reference/configuration.md" in local and "docs/development.md" in local
    assert [target for target in local if not (ROOT / target).is_file()] == []
