"""Monte Carlo tree search (UCT) over re-dealt hidden information.

Each iteration forks the game with what the deciding seat cannot see dealt again
(hidden.py: it never reads hidden zones or the generator's future), walks one tree shared by
all re-deals (keyed by answers; a child counts only when its answer is legal in the re-deal
at hand, as in information-set MCTS), adds one node, plays on with seeded random answers for
at most `depth` decisions, and scores the end reached: the winner's seat when the game is over,
else the seats leading on the game's heuristic (evaluation.py). Each node keeps every seat's
reward, and the seat deciding at a node picks by its own (max-n).

A question that takes several options (`exactly N`, `up to N`) is searched too: inside the
tree its answer is a walk of single picks, one node each (several.py), so the search grows the
sets that do well one option at a time rather than treating each of the 2^n sets as an
unrelated answer (or drawing one at random, as play outside the tree still does). A set the
rules refuse scores nothing for the seat that picked it.

The budget is `iterations` (deterministic: same seed, same game, same answers) or `seconds`
(not reproducible: how far a search gets depends on the machine). The answer is the most
visited child of the root (for a pick of several, the most visited pick at each step).

The agent keeps nothing from one decision to the next that its answers depend on: each search
draws from its decision's own generator (seeding.py), so a resumed game goes on as the unbroken
one would.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..agents import RemembersRefusals, no_way_on
from ..engine import Game
from ..runtime import Illegal
from . import several
from .evaluation import rewards, seat_of
from .hidden import sampled_fork
from .seeding import decision_generator
from .shadow import Shadow

EXPLORATION = 0.7  # UCT's constant for rewards in [0, 1]
STOP_KEY = "<stop>"  # no answer's key (keys are JSON texts) can be this


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


class SearchStopped(Exception):
    """A search given up before its budget was spent (`MCTS.interrupted`): no answer."""


class MCTS(RemembersRefusals):
    name = "mcts"

    def __init__(self, seed: int = 0, iterations: int = 200, seconds: float | None = None,
                 depth: int = 40):
        self.seed = seed
        self.iterations, self.seconds, self.depth = iterations, seconds, depth
        self.random = decision_generator(seed, 0)
        self.shadow = Shadow()
        self.samples = {"redeal": 0, "shuffle": 0, "reseed": 0, "exact": 0}
        self.searched = 0  # decisions searched (more than one legal answer)
        self.last_visits: dict[str, int] = {}  # the last search's visits per answer
        # answers the game refused at the pending decision, by the number of answers taken
        # (a set of several options the rules refuse; see agents.step)
        self.refused: dict[int, list] = {}
        # asked between iterations: True stops the search (SearchStopped), for a table that
        # is shutting down while a person waits on nothing
        self.interrupted: Callable[[], bool] | None = None

    @property
    def spec(self) -> str:
        """The agent's name with its budget, as `--agents` takes it (and a save keeps it)."""
        budget = f"{self.seconds:g}s" if self.seconds is not None else str(self.iterations)
        return f"{self.name}:{budget}"

    def __call__(self, game: Game) -> Any:
        decision = game.pending
        moment = len(game.history)
        self.random = decision_generator(self.seed, moment)
        options = game.legal_actions()
        if decision.mode == "one" and len(options) <= 1:
            if not options:
                raise no_way_on(game)
            return options[0]
        refused = self.refused.get(moment, []) if decision.mode != "one" else []
        if refused:  # the searched set broke a rule (the search cannot tell every such set):
            # a seeded draw among the sets not refused yet, without searching again
            answer, total = several.untried(decision, refused, self.random.randrange)
            if answer is None:
                raise no_way_on(game, len(refused), total)
            return answer
        if decision.mode != "one" and several.only_answer(decision) is not None:
            return several.only_answer(decision)
        self.searched += 1
        root = self._search(game)
        self.last_visits = {k: child.visits for k, child in root.children.items()}
        if decision.mode == "one":
            ranked = [(root.children[key(o)].visits, -index) for index, o in enumerate(options)
                      if key(o) in root.children]
            return options[-max(ranked)[1]] if ranked else options[0]
        return several.answer(decision, self._most_visited_picks(root, decision))

    def _search(self, game: Game) -> Node:
        root_game = self.shadow.follow(game)
        seat = seat_of(game, game.pending.who)
        seats = game.state["seats"]
        root = Node(seat=seat, totals=[0.0] * len(seats))
        deadline = None if self.seconds is None else time.monotonic() + self.seconds
        done = 0
        while (done < self.iterations) if deadline is None else (time.monotonic() < deadline
                                                                or done == 0):
            if self.interrupted is not None and self.interrupted():
                raise SearchStopped
            fork, how = sampled_fork(root_game, seats[seat], self.random)
            self.samples[how] += 1
            self._iterate(root, fork, len(seats))
            done += 1
        return root

    def _iterate(self, root: Node, game: Game, seats: int) -> None:
        path, node = [root], root
        steps = 0
        result = None
        while True:  # selection and one expansion
            if game.is_terminal() or game.pending is None or steps >= self.depth:
                break
            if node.seat is None:
                node.seat = seat_of(game, game.pending.who)
            several_options = game.pending.mode != "one"
            if several_options:
                answer, walked, fresh = self._select_several(node, game)
            else:
                answer, child, fresh = self._select(node, game)
                walked = [child]
            path.extend(walked)
            try:
                game.apply(answer)
            except Illegal:
                if several_options:  # a set the rules refuse: nothing for who picked it
                    result = [1.0 / (seats - 1) if seats > 1 and i != node.seat else 0.0
                              for i in range(seats)]
                break
            except Exception:  # a rule the sample breaks ends the walk here
                break
            node, steps = walked[-1], steps + 1
            if fresh:
                break
        while result is None and steps < self.depth and not game.is_terminal() \
                and game.pending is not None:
            try:
                self._rollout_step(game)
            except Exception:  # see above
                break
            steps += 1
        if result is None:
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
        legal = game.legal_actions() or list(decision.options)
        pick, fresh = self._choose(node, [key(o) for o in legal])
        return legal[pick], node.children[key(legal[pick])], fresh

    def _choose(self, node: Node, keys: list[str]) -> tuple[int, bool]:
        """UCT at one node: (index of the child taken among `keys`, whether it is new). An
        untried key is tried first (a seeded draw among them), then the best by UCB1 for the
        seat deciding there."""
        for k in keys:
            if k in node.children:
                node.children[k].available += 1
        untried = [i for i, k in enumerate(keys) if k not in node.children]
        if untried:
            pick = untried[self.random.randrange(len(untried))]
            node.children[keys[pick]] = Node(available=1)
            return pick, True
        seat = node.seat

        def ucb(i):
            child = node.children[keys[i]]
            mean = child.totals[seat] / child.visits if child.visits else 0.0
            return mean + EXPLORATION * math.sqrt(math.log(max(child.available, 1))
                                                  / max(child.visits, 1))
        return max(range(len(keys)), key=ucb), False

    def _select_several(self, node: Node, game: Game) -> tuple[list, list[Node], bool]:
        """A set of options for a question that takes several, picked one option at a time
        down the tree (several.py); once a pick adds a node, the rest of the set is a seeded
        draw. Returns (answer, the nodes walked, whether the last pick added a node)."""
        decision = game.pending
        picked: list[int] = []
        walked: list[Node] = []
        if not several.steps(decision, picked):  # nothing to pick: one answer, one child
            child = node.children.setdefault(STOP_KEY, Node())
            return [], [child], child.visits == 0
        while True:
            allowed = several.steps(decision, picked)
            if not allowed:
                return several.answer(decision, picked), walked, False
            keys = [self._step_key(decision, s) for s in allowed]
            if node.seat is None:
                node.seat = seat_of(game, decision.who)
            index, fresh = self._choose(node, keys)
            node = node.children[keys[index]]
            walked.append(node)
            if allowed[index] == several.STOP:
                return several.answer(decision, picked), walked, fresh
            picked.append(allowed[index])
            if fresh:
                rest = several.complete(decision, picked, self.random)
                return several.answer(decision, rest), walked, True

    @staticmethod
    def _step_key(decision, step: int) -> str:
        return STOP_KEY if step == several.STOP else key(decision.options[step])

    def _most_visited_picks(self, root: Node, decision) -> list[int]:
        """The root's answer to a question that takes several: at each step the most visited
        pick (the first listed among equals); where the search went no further, it stops if
        it may, else takes the first allowed pick."""
        picked, node = [], root
        while True:
            allowed = several.steps(decision, picked)
            if not allowed:
                return picked
            ranked = [(node.children[k].visits, -i) for i, k in
                      enumerate(self._step_key(decision, s) for s in allowed)
                      if node is not None and k in node.children]
            step = allowed[-max(ranked)[1]] if ranked else allowed[0]
            if step == several.STOP:
                return picked
            node = node.children.get(self._step_key(decision, step)) if node else None
            picked.append(step)

    def _rollout_step(self, game: Game) -> None:
        """A seeded random answer applied; like the random agent, it draws among all options
        and drops those the rules refuse (cheaper than listing the legal ones first)."""
        decision = game.pending
        if decision.mode != "one":
            game.apply(several.answer(decision, several.complete(decision, [], self.random)))
            return
        options = list(decision.options)
        while options:
            answer = options.pop(self.random.randrange(len(options)))
            try:
                game.apply(answer)
                return
            except Illegal:
                continue
        raise no_way_on(game)
