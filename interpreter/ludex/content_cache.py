"""The content cache on disk: a game's checked content, kept between runs so that a cold
`ludex validate`, `test` or `check` of an unchanged game skips YAML parsing, schema validation
and effect parsing.

An entry holds what loading a game produces that does not depend on anything but its files:
the position-annotated documents, the diagnostics (warnings included) and the parsed effect
trees. Compiled closures are not kept (they cannot be): they are rebuilt from the trees.

An entry is named by a hash of everything its content was computed from: the bytes and the
place of every file of the game, and this Ludex — its version and the hash of its own source,
grammar, messages and base schemas — with the Python and library versions it ran on. Any
change to one of them names another entry, so a stale one is never read; old ones are pruned.

Entries live in `$XDG_CACHE_HOME/ludex/content` (by default `~/.cache/ludex/content`), never in
the game folder: a game shared with others never carries one. `LUDEX_NO_CACHE=1` (or
`--no-cache`) turns the cache off. Writes are atomic (a temporary file renamed into place);
an entry that is truncated, corrupted, foreign or written for another key is ignored, and
reading one never runs code: only Ludex's own data classes may be rebuilt from it.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import pickle
import re
import stat
import sys
import tempfile
from dataclasses import is_dataclass
from functools import cache
from pathlib import Path
from typing import Any

from . import __version__
from .folders import GameFiles
from .resources import schema_dir
from .yamlio import MAX_FILE_BYTES

FORMAT = b"ludex-content-cache 1\n"
MAX_BYTES = 64 * 1024 * 1024  # past this size, the least recently used entries are removed …
KEEP_BYTES = 48 * 1024 * 1024  # … down to this size
_PACKAGE = Path(__file__).resolve().parent
_SOURCE_SUFFIXES = (".py", ".lark", ".yaml", ".json")
_LIBRARIES = ("pyyaml", "jsonschema", "lark", "babel")

# Set from the command line (`--no-cache`) for the rest of one command.
switched_off = False
_pruned = False


def enabled() -> bool:
    return not switched_off and os.environ.get("LUDEX_NO_CACHE", "") in ("", "0")


def folder() -> Path:
    """Where entries are kept: `$XDG_CACHE_HOME/ludex/content`, or `~/.cache/ludex/content`."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
    return root / "ludex" / "content"


@cache
def fingerprint() -> bytes:
    """This Ludex as far as loading content goes (see `fingerprint_of`)."""
    sources = sorted(p for p in _PACKAGE.rglob("*") if p.suffix in _SOURCE_SUFFIXES
                     and "__pycache__" not in p.parts and "_bundled" not in p.parts)
    return fingerprint_of(__version__, sources, schema_dir())


