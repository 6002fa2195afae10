"""PO export and import (locale_po.py): a round trip through gettext loses nothing, stale
translations travel as fuzzy, and a catalog filled in by a translator becomes locale files."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from ludex import schemas
from ludex.content import load_game
from ludex.errors import Collector
from ludex.folders import discover
from ludex.locale_files import entries, stamps
from ludex.locale_po import _forms, export_po, import_po
from ludex.resources import games_dir
from ludex.validate import validate_paths

GAMES = Path(__file__).parent / "games"


def load(folder: Path):
    return load_game(discover(folder), Collector(), schemas.Validators())


def translations(folder: Path, lang: str) -> tuple:
    docs = load(folder).locales[lang]
    return ({k: e.text for k, e in entries(docs).items()},
            {k: v[1] for k, v in stamps(docs).items()}, _forms(docs))


@pytest.mark.parametrize("game_id, lang", [("sword_of_rome", "ru"), ("imperium", "fr")])
def test_a_po_round_trip_gives_back_every_translation_form_and_stamp(tmp_path, game_id, lang):
    folder = tmp_path / game_id
    shutil.copytree(games_dir() / game_id, folder, ignore=shutil.ignore_patterns("scenarios"))
    before = translations(folder, lang)
    po = export_po(load(folder), lang)
    for path in folder.rglob(f"locale/{lang}.yaml"):
        path.unlink()
    import_po(load(folder), lang, po)
    assert translations(folder, lang) == before
    assert [d.headline() for d in validate_paths([folder]).diagnostics] == []


def test_a_stale_translation_is_exported_fuzzy(tmp_path):
    folder = tmp_path / "imperium"
    shutil.copytree(games_dir() / "imperium", folder, ignore=shutil.ignore_patterns("scenarios"))
    en = folder / "locale" / "en.yaml"
    en.write_text(en.read_text().replace("skip: Skip", "skip: Skip this step"))
    catalog = read_po(io.BytesIO(export_po(load(folder), "fr")))
    fuzzy = [m.context for m in catalog if m.fuzzy and m.id]
    assert fuzzy == ["messages.skip"]


def test_a_catalog_a_translator_filled_in_becomes_locale_files(tmp_path):
    folder = tmp_path / "tiny"
    shutil.copytree(GAMES / "tiny", folder)
    catalog = read_po(io.BytesIO(export_po(load(folder), "it")))
    for message in catalog:
        if message.id and message.context:
            message.string = f"[it] {message.id}"
    out = io.BytesIO()
    write_po(out, catalog)
    written, skipped = import_po(load(folder), "it", out.getvalue())
    assert skipped == []
    assert sorted(p.relative_to(folder).as_posix() for p in written) == [
        "cards/locale/it.yaml", "locale/it.yaml"]
    # the English plurals copied as they are lack Italian's `many`, which only millions fall
    # in (no game counts to): nothing to warn of
    assert [d.headline() for d in validate_paths([folder]).diagnostics] == []
    game = load(folder)
    assert entries(game.locales["it"])["powers.red"].text == "[it] Red"


def _catalog_text(entries: list[tuple[str, str, str]]) -> bytes:
    """A PO catalog of (context, msgid, msgstr) entries, as a translator's tool writes one."""
    out = io.BytesIO()
    catalog = Catalog(locale="fr")
    for context, original, text in entries:
        catalog.add(original, text, context=context)
    write_po(out, catalog)
    return out.getvalue()


def test_a_partial_catalog_changes_its_entries_and_keeps_every_other_translation(tmp_path):
    folder = tmp_path / "imperium"
    shutil.copytree(games_dir() / "imperium", folder, ignore=shutil.ignore_patterns("scenarios"))
    texts, stamped, forms = translations(folder, "fr")
    key = next(k for k in texts if k.startswith("messages."))
    _, skipped = import_po(load(folder), "fr", _catalog_text(
        [(key, "x", "Nouveau texte"), ("lang", "en", "fr"), ("no.such_key", "a", "b")]))
    texts_after, stamped_after, forms_after = translations(folder, "fr")
    assert texts_after[key] == "Nouveau texte"
    assert {k: v for k, v in texts_after.items() if k != key} == \
        {k: v for k, v in texts.items() if k != key}
    assert {k: v for k, v in stamped_after.items() if k != key} == \
        {k: v for k, v in stamped.items() if k != key}
    assert forms_after == forms
    assert skipped == ["lang", "no.such_key"]  # not texts of the game: left out, not a crash


