"""Root causes first: a file that could not be read hides the names it defines, and every
reference to them elsewhere would be reported as well — an unquoted colon in one locale file
gave 35 errors with the real one 24th. This module tells which files of a loaded game are such
roots and folds the errors that only follow from them into one line on the root error.

Errors of the root file itself, and errors of kinds that no missing name can cause (a
schema error, a syntax error in an effect), are always kept.
"""

from __future__ import annotations

import re
from dataclasses import replace

from .content import LoadedGame
from .errors import Diagnostic
from .yamlio import Document

# What a file that cannot be read causes elsewhere: names and keys not found.
FOLLOW_ON = ("content/unknown-name", "effect/unknown-name", "effect/unknown-function",
             "effect/unknown-attribute", "effect/type-error", "locale/unknown-key",
             "locale/missing-key", "scenario/unknown-name", "scenario/unknown-clause")
# What a rules file refused by its schema causes: its ids are still known to the checks, but
# the engine builds nothing from it, so effects cannot find its procedures or functions.
FOLLOW_ON_REFUSED = ("effect/unknown-name", "effect/unknown-function")


# What a cards file refused by its schema with no list of cards causes: its cards are unknown
# to the checks, so their names in locales, effects and scenarios name nothing (`card:` for
# `cards:` gave 32 locale errors before the one that said so, a designer's trial).
FOLLOW_ON_CARDS = ("locale/unknown-key", "locale/missing-key", "effect/unknown-name",
                   "scenario/unknown-name")

# What an id defined twice causes: one of the two was meant to be another name (a card
# renamed by a slip), and the locale keys of that name now name nothing, with "did you mean"
# pointing at the duplicate. Only those: a misspelt name in an effect is an error of its own
# (folding every unknown name hid one, found by a review).
FOLLOW_ON_DUPLICATE = ("locale/unknown-key",)

# A plain YAML value that YAML 1.1 and 1.2 read differently (yamlio._TRAPS).
TRAP = "yaml/ambiguous-"


def roots(game: LoadedGame, diagnostics: list[Diagnostic] = ()) -> dict[str, tuple[str, ...]]:
    """Files of the game whose contents other files cannot see, each with the codes of the
    errors it may cause elsewhere: a rules or cards file that did not load (missing, or not
    valid YAML), a cards or locale folder that could not be listed, a rules or cards file
    that failed its schema (a manifest that failed its own hides the attributes cards have:
    then it is the root of the cards' unknown keys), and a file defining an id already
    defined (among `diagnostics`). A
    locale defines no names: a broken
    one only makes its own language seem to miss keys, which `broken_languages` keeps from
    being reported at all."""
    loaded = {str(doc.path) for doc in game.all_docs()}
    locales = {str(p) for p in game.files.locales}
    found = {str(p): FOLLOW_ON for p in game.files.all_paths()
             if str(p) not in loaded | locales}
    for folder, _ in game.files.unreadable:  # a cards or locale folder that cannot be listed
        found[str(folder)] = FOLLOW_ON
    manifest = game.docs.get("game")
    if manifest is not None and str(manifest.path) not in game.schema_clean:
        # the attributes it declares (cards', spaces') are unknown too: every card's and
        # space's are unknown keys, so another file refused by its schema may be refused for
        # no fault of its own
        found[str(manifest.path)] = (*FOLLOW_ON_REFUSED, "schema/unknown-key")
    else:
        for doc in game.docs.values():
            if str(doc.path) not in game.schema_clean:
                found.setdefault(str(doc.path), FOLLOW_ON_REFUSED)
        for doc in game.cards:
            # refused, with no list of cards to read ids from (`card:` for `cards:`): every
            # name of one of its cards names none (a card list read with a bad entry keeps
            # the ids of the others known)
            cards = doc.data.get("cards") if isinstance(doc.data, dict) else None
            if str(doc.path) not in game.schema_clean and not isinstance(cards, list):
                found.setdefault(str(doc.path), FOLLOW_ON_CARDS)
    for d in diagnostics:
        if d.code == "content/duplicate-id":
            found.setdefault(d.file, FOLLOW_ON_DUPLICATE)
    return found


def broken_languages(game: LoadedGame) -> set[str]:
    """Languages with a locale file that did not load or failed its schema: any key that
    language seems to miss may be in that file, so none is reported as missing."""
    return {p.stem for p in game.files.locales if str(p) not in game.schema_clean}


