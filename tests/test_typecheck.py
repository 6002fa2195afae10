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


def test_dice_are_a_list_of_numbers_to_the_static_pass(tmp_path):
    """`roll(n)` gives the list of its dice (`sum(roll(2))` totals them), not one number."""
    import shutil

    folder = tmp_path / "tiny"
    shutil.copytree(ROOT / "tests" / "games" / "tiny", folder)
    procedures = folder / "procedures.yaml"
    procedures.write_text(procedures.read_text().replace(
        "procedures:\n", "procedures:\n  - id: dice_total\n    params: [p]\n    effect: |\n"
        "      gain(score, p, sum(roll(2)))\n      gain(score, p, max(roll(1)))\n", 1))
    _, diagnostics = check_game(discover(folder))
    assert [d.headline() for d in diagnostics] == []


def test_a_mapping_by_id_read_with_a_dot_is_not_an_unknown_attribute(tmp_path):
    """`recalled(…)` and `markers_now(…)` give mappings keyed by space id: `m.a` (the space
    a) reads one, passed in as a parameter or bound by `let`, and is no misspelling (a
    review of the rule that a parameter's name nothing has is one)."""
    import shutil

    folder = tmp_path / "tiny"
    shutil.copytree(ROOT / "tests" / "games" / "tiny", folder)
    procedures = folder / "procedures.yaml"
    procedures.write_text(procedures.read_text().replace(
        "procedures:\n", "procedures:\n  - id: by_space\n    params: [m, p]\n    effect: |\n"
        "      remember(\"x\", markers_now(control))\n"
        "      let r = recalled(\"x\")\n      if m.a == p and r.b == p:\n"
        "          gain(score, p, 1)\n", 1))
    _, diagnostics = check_game(discover(folder))
    assert [d.headline() for d in diagnostics] == []