def test_a_form_of_a_text_that_takes_none_is_skipped_not_written_into_another_text(tmp_path):
    """A form belongs to a name: `cards.x.text:acc` was written as a form of the card's *name*,
    `cards.x.name:text` over its text, and `messages.m:acc` as a mapping where the message's
    text belongs (the next validate refused the file)."""
    folder = tmp_path / "tiny"
    shutil.copytree(GAMES / "tiny", folder)
    _, skipped = import_po(load(folder), "fr", _catalog_text(
        [("messages.main:acc", "Your move", "À vous"),
         ("cards.red_one.text:acc", "x", "Un rouge"),
         ("cards.red_one.name:text", "x", "{a0"),
         ("cards.red_one.name", "Red one", "Un rouge"),
         ("cards.red_one.name:acc", "Red one", "Le un rouge"),
         ("powers.red", "Red", "Rouge"),
         ("powers.red:acc", "Red", "Rouge")]))
    assert skipped == ["messages.main:acc", "cards.red_one.text:acc", "cards.red_one.name:text"]
    # a partial French: warnings of what it lacks, no error
    assert [d.headline() for d in validate_paths([folder]).diagnostics if d.is_error] == []
    forms = _forms(load(folder).locales["fr"])
    assert forms == {"cards.red_one.name": {"acc": "Le un rouge"}, "powers.red": {"acc": "Rouge"}}


@pytest.mark.parametrize("po, why", [
    (b"\xff\xfe\n", "not a readable PO catalog"),
    (b'hello world\n"unterminated\nmsgid\n', "not a readable PO catalog"),
    (b"", "no entry has a key"),
    (b'msgctxt "messages.skip"\nmsgid "a"\nmsgid_plural "as"\nmsgstr[0] "b"\n'
     b'msgstr[1] "bs"\n', "has plural forms"),
    # a string whose closing quote is lost, or that has none, was imported a letter short
    (b'msgctxt "messages.skip"\nmsgid "Skip"\nmsgstr "Passer\n', "line 3: `msgstr \"Passer`"),
    (b'msgctxt "messages.skip"\nmsgid "Skip"\nmsgstr Passer\n', "line 3: `msgstr Passer`"),
    (b'msgctxt "messages.skip"\nmsgid "Skip"\nmsgstr ""\n"Pas"ser"\n', "line 4"),
])
def test_a_catalog_that_cannot_be_imported_is_a_usage_error_that_writes_nothing(tmp_path, po,
                                                                                why):
    folder = tmp_path / "imperium"
    shutil.copytree(games_dir() / "imperium", folder, ignore=shutil.ignore_patterns("scenarios"))
    before = translations(folder, "fr")
    (tmp_path / "bad.po").write_bytes(po)
    result = subprocess.run([sys.executable, "-m", "ludex.cli", "locale", "import", str(folder),
                             "fr", str(tmp_path / "bad.po")], capture_output=True, text=True)
    assert result.returncode == 2 and why in result.stderr
    assert translations(folder, "fr") == before


def test_a_catalog_whose_messages_do_not_parse_is_refused_at_their_lines_and_writes_nothing(
        tmp_path):
    """A translator's `{a0 descarta?` was imported, and the next `validate` stopped at it,
    with every scenario of the game unchecked (a designer's trial): each broken message is
    an error at its place in the catalog, exit 1, and nothing is written."""
    folder = tmp_path / "imperium"
    shutil.copytree(games_dir() / "imperium", folder, ignore=shutil.ignore_patterns("scenarios"))
    before = translations(folder, "fr")
    catalog = read_po(io.BytesIO(export_po(load(folder), "fr")))
    broken = [m for m in catalog if m.context and m.context.startswith("messages.")][:2]
    for message in broken:
        message.string = "Tour {turn"
    out = io.BytesIO()
    write_po(out, catalog, width=0)
    (tmp_path / "fr.po").write_bytes(out.getvalue())
    result = subprocess.run([sys.executable, "-m", "ludex.cli", "locale", "import", str(folder),
                             "fr", str(tmp_path / "fr.po")], capture_output=True, text=True)
    assert result.returncode == 1 and "nothing was imported" in result.stderr
    lines = out.getvalue().decode().splitlines()
    found = [line.split(": error[")[0] for line in result.stdout.splitlines()
             if "error[locale/bad-message]" in line]
    assert len(found) == 2
    for place in found:
        line, col = map(int, place.rsplit(":", 2)[1:])
        assert lines[line - 1] == 'msgstr "Tour {turn"' and col == len('msgstr "Tour ') + 1
    assert translations(folder, "fr") == before


def test_a_catalog_in_a_charset_python_does_not_know_is_a_usage_error(tmp_path):
    folder = tmp_path / "imperium"
    shutil.copytree(games_dir() / "imperium", folder, ignore=shutil.ignore_patterns("scenarios"))
    po = (b'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=bogus-charset\\n"\n\n'
          b'msgctxt "messages.skip"\nmsgid "Skip"\nmsgstr "Passer"\n')
    (tmp_path / "bad.po").write_bytes(po)
    result = subprocess.run([sys.executable, "-m", "ludex.cli", "locale", "import", str(folder),
                             "fr", str(tmp_path / "bad.po")], capture_output=True, text=True)
    assert result.returncode == 2 and "not a readable PO catalog" in result.stderr


