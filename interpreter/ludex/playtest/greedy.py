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
from .evaluation import MeasureBroke, advantage, seat_of, winning_seats
from .hidden import sampled_fork
from .seeding import decision_generator
from .shadow import Shadow

SETS = 64  # sets of options tried at a question that takes several (one fork each)
# An action whose effect asks its player more (where from, where to, how many) is weighed
# where finishing it greedily leads, up to this many questions on, each answered by the best of
# at most this many of its answers: valued where it stands, half-way, a move is worth nothing
# yet, and an action that completes at once (recruiting) always looked better.
FOLLOW_DEPTH = 3
FOLLOW_OPTIONS = 8


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
                value = self._finished(fork, seat, FOLLOW_DEPTH)
            except MeasureBroke:  # the game's heuristic is broken, not the sampled game
                raise
            except Exception:  # an answer that breaks the sampled game ranks last
                value = float("-inf")
            if best_value is None or value > best_value:
                best, best_value = [option], value
            elif value == best_value:
                best.append(option)
        return best[self.random.randrange(len(best))]

    def _finished(self, fork: Game, seat: int, depth: int) -> float:
        """The value of `fork` (the agent's own copy) once the action just picked is
        finished greedily: while its question is this seat's next one in that action, the
        answer whose position is best is given (each weighed by the state it leads to, with no
        copy of the game) — a chain, not a tree, so an action of many questions costs as many
        steps, not their product."""
        for _ in range(depth):
            decision = fork.pending
            if decision is None or decision.mode != "one" or fork.is_terminal() \
                    or not (fork.unit and fork.unit.answers) \
                    or seat_of(fork, decision.who) != seat:
                break
            options = fork.legal_actions()
            if len(options) > FOLLOW_OPTIONS:
                options = self.random.sample(options, FOLLOW_OPTIONS)
            best, best_value = None, float("-inf")
            for option in options:
                try:
                    state = fork.state_after(option)
                except Exception:  # a way on that breaks the sampled game is no way
                    continue
                if state is None:
                    continue
                value = advantage(fork, seat, state)
                if best is None or value > best_value:
                    best, best_value = option, value
            if best is None:
                break
            try:
                fork.apply(best)
            except Exception:  # the rules broke later on: the action is weighed as it stood
                break
        return _value(fork, seat)


WON = 1e9  # a win ends the comparison, whatever the heuristic says


def _value(game: Game, seat: int) -> float:
    if game.is_terminal() and game.winners():
        return WON if seat in winning_seats(game) else -WON
    return advantage(game, seat)
