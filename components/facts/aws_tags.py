"""The rules AWS applies to the tags of every resource the stack creates.

EC2 user guide, "Tag restrictions" (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/Using_Tags.html#tag-restrictions),
stated alike by the other services' `Tag` API references (ECS, EKS): keys of 1-128 and values of at most 256
Unicode characters; "Don't use aws:, AWS:, or any upper or lowercase combination of such as a prefix for
either keys or values, as it is reserved for AWS use".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

RESERVED_TAG_PREFIX = "aws:"
MAX_TAG_KEY_LENGTH = 128
MAX_TAG_VALUE_LENGTH = 256


def is_reserved(text: object) -> bool:
    """Whether `text` starts with the prefix AWS reserves for its own tags (in any case)."""
    return isinstance(text, str) and text.lower().startswith(RESERVED_TAG_PREFIX)


def tag_problems(tags: Mapping[Any, object]) -> list[tuple[object, str]]:
    """(key, what is wrong) for each tag AWS would refuse; empty when every tag is acceptable."""
    found: list[tuple[object, str]] = []
    for key, value in tags.items():
        if not isinstance(key, str) or not 1 <= len(key) <= MAX_TAG_KEY_LENGTH:
            found.append((key, f"tag key {key!r}; allowed: a string of 1-{MAX_TAG_KEY_LENGTH} characters"))
        elif is_reserved(key):
            found.append((key, f"tag key {key!r}; keys starting with {RESERVED_TAG_PREFIX!r} (any case) are AWS's"))
        if not isinstance(value, str) or len(value) > MAX_TAG_VALUE_LENGTH:
            found.append((key, f"tag value {value!r}; allowed: a string of at most {MAX_TAG_VALUE_LENGTH} characters"))
        elif is_reserved(value):
            found.append(
                (key, f"tag value {value!r}; values starting with {RESERVED_TAG_PREFIX!r} (any case) are AWS's")
            )
    return found
