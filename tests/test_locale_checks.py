"""Translations by YAML alone (locale_checks.py): a new language is a file; the primary
language must be complete, the others may be partial (warnings naming the file to add each key
to; play falls back to the primary language); --strict makes the warnings errors; one
diagnostic per root cause."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from ludex.engine import load_definition
from ludex.locale import Localizer
from ludex.validate import validate_paths

GAMES = Path(__file__).parent / "games"


def rules_locale(folder: Path, lang: str) -> Path:
    return folder / "locale" / f"{lang}.yaml"


def cards_locale(folder: Path, lang: str) -> Path:
    return folder / "cards" / "locale" / f"{lang}.yaml"


def diagnostics(root: Path):
    return validate_paths([root]).diagnostics


def codes(root: Path) -> list[tuple[str, str]]:
    return sorted((d.severity, d.code) for d in diagnostics(root))


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


PARTIAL_DE = """\
lang: de
game: {name: Winzig}
powers: {red: Rot, blue: Blau}
messages:
  main: Dein Zug
"""


def test_a_partial_translation_warns_once_per_missing_key_naming_its_file(tiny):
    de = write(rules_locale(tiny, "de"), PARTIAL_DE)
    found = diagnostics(tiny)
    assert found and all(d.severity == "warning" for d in found)
    in_file = [d for d in found if Path(d.file).resolve() == de.resolve()]
    assert {d.code for d in in_file} == {"locale/missing-translation"}
    assert all(d.file in d.message for d in in_file)
    keys = {d.message.split("`")[1] for d in in_file}
    assert {"spaces.a", "messages.both_rich", "phases.income"} <= keys
    assert len(keys) == len(in_file)  # one diagnostic per key


def test_a_missing_card_locale_is_one_warning_for_the_whole_file(tiny):
    write(rules_locale(tiny, "de"), PARTIAL_DE)
    missing = [d for d in diagnostics(tiny) if d.code == "locale/missing-file"]
    assert len(missing) == 1
    assert missing[0].file.endswith("tiny/cards/locale/de.yaml")
    assert "6 keys" in missing[0].message


def test_partial_languages_still_play_falling_back_to_the_primary_language(tiny):
    write(rules_locale(tiny, "de"), PARTIAL_DE)
    definition, _ = load_definition(tiny)
    assert definition.languages == ["en", "de"]
    text = Localizer(definition.locales, "de", definition.language)
    assert text.message("main") == "Dein Zug"
    assert text.message("both_rich") == "Both players are rich"
    assert text.name("red") == "Rot" and text.name("a") == "A"
    assert text.message("turn_start", {"turn": 2}) == "Spielzug 2 beginnt."


@pytest.mark.parametrize("command", ["validate", "check"])
def test_a_partial_translation_shows_a_few_warnings_per_file_and_counts_the_rest(tiny, command):
    """A partial English locale of an Italian game printed 24 three-line warnings (72 lines)
    on every validate and check (a designer's trial): the terminal shows three per file and
    one line for the rest; --json keeps every one, and --strict shows each error."""
    import json

    from click.testing import CliRunner

    from ludex.cli import cli

    write(rules_locale(tiny, "de"), PARTIAL_DE)
    runner = CliRunner()
    every = json.loads(runner.invoke(cli, ["validate", "--json", str(tiny)]).stdout)["errors"]
    missing = [d for d in every if d["code"] == "locale/missing-translation"]
    assert len(missing) > 4
    shown = runner.invoke(cli, [command, str(tiny)]).output
    assert shown.count("warning[locale/missing-translation]: `") == 3
    assert f"warning[locale/missing-translation]: {len(missing) - 3} more like these" in shown
    strict = runner.invoke(cli, ["validate", "--strict", str(tiny)]).output
    assert strict.count("error[locale/missing-translation]") == len(missing)


def test_strict_validation_turns_translation_warnings_into_errors(tiny):
    from click.testing import CliRunner

    from ludex.cli import cli

    write(rules_locale(tiny, "de"), PARTIAL_DE)
    runner = CliRunner()
    assert runner.invoke(cli, ["validate", str(tiny)]).exit_code == 0
    strict = runner.invoke(cli, ["validate", "--strict", str(tiny)])
    assert strict.exit_code == 1
    assert "error[locale/missing-translation]" in strict.output


def test_a_primary_language_without_a_locale_is_one_error_at_the_manifest(tiny):
    manifest = tiny / "game.yaml"
    manifest.write_text(manifest.read_text().replace("id: tiny\n", "id: tiny\nlanguage: pl\n"))
    found = [d for d in diagnostics(tiny) if d.is_error]
    assert [(d.code, Path(d.file).name, d.line) for d in found] == [
        ("locale/missing-primary", "game.yaml", 5)]


@pytest.mark.parametrize("gone", ["rules", "cards"])
def test_a_primary_language_missing_one_of_its_files_is_one_error_naming_that_file(tiny, gone):
    """A designer deleted locale/es.yaml and kept cards/locale/es.yaml: 71 missing keys, one
    per name and message, and nothing said the file was gone (trial J)."""
    write(rules_locale(tiny, "de"), PARTIAL_DE)
    (rules_locale(tiny, "en") if gone == "rules" else cards_locale(tiny, "en")).unlink()
    found = diagnostics(tiny)
    errors = [d for d in found if d.is_error]
    assert [(d.code, Path(d.file).name, d.line) for d in errors] == [
        ("locale/missing-primary", "game.yaml", 4)]
    added = "tiny/locale/en.yaml" if gone == "rules" else "tiny/cards/locale/en.yaml"
    assert added in errors[0].message
    assert (" (as de has one)" in errors[0].message) == (gone == "rules")
    # nothing follows from the same cause: no missing keys, no unnamed card attribute
    assert not [d for d in found if d.code.startswith("locale/") and d is not errors[0]]


def test_a_message_missing_from_the_primary_language_is_reported_once_where_it_is_used(tiny):
    write(rules_locale(tiny, "de"), PARTIAL_DE)
    en = rules_locale(tiny, "en")
    en.write_text(en.read_text().replace("  both_rich: Both players are rich\n", ""))
    about = [d for d in diagnostics(tiny) if "both_rich" in d.message]
    assert [(d.severity, d.code, Path(d.file).name) for d in about] == [
        ("error", "locale/missing-key", "procedures.yaml")]


def test_a_used_message_the_primary_language_lost_is_one_error_not_an_unknown_translation(
        tiny):
    """Removing a used message from the primary language also called the translation's text
    of it an unknown key, with a "did you mean" that suggested renaming the right one."""
    write(rules_locale(tiny, "de"), PARTIAL_DE + "  both_rich: Beide sind reich\n")
    en = rules_locale(tiny, "en")
    en.write_text(en.read_text().replace("  both_rich: Both players are rich\n", ""))
    about = [d for d in diagnostics(tiny) if "both_rich" in d.message]
    assert [(d.severity, d.code, Path(d.file).name) for d in about] == [
        ("error", "locale/missing-key", "procedures.yaml")]


def test_an_engine_message_reworded_in_the_primary_language_falls_back_to_the_engines_text(
        tiny):
    """The warning said "(until then `en` is shown)", but a player in German reads the
    engine's own German line: say so."""
    write(rules_locale(tiny, "de"), PARTIAL_DE)
    en = rules_locale(tiny, "en")
    en.write_text(en.read_text().replace("messages:\n",
                                         "messages:\n  turn_start: Round {turn} begins.\n"))
    [warning] = [d for d in diagnostics(tiny) if "turn_start" in d.message]
    assert (warning.code, warning.severity) == ("locale/missing-translation", "warning")
    assert "`en` is shown" not in warning.message
    assert "engine's own text" in warning.message
    german = load_definition(tiny)[0].localizer("de").message("turn_start", {"turn": 3})
    assert german == "Spielzug 3 beginnt."  # the engine's de, not the game's en


def test_a_message_only_a_translation_has_is_an_unknown_key(tiny):
    write(rules_locale(tiny, "de"), PARTIAL_DE + "  nirgends: Nirgends\n")
    found = [d for d in diagnostics(tiny) if d.is_error]
    assert [(d.code, d.line) for d in found] == [("locale/unknown-key", 6)]


def test_a_translation_may_not_use_arguments_the_primary_text_lacks(tiny):
    write(rules_locale(tiny, "de"), PARTIAL_DE.replace("Dein Zug", "Dein Zug, {a7}"))
    found = [d for d in diagnostics(tiny) if d.is_error]
    assert [(d.code, d.line, d.col) for d in found] == [("locale/unknown-argument", 5, 19)]


def test_a_broken_message_is_an_error_at_its_text(tiny):
    write(rules_locale(tiny, "de"), PARTIAL_DE.replace("Dein Zug", "Dein {Zug"))
    found = [d for d in diagnostics(tiny) if d.is_error]
    assert [(d.code, d.line, d.col) for d in found] == [("locale/bad-message", 5, 14)]


@pytest.mark.parametrize("written", [
    ">-\n    Tocca a te.\n    Dein {Zug", '"\\"Tocca\\" a te. Dein {Zug"',
    "|\n    Tocca a te.\n    Dein {Zug"])
def test_a_broken_message_folded_or_escaped_is_an_error_at_its_own_place(tiny, written):
    de = write(rules_locale(tiny, "de"), PARTIAL_DE.replace("Dein Zug", written))
    found = [d for d in diagnostics(tiny) if d.is_error]
    before = de.read_text().split("{Zug")[0]
    assert [(d.code, d.line, d.col) for d in found] == [
        ("locale/bad-message", before.count("\n") + 1, len(before.split("\n")[-1]) + 1)]


def test_plural_cases_a_language_needs_are_asked_for(tiny):
    text = PARTIAL_DE.replace("de", "pl").replace(
        "Dein Zug", "'{a0, plural, one {# karta} other {# kart}}'")
    write(rules_locale(tiny, "pl"), text)
    found = [d for d in diagnostics(tiny) if d.code == "locale/plural-categories"]
    assert len(found) == 1 and "few (e.g. 2), many (e.g. 5)" in found[0].message


@pytest.mark.parametrize("lang", ["es", "pt-BR", "fr", "it"])
def test_a_plural_case_only_millions_fall_in_is_not_asked_for(tiny, lang):
    """Spanish, Portuguese, French and Italian `many` covers 1000000, 2000000…, which no game
    counts to: asking for it in every plural was noise to two designers. Those numbers get
    the `other` text."""
    text = PARTIAL_DE.replace("lang: de", f"lang: {lang}").replace(
        "Dein Zug", "'{a0, plural, one {# carta} other {# cartas}}'")
    write(rules_locale(tiny, lang), text)
    assert "many" in plurals_of(lang)
    assert [d for d in diagnostics(tiny) if d.code == "locale/plural-categories"] == []


def test_a_plural_case_is_asked_for_with_the_first_number_it_covers(tiny):
    """Czech `many` is for fractions only; Polish `many` covers 0 and 5…: asked, with the first
    number from 2 on it covers (a designer found "e.g. 0" told little)."""
    text = PARTIAL_DE.replace("lang: de", "lang: cs").replace(
        "Dein Zug", "'{a0, plural, one {# karta} other {# karet}}'")
    write(rules_locale(tiny, "cs"), text)
    found = [d for d in diagnostics(tiny) if d.code == "locale/plural-categories"]
    assert len(found) == 1 and "distinguishes few (e.g. 2) for `a0`" in found[0].message


def plurals_of(lang: str) -> set[str]:
    from ludex import plurals

    return plurals.categories(lang)


def test_a_plural_case_the_language_never_uses_is_named(tiny):
    text = PARTIAL_DE.replace("Dein Zug", "'{a0, plural, one {# Karte} few {# Karten} other "
                                          "{# Karten}}'")
    write(rules_locale(tiny, "de"), text)
    found = [d for d in diagnostics(tiny) if d.code == "locale/plural-categories"]
    assert len(found) == 1 and "`de` has no `few` numbers: that case is never used" \
        in found[0].message
    # at the case itself (a misspelt `outro` was pointed at the plural's `{`)
    line = text.splitlines().index(next(x for x in text.splitlines() if "few {" in x)) + 1
    assert (found[0].line, found[0].col) == (line, text.splitlines()[line - 1].index("few") + 1)


def test_a_language_cldr_does_not_know_warns_that_plurals_say_other(tiny):
    write(rules_locale(tiny, "qaa"), PARTIAL_DE.replace("lang: de", "lang: qaa"))
    found = [d for d in diagnostics(tiny) if d.code == "locale/unknown-language"]
    assert [(Path(d.file).name, d.line, d.col) for d in found] == [("qaa.yaml", 1, 7)]


@pytest.mark.parametrize("tag", ["x-private", "en-x-foo", "de-CH-1996", "de-u-co-phonebk"])
def test_a_locale_with_a_private_use_or_extended_tag_validates_and_plays(tiny, tag):
    # a private-use tag failed the schema, leaving the language no file to warn at: IndexError
    write(rules_locale(tiny, tag), PARTIAL_DE.replace("lang: de", f"lang: {tag}"))
    assert not [d for d in diagnostics(tiny) if d.severity == "error"]
    definition, _ = load_definition(tiny)
    assert tag in definition.languages
    assert Localizer(definition.locales, tag, definition.language).message("main") == "Dein Zug"


def test_a_locale_whose_tag_is_not_bcp_47_is_a_schema_error_not_a_crash(tiny):
    write(rules_locale(tiny, "en-US-fake"), PARTIAL_DE.replace("lang: de", "lang: en-US-fake"))
    found = [(d.code, Path(d.file).name, d.line) for d in diagnostics(tiny)
             if d.severity == "error"]
    assert found == [("schema/bad-format", "en-US-fake.yaml", 1)]


def test_plural_rules_of_an_extended_tag_are_its_languages():
    from ludex import plurals

    assert plurals.category("ru-x-old", 3) == plurals.category("ru", 3) == "few"
    assert not plurals.known("x-klingon")


def test_an_engine_message_a_game_gives_overrides_the_engines(tiny):
    write(rules_locale(tiny, "de"), PARTIAL_DE + "  turn_start: Runde {turn}!\n")
    definition, _ = load_definition(tiny)
    text = Localizer(definition.locales, "de", definition.language)
    assert text.message("turn_start", {"turn": 3}) == "Runde 3!"


def test_the_question_of_a_pay_is_worded_by_the_engine_when_the_game_does_not(tiny):
    """`pay` asks how to pay when there are several ways: the engine words that question
    (tiny's locale has no `pay`), in each language it has."""
    write(rules_locale(tiny, "de"), PARTIAL_DE)
    definition, _ = load_definition(tiny)
    assert Localizer(definition.locales, "en", definition.language).message("pay") == \
        "How do you pay?"
    assert Localizer(definition.locales, "de", definition.language).message("pay") == \
        "Wie bezahlst du?"


def test_a_language_the_engine_lacks_is_asked_for_the_engine_messages_once(tiny):
    write(rules_locale(tiny, "pl"), PARTIAL_DE.replace("lang: de", "lang: pl"))
    found = [d for d in diagnostics(tiny) if d.code == "locale/missing-engine-messages"]
    assert len(found) == 1 and found[0].severity == "warning"
    assert found[0].file.endswith("tiny/locale/pl.yaml") and "turn_start" in found[0].message
    assert "players read them in `en` until" in found[0].message  # the primary's, the engine's


def test_the_cli_docs_count_the_engine_messages_a_new_language_is_asked_for():
    """docs/cli.md says how many engine lines a language the engine lacks must give: it said 83
    when a designer translated 87 (messages added since)."""
    import re

    from ludex.locale_checks import asked_of_translations
    from ludex.locale_files import engine_keys

    said = re.search(r"the table's words: (\d+) of them\)",
                     (Path(__file__).parents[1] / "docs" / "cli.md").read_text(encoding="utf-8"))
    assert said is not None
    assert int(said[1]) == sum(map(asked_of_translations, engine_keys()))


def in_italian(game: Path) -> None:
    """The game's locale files become Italian ones (their texts unchanged)."""
    for path in (rules_locale(game, "en"), cards_locale(game, "en")):
        path.rename(path.with_name("it.yaml"))
        path.with_name("it.yaml").write_text(
            path.with_name("it.yaml").read_text().replace("lang: en", "lang: it"))


def test_a_primary_language_the_engine_lacks_plays_at_once_with_the_engines_english(tiny):
    """A designer writing their game in Italian got one error listing 85 engine messages and
    could not play it until every one was translated: it is a warning, play shows the engine's
    English meanwhile, and the warning says how to list them with their English texts."""
    import subprocess
    import sys

    in_italian(tiny)
    manifest = tiny / "game.yaml"
    manifest.write_text(manifest.read_text().replace("id: tiny\n", "id: tiny\nlanguage: it\n"))
    found = diagnostics(tiny)
    assert [(d.severity, d.code) for d in found] == [
        ("warning", "locale/missing-engine-messages")]
    assert found[0].file.endswith("tiny/locale/it.yaml")
    assert "players read them in English" in found[0].message
    assert f"`ludex locale export {tiny} it --out it.po`" in found[0].message
    played = subprocess.run([sys.executable, "-m", "ludex.cli", "play", str(tiny), "--agents",
                             "random", "--seed", "1"], capture_output=True, text=True)
    assert played.returncode == 0, played.stderr
    assert "Turn 2 begins." in played.stdout.splitlines()


def test_a_locale_in_another_language_than_the_primary_one_says_how_to_name_it(tiny):
    in_italian(tiny)
    found = [d for d in diagnostics(tiny) if d.is_error]
    assert [d.code for d in found] == ["locale/missing-primary"]
    assert "name the game's own language in game.yaml (`language: it`" in found[0].message


def test_one_malformed_entry_does_not_hide_the_rest_of_its_file(tiny):
    write(rules_locale(tiny, "de"), PARTIAL_DE + "  both_rich: [not, a, text]\n")
    found = diagnostics(tiny)
    assert [(d.code, d.line) for d in found if d.is_error] == [("schema/wrong-type", 6)]
    missing = {d.message.split("`")[1] for d in found if d.code == "locale/missing-translation"}
    assert "powers.red" not in missing and "messages.main" not in missing
    assert "messages.both_rich" not in missing  # its schema error is its one diagnostic


@pytest.fixture()
def wagers(tmp_path: Path) -> Path:
    """A copy of the wagers test game, whose rules log messages with arguments."""
    shutil.copytree(GAMES / "wagers", tmp_path / "wagers")
    return tmp_path / "wagers"


def reword(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_a_message_using_an_argument_its_log_never_passes_is_an_error_at_the_placeholder(
        wagers):
    """`log("round_won", leaders[0], turn)` passes a0 and a1: a text asking for a2 could not
    be written (play used to stop with an internal error). The caret is at `{a2}`."""
    reword(rules_locale(wagers, "en"), '"{a0} wins round {a1}."', '"{a0} wins round {a2}."')
    found = [d for d in diagnostics(wagers) if d.is_error]
    assert [(d.code, Path(d.file).name, d.line, d.col) for d in found] == [
        ("locale/unknown-argument", "en.yaml", 14, 31)]
    assert "procedures.yaml:31:" in found[0].message and "`a0`, `a1`" in found[0].message


@pytest.mark.parametrize("game, key, use", [
    ("auction", "bid", '`choose … prompt "bid"` at '),  # also its window's question
    ("wagers", "turn", "the question of the window `turn` at "),
    ("wagers", "too_low", '`require … else "too_low"` at '),
    ("tiny", "both_rich", '`end_game("both_rich")` at '),
    ("auction", "lots_sold", "`until_reason` at "),
])
def test_a_prompt_or_a_reason_using_an_argument_is_an_error_at_the_placeholder(
        tmp_path, game, key, use):
    """A prompt, a `require` reason and a reason the game ends with are shown with no argument:
    a placeholder in their text would show raw at play (`Komu {a0} podaje linę?`), in any
    language."""
    folder = shutil.copytree(GAMES / game, tmp_path / game)
    locale = rules_locale(folder, "en")
    lines = locale.read_text(encoding="utf-8").splitlines()
    number = next(n for n, line in enumerate(lines, 1) if line.startswith(f"  {key}: "))
    lines[number - 1] += " {a0}"
    locale.write_text("\n".join(lines) + "\n", encoding="utf-8")
    found = [d for d in diagnostics(folder) if d.is_error]
    assert [(d.code, Path(d.file).name, d.line, d.col) for d in found] == [
        ("locale/unknown-argument", "en.yaml", number, len(lines[number - 1]) - 3)]
    assert use in found[0].message and "passes no argument" in found[0].message


def game_copy(tmp_path: Path, game: str, effect: tuple[str, str],
              texts: dict[str, str]) -> Path:
    """A copy of a test game whose procedures say `effect[1]` for `effect[0]`, and whose
    English gives `texts` (key: text; added, or in place of the key's text)."""
    folder = shutil.copytree(GAMES / game, tmp_path / game)
    reword(folder / "procedures.yaml", *effect)
    locale = rules_locale(folder, "en")
    lines = [line for line in locale.read_text(encoding="utf-8").splitlines()
             if not any(line.startswith(f"  {key}: ") for key in texts)]
    at = lines.index("messages:") + 1
    lines[at:at] = [f"  {key}: {json.dumps(text)}" for key, text in texts.items()]
    locale.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def placeholder(folder: Path, key: str, slot: str) -> tuple[int, int]:
    """Line and column of `slot` (`{a1}`) in the English text of `key`."""
    lines = rules_locale(folder, "en").read_text(encoding="utf-8").splitlines()
    number = next(n for n, line in enumerate(lines, 1) if line.startswith(f"  {key}: "))
    return number, lines[number - 1].index(slot) + 1


# (game, the effect's words and what they become, the message, its use as a diagnostic says it)
ARGUMENT_USES = [
    ("auction", ('prompt "bid"', 'prompt ("raise_to", me, counter(high_bid))'), "raise_to",
     ('`choose … prompt ("raise_to", …)` at ', "procedures.yaml:33:7")),
    ("wagers", ('else "too_low"', 'else ("too_high", cards(table)[0], me)'), "too_high",
     ('`require … else ("too_high", …)` at ', "procedures.yaml:40:7")),
    ("tiny", ('end_game("both_rich")', 'end_game("both_richer", red, blue)'), "both_richer",
     ('`end_game("both_richer", …)` at ', "procedures.yaml:40:7")),
]


@pytest.mark.parametrize("game, effect, key, use", ARGUMENT_USES)
def test_a_prompt_or_a_reason_may_show_the_arguments_it_is_given(tmp_path, game, effect, key,
                                                                   use):
    folder = game_copy(tmp_path, game, effect, {key: "{a1} and {a0}"})
    assert [d.headline() for d in diagnostics(folder)] == []


@pytest.mark.parametrize("game, effect, key, use", ARGUMENT_USES)
def test_a_prompt_or_a_reason_showing_an_argument_it_is_not_given_is_an_error_there(
        tmp_path, game, effect, key, use):
    folder = game_copy(tmp_path, game, effect, {key: "{a0}, {a1} and {a2}"})
    found = [d for d in diagnostics(folder) if d.is_error]
    assert [(d.code, Path(d.file).name, d.line, d.col) for d in found] == [
        ("locale/unknown-argument", "en.yaml", *placeholder(folder, key, "{a2}"))]
    how, place = use
    assert how in found[0].message and place in found[0].message
    assert "passes `a0`, `a1`" in found[0].message


@pytest.mark.parametrize("game, effect, key, use", ARGUMENT_USES)
def test_a_prompt_or_a_reason_leaving_out_an_argument_it_is_given_is_warned_at_its_text(
        tmp_path, game, effect, key, use):
    folder = game_copy(tmp_path, game, effect, {key: "{a0} only"})
    found = diagnostics(folder)
    line, _ = placeholder(folder, key, "{a0}")
    assert [(d.severity, d.code, Path(d.file).name, d.line) for d in found] == [
        ("warning", "locale/unshown-argument", "en.yaml", line)]
    how, place = use
    assert how in found[0].message and place in found[0].message and "a1" in found[0].message


def test_a_translation_of_a_prompt_may_show_what_the_prompt_passes_and_no_more(tmp_path):
    folder = game_copy(tmp_path, *ARGUMENT_USES[0][:2], {"raise_to": "{a0}: {a1}?"})
    de = write(rules_locale(folder, "de"), PARTIAL_DE.replace("Winzig", "Auktion").replace(
        "powers: {red: Rot, blue: Blau}\n", "").replace("main: Dein Zug", "raise_to: "
                                                         "'{a0:dat} bis {a1}, nicht {a2}?'"))
    found = [d for d in diagnostics(folder) if d.is_error]
    line = de.read_text(encoding="utf-8").splitlines().index(
        "  raise_to: '{a0:dat} bis {a1}, nicht {a2}?'") + 1
    assert [(d.code, Path(d.file).name, d.line) for d in found] == [
        ("locale/unknown-argument", "de.yaml", line)]


def test_a_key_used_with_arguments_and_without_may_show_only_what_every_use_passes(tmp_path):
    """Auction's `bid` is its window's question (no argument) and, here, a prompt given the
    bidder: `{a0}` would show raw at the window's question."""
    folder = game_copy(tmp_path, "auction", ('prompt "bid"', 'prompt ("bid", me)'),
                       {"bid": "Your bid, {a0}"})
    found = [d for d in diagnostics(folder) if d.is_error]
    assert [(d.code, d.line, d.col) for d in found] == [
        ("locale/unknown-argument", *placeholder(folder, "bid", "{a0}"))]
    assert "the question of the window `bid`" in found[0].message


def test_a_primary_text_of_an_engine_message_may_use_only_what_the_engine_passes(wagers):
    """A game rewording an engine line in its own language is measured against the engine's
    text: `pass` is shown with no argument."""
    reword(rules_locale(wagers, "en"), "  turn: Your turn\n", "  turn: Your turn\n  pass: "
                                                              "I pass, {a0}\n")
    found = [d for d in diagnostics(wagers) if d.is_error]
    assert [(d.code, d.line, d.col) for d in found] == [("locale/unknown-argument", 11, 17)]


def test_a_primary_text_that_leaves_out_a_logged_argument_is_warned_at_that_text(wagers):
    reword(rules_locale(wagers, "en"), '"{a0} wins round {a1}."', '"{a0} wins the round."')
    found = diagnostics(wagers)
    assert [(d.severity, d.code, d.line) for d in found] == [
        ("warning", "locale/unshown-argument", 14)]


def test_a_translation_is_measured_against_the_log_call_not_the_primary_text(wagers):
    """The primary text drops a1: the translation that shows it is right, and is not the one
    blamed (the warning is at the primary text)."""
    reword(rules_locale(wagers, "en"), '"{a0} wins round {a1}."', '"{a0} wins the round."')
    write(rules_locale(wagers, "de"), "lang: de\nmessages:\n  round_won: '{a0} gewinnt "
                                      "Runde {a1}.'\n")
    found = diagnostics(wagers)
    assert not [d for d in found if d.is_error]
    assert [Path(d.file).name for d in found if d.code == "locale/unshown-argument"] == \
        ["en.yaml"]


def as_primary(wagers: Path, lang: str, extra_messages: dict[str, str]) -> None:
    """Make `lang` wagers' primary language (its texts copied from the English), with
    `extra_messages` added to it."""
    import json

    extra = "".join(f"  {k}: {json.dumps(v, ensure_ascii=False)}\n"  # JSON text is YAML
                    for k, v in extra_messages.items())
    text = rules_locale(wagers, "en").read_text(encoding="utf-8").replace(
        "lang: en", f"lang: {lang}").replace("\nmessages:\n", "\nmessages:\n" + extra)
    write(rules_locale(wagers, lang), text)
    card_texts = cards_locale(wagers, "en").read_text(encoding="utf-8")
    write(cards_locale(wagers, lang), card_texts.replace("lang: en", f"lang: {lang}"))
    reword(wagers / "game.yaml", "id: wagers\n", f"id: wagers\nlanguage: {lang}\n")


def test_engine_messages_a_game_had_to_give_in_its_primary_language_need_no_english(wagers):
    """An Italian game must give the engine's messages in Italian (the engine lacks them):
    English players get the engine's own English, so nothing is missing in `en` (a designer's
    trial, in Spanish before the engine spoke it, met 85 false warnings); validate, status and
    a PO export agree."""
    from ludex.content import load_game
    from ludex.errors import Collector
    from ludex.folders import discover
    from ludex.locale_files import engine_messages
    from ludex.locale_po import export_po
    from ludex.schemas import Validators

    as_primary(wagers, "it", {k: f"IT {v}" for k, v in engine_messages("en").items()})
    found = diagnostics(wagers)
    assert not [d for d in found if d.is_error], found
    assert not [d for d in found if "messages.pass" in d.message]
    catalog = export_po(load_game(discover(wagers), Collector(), Validators()), "en")
    assert b'"messages.pass"' not in catalog and b'"messages.round_won"' in catalog


def test_an_engine_message_the_game_rewords_asks_its_translations_to_follow(wagers):
    """A German game that calls passing its own way ("Ich setze aus"): English still needs
    its wording, or players read the engine's plain "Pass" (found by a review)."""
    as_primary(wagers, "de", {"pass": "Ich setze aus"})
    missing = [d for d in diagnostics(wagers) if d.code == "locale/missing-translation"]
    assert any("`messages.pass`" in d.message and d.file.endswith("en.yaml") for d in missing)


def test_a_message_asking_more_than_it_is_given_still_shows_a_line():
    """A log line that a message cannot fill (an old save, a key worked out at run time)
    shows the missing argument as its slot; it never stops the game."""
    text = Localizer({"en": {"messages": {"round_won": "{a0} wins round {a2}."}}}, "en", "en")
    assert text.message("round_won", {"a0": "north", "a1": 2}) == "north wins round {a2}."


def test_a_language_the_engine_lacks_is_not_asked_for_the_designers_tools_texts(wagers_in):
    """A game in a language the engine lacks (Italian; a Spanish designer's trial, before the
    engine spoke Spanish) that translated every engine line players meet still got the warning
    for 68 texts of `simulate` and the balance report, and `validate --strict` failed on it."""

    import yaml

    from ludex.validate import validate_paths

    game = wagers_in("it")
    engine = yaml.safe_load((Path(__file__).resolve().parent.parent / "interpreter" / "ludex"
                             / "messages" / "en.yaml").read_text())["messages"]
    played = {k: v for k, v in engine.items()
              if not k.startswith(("simulated", "report_", "dumped_"))}
    locale = game / "locale" / "it.yaml"
    locale.write_text(locale.read_text().replace("messages:\n", "messages:\n" + "".join(
        f"  {k}: {json.dumps(v, ensure_ascii=False)}\n" for k, v in played.items()), 1))
    codes = [d.code for d in validate_paths([game]).diagnostics]
    assert "locale/missing-engine-messages" not in codes
    # and `locale status` agrees: the primary language is complete (it counted the 68 as
    # missing: found by an Italian designer's trial)
    from ludex.content import load_game
    from ludex.errors import Collector
    from ludex.folders import discover
    from ludex.locale_status import status
    from ludex.schemas import Validators

    italian = next(s for s in status(load_game(discover(game), Collector(), Validators()))
                   if s.lang == "it")
    assert italian.primary and italian.complete, italian.missing
    # a second language the engine lacks reads them in the primary language the game gave
    # them in, not in English, as the warning said (a Portuguese designer's trial)
    galician = game / "locale" / "gl.yaml"
    galician.write_text("lang: gl\ngame: {name: Apostas}\n")
    found = [d for d in validate_paths([game]).diagnostics
             if d.code == "locale/missing-engine-messages"]
    assert len(found) == 1 and "players read them in `it` until" in found[0].message
    galician.unlink()
    # one line players meet left out: warned, naming it
    locale.write_text(locale.read_text().replace("  game_tied:", "  game_tide:", 1))
    found = [d for d in validate_paths([game]).diagnostics
             if d.code == "locale/missing-engine-messages"]
    assert len(found) == 1 and "game_tied" in found[0].message
    assert "players read them in English until" in found[0].message  # `it` lacks it too


POLISH_FORMS = """\
lang: pl
game: {name: Winzig}
spaces:
  a: {name: Warszawa, loc: Warszawie, gen: Warszawy}
  b: {name: Płock, loc: Płocku, gen: Płocka}
messages:
  main: 'Bitwa w {a0:lok}: {a1:gen}'
"""


def test_a_form_no_name_of_the_language_has_is_warned_at_its_placeholder(tiny):
    """`{a0:lok}` for `{a0:loc}` silently showed the bare name, "Bitwa w Warszawa" (a
    designer's trial): a form no name of that locale gives is a warning at its slot, with the
    forms it does give to choose from."""
    pl = write(rules_locale(tiny, "pl"), POLISH_FORMS)
    found = [d for d in diagnostics(tiny) if d.code == "locale/unknown-form"]
    line = POLISH_FORMS.splitlines().index("  main: 'Bitwa w {a0:lok}: {a1:gen}'") + 1
    assert [(Path(d.file).name, d.severity, d.line, d.col) for d in found] == [
        (pl.name, "warning", line, len("  main: 'Bitwa w ") + 1)]
    assert "(did you mean `loc`?)" in found[0].message
    write(pl, POLISH_FORMS.replace("{a0:lok}", "{a0:loc}"))
    assert [d for d in diagnostics(tiny) if d.code == "locale/unknown-form"] == []


def test_a_capitalised_form_is_known_by_its_form_and_asks_for_it(tiny):
    """`{a0:Loc}` is the `loc` form capitalised: no unknown form, and the names' `loc` is a
    form a message asks for; a capitalised misspelling is still warned."""
    write(rules_locale(tiny, "pl"), POLISH_FORMS.replace(
        "'Bitwa w {a0:lok}: {a1:gen}'", "'{a0:Loc} i {a1:Name}: {a1:Gen}'"))
    found = [d.code for d in diagnostics(tiny)
             if d.code in ("locale/unknown-form", "locale/unused-form")]
    assert found == []
    write(rules_locale(tiny, "pl"), POLISH_FORMS.replace("{a0:lok}", "{a0:Lok}"))
    found = [d for d in diagnostics(tiny) if d.code == "locale/unknown-form"]
    assert len(found) == 1 and "`Lok`" in found[0].message


def test_a_form_is_known_from_any_file_of_its_language_and_no_other(tiny):
    # the cards' file gives `acc`: a rules message may ask for it; English gives no `gen`
    write(rules_locale(tiny, "pl"), POLISH_FORMS.replace("{a0:lok}: {a1:gen}", "{a0:acc}"))
    write(cards_locale(tiny, "pl"),
          "lang: pl\ncards:\n  red_one: {name: Czerwona, acc: Czerwoną}\n")
    write(rules_locale(tiny, "en"), rules_locale(tiny, "en").read_text().replace(
        "  decided: Decided", "  decided: 'Decided in {a0:gen}'"))
    found = [(Path(d.file).name, d.code) for d in diagnostics(tiny)
             if d.code == "locale/unknown-form"]
    assert found == [("en.yaml", "locale/unknown-form")]


PLURAL_PIECES = """\
lang: pl
game: {name: Winzig}
pieces:
  soldier: {name: armia, one: armia, few: armie}
  hero: {name: bohater, few: bohaterowie, many: bohaterów}
"""


def test_a_name_lacking_a_plural_form_its_language_counts_is_warned_at_the_name(tiny):
    """`{name: armia, one: armia, few: armie}` showed "5 armia" on the board with no word:
    a name that gives plural forms is checked as a message's plural is; its plain name stands
    for the category of 1 (`hero` needs no `one`)."""
    pl = write(rules_locale(tiny, "pl"), PLURAL_PIECES)
    found = [d for d in diagnostics(tiny) if d.code == "locale/plural-categories"]
    line = PLURAL_PIECES.splitlines().index("  soldier: {name: armia, one: armia, few: armie}")
    assert [(Path(d.file).name, d.severity, d.line, d.col) for d in found] == [
        (pl.name, "warning", line + 1, 3)]
    assert "many (e.g. 5)" in found[0].message and "show the plain name `armia`" in \
        found[0].message


def test_a_name_lacking_a_plural_form_shows_its_other_form_as_a_message_would(tiny):
    """`{name: armia, few: armie, other: armii}` showed "5 armia" on a designer's board: a
    message lacking Polish `many` takes its `other` case, and so does a name (CLDR's fallback);
    the count of 1 keeps the plain name, which stands for it. The warning says which."""
    from ludex.engine import load_definition

    write(rules_locale(tiny, "pl"), PLURAL_PIECES.replace(
        "{name: armia, one: armia, few: armie}", "{name: armia, few: armie, other: armii}"))
    found = [d for d in diagnostics(tiny) if d.code == "locale/plural-categories"]
    assert len(found) == 1 and "many (e.g. 5)" in found[0].message
    assert "show the `other` form `armii`" in found[0].message
    polish = load_definition(tiny)[0].localizer("pl")
    assert [polish.counted("soldier", n) for n in (1, 3, 5, 22, 25)] == [
        "1 armia", "3 armie", "5 armii", "22 armie", "25 armii"]


def test_a_name_with_a_plural_form_its_language_never_uses_is_warned_at_that_form(tiny):
    german = "lang: de\ngame: {name: Winzig}\npieces:\n  soldier: {name: Soldat, few: Soldaten}\n"
    write(rules_locale(tiny, "de"), german)
    found = [(d.line, d.col, d.message) for d in diagnostics(tiny)
             if d.code == "locale/plural-categories"]
    # `few` is never used (at it), and `other` (2, 3…) is lacking (at the name)
    row = german.splitlines()[3]
    assert sorted((line, col) for line, col, _ in found) == [
        (4, row.index("soldier") + 1), (4, row.index("few") + 1)]
    assert any("`de` has no `few` numbers" in message for *_, message in found)


def test_the_list_separator_is_a_language_s_own_and_never_asked_for(tiny):
    """A game may give `list_separator` in any language; a language that lacks it uses CLDR's,
    so no language is asked for it (validate and `locale status` agree)."""
    from ludex.content import load_game
    from ludex.errors import Collector
    from ludex.folders import discover
    from ludex.locale_status import status
    from ludex.schemas import Validators

    write(rules_locale(tiny, "pl"), PARTIAL_DE.replace("lang: de", "lang: pl"))
    write(rules_locale(tiny, "en"), rules_locale(tiny, "en").read_text().replace(
        "messages:\n", "messages:\n  list_separator: ' / '\n"))
    found = diagnostics(tiny)
    said = [d.message.replace(str(tiny), "") for d in found]  # (the test's folder's name)
    assert not [m for m in said if "list_separator" in m], said
    languages = {s.lang: s for s in status(load_game(discover(tiny), Collector(), Validators()))}
    assert "messages.list_separator" not in languages["pl"].missing
    assert languages["en"].complete
    definition, _ = load_definition(tiny)
    assert Localizer(definition.locales, "pl", "en").separator() == ", "  # CLDR's Polish
    assert Localizer(definition.locales, "en", "en").separator() == " / "


def test_an_engine_message_a_translation_lacks_is_one_warning_not_two(japanese_wagers):
    """Turkish lacking the engine's lines that the Japanese primary gave got a
    missing-engine-messages warning naming them and a missing-translation warning for each of
    them again (a designer's trial): one warning per missing thing; `locale status` still
    counts each as missing once."""
    from ludex.content import load_game
    from ludex.errors import Collector
    from ludex.folders import discover
    from ludex.locale_status import status
    from ludex.schemas import Validators

    turkish = [d for d in diagnostics(japanese_wagers)
               if d.file.endswith("wagers/locale/tr.yaml")]
    engine = [d for d in turkish if d.code == "locale/missing-engine-messages"]
    assert len(engine) == 1 and (engine[0].line, engine[0].col) == (1, 1)
    assert "players read them in English until" in engine[0].message  # not in `ja`
    engine_keys = ("turn_start", "last_turn", "game_ended", "game_drawn", "game_tied",
                   "card_copy")
    again = [d for d in turkish if d.code == "locale/missing-translation"
             and any(f"`messages.{key}`" in d.message for key in engine_keys)]
    assert again == []
    assert any("`messages.round_won`" in d.message for d in turkish)  # the game's own: warned
    game = load_game(discover(japanese_wagers), Collector(), Validators())
    missing = next(s for s in status(game) if s.lang == "tr").missing
    assert all(missing.count(f"messages.{key}") == 1 for key in engine_keys)


def place_of(path: Path, line_holding: str, word: str) -> tuple[int, int]:
    """(line, col) of `word` on the first line of `path` that holds `line_holding`."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line_holding in line:
            return number, line.index(word, line.index(line_holding)) + 1
    raise AssertionError(f"{path} has no line with {line_holding}")


def test_a_misspelt_card_text_is_a_form_no_message_asks_for_with_text_suggested(
        japanese_wagers):
    """`txet:` in a card's entry was taken as a grammatical form of its name, and the card's
    text was lost without a word from `validate` or `locale status` (a designer's trial)."""
    cards = cards_locale(japanese_wagers, "ja")
    cards.write_text(cards.read_text(encoding="utf-8").replace(
        "green_wager: {name: 緑の賭け, text:", "green_wager: {name: 緑の賭け, txet:"),
        encoding="utf-8")
    found = [d for d in diagnostics(japanese_wagers) if d.code == "locale/unused-form"]
    assert [(d.severity, d.file, d.line, d.col) for d in found] == [
        ("warning", str(cards), *place_of(cards, "green_wager", "txet"))]
    assert "(did you mean `text`?)" in found[0].message


def test_a_form_a_message_asks_for_is_no_unused_form(japanese_wagers):
    rules = rules_locale(japanese_wagers, "ja")
    rules.write_text(rules.read_text(encoding="utf-8").replace(
        "powers: {north: 北, south: 南}",
        "powers: {north: {name: 北, wa: 北は, ni: 北に}, south: 南}"
    ).replace("  played: '{a0}が{a1}を出した。'", "  played: '{a0:wa}{a1}を出した。'"),
        encoding="utf-8")
    found = [d for d in diagnostics(japanese_wagers) if d.code == "locale/unused-form"]
    assert [(d.line, d.col) for d in found] == [place_of(rules, "powers:", "ni:")]


def test_a_card_text_a_translation_gives_and_the_primary_language_lacks_is_missing_there(
        japanese_wagers):
    """The primary language is the source of every translation: a Turkish text for a card
    with no Japanese one is the Japanese's gap, an error where the card's entry is; `locale
    status` counts it missing."""
    from ludex.content import load_game
    from ludex.errors import Collector
    from ludex.folders import discover
    from ludex.locale_status import status
    from ludex.schemas import Validators

    write(cards_locale(japanese_wagers, "tr"), "lang: tr\ncards:\n  blue_wager: "
          "{name: Mavi bahis, text: Değer 3.}\n")
    ja = cards_locale(japanese_wagers, "ja")
    found = [d for d in diagnostics(japanese_wagers) if d.code == "locale/missing-key"]
    assert [(d.severity, d.file, d.line, d.col) for d in found] == [
        ("error", str(ja), *place_of(ja, "blue_wager", "blue_wager"))]
    assert str(ja) in found[0].message  # the file to add it to
    game = load_game(discover(japanese_wagers), Collector(), Validators())
    japanese = next(s for s in status(game) if s.lang == "ja")
    assert [k for k in japanese.missing if not k.startswith("messages.")] == [
        "cards.blue_wager.text"]  # (the engine's messages it lacks are missing too)


def test_a_misspelt_text_a_translation_gives_is_one_error_at_the_misspelling(japanese_wagers):
    """The Turkish text shows the Japanese one was meant: one error at `txet`, not also a
    warning for an unused form there."""
    ja = cards_locale(japanese_wagers, "ja")
    ja.write_text(ja.read_text(encoding="utf-8").replace(
        "white_wager: {name: 白の賭け, text:", "white_wager: {name: 白の賭け, txet:"),
        encoding="utf-8")
    found = [d for d in diagnostics(japanese_wagers) if d.file == str(ja)]
    assert [(d.severity, d.code, d.line, d.col) for d in found] == [
        ("error", "locale/missing-key", *place_of(ja, "white_wager", "txet"))]
    assert "(did you mean `text`?)" in found[0].message


def test_a_non_text_value_of_a_key_beside_a_name_is_an_unknown_key(japanese_wagers):
    """`cost: 3` in a card's locale entry said "`3` is not of type string", as if `cost`
    were a form of the name that needed quotes."""
    ja = cards_locale(japanese_wagers, "ja")
    ja.write_text(ja.read_text(encoding="utf-8").replace(
        "red_wager: {name: 赤の賭け}", "red_wager: {name: 赤の賭け, cost: 3}"), encoding="utf-8")
    found = [d for d in diagnostics(japanese_wagers) if d.severity == "error"]
    assert [(d.code, d.file, d.line, d.col) for d in found] == [
        ("schema/unknown-key", str(ja), *place_of(ja, "red_wager", "cost"))]


def test_a_name_the_primary_language_lacks_names_the_file_to_add_it_to(japanese_wagers):
    """A missing message said `messages.bought in locale/ja.yaml`; a missing card, zone or
    clause name said only `cards.uranai in locale ja` (a designer's trial)."""
    rules, cards = rules_locale(japanese_wagers, "ja"), cards_locale(japanese_wagers, "ja")
    rules.write_text(rules.read_text(encoding="utf-8").replace("table: 場, ", "").replace(
        "  WAG-DRAW: 同数で終われば引き分け。\n", ""), encoding="utf-8")
    cards.write_text(cards.read_text(encoding="utf-8").replace(
        "  red_wager: {name: 赤の賭け}\n", ""), encoding="utf-8")
    found = sorted((d for d in diagnostics(japanese_wagers) if d.code == "locale/missing-key"),
                   key=lambda d: d.file)
    game = japanese_wagers
    assert [(Path(d.file).name, d.line, d.col) for d in found] == [
        ("wagers.yaml", *place_of(game / "cards" / "wagers.yaml", "red_wager", "red_wager")),
        ("clauses.yaml", *place_of(game / "clauses.yaml", "WAG-DRAW", "WAG-DRAW")),
        ("game.yaml", *place_of(game / "game.yaml", "id: table", "table"))]
    assert [str(cards) in found[0].message, str(rules) in found[1].message,
            str(rules) in found[2].message] == [True, True, True]


def test_a_message_key_the_rules_use_is_never_offered_an_engine_message_instead(
        japanese_wagers):
    """The window `turn` without its prompt text was asked "did you mean `last_turn`?": an
    engine line of another kind, which the game may not give as its prompt."""
    rules = rules_locale(japanese_wagers, "ja")
    rules.write_text(rules.read_text(encoding="utf-8").replace("  turn: あなたの番です\n", ""),
                     encoding="utf-8")
    found = [d for d in diagnostics(japanese_wagers) if d.code == "locale/missing-key"]
    procedures = japanese_wagers / "procedures.yaml"
    assert [(d.file, d.line, d.col) for d in found] == [
        (str(procedures), *place_of(procedures, "window: turn", "turn"))]
    assert "did you mean" not in found[0].message


def test_a_card_attribute_of_ids_naming_no_id_is_an_error_not_a_word_to_translate(tiny):
    """`side: zakonn` (a typo of a power) is `content/unknown-name`; a follow-on warning asked
    the designer to translate the typo (`messages.zakonn`, a designer's trial)."""
    manifest = tiny / "game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        "card_attributes:\n", "card_attributes:\n"
        "  side: {type: string, ref: power, description: \"Whose event.\"}\n"), "utf-8")
    cards = next((tiny / "cards").glob("*.yaml"))
    cards.write_text(cards.read_text(encoding="utf-8").replace(
        "{id: red_one, owner: red, value: 1}", "{id: red_one, owner: red, value: 1, side: redd}"),
        "utf-8")
    found = [(d.code, d.severity) for d in diagnostics(tiny)
             if d.code in ("content/unknown-name", "locale/unnamed-attribute")]
    assert found == [("content/unknown-name", "error"), ("locale/unnamed-attribute", "warning")]
    assert "`side`: no name" in next(d.message for d in diagnostics(tiny)
                                     if d.code == "locale/unnamed-attribute")


def test_a_card_attribute_and_its_word_values_without_names_are_warned_at_its_declaration(
        tiny):
    """The terminal shows a card's attributes by the names the locale gives their ids; one the
    primary language names nowhere showed raw (`palo σπαθιά · valor 1`, a designer's trial).
    A flag no card holds shows nothing, and an id named elsewhere (a counter) is named."""
    locale = rules_locale(tiny, "en")
    locale.write_text(locale.read_text(encoding="utf-8").replace("  value: Value\n", ""),
                      encoding="utf-8")
    manifest = tiny / "game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        "card_attributes:\n", "card_attributes:\n"
        "  suit: {enum: [suns, moons, gold], default: suns, description: \"Suit.\"}\n"
        "  cursed: {type: boolean, default: false, description: \"Never set.\"}\n"), "utf-8")
    cards = next((tiny / "cards").glob("*.yaml"))
    cards.write_text(cards.read_text(encoding="utf-8").replace(
        "{id: red_one, owner: red, value: 1}", "{id: red_one, owner: red, value: 1, suit: gold}"),
        "utf-8")
    found = [d for d in diagnostics(tiny) if d.code == "locale/unnamed-attribute"]
    lines = manifest.read_text(encoding="utf-8").splitlines()
    assert [(d.severity, Path(d.file).name, lines[d.line - 1].split(":")[0].strip(), d.col)
            for d in found] == [("warning", "game.yaml", "suit", 3), ("warning", "game.yaml",
                                                                     "value", 3)]
    # red_one's `gold` is a counter's id, so named; no card shows `moons`
    assert "`suit` and its value `suns`" in found[0].message
    assert "`messages.suit`, `messages.suns`" in found[0].message
    assert "card attribute `value`: no name in locale `en`" in found[1].message
