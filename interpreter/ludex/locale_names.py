"""Checks of the keys inside a locale's names. A name may be a mapping of its `name` (and, for
a card, its `text`) and any grammatical forms a language needs, so any other key is taken as a
form: a misspelt `txet` was a form of the card's name, and the card's text was lost without a
word (a designer's trial). So a form that no message of the game asks for is named, with the
key it may have meant, and a card text a translation gives but the primary language lacks is
the primary language's gap.
"""

from __future__ import annotations

import difflib

from .content import LoadedGame
from .errors import Collector, did_you_mean
from .locale_checks import NAME_SECTIONS, defined_forms
from .locale_files import (
    engine_messages,
    file_for,
    language_entries,
    languages,
    primary_language,
)
from .rootcause import broken_languages
from .templates import CATEGORIES, TemplateError, capital_form, parse, slots

TEXT = "text"  # a card's text, beside its name


def check_name_keys(game: LoadedGame, errors: Collector) -> None:
    """A card text that a translation gives and the primary language lacks (an error, at the
    key the primary language may have misspelt it as); every other key of a name that is no
    form any message asks for (a warning, with the keys it may have meant)."""
    broken = broken_languages(game)
    folded = _check_primary_card_texts(game, broken, errors)
    asked = asked_forms(game)
    for lang, docs in sorted(game.locales.items()):
        if lang in broken:  # its schema error first
            continue
        # a form asked for that no name gives: locale/unknown-form at the message says it
        unanswered = asked_in(docs) - game.per_files("forms", docs, defined_forms)
        for doc in docs:
            data = doc.data if isinstance(doc.data, dict) else {}
            for section, items in data.items():
                if section not in NAME_SECTIONS or not isinstance(items, dict):
                    continue
                own = ("name", TEXT) if section == "cards" else ("name",)
                for ident, entry in items.items():
                    for form, value in entry.items() if isinstance(entry, dict) else ():
                        if (form in own or form in CATEGORIES or form in asked
                                or not isinstance(value, str)
                                or (str(doc.path), section, ident, form) in folded
                                or did_you_mean(form, unanswered)):
                            continue
                        line, col = doc.key_pos((section, ident, form))
                        errors.warning(str(doc.path), line, col, "locale/unused-form",
                                       f"`{section}.{ident}` gives a `{form}` form of its name, "
                                       f"but no message asks for one (`{{a0:{form}}}`), so it is "
                                       "never shown" + did_you_mean(form, [*own, *asked]))


def _check_primary_card_texts(game: LoadedGame, broken: set[str], errors: Collector
                              ) -> set[tuple]:
    """A card whose text some translation gives has one in the primary language, the source
    of every translation. Returns the keys reported here as a text's misspelling (file,
    section, card, key), which are not reported again as unused forms."""
    primary = primary_language(game)
    if primary in broken or primary not in game.locales:
        return set()
    source = language_entries(game, primary)
    folded: set[tuple] = set()
    reported: set[str] = set()
    for lang in languages(game)[1:]:
        if lang in broken:
            continue
        for key in language_entries(game, lang):
            section, _, rest = key.partition(".")
            ident, _, part = rest.rpartition(".")
            if (section != "cards" or part != TEXT or key in source or key in reported
                    or f"cards.{ident}.name" not in source):
                continue  # (a card with no name at all: its locale/missing-key says so)
            reported.add(key)
            doc = source[f"cards.{ident}.name"].doc
            entry = doc.data["cards"][ident]
            misspelt = [form for form in entry if form not in ("name", TEXT)
                        and isinstance(entry[form], str)
                        and difflib.get_close_matches(form, [TEXT], cutoff=0.6)]
            why = (f"card `{ident}` has no text in `{primary}`, the primary language, though "
                   f"`{lang}` gives one")
            if misspelt:
                folded.add((str(doc.path), "cards", ident, misspelt[0]))
                line, col = doc.key_pos(("cards", ident, misspelt[0]))
                errors.error(str(doc.path), line, col, "locale/missing-key",
                             f"{why}: `{misspelt[0]}` is taken as a form of its name "
                             f"(did you mean `{TEXT}`?)")
            else:
                line, col = doc.key_pos(("cards", ident))
                errors.error(str(doc.path), line, col, "locale/missing-key",
                             f"{why} (cards.{ident}.text in "
                             f"{file_for(game, primary, 'cards')})")
    return folded


def asked_forms(game: LoadedGame) -> set[str]:
    """Every form a message of the game may ask a name for (`{a0:acc}`, a `select` on a
    form): its own messages in every language, and the engine's in those languages and in
    English (French asks the winner's `def`)."""
    asked = set()
    for docs in game.locales.values():
        asked |= asked_in(docs)
    for lang in {*game.locales, "en"}:
        asked |= _forms_of(engine_messages(lang).values())
    return asked


def asked_in(docs) -> set[str]:
    """The forms the messages of one language's files ask for."""
    texts = []
    for doc in docs:
        messages = doc.data.get("messages") if isinstance(doc.data, dict) else None
        if isinstance(messages, dict):
            texts += [text for text in messages.values() if isinstance(text, str)]
    return _forms_of(texts)


def _forms_of(texts) -> set[str]:
    forms = set()
    for text in texts:
        try:
            for slot in slots(parse(text)):  # `{a0:Def}` asks for `def`
                forms.update(f for f in (slot.form, capital_form(slot.form)[0]) if f)
        except TemplateError:
            continue  # reported by check_locale_files
    return forms
