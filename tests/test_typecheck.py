"""The static type and attribute pass (typecheck.py) is sound on real content: it reports
nothing on the bundled games and the tiny test game, whose effects all run; its findings on
broken content are in tests/invalid/effect_type_*.yaml and effect_*attribute.yaml."""

from __future__ import annotations

from pathlib import Path

import pytest

from ludex.folders import discover
from ludex.validate import check_game

ROOT = Path(__file__).parent.parent
TYPE_CODES = {"effect/type-error", "effect/unknown-attribute"}


@pytest.mark.parametrize("folder", [ROOT / "games" / "sword_of_rome", ROOT / "games" / "imperium",
                                    ROOT / "tests" / "games" / "tiny"], ids=lambda p: p.name)
def test_the_static_pass_reports_nothing_on_content_that_runs(folder):
    _, diagnostics = check_game(discover(folder))
    assert [d.headline() for d in diagnostics if d.code in TYPE_CODES] == []
    assert diagnostics == []


def test_a_local_of_a_known_kind_is_named_in_the_message():
    from ludex.validate import validate_paths

    report = validate_paths([ROOT / "tests" / "invalid" / "effect_unknown_attribute.yaml"],
                            kind="procedures", game="sword_of_rome")
    messages = {(d.line, d.col): d.message for d in report.diagnostics}
    assert "`besieged`" in messages[(4, 15)]
    assert "`s` (a space)" in messages[(6, 33)] and "`loyalty`" in messages[(6, 33)]
    assert "`cu`" in messages[(9, 31)]


def test_dice_are_a_list_of_numbers_to_the_static_pass(tiny):
    """`roll(n)` gives the list of its dice (`sum(roll(2))` totals them), not one number."""
    folder = tiny
    procedures = folder / "procedures.yaml"
    procedures.write_text(procedures.read_text().replace(
        "procedures:\n", "procedures:\n  - id: dice_total\n    params: [p]\n    effect: |\n"
        "      gain(score, p, sum(roll(2)))\n      gain(score, p, max(roll(1)))\n", 1))
    _, diagnostics = check_game(discover(folder))
    assert [d.headline() for d in diagnostics] == []


def test_a_mapping_by_id_read_with_a_dot_is_not_an_unknown_attribute(tiny):
    """`recalled(…)` and `markers_now(…)` give mappings keyed by space id: `m.a` (the space
    a) reads one, passed in as a parameter or bound by `let`, and is no misspelling (a
    review of the rule that a parameter's name nothing has is one)."""
    folder = tiny
    procedures = folder / "procedures.yaml"
    procedures.write_text(procedures.read_text().replace(
        "procedures:\n", "procedures:\n  - id: by_space\n    params: [m, p]\n    effect: |\n"
        "      remember(\"x\", markers_now(control))\n"
        "      let r = recalled(\"x\")\n      if m.a == p and r.b == p:\n"
        "          gain(score, p, 1)\n", 1))
    _, diagnostics = check_game(discover(folder))
    assert [d.headline() for d in diagnostics] == []


@pytest.mark.parametrize("values", [
    [1, 2, 3], [True, False], [1, True], ["romans", "gauls"], ["romans", "no such id"],
    ["romans", "rome"], ["hand", "hand"], [1, "romans"], [1.5], [None, 1], [[1], 2], [],
    ["romans"] * 1000 + ["gauls"], ["text", "more text"],
])
def test_an_attributes_type_is_the_same_however_its_values_are_sorted(values):
    """Values that are all numbers, truth values or texts are typed by C loops; the values'
    type is the one looking at each distinct value gives."""
    from ludex.engine import load_definition
    from ludex.typecheck import _Kinds

    kinds = _Kinds(load_definition("sword_of_rome")[0])
    assert kinds._type_of(values) == kinds._type_of_each(values)


@pytest.mark.parametrize("game", ["sword_of_rome", "imperium"])
def test_functions_typed_callees_first_give_what_rounds_until_stable_give(game):
    """A game whose functions never reach themselves types each once, callees first; rounds
    over them in file order until nothing changes reach the same results."""
    from ludex.engine import load_definition
    from ludex.typecheck import _function_results, _Kinds

    definition = load_definition(game)[0]
    assert definition.function_trees and set(definition.function_trees) <= definition.inlinable
    once = _Kinds(definition)
    _function_results(once)
    definition.function_order = []  # as for functions that may reach themselves
    rounds = _Kinds(definition)
    _function_results(rounds)
    assert once.results == rounds.results
    assert any(t != "any" for t in once.results.values())


def test_a_cards_optional_text_or_a_marker_kept_as_a_value_of_another_type_is_a_type_error(
        tiny):
    """A designer's game kept a card's `faction` (given by some cards only: a text naming no
    power) as the power in memory and set it as a control marker, and kept a space's marker
    read from a parameter as a number: validation passed all three, play refused them. Each is
    a type error at the value; the same values kept where they fit pass."""
    folder = tiny
    manifest = folder / "game.yaml"
    manifest.write_text(manifest.read_text().replace(
        "card_attributes:\n", "memory:\n  - {id: leader, type: power}\n"
        "  - {id: best, type: int}\n  - {id: motto, type: text}\n"
        "card_attributes:\n  faction: {type: string, description: \"Whose side.\"}\n", 1))
    cards = folder / "cards" / "tiny_cards.yaml"
    cards.write_text(cards.read_text().replace(
        "{id: red_one, owner: red, value: 1}", "{id: red_one, owner: red, value: 1, "
        "faction: whites}", 1))
    procedures = folder / "procedures.yaml"
    procedures.write_text(procedures.read_text().replace(
        "procedures:\n", "procedures:\n  - id: keep\n    params: [s, c]\n    effect: |\n"
        "      remember(\"leader\", c.faction)\n"
        "      set_marker(s, control, c.faction)\n"
        "      remember(\"best\", s.control)\n"
        "      remember(\"leader\", s.control)\n"
        "      remember(\"best\", s.level)\n"
        "      remember(\"motto\", c.faction)\n", 1))
    keep = procedures.read_text().splitlines().index("  - id: keep") + 1  # its line
    _, diagnostics = check_game(discover(folder))
    found = [(d.code, d.line - keep, d.col) for d in diagnostics
             if d.file.endswith("procedures.yaml")]
    assert found == [("effect/type-error", 3, 26), ("effect/type-error", 4, 30),
                     ("effect/type-error", 5, 24)], [d.headline() for d in diagnostics]
    faction = next(d for d in diagnostics if (d.line - keep, d.col) == (3, 26))
    assert "`faction`" in faction.message and "names no power (whites)" in faction.message