def test_a_catalog_imported_into_the_primary_language_writes_no_stamps(tmp_path):
    """Importing the primary language's own catalog wrote `translated_from` stamps into it,
    which `locale stamp` refuses to write there (found by a designer's trial)."""
    folder = tmp_path / "imperium"
    shutil.copytree(games_dir() / "imperium", folder, ignore=shutil.ignore_patterns("scenarios"))
    written, _ = import_po(load(folder), "en", export_po(load(folder), "en"))
    assert written and all("translated_from" not in path.read_text(encoding="utf-8")
                           for path in written)
    assert [d.headline() for d in validate_paths([folder]).diagnostics] == []


@pytest.mark.parametrize("command", [["export", "{game}", "{lang}"],
                                     ["import", "{game}", "{lang}", "{po}"],
                                     ["stamp", "{game}", "{lang}"]])
@pytest.mark.parametrize("lang", ["../x", "a/b", "", "..", "EN", "zz-QQ-fake"])
def test_a_language_that_is_not_a_bcp_47_tag_is_a_usage_error_that_writes_nothing(
        tmp_path, command, lang):
    # `../x` and `a/b` crashed in Path.with_name; `` wrote locale/.yaml, `..` locale/...yaml
    from click.testing import CliRunner

    from ludex.cli import cli

    folder = tmp_path / "tiny"
    shutil.copytree(GAMES / "tiny", folder)
    po = tmp_path / "en.po"
    po.write_bytes(export_po(load(folder), "en").replace(b"Language: en", b"Language: "))
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    args = [arg.format(game=folder, lang=lang, po=po) for arg in command]
    result = CliRunner().invoke(cli, ["locale", *args])
    assert result.exit_code == 2 and "BCP 47" in result.output, result.output
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


@pytest.mark.parametrize("lang", ["en-x-pirate", "x-klingon"])
def test_a_catalog_is_imported_under_a_private_use_tag(tmp_path, lang):
    folder = tmp_path / "tiny"
    shutil.copytree(GAMES / "tiny", folder)
    po = export_po(load(folder), "en").replace(b"Language: en", f"Language: {lang}".encode())
    written, _ = import_po(load(folder), lang, po)
    assert sorted(p.name for p in written) == [f"{lang}.yaml"] * 2
    assert [d.code for d in validate_paths([folder]).diagnostics if d.severity == "error"] == []


def test_a_catalog_whose_header_names_another_language_is_a_usage_error_naming_both(tmp_path):
    folder = tmp_path / "tiny"
    shutil.copytree(GAMES / "tiny", folder)
    po = tmp_path / "en.po"
    po.write_bytes(export_po(load(folder), "en"))
    result = subprocess.run([sys.executable, "-m", "ludex.cli", "locale", "import", str(folder),
                             "fr", str(po)], capture_output=True, text=True)
    assert result.returncode == 2 and "`Language: en`" in result.stderr \
        and "`fr`" in result.stderr
    assert not (folder / "locale" / "fr.yaml").exists()
    # with no Language header, the command line's language is the catalog's
    po.write_bytes(po.read_bytes().replace(b'"Language: en\\n"\n', b""))
    written, _ = import_po(load(folder), "fr", po.read_bytes())
    assert folder / "locale" / "fr.yaml" in written


def test_imported_locale_files_link_an_editor_schema_only_where_the_game_has_one(tmp_path):
    """`locale import` began every file with `# yaml-language-server: $schema=../schemas/…`
    in a game with no `schemas/` folder: a link to nothing, which an editor reports (found
    by a designer's trial). Without the schema it writes no link and says how to make one;
    once they are exported, the link names the game's schema."""
    import re

    folder = tmp_path / "tiny"
    shutil.copytree(GAMES / "tiny", folder, ignore=shutil.ignore_patterns("schemas"))
    po = tmp_path / "de.po"
    po.write_bytes(export_po(load(folder), "en").replace(b"Language: en", b"Language: de"))

    def command(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "ludex.cli", *args], capture_output=True,
                              text=True)

    result = command("locale", "import", str(folder), "de", str(po))
    written = [Path(line) for line in result.stdout.splitlines()]
    assert result.returncode == 0 and len(written) == 2
    assert not any("yaml-language-server" in path.read_text(encoding="utf-8")
                   for path in written)
    assert f"ludex schema {folder} --export" in result.stderr
    assert command("schema", str(folder), "--export").returncode == 0
    result = command("locale", "import", str(folder), "de", str(po))
    for path in written:
        linked = re.match(r"# yaml-language-server: \$schema=(\S+)\n",
                          path.read_text(encoding="utf-8"))
        assert linked and (path.parent / linked.group(1)).resolve() == \
            (folder / "schemas" / "locale.schema.json").resolve()
    assert "note:" not in result.stderr


