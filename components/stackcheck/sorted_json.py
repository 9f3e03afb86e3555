"""Finding one entry of a large JSON map whose keys are written in sorted order, one per line.

botocore's API models and kubernetes-validate's `_definitions.json` are written that way, so a binary search
over the file's text finds an entry without decoding megabytes of it (the AWS request check and the plan's
schema check both read them).
"""

from __future__ import annotations


def narrow_to_key(data: bytes, marker: bytes, wanted: bytes, start: int, end: int, window: int) -> tuple[int, int]:
    """A range of `data`, within `start`-`end` and at most about `window` bytes long unless the key is found
    first, in which the line `marker` + `wanted` + `"` stands if it stands anywhere in `start`-`end`.

    `marker` is what opens every key's line (`b'\\n    "'`); `wanted` is the key as the file spells it.
    """
    while end - start > window:
        middle = (start + end) // 2
        at = data.find(marker, middle, end)
        if at < 0:
            end = middle
            continue
        found = data[at + len(marker) : data.index(b'"', at + len(marker))]
        if found == wanted:
            return at, end
        if found < wanted:
            start = at + 1
        else:
            end = at
    return start, end