def fold_at_traps(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Drop every other diagnostic at the very place of a YAML trap (`pass: no`, which YAML
    1.2 reads as the text "no", is `yaml/ambiguous-bool`): what else is said there — an
    unknown name `no` — only follows from reading it as a text, and the trap says what to
    write instead."""
    traps = {(d.file, d.line, d.col) for d in diagnostics if d.code.startswith(TRAP)}
    if not traps:
        return diagnostics
    return [d for d in diagnostics
            if d.code.startswith(TRAP) or (d.file, d.line, d.col) not in traps]


def fold_undeclared(diagnostics: list[Diagnostic], game: LoadedGame) -> list[Diagnostic]:
    """Fold the unknown keys of cards (or spaces) that name an attribute the manifest meant to
    declare but wrote inside another's declaration (`valor:` indented under `palo:`) into a
    count on the manifest's error about that key: every card carrying `valor` was reported
    before it, 40 errors with the one to fix last."""
    manifest = game.docs.get("game")
    if manifest is None or str(manifest.path) in game.schema_clean:
        return diagnostics
    notes: dict[Diagnostic, int] = {}
    maps = [game.docs["map"]] if "map" in game.docs else []
    for declared, docs in (("card_attributes", game.cards), ("space_attributes", maps)):
        for path in _inside_declarations(manifest, declared):
            line, col = manifest.key_pos(path)
            root = next((d for d in diagnostics if d.file == str(manifest.path)
                         and (d.line, d.col, d.code) == (line, col, "schema/unknown-key")), None)
            if root is None:
                continue
            at = {(str(doc.path), *place) for doc in docs
                  for key, place in doc.key_positions.items() if key and key[-1] == path[-1]}
            follow = {d for d in diagnostics if d.code == "schema/unknown-key"
                      and (d.file, d.line, d.col) in at}
            if follow:
                diagnostics = [d for d in diagnostics if d not in follow]
                notes[root] = notes.get(root, 0) + len(follow)
    return [replace(d, message=d.message + _more(notes[d])) if d in notes else d
            for d in diagnostics]


# The characters a name is written in (schemas: `^[a-z][a-z0-9_]*$`).
_NAME_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")


def fold_bad_names(diagnostics: list[Diagnostic], game: LoadedGame) -> list[Diagnostic]:
    """Fold what follows from an id that is no valid name (`οros_5`, whose `ο` is a Greek
    omicron: `schema/bad-name`) into it: its `locale/missing-key` at its very place, and the
    `locale/unknown-key` of each locale key it was meant to be (`cards.oros_5`, "did you mean
    `οros_5`"), counted on it. Both were reported before the root cause (a designer's
    trial). A key was meant to be the id when the two differ only where the id has a
    character no name may have."""
    roots = {(d.file, d.line): d for d in diagnostics if d.code == "schema/bad-name"}
    if not roots:
        return diagnostics
    bad: dict[str, Diagnostic] = {}  # the id -> its bad-name error (at its odd letter)
    defined_at: set[tuple[str, int, int]] = set()  # where each such id is defined
    for defined in game.names.values():
        for ident, definition in defined.items():
            file, line, col = definition.where()
            root = roots.get((file, line))
            if root is not None and isinstance(ident, str) \
                    and col <= root.col <= col + len(ident):  # (+1: a quoted id)
                bad[ident] = root
                defined_at.add((file, line, col))
    if not bad:
        return diagnostics
    keys = {(str(doc.path), *place): path[-1] for docs in game.locales.values() for doc in docs
            for path, place in doc.key_positions.items() if len(path) == 2}
    notes: dict[Diagnostic, int] = {}
    kept = []
    for d in diagnostics:
        where = (d.file, d.line, d.col)
        if d.code == "locale/missing-key" and where in defined_at:
            continue  # at the bad name itself: the name is the thing to fix
        meant = next((root for ident, root in bad.items()
                      if _meant_for(keys.get(where), ident)), None) \
            if d.code == "locale/unknown-key" else None
        if meant is not None:
            notes[meant] = notes.get(meant, 0) + 1
            continue
        kept.append(d)
    return [replace(d, message=d.message + _more(notes[d])) if d in notes else d for d in kept]


def _meant_for(key, ident: str) -> bool:
    """Whether locale key `key` is `ident` with the characters no name may have put right."""
    return isinstance(key, str) and len(key) == len(ident) and key != ident and all(
        a == b or b not in _NAME_CHARACTERS for a, b in zip(key, ident, strict=True))


def _inside_declarations(manifest: Document, declared: str) -> list[tuple]:
    """The paths of keys written inside an attribute's declaration that no declaration
    takes: names of attributes indented one level too deep."""
    table = manifest.data.get(declared) if isinstance(manifest.data, dict) else None
    if not isinstance(table, dict):
        return []
    words = _declaration_keys()
    return [(declared, name, key) for name, spec in table.items() if isinstance(spec, dict)
            for key in spec if isinstance(key, str) and key not in words]


def _declaration_keys() -> set[str]:
    from .schemas import base_schema

    return set(base_schema("game")["$defs"]["attributes"]["additionalProperties"]["properties"])


_MORE = re.compile(r" \[(\d+) more errors? in other files may only follow from this one: "
                   r"fix it and validate again\]$")


def _more(count: int) -> str:
    return (f" [{count} more error{'s' if count > 1 else ''} in other files may only follow "
            "from this one: fix it and validate again]")


def fold(diagnostics: list[Diagnostic], roots: dict[str, tuple[str, ...]]) -> list[Diagnostic]:
    """Keep the errors of the root files and drop the follow-on errors of the others,
    counting them on the first root error; and what follows from a YAML trap at its place
    (fold_at_traps)."""
    diagnostics = fold_at_traps(diagnostics)
    first = next((d for d in diagnostics if d.file in roots), None)
    if first is None:
        return diagnostics
    follow_on = {code for codes in roots.values() for code in codes}
    kept = [d for d in diagnostics if d.file in roots or d.code not in follow_on]
    dropped = len(diagnostics) - len(kept)
    if not dropped:
        return kept
    message = first.message
    said = _MORE.search(message)  # already counting what fold_undeclared folded: one count
    if said:
        message, dropped = message[:said.start()], dropped + int(said[1])
    return [replace(d, message=message + _more(dropped)) if d is first else d for d in kept]
