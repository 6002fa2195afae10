"""Phase effects that run a step at a time, so that a long phase does not replay from its
start on every decision.

The engine runs work in units and replays a unit's answers when it asks a new question
(engine.py). A phase whose effect loops over many decisions (`repeat 30:` with a `choose`
inside) would replay every earlier answer at each one: quadratic in the phase's decisions.
`plan_program` cuts such an effect, at load, into steps the engine runs as units of their own:
the statements outside the loops, the evaluation of each loop's count or list, and each
iteration's body (cut the same way when it holds a loop that asks). The effect's locals live in
a frame the engine keeps between the steps and copies into each try, so a step that fails or
asks again leaves them as they were. A decision then replays only its own iteration.

Only loops that may ask are cut (a `choose`, a procedure call, or a verb registered with
`asks`): a loop that never asks runs as one step, as fast as before. An `if` holding such a loop
is cut too (its conditions are one step, the branch taken runs a step at a time), and so is a
call of a content procedure holding one (`place_units(me)` whose `repeat n:` asks at every turn):
its arguments are one step that binds the procedure's parameters, in slots of the effect's
frame set apart for it, and its body is cut the same way. Missing a loop that asks
costs speed, never correctness. What a step-at-a-time run changes is the scope of rollback: a
`require` that fails in a later step does not undo an answer given in an earlier one, as with
any two units (an action's effect is never cut: actions stay atomic).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from . import ast
from .compiler import MAX_REPEAT, Compiler, Scope
from .registry import REGISTRY
from .runtime import Context, RuleError
from .static_checks import walk

Step = Callable[[Context, list], Any]  # runs against the effect's frame


@dataclass(frozen=True)
class Block:
    """Statements that run together as one step."""

    run: Step


@dataclass(frozen=True)
class Loop:
    """A `repeat` or `for` whose body may ask: its header is one step, each iteration more."""

    header: Step  # stores the count (repeat) or the items (for) in `slot`
    slot: int
    bind: int | None  # for: the loop's name
    test: Step | None  # for … where: checked as each item comes up
    test_slot: int
    body: tuple[Block | Loop | Branch, ...]


@dataclass(frozen=True)
class Branch:
    """An `if` holding a loop that asks: its conditions are one step (the number of the branch
    taken goes to `slot`; the `else` is the last), then that branch's steps."""

    header: Step
    slot: int
    branches: tuple[tuple[Block | Loop | Branch, ...], ...]


@dataclass(frozen=True)
class Plan:
    steps: tuple[Block | Loop, ...]
    size: int


def may_ask(nodes: Any, game: Any) -> bool:
    """Whether running these statements may ask a question (conservatively)."""
    for node in walk(nodes):
        if isinstance(node, ast.Choose):
            return True
        if isinstance(node, ast.Call):
            builtin = REGISTRY.get(node.name)
            if node.name in game.procedure_params or (builtin is not None and builtin.asks):
                return True
    return False


CUT_CALLS = True  # False: a procedure call or an `if` is one step (tests compare both ways)
MAX_CUT_DEPTH = 6  # procedures cut open inside procedures cut open…: beyond this, one step


def plan_program(compiler: Compiler, tree: ast.Program) -> Plan | None:
    """The effect cut into steps, or None when no loop in it may ask (one unit is best)."""
    if not any(_cut(node, compiler.env) for node in tree.body):
        return None
    scope = Scope()
    steps = _steps(compiler, tree.body, scope)
    if compiler.errors:
        return None
    return Plan(steps, scope.size)


def _cut(node: ast.Node, game: Any, calling: tuple[str, ...] = ()) -> bool:
    """Whether `node` holds a loop that may ask, and is cut into steps to reach it."""
    if isinstance(node, ast.Repeat | ast.For):
        return may_ask(node.body, game)
    if not CUT_CALLS or len(calling) >= MAX_CUT_DEPTH:
        return False
    if isinstance(node, ast.If):
        bodies = [body for _, body in node.branches] + [node.orelse]
        return any(_cut(n, game, calling) for body in bodies for n in body)
    callee = _procedure(node, game)
    if callee is None or callee in calling:  # one that reaches itself stays one step
        return False
    tree = game.procedure_trees[callee][0]
    return any(_cut(n, game, (*calling, callee)) for n in tree.body)


def _procedure(node: ast.Node, game: Any) -> str | None:
    """The content procedure a call statement runs, when its tree is known."""
    if isinstance(node, ast.CallStmt) and node.call.name in game.procedure_trees \
            and node.call.name not in REGISTRY \
            and len(node.call.args) == len(game.procedure_trees[node.call.name][2]):
        return node.call.name
    return None


def _steps(compiler: Compiler, body: tuple[ast.Node, ...], scope: Scope,
           calling: tuple[str, ...] = ()) -> tuple[Block | Loop | Branch, ...]:
    steps: list[Block | Loop | Branch] = []
    pending: list[Step] = []
    for node in body:
        if not _cut(node, compiler.env, calling):
            pending.append(compiler.stmt(node, scope))  # compiled in order: slots bind in order
            continue
        if pending:
            steps.append(Block(_together(pending)))
            pending = []
        if isinstance(node, ast.If):
            steps.append(_branch(compiler, node, scope, calling))
        elif isinstance(node, ast.CallStmt):
            steps += _call(compiler, node, scope, calling)
        else:
            steps.append(_loop(compiler, node, scope, calling))
    if pending:
        steps.append(Block(_together(pending)))
    return tuple(steps)


