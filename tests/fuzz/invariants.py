"""Invariants of random games: whatever seeded random agents choose, a game keeps its cards,
keeps its counters within their declared bounds, offers only actions that apply, refuses
illegal answers without changing anything, and ends.

Checked at every decision of every game:
* cards conserved: every card instance is in exactly one pile or under exactly one card, as
  its own record says, and no instance appears or disappears;
* counters within the bounds their declaration gives;
* the answer the agent picks applies, or is refused with nothing changed (the agent then
  picks again, as in `ludex simulate`);
at every `check_every`-th decision:
* an illegal answer (an option the engine does not list as legal, or no option at all) is
  refused, and the state, the view and the history are exactly as they were;
* the answer the agent picks among the listed legal ones applies (no refusal);
and at every `full_every`-th decision, every listed legal action applies (each tried on a fork
of one replay of the game so far: the replay also checks that a saved game comes back as it
was). A game must end within MAX_DECISIONS.

Run briefly by the test suite and at length by `make fuzz`:
`python -m tests.fuzz.invariants GAME_FOLDER GAMES [FIRST_SEED] [WORKERS] [CHECK_EVERY]`
(the refusal and legal-answer checks cost more than the game: the long run samples them).
"""

from __future__ import annotations

import sys
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from ludex.agents import RandomAgent
from ludex.engine import Game, load_definition, replay
from ludex.errors import LudexError
from ludex.runtime import Illegal, copy_data

MAX_DECISIONS = 20_000
NOT_AN_OPTION = "\x00not an option"


@dataclass
class Report:
    games: int = 0
    decisions: int = 0
    refusals_checked: int = 0
    full_checks: int = 0
    failures: list[str] = field(default_factory=list)
    winners: Counter = field(default_factory=Counter)

    def add(self, other: Report) -> None:
        self.games += other.games
        self.decisions += other.decisions
        self.refusals_checked += other.refusals_checked
        self.full_checks += other.full_checks
        self.failures += other.failures
        self.winners.update(other.winners)


class Broken(Exception):
    """An invariant that did not hold."""


@cache
def _definition(folder: str):
    return load_definition(Path(folder))


def check_cards(state: dict, expected: set[str]) -> None:
    places: Counter = Counter()
    for zone, piles in state["zones"].items():
        for holder, pile in piles.items():
            for card in pile:
                places[card] += 1
                if state["cards"][card]["zone"] != [zone, holder]:
                    raise Broken(f"{card} lies in {zone}/{holder} but its record says "
                                 f"{state['cards'][card]['zone']}")
    for card, info in state["cards"].items():
        for below in info["under"]:
            places[below] += 1
            if state["cards"][below]["below"] != card:
                raise Broken(f"{below} lies under {card} but its record says "
                             f"{state['cards'][below]['below']}")
    if set(state["cards"]) != expected:
        raise Broken(f"cards appeared or vanished: {set(state['cards']) ^ expected}")
    twice = [c for c, n in places.items() if n > 1]
    if twice:
        raise Broken(f"cards in two places at once: {twice}")
    lost = [c for c, info in state["cards"].items() if places[c] == 0
            and (info["zone"][0] is not None or info["below"] is not None)]
    if lost:
        raise Broken(f"cards whose place does not hold them: {lost}")


def check_counters(definition, state: dict) -> None:
    for counter, values in state["counters"].items():
        low, high = definition.counter_bounds.get(counter, (float("-inf"), float("inf")))
        for holder, value in (values.items() if isinstance(values, dict) else [("", values)]):
            if not low <= value <= high:
                raise Broken(f"counter {counter} of {holder or 'the game'} is {value}, outside "
                             f"{low}..{high}")


def _snapshot(game: Game) -> list:
    """Everything a refusal must leave as it was, copied (compared with ==: key order aside)."""
    return copy_data([game.state, game.view, game.history])


def check_refusals(game: Game, legal: list) -> int:
    """Every option the engine does not list as legal, and a non-option, is refused with
    nothing changed. Returns how many refusals were checked."""
    decision = game.pending
    if decision.mode != "one":
        return 0
    illegal = [*[o for o in decision.options if o not in legal][:3], NOT_AN_OPTION]
    before = _snapshot(game)
    for answer in illegal:
        try:
            game.apply(answer)
        except Illegal:
            if _snapshot(game) != before:
                raise Broken(f"refusing `{answer}` changed the game") from None
            continue
        raise Broken(f"`{answer}` was accepted, though not listed as legal")
    return len(illegal)


def check_all_legal(definition, start, game: Game, legal: list) -> None:
    """Each listed legal action applies on a fork of a replay of the game so far (the replay
    must stand where the game stands)."""
    again = replay(definition, start, game.save(), checkpoints=True)  # cheap forks
    if _snapshot(again) != _snapshot(game):
        raise Broken("the game replayed from its save stands elsewhere")
    for option in legal:
        copy = again.fork()
        try:
            copy.apply(option)
        except Illegal as exc:
            raise Broken(f"`{option}` was listed as legal but refused: "
                         f"{exc.diagnostics[0].message}") from None


