"""Checks on the effects of a game as a whole (static_checks.py) that the invalid-file corpus
cannot state: what they leave alone (a corpus file names at least one diagnostic)."""

from __future__ import annotations

import shutil
from pathlib import Path

from ludex.folders import discover
from ludex.validate import check_game

PRESS_ON = Path(__file__).parent / "games" / "press_on"


def test_a_recalled_key_is_not_checked_where_a_remembered_key_is_worked_out_in_play(tmp_path):
    """`remember("drawn_" + …, …)` may keep a value under any key: a `recalled` key that no
    `remember` writes out may still be kept, so it is no mistake to report."""
    game = tmp_path / "press_on"
    shutil.copytree(PRESS_ON, game)
    procedures = game / "procedures.yaml"
    text = procedures.read_text(encoding="utf-8")
    text = text.replace('      log("drew", me, drawn)\n',
                        '      log("drew", me, drawn)\n      remember("drawn_" + me, drawn)\n', 1)
    text = text.replace("      let goods = ", '      let _last = recalled("drawn_north")\n'
                        "      let goods = ", 1)
    procedures.write_text(text, encoding="utf-8")
    _, diagnostics = check_game(discover(game))
    assert [d.headline() for d in diagnostics] == []