def _changed_lines(before: str, after: str) -> tuple[list[str], list[str]]:
    """The lines an edit removed and the lines it added."""
    import difflib

    diff = list(difflib.unified_diff(before.splitlines(), after.splitlines(), n=0,
                                     lineterm=""))
    return ([line[1:] for line in diff if line.startswith("-") and not line.startswith("---")],
            [line[1:] for line in diff if line.startswith("+") and not line.startswith("+++")])


def _retranslated(po: bytes, changes: dict[str, str]) -> bytes:
    catalog = read_po(io.BytesIO(po))
    for message in catalog:
        if message.context in changes:
            message.string = changes[message.context]
    out = io.BytesIO()
    write_po(out, catalog, width=100)
    return out.getvalue()


@pytest.mark.parametrize("game_id, lang", [("sword_of_rome", "ru"), ("imperium", "fr")])
def test_importing_an_unchanged_catalog_leaves_the_locale_files_byte_for_byte(tmp_path, game_id,
                                                                           lang):
    """The files were dumped whole: flow mappings became blocks, messages were re-wrapped and
    comments lost, a 23-line diff for the same content (a designer's trial)."""
    folder = tmp_path / game_id
    shutil.copytree(games_dir() / game_id, folder, ignore=shutil.ignore_patterns("scenarios"))
    files = sorted(folder.rglob(f"locale/{lang}.yaml"))
    before = [path.read_bytes() for path in files]
    written, _ = import_po(load(folder), lang, export_po(load(folder), lang))
    assert sorted(written) == files
    assert [path.read_bytes() for path in files] == before


def test_a_changed_entry_changes_only_its_own_lines_and_keeps_flow_mappings_and_comments(
        tmp_path):
    folder = tmp_path / "sword_of_rome"
    shutil.copytree(games_dir() / "sword_of_rome", folder,
                    ignore=shutil.ignore_patterns("scenarios"))
    path = folder / "locale" / "ru.yaml"
    before = path.read_text(encoding="utf-8")
    po = export_po(load(folder), "ru")
    import_po(load(folder), "ru", _retranslated(po, {"messages.action": "Ваш ход"}))
    assert _changed_lines(before, path.read_text(encoding="utf-8")) == \
        (["  action: Ваше действие"], ["  action: Ваш ход"])
    # a form of a name written in a flow mapping: changed inside it, the mapping kept
    import_po(load(folder), "ru", _retranslated(po, {"pieces.camillus:acc": "Камилла Марка"}))
    assert _changed_lines(before, path.read_text(encoding="utf-8")) == \
        (["  camillus: {name: Камилл, acc: Камилла}"],
         ["  camillus: {name: Камилл, acc: Камилла Марка}"])
    assert any(line.lstrip().startswith("#") for line in before.splitlines()[1:])  # kept


def test_a_names_form_is_exported_with_a_note_of_which_form_it_is_and_which_messages_ask_for_it(
        tmp_path):
    """Its msgid is the plain name: without a note a translator had to guess that
    `powers.alba:def` wants the name with its article (a designer's trial)."""
    catalog = read_po(io.BytesIO(export_po(load(games_dir() / "sword_of_rome"), "ru")))
    [form] = [m for m in catalog if m.context == "pieces.camillus:acc"]
    note = " ".join(form.auto_comments)
    assert "`acc` form of the name pieces.camillus" in note
    assert "leader_activated" in note and "{…:acc}" in note
    [name] = [m for m in catalog if m.context == "pieces.camillus"]
    assert not any("form" in comment for comment in name.auto_comments)


def test_an_exported_catalog_marks_no_python_format_and_says_which_entries_are_optional():
    """Every entry carried `#, python-brace-format`, wrong for ICU templates (a PO editor
    checks them by Python's rules), and nothing told the 134 texts of the designer's tools,
    which `--strict` does not ask for, from the 86 players read (a designer's trial)."""
    game = load(Path(__file__).parent / "games" / "tiny")
    exported = export_po(game, "pt")
    assert b"{phase}" in exported and b"python-brace-format" not in exported
    messages = [m for m in read_po(io.BytesIO(exported)) if m.id]  # (reading marks it again)
    optional = {m.context for m in messages if any("optional" in c for c in m.auto_comments)}
    assert optional and all(c.removeprefix("messages.").startswith(("simulated", "report_",
                                                                    "dumped_"))
                            for c in optional)
    assert "messages.cannot_pay" not in optional and "messages.simulated" in optional
