"""Whole games, decision by decision.

* imperium_whole_game (baseline) — Imperium played by Ludex beside the same game written by hand
  in plain Python (benchmarks/handwritten/imperium.py), both with seeded random agents, one per
  seat, as `ludex simulate` seats them. Before anything is timed, `--check` games (300 by
  default, 2–4 players) must come out identical on both sides: every decision, the final piles
  and counters, the log lines of the content, the way the game ended, the winner and the scores.
* sword_of_rome_fast_paths (ablation) — random five-player Sword of Rome games compiled with the
  fused shapes and inlined content functions (the default) beside the same games compiled
  plainly (`fast_paths=False`): what those specialisations buy; both sides are Ludex.
* designer_loop, designer_loop_x4 (ablation) — the designer's game of issue #13 (tests/games'
  wagers with the hand of play written as one phase effect, a `repeat` loop asking the turns'
  questions: benchmarks/designer/) run a step at a time (the default) beside the same phase run
  as one unit that replays every earlier answer of the phase on each decision; x4 has four times
  the cards, so a step at a time its time per decision stays flat while one unit's grows.

Usage: python benchmarks/game.py [--json] [--games N] [--check N] [--rounds N] [--quick]
"""

from __future__ import annotations

import argparse
import re
import shutil
import tempfile
from pathlib import Path

from handwritten.imperium import Imperium
from ludex.agents import agents_by_power, play, seat_agents
from ludex.engine import Game, load_definition
from report import alternate, case, emit

DESIGNER = Path(__file__).with_name("designer")
TEST_GAMES = Path(__file__).resolve().parents[1] / "tests" / "games"
# the content's own log lines (the engine's phase and turn lines are Ludex's bookkeeping)
CONTENT_LOG = {"unrest_taken", "unrest_returned", "deck_reshuffled", "market_exhausted",
               "card_acquired", "card_played", "empire_proclaimed", "collapse"}


def imperium_players(seed: int) -> int:
    return 2 + seed % 3


def ludex_game(definition, start, seed: int, players: int | None = None) -> Game:
    """One whole game as `ludex simulate` plays it: random agents seeded from `seed`."""
    game = Game(definition, start, players=players, seed=seed)
    play(game, agents_by_power(game, seat_agents(["random"], len(game.state["seats"]), seed)))
    return game


def ludex_answer(answer):
    """A hand-written answer as Ludex writes it: window options are `action:card` or `pass`."""
    if isinstance(answer, tuple):
        kind, card = answer
        return kind if card is None else f"{kind}:{card}"
    return answer


def differences(ludex: Game, hand: Imperium) -> list[str]:
    """What differs between the same game played by Ludex and by hand (nothing, we hope)."""
    found = []
    answers = [ludex_answer(a) for a in hand.history]
    if answers != ludex.history:
        at = next((i for i, (a, b) in enumerate(zip(answers, ludex.history, strict=False))
                   if a != b), min(len(answers), len(ludex.history)))
        found.append(f"decision {at}: by hand {answers[at:at + 1]}, "
                     f"Ludex {ludex.history[at:at + 1]}")
    state = ludex.state
    if state["zones"] != hand.zones():
        found.append("piles: " + ", ".join(z for z in state["zones"]
                                           if state["zones"][z] != hand.zones().get(z)))
    if state["counters"] != hand.counters():
        found.append("counters")
    log = [(e["key"], tuple(e["args"].values())) for e in state["log"] if e["key"] in CONTENT_LOG]
    if log != hand.log:
        found.append("log")
    if state["ended"] != hand.ended:
        found.append(f"end: {state['ended']} / {hand.ended}")
    if ludex.winner() != hand.winner or ludex.scores() != hand.scores():
        found.append(f"result: {ludex.winner()} {ludex.scores()} / {hand.winner} {hand.scores()}")
    return found


