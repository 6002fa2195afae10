"""`ludex locale status` and `stamp` (locale_status.py): counts of translated, missing and
stale keys per language; a stamped translation whose source text changed is stale, in the
status and as a validation warning."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ludex.cli import cli

GAMES = Path(__file__).parent / "games"


@pytest.fixture()
def tiny(tmp_path: Path) -> Path:
    shutil.copytree(GAMES / "tiny", tmp_path / "tiny")
    (tmp_path / "tiny" / "locale" / "de.yaml").write_text(
        "lang: de\ngame: {name: Winzig}\npowers: {red: Rot, blue: Blau}\n"
        "messages:\n  main: Dein Zug\n", encoding="utf-8")
    return tmp_path / "tiny"


def status(folder: Path) -> dict:
    result = CliRunner().invoke(cli, ["locale", "status", str(folder), "--json"])
    assert result.exit_code == 0, result.output
    return {s["lang"]: s for s in json.loads(result.output)["games"][0]["languages"]}


def test_status_counts_translated_and_missing_keys_per_language(tiny):
    found = status(tiny)
    assert list(found) == ["en", "de"]
    assert found["en"]["complete"] and found["en"]["missing"] == 0
    de = found["de"]
    assert de["keys"] == found["en"]["keys"] == de["translated"] + de["missing"]
    assert "powers.red" not in de["missing_keys"] and "spaces.a" in de["missing_keys"]
    assert "cards.red_one.name" in de["missing_keys"]
    assert "messages.turn_start" not in de["missing_keys"]  # the engine has German


def test_a_stamped_translation_goes_stale_when_its_source_text_changes(tiny):
    runner = CliRunner()
    stamped = runner.invoke(cli, ["locale", "stamp", str(tiny), "de"])
    assert stamped.exit_code == 0, stamped.output
    de = tiny / "locale" / "de.yaml"
    assert "translated_from:" in de.read_text()
    assert status(tiny)["de"]["stale"] == 0
    en = tiny / "locale" / "en.yaml"
    en.write_text(en.read_text().replace("main: Your move", "main: Your turn"))
    assert status(tiny)["de"]["stale_keys"] == ["messages.main"]
    check = runner.invoke(cli, ["validate", str(tiny)])
    assert "warning[locale/stale-translation]" in check.output and check.exit_code == 0


def test_stamping_twice_keeps_one_section(tiny):
    runner = CliRunner()
    runner.invoke(cli, ["locale", "stamp", str(tiny), "de"])
    runner.invoke(cli, ["locale", "stamp", str(tiny), "de"])
    assert (tiny / "locale" / "de.yaml").read_text().count("translated_from:") == 1


def test_stamp_refuses_a_language_the_game_lacks(tiny):
    result = CliRunner().invoke(cli, ["locale", "stamp", str(tiny), "fr"])
    assert result.exit_code == 2 and "has no `fr` locale (it has: en, de)" in result.output


@pytest.mark.parametrize("command", [["status", "{game}"], ["stamp", "{game}", "de"],
                                     ["export", "{game}", "de"],
                                     ["import", "{game}", "de", "{po}"]])
def test_a_locale_file_that_does_not_read_is_reported_not_taken_for_absent(tiny, command):
    """A German file with a YAML slip counted as no German at all: every key "missing",
    stamped and exported without it, exit 0 (found by a reliability audit)."""
    german = tiny / "locale" / "de.yaml"
    german.write_text(german.read_text(encoding="utf-8") + "oops: [\n", encoding="utf-8")
    before = german.read_bytes()
    po = tiny / "de.po"
    po.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                  'msgctxt "messages.main"\nmsgid "Your move"\nmsgstr "Du bist dran"\n',
                  encoding="utf-8")
    args = [a.format(game=tiny, po=po) for a in command]
    result = subprocess.run([sys.executable, "-m", "ludex.cli", "locale", *args],
                            capture_output=True, text=True)
    assert result.returncode == 1, result.stderr
    assert "de.yaml:7:1: error[yaml/syntax]" in result.stderr
    assert german.read_bytes() == before


def test_a_locale_file_that_reads_but_breaks_its_schema_is_still_counted(tiny):
    """Only a file that does not read is refused; one with a wrong value is counted as it
    stands (its schema error is `validate`'s to report)."""
    german = tiny / "locale" / "de.yaml"
    german.write_text(german.read_text(encoding="utf-8") + "flags: {storm: 5}\n",
                      encoding="utf-8")
    assert status(tiny)["de"]["translated"] > 0