def fingerprint_of(version: str, sources: list[Path], schemas: Path) -> bytes:
    """A Ludex version, the hash of its own files (`sources`) and of the base schemas in
    `schemas`, and the versions of Python and of the libraries it reads content with. Hashing
    the source too means that an editable install being worked on never reads an entry
    written by other code."""
    import yaml

    digest = hashlib.sha256(FORMAT)
    digest.update(f"{version}\0{sys.version}\0{sys.platform}\0".encode())
    digest.update(f"libyaml={getattr(yaml, '__with_libyaml__', False)}\0".encode())
    for library, found in library_versions(_LIBRARIES).items():
        digest.update(f"{library}={found or 'none'}\0".encode())
    for path in [*sources, *sorted(schemas.glob("*.json"))]:
        digest.update(path.name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return digest.digest()


def library_versions(names: tuple[str, ...]) -> dict[str, str | None]:
    """The installed version of each distribution (None: not installed), as
    `importlib.metadata.version` gives it, read from the names of the `*.dist-info` folders
    on `sys.path` (the first one found, as an import finds it). Importing importlib.metadata
    alone took 15-50 ms of every command; a name not found that way is asked of it."""
    wanted = {_normalized(name): name for name in names}
    found: dict[str, str | None] = {}
    for entry in sys.path:
        try:
            listed = os.listdir(entry or ".")
        except OSError:
            continue
        for item in listed:
            stem, _, suffix = item.rpartition(".")
            name, dash, version = stem.partition("-")
            if suffix == "dist-info" and dash and version:
                original = wanted.get(_normalized(name))
                if original is not None and original not in found:
                    found[original] = version
    for name in names:
        if name not in found:
            from importlib.metadata import PackageNotFoundError, version

            try:
                found[name] = version(name)
            except PackageNotFoundError:
                found[name] = None
    return {name: found[name] for name in names}


def _normalized(name: str) -> str:
    """A distribution name as dist-info folders and their lookups compare it (PEP 503)."""
    return re.sub(r"[-_.]+", "_", name).lower()


class _Unreadable(Exception):
    """A file that is not plainly there to read (a folder, a pipe, no permission): such a
    game is loaded without the cache, whose key could not say what it holds."""


def _file_digest(path: Path) -> bytes:
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return b"missing"
    except OSError as exc:
        raise _Unreadable(path) from exc
    if not stat.S_ISREG(mode):
        raise _Unreadable(path)
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise _Unreadable(path) from exc
    return hashlib.sha256(raw).digest()


def game_key(files: GameFiles) -> str | None:
    """The name of the entry for a game's files as they are now; None when one of them cannot
    be read plainly (the game is then loaded without the cache)."""
    digest = hashlib.sha256(fingerprint())
    digest.update(f"{files.game_id}\0{files.folder}\0".encode())
    roles = [("game", files.manifest), *files.rules.items(),
             *(("cards", p) for p in files.cards), *(("locale", p) for p in files.locales)]
    try:
        for role, path in roles:
            digest.update(f"{role}\0{path}\0".encode() + _file_digest(Path(path)))
    except _Unreadable:
        return None
    return digest.hexdigest()


def file_key(kind: str, path: Path) -> str | None:
    """The name of the entry for one file read as `kind` (a scenario), as it is now."""
    digest = hashlib.sha256(fingerprint())
    try:
        digest.update(f"{kind}\0{path}\0".encode() + _file_digest(Path(path)))
    except _Unreadable:
        return None
    return digest.hexdigest()


def _entry_path(key: str) -> Path:
    return folder() / f"{key}.pickle"


def pack(key: str, payload: dict[str, Any]) -> bytes:
    """`payload` pickled as the entry `key`."""
    return pickle.dumps({"key": key, **payload}, protocol=pickle.HIGHEST_PROTOCOL)


def pack_data(value: Any) -> bytes:
    """`value` pickled, to be kept inside an entry and unpickled with `restricted_loads`."""
    return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


def store(key: str, blob: bytes) -> None:
    """Write a packed payload as the entry `key`, atomically. A failure to write is no error:
    the cache only saves time."""
    if not enabled():
        return
    target = _entry_path(key)
    try:
        target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(FORMAT + key.encode() + b"\n"
                          + hashlib.sha256(blob).hexdigest().encode() + b"\n" + blob)
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        if not _pruned:
            _prune(target.parent)
    except OSError:
        pass


def fetch(key: str) -> tuple[dict[str, Any], bytes] | None:
    """The entry `key` and its pickled form, or None when there is none that can be trusted
    (missing, truncated, corrupted, foreign, or written for another key)."""
    if not enabled():
        return None
    path = _entry_path(key)
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    head = FORMAT + key.encode() + b"\n"
    if not raw.startswith(head):
        return None
    checksum, _, blob = raw[len(head):].partition(b"\n")
    if checksum != hashlib.sha256(blob).hexdigest().encode():
        return None
    try:
        payload = restricted_loads(blob)
    except Exception:  # whatever a damaged or hostile file makes the unpickler raise
        return None
    if not isinstance(payload, dict) or payload.get("key") != key:
        return None
    with contextlib.suppress(OSError):
        os.utime(path)  # recently used: pruned last
    return payload, blob


# Modules whose data classes an entry may hold; nothing else may be rebuilt from one.
_DATA_MODULES = ("ludex.ast", "ludex.errors", "ludex.yamlio", "ludex.content", "ludex.folders")
_PATHS = {"PosixPath", "WindowsPath", "PurePosixPath", "PureWindowsPath"}


class _DataOnly(pickle.Unpickler):
    """Unpickles plain data and Ludex's data classes only: a pickle may name any callable to
    call, so a file that names another one is refused, never run."""

    def find_class(self, module: str, name: str) -> Any:
        if module == "pathlib" and name in _PATHS:
            return super().find_class(module, name)
        if module in _DATA_MODULES:
            found = super().find_class(module, name)
            if isinstance(found, type) and is_dataclass(found):
                return found
        raise pickle.UnpicklingError(f"{module}.{name} may not be loaded from the cache")


def restricted_loads(blob: bytes) -> Any:
    return _DataOnly(io.BytesIO(blob)).load()


def _prune(where: Path) -> None:
    """Keep the cache small: past MAX_BYTES, remove the least recently used entries (looked at
    once per process: a cold run writes many)."""
    global _pruned
    _pruned = True
    try:
        entries = [(info.st_mtime, info.st_size, entry.path) for entry in os.scandir(where)
                   if entry.name.endswith(".pickle") for info in (entry.stat(),)]
    except OSError:
        return
    total = sum(size for _, size, _ in entries)
    if total <= MAX_BYTES:
        return
    for _, size, path in sorted(entries):
        if total <= KEEP_BYTES:
            break
        with contextlib.suppress(OSError):
            os.unlink(path)
        total -= size
