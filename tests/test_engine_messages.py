"""The engine's own messages (interpreter/ludex/messages/<lang>.yaml) are locale files like a
game's: each is schema-valid, parses, has every key the English one has and uses no argument
the English one lacks."""

from __future__ import annotations

import pytest

from ludex import schemas
from ludex.errors import Collector
from ludex.locale_files import ENGINE_DIR, ENGINE_SOURCE, engine_keys, engine_messages
from ludex.templates import arguments, parse, slots
from ludex.yamlio import load_file

FILES = sorted(ENGINE_DIR.glob("*.yaml"))


def test_the_engine_speaks_at_least_english_russian_french_german_spanish_and_greek():
    """A Spanish or Greek game passes `validate --strict` without translating the engine's
    lines first (`locale/missing-engine-messages`)."""
    assert {p.stem for p in FILES} >= {"en", "ru", "fr", "de", "es", "el"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_each_engine_message_file_is_a_valid_locale_file(path):
    errors = Collector()
    doc = load_file(path, errors)
    assert doc is not None and schemas.validate(doc, schemas.Validators().get("locale"), errors)
    assert doc.data["lang"] == path.stem and not errors


@pytest.mark.parametrize("lang", [p.stem for p in FILES])
def test_each_language_has_every_engine_message_with_the_same_arguments(lang):
    messages, source = engine_messages(lang), engine_messages(ENGINE_SOURCE)
    assert sorted(messages) == sorted(engine_keys())
    for key, text in messages.items():
        assert arguments(text) <= arguments(source[key]), key


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_each_engine_message_file_keeps_the_english_order(path):
    """Each language lists the keys as en.yaml does, so a reviewer reads them side by side."""
    errors = Collector()
    doc = load_file(path, errors)
    assert list(doc.data["messages"]) == engine_keys()


@pytest.mark.parametrize("lang", [p.stem for p in FILES])
def test_each_engine_plural_gives_the_cases_its_language_counts_and_no_other(lang):
    """As `validate` asks of a game's plural (`locale/plural-categories`): every category the
    language counts in a game (Spanish `many`, for millions, is not asked), and none it never
    uses (`few` in Greek)."""
    from ludex import plurals
    from ludex.locale_checks import _counted_in_games

    for key, text in engine_messages(lang).items():
        for slot in slots(parse(text)):
            if slot.kind not in ("plural", "selectordinal"):
                continue
            cases = {c for c in slot.cases if not c.startswith("=")}
            known = plurals.categories(lang, slot.kind)
            assert cases <= known, (key, cases - known)
            lacking = {c for c in known - cases if _counted_in_games(lang, slot.kind, c)}
            assert not lacking, (key, lacking)
