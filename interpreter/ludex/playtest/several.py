"""A question that takes several options (`exactly N`, `up to N`) seen as a walk of single
picks, so that a search can weigh its answers one pick at a time instead of drawing one.

A walk picks options not yet picked, in any order; `STOP` ends the walk of an `up to` question
early, and a walk ends by itself once it holds the question's count. Any order, rather than the
order the question lists its options in (which would reach each set by one walk only): with a
fixed order, the first pick decides which options may follow (the third of three good options
picked first shuts out the other two), and searches that started down such a pick kept to it
(2 seeds of 10 at 400 iterations in tests/test_playtest_several.py's position, none with any
order). With any order the search learns that "a good option first" is good whichever good
option it is; the price is that one set's visits are shared among the orders it is reached by.
"""

from __future__ import annotations

import itertools
import math
import random

from ..runtime import Decision

STOP = -1  # the step that ends an `up to` pick where it stands


def wanted(decision: Decision) -> tuple[int, int]:
    """(fewest, most) options an answer to the question holds."""
    most = min(decision.count, len(decision.options))
    return (most if decision.mode == "exactly" else 0), most


def steps(decision: Decision, picked: list[int]) -> list[int]:
    """The steps that may follow the picks made so far (indices into the options, and `STOP`
    where the answer may end here); an empty list when the answer is complete."""
    fewest, most = wanted(decision)
    if len(picked) >= most:
        return []
    taken = set(picked)
    picks = [i for i in range(len(decision.options)) if i not in taken]
    if len(picked) >= fewest:
        return [STOP, *picks] if picks else []
    return picks


def only_answer(decision: Decision) -> list | None:
    """The answer when the question leaves no choice (all of its options, or none), else
    None."""
    fewest, most = wanted(decision)
    if most == 0 or fewest == len(decision.options):
        return answer(decision, list(range(most)))
    return None


def complete(decision: Decision, picked: list[int], rng: random.Random) -> list[int]:
    """The picks made so far completed with seeded random steps."""
    picked = list(picked)
    while True:
        allowed = steps(decision, picked)
        if not allowed:
            return picked
        step = allowed[rng.randrange(len(allowed))]
        if step == STOP:
            return picked
        picked.append(step)


def answer(decision: Decision, picked: list[int]) -> list:
    """The answer the picks make: the options they name, in the question's order (one set,
    one answer, whatever order it was picked in)."""
    return [decision.options[i] for i in sorted(picked)]


def answers(decision: Decision, rng: random.Random, limit: int) -> list[list]:
    """Distinct answers to the question: all of them when there are at most `limit`, else
    `limit` seeded draws (each size from fewest to most as likely as in `complete`)."""
    fewest, most = wanted(decision)
    indices = range(len(decision.options))
    total = sum(math.comb(len(indices), k) for k in range(fewest, most + 1))
    if total <= limit:
        return [answer(decision, list(c)) for k in range(fewest, most + 1)
                for c in itertools.combinations(indices, k)]
    found: dict[tuple, list] = {}
    while len(found) < limit:
        picked = tuple(sorted(complete(decision, [], rng)))
        found.setdefault(picked, answer(decision, list(picked)))
    return list(found.values())
