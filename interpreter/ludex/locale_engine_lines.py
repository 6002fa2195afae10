"""A game's own texts of the engine's lines: a `messages:` entry whose key is one of the engine's
messages (`look_help`, `turn_start`) stands in for the engine's text of it.

A word-for-word copy of the engine's line in the same language changes nothing today and hides
every later change the engine makes to that line: a game that copied ~80 lines before the
engine spoke its language kept a terminal help without `?!` when the engine's gained it, and
nothing said so (a designer's trial). It is a warning, `locale/engine-line-copy`.

A rewording is the game's own choice, but it too is frozen at the engine's text of the day. A
locale file may record, under `reworded_from:`, the engine's text each rewording was made from
(`ludex locale accept-engine` writes it); when the engine's text differs from the one recorded,
`locale/engine-line-changed` shows the text it has now, so the change can be carried into the
rewording. A rewording with no record is not warned (games written before the record existed
stay clean under `--strict`): `ludex locale status` notes it.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path

from .content import LoadedGame
from .errors import Collector, did_you_mean
from .locale_files import (
    BASIS_SECTION,
    ENGINE_SOURCE,
    Entry,
    engine_filled,
    engine_keys,
    engine_messages,
    game_argument,
    language_entries,
    primary_language,
)
from .locale_rewrite import WIDTH, dump, replace_section
from .rootcause import broken_languages

COPY = "locale/engine-line-copy"
CHANGED = "locale/engine-line-changed"


def engine_line(lang: str, key: str) -> str | None:
    """The engine's text that a game's `lang` text of message `key` stands in for: the
    engine's own in `lang`; in a language the engine lacks, its English, which the game's
    text translates."""
    return (engine_messages(lang) or engine_messages(ENGINE_SOURCE)).get(key)


def copies(game: LoadedGame, lang: str) -> dict[str, Entry]:
    """`lang`'s texts of engine messages (`messages.pass`) that are the engine's own `lang`
    line word for word, and that nothing asks for: not where the primary language words the
    line its own way (without its own text `lang` would be asked for one). A language the
    engine lacks copies nothing: its text of a line stands in for the engine's English, which
    its players would not read in its place."""
    return {key: entry for key, entry in language_entries(game, lang).items()
            if key.startswith("messages.") and is_copy(lang, key, entry.text)
            and not follows_primary(game, lang, key)}


def rewordings(game: LoadedGame, lang: str) -> dict[str, Entry]:
    """`lang`'s texts of engine messages that reword the engine's line (its own, or its English
    in a language the engine lacks), keyed `messages.…`: not copies, and not translations of
    the primary language's own wording of the line (those are stamped against it,
    `translated_from`)."""
    known = set(engine_keys())
    return {key: entry for key, entry in language_entries(game, lang).items()
            if key.removeprefix("messages.") in known and key.startswith("messages.")
            and entry.text != engine_line(lang, key.removeprefix("messages."))
            and not follows_primary(game, lang, key)}


def follows_primary(game: LoadedGame, lang: str, key: str) -> bool:
    """Whether `lang`'s text of engine message `key` translates the primary language's own
    wording of it: the primary language rewords a line the engine has in it (a game's
    English "Round 3 begins" for a turn), or gives one the engine lacks in both. Validation
    asks such a language for its own text of the line (locale/missing-translation)."""
    primary = primary_language(game)
    entry = language_entries(game, primary).get(key)
    if lang == primary or entry is None:
        return False
    return key not in engine_filled(primary, lang) and not is_copy(primary, key, entry.text)


def is_copy(lang: str, key: str, text: str) -> bool:
    """Whether `text` is the engine's own `lang` text of `key` (`messages.…`), word for word."""
    return engine_messages(lang).get(key.removeprefix("messages.")) == text


def bases(game: LoadedGame, lang: str) -> dict[str, tuple[object, str]]:
    """Engine message key -> (document, the engine's text recorded as the rewording's basis),
    from `lang`'s files' `reworded_from` sections (the first file to record a key wins)."""
    found: dict[str, tuple[object, str]] = {}
    for doc in game.locales.get(lang, []):
        recorded = doc.data.get(BASIS_SECTION) if isinstance(doc.data, dict) else None
        for key, text in recorded.items() if isinstance(recorded, dict) else ():
            if isinstance(text, str):
                found.setdefault(str(key), (doc, text))
    return found


def unrecorded(game: LoadedGame, lang: str) -> list[str]:
    """The engine messages `lang` rewords, in a language the engine speaks, with no record of
    the engine's text they were made from (`ludex locale status` notes them)."""
    if not engine_messages(lang):
        return []
    recorded = bases(game, lang)
    return sorted(key.removeprefix("messages.") for key in rewordings(game, lang)
                  if key.removeprefix("messages.") not in recorded)


