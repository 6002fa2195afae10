"""Checks on compiled effects as a whole, after every name resolved: which message keys effects
log or ask with, and with how many arguments (locale_checks.py checks that they have text and
that the text asks for no more), that every `require` gives a reason, that what `recalled`
reads some `remember` keeps, and that no card's effect passes a card to another power's private
zone (SOR-6.3: "the validator rejects content that would")."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from . import ast
from .errors import Collector, did_you_mean

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


def nodes(tree: ast.Node, memo: dict | None = None) -> tuple[ast.Node, ...]:
    """Every syntax node in `tree`, in `walk`'s order. With `memo` (a definition's
    `analysis_memo`) each tree is walked once, however many checks ask: after compiling,
    the message keys, `me`, action windows and card conditions each look at every effect."""
    if memo is None:
        return tuple(walk(tree))
    key = ("nodes", id(tree))
    found = memo.get(key)
    if found is None:
        found = memo[key] = (tree, tuple(walk(tree)))  # the tree kept: its id stays its own
    return found[1]


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


@dataclass(frozen=True)
class MessageUse:
    """One place an effect names a message key: where the key is written (`at`), where its
    statement or call is (`use_at`), how the use reads in a diagnostic (`how`), and how many
    arguments the engine fills the message with there: `a0`… from the values a `log` or
    `end_game` call, a question's prompt (`prompt ("key", a)`) or a `require`'s reason
    (`else ("key", a)`) gives it; none for a key alone."""

    key: str
    at: tuple[str, int, int]
    use_at: tuple[str, int, int]
    how: str
    passed: int


def message_uses(sources: list[Source], memo: dict | None = None) -> Iterator[MessageUse]:
    """Every use of a message key in the effects, in order (`memo`: as for `nodes`)."""
    for source in sources:
        for node in nodes(source.tree, memo):
            use_at = (source.file, node.line, node.col)
            if isinstance(node, ast.Call) and node.name in _MESSAGE_CALLS and node.args:
                first = node.args[_MESSAGE_CALLS[node.name]]
                if isinstance(first, ast.Literal) and isinstance(first.value, str):
                    key = first.value
                    how = f'`{node.name}("{key}"' + (", …)`" if len(node.args) > 1 else ")`")
                    yield MessageUse(key, (source.file, first.line, first.col), use_at, how,
                                     len(node.args) - 1)
            elif isinstance(node, ast.Choose):
                how = f"`choose … prompt {_written(node.prompt)}`" if node.prompt else \
                    "`choose` (its prompt is the message `choose`)"
                # a prompt is placed where it is written, not at `choose` (a designer's trial)
                at = (source.file, node.prompt.line, node.prompt.col) if node.prompt else use_at
                yield MessageUse(node.prompt.key if node.prompt else "choose", at, use_at,
                                 how, len(node.prompt.args) if node.prompt else 0)
            elif isinstance(node, ast.Require) and node.message:
                at = (source.file, node.message.line, node.message.col)
                yield MessageUse(node.message.key, at, use_at,
                                 f"`require … else {_written(node.message)}`",
                                 len(node.message.args))


def _written(message: ast.Message) -> str:
    """A message as a diagnostic quotes it: `"key"`, `("key", …)`."""
    return f'("{message.key}", …)' if message.args else f'"{message.key}"'


def message_keys(uses: list[MessageUse], windows: dict[str, tuple[str, int, int]]
                 ) -> dict[str, tuple[str, int, int]]:
    """Message key -> where it is first used (`uses`: message_uses of the effects)."""
    keys: dict[str, tuple[str, int, int]] = {}
    for use in uses:
        keys.setdefault(use.key, use.at)  # the key itself, not the call
    for window, where in windows.items():
        keys.setdefault(window, where)  # a window's name is the prompt of its question
    return keys


@dataclass
class Filled:
    """What the engine fills one message key with over all its uses: the fewest arguments one
    passes (`a0`, `a1`…; a text may show none past those, or that use would show it raw) and
    the most (a primary text should show each), each with the use (MessageUse) that passes
    them."""

    fewest: MessageUse
    most: MessageUse

    def add(self, use: MessageUse) -> None:
        if use.passed < self.fewest.passed:
            self.fewest = use
        if use.passed > self.most.passed:
            self.most = use


def filled_arguments(uses: list[MessageUse], windows: dict[str, tuple[str, int, int]]
                     ) -> dict[str, Filled]:
    """Message key -> the arguments its uses fill it with (Filled): `log` calls, prompts of
    `choose` and of action windows, `require` reasons, `end_game` reasons (`uses`:
    message_uses of the effects)."""
    found: dict[str, Filled] = {}
    for use in uses:
        add_use(found, use)
    for window, where in windows.items():
        add_use(found, MessageUse(window, where, where, f"the question of the window `{window}`",
                                  0))
    return found


def add_use(found: dict[str, Filled], use: MessageUse) -> None:
    if use.key in found:
        found[use.key].add(use)
    else:
        found[use.key] = Filled(use, use)


def check_card_passing(definition, sources: list[Source], errors: Collector) -> None:
    for source in sources:
        if not source.owner:
            continue
        for node in nodes(source.tree, definition.analysis_memo):
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


def check_require_reasons(sources: list[Source], errors: Collector) -> None:
    """A `require` without `else` refuses with no reason: a player is told only that the
    rule refuses, a bot cannot tell one refusal from another, and a scenario cannot name which
    rule it expects (a designer's trial dropped one and nothing said so)."""
    for source in sources:
        for node in walk(source.tree):
            if isinstance(node, ast.Require) and node.message is None:
                errors.warning(source.file, node.line, node.col, "rules/require-without-reason",
                               "this `require` gives no reason: a player it refuses is told "
                               "only that the rule refuses, not why; give one with "
                               '`else "key"`, or `else ("key", a)` to fill it with values')


# Builtins that keep a value in the game's memory or read one, each by its key: which argument
# is the key. Nothing else sets a key in play (a scenario's `state: memory:` sets one for a test).
MEMORY_WRITES = {"remember": 0}
MEMORY_READS = {"recalled": 0}
# Errors after which an effect has no tree, so its `remember`s are not seen: then a key not
# found may be one of theirs, and is not reported.
_UNPARSED = frozenset({"effect/syntax", "effect/indentation", "effect/glued-comment",
                       "effect/number-too-large", "effect/too-deep"})


@dataclass
class MemoryKeys:
    """The keys the game's effects keep values under and read, each where first written as a
    literal text; `*_worked_out`: some key is a value worked out in play (`remember(k, …)`),
    so any key at all may be kept, or read."""

    written: dict[str, tuple[str, int, int]] = dataclasses.field(default_factory=dict)
    read: dict[str, tuple[str, int, int]] = dataclasses.field(default_factory=dict)
    writes_worked_out: bool = False
    reads_worked_out: bool = False


def memory_keys(sources: list[Source]) -> MemoryKeys:
    found = MemoryKeys()
    for source in sources:
        for node in walk(source.tree):
            if not isinstance(node, ast.Call):
                continue
            for calls, keys, flag in ((MEMORY_WRITES, found.written, "writes_worked_out"),
                                      (MEMORY_READS, found.read, "reads_worked_out")):
                if node.name in calls and len(node.args) > calls[node.name]:
                    key = node.args[calls[node.name]]
                    if isinstance(key, ast.Literal) and isinstance(key.value, str):
                        keys.setdefault(key.value, (source.file, key.line, key.col))
                    else:
                        setattr(found, flag, True)
    return found


def check_recalled_keys(sources: list[Source], errors: Collector,
                        declared: dict[str, str] | None = None) -> None:
    """`recalled("trunfo")` where every `remember` of the game writes a key written out and
    none writes "trunfo": it is none whatever happens, and the game played on without a trump
    (a designer's trial misspelt "triunfo"). Where some key is worked out in play, any key may
    be kept, and nothing is reported. A game that declares its memory (`declared`: key ->
    type) names every key there: a key written out in a `remember` or `recalled` that it does
    not declare is reported instead."""
    if declared is not None:
        _check_declared_keys(sources, errors, declared)
        return
    if any(d.is_error and d.code in _UNPARSED for d in errors.diagnostics):
        return
    keys = memory_keys(sources)
    if keys.writes_worked_out:
        return
    for source, node, key in _literal_keys(sources, MEMORY_READS):
        if key.value not in keys.written:
            errors.error(source.file, key.line, key.col, "effect/unknown-memory",
                         f'no `remember` of the game keeps a value under "{key.value}", so '
                         f'`{node.name}("{key.value}")` is always none'
                         + did_you_mean(key.value, keys.written))


def _check_declared_keys(sources: list[Source], errors: Collector,
                         declared: dict[str, str]) -> None:
    for source, node, key in _literal_keys(sources, {**MEMORY_WRITES, **MEMORY_READS}):
        if key.value not in declared:
            errors.error(source.file, key.line, key.col, "effect/unknown-memory",
                         f'the manifest\'s `memory` declares no key "{key.value}" for '
                         f"`{node.name}`" + did_you_mean(key.value, declared))


def _literal_keys(sources: list[Source], calls: dict[str, int]):
    """(source, call, key) for each call among `calls` whose key is a text written out."""
    for source in sources:
        for node in walk(source.tree):
            if isinstance(node, ast.Call) and node.name in calls \
                    and len(node.args) > calls[node.name]:
                key = node.args[calls[node.name]]
                if isinstance(key, ast.Literal) and isinstance(key.value, str):
                    yield source, node, key


def changing_calls(tree: ast.Node, procedures) -> list[ast.Call]:
    """The calls in an expression that would change the game: verbs and content procedures.
    Conditions, card filters, `when` tests, functions and scores are evaluated to *look* —
    on every option listed and after every step — so they must not change anything."""
    from .registry import REGISTRY

    found = [node for node in walk(tree) if isinstance(node, ast.Call) and (
        (node.name in REGISTRY and REGISTRY[node.name].verb) or node.name in procedures)]
    return sorted(found, key=lambda call: (call.line, call.col))
