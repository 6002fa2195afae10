"""The benchmarks stay runnable and honest: each runs in its tiny mode with its "same work"
checks (a baseline that does less, or a hand-written game that plays differently, fails them),
prints the shared format, and the README's speed table is the one made from the recorded
results. No timing is asserted here."""

from __future__ import annotations

import importlib
import io
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
sys.path.insert(0, str(ROOT / "scripts"))

from update_docs import BENCH_RESULTS, speed_table  # noqa: E402

from game import check_imperium, differences, ludex_game  # noqa: E402
from handwritten.imperium import Imperium  # noqa: E402
from ludex.engine import load_definition  # noqa: E402
from report import alternate, emit  # noqa: E402


@pytest.mark.parametrize("name", ["validate", "engine", "game", "legal_actions", "suite"])
def test_benchmark_checks_the_same_work_and_reports_cases_in_its_tiny_mode(name):
    module = importlib.import_module(name)
    cases = module.run(**module.QUICK)
    assert cases
    for case in cases:
        assert {"name", "kind", "ludex_s", "baseline_s", "ratio", "baseline"} <= set(case)
        assert case["kind"] in ("baseline", "ablation", "absolute")
        assert (case["ratio"] is None) == (case["kind"] == "absolute")
        assert case["ludex_s"] > 0


def test_cases_print_as_one_json_document():
    out = io.StringIO()
    emit([{"name": "x", "kind": "absolute", "ludex_s": 1.0, "baseline_s": None,
           "ratio": None, "baseline": "none"}], True, out)
    assert json.loads(out.getvalue())["cases"][0]["name"] == "x"


@pytest.fixture(scope="module")
def imperium():
    return load_definition("imperium")


def test_hand_written_imperium_plays_the_same_games_as_ludex_with_two_to_four_players(imperium):
    definition, start = imperium
    assert check_imperium(definition, start, range(6)) > 0


def test_a_hand_written_game_that_plays_differently_is_caught(imperium):
    definition, start = imperium
    ludex = ludex_game(definition, start, seed=4, players=3)
    assert differences(ludex, Imperium(4, 3).play()) == []
    assert differences(ludex, Imperium(5, 3).play())  # another seed: another game
    changed = Imperium(4, 3).play()
    changed.nations["celts"].coins += 1  # the same decisions, one counter off at the end
    assert differences(ludex, changed) == ["counters"]


def test_alternating_rounds_warm_every_side_up_and_flip_who_goes_first():
    calls = []
    alternate([lambda: calls.append("a"), lambda: calls.append("b")], rounds=3)
    assert calls == ["a", "b", "a", "b", "b", "a", "a", "b"]


def test_a_side_that_times_itself_is_reported_by_its_own_time():
    assert alternate([lambda: 0.25], rounds=2, warmup=0) == [0.25]


def test_readme_speed_table_is_the_one_made_from_the_recorded_results():
    results = json.loads(BENCH_RESULTS.read_text(encoding="utf-8"))
    assert speed_table(results) in (ROOT / "README.md").read_text(encoding="utf-8"), \
        "run `make bench` (or `python scripts/update_docs.py`) and commit README.md"


def test_speed_table_has_a_row_per_case_with_its_ratio():
    results = {"cases": [
        {"name": "x", "kind": "baseline", "ludex_s": 2.0, "baseline_s": 1.0, "ratio": 2.0,
         "baseline": "by hand", "per": "run", "units": 4, "ludex_per": 0.5,
         "baseline_per": 0.25},
        {"name": "y", "kind": "absolute", "ludex_s": 0.003, "baseline_s": None, "ratio": None,
         "baseline": "none"}]}
    rows = [line for line in speed_table(results).splitlines() if line.startswith("| `")]
    assert rows == ["| `x` (Ludex ÷ baseline) | 500 ms per run | 250 ms per run (by hand) | "
                    "2.00x | 4 runs |",
                    "| `y` (Ludex alone) | 3 ms | — | — |  |"]
