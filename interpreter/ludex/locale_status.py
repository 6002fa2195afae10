"""`ludex locale status` and `ludex locale stamp`: how far each language of a game has got, and
recording which source texts a translation was checked against.

A key is *translated* when the language has text for it, *missing* when it has none (play shows
the primary language's), and *stale* when the primary text changed after the translation was
stamped: the `translated_from` section of a locale file keeps a hash of each source text.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

from .content import LoadedGame
from .locale_checks import CLDR_MESSAGES, LOCALE_SECTIONS, asked_of_translations
from .locale_engine_lines import changed, copies, is_copy, unrecorded
from .locale_files import (
    STAMP_SECTION,
    engine_filled,
    engine_keys,
    engine_messages,
    entries,
    languages,
    primary_language,
    source_hash,
    stamps,
)
from .locale_rewrite import replace_section


@dataclass
class LanguageStatus:
    lang: str
    primary: bool
    keys: int = 0
    translated: int = 0
    missing: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)
    # the game's texts of the engine's lines (locale_engine_lines.py): copies word for word,
    # rewordings whose engine line changed since their record, rewordings with no record
    engine_copies: list[str] = field(default_factory=list)
    engine_changed: list[str] = field(default_factory=list)
    unrecorded: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return not self.missing and not self.stale

    def as_dict(self) -> dict:
        return {**asdict(self), "missing": len(self.missing), "stale": len(self.stale),
                "missing_keys": self.missing, "stale_keys": self.stale,
                "engine_copies": self.engine_copies, "engine_changed": self.engine_changed,
                "unrecorded": self.unrecorded,
                "complete": self.complete}


def required_keys(game: LoadedGame) -> list[str]:
    """Every key a complete translation has: a name for each entity (and each card), the
    primary language's texts and messages, and the engine's messages players meet."""
    primary = primary_language(game)
    keys = dict.fromkeys(["game.name"])
    for section, namespace in LOCALE_SECTIONS.items():
        suffix = ".name" if section == "cards" else ""
        keys.update(dict.fromkeys(f"{section}.{ident}{suffix}"
                                  for ident in game.names.get(namespace, {})))
    keys.update(dict.fromkeys(k for k in entries(game.locales.get(primary, []))
                              if k.removeprefix("messages.") not in CLDR_MESSAGES))
    # a card's text that some language gives: the primary language lacking it lacks a key
    # (its `txet` was taken for a form of the name: locale_names.py)
    cards = game.names.get("card", {})
    for lang in languages(game)[1:]:
        keys.update(dict.fromkeys(
            k for k in entries(game.locales.get(lang, []))
            if k.startswith("cards.") and k.endswith(".text")
            and k.removeprefix("cards.").removesuffix(".text") in cards))
    # the designer's tools' own texts are not asked of a translation (`validate` agrees)
    # (nor those CLDR answers for a language without them: the list separator)
    keys.update(dict.fromkeys(f"messages.{k}" for k in engine_keys()
                              if asked_of_translations(k)))
    return list(keys)


def status(game: LoadedGame) -> list[LanguageStatus]:
    primary = primary_language(game)
    source = entries(game.locales.get(primary, []))
    result = []
    for lang in languages(game):
        docs = game.locales.get(lang, [])
        found = entries(docs)
        engine = engine_messages(lang)
        filled = engine_filled(primary, lang)
        recorded = stamps(docs)
        report = LanguageStatus(lang, lang == primary)
        for key in required_keys(game):
            report.keys += 1
            section, _, name = key.partition(".")
            # an engine message counts when the engine has it in `lang`, unless the game words
            # it its own way in its primary language (then `lang` should too: validate agrees)
            by_engine = section == "messages" and name in engine and (
                key not in source or key in filled
                or is_copy(primary, key, source[key].text))
            if key not in found and not by_engine:
                report.missing.append(key)
            elif (key in recorded and key in source
                  and recorded[key][1] != source_hash(source[key].text)):
                report.stale.append(key)
            else:
                report.translated += 1
        report.engine_copies = sorted(copies(game, lang))
        report.engine_changed = sorted(f"messages.{entry.path[-1]}"
                                       for entry, _then, _now in changed(game, lang))
        report.unrecorded = unrecorded(game, lang)
        result.append(report)
    return result


def stamp(game: LoadedGame, lang: str) -> list[Path]:
    """Record, in each `lang` file, the hash of the primary text each of its keys translates;
    run it after checking a translation. Returns the files written."""
    primary = primary_language(game)
    if lang == primary:
        return []
    source = entries(game.locales.get(primary, []))
    written = []
    for doc in game.locales.get(lang, []):
        hashes = {key: source_hash(source[key].text)
                  for key, entry in entries([doc]).items() if key in source}
        block = "" if not hashes else (
            f"{STAMP_SECTION}:  # source text hashes: `ludex locale stamp` writes them\n"
            + "".join(f"  {key}: '{digest}'\n" for key, digest in sorted(hashes.items())))
        # in its place: the `reworded_from` section after it stays where it is
        text = replace_section(doc.text, STAMP_SECTION, block)
        Path(doc.path).write_text(text, encoding="utf-8")
        written.append(Path(doc.path))
    return written
