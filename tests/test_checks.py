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
