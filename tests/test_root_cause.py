"""One root error does not drown in its consequences: a file that cannot be read is reported,
and what only follows from it (names and keys it would have defined) is folded into one count
on it; `validate` and `test` report a game's error once, not once per scenario."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ludex.validate import validate_paths

SOR = Path(__file__).resolve().parent.parent / "games" / "sword_of_rome"


@pytest.fixture
def game(tmp_path: Path) -> Path:
    folder = tmp_path / "sword_of_rome"
    shutil.copytree(SOR, folder)
    return folder


def _break_line(path: Path, starts: str, replacement: str) -> int:
    """Replace the line starting with `starts`; its 1-based number."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    number = next(i for i, line in enumerate(lines) if line.startswith(starts))
    lines[number] = replacement
    path.write_text("".join(lines), encoding="utf-8")
    return number + 1


def _found(folder: Path) -> list[tuple[str, str, int, int]]:
    """What validate reports, but the one warning that the scenarios wait for the game."""
    report = validate_paths([folder])
    return [(Path(d.file).name, d.code, d.line, d.col) for d in _without_unchecked(report)]


def _without_unchecked(report) -> list:
    unchecked = [d for d in report.diagnostics if d.code == "scenario/unchecked"]
    assert len(unchecked) == 1 and not unchecked[0].is_error  # said once, for every scenario
    return [d for d in report.diagnostics if d is not unchecked[0]]


def test_a_locale_that_is_not_yaml_is_the_only_error_not_every_key_of_its_language(game):
    line = _break_line(game / "locale" / "en.yaml", "  event_played:",
                       "  event_played: {a0} plays: the event {a1}.\n")
    # before: 35 errors (with the scenarios, 67 times over), the real one among them
    assert _found(game) == [("en.yaml", "yaml/syntax", line, 22)]


def test_a_cards_file_with_a_tab_is_the_only_error_and_counts_what_it_hides(game):
    line = _break_line(game / "cards" / "romans.yaml", "    value: 3", "\tvalue: 3\n")
    report = validate_paths([game])
    found = _without_unchecked(report)
    assert [(Path(d.file).name, d.code, d.line, d.col) for d in found] == [
        ("romans.yaml", "yaml/tab-indent", line, 1)]
    assert "more errors in other files" in found[0].message


def test_an_error_that_cannot_follow_from_the_root_is_kept_beside_it(game):
    tab = _break_line(game / "cards" / "romans.yaml", "    value: 3", "\tvalue: 3\n")
    line = _break_line(game / "procedures.yaml", "  - id: ", "  - id: Not_An_Id\n")
    assert _found(game) == [("romans.yaml", "yaml/tab-indent", tab, 1),
                            ("procedures.yaml", "schema/bad-name", line, 9)]


def test_ludex_test_reports_a_games_content_error_once_not_per_scenario(game):
    _break_line(game / "locale" / "en.yaml", "  event_played:",
                "  event_played: {a0} plays: the event {a1}.\n")
    run = subprocess.run([sys.executable, "-m", "ludex.cli", "test", str(game)],
                         capture_output=True, text=True)
    assert run.returncode == 1
    assert run.stdout.count("error[yaml/syntax]") == 1, run.stdout[:2000]
    as_json = subprocess.run([sys.executable, "-m", "ludex.cli", "test", str(game), "--json"],
                             capture_output=True, text=True)
    data = json.loads(as_json.stdout)
    assert [e["code"] for e in data["errors"]] == ["yaml/syntax"]
    assert data["passed"] == 0 and all(r["status"] == "error" for r in data["results"])


def test_a_scenario_run_alone_still_shows_its_games_errors(game):
    # pytest runs each scenario as its own item: no summary lists the game's errors for it
    from ludex.scenario import run_scenario

    _break_line(game / "locale" / "en.yaml", "  event_played:",
                "  event_played: {a0} plays: the event {a1}.\n")
    result = run_scenario(next((game / "scenarios").glob("*.yaml")))
    assert result.status == "error"
    assert "error[yaml/syntax]" in result.report()
    assert "error[yaml/syntax]" not in result.report(game_errors=False)


def test_a_manifest_failing_its_schema_is_not_followed_by_guesses_about_attributes(game):
    # the engine's tables of markers and attributes come from schema-clean files only: with
    # the manifest refused, the static pass would call every marker unknown
    with (game / "game.yaml").open("a", encoding="utf-8") as manifest:
        manifest.write("unknown_top_key: 1\n")
    lines = (game / "game.yaml").read_text(encoding="utf-8").count("\n")
    assert _found(game) == [("game.yaml", "schema/unknown-key", lines, 1)]


def test_a_rules_file_failing_its_schema_folds_the_unknown_names_it_causes(game):
    # the engine builds nothing from a refused procedures file: every card calling one of its
    # procedures would report it unknown
    with (game / "procedures.yaml").open("a", encoding="utf-8") as procedures:
        procedures.write("unknown_top_key: 1\n")
    lines = (game / "procedures.yaml").read_text(encoding="utf-8").count("\n")
    report = validate_paths([game])
    found = _without_unchecked(report)
    assert [(Path(d.file).name, d.code, d.line) for d in found] == [
        ("procedures.yaml", "schema/unknown-key", lines)]
    assert "more errors in other files" in found[0].message


