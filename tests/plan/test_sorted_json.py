"""The binary search the AWS request check and the schema check share: a key of a sorted JSON map is found in
the range it narrows to, and a key the map lacks is not."""

from __future__ import annotations

import json

import pytest

from components.stackcheck.sorted_json import narrow_to_key

KEYS = [f"Shape{index:04d}" for index in range(2000)]
DOCUMENT = json.dumps({key: {"type": "structure", "doc": "x" * 40} for key in KEYS}, indent=4).encode()
MARKER = b'\n    "'


@pytest.mark.parametrize(
    "key", ["Shape0000", "Shape0999", "Shape1000", "Shape1999"], ids=["first", "middle", "after middle", "last"]
)
def test_a_present_key_stands_in_the_narrowed_range(key):
    start, end = narrow_to_key(DOCUMENT, MARKER, key.encode(), 0, len(DOCUMENT), window=4096)
    line = MARKER + key.encode() + b'"'

    assert DOCUMENT.find(line, start, end + len(line)) >= 0
    assert end - start <= 4096 or DOCUMENT.startswith(line, start)


def test_a_missing_key_is_in_no_range():
    start, end = narrow_to_key(DOCUMENT, MARKER, b"Shape0999a", 0, len(DOCUMENT), window=4096)
    line = MARKER + b'Shape0999a"'

    assert end - start <= 4096
    assert DOCUMENT.find(line, start, end + len(line)) < 0
