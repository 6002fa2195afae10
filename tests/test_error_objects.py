"""The error objects themselves: a rule broken in play builds its diagnostic only when it is
read (legality tests raise and drop thousands), and every error survives pickling, as a
worker process (`simulate`, the fuzzers) sends it back."""

from __future__ import annotations

import pickle
from pathlib import Path

from ludex.errors import Diagnostic, LudexError
from ludex.runtime import Illegal, RuleError, Where
from ludex.scenario import GameContentError

WHERE = Where("procedures.yaml", 12, 7, "acquire")


def test_a_rule_error_reads_as_its_diagnostic_with_the_rule_named():
    error = Illegal("rules/illegal-action", "cannot_afford", WHERE)
    assert error._diagnostics is None  # not built until read
    assert error.code == "rules/illegal-action"
    assert error.diagnostics == [Diagnostic("procedures.yaml", 12, 7, "rules/illegal-action",
                                            "cannot_afford [in acquire]")]
    assert str(error) == ("procedures.yaml:12:7: error[rules/illegal-action]: "
                          "cannot_afford [in acquire]")


def test_a_rule_error_with_no_place_is_placed_at_the_effect():
    error = RuleError("effect/type-error", "not a number", None)
    assert (error.where.file, error.where.line, error.where.col) == ("<effect>", 1, 1)
    assert str(error) == "<effect>:1:1: error[effect/type-error]: not a number"


def test_errors_come_back_from_pickling_with_their_class_diagnostics_and_text():
    found = Diagnostic("game.yaml", 3, 1, "schema/unknown-key", "unknown key `seet`")
    for error in (LudexError([found]), Illegal("rules/cannot-pay", "celts cannot pay", WHERE),
                  GameContentError(Path("games/tiny"), [found])):
        back = pickle.loads(pickle.dumps(error))
        assert type(back) is type(error)
        assert back.diagnostics == error.diagnostics
        assert str(back) == str(error)
    assert pickle.loads(pickle.dumps(GameContentError(Path("x"), [found]))).folder == Path("x")


def test_a_caret_stands_under_its_column_past_combining_marks_wide_characters_and_tabs():
    """Columns count characters (as editors do), but the caret is drawn under the text as a
    terminal shows it: Arabic vowel signs take no column of their own, CJK characters two, a
    tab is shown as one space. Each mark before the error pushed the caret a column right
    (found by a designer writing Arabic)."""
    gutter = len("   1 | ")
    for line, col, seen in [
        ("  drew: 'يخيّم ويُسحِّب {a5}.'", 25, 24 - 4),  # 4 vowel signs before the brace
        ("  drew: '抽卡 {a5}'", 13, 12 + 2),  # two wide characters
        ("\tdrew: x", 2, 1),
    ]:
        assert line[col - 1] in "{d"
        rendered = Diagnostic("f.yaml", 1, col, "x/y", "m").render([line]).splitlines()
        assert rendered[2].index("^") == gutter + seen, line
        assert "\t" not in rendered[1]
