"""Values an effect works out before a question, kept for the replays of its unit.

The engine answers a decision by running the unit again from its start with the answers given
so far (engine.py). Up to the point where a run has used only answers the unit already had,
it does exactly what the earlier runs did: same start, same answers, same code. So a value
worked out there — a `let`, the options of a `choose`, the list a `for` goes over — is the
value it had before, and it is kept under (where in the code, answers used so far, how many
times that code ran with that many answers) instead of being worked out again: in a loop that
asks at every turn, each replay no longer redoes every earlier turn's lists. Only values that
call something are kept (a plain name or number costs less than looking it up), and only when
every call in them only looks (hoisting.pure_call): a verb or a roll of the dice changes the
state, so it runs in every replay. A run past the given answers (a new answer, a look ahead)
works everything out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import ast
from .hoisting import pure_call
from .static_checks import walk

Run = Callable[[Any, list], Any]


def worth_keeping(node: ast.Node, env: Any) -> bool:
    """Whether the value of `node` calls something, and every call in it only looks: a verb,
    a procedure or a roll of the dice must run again in every replay (they change the state,
    the generator included)."""
    calls = [n for n in walk(node) if isinstance(n, ast.Call)]
    if not all(pure_call(n.name, env) for n in calls):
        return False
    return bool(calls) or any(isinstance(n, ast.Comprehension) for n in walk(node))


def replayed(run: Run) -> Run:
    """`run`, its value kept in `ctx.replayed` while the run has used only given answers."""
    key = object()

    def run_replayed(ctx, f):
        kept = ctx.replayed
        if kept is None:
            return run(ctx, f)
        used = ctx.used
        if used > ctx.known:
            return run(ctx, f)
        seen = ctx.seen
        at = (key, used)
        times = seen.get(at, 0)
        seen[at] = times + 1
        at = (key, used, times)
        value = kept.get(at, kept)  # the dictionary itself: nothing kept yet
        if value is kept:
            value = kept[at] = run(ctx, f)
        return value
    return run_replayed
