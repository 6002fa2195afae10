"""Content checks past the schemas, as a designer reads them: a table's cell of the wrong type
is told with its column and the value as it was written."""

from __future__ import annotations

from pathlib import Path

import pytest

from ludex.validate import validate_paths


def _table_errors(tmp_path: Path, cell: str) -> list:
    path = tmp_path / "tables.yaml"
    path.write_text("tables:\n  - id: reinforcements\n    columns: {power: power, cu: integer}\n"
                    f"    rows:\n      - {{power: romans, cu: {cell}}}\n", encoding="utf-8")
    return validate_paths([path], kind="tables", game="sword_of_rome").diagnostics


@pytest.mark.parametrize(("cell", "shown"), [
    ('"20"', 'not the text "20"'),  # shown bare, it read as if the number 20 were refused
    ("20.5", "not 20.5"),  # the schema's "not of type integer or string…" offered a text
    ("true", "not true"),
])
def test_a_cell_of_the_wrong_type_says_what_its_column_holds_and_shows_a_text_as_a_text(
        tmp_path, cell, shown):
    errors = _table_errors(tmp_path, cell)
    assert [(d.code, d.line, d.col) for d in errors] == [("content/wrong-type", 5, 29)]
    assert errors[0].message == f"column `cu` holds whole numbers, {shown}"


def test_an_id_with_a_lookalike_letter_names_it_and_points_at_it(tmp_path):
    # `ο` is a lower-case letter: "use lower-case letters" did not say what was wrong
    path = tmp_path / "romans.yaml"
    path.write_text('id: romans\nowner: romans\ncards:\n  - {id: "orοs_5", value: 2}\n',
                    encoding="utf-8")
    found = validate_paths([path], kind="cards", game="sword_of_rome").diagnostics
    [bad] = [d for d in found if d.code == "schema/bad-name"]
    assert (bad.line, bad.col) == (4, 13)  # the omicron, inside the quotes
    assert "U+03BF GREEK SMALL LETTER OMICRON" in bad.message
    assert "ASCII letters a–z" in bad.message


def test_a_counter_starting_outside_its_bounds_is_refused_whether_its_initial_is_given_or_not(
        tiny):
    """A counter starts at its `initial`, 0 when it gives none: a designer's `min: 1` without
    `initial` started at 0, below its own bound, and a check that trusts the bounds called a
    condition true at the start impossible (trial J's re-test). A `min` above the `max` leaves
    no value at all."""
    manifest = tiny / "game.yaml"
    manifest.write_text(manifest.read_text().replace(
        "  - {id: pot, per: game}\n",
        "  - {id: pot, per: game}\n"
        "  - {id: round_no, per: game, min: 1}\n"
        "  - {id: debt, per: power, max: -1}\n"
        "  - {id: stock, per: game, min: 5, max: 2}\n"
        "  - {id: level, per: game, initial: 9, min: 0, max: 3}\n"
        "  - {id: fine, per: game, initial: 1, min: 1, max: 3}\n"))
    found = [d for d in validate_paths([tiny]).diagnostics if d.code == "content/out-of-range"]
    assert [(d.line, d.col) for d in found] == [(18, 36), (19, 33), (20, 33), (21, 37)]
    assert found[0].message == ("counter `round_no` starts at 0 (it gives no `initial`), outside "
                                "its min 1: give it `initial: 1` or the value it starts at")
    assert found[1].message.endswith("outside its max -1: give it `initial: -1` or the value "
                                     "it starts at")
    assert found[2].message == ("counter `stock` has a `min` (5) above its `max` (2): no value "
                                "lies within them")
    assert found[3].message == "counter `level` starts at 9, outside its min 0 and max 3"