def _branch(compiler: Compiler, node: ast.If, scope: Scope, calling: tuple[str, ...]
            ) -> Branch:
    """`if`/`elif`/`else` whose branches hold a loop that asks: the conditions, in order, as
    one step, as the closures test them (compiler.py's `compile_if`)."""
    slot = scope.bind(f"$if{node.line}:{node.col}")  # `$` is in no name of the language
    conditions = tuple(compiler.expr(condition, scope) for condition, _ in node.branches)
    branches = [_steps(compiler, body, scope, calling) for _, body in node.branches]
    branches.append(_steps(compiler, node.orelse, scope, calling) if node.orelse else ())

    def header(ctx, f):
        for number, condition in enumerate(conditions):
            if condition(ctx, f):
                f[slot] = number
                return
        f[slot] = len(conditions)  # the `else`, or nothing
    return Branch(header, slot, tuple(branches))


def _call(compiler: Compiler, node: ast.CallStmt, scope: Scope, calling: tuple[str, ...]
          ) -> list[Block | Loop | Branch]:
    """A call of a content procedure holding a loop that asks: one step that works its
    arguments out and binds its parameters, in fresh slots of the frame (its locals start
    as `none`, as in a frame of its own), then its body's steps. The call counts its step
    against the budget, as any call does."""
    name = node.call.name
    tree, file, params = compiler.env.procedure_trees[name]
    args = tuple(compiler.expr(a, scope) for a in node.call.args)
    where = compiler.where(node.call)
    inner = Scope(params, parent=scope)
    first = inner.slots[params[0]] if params else scope.frame.size
    callee = Compiler(compiler.env, file, name, fast=compiler.fast)
    body = _steps(callee, tree.body, inner, (*calling, name))
    compiler.errors += callee.errors
    slots = tuple(inner.slots[p] for p in params)
    last = scope.frame.size

    def bind(ctx, f):
        ctx.steps += 1  # calls count against the step budget, as compiler.py's user_call
        if ctx.steps > ctx.budget:
            ctx.step(where)
        values = [arg(ctx, f) for arg in args]
        f[first:last] = [None] * (last - first)
        for slot, value in zip(slots, values, strict=True):
            f[slot] = value
    return [Block(bind), *body]



def _together(runs: list[Step]) -> Step:
    runs = tuple(runs)

    def run(ctx, f):
        for step in runs:
            step(ctx, f)
    return run


def _loop(compiler: Compiler, node: ast.Repeat | ast.For, scope: Scope,
          calling: tuple[str, ...] = ()) -> Loop:
    where = compiler.where(node)
    slot = scope.bind(f"$loop{node.line}:{node.col}")  # `$` is in no name of the language
    if isinstance(node, ast.Repeat):
        count = compiler.expr(node.count, scope)

        def count_header(ctx, f):
            times = count(ctx, f)
            if not isinstance(times, int) or not 0 <= times <= MAX_REPEAT:
                raise RuleError("effect/bad-repeat",
                                f"repeat {times} is outside 0–{MAX_REPEAT}", where)
            f[slot] = times
        return Loop(count_header, slot, None, None, 0,
                    _steps(compiler, node.body, scope, calling))
    items = compiler.expr(node.iterable, scope)
    bind = scope.bind(node.name)
    test = compiler.expr(node.where, scope) if node.where is not None else None
    test_slot = scope.bind(f"$test{node.line}:{node.col}")

    def items_header(ctx, f):
        f[slot] = list(items(ctx, f))

    def test_item(ctx, f):
        f[test_slot] = bool(test(ctx, f))
    return Loop(items_header, slot, bind, test_item if test else None, test_slot,
                _steps(compiler, node.body, scope, calling))


def units(plan: Plan, frame: list, label: str) -> Iterator[tuple[str, Step]]:
    """The steps of a run of `plan`, in order, as (label, step). Read lazily: a loop's count or
    items are read from `frame` once its header step has been run and kept (the engine copies
    a kept step's frame back into this list)."""
    yield from _walk(plan.steps, frame, label)


def _walk(steps: tuple[Block | Loop | Branch, ...], frame: list, label: str
          ) -> Iterator[tuple[str, Step]]:
    for step in steps:
        if isinstance(step, Block):
            yield label, step.run
            continue
        yield label, step.header
        if isinstance(step, Branch):
            yield from _walk(step.branches[frame[step.slot]], frame, label)
            continue
        if step.bind is None:
            for number in range(frame[step.slot]):
                yield from _walk(step.body, frame, f"{label}:{number + 1}")
            continue
        for number, item in enumerate(frame[step.slot]):
            yield f"{label}:{number + 1}", _binder(step.bind, item)
            if step.test is not None:
                yield f"{label}:{number + 1}", step.test
                if not frame[step.test_slot]:
                    continue
            yield from _walk(step.body, frame, f"{label}:{number + 1}")


def _binder(slot: int, item: Any) -> Step:
    def bind(ctx, f):
        f[slot] = item
    return bind

