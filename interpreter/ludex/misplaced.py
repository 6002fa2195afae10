"""Keys indented one level too deep: a key unknown where it stands that the mapping one level
out would take. `valor:` indented under `palo:` in `card_attributes` is an unknown key of
`palo`'s declaration, though what was meant is a second attribute beside `palo`; saying
"unknown key" alone sent a designer looking for a misspelling.
"""

from __future__ import annotations

import re
from typing import Any

from .yamlio import Document

# Documents whose unknown keys may each cost a check of the whole document with the key moved
# out: a handful is what a slip of indentation gives; a file of cards each with an unknown
# key would otherwise be checked once per card.
MOVES_TRIED = 5


def indented_under(doc: Document, check: Any, path: tuple, key: str,
                   tries: list[int]) -> str | None:
    """The hint for an unknown `key` of the mapping at `path` when it is written on a line of
    its own below that mapping's key, and the document with `key` moved one level out passes
    `check` (a validator's `iter_errors`) there; None otherwise. `tries` counts the checks
    made for the document (MOVES_TRIED at most)."""
    if not path or not isinstance(path[-1], str) or tries[0] >= MOVES_TRIED:
        return None
    parent, outer_path = path[-1], path[:-1]
    outer, inner = doc.value(outer_path), doc.value(path)
    if not isinstance(outer, dict) or not isinstance(inner, dict) or key in outer:
        return None
    key_line, key_col = doc.key_pos((*path, key))
    parent_line, parent_col = doc.key_pos(path)
    if key_line == parent_line or key_col <= parent_col:
        return None  # inside `{…}` on the key's line: braces misplaced, not indentation
    tries[0] += 1
    moved = _moved(doc.data, outer_path, parent, key)
    if any(_refuses(error, outer_path, key) for error in check(moved)):
        return None
    return (f"`{key}` is indented under `{parent}`: to declare it beside `{parent}`, indent it "
            f"as `{parent}` is")


def _moved(data: Any, outer_path: tuple, parent: str, key: str) -> Any:
    """A copy of `data` with `key` taken out of the mapping under `parent` and put beside it
    (copied along the path only: the rest is shared, and nothing is changed in place)."""
    if not outer_path:
        outer = dict(data)
        inner = dict(outer[parent])
        outer[key] = inner.pop(key)
        outer[parent] = inner
        return outer
    step, rest = outer_path[0], outer_path[1:]
    copied = list(data) if isinstance(data, list) else dict(data)
    copied[step] = _moved(data[step], rest, parent, key)
    return copied


def _refuses(error: Any, outer_path: tuple, key: str) -> bool:
    """Whether a schema error of the moved document is about `key` in its new place."""
    where = tuple(error.absolute_path)
    if where[:len(outer_path) + 1] == (*outer_path, key):
        return True  # its value is not what a key there holds
    if where != outer_path:
        return False
    if error.validator == "additionalProperties":
        return key not in (error.schema.get("properties") or {}) and not any(
            re.search(pattern, key) for pattern in error.schema.get("patternProperties") or {})
    if error.validator == "propertyNames":
        return error.instance == key
    return error.validator in ("oneOf", "anyOf")  # the mapping as a whole no longer fits
