"""Checks that a locale's texts are written in the script of its language: a word that mixes
Latin, Greek and Cyrillic letters (a lookalike typed in another keyboard layout: a Cyrillic
`а` in Spanish `аsistir`, a Latin `o` in Greek `φύλλo`), and a name or message written wholly
in another script than its language's (a Greek card name pasted into the Spanish file). Both
read and play without a word otherwise: the lookalike looks right on screen, and a search for
the word, a spell-checker or a screen reader stumbles on it (a designer's trial).

The language's script is the one play already goes by for the engine's lines (locale.script_of,
CLDR's likely script). Only words are read: placeholders, cases' names (`{a1, select, copas
{…}}`), ids in backticks and numbers are not, and a Latin word among another script's words
(a game's name, "OK") is a word in one script. Latin is the script proper nouns keep in any
language: a name wholly in Latin letters (`Sena Gallica` in Sword of Rome's Russian) or a text
of one Latin word is not another language's.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from .errors import Collector
from .locale import script_of
from .locale_files import RECORD_SECTIONS, place_in_text
from .templates import TemplateError, Text, parse, texts

# The first word of a letter's Unicode name -> the script it belongs to, for the scripts a
# locale's language is written in (ISO 15924, as CLDR gives it) that this check knows.
_LETTER_SCRIPTS = {
    "LATIN": "Latin", "GREEK": "Greek", "CYRILLIC": "Cyrillic", "ARMENIAN": "Armenian",
    "GEORGIAN": "Georgian", "HEBREW": "Hebrew", "ARABIC": "Arabic", "DEVANAGARI": "Devanagari",
    "BENGALI": "Bengali", "TAMIL": "Tamil", "THAI": "Thai", "ETHIOPIC": "Ethiopic",
    "HANGUL": "Hangul", "HIRAGANA": "Hiragana", "KATAKANA": "Katakana",
    "KATAKANA-HIRAGANA": "Katakana", "CJK": "Han",
}
# A language's script (ISO 15924) -> the scripts its letters are in: Japanese writes kanji
# and both kanas, Korean hangul and hanja.
_WRITTEN_WITH = {
    "Latn": {"Latin"}, "Grek": {"Greek"}, "Cyrl": {"Cyrillic"}, "Armn": {"Armenian"},
    "Geor": {"Georgian"}, "Hebr": {"Hebrew"}, "Arab": {"Arabic"}, "Deva": {"Devanagari"},
    "Beng": {"Bengali"}, "Taml": {"Tamil"}, "Thai": {"Thai"}, "Ethi": {"Ethiopic"},
    "Jpan": {"Han", "Hiragana", "Katakana"}, "Kore": {"Hangul", "Han"}, "Hans": {"Han"},
    "Hant": {"Han"}, "Hani": {"Han"},
}
# The scripts whose letters look alike: a word mixing two of them is a slip, never a spelling.
LOOKALIKE_SCRIPTS = ("Latin", "Greek", "Cyrillic")

_WORD = re.compile(r"[^\W\d_]+")
_LATIN = frozenset({"Latin"})
_LOOKALIKE = frozenset(LOOKALIKE_SCRIPTS)
_QUOTED_ID = re.compile(r"`[^`\n]*`")


@functools.cache
def letter_script(char: str) -> str | None:
    """The script of a letter, for the scripts this check knows (None for any other character:
    digits, punctuation, `µ`, `ª`)."""
    if not char.isalpha():
        return None
    first = unicodedata.name(char, "").split(" ", 1)[0]
    return _LETTER_SCRIPTS.get(first)


def written_with(lang: str) -> set[str] | None:
    """The scripts the letters of `lang` are in, None when this check does not know them (a
    tag CLDR does not know, a script not in the table)."""
    code = script_of(lang)
    return _WRITTEN_WITH.get(code) if code else None


def check_scripts(lang: str, docs, errors: Collector) -> None:
    """Every name, form, card text and message of one language's files: a word that mixes
    lookalike scripts (at the odd letter), and a text wholly in another script (at its first
    letter); warnings both."""
    native = written_with(lang)
    for doc in docs:
        for path, text, template in _texts_of(doc):
            try:
                runs = list(texts(parse(text))) if template else [Text(text, 0)]
            except TemplateError:
                continue  # locale/bad-message
            _check_text(doc, path, text, runs, lang, native, errors)


def _texts_of(doc):
    """(path, text, whether it is a message template) of every text of a locale file."""
    data = doc.data if isinstance(doc.data, dict) else {}
    for section, items in data.items():
        if section == "lang" or section in RECORD_SECTIONS or not isinstance(items, dict):
            continue
        for ident, value in items.items():
            if isinstance(value, str):
                yield (section, ident), value, section == "messages"
            elif isinstance(value, dict):  # a name with its forms, a card's name and text
                for part, text in value.items():
                    if isinstance(text, str):
                        yield (section, ident, part), text, False


def _check_text(doc, path: tuple, text: str, runs: list[Text], lang: str,
                native: set[str] | None, errors: Collector) -> None:
    if text.isascii() and (native is None or "Latin" in native):
        return  # all Latin: no word mixes scripts, and none is foreign (most texts: cheap)
    key = ".".join(map(str, path))
    scripts: dict[str, int] = {}  # script -> index of its first letter in the text
    words = 0
    for run in runs:
        plain = _QUOTED_ID.sub(lambda m: " " * len(m.group()), run) if "`" in run else run
        for word in _WORD.finditer(plain):
            words += 1
            spelt = word.group()
            kinds = _LATIN if spelt.isascii() else set(map(letter_script, spelt)) - {None}
            start = run.at + word.start()
            for script in kinds:
                if script not in scripts:
                    scripts[script] = start + next(
                        i for i, c in enumerate(spelt) if letter_script(c) == script)
            if len(kinds & _LOOKALIKE) < 2:
                continue  # one script in the word: nothing odd in it
            letters = [(start + i, letter_script(c)) for i, c in enumerate(spelt)]
            odd = _odd_letter(letters, native)
            if odd is not None:
                char = text[odd]
                mixed = sorted({s for _, s in letters if s in LOOKALIKE_SCRIPTS})
                errors.warning(str(doc.path), *place_in_text(doc, path, text, odd,
                                                             doc.pos(path)),
                               "locale/mixed-script",
                               f"`{key}`: the word `{spelt}` mixes "
                               f"{' and '.join(mixed)} letters: `{char}` is "
                               f"U+{ord(char):04X} {unicodedata.name(char, '?')}")
    if native is None or not scripts or native & scripts.keys():
        return
    if set(scripts) == {"Latin"} and (words == 1 or not _sentence(path)):
        return  # a Latin name (`Sena Gallica` in Russian) or word ("OK") is kept so anywhere
    foreign = min(scripts, key=scripts.get)
    errors.warning(str(doc.path), *place_in_text(doc, path, text, scripts[foreign],
                                                 doc.pos(path)),
                   "locale/mixed-script",
                   f"`{key}` is written in {' and '.join(sorted(scripts))}, but `{lang}` is "
                   f"written in {' and '.join(sorted(native))}: a text of another language?")


def _sentence(path: tuple) -> bool:
    """Whether a text is sentences (a message, a clause's summary, a card's text), not a name."""
    return path[0] in ("messages", "clauses") or (path[0] == "cards" and path[-1] == "text")


def _odd_letter(letters: list[tuple[int, str | None]], native: set[str] | None) -> int | None:
    """The index of the first letter of a word that mixes lookalike scripts and is not of the
    language's own script (else of the script the word has fewest letters of); None when the
    word keeps to one."""
    counts: dict[str, int] = {}
    for _, script in letters:
        if script in LOOKALIKE_SCRIPTS:
            counts[script] = counts.get(script, 0) + 1
    if len(counts) < 2:
        return None
    own = next((s for s in counts if native and s in native), None) \
        or max(counts, key=counts.get)
    return next(at for at, script in letters if script in counts and script != own)