def play_checked(folder: str, seed: int, check_every: int = 1, full_every: int = 0
                 ) -> Report:
    """One game with a seeded random agent, every invariant checked on the way."""
    report = Report(games=1)
    definition, start = _definition(folder)
    try:
        game = Game(definition, start, seed=seed)
        cards = set(game.state["cards"])
        agent = RandomAgent(seed)
        while not game.is_terminal() and game.pending is not None:
            if report.decisions >= MAX_DECISIONS:
                raise Broken(f"no end after {MAX_DECISIONS:,} decisions")
            check_cards(game.state, cards)
            check_counters(definition, game.state)
            if report.decisions % check_every:
                _step(agent, game)
                report.decisions += 1
                continue
            legal = game.legal_actions()
            if not legal:
                raise Broken(f"no legal answer to `{game.pending.prompt}`")
            report.refusals_checked += check_refusals(game, legal)
            if full_every and report.decisions % full_every == 0 and \
                    game.pending.mode == "one":
                check_all_legal(definition, start, game, legal)
                report.full_checks += 1
            answer = _pick(agent, game, legal)
            try:
                game.apply(answer)
            except Illegal as exc:
                raise Broken(f"the legal `{answer}` was refused: "
                             f"{exc.diagnostics[0].message}") from None
            report.decisions += 1
        check_cards(game.state, cards)
        check_counters(definition, game.state)
        report.winners[" & ".join(game.winners()) or "draw"] += 1  # a shared win: all of them
    except Broken as exc:
        report.failures.append(f"seed {seed}, decision {report.decisions}: {exc}")
    except LudexError as exc:
        report.failures.append(f"seed {seed}, decision {report.decisions}: "
                               f"{exc.diagnostics[0].headline()}")
    except Exception as exc:
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        report.failures.append(f"seed {seed}, decision {report.decisions}: "
                               f"{type(exc).__name__} at {Path(frame.filename).name}:"
                               f"{frame.lineno}: {exc}")
    return report


def _step(agent: RandomAgent, game: Game) -> None:
    """The agent's answer applied; a refused one changes nothing (checked by the view's and
    history's identity and length: cheap) and the agent picks again."""
    while True:
        answer = agent(game)
        state, view, taken = game.state, game.view, len(game.history)
        try:
            game.apply(answer)
            return
        except Illegal:
            if game.state is not state or game.view is not view or len(game.history) != taken:
                raise Broken(f"refusing `{answer}` changed the game") from None
            agent.refuse(game, answer)


def _pick(agent: RandomAgent, game: Game, legal: list):
    """The random agent's choice, among the legal options only."""
    if game.pending.mode != "one":
        return agent(game)
    return legal[agent._next(len(legal))]


def _batch(folder: str, seeds: list[int], check_every: int, full_every: int) -> Report:
    report = Report()
    for seed in seeds:
        report.add(play_checked(folder, seed, check_every, full_every))
    return report


def run(folder: Path, games: int, first_seed: int = 0, workers: int = 1,
        check_every: int = 1, full_every: int = 0) -> Report:
    seeds = list(range(first_seed, first_seed + games))
    if workers <= 1:
        return _batch(str(folder), seeds, check_every, full_every)
    report = Report()
    chunks = [seeds[i:i + 20] for i in range(0, len(seeds), 20)]
    began = time.monotonic()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for part in pool.map(_batch, [str(folder)] * len(chunks), chunks,
                             [check_every] * len(chunks), [full_every] * len(chunks)):
            report.add(part)
            print(f"  {report.games:,} games, {report.decisions:,} decisions, "
                  f"{len(report.failures)} failure(s), {time.monotonic() - began:.0f} s",
                  file=sys.stderr, flush=True)
    return report


def main(argv: list[str]) -> int:
    folder, games = Path(argv[0]), int(argv[1])
    first_seed = int(argv[2]) if len(argv) > 2 else 0
    workers = int(argv[3]) if len(argv) > 3 else 2
    check_every = int(argv[4]) if len(argv) > 4 else 20
    began = time.monotonic()
    report = run(folder, games, first_seed, workers, check_every, full_every=50 * check_every)
    for failure in report.failures[:20]:
        print(f"FAILED {failure}", file=sys.stderr)
    print(f"{folder.name}: {report.games:,} games, {report.decisions:,} decisions, "
          f"{report.refusals_checked:,} refusals checked, {report.full_checks:,} "
          f"all-legal checks, {len(report.failures)} failures, "
          f"{time.monotonic() - began:.0f} s; winners {dict(report.winners.most_common())}")
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
