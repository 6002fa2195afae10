"""Checking a builtin's arguments against its registered signature when the effect runs.

`set_counter(score, 5, 3)` or `place(soldier, n, s, p)` with `p` bound to a text naming no
power would otherwise write a key no rule reads (the state keeps `{red, blue, 5: 3}`) and go on
silently. Every argument the compiler cannot vouch for is checked here before the builtin runs:
an id of the parameter's kind, a whole number (a `count`: one from 0), a text, true or false, a
list. A value that fails is `effect/type-error` (a negative count `effect/bad-count`) at the
call's own place, and the action is rolled back like any rule error.

What the compiler vouches for costs nothing: a name it resolved among ids of the kind wanted
(`place(soldier, 1, c, red)`: all four), and a literal that passes the same check at load.
Only the rest — locals, parameters, `me`, values computed in play — is looked at, one set
lookup or class test each. The static pass (typecheck.py) reports at validation whatever of
this is known before play.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import wraps
from typing import Any

from . import ast
from .registry import ENTITY_KINDS, Builtin
from .runtime import CONTEXT_NAMES, RuleError, Where

_WANTED = {"int": "a whole number", "count": "a count (a whole number from 0)",
           "bool": "true or false", "text": "a text", "list": "a list"}


def wanted(kind: str) -> str:
    """How a parameter kind is said in messages: `a power`, `a whole number`…"""
    return _WANTED.get(kind, f"a {kind}")


def shown(value: Any) -> str:
    """A value as a designer would write it in an effect."""
    if value is None:
        return "none"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, int | float):
        return f"{value:g}" if isinstance(value, float) else str(value)
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "a row or mapping"
    return "a value of no kind the language has"


def problem(kind: str, value: Any, ids: Callable[[str], Any], cards: Any = ()) -> str | None:
    """Why `value` cannot stand for a parameter of `kind` (None when it can). `ids(kind)` gives
    the ids of an entity kind; `cards`, the card instances in play (for `card`)."""
    if kind == "any":
        return None
    if kind in ("int", "count"):
        if value.__class__ is float and value.is_integer():
            value = int(value)
        if value.__class__ is not int:
            return f"needs {wanted(kind)} here, not {shown(value)}"
        if kind == "count" and value < 0:
            return f"needs a count of 0 or more, not {value}"
        return None
    if kind == "bool":
        return None if value is True or value is False else \
            f"needs true or false here, not {shown(value)}"
    if kind == "text":
        return None if isinstance(value, str) else f"needs a text here, not {shown(value)}"
    if kind == "list":
        return None if isinstance(value, list | tuple) else \
            f"needs a list here, not {shown(value)}"
    if kind in ENTITY_KINDS:
        known = cards if kind == "card" else ids(kind)
        try:
            if isinstance(value, str) and value in known:
                return None
        except TypeError:
            pass
        what = "" if not isinstance(value, str) else " (no " + kind + " has that id)"
        return f"needs {wanted(kind)} here, not {shown(value)}{what}"
    return None


def _code(kind: str, value: Any) -> str:
    negative = kind == "count" and isinstance(value, int | float) and not isinstance(
        value, bool) and value < 0
    return "effect/bad-count" if negative else "effect/type-error"


def vouched(node: ast.Node, kind: str, nullable: bool, locals_: Any, game: Any) -> bool:
    """Whether the compiler guarantees the argument `node` fits `kind` (no check in play):
    an id it resolved among the kind's ids, or a literal that fits now and always will."""
    if kind == "any":
        return True
    if isinstance(node, ast.Literal) and node.value is None:
        return nullable
    if isinstance(node, ast.Name):
        return kind in ENTITY_KINDS and node.name not in locals_ \
            and node.name not in CONTEXT_NAMES and kind in game.kinds.get(node.name, ())
    if isinstance(node, ast.Literal):
        if kind == "card":
            return False  # copies of a card (`x#2`) are ids of play, not of the definition
        return problem(kind, node.value, game.ids) is None and not (
            kind in ("int", "count") and isinstance(node.value, float))
    return False


def guarded(builtin: Builtin, game: Any, sure: Sequence[bool]) -> Callable:
    """`builtin.fn`, or a function that checks the arguments the compiler could not vouch for
    (`sure[i]` false) before calling it. A whole float where a number belongs (`4 / 2`) is
    passed on as the int it is."""
    checks = tuple((i, builtin.kind(i), builtin.nullable(i)) for i, ok in enumerate(sure)
                   if not ok and builtin.kind(i) != "any")
    if not checks:
        return builtin.fn
    fn, name = builtin.fn, builtin.name
    ids = {kind: frozenset(game.ids(kind)) for kind in ENTITY_KINDS}.__getitem__
    numbers = ("int", "count")

    @wraps(fn)
    def checked(ctx, w: Where, *args):
        for i, kind, nullable in checks:
            if i >= len(args):
                break
            value = args[i]
            if value is None and nullable:
                continue
            if kind in numbers and value.__class__ is int and (kind == "int" or value >= 0):
                continue  # the usual case, decided without a call
            found = problem(kind, value, ids, ctx.state["cards"])
            if found is not None:
                raise RuleError(_code(kind, value), f"`{name}` {found}", w)
            if value.__class__ is float:
                args = (*args[:i], int(value), *args[i + 1:])
        return fn(ctx, w, *args)
    return checked
