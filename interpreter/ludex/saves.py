"""Saved games: written atomically, with what is needed to resume exactly, and read back with a
clear error for anything that is not one.

A save holds the game's id (and, for a game that is not bundled, its folder relative to the
save), the player count, settings, seed and every decision given; a fingerprint of the content
it was played with and the Ludex version; and each seat's agent (its name with any budget, and
a random agent's generator state; look-ahead agents need none: playtest/seeding.py), so that a
resumed game goes on exactly as the uninterrupted one would have. Resuming against
content that has changed since is refused (a different game would be replayed silently) unless
forced.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import stat
import tempfile
from pathlib import Path
from typing import Any

import yaml

from . import __version__
from .folders import discover, is_bundled

FORMAT = 1


class SaveError(Exception):
    """A file that is not a usable save, or a save that does not fit the content."""


class WriteError(SaveError):
    """A file the system would not let a command write; `reason` is the system's word."""

    def __init__(self, message: str, reason: str, errno: int | None = None):
        super().__init__(message)
        self.reason, self.errno = reason, errno


def fingerprint(folder: Path) -> str:
    """A hash of what decides how a game plays: manifest, rule files and cards (not the
    locales, not the scenarios), by their place in the folder and their bytes."""
    files = discover(folder)
    digest = hashlib.sha256()
    root = Path(folder)
    # each file by its place in the folder as listed, not where a link leads (a card file
    # linked from a folder outside the game's is the game's all the same)
    for place, path in sorted((Path(os.path.relpath(p, root)).as_posix(), p)
                              for p in [files.manifest, *files.rules.values(), *files.cards]):
        digest.update(place.encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def make_save(game, folder: Path, path: Path, agents: list[dict] | None = None) -> dict:
    # the content the game was played with: the files may have changed since it loaded
    played = getattr(game.definition, "content", None) or fingerprint(folder)
    saved = {"format": FORMAT, **game.save(), "ludex": __version__, "content": played}
    if not is_bundled(folder):
        saved["game_folder"] = os.path.relpath(Path(folder).resolve(),
                                               Path(path).resolve().parent)
    if agents:
        saved["agents"] = agents
    return saved


def check_writable(path: Path) -> None:
    """Refuse a path a save could not be written to — before play starts, not after. A link
    is judged by where it points (the save is written there)."""
    path = Path(path)
    if path.is_symlink():
        try:
            path = path.resolve(strict=False)
        except (OSError, RuntimeError):  # a link that leads to itself, round and round
            raise SaveError(f"{path} is a link that leads nowhere") from None
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise SaveError(f"{path} is a folder")
    if not folder.is_dir():
        raise SaveError(f"{folder} is a file, not a folder" if folder.exists()
                        else f"{folder} does not exist")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise SaveError(f"{path} cannot be written")
    if path.exists() and not path.is_file():  # a device, a pipe: nothing a save can replace
        raise SaveError(f"{path} is not a file")


def check_folder(path: Path, *, written: bool = True) -> None:
    """Refuse a folder files could not be written into, before any work is done: one that
    exists must be writable (unless only read from: `written=False`), and a missing one must
    be makeable — the nearest folder above it that exists, writable, and no file in the way."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise SaveError(f"{path} is a file, not a folder")
    above = path
    while not above.exists() and above != above.parent:  # the nearest thing that exists
        above = above.parent
    if above.exists() and not above.is_dir():  # `/etc/passwd/saves`: a file on the way
        raise SaveError(f"{path} cannot be written: {above} is a file, not a folder")
    if above == path:
        if written and not os.access(path, os.W_OK | os.X_OK):
            raise SaveError(f"{path} cannot be written")
    elif not os.access(above, os.W_OK | os.X_OK):
        raise SaveError(f"{path} cannot be written: no folder can be made in {above}")


@contextlib.contextmanager
def write_errors(path: Path | None = None):
    """Report a write the system refuses (a read-only file or folder, a file where a folder
    should be, a full disk) as a WriteError naming the file: the person's situation, to be
    told as such, never an internal error. `path` names the file when the error does not."""
    try:
        yield
    except OSError as exc:
        name = exc.filename or path
        reason = exc.strerror or type(exc).__name__
        raise WriteError(f"{name} cannot be written ({reason})" if name
                         else f"cannot write ({reason})", reason, exc.errno) from None


def write_atomically(path: Path, text: str) -> None:
    """Write through a temporary file in the same folder, then rename: a crash or a full disk
    leaves the previous file whole. A link is written through (the file it points to gets the
    text, the link stays), and the file keeps its permissions (a new one gets the umask's)."""
    path = Path(path)
    if path.is_symlink():
        path = path.resolve()  # check_writable refused a link that leads nowhere
    mode = stat.S_IMODE(path.stat().st_mode) if path.exists() else 0o666 & ~_UMASK
    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent or ".", prefix=f".{path.name}.",
                                             suffix=".tmp")
    except OSError as exc:  # named by the file meant, not by a temporary one nobody asked for
        exc.filename, exc.filename2 = str(path), None
        raise
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException as exc:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            exc.filename, exc.filename2 = str(path), None
        raise


def _umask() -> int:
    mask = os.umask(0)  # the only way to read it is to set it: put straight back
    os.umask(mask)
    return mask


_UMASK = _umask()

# a text YAML writes plain and every reader reads back as that same text: a name, an option
_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_@#:.-]*")
_YAML11_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null", "none"}


class _SaveDumper(yaml.SafeDumper):
    """Quotes every text that is not plainly a name: a generator state `3e8` or `0777` would
    read as a number in one YAML version and as a text in another (Ludex refuses those)."""


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    plain = _PLAIN.fullmatch(value) and value.lower() not in _YAML11_WORDS \
        and not value.endswith((":", "."))
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=None if plain else '"')


