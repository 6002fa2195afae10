"""Agents answer the engine's decisions: scripted (scenarios), seeded random, first legal,
and a terminal prompt for a human (terminal.py)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from .engine import Game
from .runtime import Illegal, RuleError, Where
from .terminal import Human  # noqa: F401 - the terminal agent lives in its own module; kept importable from here

_MASK64 = (1 << 64) - 1


def no_way_on(game: Game, tried: int | None = None, total: int | None = None) -> RuleError:
    """The error of a question whose every option breaks a rule: the rules left the player
    stuck (an agent can answer nothing), placed at the question. For a question of several
    options at once, `tried` of its `total` answers were refused (all, or as many as an agent
    tries: then it may not be stuck, but no agent can tell)."""
    decision = game.pending
    where = decision.where or Where("<engine>", 1, 1, game.unit.label if game.unit else "")
    if tried is None or tried >= (total or 0):
        what = "option" if decision.mode == "one" else "set of options"
        return RuleError("rules/dead-end", f"every {what} of `{decision.prompt}` breaks a rule: "
                         f"the rules leave {decision.who} no way on", where)
    return RuleError("rules/dead-end", f"the {tried:,} sets of options tried for "
                     f"`{decision.prompt}` (of {total:,}) all break a rule: the rules may leave "
                     f"{decision.who} no way on", where)


class RemembersRefusals:
    """An agent told when the rules refuse its answer (`step`), so that it answers something
    else next. Refusals are kept by how many answers the game has taken: that number names
    the decision (an object's id() could be reused by the next one, and then the agent's
    choices would depend on memory layout)."""

    refused: dict[int, list]

    def refuse(self, game: Game, answer: Any, reason: Exception | None = None) -> None:
        moment = len(game.history)
        self.refused = {moment: [*self.refused.get(moment, []), answer]}


class FirstLegal(RemembersRefusals):
    name = "first"

    def __init__(self) -> None:
        self.refused = {}

    def __call__(self, game: Game) -> Any:
        options = game.legal_actions()
        decision = game.pending
        if decision.mode == "one" and not options:
            raise no_way_on(game)
        if decision.mode != "one":
            from .playtest.several import answer_count, in_order

            refused = self.refused.get(len(game.history), [])
            for answer in in_order(decision):  # the first the rules take
                if answer not in refused:
                    return answer
            raise no_way_on(game, len(refused), answer_count(decision))
        return options[0]


class RandomAgent(RemembersRefusals):
    """Uniform over the legal options, with its own seeded generator (splitmix64)."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.state = seed & _MASK64
        self.refused = {}

    def _next(self, bound: int) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return (z ^ (z >> 31)) % bound

    def __call__(self, game: Game) -> Any:
        decision = game.pending
        if decision.mode == "one":
            # Draw from every option and let `play` refuse the illegal ones: far cheaper than
            # proving each option legal first, and the same choice among the legal ones.
            refused = self.refused.get(len(game.history), [])
            options = [o for o in decision.options if o not in refused]
            if not options:
                raise no_way_on(game)
            return options[self._next(len(options))]
        refused = self.refused.get(len(game.history))
        if refused:  # a set the rules refused: draw among those not tried yet
            from .playtest.several import untried

            answer, total = untried(decision, refused, self._next)
            if answer is None:
                raise no_way_on(game, len(refused), total)
            return answer
        pool = list(game.legal_actions())
        wanted = decision.count if decision.mode == "exactly" else self._next(
            min(decision.count, len(pool)) + 1)
        picked = []
        for _ in range(min(wanted, len(pool))):
            picked.append(pool.pop(self._next(len(pool))))
        return picked


class Scripted:
    """Gives prepared answers in order; raises when it runs out."""

    name = "scripted"

    def __init__(self, answers: Iterable[Any]):
        self.answers = list(answers)

    def __call__(self, game: Game) -> Any:
        if not self.answers:
            raise LookupError("no scripted answer left")
        return self.answers.pop(0)




