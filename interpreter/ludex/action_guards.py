"""Options of an action window whose legality their opening tests decide, without a run.

Many actions open with the tests that make them legal, before they change anything:

    require can_pay(coins, p, c.cost_coins) and can_pay(military, p, c.cost_military) else …
    pay(coins, p, c.cost_coins)
    pay(military, p, c.cost_military)
    …moves, gains, logs and questions that cannot refuse…

Such an action is legal exactly when its tests hold: its *guard* — the `let`s and `require`s it
opens with, and on into the procedure its next statement calls (its arguments bound to the
procedure's parameters), and so on down — is compiled once per action and evaluated on the state
at the question, a few microseconds against a run of the whole action (`Game.legal_actions`).

The guard decides only when nothing after it can refuse (quiet_actions.py: no `require`, no
`choose` with possibly nothing to choose from, in what it calls, in the card event it plays, in
a trigger it may set off), except for the `pay`s that come right after it and that it has
vouched for: a `pay(X, P, N)` cannot be refused when a test of the guard was `can_pay(X, P, N)`
with the same arguments, those arguments read nothing that can change in between (locals bound
once, ids, literals, card and table attributes that are data, not a card's zone or owner or a
space's markers), the pays before it spend none of the counters it could pay with, and no
trigger's effect can change a counter. A `pay` that asks how to pay is no dead end: what
follows it is quiet, so every way completes the action.

Worked out from the syntax trees, conservatively: whatever cannot be told leaves the option to
be run. The guard itself runs exactly what the action's run would run first, on the same state;
an error in it (not a broken `require`) leaves the option to the run, which meets the same
error. As with quiet actions, a content error *after* the guard shows when the option is played,
not when it is listed. tests/test_action_guards.py lists every decision of random games with and
without guards and compares.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import ast
from .compiler import Compiler, Scope
from .pysource import only_looks
from .quiet_actions import bound_names, may_refuse, quiet, triggers_may_refuse
from .registry import REGISTRY
from .runtime import CONTEXT_NAMES, Illegal, looking, window_option
from .static_checks import shape, walk

# a card's attributes that change in play (the rest of a card's attributes are its data)
_CHANGING_ATTRIBUTES = frozenset({"zone", "owner", "card"})
# verbs that change no counter (a trigger calling only these cannot undo a vouched `pay`);
# `draw` is judged by the `empty` procedures it may run, `signal` by the triggers it runs
# (each of them is judged itself)
_COUNTER_FREE_VERBS = frozenset({
    "set_flag", "set_marker", "place", "remove", "move_pieces", "move_card", "shuffle",
    "move_all", "put_tokens", "log", "end_game", "signal", "remember", "slip_under",
    "set_winner", "draw", "draw_if_possible", "end_window"})


@dataclass(frozen=True)
class _Level:
    """One effect the guard goes through — the action's, then each procedure it goes on
    into — and what of it runs after the guard."""

    rest: tuple[ast.Node, ...]  # the statements after its guard part (and vouched pays)
    names: tuple[str, ...]  # its locals: parameters and the guard's `let`s
    holds_card: bool  # its name `card` is the action's card


@dataclass(frozen=True)
class Guard:
    """An action's compiled guard and the effects that run after it."""

    # in order, (True, test) for a `require` — the `Illegal` it would raise, or None when it
    # holds (Compiler.require_refusal) — and (False, run) for the `let`s between them and the
    # binding of a called procedure's parameters: one flat list rather than nested blocks,
    # and a refusal returned, not raised, since most of what a guard tests is refused
    steps: tuple[tuple[bool, Any], ...]
    size: int
    levels: tuple[_Level, ...] = field(repr=False)

    def judge(self, game: Any, state: dict, me: str, card: str | None) -> bool | Illegal | None:
        """Whether the action, taken by `me` with `card` at `state`, is legal: True when its
        guard holds, the `Illegal` of its first `require` that does not (the one its run
        raises). None when the guard meets an error: the option is left to a run, which meets
        it too."""
        ctx = looking(game, state, me=me, only_reads=True)  # the guard only looks
        frame = [None] * self.size
        if card:
            frame[0] = card
        try:
            for is_test, step in self.steps:
                if is_test:
                    refused = step(ctx, frame)
                    if refused is not None:
                        return refused
                else:
                    step(ctx, frame)
        except Illegal as refused:  # a rule broken inside what a test calls, as a run meets it
            return refused
        except Exception:
            return None
        return True


def guard(game: Any, action_id: str, card: str | None) -> Guard | None:
    """The guard that decides the action, given a card of definition `card` (None: no card),
    or None when it has none that does. Worked out once per (action, card), kept on the
    definition."""
    key = (action_id, card)
    if key not in game.action_guards:
        found = _guard_of(game, action_id)
        if found is not None and not _decides(game, found, card):
            found = None
        game.action_guards[key] = found
    return game.action_guards[key]


def _guard_of(game: Any, action_id: str) -> Guard | None:
    """The action's guard, compiled, whatever its card; None when it has no `require`."""
    if action_id not in game.action_guards:  # by the action alone: whatever its card
        game.action_guards[action_id] = _compile_guard(game, action_id)
    return game.action_guards[action_id]