_SaveDumper.add_representer(str, _text)


def write_save(path: Path, saved: dict) -> None:
    """JSON, or YAML when the file name ends in .yaml/.yml (written so that `read_save` reads
    back exactly what was saved: checked before it is written)."""
    if Path(path).suffix in (".yaml", ".yml"):
        text = yaml.dump(saved, Dumper=_SaveDumper, allow_unicode=True, sort_keys=False)
        if _yaml_reads(text, Path(path).name) != saved:  # cannot happen; if it did, JSON is YAML
            text = json.dumps(saved, ensure_ascii=False, indent=1)
    else:
        text = json.dumps(saved, ensure_ascii=False, indent=1)
    write_atomically(path, text)


def _yaml_reads(text: str, name: str) -> Any:
    """What Ludex's YAML reader makes of `text` (None if it refuses it)."""
    from .errors import Collector
    from .yamlio import load_bytes

    errors = Collector()
    doc = load_bytes(text.encode("utf-8"), name, errors)
    return None if doc is None or errors else doc.data


def read_save(path: Path) -> dict:
    """A saved game's data, its shape checked; SaveError names the file and the problem."""
    path = Path(path)
    if path.suffix in (".yaml", ".yml"):
        from .errors import Collector
        from .yamlio import load_file

        errors = Collector()
        doc = load_file(path, errors)
        if doc is None or errors:
            raise SaveError(errors.sorted()[0].headline() if errors else f"{path}: unreadable")
        data = doc.data
    else:
        from .yamlio import MAX_FILE_BYTES, read_head

        text = read_head(path, MAX_FILE_BYTES + 1)
        if text is None or len(text) > MAX_FILE_BYTES:
            raise SaveError(f"{path}: not a readable file of at most {MAX_FILE_BYTES:,} bytes")
        try:
            data = json.loads(text, object_pairs_hook=_one_of_each)
        except _DuplicateKey as exc:
            raise SaveError(f"{path}: not a saved game (the key `{exc}` is given twice: "
                            "which one the game was saved with cannot be told)") from None
        except (ValueError, RecursionError) as exc:
            raise SaveError(f"{path}: not a saved game ({type(exc).__name__}: "
                            f"{str(exc)[:120]})") from None
    problem = _shape_problem(data)
    if problem:
        raise SaveError(f"{path}: not a saved game ({problem})")
    return data


class _DuplicateKey(Exception):
    """A JSON object gives one key twice (Python's reader keeps the last without a word)."""


def _one_of_each(pairs: list[tuple[str, Any]]) -> dict:
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        raise _DuplicateKey(next(k for k, _ in pairs if k in seen or seen.add(k)))
    return data


def looks_like_save(path: Path) -> bool:
    """Whether a file is a save (rather than a scenario): a mapping with decisions and a seed,
    and nothing to run."""
    try:
        data = read_save(path)
    except SaveError:
        return False
    return "run" not in data


