"""Loop-invariant parts of a card filter, worked out once per (action, power) instead of once
per card.

An action's card filter runs for every card a power could use (flow.py). Parts of it often do
not depend on the card: `count(support_options(me)) > 0` is the same for every card in hand,
yet ran once per card. At compile time each largest sub-expression that names no local (not
`card`, not a comprehension's own name from outside it) and calls something is wrapped so that
its value is kept in the context's `memo` while one (action, power) is being listed; the flow
gives each such listing a fresh memo, and any other run has none (the part runs as compiled).

The value is worked out the first time a card's test reaches the part, not before: a card
whose earlier tests fail never made it run, so an error it would raise is raised at the same
moment as without the memo. Expressions change nothing (verbs are refused in them at
validation) and the state does not change while options are listed, so the kept value is the
value the part would have had for every card. A part that draws on the game's generator
(`random_pick`, `roll`) is left alone: it would not give the same value twice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import ast
from .registry import REGISTRY
from .static_checks import walk

Run = Callable[[Any, list], Any]

# functions that draw on the game's generator (they change it): never kept
_UNKEPT = frozenset({"random_pick", "roll"})


def loop_invariant(node: ast.Node, local_names: set[str] | dict, env: Any) -> bool:
    """Whether `node` is worth keeping and gives the same value for every card: it calls
    something, names none of the locals in scope, and every call in it — content functions
    included, through whatever they call — is one whose value depends on its arguments and the
    state only."""
    if isinstance(node, ast.Name | ast.Literal):
        return False
    calls = False
    for part in walk(node):
        if isinstance(part, ast.Name) and part.name in local_names:
            return False
        if isinstance(part, ast.Call):
            if not pure_call(part.name, env):
                return False
            calls = True
    return calls


def pure_call(name: str, env: Any, seen: set[str] | None = None) -> bool:
    """Whether a call of `name` only looks: a function, not a verb or a procedure, that does
    not draw on the generator — through whatever content functions it calls. Worked out once
    per name (content functions are all parsed before anything compiles)."""
    if seen is None:
        known = env.pure_calls.get(name)
        if known is None:
            known = pure_call(name, env, set())
            if name in env.function_trees or name in REGISTRY:  # else not parsed (yet)
                env.pure_calls[name] = known
        return known
    if name in _UNKEPT or name in env.procedure_params:
        return False
    builtin = REGISTRY.get(name)
    if builtin is not None and builtin.verb:
        return False
    tree = env.function_trees.get(name)
    if tree is None or name in seen:
        return True
    seen.add(name)
    return all(pure_call(p.name, env, seen) for p in walk(tree[0]) if isinstance(p, ast.Call))


def kept(run: Run) -> Run:
    """`run`, its value kept in `ctx.memo` (when the context has one) after its first run."""
    key = object()

    def run_kept(ctx, f):
        memo = ctx.memo
        if memo is None:
            return run(ctx, f)
        value = memo.get(key, memo)  # the memo itself: nothing kept yet
        if value is memo:
            value = memo[key] = run(ctx, f)
        return value
    return run_kept
