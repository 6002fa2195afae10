"""Which way a language's text runs, `rtl` or `ltr`, for the page's `dir` and the board's
text: from its locale tag, as CLDR (through Babel) says (Arabic, Hebrew, Persian, Urdu… run
right to left), and for a line the engine wrote, the direction of the language its words
came from (a line an Arabic locale lacks comes in English, left to right)."""

from __future__ import annotations

import functools

RTL, LTR = "rtl", "ltr"


@functools.cache
def text_direction(tag: str) -> str:
    """`rtl` or `ltr` for a BCP 47 tag (`ar`, `he-IL`, `pa-Arab`); a script subtag decides
    first (`und-Arab`), then the whole tag, then its language; a tag Babel does not know runs
    left to right."""
    from babel import Locale, UnknownLocaleError

    parts = str(tag).replace("_", "-").split("-")
    tries = [f"und_{part.title()}" for part in parts[1:] if len(part) == 4 and part.isalpha()]
    tries += ["_".join(parts), parts[0]]
    for attempt in tries:
        try:
            return RTL if Locale.parse(attempt).text_direction == RTL else LTR
        except (UnknownLocaleError, ValueError, TypeError):
            continue
    return LTR


def message_direction(text, key: str) -> str:
    """The direction of the language that gives message `key` to localizer `text`: its own,
    else the one it falls back to (the game's primary language, then the engine's English)."""
    return text_direction(text.text_language(key))
