"""Root causes first: a file that could not be read at all hides the names it defines, and every
reference to them elsewhere would be reported as well — an unquoted colon in one locale file
gave 35 errors with the real one 24th. This module tells which files of a loaded game are
unreadable and folds the errors that only follow from them into one line on the root error.

Errors of the unreadable file itself, and errors of kinds that no missing file can cause (a
schema error, a syntax error in an effect), are always kept.
"""

from __future__ import annotations

from dataclasses import replace

from .content import LoadedGame
from .errors import Diagnostic

# What a file that defines nothing can cause in the others: names and keys not found.
FOLLOW_ON = ("content/unknown-name", "effect/unknown-name", "effect/unknown-function",
             "effect/unknown-attribute", "effect/type-error", "locale/unknown-key",
             "locale/missing-key", "scenario/unknown-name", "scenario/unknown-clause")


def unreadable(game: LoadedGame) -> set[str]:
    """Paths of the game's files that did not load (missing, or not valid YAML) and define
    names other files use. A locale defines none: a broken one only makes its own language
    seem to miss keys, which `broken_languages` keeps from being reported at all."""
    loaded = {str(doc.path) for doc in game.all_docs()}
    locales = {str(p) for p in game.files.locales}
    return {str(p) for p in game.files.all_paths() if str(p) not in loaded | locales}


def broken_languages(game: LoadedGame) -> set[str]:
    """Languages with a locale file that did not load or failed its schema: any key that
    language seems to miss may be in that file, so none is reported as missing."""
    return {p.stem for p in game.files.locales if str(p) not in game.schema_clean}


def fold(diagnostics: list[Diagnostic], roots: set[str]) -> list[Diagnostic]:
    """Keep the errors of unreadable files and drop the follow-on errors of the others,
    counting them on the first root error."""
    first = next((d for d in diagnostics if d.file in roots), None)
    if first is None:
        return diagnostics
    kept = [d for d in diagnostics if d.file in roots or d.code not in FOLLOW_ON]
    dropped = len(diagnostics) - len(kept)
    if not dropped:
        return kept
    note = (f" [{dropped} more error{'s' if dropped > 1 else ''} in other files may only follow "
            "from this one: fix it and validate again]")
    return [replace(d, message=d.message + note) if d is first else d for d in kept]
