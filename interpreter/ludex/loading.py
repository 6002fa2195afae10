"""A game loaded once: its files read, schema-checked, checked and parsed a single time per
process, and — through the content cache on disk (`content_cache.py`) — once per change of
its files.

* `check(files)`: the checked content and its diagnostics (`ludex validate`, `ludex check`).
  With `play=False` (`ludex validate`) the definition compiled on the way is checked, not
  played: it skips what only speeds play (GameDef.play), and the diagnostics are the same.
* `shared_definition(folder)`: one compiled definition shared by every reader in the process
  (the scenario runner, `simulate`); they only read it. With `play=False` (a scenario being
  validated, not run) any definition of the game will do, one compiled only for checks too.
* `fresh_definition(folder)`: a definition of the caller's own, compiled from a private copy
  of the content, which the caller may change (`load_definition`).
* `scenario_file(path)`: a scenario file read and schema-checked, with the trees parsed from
  it on earlier runs (`remember` stores it with new ones).

What is kept in the process is keyed by the game's files and their stamps (size, modification
time, inode), so an edited game is loaded again.
"""

from __future__ import annotations

import contextlib
import copy
import gc
import os
import threading
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from . import content_cache, schemas
from .checks import run_all
from .content import LoadedGame, load_game
from .errors import Collector, Diagnostic, LudexError
from .folders import GameFiles, discover
from .gamedef import GameDef, build_definition
from .rootcause import fold, fold_bad_names, fold_undeclared, roots
from .scenario_rng import unquoted_rng
from .schemas import Validators
from .yamlio import Document, load_file

_KEPT_GAMES = 16  # games kept in the process; the least recently used goes first


@dataclass
class Checked:
    """A game's content as loaded and checked, and every diagnostic about it (sorted, folded
    to their root causes). Shared: read it, never change it."""

    game: LoadedGame
    diagnostics: list[Diagnostic]

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.diagnostics)


@dataclass
class _Entry:
    checked: Checked
    # the content with its parsed trees, pickled as loaded: private copies come from it.
    # Made when first needed (at once when the disk cache stores it), and always before a
    # caller that may change it gets hold of the content.
    packed: bytes | None = None
    unpicklable: bool = False  # content holding something pickle refuses
    spare: GameDef | None = None  # compiled while checking, not handed out yet
    shared: tuple[GameDef, dict] | None = None  # for play
    checking: tuple[GameDef, dict] | None = None  # for checks only, unless shared exists

    def pack(self, key: str = "") -> bytes | None:
        """The content pickled (as the disk cache's entry `key`); None if pickle refuses it."""
        if self.packed is None and not self.unpicklable:
            try:
                self.packed = content_cache.pack(key, {"game": self.checked.game,
                                                       "diagnostics": self.checked.diagnostics})
            except Exception:  # kept in memory only
                self.unpicklable = True
        return self.packed


_kept: OrderedDict[tuple, tuple[tuple, _Entry]] = OrderedDict()  # files -> (stamps, entry)
# One load at a time (`ludex serve` answers from threads): a spare definition is handed to one
# caller only, and a game is not loaded twice at once.
_lock = threading.RLock()


def check(files: GameFiles, validators: Validators | None = None, play: bool = True
          ) -> Checked:
    """Load, schema-check, check and parse a game's files: once while they stay unchanged.
    `play=False`: the game is only checked here, so its effects are compiled without what
    only speeds play — Python source, inlining… (GameDef.play): over a third of compiling
    a bundled game, and it changes no diagnostic)."""
    with _lock:
        return _entry(files, validators, play).checked


def shared_definition(folder: Path, play: bool = True) -> tuple[GameDef, dict]:
    """The game in `folder` compiled, with its starting map: the same objects for every caller
    while the game's files stay unchanged. Content errors raise LudexError. `play=False`:
    for checks only (any definition of the game will do, one compiled only for checks too)."""
    with _lock:
        entry = _entry(discover(folder), play=play)
        _raise_errors(entry)
        if not play and entry.shared is None:
            if entry.checking is None:
                if entry.spare is not None:
                    definition, game = entry.spare, entry.checked.game
                    entry.spare = None
                else:
                    game, definition = _compile_copy(entry, True, play=False)
                entry.checking = (definition, _start(game))
            return entry.checking
        if entry.shared is None:
            if entry.spare is not None and entry.spare.play:
                definition, game = entry.spare, entry.checked.game
                entry.spare = None
            else:
                game, definition = _compile_copy(entry, fast_paths=True)
            entry.shared = (definition, _start(game))
        return entry.shared


def fresh_definition(folder: Path, fast_paths: bool = True) -> tuple[GameDef, dict]:
    """The game in `folder` compiled for this caller alone: changing it changes nobody
    else's, with the fingerprint of the files it was compiled from (`GameDef.content`: none
    when they changed while it loaded). Content errors raise LudexError."""
    before = _fingerprint(folder)
    definition, start = _fresh(folder, fast_paths)
    definition.content = before if before and _fingerprint(folder) == before else None
    return definition, start


