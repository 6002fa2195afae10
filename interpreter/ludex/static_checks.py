"""Checks on compiled effects as a whole, after every name resolved: which message keys effects
log or ask with (locale_checks.py checks that they have text), and that no card's effect passes
a card to another power's private zone (SOR-6.3: "the validator rejects content that would")."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from . import ast
from .errors import Collector

# Calls whose first argument is a message key, and calls that move cards: (zone arg, power arg).
_MESSAGE_CALLS = {"log": 0, "end_game": 0}
_MOVES = {"move_card": (1, 2), "move_all": (1, 2), "draw": (2, 3), "draw_if_possible": (2, 3)}


@dataclass
class Source:
    tree: ast.Node
    file: str
    rule: str
    owner: str | None = None  # the owning power, for card effects
    params: dict[str, str] = dataclasses.field(default_factory=dict)  # name -> kind, if known


def walk(node) -> Iterator[ast.Node]:
    """Every syntax node in `node` (a node, or tuples and lists of them), each before the
    nodes inside it, in the order of their fields. With a stack, not nested generators: every
    check and the compiler walk each effect, and a nested `yield from` costs a step per level
    for every node."""
    stack = [node]
    pop, push = stack.pop, stack.extend
    while stack:
        node = pop()
        if isinstance(node, ast.Node):
            yield node
            names = INNER_FIELDS[node.__class__]
            push([getattr(node, name) for name in reversed(names)])
        elif isinstance(node, tuple | list):
            push(reversed(node))



def shape(node: Any) -> Any:
    """A syntax tree without its positions: two texts that say the same thing compare
    equal."""
    if isinstance(node, tuple | list):
        return tuple(shape(n) for n in node)
    if isinstance(node, ast.Node):
        return (node.__class__.__name__,
                *(shape(getattr(node, f)) for f in node.__dataclass_fields__
                  if f not in ast.POSITION_FIELDS))
    return node

# Field annotations of values that are never syntax nodes (positions, names, operators,
# literal values): the walks do not look into them.
_LEAF_TYPES = frozenset({"int", "str", "str | None", "Any"})


class _InnerFields(dict):
    """Node class -> its fields that may hold nodes, worked out on first use."""

    def __missing__(self, cls: type) -> tuple[str, ...]:
        names = self[cls] = tuple(f.name for f in dataclasses.fields(cls)
                                  if str(f.type) not in _LEAF_TYPES)
        return names


INNER_FIELDS = _InnerFields()


_BINDERS = (ast.Let, ast.Choose, ast.For, ast.Comprehension)


def bound_names(node) -> set[str]:
    """Every local name bound in `node` (`let`, `choose`, `for`, comprehensions): asked of
    every loop and effect while compiling, so it walks with a stack of its own rather than
    through `walk`'s generator."""
    names: set[str] = set()
    stack = [node]
    pop, push = stack.pop, stack.extend
    while stack:
        node = pop()
        if isinstance(node, ast.Node):
            if isinstance(node, _BINDERS):
                names.add(node.name)
            push([getattr(node, name) for name in INNER_FIELDS[node.__class__]])
        elif isinstance(node, tuple | list):
            push(node)
    return names


def message_keys(sources: list[Source], windows: dict[str, tuple[str, int, int]]
                 ) -> dict[str, tuple[str, int, int]]:
    """Message key -> where it is first used."""
    keys: dict[str, tuple[str, int, int]] = {}
    for source in sources:
        for node in walk(source.tree):
            key, at = None, node
            if isinstance(node, ast.Call) and node.name in _MESSAGE_CALLS and node.args:
                first = node.args[_MESSAGE_CALLS[node.name]]
                key = first.value if isinstance(first, ast.Literal) else None
                at = first  # the key itself, not the call
            elif isinstance(node, ast.Choose):
                key = node.prompt or "choose"
            elif isinstance(node, ast.Require) and node.message:
                key = node.message
            if isinstance(key, str):
                keys.setdefault(key, (source.file, at.line, at.col))
    for window, where in windows.items():
        keys.setdefault(window, where)  # a window's name is the prompt of its question
    return keys


@dataclass
class Logged:
    """The `log` calls of one message key: the fewest arguments one passes (`a0`, `a1`…; a
    text may show none past those, or that call would leave it blank) and the most (a primary
    text should show each), each with where its call is."""

    fewest: int
    fewest_at: tuple[str, int, int]
    most: int
    most_at: tuple[str, int, int]


def logged_arguments(sources: list[Source]) -> dict[str, Logged]:
    """Message key -> its `log` calls' arguments (Logged)."""
    found: dict[str, Logged] = {}
    for source in sources:
        for node in walk(source.tree):
            if not (isinstance(node, ast.Call) and node.name == "log" and node.args
                    and isinstance(node.args[0], ast.Literal)
                    and isinstance(node.args[0].value, str)):
                continue
            key, passed = node.args[0].value, len(node.args) - 1
            at = (source.file, node.line, node.col)
            calls = found.setdefault(key, Logged(passed, at, passed, at))
            if passed < calls.fewest:
                calls.fewest, calls.fewest_at = passed, at
            if passed > calls.most:
                calls.most, calls.most_at = passed, at
    return found


def check_card_passing(definition, sources: list[Source], errors: Collector) -> None:
    for source in sources:
        if not source.owner:
            continue
        for node in walk(source.tree):
            if not isinstance(node, ast.Call) or node.name not in _MOVES:
                continue
            zone_at, power_at = _MOVES[node.name]
            if len(node.args) <= power_at:
                continue
            zone, power = node.args[zone_at], node.args[power_at]
            if not (isinstance(zone, ast.Name) and isinstance(power, ast.Name)):
                continue
            spec = definition.zones.get(zone.name, {})
            is_power = "power" in definition.kinds.get(power.name, ())
            if spec.get("private") and is_power and power.name != source.owner:
                errors.error(source.file, node.line, node.col, "content/card-passing",
                             f"`{source.rule}` belongs to {source.owner} but would put cards "
                             f"into {power.name}'s {zone.name}; cards are never passed between "
                             "players")


def changing_calls(tree: ast.Node, procedures) -> list[ast.Call]:
    """The calls in an expression that would change the game: verbs and content procedures.
    Conditions, card filters, `when` tests, functions and scores are evaluated to *look* —
    on every option listed and after every step — so they must not change anything."""
    from .registry import REGISTRY

    found = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Call) and (
                (node.name in REGISTRY and REGISTRY[node.name].verb) or node.name in procedures):
            found.append(node)
        stack.extend(_children(node))
    return sorted(found, key=lambda call: (call.line, call.col))


def _children(node: object) -> list:
    if isinstance(node, tuple):
        return list(node)
    if not dataclasses.is_dataclass(node):
        return []
    return [getattr(node, f.name) for f in dataclasses.fields(node)
            if f.name not in ast.POSITION_FIELDS]
