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
    if most <= 0 or fewest == len(decision.options):
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


MAX_SETS_TRIED = 200  # sets an agent tries after refusals before it calls the question stuck


def untried(decision: Decision, refused: list, below) -> tuple[list | None, int]:
    """(an answer the rules have not refused yet, or None when none is left to try; how many
    answers the question has). `below(n)` draws a number in [0, n) from the agent's own
    generator. A question of at most MAX_SETS_TRIED answers is tried through to its last one
    (None: every answer breaks a rule); a larger one gets seeded draws until that many were
    refused. Answers are told apart by what they hold: two equal options picked either way
    are one answer."""
    fewest, most = wanted(decision)
    count = len(decision.options)
    total = answer_count(decision)
    tried = {_held(answer) for answer in refused}
    if total <= MAX_SETS_TRIED:
        left = [given for given in in_order(decision, total) if _held(given) not in tried]
        return (left[below(len(left))] if left else None), total
    for _ in range(10 * MAX_SETS_TRIED if len(tried) < MAX_SETS_TRIED else 0):
        size = fewest + below(most - fewest + 1)
        pool, picked = list(range(count)), []
        for _ in range(size):
            picked.append(pool.pop(below(len(pool))))
        given = answer(decision, picked)
        if _held(given) not in tried:
            return given, total
    return None, total


def answer_count(decision: Decision) -> int:
    """How many different answers a question of several options has (sets of what its
    options hold: two equal options make fewer)."""
    fewest, most = wanted(decision)
    places = sum(math.comb(len(decision.options), k) for k in range(fewest, most + 1))
    if places > 20 * MAX_SETS_TRIED:  # too many to list: as good as all different
        return places
    return len(in_order(decision, places))


def in_order(decision: Decision, limit: int = MAX_SETS_TRIED) -> list[list]:
    """The question's first `limit` different answers, the first options first (the smallest
    sets first for `up to`)."""
    fewest, most = wanted(decision)
    seen: set[tuple] = set()
    found: list[list] = []
    for k in range(fewest, most + 1):
        for places in itertools.combinations(range(len(decision.options)), k):
            given = answer(decision, list(places))
            if _held(given) not in seen:
                seen.add(_held(given))
                found.append(given)
                if len(found) >= limit:
                    return found
    return found


def _held(given) -> tuple:
    """An answer as what it holds, in a fixed order (equal options once each time held)."""
    items = given if isinstance(given, list | tuple) else [given]
    return tuple(sorted(repr(item) for item in items))
