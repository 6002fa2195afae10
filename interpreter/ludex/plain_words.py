"""Python's error texts said in the effect language's words, for the rule errors an effect
meets at run time ("unsupported operand type(s) for +: 'int' and 'str'" becomes "`+` cannot
combine a number and a text"). Only ever called on the error path: no cost while rules run.
"""

from __future__ import annotations

import re

_KINDS = {"int": "a number", "float": "a number", "bool": "true or false", "str": "a text",
          "list": "a list", "tuple": "a list", "dict": "a mapping", "NoneType": "none"}
_T = r"'(\w+)'"
_PATTERNS = [
    (re.compile(rf"unsupported operand type\(s\) for ([^:]+): {_T} and {_T}"),
     lambda m: f"`{m[1]}` cannot combine {_kind(m[2])} and {_kind(m[3])}"),
    (re.compile(rf"'([<>=!]+)' not supported between instances of {_T} and {_T}"),
     lambda m: f"cannot compare {_kind(m[2])} with {_kind(m[3])} using `{m[1]}`"),
    (re.compile(rf"bad operand type for unary (.): {_T}"),
     lambda m: f"cannot use `{m[1]}` on {_kind(m[2])}"),
    (re.compile(r'can only concatenate (\w+) \(not "(\w+)"\) to \w+'),
     lambda m: f"cannot add {_kind(m[2])} to {_kind(m[1])}"),
    (re.compile(rf"{_T} object is not (iterable|subscriptable)"),
     lambda m: f"{_kind(m[1])} is not a list"),
    (re.compile(rf"{_T} object cannot be interpreted as an integer"),
     lambda m: f"{_kind(m[1])} is not a number"),
    (re.compile(rf"list indices must be integers or slices, not {_T[1:-1]}"),
     lambda m: f"a list is indexed by a number, not {_kind(m[1])}"),
    (re.compile(r"(?:list|string|tuple) index out of range"), lambda m: "no item at that index"),
    (re.compile(r"(?:integer )?(?:division|modulo)(?: or modulo)? by zero"),
     lambda m: "division by zero"),
    (re.compile(rf"unhashable type: {_T}"), lambda m: f"{_kind(m[1])} cannot be a key"),
]


def _kind(python_type: str) -> str:
    return _KINDS.get(python_type, "a value")


def kind_of(value: object) -> str:
    """What a value is, in the language's words: "a number", "a text", "none"…"""
    return _kind(type(value).__name__)


def plain(exc: BaseException) -> str:
    """What went wrong, without Python's vocabulary."""
    text = str(exc)
    for pattern, say in _PATTERNS:
        match = pattern.search(text)
        if match:
            return say(match)
    return "a value of the wrong kind"


def missing_item(items: object, index: object) -> str:
    """Why `items[index]` has no item, with the index asked and how many items there are:
    "no item at index 0 of an empty list" (`cards(mesa)[0]` with the table dealt out)."""
    what = "text" if isinstance(items, str) else "list"
    count = len(items) if isinstance(items, (list, tuple, str)) else None
    if count is None:
        return "no item at that index"
    if count == 0:
        return f"no item at index {index} of an empty {what}"
    things = ("character" if what == "text" else "item") + ("s" if count != 1 else "")
    return f"no item at index {index} of a {what} of {count} {things}"
