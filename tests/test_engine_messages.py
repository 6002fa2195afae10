"""The engine's own messages (interpreter/ludex/messages/<lang>.yaml) are locale files like a
game's: each is schema-valid, parses, has every key the English one has and uses no argument
the English one lacks."""

from __future__ import annotations

import pytest

from ludex import schemas
from ludex.errors import Collector
from ludex.locale_files import ENGINE_DIR, ENGINE_SOURCE, engine_keys, engine_messages
from ludex.templates import arguments
from ludex.yamlio import load_file

FILES = sorted(ENGINE_DIR.glob("*.yaml"))


def test_the_engine_speaks_at_least_english_russian_french_and_german():
    assert {p.stem for p in FILES} >= {"en", "ru", "fr", "de"}


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
