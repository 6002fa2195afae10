"""A one-step greedy agent: tries each legal answer on a fork of the game in which what its
seat cannot see is dealt again (hidden.py), lets the game run to its next question, and keeps
the answer whose position is best by the game's declared heuristic (evaluation.py). Ties go to
a seeded draw. A question that takes several options is answered the same way over its sets of
options: all of them when there are at most `SETS`, else `SETS` distinct seeded draws
(several.py).

Like MCTS, each decision draws from its own generator (seeding.py), so a resumed game goes on
as the unbroken one would."""

from __future__ import annotations

import random
from typing import Any

from ..agents import RemembersRefusals, no_way_on
from ..engine import Game
from . import several
from .evaluation import advantage, seat_of, winning_seats
from .hidden import sampled_fork
from .seeding import decision_generator
from .shadow import Shadow

SETS = 64  # sets of options tried at a question that takes several (one fork each)


class Greedy(RemembersRefusals):
    name = "greedy"

    def __init__(self, seed: int = 0):
        self.seed = seed
        self.random = decision_generator(seed, 0)
        self.shadow = Shadow()
        self.samples = {"redeal": 0, "shuffle": 0, "reseed": 0, "exact": 0}
        self.refused = {}

    def __call__(self, game: Game) -> Any:
        decision = game.pending
        self.random = decision_generator(self.seed, len(game.history))
        if decision.mode == "one":
            options = game.legal_actions()
            if not options:
                raise no_way_on(game)
        else:
            options = [several.only_answer(decision)]
            if options[0] is None:
                options = several.answers(decision, self.random, SETS)
            refused = self.refused.get(len(game.history), [])
            options = [o for o in options if o not in refused]
            if not options:  # every set it weighed broke a rule: one not tried yet
                answer, total = several.untried(decision, refused, self.random.randrange)
                if answer is None:
                    raise no_way_on(game, len(refused), total)
                return answer
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
    if game.is_terminal() and game.winners():
        return WON if seat in winning_seats(game) else -WON
    return advantage(game, seat)
