"""A one-step greedy agent: tries each legal answer on a fork of the game in which what its
seat cannot see is dealt again (hidden.py), lets the game run to its next question, and keeps
the answer whose position is best by the game's declared heuristic (evaluation.py). Ties go to
a seeded draw."""

from __future__ import annotations

import random
from typing import Any

from ..engine import Game
from .evaluation import advantage, seat_of
from .hidden import sampled_fork
from .shadow import Shadow


class Greedy:
    name = "greedy"

    def __init__(self, seed: int = 0):
        self.seed = seed
        self.random = random.Random(seed)
        self.shadow = Shadow()
        self.samples = {"redeal": 0, "shuffle": 0, "reseed": 0, "exact": 0}

    def __call__(self, game: Game) -> Any:
        decision = game.pending
        options = game.legal_actions()
        if decision.mode != "one":  # a choice of several: a seeded draw, as the random agent
            wanted = decision.count if decision.mode == "exactly" else self.random.randint(
                0, min(decision.count, len(options)))
            return self.random.sample(options, min(wanted, len(options)))
        if len(options) == 1:
            return options[0]
        root = self.shadow.follow(game)
        seat = seat_of(game, decision.who)
        deal = self.random.getrandbits(64)  # one re-deal for every option: a fair comparison
        best, best_value = [], None
        for option in options:
            fork, how = sampled_fork(root, game.state["seats"][seat], random.Random(deal))
            self.samples[how] += 1
            try:
                fork.apply(option)
                value = _value(fork, seat)
            except Exception:  # an answer that breaks the sampled game ranks last
                value = float("-inf")
            if best_value is None or value > best_value:
                best, best_value = [option], value
            elif value == best_value:
                best.append(option)
        return best[self.random.randrange(len(best))]


WON = 1e9  # a win ends the comparison, whatever the heuristic says


def _value(game: Game, seat: int) -> float:
    if game.is_terminal() and game.winner() is not None:
        return WON if seat_of(game, game.winner()) == seat else -WON
    return advantage(game, seat)
