"""A game's files: loading them, checking each against its schema, and indexing every id
they define.

Which files make up a game is `folders.py`'s job (the game folder layout); semantic checks
across files live in `checks.py`; this module only gathers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from . import schemas
from .errors import Collector
from .folders import GameFiles
from .yamlio import Document, load_file

T = TypeVar("T")

# Namespaces of ids and where each is defined: (file role, list key, id key or None for strings).
DEFINITIONS = {
    "power": ("game", "powers"),
    "zone": ("game", "zones"),
    "counter": ("game", "counters"),
    "flag": ("game", "flags"),
    "memory": ("game", "memory"),
    "setting": ("game", "settings"),
    "piece": ("game", "pieces"),
    "marker": ("game", "space_state"),
    "connection_kind": ("game", "connection_kinds"),
    "phase": ("procedures", "phases"),
    "procedure": ("procedures", "procedures"),
    "function": ("procedures", "functions"),
    "action": ("procedures", "actions"),
    "trigger": ("procedures", "triggers"),
    "table": ("tables", "tables"),
    "space": ("map", "spaces"),
    "clause": ("clauses", "clauses"),
}


@dataclass
class Definition:
    doc: Document
    path: tuple  # path of the id value inside doc

    def where(self) -> tuple[str, int, int]:
        line, col = self.doc.pos(self.path)
        return str(self.doc.path), line, col


@dataclass
class LoadedGame:
    """Every document of a game, schema-checked, with an index of the ids each defines."""

    game_id: str
    files: GameFiles
    docs: dict[str, Document] = field(default_factory=dict)  # game / map / tables / procedures
    cards: list[Document] = field(default_factory=list)
    locales: dict[str, list[Document]] = field(default_factory=dict)
    names: dict[str, dict[str, Definition]] = field(default_factory=dict)
    schema_clean: set[str] = field(default_factory=set)  # paths that passed their schema
    # a card file that failed its schema only inside some of its cards: path -> their
    # indexes (the file's other cards are clean, and their effects are checked all the same)
    broken_cards: dict[str, set[int]] = field(default_factory=dict)
    # what the checks work out of its files once and ask for several times (`per_files`);
    # shared with its schema-clean view, not pickled (cheap to redo)
    memo: dict = field(default_factory=dict, repr=False, compare=False)

    def __getstate__(self) -> dict:
        return {**self.__dict__, "memo": {}}

    def per_files(self, what: str, docs: list[Document], make: Callable[[list], T]) -> T:
        """`make(docs)`, worked out once for these very documents however many checks ask
        (a language's translation entries, the forms its names give: a card locale holds
        one entry per card). Shared: read it, never change it."""
        key = (what, *map(id, docs))  # the game holds its documents: ids stay theirs
        if key not in self.memo:
            self.memo[key] = make(docs)
        return self.memo[key]

    @property
    def manifest(self) -> dict:
        doc = self.docs.get("game")
        return doc.data if doc and isinstance(doc.data, dict) else {}

    def data(self, role: str) -> dict:
        doc = self.docs.get(role)
        return doc.data if doc and isinstance(doc.data, dict) else {}

    def card_instances(self) -> list[str]:
        """Every card in play as the state names it: its id, or `id#n` for copy n of a card
        printed in several copies."""
        instances = []
        for doc in self.cards:
            cards = doc.data.get("cards") if isinstance(doc.data, dict) else None
            for card in cards if isinstance(cards, list) else []:
                if not isinstance(card, dict) or not isinstance(card.get("id"), str):
                    continue
                copies = card.get("copies", 1)
                if isinstance(copies, int) and not isinstance(copies, bool) and copies > 1:
                    instances += [f"{card['id']}#{n}" for n in range(1, copies + 1)]
                else:
                    instances.append(card["id"])
        return instances

    def all_docs(self) -> list[Document]:
        return [*self.docs.values(), *self.cards, *(d for ds in self.locales.values() for d in ds)]

    def attributes(self) -> dict[str, dict[str, dict]]:
        """Declared extra attributes per extensible kind (cards, map). Read even when another
        part of the manifest is broken (or the cards would all seem to carry unknown keys),
        keeping only declarations of the right shape."""
        manifest = self.manifest

        def declared(key: str) -> dict[str, dict]:
            table = manifest.get(key)
            if not isinstance(table, dict):
                return {}
            # a broken declaration (reported in the manifest) still declares its name
            return {name: spec if schemas.valid_attribute(name, spec) else {}
                    for name, spec in table.items() if isinstance(name, str)}

        return {"cards": declared("card_attributes"), "map": declared("space_attributes")}

    def schema_clean_view(self) -> LoadedGame:
        """The same game with only the documents that passed their schemas: what semantic
        checks may read without meeting shapes the schemas forbid. The id index is kept whole,
        so a name defined in a broken file is not reported unknown everywhere else."""
        def clean(doc: Document) -> bool:
            return str(doc.path) in self.schema_clean

        view = LoadedGame(self.game_id, self.files, names=self.names,
                          schema_clean=self.schema_clean, memo=self.memo)
        view.docs = {role: doc for role, doc in self.docs.items() if clean(doc)}
        view.cards = [doc for doc in self.cards if clean(doc)]
        view.locales = {lang: [d for d in docs if clean(d)]
                        for lang, docs in self.locales.items()}
        return view


def load_game(files: GameFiles, errors: Collector, validators: schemas.Validators
              ) -> LoadedGame:
    """Load and schema-check every file of a game, then index the ids they define."""
    game = LoadedGame(files.game_id, files)
    for folder, why in files.unreadable:
        errors.error(str(folder), 1, 1, "io/unreadable", f"cannot read the folder: {why}")
    manifest = _load(files.manifest, "game", game, errors, validators)
    if manifest is None:
        return game
    game.docs["game"] = manifest
    attributes = game.attributes()
    for kind, path in files.rules.items():
        doc = _load(path, kind, game, errors, validators, attributes.get(kind))
        if doc is not None:
            game.docs[kind] = doc
    for path in files.cards:
        doc = _load(path, "cards", game, errors, validators, attributes["cards"])
        if doc is not None:
            game.cards.append(doc)
    for path in files.locales:
        doc = _load(path, "locale", game, errors, validators)
        if doc is not None:
            game.locales.setdefault(path.stem, []).append(doc)
    _index(game, errors)
    return game


def _load(path: Path, kind: str, game: LoadedGame, errors: Collector,
          validators: schemas.Validators, attributes: dict | None = None) -> Document | None:
    if not path.exists() and not path.is_symlink():
        errors.error(str(path), 1, 1, "content/missing-file", f"missing {kind} file")
        return None
    before = len(errors.diagnostics)
    doc = load_file(path, errors)
    if doc is None:
        return None
    if doc.data is None:
        doc.data = {}
    # A value the YAML layer already refused (`no`, `0777`…) is not reported twice.
    reported = {(d.line, d.col) for d in errors.diagnostics[before:]
                if d.code.startswith(("yaml/ambiguous-", "yaml/unsupported-tag",
                                             "yaml/number-too-large"))}
    schema_errors = Collector()
    validator = validators.get(kind, game.game_id, attributes)
    broken: list[tuple] = []
    if schemas.validate(doc, validator, schema_errors, broken):
        game.schema_clean.add(str(path))
    elif kind == "cards" and broken and all(
            len(at) >= 2 and at[0] == "cards" and isinstance(at[1], int) for at in broken):
        game.broken_cards[str(path)] = {at[1] for at in broken}
    errors.extend(d for d in schema_errors.diagnostics if (d.line, d.col) not in reported)
    return doc if isinstance(doc.data, dict) else None


def _index(game: LoadedGame, errors: Collector) -> None:
    """Record where every id is defined; a second definition of an id is an error."""
    names: dict[str, dict[str, Definition]] = {ns: {} for ns in DEFINITIONS}
    names["card"] = {}
    names["card_set"] = {}

    def define(namespace: str, ident, doc: Document, path: tuple) -> None:
        if not isinstance(ident, str):
            return
        table = names[namespace]
        if ident in table:
            first = table[ident].where()
            line, col = doc.pos(path)
            errors.error(str(doc.path), line, col, "content/duplicate-id",
                         f"{namespace} `{ident}` is already defined at {first[0]}:{first[1]}")
            return
        table[ident] = Definition(doc, path)

    for namespace, (role, key) in DEFINITIONS.items():
        doc = game.docs.get(role)
        if doc is None or not isinstance(doc.data, dict):
            continue
        entries = doc.data.get(key)
        for i, entry in enumerate(entries if isinstance(entries, list) else []):
            if isinstance(entry, dict):
                define(namespace, entry.get("id"), doc, (key, i, "id"))
            elif isinstance(entry, str):
                define(namespace, entry, doc, (key, i))
    for doc in game.cards:
        define("card_set", doc.data.get("id"), doc, ("id",))
        cards = doc.data.get("cards")
        for i, card in enumerate(cards if isinstance(cards, list) else []):
            if isinstance(card, dict):
                define("card", card.get("id"), doc, ("cards", i, "id"))
    game.names = names