def seat_names(names: list[str], seats: int, what: str = "agents") -> list[str]:
    """The agent name of each seat: the names in seat order, the last one filling the seats
    left (`human,random` at four seats: a person and three random agents; one name serves
    every seat). The README's `--agents human,random` was a usage error at any game of more
    than two seats (a designer's trial). More names than seats is an error: which seat goes
    without its agent cannot be guessed."""
    if not names:
        raise ValueError(f"give at least 1 of the {what}")
    if len(names) > seats:
        raise ValueError(f"give at most {seats} {what} (one per seat; the last fills the seats "
                         "left)")
    return [*names, *[names[-1]] * (seats - len(names))]


def seat_agents(names: list[str], seats: int, seed: int,
                human: Callable[[], Any] | None = None) -> list[Any]:
    """One agent per seat from agent names, as `seat_names` seats them (see
    `playtest.registry` for the names: human, random, first, greedy, mcts[:budget]); seat i's
    agent is seeded with seed * 1000 + i. `ludex play`, `ludex simulate` and the table all seat
    agents this way, so a simulated game is replayed exactly by `ludex play GAME --agents …
    --seed S`.
    """
    from .playtest.registry import make_agent  # the registry builds on the agents above

    return [make_agent(name, seed * 1000 + i, human)
            for i, name in enumerate(seat_names(names, seats))]


def agents_by_power(game: Game, agents: list[Any]) -> dict[str | None, Any]:
    """power -> its seat's agent; decisions of powers no player holds go to the first seat's
    agent (None)."""
    by_power: dict[str | None, Any] = {None: agents[0]}
    for seat, agent in zip(game.state["seats"], agents, strict=True):
        for power in seat:
            by_power[power] = agent
    return by_power


def agent_states(agents: list[Any]) -> list[dict]:
    """What a save keeps of each seat's agent: its name as `--agents` takes it (with a budget:
    `mcts:30`), and a random agent's generator. The look-ahead agents need nothing more: they
    draw each decision from a generator of its own (playtest/seeding.py)."""
    # the generator's 64-bit state as hex text: YAML saves read numbers as content numbers
    return [{"kind": getattr(a, "spec", a.name),
             **({"state": f"{a.state:016x}"} if isinstance(a, RandomAgent) else {})}
            for a in agents]


def saved_names(states: list[dict]) -> list[str] | None:
    """The agent names a save's seats had (None when it does not say, as in older saves)."""
    names = [s.get("kind") for s in states if isinstance(s, dict)]
    if not names or len(names) != len(states) or not all(isinstance(n, str) for n in names):
        return None
    return names


def restore_states(agents: list[Any], states: list[dict]) -> None:
    """Give resumed random agents the generator state they were saved with (seat by seat,
    where the seat has the same kind of agent as before)."""
    for agent, saved in zip(agents, states, strict=False):
        state = saved.get("state")
        if isinstance(agent, RandomAgent) and saved.get("kind") == "random" \
                and isinstance(state, str) and re.fullmatch(r"[0-9a-f]{1,16}", state):
            agent.state = int(state, 16)


def step(game: Game, agent: Callable[[Game], Any]) -> Any:
    """Ask `agent` for an answer and apply it; an agent that can learn from a refusal (the
    random one) is told and asked again. Returns the answer applied."""
    while True:
        answer = agent(game)
        try:
            game.apply(answer)
            return answer
        except Illegal as exc:
            if not hasattr(agent, "refuse"):
                raise
            agent.refuse(game, answer, exc)


def play(game: Game, agents: dict[str | None, Callable[[Game], Any]], max_decisions: int = 100_000
         ) -> Game:
    """Let agents answer until the game ends. `agents` maps power -> agent (None: default)."""
    for _ in range(max_decisions):
        if game.is_terminal() or game.pending is None:
            return game
        who = game.pending.who
        step(game, agents.get(who) or agents.get(None))
    raise RuntimeError(f"no end after {max_decisions:,} decisions")
