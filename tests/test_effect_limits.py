"""Run-time errors of the language's own operators and constructs, and the limits on work and
size (limits.py), are diagnostics at the line that met them — in the effect that was running,
a card's event included — never a Python exception."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ludex.compiler import Compiler
from ludex.engine import Game, load_definition
from ludex.errors import LudexError
from ludex.parser import Origin, parse

TINY = Path(__file__).parent / "games" / "tiny"


@pytest.fixture(scope="module")
def tiny():
    return load_definition(TINY)


def _error_of(tiny, text: str):
    definition, start = tiny
    run, size = Compiler(definition, "rules.yaml", "rule").program(
        parse(text, Origin("rules.yaml", 10, 7)))
    game = Game(definition, start, seed=7, autostart=False)
    with pytest.raises(LudexError) as raised:
        game.run("case", lambda ctx: run(ctx, [None] * size), me="red")
    d = raised.value.diagnostics[0]
    return d.code, d.file, d.line, d.col


@pytest.mark.parametrize(("statement", "code", "col"), [
    ('let x = -"two"', "effect/type-error", 9),
    ("let x = 1 in 5", "effect/type-error", 9),
    ("for c in 5:\n    pass", "effect/type-error", 1),
    ('repeat "a":\n    pass', "effect/type-error", 1),
    ("let x = [c for c in none]", "effect/type-error", 9),
    ("choose x from 5", "effect/type-error", 1),
    ("let x = 999999999999999 * 999999999999999 / 3", "effect/too-large", 9),
    ('let x = "ab" * 1000000000000', "effect/too-large", 9),
    ("let x = roll(1000000000)", "rules/step-budget", 9),
], ids=["negate", "in", "for", "repeat", "comprehension", "choose", "divide", "multiply",
        "roll"])
def test_a_run_time_error_is_reported_at_its_line_and_column(tiny, statement, code, col):
    # the failing statement is the effect's second line: the file's line 11, from column 7
    assert _error_of(tiny, "let a = 1\n" + statement + "\n") == (code, "rules.yaml", 11,
                                                                 6 + col)


def test_an_error_in_a_cards_event_is_reported_at_the_cards_line(tmp_path):
    folder = tmp_path / "tiny"
    shutil.copytree(TINY, folder)
    cards = folder / "cards" / "tiny_cards.yaml"
    text = cards.read_text(encoding="utf-8")
    # a value known only at run time: the static checks cannot see the text negated
    failing = 'gain(score, me, 3)\n      let z = -recalled("nothing")\n'
    cards.write_text(text.replace("gain(score, me, 3)\n", failing), encoding="utf-8")
    # some rule must remember the key (one no rule remembers is refused at load): one not run
    procedures = folder / "procedures.yaml"
    procedures.write_text(procedures.read_text(encoding="utf-8").replace(
        "procedures:\n", 'procedures:\n  - id: keep\n    effect: |\n'
        '      remember("nothing", none)\n', 1), encoding="utf-8")
    line = next(i for i, s in enumerate(cards.read_text().splitlines(), 1) if "let z" in s)
    definition, start = load_definition(folder)
    run, size = Compiler(definition, "rules.yaml", "rule").program(parse("play_event(red_three)"))
    game = Game(definition, start, seed=7, autostart=False)
    with pytest.raises(LudexError) as raised:
        game.run("case", lambda ctx: run(ctx, [None] * size), me="red")
    d = raised.value.diagnostics[0]
    assert (d.code, Path(d.file).name, d.line, d.col) == ("effect/type-error", "tiny_cards.yaml",
                                                          line, 15)
