"""Listing the legal actions of a pending decision, at positions taken from real games.

* imperium_legal_actions (baseline) — `Game.legal_actions()` at every action-window decision
  of random Imperium games (2–4 players, seeded as `ludex simulate` seeds them) beside the
  hand-written game's listing (benchmarks/handwritten/imperium.py: the window's options, those
  that break a rule left out) at the same positions. Before timing, the two listings must be
  equal at every position.
* sword_of_rome_legal_actions (absolute) — `Game.legal_actions()` at the decisions with one
  answer of random five-player Sword of Rome games; there is no hand-written Sword of Rome to
  compare with, so this is Ludex's time per call alone.

Ludex replays its games along the same answers and times only the listing calls, one call per
position (a repeated call at the same position could be answered from a cache), each on its own
(the clock's own cost, about a microsecond, is nothing beside a Ludex call). The hand-written
listing takes a few microseconds, as long as reading the clock: its positions are kept (copies
of the game at each decision) and listed all in one timed loop.
Usage: python benchmarks/legal_actions.py [--json] [--games N] [--rounds N] [--quick]
"""

from __future__ import annotations

import argparse
import copy
import time

from game import imperium_players, ludex_answer, ludex_game
from handwritten.imperium import Imperium
from ludex.engine import Game, load_definition
from report import alternate, case, emit

WINDOW = "activate"  # Imperium's action window: the decisions whose options may break rules


class PositionsImperium(Imperium):
    """The hand-written game, keeping a copy of itself at each action-window decision in
    `positions` (a list of its own, outside the copies)."""

    def __init__(self, seed, players, positions):
        super().__init__(seed, players)
        self.positions = positions

    def __deepcopy__(self, memo):
        twin = Imperium.__new__(Imperium)
        twin.__dict__.update({k: copy.deepcopy(v, memo) for k, v in self.__dict__.items()
                              if k != "positions"})
        return twin

    def ask_one(self, p, options, legal=None):
        if legal is not None:
            self.positions.append((copy.deepcopy(self), p))
        return super().ask_one(p, options, legal)


def replay_listing(definition, start, games, window=None, limit=None, keep=None):
    """Replay `games` ((seed, players, answers)) and time `legal_actions()` at each decision
    (of `window` only, if given; at most `limit` of them); `keep` collects the listings."""
    elapsed, calls = 0.0, 0
    for seed, players, answers in games:
        game = Game(definition, start, players=players, seed=seed)
        for answer in answers:
            pending = game.pending
            if pending.mode == "one" and (window is None or pending.prompt == window) and \
                    (limit is None or calls < limit):
                began = time.process_time()
                found = game.legal_actions()
                elapsed += time.process_time() - began
                calls += 1
                if keep is not None:
                    keep.append(found)
            game.apply(answer)
    return elapsed, calls


def imperium_case(games: int, rounds: int) -> dict:
    definition, start = load_definition("imperium")
    seeds = [(seed, imperium_players(seed)) for seed in range(games)]
    played = [(seed, players, ludex_game(definition, start, seed, players).history)
              for seed, players in seeds]
    by_ludex: list = []
    _, calls = replay_listing(definition, start, played, WINDOW, keep=by_ludex)
    positions: list = []
    for seed, players in seeds:
        PositionsImperium(seed, players, positions).play()
    by_hand = [[ludex_answer(o) for o in game.legal_actions(p)] for game, p in positions]
    if by_hand != by_ludex:
        at = next((i for i, (a, b) in enumerate(zip(by_hand, by_ludex, strict=False)) if a != b),
                  min(len(by_hand), len(by_ludex)))
        raise SystemExit(f"imperium: the listings differ at position {at}: by hand "
                         f"{by_hand[at:at + 1]}, Ludex {by_ludex[at:at + 1]}")

    def ludex_side():
        return replay_listing(definition, start, played, WINDOW)[0]

    def hand_side():
        for game, p in positions:
            game.legal_actions(p)

    ludex_s, hand_s = alternate([ludex_side, hand_side], rounds)
    return case("imperium_legal_actions", "baseline", ludex_s, hand_s,
                "the hand-written game's listing at the same positions", per="call",
                units=calls, games=games)


def sword_of_rome_case(games: int, rounds: int, limit: int) -> dict:
    definition, start = load_definition("sword_of_rome")
    played = [(seed, 5, ludex_game(definition, start, seed, 5).history) for seed in range(games)]
    _, calls = replay_listing(definition, start, played, limit=limit)
    (ludex_s,) = alternate([lambda: replay_listing(definition, start, played, limit=limit)[0]],
                           rounds)
    return case("sword_of_rome_legal_actions", "absolute", ludex_s, None,
                "none (no hand-written Sword of Rome)", per="call", units=calls, games=games)


def run(games: int = 20, rounds: int = 3, sor_games: int = 2, sor_limit: int = 300
        ) -> list[dict]:
    return [imperium_case(games, rounds), sword_of_rome_case(sor_games, rounds, sor_limit)]


QUICK = {"games": 2, "rounds": 1, "sor_games": 1, "sor_limit": 10}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="a tiny run (the tests')")
    args = parser.parse_args()
    emit(run(**(QUICK if args.quick else {"games": args.games, "rounds": args.rounds})),
         args.json)


if __name__ == "__main__":
    main()
