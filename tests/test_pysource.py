"""Expressions written out as Python source (pysource.py): they give what the closures give —
values, errors at their places, steps — take the common path in play, and fall back to the
closures, with the step count put back, for the closures' error wherever they break."""

from __future__ import annotations

import pytest
from tests.test_fast_paths import evaluate, tiny_definition

from ludex import pysource
from ludex.agents import agents_by_power, play, seat_agents
from ludex.compiler import Compiler
from ludex.engine import Game, load_definition
from ludex.errors import LudexError
from ludex.parser import parse


def outcome(text: str, fast: bool):
    try:
        value, ctx = evaluate(*tiny_definition(fast), text)
        return "value", value, ctx.steps
    except LudexError as exc:
        d = exc.diagnostics[0]
        return "error", d.code, d.line, d.col, d.message


@pytest.mark.parametrize("text", [
    "[s for s in spaces() where s.control == red or s.walled]",
    "count([s for s in spaces() where s.control != none and open_wall(s)])",
    "[[s, pieces(soldier, red, s) + 1] for s in spaces() where pieces(soldier, red, s) > 0]",
    "[s for s in spaces() where s.level > 0]",
    "[s for s in spaces() where s.control < 3]",  # a text with a number: a type error
    "sum([counter(score, p) * 2 for p in powers()]) - 1",
    "[s for s in spaces() where s in [a, d]][1]",
    "[s for s in spaces()][7]",  # out of range: bad-index at its place
    "pieces(soldier, \"nobody\", a)",  # an argument of the wrong kind: checked
    "open_wall_or_home(b, b) and not open_wall(a)",
])
def test_written_out_source_gives_what_the_closures_give(text):
    assert outcome(text, fast=True) == outcome(text, fast=False)


def test_an_expression_that_only_looks_is_written_out_and_one_that_rolls_is_not():
    definition, _ = tiny_definition(fast_paths=True)

    def compiled(text):
        return Compiler(definition, "<t>", "t").expression(parse(text, expression=True))[0]
    assert "_fallback" in compiled("[s for s in spaces() where s.walled]").__globals__
    assert "_fallback" not in getattr(compiled("roll(1) > 0"), "__globals__", {})


def test_an_expression_that_breaks_runs_again_through_the_closures_for_its_error():
    before = sum(pysource.FALLBACKS.values())
    fast, general = (outcome("[s for s in spaces() where s.control < 3]", fast)
                     for fast in (True, False))
    assert fast == general and fast[:2] == ("error", "effect/type-error")
    assert sum(pysource.FALLBACKS.values()) == before + 1


@pytest.mark.parametrize("game_id, players, seeds", [("imperium", 3, 3), ("sword_of_rome", 5, 2)])
def test_written_out_expressions_take_the_common_path_in_whole_games(game_id, players, seeds):
    definition, start = load_definition(game_id)
    pysource.FALLBACKS.clear()
    for seed in range(seeds):
        game = Game(definition, start, players=players, seed=seed)
        play(game, agents_by_power(game, seat_agents(["random"], players, seed)))
    assert not pysource.FALLBACKS, pysource.FALLBACKS.most_common(5)


def test_an_index_of_a_literal_is_a_rule_error_with_no_python_warning(recwarn):
    assert outcome("true[0] == 1", fast=True) == outcome("true[0] == 1", fast=False)
    assert outcome("true[0] == 1", fast=True)[:2] == ("error", "effect/bad-index")
    assert not [w for w in recwarn if issubclass(w.category, SyntaxWarning)]
