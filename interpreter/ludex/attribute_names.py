"""Card attributes and public memory keys a player reads without a name: a warning for each.

`ludex play` shows a card (`? N`, `??`) with the attributes the manifest's `card_attributes`
declare (terminal_cards.py), each named as the locale names an id — an action's label, a
message of that key, a name of something of that id — and a word value (a colour) the same
way; a key the primary language names nowhere is shown as it is (`cost_coins 3`). The names
are not required (a game may show no cards at the terminal), so the primary language's gap is
a warning, at the attribute's declaration, saying where to add the name; a translation lacking
a name the primary gives is told by the translation checks like any other key.

A memory key of `visibility: public` is shown to every player beside the counters, named by the
locale (`Trump: coins`); without a name the player reads the raw key (`trump: coins`), so the
primary language's gap is a warning at the key's declaration, naming the files to add it to.
"""

from __future__ import annotations

from typing import Any

from .content import LoadedGame
from .errors import Collector
from .locale_checks import NAME_SECTIONS
from .locale_files import entries, file_for, missing_sides, primary_language
from .rootcause import broken_languages


def check_attribute_names(game: LoadedGame, cards: dict[str, dict], errors: Collector) -> None:
    """A warning for each declared card attribute, and each word one of its values is, that
    some card shows and the primary language names nowhere."""
    primary = primary_language(game)
    if primary not in game.locales or primary in broken_languages(game) \
            or missing_sides(game, primary):
        return  # its own error comes first
    declared = (game.manifest.get("card_attributes") or {}) if isinstance(
        game.manifest, dict) else {}
    if not isinstance(declared, dict):
        return
    source = entries(game.locales[primary])
    target = file_for(game, primary, "rules")
    doc = game.docs.get("game")
    for attribute in declared:
        shown = [_shown(card.get(attribute)) for card in cards.values()]
        if not any(value is not None for value in shown):
            continue
        unnamed = [attribute] if not _named(source, attribute) else []
        spec = declared[attribute]
        # the values of an attribute that refers to ids (`ref: power`) are named where those
        # ids are; one naming no id is an error of its own, not a word to translate
        refers = isinstance(spec, dict) and spec.get("ref")
        values = [] if refers else sorted(
            {v for v in shown if isinstance(v, str) and not _named(source, v)})
        if not unnamed and not values:
            continue
        what = f"card attribute `{attribute}`" if unnamed else f"card attribute `{attribute}`'s"
        if values:
            what += (" and its" if unnamed else "") + " value" + ("s " if len(values) > 1 else " ")
            what += ", ".join(f"`{v}`" for v in values)
        keys = ", ".join(f"`messages.{key}`" for key in unnamed + values)
        line, col = doc.key_pos(("card_attributes", attribute)) if doc else (1, 1)
        errors.warning(str(game.files.manifest), line, col, "locale/unnamed-attribute",
                       f"{what}: no name in locale `{primary}`, so `ludex play` shows cards "
                       f"with the ids as they are (add {keys} to {target})")


def check_memory_names(game: LoadedGame, errors: Collector) -> None:
    """A warning for each memory key of `visibility: public` that the primary language names
    nowhere (`messages.<key>`), at its declaration, naming every locale file lacking it."""
    primary = primary_language(game)
    if primary not in game.locales or primary in broken_languages(game):
        return  # its own error comes first
    doc = game.docs.get("game")
    manifest = game.manifest if isinstance(game.manifest, dict) else {}
    sources = {lang: entries(docs) for lang, docs in sorted(game.locales.items())}
    for i, entry in enumerate(manifest.get("memory") or []):
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str) \
                or entry.get("visibility") != "public":
            continue
        key = entry["id"]
        if _named(sources[primary], key):
            continue  # a translation's gap is the translation checks' to tell
        lacking = [file_for(game, primary, "rules")] + [
            file_for(game, lang, "rules") for lang, source in sources.items()
            if lang != primary and not _named(source, key)]
        line, col = doc.pos(("memory", i, "id")) if doc else (1, 1)
        errors.warning(str(game.files.manifest), line, col, "locale/unnamed-memory",
                       f"memory `{key}` is shown to every player (`visibility: public`) but has "
                       f"no name in locale `{primary}`, so players read the key as it is (add "
                       f"`messages.{key}` to {', '.join(map(str, lacking))})")


def _shown(value: Any) -> Any:
    """What of an attribute's value a card shows: None for nothing (no value, a flag the card
    lacks), else the value."""
    return None if value is None or value is False else value


def _named(source: dict, key: str) -> bool:
    """Whether the locale names `key` as a player reads an id: a message, an action's label,
    or a name in any section of names."""
    if f"messages.{key}" in source:
        return True
    return any(f"{section}.{key}" in source or f"{section}.{key}.name" in source
               for section in NAME_SECTIONS)
