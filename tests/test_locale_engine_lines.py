"""A game's own texts of the engine's lines (locale_engine_lines.py): a word-for-word copy of the
engine's line is a warning (it hides the engine's later changes to the line); a rewording may
record the engine's text it was made from (`reworded_from`, written by `ludex locale
accept-engine`), and a change of the engine's text since is a warning that shows it."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from click.testing import CliRunner
from tests.test_locale_checks import PARTIAL_DE as GERMAN  # tiny's German, with one message
from tests.test_locale_checks import rules_locale

from ludex.cli import cli
from ludex.locale_files import engine_messages
from ludex.validate import validate_paths

GAMES = Path(__file__).parent / "games"
LOOK_HELP = engine_messages("en")["look_help"]
OLD_LOOK_HELP = ("Type ? and an option's number to see its card (? 2), ?? to see every card you "
                 "can see.")  # the engine's line before it named `?!`


def add_messages(folder: Path, lang: str, lines: str) -> Path:
    """`lines` (indented entries) added at the end of the `messages:` of `lang`'s file."""
    path = rules_locale(folder, lang)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("messages:\n", "messages:\n" + lines, 1), encoding="utf-8")
    return path


def found(folder: Path, code: str) -> list[tuple[str, int, int]]:
    return sorted((Path(d.file).name, d.line, d.col)
                  for d in validate_paths([folder]).diagnostics if d.code == code)


def test_each_word_for_word_copy_of_an_engine_line_is_a_warning_at_its_key(tiny):
    add_messages(tiny, "en", "  pass: Pass\n  stop: Stop here\n  dice: 'Roll: {dice}'\n")
    copies = [d for d in validate_paths([tiny]).diagnostics
              if d.code == "locale/engine-line-copy"]
    assert [(d.line, d.col, d.severity) for d in copies] == [(14, 3, "warning"),
                                                             (15, 3, "warning")]
    assert "`messages.pass`" in copies[0].message and "delete it" in copies[0].message


def test_a_copy_is_of_the_engines_line_in_the_files_own_language(tiny):
    german = engine_messages("de")["stop"]
    rules_locale(tiny, "de").write_text(GERMAN + f"  pass: Pass\n  stop: {german}\n",
                                        encoding="utf-8")
    # the English `pass` in the German file is no German line of the engine's
    assert found(tiny, "locale/engine-line-copy") == [("de.yaml", 7, 3)]


def test_a_translation_that_copies_the_engines_line_where_the_primary_rewords_it_is_kept(tiny):
    """Without its copy, German would be asked for its own wording of the primary language's
    `turn_start` (locale/missing-translation): the copy says the engine's line is wanted."""
    add_messages(tiny, "en", "  turn_start: Round {turn} begins.\n")
    german = engine_messages("de")
    rules_locale(tiny, "de").write_text(GERMAN + f"  turn_start: {german['turn_start']}\n"
                                        f"  stop: {german['stop']}\n", encoding="utf-8")
    assert found(tiny, "locale/engine-line-copy") == [("de.yaml", 7, 3)]  # `stop` alone
    rules_locale(tiny, "de").write_text(GERMAN, encoding="utf-8")
    assert ("de.yaml", 4, 1) in found(tiny, "locale/missing-translation")


def test_a_copy_in_the_primary_language_asks_no_translation_for_a_wording(tiny):
    add_messages(tiny, "en", "  turn_start: Turn {turn} begins.\n")
    rules_locale(tiny, "de").write_text(GERMAN, encoding="utf-8")
    missing = [d for d in validate_paths([tiny]).diagnostics
               if d.code == "locale/missing-translation" and "turn_start" in d.message]
    assert missing == []
    result = CliRunner().invoke(cli, ["locale", "status", str(tiny), "--json"])
    de = json.loads(result.output)["games"][0]["languages"][1]
    assert "messages.turn_start" not in de["missing_keys"]
    exported = CliRunner().invoke(cli, ["locale", "export", str(tiny), "de"])
    assert 'msgctxt "messages.turn_start"' not in exported.output


def test_a_language_the_engine_lacks_copies_nothing(tiny):
    """Its text of a line stands in for the engine's English: deleting it would show the
    English line to its players."""
    rules_locale(tiny, "it").write_text(GERMAN.replace("lang: de", "lang: it")
                                        + "  pass: Pass\n", encoding="utf-8")
    assert found(tiny, "locale/engine-line-copy") == []
    result = CliRunner().invoke(cli, ["locale", "status", str(tiny), "--json"])
    italian = json.loads(result.output)["games"][0]["languages"][1]
    assert (italian["lang"], italian["engine_copies"], italian["unrecorded"]) == ("it", [], [])


def test_terminal_shows_three_copies_of_a_file_and_counts_the_rest(tiny):
    add_messages(tiny, "en", "".join(f"  {key}: '{engine_messages('en')[key]}'\n"
                                     for key in ("pass", "stop", "dice", "asked_by", "pay")))
    result = CliRunner().invoke(cli, ["validate", str(tiny)])
    assert result.output.count("warning[locale/engine-line-copy]: the engine") == 3
    assert "warning[locale/engine-line-copy]: 2 more like these" in result.output


