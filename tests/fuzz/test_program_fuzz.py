"""Generated programs, mutated saves and random games, briefly and deterministically (fixed
seeds); `make fuzz` runs the same at length (tests/fuzz/programs.py, save_mutations.py,
invariants.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.fuzz import invariants, programs, save_mutations

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("generator", list(programs.GENERATORS))
def test_generated_programs_end_in_a_result_or_a_diagnostic(generator):
    assert programs.run_generator(generator, 25, seed=0) == 25


@pytest.mark.parametrize("text", [
    "let x = " + "-" * 400 + "1\n",
    "let x = " + " + ".join(["1"] * 1500) + "\n",
    "".join("    " * i + "if true:\n" for i in range(200)) + "    " * 200 + "pass\n",
    "if true:\n        pass\n    pass\n",
    'let x = "ab" * 1000000000000\n',
    "let x = [1]\nrepeat 100:\n    let x = x + x\n",
    "let x = 2\nrepeat 1000:\n    let x = x * x\n",
    "let x = roll(1000000000)\n",
], ids=["unary-minus", "long-sum", "nested-ifs", "dedent", "text-bomb",
        "list-doubling", "number-squaring", "huge-roll"])
def test_the_issues_effects_end_in_a_diagnostic(text):
    assert programs.check(text).split(" ")[0] in ("syntax", "compile", "stopped")


def test_a_loop_over_rows_with_a_test_of_constants_runs_as_without_fast_paths():
    """Found by `make fuzz` (seed 500): the fast path that filters a static list once put
    the passing items in a set, and a table's rows cannot be in one."""
    assert programs.check("for x in rows(edges) where 1:\n    pass\n").startswith("ran")


def test_grammar_output_is_laid_out_as_indented_blocks():
    marked = "if x:\n\x01pass\nif y:\n\x01let a = 1\n\x02\x02pass\n"
    assert programs.lay_out(marked) == "if x:\n    pass\n    if y:\n        let a = 1\npass\n"


def test_mutated_saves_resume_or_dump_with_diagnostics_only():
    assert save_mutations.crashes(25, seed=0, games=("tiny",)) == {}


@pytest.mark.parametrize(("folder", "games", "check_every", "full_every"), [
    ("tests/games/tiny", 6, 1, 2),
    ("games/imperium", 1, 4, 20),
])
def test_random_games_keep_their_invariants(folder, games, check_every, full_every):
    report = invariants.run(ROOT / folder, games, 0, 1, check_every, full_every)
    assert report.failures == []
    assert report.games == games and report.refusals_checked > 0 and report.full_checks > 0


def test_the_invariant_checks_catch_a_lost_card_and_a_counter_out_of_bounds():
    definition, start = invariants._definition(str(ROOT / "tests/games/tiny"))
    from ludex.engine import Game

    game = Game(definition, start, seed=1)
    cards = set(game.state["cards"])
    game.state["zones"]["hand"]["red"].clear()
    with pytest.raises(invariants.Broken, match="place does not hold"):
        invariants.check_cards(game.state, cards)
    game.state["counters"]["score"]["red"] = 21
    with pytest.raises(invariants.Broken, match="outside"):
        invariants.check_counters(definition, game.state)
