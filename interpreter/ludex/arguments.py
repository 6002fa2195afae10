"""Checking a builtin's arguments against its registered signature when the effect runs.

`set_counter(score, 5, 3)` or `place(soldier, n, s, p)` with `p` bound to a text naming no
power would otherwise write a key no rule reads (the state keeps `{red, blue, 5: 3}`) and go on
silently. Every argument the compiler cannot vouch for is checked here before the builtin runs:
an id of the parameter's kind, a whole number (a `count`: one from 0), a text, true or false, a
list. A value that fails is `effect/type-error` (a negative count `effect/bad-count`) at the
argument's own place, and the action is rolled back like any rule error.

What the compiler vouches for costs nothing: a name it resolved among ids of the kind wanted
(`place(soldier, 1, c, red)`: all four), and a literal that passes the same check at load.
Only the rest — locals, parameters, `me`, values computed in play — is looked at, one set
lookup or class test each. The static pass (typecheck.py) reports at validation whatever of
this is known before play.
"""

from __future__ import annotations

from collections.abc import Callable
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
        return problem(kind, node.value, game.id_set) is None and not (
            kind in ("int", "count") and isinstance(node.value, float))
    return False


def checked(run: Callable, builtin: Builtin, index: int, where: Where, game: Any,
            slot: int | None = None, me: bool = False) -> Callable:
    """The argument closure `run` of `builtin`'s parameter `index`, made to check its value
    (the compiler could not vouch for it): the value, a whole float made an int (`4 / 2`), or
    a rule error at the argument.

    The check runs on every call of a builtin in play, conditions and filters included, so it
    is folded into the argument's own closure — no call is added: a local (`slot`) or `me` is
    read and tested in place, a set lookup for an id or a class test for a number, and only a
    value that fails goes through `problem` for its message."""
    kind, nullable, name = builtin.kind(index), builtin.nullable(index), builtin.name
    ids = game.id_set

    def slow(ctx, value):
        if value is None and nullable:
            return None
        found = problem(kind, value, ids, ctx.state["cards"])
        if found is not None:
            raise RuleError(_code(kind, value), f"`{name}` {found}", where)
        return int(value) if value.__class__ is float else value

    if kind in ENTITY_KINDS and kind != "card":
        allowed = ids(kind)
        if slot is not None:
            def local_id(ctx, f):
                value = f[slot]
                if value.__class__ is str and value in allowed:
                    return value
                return slow(ctx, value)
            return local_id
        if me:
            def me_id(ctx, f):
                value = ctx.me
                if value.__class__ is str and value in allowed:
                    return value
                return slow(ctx, value)
            return me_id

        def an_id(ctx, f):
            value = run(ctx, f)
            if value.__class__ is str and value in allowed:
                return value
            return slow(ctx, value)
        return an_id
    if kind in ("int", "count"):
        least = 0 if kind == "count" else None

        def a_number(ctx, f):
            value = f[slot] if slot is not None else run(ctx, f)
            if value.__class__ is int and (least is None or value >= least):
                return value
            return slow(ctx, value)
        return a_number
    if kind == "card":
        def a_card(ctx, f):
            value = f[slot] if slot is not None else run(ctx, f)
            if value.__class__ is str and value in ctx.state["cards"]:
                return value
            return slow(ctx, value)
        return a_card

    fits = {"text": str, "bool": bool, "list": list}.get(kind)

    def a_value(ctx, f):  # a text, true or false, a list
        value = run(ctx, f)
        if value.__class__ is fits:
            return value
        return slow(ctx, value)
    return a_value