def test_a_rewording_whose_engine_line_changed_since_its_record_shows_the_text_now(tiny):
    en = add_messages(tiny, "en", "  look_help: Type ? and a number to see a card.\n")
    en.write_text(en.read_text() + f"reworded_from:\n  look_help: \"{OLD_LOOK_HELP}\"\n")
    changed = [d for d in validate_paths([tiny]).diagnostics
               if d.code == "locale/engine-line-changed"]
    assert [(d.line, d.col, d.severity) for d in changed] == [(14, 3, "warning")]
    assert LOOK_HELP in changed[0].message  # the engine's text now, to carry into the wording
    assert "\"see.\" became \"see, ?! to see" in changed[0].message


def test_a_rewording_recorded_from_the_engines_text_of_today_is_not_warned(tiny):
    en = add_messages(tiny, "en", "  look_help: Type ? and a number to see a card.\n")
    en.write_text(en.read_text() + f"reworded_from:\n  look_help: \"{LOOK_HELP}\"\n")
    assert found(tiny, "locale/engine-line-changed") == []
    result = CliRunner().invoke(cli, ["locale", "status", str(tiny), "--json"])
    english = json.loads(result.output)["games"][0]["languages"][0]
    assert (english["engine_changed"], english["unrecorded"]) == ([], [])


def test_a_rewording_with_no_record_is_no_warning_but_a_note_in_status(tiny):
    add_messages(tiny, "en", "  look_help: Type ? and a number to see a card.\n")
    assert [d for d in validate_paths([tiny]).diagnostics if not d.is_error] == []
    result = CliRunner().invoke(cli, ["locale", "status", str(tiny)])
    assert "note     the rewording of `look_help` has no record" in result.output
    assert f"ludex locale accept-engine {tiny} en" in result.output


def test_a_language_the_engine_lacks_records_the_engines_english(tiny):
    """Its text of an engine line translates the engine's English: that is what changes."""
    rules_locale(tiny, "it").write_text(
        GERMAN.replace("lang: de", "lang: it") + "  look_help: Scrivi ? e un numero.\n"
        f"reworded_from:\n  look_help: \"{OLD_LOOK_HELP}\"\n", encoding="utf-8")
    assert found(tiny, "locale/engine-line-changed") == [("it.yaml", 6, 3)]


def test_a_record_of_no_engine_message_is_an_unknown_key(tiny):
    en = add_messages(tiny, "en", "  look_help: Type ? and a number to see a card.\n")
    en.write_text(en.read_text() + f"reworded_from:\n  look_halp: \"{LOOK_HELP}\"\n")
    assert found(tiny, "locale/unknown-key") == [("en.yaml", 27, 3)]


def test_accept_engine_records_each_rewording_and_changes_no_other_line(tiny):
    en = add_messages(tiny, "en", "  look_help: Type ? and a number.   # our own words\n"
                                  "  pass: Pass\n")
    before = en.read_text()
    result = CliRunner().invoke(cli, ["locale", "accept-engine", str(tiny), "en"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == str(en)
    after = en.read_text()
    assert after.startswith(before)
    assert after[len(before):].startswith("reworded_from:  # the engine's lines as reworded")
    # a copy (`pass`) records nothing: it is to be deleted
    assert yaml.safe_load(after)["reworded_from"] == {"look_help": LOOK_HELP}
    again = CliRunner().invoke(cli, ["locale", "accept-engine", str(tiny), "en"])
    assert again.exit_code == 0 and en.read_text() == after
    assert found(tiny, "locale/engine-line-changed") == []


def test_accept_engine_rewrites_an_old_record_in_its_place(tiny):
    en = add_messages(tiny, "en", "  look_help: Type ? and a number.\n")
    text = en.read_text().replace(
        "clauses:\n", f"reworded_from:\n  look_help: \"{OLD_LOOK_HELP}\"\n  pass: Pass\n\n"
                      "clauses:\n", 1)
    en.write_text(text)
    assert found(tiny, "locale/engine-line-changed") == [("en.yaml", 14, 3)]
    CliRunner().invoke(cli, ["locale", "accept-engine", str(tiny), "en"])
    after = en.read_text()
    head, tail = text.split("reworded_from:\n")[0], text.split("Pass\n", 1)[1]
    assert after.startswith(head + "reworded_from:  # the engine's lines as reworded")
    assert after.endswith(tail) and tail.startswith("\nclauses:\n")  # the blank line kept
    # the record of `pass`, no rewording, is gone
    assert yaml.safe_load(after)["reworded_from"] == {"look_help": LOOK_HELP}
    assert found(tiny, "locale/engine-line-changed") == []


def test_accept_engine_refuses_a_language_the_game_lacks(tiny):
    result = CliRunner().invoke(cli, ["locale", "accept-engine", str(tiny), "fr"])
    assert result.exit_code == 2 and "has no `fr` locale" in result.output


def test_a_record_is_no_name_a_message_shows(tiny):
    """`reworded_from` holds the engine's texts, not names: an option `pass` still reads as
    the engine's line, not as the text recorded under its key."""
    from ludex.engine import load_definition
    from ludex.locale import Localizer

    en = add_messages(tiny, "en", "  pass: Pass the turn\n")
    en.write_text(en.read_text() + "reworded_from:\n  pass: Pass\n")
    definition, _ = load_definition(tiny)
    text = Localizer(definition.locales, "en", definition.language)
    assert text.name("pass") == "pass" and text.message("pass") == "Pass the turn"
