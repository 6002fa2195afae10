"""Texts in the script of their language (locale_scripts.py): a lookalike letter of another
script inside a word, and a name or message wholly in another script, are warnings at the
letter; placeholders, case names, ids in backticks, numbers and Latin names are not."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ludex.errors import Collector
from ludex.locale_files import ENGINE_DIR
from ludex.locale_scripts import check_scripts
from ludex.resources import games_dir
from ludex.validate import validate_paths
from ludex.yamlio import load_file

GAMES = Path(__file__).parent / "games"
CODE = "locale/mixed-script"


@pytest.fixture()
def tiny(tmp_path: Path) -> Path:
    shutil.copytree(GAMES / "tiny", tmp_path / "tiny")
    return tmp_path / "tiny"


def mixed(folder: Path) -> list[tuple[str, int, int, str]]:
    """(file relative to the game, line, column, message) of each mixed-script warning."""
    return [(Path(d.file).resolve().relative_to(folder.resolve()).as_posix(), d.line, d.col,
             d.message)
            for d in validate_paths([folder]).diagnostics if d.code == CODE]


def replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


GREEK = """\
lang: el
game: {name: Tiny}
powers: {red: {name: Κόκκινος, def: ο Κόκκινος}, blue: Μπλε}
messages:
  main: Παίξε ένα φύλλo
"""


def test_a_cyrillic_letter_inside_a_latin_word_is_warned_at_that_letter_naming_it(tiny):
    replace(tiny / "locale" / "en.yaml", "Your move", "Your mоve")  # U+043E
    [(file, line, col, message)] = mixed(tiny)
    assert (file, line, col) == ("locale/en.yaml", 14, 15)
    assert "U+043E CYRILLIC SMALL LETTER O" in message and "`mоve`" in message


def test_a_latin_letter_inside_a_greek_word_is_warned_in_a_greek_locale(tiny):
    (tiny / "locale" / "el.yaml").write_text(GREEK, encoding="utf-8")
    [(file, line, col, message)] = mixed(tiny)
    assert (file, line, col) == ("locale/el.yaml", 5, 23)
    assert "U+006F LATIN SMALL LETTER O" in message


def test_a_lookalike_in_a_form_written_in_a_flow_mapping_is_warned_at_its_letter(tiny):
    (tiny / "locale" / "el.yaml").write_text(
        GREEK.replace("def: ο Κόκκινος", "def: o Κόκκινος").replace("φύλλo", "φύλλο"),
        encoding="utf-8")
    # a Latin `o` standing as a word of its own is a word in one script, like a Latin name
    # in a Greek text: only a word mixing scripts is surely a slip
    assert mixed(tiny) == []
    (tiny / "locale" / "el.yaml").write_text(
        GREEK.replace("def: ο Κόκκινος", "def: ο Kόκκινος").replace("φύλλo", "φύλλο"),
        encoding="utf-8")  # a Latin K
    [(file, line, col, message)] = mixed(tiny)
    assert (file, line, col) == ("locale/el.yaml", 3, 39)
    assert "`powers.red.def`" in message and "U+004B LATIN CAPITAL LETTER K" in message


def test_a_card_name_wholly_in_another_script_than_its_locales_is_warned_at_its_start(tiny):
    replace(tiny / "cards" / "locale" / "en.yaml", "{name: Red Two}", "{name: 2 χρυσών}")
    [(file, line, col, message)] = mixed(tiny)
    assert (file, line, col) == ("cards/locale/en.yaml", 5, 21)
    assert "`cards.red_two.name`" in message and "Greek" in message and "`en`" in message


def test_a_message_wholly_in_latin_letters_in_a_greek_locale_is_warned(tiny):
    (tiny / "locale" / "el.yaml").write_text(
        GREEK.replace("Παίξε ένα φύλλo", "Your move"), encoding="utf-8")
    [(file, line, col, _)] = mixed(tiny)
    assert (file, line, col) == ("locale/el.yaml", 5, 9)


def test_placeholders_case_names_ids_numbers_and_latin_names_are_not_mixed_scripts(tiny):
    """Only words are read: `{a0, select, copas {…}}` holds Latin syntax around Greek words,
    `gold` in backticks is an id, and a Latin name (`Tiny` as the game's Greek name, `Sena
    Gallica` kept in Latin letters) or word ("OK") is written so in any language."""
    (tiny / "locale" / "el.yaml").write_text("""\
lang: el
game: {name: Tiny}
powers: {red: Sena Gallica, blue: Μπλε}
messages:
  main: '{a0:def} παίζει {a1, select, copas {τις κούπες} other {τα {a1}}}: 3 φύλλα, `gold`.'
  decided: OK
  value: Το Tiny είναι παιχνίδι
""", encoding="utf-8")
    assert mixed(tiny) == []


def test_the_bundled_games_test_games_and_engine_messages_keep_to_their_scripts():
    games = [*games_dir().iterdir(), *GAMES.iterdir(), *(GAMES.parent / "locales").iterdir()]
    found = [d.headline() for d in validate_paths(
        [g for g in games if (g / "game.yaml").is_file()]).diagnostics if d.code == CODE]
    assert found == []
    for path in sorted(ENGINE_DIR.glob("*.yaml")):
        errors = Collector()
        check_scripts(path.stem, [load_file(path, errors)], errors)
        assert errors.sorted() == []
