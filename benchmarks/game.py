"""Whole games, decision by decision, with the compiler's fused shapes and inlined content
functions (the default) beside the same games compiled plainly (`fast_paths=False`): what the
specialisations of compiler.py, fastpaths.py and inlining.py buy in real play, in one run.

The baseline here is not hand-written Python but Ludex itself without those specialisations;
the ratio is below 1 when they help. Both sides play the same seeds with random agents and
must reach the same decisions (checked).

`designer_loop` is the designer's game of issue #13 (tests/games' wagers with the hand of play
written as one phase effect, a `repeat` loop asking the turns' questions: benchmarks/designer/)
run a step at a time (resumable.py, the default) beside the same phase run as one unit that
replays every earlier answer of the phase on each decision (the engine before): the ratio is
below 1 when running a step at a time helps. `designer_loop_x4` has four times the cards, so
each hand of play is four times as long: a step at a time, its time per decision stays the same;
as one unit it grows with the length of the phase.
Usage: python benchmarks/game.py [--json] [--games N]
"""

from __future__ import annotations

import argparse
import re
import shutil
import tempfile
import time
from pathlib import Path

from ludex.agents import RandomAgent, step
from ludex.engine import Game, load_definition
from report import emit

GAMES = (("sword_of_rome", 5), ("imperium", 3))
DESIGNER = Path(__file__).with_name("designer")
TEST_GAMES = Path(__file__).resolve().parents[1] / "tests" / "games"


def designer_game(folder: Path, scale: int = 1) -> Path:
    """The designer's game, a game folder in `folder`: tests/games/wagers with
    benchmarks/designer's procedures; `scale` times as many copies of each card, so a hand of
    play lasts that much longer (and the loop repeats often enough for it)."""
    game = folder / f"x{scale}" / "wagers"
    shutil.copytree(TEST_GAMES / "wagers", game)
    procedures = (DESIGNER / "procedures.yaml").read_text(encoding="utf-8")
    (game / "procedures.yaml").write_text(
        procedures.replace("repeat 30:", f"repeat {30 * scale}:"), encoding="utf-8")
    cards = game / "cards" / "wagers.yaml"
    cards.write_text(re.sub(r"copies: (\d+)", lambda m: f"copies: {int(m[1]) * scale}",
                            cards.read_text(encoding="utf-8")), encoding="utf-8")
    locale = game / "locale" / "en.yaml"  # its procedures have no actions to name
    lines = locale.read_text(encoding="utf-8").splitlines(keepends=True)
    locale.write_text("".join(x for x in lines if not x.startswith("actions:")), encoding="utf-8")
    return game


def cases(folder: Path):
    """(name, players, measured definition, baseline definition, start) for each case."""
    for game_id, players in GAMES:
        fast, start = load_definition(game_id)
        plain, _ = load_definition(game_id, fast_paths=False)
        yield game_id, players, fast, plain, start
    for scale, name in ((1, "designer_loop"), (4, "designer_loop_x4")):
        game = designer_game(folder, scale)
        stepwise, start = load_definition(game)
        whole, _ = load_definition(game)
        whole.phase_plans.clear()  # every phase one unit, as before resumable.py
        assert stepwise.phase_plans.get("hand") is not None
        yield name, 2, stepwise, whole, start


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
    with tempfile.TemporaryDirectory() as folder:
        for name, players, fast, plain, start in cases(Path(folder)):
            seeds = range(args.games)
            best, decisions = {}, {}
            for _ in range(args.rounds):  # the two sides take turns, so noise falls on both
                for side, definition in (("fast", fast), ("plain", plain)):
                    began = time.perf_counter()
                    decisions[side] = play(definition, start, players, seeds)
                    best[side] = min(best.get(side, float("inf")), time.perf_counter() - began)
            if decisions["fast"] != decisions["plain"]:
                raise SystemExit(f"{name}: the two sides played different games")
            results.append({"name": name, "ludex_s": best["fast"], "baseline_s": best["plain"],
                            "ratio": best["fast"] / best["plain"],
                            "decisions": decisions["fast"],
                            "ms_per_decision": best["fast"] / decisions["fast"] * 1000})
    emit(results, args.json, extra=("ms_per_decision", "ms/decision"))


if __name__ == "__main__":
    main()
