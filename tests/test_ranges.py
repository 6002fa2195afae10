"""Rows keyed by ranges (ranges.py): a range column's cells read as ranges, `row_for` finds the
row whose range holds a number (open ends and both bounds included), a number no row holds
stops the game with an error naming the table and the number at the call, and `ludex mutate`
misreads the bound two neighbouring rows share. The checks' diagnostics are the corpus's
(tests/invalid/content_table_*range*.yaml)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ludex.engine import Game, load_definition
from ludex.errors import LudexError
from ludex.mutation import mutate
from ludex.ranges import misread_bounds, parse, shown

SKIRMISH = Path(__file__).parent / "games" / "skirmish"


@pytest.mark.parametrize(("cell", "bounds"), [
    (6, (6, 6)), ("1-2", (1, 2)), ("3 - 5", (3, 5)), ("7+", (7, None)), ("0-", (None, 0)),
    ("-3--1", (-3, -1)), ("-1", (-1, -1)), ("-1+", (-1, None)), ("4-4", (4, 4))])
def test_a_range_cell_is_a_number_two_numbers_with_a_hyphen_or_a_number_open_at_one_end(
        cell, bounds):
    assert parse(cell) == bounds


@pytest.mark.parametrize("cell", ["5-3", "1..2", "1–2", "", "x", True, None, 1.5, "1-2-3",
                                  "+3", "1 -", "9" * 30])
def test_anything_else_is_no_range(cell):
    assert parse(cell) is None


def test_a_range_is_written_back_as_a_cell_writes_it():
    assert [shown(b) for b in [(6, 6), (1, 2), (7, None), (None, 0), (-3, -1)]] == \
        [6, "1-2", "7+", "0-", "-3--1"]


def test_row_for_finds_the_row_whose_range_holds_the_number_bounds_and_open_ends_included():
    definition, _ = load_definition(SKIRMISH)
    index = definition.table_ranges["combat"]
    found = {n: (index.find(n)["attacker_loses"], index.find(n)["defender_loses"])
             for n in range(-3, 10)}
    assert found == {**dict.fromkeys(range(-3, 2), (2, 0)), 2: (1, 1), 3: (1, 1),
                     4: (0, 1), 5: (0, 1), **dict.fromkeys(range(6, 10), (0, 2))}
    assert index.described() == "1-, 2-3, 4-5, 6+"


def _closed_skirmish(tmp_path: Path) -> Path:
    """Skirmish whose combat table has no open ends: a roll modified past 6 finds no row."""
    game = tmp_path / "skirmish"
    shutil.copytree(SKIRMISH, game)
    tables = game / "tables.yaml"
    tables.write_text(tables.read_text().replace("{roll: 1-,", "{roll: 1,")
                      .replace("{roll: 6+,", "{roll: 6,"))
    return game


def test_a_number_no_row_holds_stops_the_game_naming_the_table_and_the_number(tmp_path):
    definition, start = load_definition(_closed_skirmish(tmp_path))
    game = Game(definition, start)
    game.state["rng"] = 1  # the next die is a 6
    game.state["counters"]["guard"]["red"] = 2
    game.restart_unit()
    with pytest.raises(LudexError) as caught:
        game.apply("attack")
    found = caught.value.diagnostics[0]
    assert (found.code, Path(found.file).name, found.line, found.col) == \
        ("rules/no-table-row", "procedures.yaml", 32, 20)
    assert "`combat`" in found.message and " 8 " in found.message
    assert game.history == []  # refused: the attack is not taken


def test_misread_bounds_move_each_shared_bound_both_ways_never_emptying_a_row():
    # 1-2 | 3 | 4+ : 2|3 may move up (1-3 would leave `3` empty: no) or down; 3|4 up only
    assert misread_bounds(["1-2", 3, "4+"]) == [(0, 1, 1, "2-3"), (1, "3-4", 2, "5+")]
    # rows out of order and a gap: only neighbours share a bound
    assert misread_bounds(["5-6", "1-2", "x"]) == []
    assert misread_bounds(["3-4", "0-", "1-2"]) == [
        (1, "1-", 2, 2), (1, "-1-", 2, "0-2"), (2, "1-3", 0, 4), (2, 1, 0, "2-4")]


def test_mutate_misreads_a_range_tables_bounds_and_the_games_scenarios_kill_every_one():
    report = mutate(SKIRMISH)
    ranges = {o.mutant.description: o.status for o in report.outcomes
              if o.mutant.description.startswith("table `combat` rows")}
    assert ranges == {
        "table `combat` rows 1 and 2 `roll`: 1-, 2-3 → 2-, 3": "killed",
        "table `combat` rows 1 and 2 `roll`: 1-, 2-3 → 0-, 1-3": "killed",
        "table `combat` rows 2 and 3 `roll`: 2-3, 4-5 → 2-4, 5": "killed",
        "table `combat` rows 2 and 3 `roll`: 2-3, 4-5 → 2, 3-5": "killed",
        "table `combat` rows 3 and 4 `roll`: 4-5, 6+ → 4-6, 7+": "killed",
        "table `combat` rows 3 and 4 `roll`: 4-5, 6+ → 4, 5+": "killed"}
    # a range cell is not changed alone (rows would overlap or leave a gap)
    assert not any("`roll`:" in o.mutant.description and " rows " not in o.mutant.description
                   for o in report.outcomes)
    assert report.survivors == [] and report.count("invalid") == 4  # the `let`s deleted
