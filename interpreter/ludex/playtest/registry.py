"""Agents by name, for `ludex play`, `ludex simulate` and any table that seats them:
`make_agent("mcts:200", seed=7)`. A name may carry a budget after a colon: `mcts:500` (500
iterations a decision, reproducible) or `mcts:2s` (two seconds a decision, not reproducible);
`greedy` and `random` take none."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..agents import FirstLegal, RandomAgent
from ..terminal import Human
from .greedy import Greedy
from .mcts import MCTS

DEFAULT_ITERATIONS = 200


# Budgets as written: plain digits (int() and float() also take ` 5`, `1_000`, `1e3`, `inf`,
# which a save would then record as another name than the one given)
_ITERATIONS = re.compile(r"[0-9]{1,9}")
_SECONDS = re.compile(r"([0-9]{1,9}(\.[0-9]{1,9})?|\.[0-9]{1,9})s")


def _mcts(seed: int, budget: str | None) -> MCTS:
    if budget is None:
        return MCTS(seed, iterations=DEFAULT_ITERATIONS)
    if _SECONDS.fullmatch(budget):
        seconds = float(budget[:-1])
        if seconds <= 0:  # no time at all: not a budget
            raise ValueError(budget)
        return MCTS(seed, seconds=seconds)
    if not _ITERATIONS.fullmatch(budget) or int(budget) < 1:  # a search of no iteration
        raise ValueError(budget)
    return MCTS(seed, iterations=int(budget))


def _plain(make: Callable[[int], Any]) -> Callable[[int, str | None], Any]:
    def build(seed: int, budget: str | None) -> Any:
        if budget is not None:
            raise ValueError("takes no budget")
        return make(seed)
    return build


AGENTS: dict[str, Callable[[int, str | None], Any]] = {
    "human": _plain(lambda seed: Human()),
    "random": _plain(RandomAgent),
    "first": _plain(lambda seed: FirstLegal()),
    "greedy": _plain(Greedy),
    "mcts": _mcts,
}


def check_name(name: str) -> None:
    """Raise ValueError unless `name` names an agent (with a valid budget)."""
    make_agent(name, 0, human=lambda: None)


def make_agent(name: str, seed: int, human: Callable[[], Any] | None = None) -> Any:
    """The agent called `name` (`kind` or `kind:budget`), seeded with `seed`."""
    kind, colon, budget = name.partition(":")
    if kind not in AGENTS:
        raise ValueError(f"unknown agent `{kind}` ({', '.join(AGENTS)})")
    if kind == "human" and budget:  # `human:banana` was taken, the budget ignored
        raise ValueError("agent `human` takes no budget")
    if kind == "human" and human is not None:
        return human()
    if colon and not budget:  # `mcts:` ran with the default budget, the `:` unexplained
        raise ValueError(f"agent `{name}`: nothing after the `:`; give a budget "
                         f"(`{kind}:200`) or leave the `:` out" if kind == "mcts" else
                         f"agent `{kind}` takes no budget")
    try:
        return AGENTS[kind](seed, budget or None)
    except ValueError:
        number = re.fullmatch(r"(-?\d+(?:\.\d*)?)s?", budget)
        zero = kind == "mcts" and number is not None and float(number[1]) <= 0
        raise ValueError(f"agent `{name}`: the budget is a number of iterations (`{kind}:200`) "
                         f"or of seconds (`{kind}:2s`)" + (", more than 0" if zero else "")
                         if kind == "mcts" else f"agent `{kind}` takes no budget") from None
