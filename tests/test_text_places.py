"""Places inside effect texts that YAML folds or unescapes: every error, mutant and runtime
place inside such a text is at its own line and column of the file.

A `>` block and a plain or quoted scalar written over several lines reach the parser with their
lines joined by spaces; `\\"`, `\\u00e8` and `''` are longer in the file than the character
they give. Reported by a designer: a typo on the third line of a `heuristic: >-` came out on
the text's first line at a column past its end, and every `\\"` before an error shifted it one
column to the left.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.test_error_places import edit, error_playing_a_card

from ludex import yamlio
from ludex.errors import Collector
from ludex.folders import discover
from ludex.mutation import MutationRun
from ludex.parser import origin_of
from ludex.validate import check_game, scenario_diagnostics

TINY = Path(__file__).parent / "games" / "tiny"
RICH = 'when: "counter(score, red) >= 5 and counter(score, blue) >= 5"'


def place_of(path: Path, marker: str, skip: int = 0) -> tuple[int, int]:
    """(line, col) of the start of `marker` (after `skip` characters of it) in a file."""
    text = path.read_text(encoding="utf-8")
    assert text.count(marker) == 1, marker
    before = text[:text.index(marker) + skip]
    return before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1


def errors_of(folder: Path) -> list[tuple[str, int, int]]:
    _, diagnostics = check_game(discover(folder))
    return [(d.code, d.line, d.col) for d in diagnostics if d.severity == "error"]


# The trigger `rich` of the tiny game with `countr` (a typo) in its second comparison, written
# each way YAML offers; the typo is on the third line of the folded ones
@pytest.mark.parametrize("written", [
    'when: >-\n      counter(score, red) >= 5\n      and countr(score, blue) >= 5',
    'when: >\n      counter(score, red) >= 5\n      and countr(score, blue) >= 5\n',
    'when: >-\n      counter(score, red)\n      >= 5 and (\n        countr(score, blue) >= 5)',
    'when: counter(score, red) >= 5\n      and countr(score, blue) >= 5',
    'when: "counter(score, red) >= 5\n      and countr(score, blue) >= 5"',
    'when: "counter(score, red) >= 5 and \\"a\\\\\\\\b\\" != \\"\\u00e8\\x41\\" and '
    'countr(score, blue) >= 5"',
    "when: 'counter(score, red) >= 5 and \"it''s\" != \"x\" and countr(score, blue) >= 5'",
], ids=["folded-strip", "folded", "folded-more-indented", "plain-multiline",
        "double-quoted-multiline", "double-quoted-escapes", "single-quoted"])
def test_an_error_in_a_folded_or_escaped_text_is_at_its_own_line_and_column(tiny, written):
    procedures = tiny / "procedures.yaml"
    edit(procedures, RICH, written)
    assert errors_of(tiny) == [("effect/unknown-function", *place_of(procedures, "countr("))]


def test_a_syntax_error_in_a_folded_text_is_at_its_own_line_and_column(tiny):
    procedures = tiny / "procedures.yaml"
    edit(procedures, RICH, "when: >-\n      counter(score, red) >= 5\n"
                           "      and counter(score, blue) >= >= 5")
    assert errors_of(tiny) == [("effect/syntax", *place_of(procedures, ">= >= 5", skip=3))]


def test_a_type_error_in_a_folded_text_is_at_its_own_line_and_column(tiny):
    procedures = tiny / "procedures.yaml"
    edit(procedures, RICH, "when: >-\n      counter(score, red) >= 5\n"
                           "      and counter(score, blue) + true >= 5")
    assert errors_of(tiny) == [("effect/type-error",
                                *place_of(procedures, "counter(score, blue)"))]


def test_a_scenario_expectation_written_folded_is_checked_at_its_own_line(tiny):
    scenario = tiny / "scenarios" / "income.yaml"
    edit(scenario, '  - "count(cards(hand, red)) == 1"\n',
         "  - >-\n    count(cards(hand, red)) == 1\n    and countr(cards(hand, red)) == 1\n")
    found = [(d.code, d.line, d.col) for d in scenario_diagnostics(scenario)]
    assert found == [("effect/unknown-function", *place_of(scenario, "countr("))]


def test_a_plain_text_continued_inside_a_flow_list_is_placed_up_to_its_comma(tiny):
    """In `[count(…) ==` and, on the next line, `nope, "…"]`, the word `nope,` is not in the
    text (the comma ends it): the place was past the end of the first line (found by a
    review)."""
    scenario = tiny / "scenarios" / "income.yaml"
    text = scenario.read_text()
    scenario.write_text(text[:text.index("expect:")]
                        + 'expect: [count(cards(market)) ==\n    nope, "true"]\n')
    found = [(d.code, d.line, d.col) for d in scenario_diagnostics(scenario)]
    assert found == [("effect/unknown-name", *place_of(scenario, "nope"))]


def test_mutants_of_a_folded_text_are_listed_at_their_own_places(tiny):
    procedures = tiny / "procedures.yaml"
    edit(procedures, RICH, "when: >-\n      counter(score, red) >= 5\n"
                           "      and counter(score, blue) >= 5")
    places = {m.place for m, _ in MutationRun(tiny).mutants()
              if m.rule == "rich" and m.description == "`>=` → `>`"}
    assert places == {"procedures.yaml:{}:{}".format(*place_of(procedures, text, skip))
                      for text, skip in (("red) >=", 5), ("blue) >=", 6))}


def test_a_runtime_error_in_a_folded_effect_is_at_its_own_line_and_column(tiny):
    procedures = tiny / "procedures.yaml"
    edit(procedures, "    effect: |\n      gain(score, me, card.value)\n",
         "    effect: >\n      gain(score, me,\n      card.value * [1][card.value])\n\n")
    _, found = error_playing_a_card(tiny)
    assert (found.code, found.line, found.col) == (
        "effect/bad-index", *place_of(procedures, "[1][card.value]"))


def places_in(text: str, path: tuple) -> dict[str, tuple[int, int]]:
    """Where each word of the text at `path` of a YAML document is placed in it."""
    errors = Collector()
    doc = yamlio.load_bytes(text.encode(), "t.yaml", errors)
    assert not errors.sorted()
    origin, value = origin_of(doc, path), doc.value(path)
    found = {}
    for number, line in enumerate(value.split("\n"), 1):
        for word in line.split():
            found[word] = origin.map(number, line.index(word) + 1)
    return found


@pytest.mark.parametrize(("text", "places"), [
    # folded: a line break between two lines is a space; an empty line, a line break;
    # a more-indented line keeps its line break and its extra spaces
    ("e: >\n  a1 b1\n  c2\n\n  d4\n    e5\n", {"a1": (2, 3), "b1": (2, 6), "c2": (3, 3),
                                            "d4": (5, 3), "e5": (6, 5)}),
    # plain, over several lines
    ("- a1\n  b2\n\n  c4\n", {"a1": (1, 3), "b2": (2, 3), "c4": (4, 3)}),
    # double-quoted: escapes, an escaped line break, a folded one
    ('e: "\\"a1\\" \\\\ \\u00e8b1 \\\n   c2\n   d3"\n',
     {'"a1"': (1, 5), "\\": (1, 12), "èb1": (1, 15), "c2": (2, 4), "d3": (3, 4)}),
    # single-quoted: `''` is one quote
    ("e: 'it''s a1 ''b1'''\n", {"it's": (1, 5), "a1": (1, 11), "'b1'": (1, 14)}),
    # literal, from the line after the indicator even when it is empty; an indentation
    # indicator's spaces beyond the block's indentation are the text's
    ("e: |\n\n  a3\n  b4\n", {"a3": (3, 3), "b4": (4, 3)}),
    ("k:\n  e: |2\n     a3\n    b4\n", {"a3": (3, 6), "b4": (4, 5)}),
])
def test_every_word_of_a_scalar_maps_to_its_place_in_the_file(text, places):
    path = (0,) if text.startswith("-") else ("k", "e") if text.startswith("k:") else ("e",)
    assert places_in(text, path) == places


def test_white_space_a_fold_made_is_placed_beside_the_text_around_it():
    errors = Collector()
    doc = yamlio.load_bytes(b"e: >-\n  ab\n  cd\n\n    ef\n", "t.yaml", errors)
    origin = origin_of(doc, ("e",))
    assert doc.data["e"] == "ab cd\n\n  ef"
    assert origin.map(1, 3) == (2, 5)  # the space a line break became: right after `ab`
    assert origin.map(2, 1) == (3, 5)  # an empty line: right after the text before it
    assert origin.map(3, 1) == (5, 3)  # a more-indented line's spaces: before its text
    assert origin.map(4, 1) == (5, 7)  # past the end: right after the text


def test_every_character_of_scalars_written_every_way_maps_to_itself_in_the_file():
    """PyYAML's emitter writes random texts in each style, folding long lines and escaping
    what needs it: each character that is not white space maps to itself in the file (or to
    the escape that gives it)."""
    import random

    import yaml

    pieces = [*"ab z()[]=<>+-.,:'\"\\#è\t", "  ", "\n", "\n\n", " \n", "\u00a0"]
    chance = random.Random(7)
    checked = 0
    for _ in range(600):
        value = "".join(chance.choice(pieces) for _ in range(chance.randint(1, 50)))
        style = chance.choice([None, '"', "'", "|", ">"])
        text = yaml.dump({"k": {"e": value}}, default_style=style,
                         width=chance.choice([10, 20, 80]), allow_unicode=chance.random() < .5)
        errors = Collector()
        doc = yamlio.load_bytes(text.encode(), "t.yaml", errors)
        if doc is None or doc.value(("k", "e")) != value:
            continue  # what our loader refuses (YAML 1.1 forms) or reads otherwise
        checked += 1
        origin, lines = origin_of(doc, ("k", "e")), text.splitlines()
        escape = {'"': "\\", "'": "'"}.get(doc.block_scalars.get(("k", "e")))
        for number, line in enumerate(value.split("\n"), 1):
            for col, char in enumerate(line, 1):
                if not char.isspace():
                    at_line, at_col = origin.map(number, col)
                    assert lines[at_line - 1][at_col - 1] in (char, escape), (text, number, col)
    assert checked > 300