def changed(game: LoadedGame, lang: str) -> list[tuple[Entry, str, str]]:
    """`lang`'s rewordings whose engine line changed since the recorded basis: (the rewording,
    the engine's text then, the engine's text now)."""
    recorded = bases(game, lang)
    found = []
    for key, entry in rewordings(game, lang).items():
        name = key.removeprefix("messages.")
        now = engine_line(lang, name)
        if name in recorded and now is not None and recorded[name][1] != now:
            found.append((entry, recorded[name][1], now))
    return found


def check_engine_lines(game: LoadedGame, errors: Collector) -> None:
    """Each language's copies of the engine's lines (a warning each, at its key), its
    rewordings whose engine line changed since their recorded basis (a warning each, with the
    engine's text now), and recorded bases of keys that are no engine message (an error)."""
    broken = broken_languages(game)
    for lang in sorted(game.locales):
        if lang in broken:  # its schema error first: its texts are not all read
            continue
        for key, entry in copies(game, lang).items():
            errors.warning(*entry.where(), COPY,
                           f"the engine already says exactly this in `{lang}` (`{key}`): "
                           "delete it, and the game will follow the engine's later changes "
                           "to the line")
        for entry, then, now in changed(game, lang):
            name = entry.path[-1]
            errors.warning(*entry.where(), CHANGED,
                           f"`messages.{name}` rewords the engine's "
                           f"{_in_language(lang)} line, which has changed since it was "
                           f"recorded under `{BASIS_SECTION}`: it now reads \"{now}\" "
                           f"({difference(then, now)}); carry the change into this wording, "
                           f"then run `ludex locale accept-engine {game_argument(game)} {lang}`")
        known = engine_keys()
        for key, (doc, _text) in bases(game, lang).items():
            if key not in known:
                line, col = doc.key_pos((BASIS_SECTION, key))
                errors.error(str(doc.path), line, col, "locale/unknown-key",
                             f"`{BASIS_SECTION}.{key}` names no message of the engine"
                             + did_you_mean(key, known))


def _in_language(lang: str) -> str:
    return f"`{lang}`" if engine_messages(lang) else f"English (the engine has no `{lang}`)"


_WORDS = re.compile(r"\S+")


def difference(then: str, now: str, longest: int = 80) -> str:
    """What changed from one text to the other, word by word: `added "…"`, `"…" became
    "…"`, `removed "…"` (each part cut at `longest` characters)."""
    old, new = _WORDS.findall(then), _WORDS.findall(now)
    parts = []
    for op, a0, a1, b0, b1 in difflib.SequenceMatcher(a=old, b=new,
                                                      autojunk=False).get_opcodes():
        before, after = _cut(" ".join(old[a0:a1]), longest), _cut(" ".join(new[b0:b1]), longest)
        if op == "insert":
            parts.append(f"added \"{after}\"")
        elif op == "delete":
            parts.append(f"removed \"{before}\"")
        elif op == "replace":
            parts.append(f"\"{before}\" became \"{after}\"")
    return "; ".join(parts) or "only its spacing"


def _cut(text: str, longest: int) -> str:
    return text if len(text) <= longest else text[:longest - 1] + "…"


BASIS_HEADER = f"{BASIS_SECTION}:  # the engine's lines as reworded: `ludex locale accept-engine`"


def accept_engine(game: LoadedGame, lang: str) -> list[Path]:
    """Record, in each of `lang`'s files, the engine's text of today for each rewording of an
    engine line the file holds (its `reworded_from` section, rewritten in its place; the rest
    of the file is kept byte for byte); run it once the rewordings are checked against the
    engine's lines. Returns the files written (those whose record changed)."""
    recorded: dict[Path, dict[str, str]] = {Path(doc.path): {}
                                            for doc in game.locales.get(lang, [])}
    for key, entry in rewordings(game, lang).items():
        name = key.removeprefix("messages.")
        recorded[Path(entry.doc.path)][name] = engine_line(lang, name) or ""
    written = []
    for path, texts in recorded.items():
        old = path.read_bytes().decode("utf-8")
        new = replace_section(old, BASIS_SECTION, _block(texts))
        if new != old:
            path.write_bytes(new.encode("utf-8"))
            written.append(path)
    return written


def _block(texts: dict[str, str]) -> str:
    """The `reworded_from:` section holding `texts` ("" for none)."""
    if not texts:
        return ""
    body = dump({key: texts[key] for key in sorted(texts)}, width=WIDTH - 2).rstrip("\n")
    return BASIS_HEADER + "\n" + "".join(f"  {line}\n" for line in body.split("\n"))
