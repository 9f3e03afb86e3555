"""What a program logs while the plan runs it: warnings become the plan's warnings, errors its program error."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator


@contextlib.contextmanager
def captured_logs() -> Iterator[list[logging.LogRecord]]:
    """Collect what the program logs (pulumi.log.warn and friends reach the root logger under mocks)."""
    records: list[logging.LogRecord] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    handler = Collect(logging.WARNING)
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield records
    finally:
        root.removeHandler(handler)