def check_imperium(definition, start, seeds: range) -> int:
    """Play each seed on both sides; raise if any game differs. Returns the decisions made."""
    decisions = 0
    for seed in seeds:
        ludex = ludex_game(definition, start, seed, imperium_players(seed))
        found = differences(ludex, Imperium(seed, imperium_players(seed)).play())
        if found:
            raise SystemExit(f"imperium seed {seed}: the hand-written game differs: "
                             + "; ".join(found))
        decisions += len(ludex.history)
    return decisions


def imperium_case(games: int, checked: int, rounds: int) -> dict:
    definition, start = load_definition("imperium")
    check_imperium(definition, start, range(checked))
    seeds = range(10_000, 10_000 + games)  # not the checked seeds: nothing is warmed for them
    decisions = check_imperium(definition, start, seeds)

    def by_ludex():
        for seed in seeds:
            ludex_game(definition, start, seed, imperium_players(seed))

    def by_hand():
        for seed in seeds:
            Imperium(seed, imperium_players(seed)).play()

    ludex_s, hand_s = alternate([by_ludex, by_hand], rounds)
    return case("imperium_whole_game", "baseline", ludex_s, hand_s,
                "the same games hand-written in plain Python", per="decision", units=decisions,
                games=games, checked_games=checked, ludex_decisions_per_s=decisions / ludex_s,
                baseline_decisions_per_s=decisions / hand_s)


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


def ablations(folder: Path, scales: tuple[int, ...] = (1, 4)):
    """(name, players, measured definition, baseline definition, start, what the baseline is)."""
    fast, start = load_definition("sword_of_rome")
    plain, _ = load_definition("sword_of_rome", fast_paths=False)
    yield ("sword_of_rome_fast_paths", 5, fast, plain, start,
           "Ludex compiled without fused shapes and inlining")
    for scale in scales:
        name = "designer_loop" if scale == 1 else f"designer_loop_x{scale}"
        game = designer_game(folder, scale)
        stepwise, start = load_definition(game)
        whole, _ = load_definition(game)
        whole.phase_plans.clear()  # every phase one unit, as before resumable.py
        assert stepwise.phase_plans.get("hand") is not None
        yield name, 2, stepwise, whole, start, "Ludex running the phase as one replayed unit"


def ablation_case(name, players, measured, baseline, start, what, games, rounds) -> dict:
    histories = {}

    def side(definition, key):
        def run():
            histories[key] = [ludex_game(definition, start, seed, players).history
                              for seed in range(games)]
        return run

    ludex_s, baseline_s = alternate([side(measured, "measured"), side(baseline, "baseline")],
                                    rounds)
    if histories["measured"] != histories["baseline"]:
        raise SystemExit(f"{name}: the two sides played different games")
    decisions = sum(map(len, histories["measured"]))
    return case(name, "ablation", ludex_s, baseline_s, what, per="decision", units=decisions,
                games=games, ludex_decisions_per_s=decisions / ludex_s)


def run(games: int = 30, checked: int = 300, rounds: int = 5, ablation_games: int = 4,
        scales: tuple[int, ...] = (1, 4)) -> list[dict]:
    results = [imperium_case(games, checked, rounds)]
    with tempfile.TemporaryDirectory() as folder:
        for name, players, measured, baseline, start, what in ablations(Path(folder), scales):
            results.append(ablation_case(name, players, measured, baseline, start, what,
                                         ablation_games, max(1, rounds // 2)))
    return results


# x4 runs the same code as x1, only longer
QUICK = {"games": 2, "checked": 3, "rounds": 1, "ablation_games": 1, "scales": (1,)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--games", type=int, default=30, help="Imperium games per timed round")
    parser.add_argument("--check", type=int, default=300,
                        help="Imperium games that must come out identical before timing")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="a tiny run (the tests')")
    args = parser.parse_args()
    options = QUICK if args.quick else {"games": args.games, "checked": args.check,
                                        "rounds": args.rounds}
    emit(run(**options), args.json)


if __name__ == "__main__":
    main()