def test_an_id_defined_twice_comes_first_and_the_names_it_left_behind_follow_from_it(game):
    """A card renamed by a slip into another card's id left its old name's locale keys naming
    nothing, reported first and suggesting the duplicate (a designer's trial): the duplicate
    is the root, and what only follows from it is counted on it."""
    line = _break_line(game / "cards" / "romans.yaml", "  - id: senate_decree",
                       "  - id: roman_levy\n")
    found = validate_paths([game]).diagnostics
    errors = [d for d in found if d.is_error]
    assert [(Path(d.file).name, d.code, d.line) for d in errors] == [
        ("romans.yaml", "content/duplicate-id", line)]
    assert "more errors in other files" in errors[0].message


DRAFT = Path(__file__).resolve().parent / "games" / "draft"


def draft_with_colour_written_out(tmp_path: Path, required: str, after: str = "") -> Path:
    """A copy of the draft game whose `colour` attribute is declared a key a line, its
    `required` line as given, and `after` appended to its last line (the next declaration)."""
    game = tmp_path / "draft"
    shutil.copytree(DRAFT, game)
    manifest = game / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    declared = ('  colour: {enum: [red, blue, gold], required: true, description: "Gold cards '
                'win a bonus (DRF-SCORE)."}' + ("\n  value: {" if after else ""))
    assert declared in text
    manifest.write_text(text.replace(declared, (
        "  colour:\n    enum: [red, blue, gold]\n" + required
        + '    description: "Gold cards win a bonus (DRF-SCORE)."' + after)), encoding="utf-8")
    return game


def test_an_attribute_indented_under_another_is_one_error_at_the_manifest_with_a_hint(
        tmp_path):
    """`value:` indented under `colour:` declares no attribute `value`: every card carrying it
    was an unknown key, 9 errors before the manifest's own, which did not say what was wrong
    (a designer's trial). The cards' errors are counted on the manifest's, which says where
    the key belongs."""
    game = draft_with_colour_written_out(tmp_path, "    required: true\n", "\n    value: {")
    manifest = game / "game.yaml"
    line = next(n for n, text in enumerate(manifest.read_text(encoding="utf-8").splitlines(), 1)
                if text.startswith("    value: {"))
    errors = [d for d in validate_paths([game]).diagnostics if d.is_error]
    assert [(Path(d.file).name, d.code, d.line, d.col) for d in errors] == [
        ("game.yaml", "schema/unknown-key", line, 5)]
    assert "`value` is indented under `colour`" in errors[0].message
    cards = (game / "cards" / "draft.yaml").read_text(encoding="utf-8").count("value:")
    assert f"[{cards} more errors in other files" in errors[0].message


def test_a_misspelt_key_of_a_declaration_is_not_taken_for_an_attribute_indented_too_deep(
        tmp_path):
    # `requird: true` one level out would be an attribute declared as `true`: the hint is
    # for a key the outer mapping takes as it is written
    game = draft_with_colour_written_out(tmp_path, "    requird: true\n")
    errors = [d for d in validate_paths([game]).diagnostics if d.is_error]
    assert [(Path(d.file).name, d.code) for d in errors] == [("game.yaml", "schema/unknown-key")]
    assert "indented under" not in errors[0].message
    assert "did you mean `required`" in errors[0].message


def test_an_id_with_a_lookalike_letter_is_the_one_error_and_counts_the_keys_it_orphaned(game):
    """A Greek omicron in a card's id (`οros_5`) was reported after the locale's errors it
    causes: its missing name at the same place, and each language's `cards.oros_5`, naming no
    card, "did you mean `οros_5`" (a designer's trial)."""
    line = _break_line(game / "cards" / "romans.yaml", "  - id: roman_levy",
                       "  - id: rοman_levy\n")
    errors = [d for d in validate_paths([game]).diagnostics if d.is_error]
    assert [(Path(d.file).name, d.code, d.line, d.col) for d in errors] == [
        ("romans.yaml", "schema/bad-name", line, 10)]  # at the omicron
    assert "[2 more errors in other files may only follow" in errors[0].message


def test_a_misspelt_locale_key_beside_an_id_with_a_lookalike_letter_is_still_reported(game):
    _break_line(game / "cards" / "romans.yaml", "  - id: roman_levy", "  - id: rοman_levy\n")
    en = game / "cards" / "locale" / "en.yaml"
    en.write_text(en.read_text(encoding="utf-8").replace("  roman_levy:", "  roman_lewy:", 1),
                  encoding="utf-8")
    errors = [(Path(d.file).name, d.code, d.line)
              for d in validate_paths([game]).diagnostics if d.is_error]
    # `roman_lewy` differs from `rοman_levy` where a name may have its letter: not meant for
    # it; Russian's `roman_levy` was
    assert errors == [("en.yaml", "locale/unknown-key", 4), ("romans.yaml", "schema/bad-name", 7)]


def test_a_cards_file_with_no_list_of_cards_is_the_root_of_its_cards_names_elsewhere(game):
    """`card:` for `cards:` gave 32 locale errors (each card's name "names no card") before
    the one error that said why (a designer's trial): now that one, first, counting them."""
    cards = game / "cards" / "romans.yaml"
    line = _break_line(cards, "cards:", "card:\n")
    found = _found(game)
    assert found == [("romans.yaml", "schema/unknown-key", line, 1)]  # "did you mean `cards`"
    message = validate_paths([game]).diagnostics[0].message
    assert "did you mean `cards`" in message and "more errors in other files" in message


def test_a_manifest_refused_by_its_schema_comes_before_the_unknown_keys_of_every_card(game):
    """An empty game.yaml declares no card attributes: every card's attributes were unknown
    keys, 32 errors before the manifest's own (a designer's trial)."""
    (game / "game.yaml").write_text("", encoding="utf-8")
    found = _found(game)
    assert found[0][:2] == ("game.yaml", "schema/missing-key")
    assert {name for name, *_ in found} == {"game.yaml"}