_FIELDS = {"game": str, "players": int, "seed": int, "decisions": list}
_KIND_WORDS = {str: "a text", int: "a whole number", list: "a list"}


def _shape_problem(data: Any) -> str | None:
    if not isinstance(data, dict):
        said = "nothing" if data is None else "true or false" if isinstance(data, bool) \
            else "a number" if isinstance(data, int | float) else _KIND_WORDS.get(
                type(data), "something else")
        return f"{said}, not a mapping"
    for key, kind in _FIELDS.items():
        if key not in data:
            return f"no `{key}`"
        if not isinstance(data[key], kind) or isinstance(data[key], bool):
            return f"`{key}` is not {_KIND_WORDS[kind]}"
    written = data.get("format", FORMAT)
    if written.__class__ is not int or written != FORMAT:  # `true` and `1.0` equal 1 in Python
        return f"format {json.dumps(written)}: this Ludex reads format {FORMAT}"
    if not isinstance(data.get("settings", {}), dict):
        return "`settings` is not a mapping"
    if not isinstance(data.get("game_folder", ""), str):
        return "`game_folder` is not a text"
    agents = data.get("agents", [])
    if not isinstance(agents, list) or not all(isinstance(a, dict) for a in agents):
        return "`agents` is not a list of mappings"
    for seat, agent in enumerate(agents, 1):  # a seat resumed otherwise would play on silently
        if not isinstance(agent.get("kind"), str) or not agent["kind"]:
            return f"seat {seat}'s agent has no `kind` (its name, as `--agents` takes it)"
        state = agent.get("state")
        if "state" in agent and not (isinstance(state, str)
                                     and re.fullmatch(r"[0-9a-f]{1,16}", state)):
            return (f"seat {seat}'s agent `state` is {json.dumps(state)}: a random agent's "
                    "generator is written as 1 to 16 lowercase hexadecimal digits")
    return None


def changed_on_disk(definition, folder: Path) -> bool:
    """Whether the game's files differ from those `definition` was compiled from."""
    return definition.content is not None and definition.content != fingerprint(folder)


def check_content(saved: dict, folder: Path, path: Path, force: bool = False,
                  content: str | None = None) -> None:
    """Refuse to resume a game whose content changed since it was saved (unless forced):
    against `content`, the fingerprint of the content the game will replay on when it is
    already loaded (a table's), else the folder's files."""
    recorded = saved.get("content")
    if recorded is None or force:
        return
    if recorded != (content or fingerprint(folder)):
        raise SaveError(f"{path}: the game's content has changed since this game was saved "
                        f"(its manifest, rules and cards in {display_folder(folder)}; saved "
                        f"with Ludex {saved.get('ludex', '?')}): replaying its decisions "
                        "would play a different game; use --force to replay it anyway")


def display_folder(folder: Path) -> str:
    """A game folder as a message names it: a bundled game by its id, any other by its path."""
    return discover(folder).game_id if is_bundled(folder) else str(folder)


def replay_save(definition, start: dict, saved: dict, path: Path):
    """Rebuild a saved game by replaying its decisions; a decision that no longer applies is
    a SaveError naming the file and the decision's number."""
    from .engine import Game
    from .errors import LudexError

    try:
        game = Game(definition, start, players=saved["players"],
                    settings=saved.get("settings"), seed=saved["seed"])
    except LudexError as exc:
        raise SaveError(f"{path}: {exc.diagnostics[0].message}") from None
    for number, answer in enumerate(saved["decisions"], 1):
        try:
            game.apply(answer)
        except (LudexError, TypeError, ValueError, KeyError) as exc:
            reason = _reason(exc.diagnostics[0]) if isinstance(exc, LudexError) else \
                f"{type(exc).__name__}"
            shown = json.dumps(answer, ensure_ascii=False)[:80]
            raise SaveError(f"{path}: decision {number} ({shown}) cannot be replayed: "
                            f"{reason}") from None
    return game


def _reason(diagnostic) -> str:
    """Why a decision cannot be replayed: the message, after the place in content it comes
    from when there is one (a rule's file and line; not the engine's own `<engine>`)."""
    if diagnostic.file.startswith("<"):
        return diagnostic.message
    return f"{diagnostic.file}:{diagnostic.line}:{diagnostic.col}: {diagnostic.message}"
