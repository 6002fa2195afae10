"""PO export and import (locale_po.py): a round trip through gettext loses nothing, stale
translations travel as fuzzy, and a catalog filled in by a translator becomes locale files."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
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
    written = import_po(load(folder), "it", out.getvalue())
    assert sorted(p.relative_to(folder).as_posix() for p in written) == [
        "cards/locale/it.yaml", "locale/it.yaml"]
    # the English plurals copied as they are lack Italian's `many` (as a translator would
    # not): that warning, and nothing else
    found = validate_paths([folder]).diagnostics
    assert [d.headline() for d in found if d.code != "locale/plural-categories"] == []
    assert all("`it` also distinguishes many" in d.message for d in found)
    game = load(folder)
    assert entries(game.locales["it"])["powers.red"].text == "[it] Red"