def _compile_guard(game: Any, action_id: str) -> Guard | None:
    action = game.actions[action_id]
    compiled = action.get("run")
    tree = getattr(compiled, "tree", None)
    if tree is None or triggers_may_refuse(game):
        return None
    params = ("card",) if "filter" in action else ()
    compiler = Compiler(game, compiled.where.file, action_id)
    root = scope = Scope(params)
    body, names = tree.body, params
    holds_card = bool(params) and "card" not in bound_names(tree)
    steps, levels, tests, seen, failed = [], [], 0, set(), False
    while True:
        part = _guard_part(body, names, game)
        steps += _guard_steps(compiler, part, scope)
        tests += sum(isinstance(node, ast.Require) for node in part)
        names += tuple(node.name for node in part if isinstance(node, ast.Let))
        rest = body[len(part):]
        callee = _procedure_called(rest, game, seen)
        failed = failed or bool(compiler.errors)
        if callee is None:
            vouched = _vouched_pays(part, rest, names, game)
            if vouched and not _counters_safe_from_triggers(game):
                vouched = 0
            levels.append(_Level(rest[vouched:], names, holds_card))
            break
        call, (callee_tree, callee_file, callee_params) = callee, game.procedure_trees[callee.name]
        levels.append(_Level(rest[1:], names, holds_card))
        inner = Scope((), parent=scope)  # the callee sees none of its caller's locals
        steps.append((False, _binding([compiler.expr(a, scope) for a in call.args],
                                      [inner.bind(p) for p in callee_params])))
        # the callee's `card` is the action's card when the caller's is and passes it on
        holds_card = holds_card and "card" in callee_params \
            and _is_name(call.args[callee_params.index("card")], "card") \
            and "card" not in bound_names(callee_tree)
        failed = failed or bool(compiler.errors)
        seen.add(call.name)
        compiler, scope = Compiler(game, callee_file, call.name), inner
        body, names = callee_tree.body, callee_params
    if not tests or failed:
        return None
    return Guard(tuple(steps), root.size, tuple(levels))


def _guard_steps(compiler: Compiler, part: tuple, scope: Scope) -> list[tuple[bool, Any]]:
    """A guard part's statements as the guard's steps: each `require` a test, each `let` run
    as a block of statements runs it."""
    return [(True, compiler.require_refusal(node, scope)) if isinstance(node, ast.Require)
            else (False, compiler.block((node,), scope)) for node in part]


def _guard_part(body: tuple, names: tuple[str, ...], game: Any) -> tuple:
    """The `let`s and `require`s an effect opens with that only look, each `let` binding a
    name not bound before (so a name means one value all through the guard)."""
    bound, end = set(names), 0
    for node in body:
        if isinstance(node, ast.Let):
            if node.name in bound or not only_looks(node.value, game):
                break
            bound.add(node.name)
        # a `require` whose condition and reason's arguments only look (`else ("k", a)`)
        elif not (isinstance(node, ast.Require) and only_looks(node, game)):
            break
        end += 1
    return body[:end]


def _procedure_called(rest: tuple, game: Any, seen: set[str]) -> ast.Call | None:
    """The content procedure the statement after a guard part calls, if the guard can go on
    into it: its arguments only look (the guard runs on the state itself), and it is not one
    the guard is in already (a procedure reaching itself is left to a run)."""
    if not rest or not isinstance(rest[0], ast.CallStmt):
        return None
    call = rest[0].call
    found = game.procedure_trees.get(call.name)
    if found is None or call.name in seen or len(call.args) != len(found[2]) \
            or not all(only_looks(arg, game) for arg in call.args):
        return None  # arguments that act (`noop(draw(…))`) are the run's to work out
    return call


def _is_name(node: ast.Node, name: str) -> bool:
    return isinstance(node, ast.Name) and node.name == name


def _binding(args: list, slots: list[int]) -> Any:
    """A procedure call's arguments, worked out in the caller's locals and bound to the
    callee's parameters (fresh slots of the same frame). All are worked out before any is
    bound, as a call does; one and two arguments (most calls) without a loop."""
    pairs = tuple(zip(args, slots, strict=True))
    if len(pairs) == 1:
        ((arg, slot),) = pairs

        def bind_one(ctx, f):
            f[slot] = arg(ctx, f)
        return bind_one
    if len(pairs) == 2:
        (first, first_slot), (second, second_slot) = pairs

        def bind_two(ctx, f):
            value = first(ctx, f)
            f[second_slot] = second(ctx, f)
            f[first_slot] = value
        return bind_two

    def run(ctx, f):
        values = [arg(ctx, f) for arg, _ in pairs]
        for value, (_, slot) in zip(values, pairs, strict=True):
            f[slot] = value
    return run


def _decides(game: Any, found: Guard, card: str | None) -> bool:
    """Whether, given a card of definition `card`, nothing after the guard can refuse
    (quiet_actions.py), the vouched pays aside."""
    return not any(
        may_refuse(ast.Program(1, 1, level.rest), game, card if level.holds_card else None,
                  frozenset(), level.names)
        for level in found.levels if level.rest)


