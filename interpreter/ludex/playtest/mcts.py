"""Monte Carlo tree search (UCT) over re-dealt hidden information.

Each iteration forks the game with what the deciding seat cannot see dealt again
(hidden.py: it never reads hidden zones or the generator's future), walks one tree shared by
all re-deals (keyed by answers; a child counts only when its answer is legal in the re-deal
at hand, as in information-set MCTS), adds one node, plays on with seeded random answers for
at most `depth` decisions, and scores the end reached: the winner's seat when the game is over,
else the seats leading on the game's heuristic (evaluation.py). Each node keeps every seat's
reward, and the seat deciding at a node picks by its own (max-n).

The budget is `iterations` (deterministic: same seed, same game, same answers) or `seconds`
(not reproducible: how far a search gets depends on the machine). The answer is the most
visited child of the root.
"""

from __future__ import annotations

import json
import math
import random
import time
from dataclasses import dataclass, field
from typing import Any

from ..engine import Game
from ..runtime import Illegal
from .evaluation import rewards, seat_of
from .hidden import sampled_fork
from .shadow import Shadow

EXPLORATION = 0.7  # UCT's constant for rewards in [0, 1]


def key(answer: Any) -> str:
    """A child's key: answers may be lists or mappings, which do not hash."""
    return json.dumps(answer, sort_keys=True, default=repr)


@dataclass
class Node:
    seat: int | None = None  # who decides here (None: not reached yet)
    visits: int = 0
    totals: list[float] = field(default_factory=list)  # every seat's summed reward
    available: int = 0  # times this node's answer was legal when its parent was reached
    children: dict[Any, Node] = field(default_factory=dict)


class MCTS:
    name = "mcts"

    def __init__(self, seed: int = 0, iterations: int = 200, seconds: float | None = None,
                 depth: int = 40):
        self.seed = seed
        self.iterations, self.seconds, self.depth = iterations, seconds, depth
        self.random = random.Random(seed)
        self.shadow = Shadow()
        self.samples = {"redeal": 0, "shuffle": 0, "reseed": 0, "exact": 0}
        self.searched = 0  # decisions searched (more than one legal answer)
        self.last_visits: dict[str, int] = {}  # the last search's visits per answer

    def __call__(self, game: Game) -> Any:
        decision = game.pending
        options = game.legal_actions()
        if decision.mode != "one":  # a choice of several: a seeded draw, not searched
            return self._draw_several(decision)
        if len(options) == 1:
            return options[0]
        self.searched += 1
        root_game = self.shadow.follow(game)
        seat = seat_of(game, decision.who)
        seats = game.state["seats"]
        root = Node(seat=seat, totals=[0.0] * len(seats))
        deadline = None if self.seconds is None else time.monotonic() + self.seconds
        done = 0
        while (done < self.iterations) if deadline is None else (time.monotonic() < deadline
                                                                or done == 0):
            fork, how = sampled_fork(root_game, seats[seat], self.random)
            self.samples[how] += 1
            self._iterate(root, fork, len(seats))
            done += 1
        self.last_visits = {k: child.visits for k, child in root.children.items()}
        ranked = [(root.children[key(o)].visits, -index) for index, o in enumerate(options)
                  if key(o) in root.children]
        return options[-max(ranked)[1]] if ranked else options[0]

    def _iterate(self, root: Node, game: Game, seats: int) -> None:
        path, node = [root], root
        steps = 0
        while True:  # selection and one expansion
            if game.is_terminal() or game.pending is None or steps >= self.depth:
                break
            if node.seat is None:
                node.seat = seat_of(game, game.pending.who)
                node.totals = [0.0] * seats
            answer, child, fresh = self._select(node, game)
            try:
                game.apply(answer)
            except Exception:  # a rule the sample breaks ends the walk here
                break
            node, steps = child, steps + 1
            path.append(node)
            if fresh:
                break
        while steps < self.depth and not game.is_terminal() and game.pending is not None:
            try:
                self._rollout_step(game)
            except Exception:  # see above
                break
            steps += 1
        result = rewards(game)
        for visited in path:
            visited.visits += 1
            if not visited.totals:
                visited.totals = [0.0] * seats
            for i, value in enumerate(result):
                visited.totals[i] += value

    def _select(self, node: Node, game: Game) -> tuple[Any, Node, bool]:
        """(answer, its child, whether the child is new) at a node of the tree."""
        decision = game.pending
        if decision.mode != "one":  # a choice of several: drawn, not searched
            answer = self._draw_several(decision)
            child = node.children.setdefault(key(answer), Node())
            return answer, child, child.visits == 0
        legal = game.legal_actions() or list(decision.options)
        keys = [key(o) for o in legal]
        for k in keys:
            if k in node.children:
                node.children[k].available += 1
        untried = [i for i, k in enumerate(keys) if k not in node.children]
        if untried:
            pick = untried[self.random.randrange(len(untried))]
            child = node.children[keys[pick]] = Node(available=1)
            return legal[pick], child, True
        seat = node.seat

        def ucb(i):
            child = node.children[keys[i]]
            mean = child.totals[seat] / child.visits if child.visits else 0.0
            return mean + EXPLORATION * math.sqrt(math.log(max(child.available, 1))
                                                  / max(child.visits, 1))
        pick = max(range(len(legal)), key=ucb)
        return legal[pick], node.children[keys[pick]], False

    def _rollout_step(self, game: Game) -> None:
        """A seeded random answer applied; like the random agent, it draws among all options
        and drops those the rules refuse (cheaper than listing the legal ones first)."""
        decision = game.pending
        if decision.mode != "one":
            game.apply(self._draw_several(decision))
            return
        options = list(decision.options)
        while options:
            answer = options.pop(self.random.randrange(len(options)))
            try:
                game.apply(answer)
                return
            except Illegal:
                continue
        raise LookupError("no legal answer")

    def _draw_several(self, decision) -> list:
        pool = list(decision.options)
        wanted = decision.count if decision.mode == "exactly" else self.random.randint(
            0, min(decision.count, len(pool)))
        return self.random.sample(pool, min(wanted, len(pool)))
