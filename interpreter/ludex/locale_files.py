"""What a game's locale files hold, flattened to translation keys, for the checks and for
`ludex locale status`: each key (`powers.red`, `cards.red_one.text`, `messages.turn_start`,
`game.name`) with its text and where it is written; the engine's bundled messages; the primary
language; and the hash that records which source text a translation was made from.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .content import LoadedGame
from .errors import Collector
from .resources import display_path
from .yamlio import Document, load_file

ENGINE_DIR = Path(__file__).with_name("messages")
ENGINE_SOURCE = "en"  # the language the engine's messages are written in
DEFAULT_PRIMARY = "en"
STAMP_SECTION = "translated_from"
# the engine's lines a game's rewordings of them were made from (locale_engine_lines.py)
BASIS_SECTION = "reworded_from"
# sections a tool writes to record what a text was made from: no texts to show or translate
RECORD_SECTIONS = (STAMP_SECTION, BASIS_SECTION)


@dataclass(frozen=True)
class Entry:
    """One translatable text: its document, its path in it, and the text."""

    doc: Document
    path: tuple
    text: str

    def where(self, key_position: bool = True) -> tuple[str, int, int]:
        line, col = self.doc.key_pos(self.path) if key_position else self.doc.pos(self.path)
        return str(self.doc.path), line, col


def primary_language(game: LoadedGame) -> str:
    language = game.manifest.get("language")
    return language if isinstance(language, str) else DEFAULT_PRIMARY


def languages(game: LoadedGame) -> list[str]:
    """The languages a game has: its locale files' and its primary one, primary first."""
    primary = primary_language(game)
    return [primary, *sorted(set(game.locales) - {primary})]


def side(doc_or_path) -> str:
    """`cards` for a card locale (<game>/cards/locale/xx.yaml), `rules` for the game's own
    (<game>/locale/xx.yaml)."""
    path = Path(getattr(doc_or_path, "path", doc_or_path))
    return "cards" if path.parent.parent.name == "cards" else "rules"


def missing_sides(game: LoadedGame, lang: str) -> list[str]:
    """The sides (`rules`, and `cards` when the game has cards) for which `lang` has no locale
    file, when it has some (a file deleted or misnamed): every key that file would hold is
    missing for that one cause."""
    present = {side(doc) for doc in game.locales.get(lang, [])}
    if not present:
        return []
    wanted = {"rules"} | ({"cards"} if game.names.get("card") else set())
    return sorted(wanted - present)


def entries(docs: list[Document]) -> dict[str, Entry]:
    """Translation key -> entry, over the files of one language (first definition wins)."""
    found: dict[str, Entry] = {}
    for doc in docs:
        data = doc.data if isinstance(doc.data, dict) else {}
        for section, items in data.items():
            if section == "lang" or section in RECORD_SECTIONS or not isinstance(items, dict):
                continue
            # a text, or a name (`{name: …}`); a card's name and its text (one loop, no
            # helper per entry: a card locale holds two entries per card)
            parts = ("name", "text") if section == "cards" else ()
            for ident, value in items.items():
                if isinstance(value, str):
                    key = f"{section}.{ident}"
                    if key not in found:
                        found[key] = Entry(doc, (section, ident), value)
                elif not isinstance(value, dict):
                    continue
                elif parts:
                    for part in parts:
                        text = value.get(part)
                        if isinstance(text, str):
                            key = f"{section}.{ident}.{part}"
                            if key not in found:
                                found[key] = Entry(doc, (section, ident, part), text)
                elif isinstance(value.get("name"), str):
                    key = f"{section}.{ident}"
                    if key not in found:
                        found[key] = Entry(doc, (section, ident, "name"), value["name"])
    return found


def language_entries(game: LoadedGame, lang: str) -> dict[str, Entry]:
    """`entries` of one language's files, worked out once per loaded game: the checks ask
    for each language's several times over (keys, arguments, card texts), and a card locale
    holds two for every card. Shared: read it, never change it."""
    return game.per_files("entries", game.locales.get(lang, []), entries)


def place_in_text(doc: Document, path: tuple, text: str, at: int | None,
                  fallback: tuple[int, int]) -> tuple[int, int]:
    """The place of character `at` of a text (a message, a name) in its file (folded or
    escaped as written: yamlio.TextPlaces), or the text's own place when no character is
    named."""
    if at is None:
        return fallback
    before = text[:at]
    line = before.count("\n") + 1
    col = at - (before.rfind("\n") + 1) + 1
    places = doc.text_places(path)
    if places is not None:
        return places(line, col)
    start_line, start_col = doc.text_origin(path)
    return start_line + line - 1, start_col + col - 1


def stamps(docs: list[Document]) -> dict[str, tuple[Document, str]]:
    """Key -> (document, recorded source hash), from the files' `translated_from` sections."""
    found: dict[str, tuple[Document, str]] = {}
    for doc in docs:
        recorded = doc.data.get(STAMP_SECTION) if isinstance(doc.data, dict) else None
        for key, digest in (recorded or {}).items() if isinstance(recorded, dict) else ():
            found.setdefault(str(key), (doc, str(digest)))
    return found


def source_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


def game_argument(game: LoadedGame) -> str:
    """How a command line names the game: a bundled game by its id, any other by its folder."""
    return game.game_id if game.files.bundled else str(display_path(game.files.folder))


@cache
def engine_messages(lang: str) -> dict[str, str]:
    """The engine's bundled messages in `lang` ({} when it has none)."""
    path = ENGINE_DIR / f"{lang}.yaml"
    if not path.is_file():
        return {}
    doc = load_file(path, Collector())  # our loader: the same YAML rules as a game's locale
    data = doc.data if doc is not None and isinstance(doc.data, dict) else {}
    return dict(data.get("messages") or {})


def engine_languages() -> list[str]:
    return sorted(p.stem for p in ENGINE_DIR.glob("*.yaml"))


def engine_filled(primary: str, lang: str) -> set[str]:
    """The keys (`messages.…`) of the engine's messages that a game had to give in its primary
    language, the engine lacking them there, and that the engine has in `lang`: `lang` needs no
    text of its own for them. A message the engine has in the primary language too is one the
    game words its own way (a turn called a round), and its translations should follow."""
    own, there = engine_messages(primary), engine_messages(lang)
    return {f"messages.{key}" for key in there if key not in own}


def engine_keys() -> list[str]:
    return list(engine_messages(ENGINE_SOURCE))


def file_for(game: LoadedGame, lang: str, where: str) -> Path:
    """The locale file of `lang` on one side (`rules` or `cards`), existing or to be added:
    beside the primary language's file of that side."""
    for docs in (game.locales.get(lang, []), game.locales.get(primary_language(game), [])):
        for doc in docs:
            if side(doc) == where:
                return doc.path.with_name(f"{lang}.yaml")
    for docs in game.locales.values():
        for doc in docs:
            if side(doc) == where:
                return doc.path.with_name(f"{lang}.yaml")
    folder = game.files.manifest.parent
    return (folder / "cards" if where == "cards" else folder) / "locale" / f"{lang}.yaml"
