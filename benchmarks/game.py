"""Whole games, decision by decision, with the compiler's fused shapes and inlined content
functions (the default) beside the same games compiled plainly (`fast_paths=False`): what the
specialisations of compiler.py, fastpaths.py and inlining.py buy in real play, in one run.

The baseline here is not hand-written Python but Ludex itself without those specialisations;
the ratio is below 1 when they help. Both sides play the same seeds with random agents and
must reach the same decisions (checked).
Usage: python benchmarks/game.py [--json] [--games N]
"""

from __future__ import annotations

import argparse
import time

from ludex.agents import RandomAgent, step
from ludex.engine import Game, load_definition
from report import emit

GAMES = (("sword_of_rome", 5), ("imperium", 3))


def play(definition, start, players: int, seeds: range) -> int:
    decisions = 0
    for seed in seeds:
        game, agent = Game(definition, start, players=players, seed=seed), RandomAgent(seed)
        while not game.is_terminal() and game.pending is not None:
            step(game, agent)
            decisions += 1
    return decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    results = []
    for game_id, players in GAMES:
        fast, start = load_definition(game_id)
        plain, _ = load_definition(game_id, fast_paths=False)
        seeds = range(args.games)
        best, decisions = {}, {}
        for _ in range(args.rounds):  # the two sides take turns, so noise falls on both
            for side, definition in (("fast", fast), ("plain", plain)):
                began = time.perf_counter()
                decisions[side] = play(definition, start, players, seeds)
                best[side] = min(best.get(side, float("inf")), time.perf_counter() - began)
        if decisions["fast"] != decisions["plain"]:
            raise SystemExit(f"{game_id}: the two compilations played different games")
        results.append({"name": game_id, "ludex_s": best["fast"], "baseline_s": best["plain"],
                        "ratio": best["fast"] / best["plain"], "decisions": decisions["fast"],
                        "ms_per_decision": best["fast"] / decisions["fast"] * 1000})
    emit(results, args.json, extra=("ms_per_decision", "ms/decision"))


if __name__ == "__main__":
    main()