def _fingerprint(folder: Path) -> str | None:
    """saves.fingerprint, or None for a file that does not read: the loader reports it."""
    from .saves import fingerprint

    try:
        return fingerprint(folder)
    except OSError:
        return None


def _fresh(folder: Path, fast_paths: bool) -> tuple[GameDef, dict]:
    with _lock:
        entry = _entry(discover(folder))
        _raise_errors(entry)
        entry.pack()  # before this caller may change what it gets
        if (fast_paths and entry.spare is not None and entry.spare.play
                and entry.packed is not None):
            # The spare shares its data with the kept content: the caller takes both, and
            # what is kept becomes a copy.
            definition, game = entry.spare, entry.checked.game
            entry.spare = None
            kept = content_cache.restricted_loads(entry.packed)["game"]
            entry.checked = Checked(kept, entry.checked.diagnostics)
            return definition, _start(game)
    game, definition = _compile_copy(entry, fast_paths)  # a private copy: no lock needed
    return definition, _start(game)


def forget() -> None:
    """Drop every game and scenario file kept in this process (the disk cache stays)."""
    with _lock:
        _kept.clear()
        _scenarios.clear()
        _release_frozen()


def _raise_errors(entry: _Entry) -> None:
    if entry.checked.has_errors:
        raise LudexError(list(entry.checked.diagnostics))


def _start(game: LoadedGame) -> dict:
    """Each space's starting contents, copied: a game may not change its content."""
    return {s["id"]: copy.deepcopy(s.get("start") or {})
            for s in game.data("map").get("spaces") or []}


def _compile_copy(entry: _Entry, fast_paths: bool, play: bool = True
                  ) -> tuple[LoadedGame, GameDef]:
    """Compile a private copy of the content from its parsed trees (no parsing again)."""
    if entry.pack() is None:  # content that could not be pickled: load it again
        errors = Collector()
        game = load_game(entry.checked.game.files, errors, Validators())
        run_all(game, errors)
        return game, build_definition(game, errors, fast_paths, play=play)
    game = content_cache.restricted_loads(entry.packed)["game"]
    return game, build_definition(game, Collector(), fast_paths, play=play)


def _entry(files: GameFiles, validators: Validators | None = None, play: bool = True
           ) -> _Entry:
    roles = _roles(files)
    identity = (files.game_id, str(files.folder), tuple((role, str(p)) for role, p in roles))
    stamps = _stamps(roles)
    if stamps is not None:
        known = _kept.get(identity)
        if known is not None and known[0] == stamps:
            _kept.move_to_end(identity)
            return known[1]
    entry = _load(files, validators, play)
    if stamps is not None:
        replaced = _kept.pop(identity, None)
        _kept[identity] = (stamps, entry)
        while len(_kept) > _KEPT_GAMES:
            replaced = _kept.popitem(last=False)
        if replaced is not None:
            _release_frozen()
    return entry


def _roles(files: GameFiles) -> list[tuple[str, Path]]:
    return [("game", files.manifest), *files.rules.items(),
            *(("cards", p) for p in files.cards), *(("locale", p) for p in files.locales)]


def _stamps(roles: list[tuple[str, Path]]) -> tuple | None:
    """Size, modification and change times and inode of each file (None: missing); None when
    one cannot be told (such a game is not kept)."""
    stamps = []
    for _, path in roles:
        try:
            info = os.stat(path)
        except FileNotFoundError:
            stamps.append(None)
            continue
        except OSError:
            return None
        stamps.append((info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino))
    return tuple(stamps)


def _load(files: GameFiles, validators: Validators | None, play: bool = True) -> _Entry:
    with _collector_paused():
        return _load_unpaused(files, validators, play)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Loading a game builds a great many small containers (a value, a path and a position
    for every value of every file) and next to no cyclic garbage. Python's cyclic collector
    would walk them again and again as they pile up — a fifth of validating 1,000 cards — so
    it waits until the game is loaded (and stays off if someone else turned it off).

    What the load made is then frozen (`gc.freeze`): the game is kept for the process, and a
    collection walking it would find nothing to free. Walking it once cost an eighth of
    validating 1,000 cards, and every full collection during play walked it again. When a
    kept game is dropped, `_release_frozen` hands everything back to the collector."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()


def _release_frozen() -> None:
    """A kept game was dropped: what was frozen with it may be garbage now, so the collector
    takes everything frozen back (its next full pass frees what is unreachable; games still
    kept are frozen again at the next load)."""
    gc.unfreeze()


def _load_unpaused(files: GameFiles, validators: Validators | None, play: bool) -> _Entry:
    key = content_cache.game_key(files) if content_cache.enabled() else None
    if key is not None:
        found = content_cache.fetch(key)
        if found is not None and _well_formed(found[0]):
            payload, packed = found
            return _Entry(Checked(payload["game"], payload["diagnostics"]), packed)
    errors = Collector()
    game = load_game(files, errors, validators or Validators())
    definition = None
    if game.docs.get("game") is not None:
        run_all(game, errors)
        definition = build_definition(game, errors, play=play)
    found = errors.sorted()
    folded = fold_bad_names(fold_undeclared(found, game), game)
    entry = _Entry(Checked(game, fold(folded, roots(game, found))),
                   spare=definition)
    # Stored only if no file changed while it was read: the entry must hold what its key says.
    if key is not None and entry.pack(key) is not None and content_cache.game_key(files) == key:
        content_cache.store(key, entry.packed)
    return entry