# -- vouched pays -------------------------------------------------------------------------

def _vouched_pays(part: tuple, rest: tuple, names: tuple[str, ...], game: Any) -> int:
    """How many `pay`s open `rest` that the guard part's `can_pay` tests vouch for."""
    tested = set()
    for i, node in enumerate(part):
        if not isinstance(node, ast.Require):
            continue
        later = {n.name for n in part[i + 1:] if isinstance(n, ast.Let)}
        for test in _conjuncts(node.condition):
            if isinstance(test, ast.Call) and test.name == "can_pay" and len(test.args) == 3 \
                    and all(_unchanging(a, names, later, game) for a in test.args):
                tested.add(shape(test.args))
    spent: set[str] = set()
    count = 0
    for node in rest:
        call = node.call if isinstance(node, ast.CallStmt) else None
        if call is None or call.name != "pay" or shape(call.args) not in tested:
            break
        counter = call.args[0]
        if not isinstance(counter, ast.Name) or counter.name not in game.counters \
                or counter.name in names:
            break
        payable_with = {counter.name, *(name for name, _ in game.substitutes.get(counter.name, ()))}
        if payable_with & spent:  # an earlier pay may have spent what this one counted on
            break
        spent |= payable_with
        count += 1
    return count


def _conjuncts(node: ast.Node) -> list[ast.Node]:
    if isinstance(node, ast.BoolOp) and node.op == "and":
        return _conjuncts(node.left) + _conjuncts(node.right)
    return [node]


def _unchanging(node: ast.Node, names: tuple[str, ...], later: set[str], game: Any) -> bool:
    """Whether `node` has the same value at the `pay` as at its `require`: it reads no state
    that a pay or a trigger may change, and no name in it is bound after the `require`."""
    if isinstance(node, ast.Literal):
        return True
    if isinstance(node, ast.Name):
        if node.name in later:
            return False
        return node.name in names or node.name == "me" or (
            node.name not in CONTEXT_NAMES and node.name in game.kinds)
    if isinstance(node, ast.Attribute):
        return node.name not in _CHANGING_ATTRIBUTES and node.name not in game.markers \
            and _unchanging(node.target, names, later, game)
    if isinstance(node, ast.Binary):
        return _unchanging(node.left, names, later, game) and \
            _unchanging(node.right, names, later, game)
    if isinstance(node, ast.Negate):
        return _unchanging(node.operand, names, later, game)
    return False


def _counters_safe_from_triggers(game: Any) -> bool:
    """Whether no trigger's effect can change a counter (one that ran between a vouched
    test and its `pay` could make the cost unpayable)."""
    key = "triggers leave counters"
    if key not in game.analysis_memo:
        game.analysis_memo[key] = not any(
            _may_change_counters(getattr(t.get("run"), "tree", None), game, frozenset())
            for t in game.triggers)
    return game.analysis_memo[key]


def _may_change_counters(tree: Any, game: Any, seen: frozenset[str]) -> bool:
    if tree is None:
        return True
    for node in walk(tree):
        if not isinstance(node, ast.Call):
            continue
        if node.name in game.procedure_params:
            procedure = game.procedure_trees.get(node.name)
            if node.name in seen or procedure is None or \
                    _may_change_counters(procedure[0], game, seen | {node.name}):
                return True
        elif node.name in ("draw", "draw_if_possible"):
            for zone in game.zones.values():
                empty = zone.get("empty")
                if empty and empty not in seen and _may_change_counters(
                        game.procedure_trees.get(empty, (None,))[0], game, seen | {empty}):
                    return True
        elif _is_verb(node.name) and node.name not in _COUNTER_FREE_VERBS:
            return True
    return False


def _is_verb(name: str) -> bool:
    builtin = REGISTRY.get(name)
    return builtin is not None and builtin.verb


_UNSEEN = object()  # an (action, card) `verdict` has not met yet
_UNGUARDED = object()  # one not quiet whose guard has not been asked for yet


def verdict(definition: Any, option: str, state: dict, who: str | None, guards: bool = True
            ) -> bool | Illegal | None:
    """A window option's legality without a run, in `state`: True (a quiet action, or one
    whose guard holds), the `Illegal` its guard's broken `require` raises (the one running it
    would raise), or None (it must be run to tell). `guards`: whether guards may decide
    (`Game.guard_windows`)."""
    power, action_id, card = window_option(option)
    cards = state["cards"]
    if action_id not in definition.actions or (card and card not in cards):
        return None
    kind = cards[card]["card"] if card else None
    key = (action_id, kind)
    decider = definition.option_deciders.get(key, _UNSEEN)
    if decider is _UNSEEN:
        decider = True if quiet(definition, action_id, kind) else _UNGUARDED
        definition.option_deciders[key] = decider
    if decider is True:
        return True
    if not guards:
        return None
    if decider is _UNGUARDED:  # its guard, worked out only once guards are asked for
        decider = definition.option_deciders[key] = guard(definition, action_id, kind)
    return None if decider is None else decider.judge(definition, state, power or who, card)
