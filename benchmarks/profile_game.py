"""Where whole games spend their time: plays N seeded random games of each bundled game and
reports decisions per CPU second and the time of one `legal_actions()` call at the decisions met
(each call timed on its own, the game left as it was). `--profile` adds cProfile's top entries.

The numbers are the engine's own, against no baseline (benchmarks/game.py and the others
compare); they say where work is redone and whether a change to the engine helped.
The machine is shared: each figure is the best of `--rounds` runs (CPU time), so that noise
from other work falls on the slower runs.
Usage: python benchmarks/profile_game.py [--games N] [--rounds R] [--game ID] [--profile] [--json]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import time

from ludex.agents import RandomAgent, step
from ludex.engine import Game, load_definition

GAMES = (("sword_of_rome", 5), ("imperium", 3))


def play(definition, start, players: int, seeds: range) -> tuple[int, float]:
    """(decisions, seconds) for whole games with random agents."""
    decisions, began = 0, time.process_time()
    for seed in seeds:
        game, agent = Game(definition, start, players=players, seed=seed), RandomAgent(seed)
        while not game.is_terminal() and game.pending is not None:
            step(game, agent)
            decisions += 1
    return decisions, time.process_time() - began


def time_legal_actions(definition, start, players: int, seeds: range) -> tuple[int, float]:
    """(calls, seconds) of `legal_actions()` at every decision of the same games; each call
    on a fresh copy of the game's unit, as an agent asking once would see it."""
    calls, spent = 0, 0.0
    for seed in seeds:
        game, agent = Game(definition, start, players=players, seed=seed), RandomAgent(seed)
        while not game.is_terminal() and game.pending is not None:
            began = time.process_time()
            game.legal_actions()
            spent += time.process_time() - began
            calls += 1
            step(game, agent)
    return calls, spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--game", action="append")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = []
    for game_id, players in GAMES:
        if args.game and game_id not in args.game:
            continue
        definition, start = load_definition(game_id)
        seeds = range(args.games)
        play(definition, start, players, range(1))  # warm-up
        if args.profile:
            profiler = cProfile.Profile()
            profiler.enable()
        decisions, seconds = play(definition, start, players, seeds)
        if args.profile:
            profiler.disable()
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(35)
        for _ in range(args.rounds - 1):
            seconds = min(seconds, play(definition, start, players, seeds)[1])
        calls, spent = time_legal_actions(definition, start, players, seeds)
        for _ in range(args.rounds - 1):
            spent = min(spent, time_legal_actions(definition, start, players, seeds)[1])
        results.append({"game": game_id, "games": args.games, "decisions": decisions,
                        "decisions_per_s": round(decisions / seconds),
                        "legal_actions_calls": calls,
                        "us_per_legal_actions": round(spent / calls * 1e6, 1)})
    if args.json:
        print(json.dumps(results, indent=1))
        return
    for r in results:
        print(f"{r['game']:>14}: {r['decisions']:>6} decisions in {r['games']} games, "
              f"{r['decisions_per_s']:>6} decisions/s; legal_actions "
              f"{r['us_per_legal_actions']:>8} µs/call ({r['legal_actions_calls']} calls)")


if __name__ == "__main__":
    main()
