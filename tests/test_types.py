"""The package, the component plugin and the program type-check: mypy's configuration lives in pyproject.toml
([tool.mypy]), and any finding fails.

mypy reads the Pulumi SDKs' inline types too (pulumi_aws alone is about 3,000 modules), which makes a run
without a cache take minutes; the cache lives in the system's temporary directory, one per checkout and
interpreter, so later runs check only what changed (a few seconds).
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = (
    Path(tempfile.gettempdir())
    / "eks-gpu-inference-mypy"
    / hashlib.sha256(f"{ROOT}\0{sys.prefix}".encode()).hexdigest()[:16]
)


def test_mypy_finds_no_type_error():
    completed = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(CACHE)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