def _well_formed(payload: dict) -> bool:
    return (isinstance(payload.get("game"), LoadedGame)
            and isinstance(payload.get("diagnostics"), list)
            and all(isinstance(d, Diagnostic) for d in payload["diagnostics"]))


@dataclass
class ScenarioFile:
    """A scenario file read and schema-checked (`doc` None: nothing usable was read)."""

    doc: Document | None
    diagnostics: list[Diagnostic]  # YAML and schema problems, sorted
    schema_clean: bool
    key: str | None = None  # its entry in the content cache; None: not to be cached
    packed_doc: bytes | None = None  # the document as read, without trees
    stored_trees: int = -1  # how many trees its cache entry holds (-1: no entry yet)


_KEPT_SCENARIOS = 1024  # scenario files kept in the process; the least recently read goes first
# (path, the cache's folder or None when it is off) -> (stamps, file)
_scenarios: OrderedDict[tuple, tuple[tuple, ScenarioFile]] = OrderedDict()


def scenario_file(path: Path) -> ScenarioFile:
    """Read a scenario file and check it against the scenario schema, through the content
    cache: its document comes back with the trees parsed from its texts on earlier runs.
    Call `remember` once done with it. A file read before in this process and unchanged since
    (its stamps, as a game's) is not read again: `ludex check` runs a scenario, then checks it
    as written, and each took its cache entry's hash, read and unpickling."""
    stamp = _stamps([("scenario", path)])
    kept = stamp is not None and stamp[0] is not None
    place = (str(path), content_cache.folder() if content_cache.enabled() else None)
    with _lock:
        known = _scenarios.get(place) if kept else None
        if known is not None and known[0] == stamp:
            _scenarios.move_to_end(place)
            return known[1]
    loaded = _read_scenario(path)
    if kept:
        with _lock:
            _scenarios[place] = (stamp, loaded)
            _scenarios.move_to_end(place)
            while len(_scenarios) > _KEPT_SCENARIOS:
                _scenarios.popitem(last=False)
    return loaded


def _read_scenario(path: Path) -> ScenarioFile:
    key = content_cache.file_key("scenario", path) if content_cache.enabled() else None
    if key is not None:
        found = content_cache.fetch(key)
        cached = _cached_scenario(found[0], key) if found is not None else None
        if cached is not None:
            return cached
    errors = Collector()
    doc = load_file(path, errors)
    clean = doc is not None and schemas.validate(doc, Validators().get("scenario"), errors)
    diagnostics = unquoted_rng(doc, errors.sorted()) if doc is not None else errors.sorted()
    loaded = ScenarioFile(doc, diagnostics, clean)
    if key is not None and content_cache.file_key("scenario", path) == key:  # unchanged
        try:
            loaded.packed_doc = content_cache.pack_data(doc)
            loaded.key = key
        except Exception:  # something pickle refuses: not cached
            pass
    return loaded


def remember(loaded: ScenarioFile) -> None:
    """Write a scenario file's cache entry: the document as it was read, its diagnostics and
    the trees parsed from its texts so far, so that the next run neither reads nor parses it.
    Written when there was none, or when more trees were parsed since."""
    trees = loaded.doc.trees if loaded.doc is not None else {}
    if loaded.key is None or loaded.packed_doc is None or len(trees) == loaded.stored_trees:
        return
    try:
        packed = content_cache.pack(loaded.key, {
            "doc": loaded.packed_doc, "trees": trees, "diagnostics": loaded.diagnostics,
            "schema_clean": loaded.schema_clean})
    except Exception:  # a tree pickle refuses: not cached
        return
    content_cache.store(loaded.key, packed)
    loaded.stored_trees = len(trees)


def _cached_scenario(payload: dict, key: str) -> ScenarioFile | None:
    """A scenario file from its cache entry; None when the entry is not what it should be."""
    if not (isinstance(payload.get("doc"), bytes) and isinstance(payload.get("trees"), dict)
            and isinstance(payload.get("schema_clean"), bool)
            and isinstance(payload.get("diagnostics"), list)
            and all(isinstance(d, Diagnostic) for d in payload["diagnostics"])):
        return None
    try:
        doc = content_cache.restricted_loads(payload["doc"])
    except Exception:  # whatever a damaged entry makes the unpickler raise
        return None
    if doc is not None and not isinstance(doc, Document):
        return None
    if doc is not None:
        doc.trees = payload["trees"]
    return ScenarioFile(doc, payload["diagnostics"], payload["schema_clean"], key,
                        payload["doc"], len(payload["trees"]))
