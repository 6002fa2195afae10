"""The game folder: one layout for bundled games and for games kept anywhere.

```
<game>/game.yaml                          the manifest (its presence makes a folder a game)
<game>/map.yaml tables.yaml procedures.yaml clauses.yaml     optional rule files
<game>/cards/*.yaml                       card sets
<game>/locale/<lang>.yaml                 rule texts, messages, names
<game>/cards/locale/<lang>.yaml           card names and texts
<game>/scenarios/**/*.yaml                scenario files
<game>/schemas/<kind>.schema.json         the game's editor schemas (`ludex schema GAME --export`)
```

This module answers three questions: which files make up a game (`discover`), which folder a
GAME argument or a scenario's `game:` names (`find_game`), and what role a single file plays
(`classify`). Loading and checking the files is `content.py`'s job.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from .resources import bundled_games, display_path, games_dir
from .yamlio import read_head

MANIFEST = "game.yaml"
RULE_FILES = ("map", "tables", "procedures", "clauses")
KINDS = ("game", *RULE_FILES, "cards", "locale", "scenario")
_MODELINE = re.compile(r"#\s*yaml-language-server:\s*\$schema=(\S+)")
_TOP_ID = re.compile(r"^id:\s*['\"]?([A-Za-z0-9_]+)", re.MULTILINE)
_GAME_LINE = re.compile(r"^game:\s*['\"]?([^'\"#\s]+)", re.MULTILINE)


class UnknownGame(LookupError):
    """A GAME argument or a scenario's `game:` that names no game."""


@dataclass
class GameFiles:
    """The paths that make up one game."""

    game_id: str
    folder: Path
    manifest: Path
    rules: dict[str, Path] = field(default_factory=dict)  # map / tables / procedures / clauses
    cards: list[Path] = field(default_factory=list)
    locales: list[Path] = field(default_factory=list)
    unreadable: list[tuple[Path, str]] = field(default_factory=list)  # folders, and why

    @property
    def scenarios(self) -> Path:
        return self.folder / "scenarios"

    @property
    def schemas(self) -> Path:
        return self.folder / "schemas"

    @property
    def bundled(self) -> bool:
        return is_bundled(self.folder)

    def overlay(self, path: Path, kind: str) -> None:
        """Put `path` in place of the file of the same role (or add it, for cards/locales)."""
        path = Path(path)
        if kind == "game":
            self.manifest = path
        elif kind in RULE_FILES:
            self.rules[kind] = path
        elif kind == "cards":
            self.cards = [p for p in self.cards if p.stem != path.stem] + [path]
        elif kind == "locale":
            same = [p for p in self.locales if p.stem == path.stem
                    and _locale_side(p) == _locale_side(path)]
            self.locales = [p for p in self.locales if p not in same] + [path]

    def all_paths(self) -> list[Path]:
        return [self.manifest, *self.rules.values(), *self.cards, *self.locales]

    def copy(self) -> GameFiles:
        """A copy the caller may `overlay` without changing this one."""
        return GameFiles(self.game_id, self.folder, self.manifest, dict(self.rules),
                         list(self.cards), list(self.locales), list(self.unreadable))


def _locale_side(path: Path) -> str:
    return "cards" if path.parent.parent.name == "cards" else "rules"


# folder as named, working directory -> (the layout's stamps, what `discover` found): a test
# run looks its game up once per scenario, and a lookup is some thirty calls to the system
_discovered: dict[tuple[str, str], tuple[tuple, GameFiles]] = {}
_DISCOVERED_KEPT = 64
_SETTLED_NS = 2_000_000_000


def discover(folder: Path) -> GameFiles:
    """The files of the game in `folder`, laid out as this module's docstring shows. Found
    again only when the folders' listings or the manifest changed since the last time."""
    try:
        key = (os.fspath(folder), os.getcwd())
    except OSError:  # the working directory is gone: nothing to key on
        return _discover(folder)
    stamps = _layout_stamps(key[0])
    known = _discovered.get(key)
    if known is not None and stamps is not None and known[0] == stamps:
        return known[1].copy()
    files = _discover(folder)
    if stamps is not None:
        if len(_discovered) >= _DISCOVERED_KEPT:
            _discovered.clear()
        _discovered[key] = (stamps, files.copy())
    return files


def _layout_stamps(folder: str) -> tuple | None:
    """What changes when a file is added to, removed from or renamed in a game's folders,
    or its manifest (its `id:`) is written: their modification and change times and inodes
    (None: a folder missing). None when one cannot be told, or when one changed in the last
    seconds: a file's times tick coarsely (a few milliseconds), so a second change within
    the same tick would leave them as they were — only a layout that has stood still for
    longer is kept."""
    recent = time.time_ns() - _SETTLED_NS
    stamps = []
    # the rule files too: one may be a link whose target comes and goes, which changes no
    # folder above
    paths = (folder, os.path.join(folder, "cards"), os.path.join(folder, "locale"),
             os.path.join(folder, "cards", "locale"), os.path.join(folder, MANIFEST),
             *(os.path.join(folder, f"{kind}.yaml") for kind in RULE_FILES))
    for path in paths:
        try:
            info = os.stat(path)
        except FileNotFoundError:
            stamps.append(None)
            continue
        except (OSError, ValueError):
            return None
        # ctime as well: copying tools put a folder's mtime back (`cp -p`, `tar x`)
        if max(info.st_mtime_ns, info.st_ctime_ns) > recent:
            return None
        stamps.append((info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_size))
    return tuple(stamps)


def _discover(folder: Path) -> GameFiles:
    folder = display_path(Path(folder))
    files = GameFiles(manifest_id(folder) or folder.name, folder, folder / MANIFEST)
    for kind in RULE_FILES:
        if (folder / f"{kind}.yaml").is_file():
            files.rules[kind] = folder / f"{kind}.yaml"
    files.cards = _yaml_files(folder / "cards", files.unreadable)
    files.locales = _yaml_files(folder / "locale", files.unreadable) + _yaml_files(
        folder / "cards" / "locale", files.unreadable)
    return files


def _yaml_files(folder: Path, unreadable: list[tuple[Path, str]]) -> list[Path]:
    """The `*.yaml` files of a folder, sorted; none when it does not exist. A folder that is
    there but cannot be listed (no permission, a link loop, a file in its place) is noted in
    `unreadable`: skipping it would leave only the misleading errors its absence causes."""
    if not os.path.lexists(folder):
        return []
    try:
        with os.scandir(folder) as entries:
            names = [entry.name for entry in entries if entry.name.endswith(".yaml")]
    except OSError as exc:
        unreadable.append((folder, exc.strerror or str(exc)))
        return []
    return sorted(folder / name for name in names)


def is_game_folder(path: Path) -> bool:
    try:
        return (Path(path) / MANIFEST).is_file()
    except OSError:  # a name the system refuses (too long, say): no game there
        return False


def is_bundled(folder: Path) -> bool:
    return Path(folder).resolve().parent == games_dir().resolve()


def manifest_id(folder: Path) -> str | None:
    """The `id:` a game's manifest declares, read from its text (no full load needed)."""
    text = read_head(Path(folder) / MANIFEST, 20_000)
    if text is None:
        return None
    found = _TOP_ID.search(text)
    return found.group(1) if found else None


def _looks_like_path(ref: str) -> bool:
    return "/" in ref or "\\" in ref or ref.startswith(".")


def find_game(ref: str | Path, near: Path | None = None) -> Path:
    """The folder of the game `ref` names: a path to a game folder (relative to `near`, a
    folder, when given; else to the working directory), or a game id — looked up in the
    folders around `near` (the folder itself or one above it, `<id>/` or `games/<id>/` beside
    them), then among the bundled games."""
    text = str(ref)
    base = Path(near) if near is not None else Path.cwd()
    candidate = Path(text) if Path(text).is_absolute() else base / text
    if _looks_like_path(text) or is_game_folder(candidate):
        if is_game_folder(candidate):
            return display_path(candidate)
        if _is_dir(candidate):
            raise UnknownGame(f"`{text}` is a folder without a {MANIFEST}: not a game folder")
        raise UnknownGame(f"no game folder `{text}`" + (f" (looked in {display_path(base)})"
                                                         if near is not None else ""))
    if near is not None:
        found = _game_near(text, Path(near).resolve())
        if found is not None:
            return display_path(found)
    if text in bundled_games():
        return display_path(games_dir() / text)
    raise UnknownGame(f"unknown game `{text}`: not a bundled game "
                      f"({', '.join(bundled_games())}) and not a folder holding a {MANIFEST}")


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:
        return False


def _game_near(game_id: str, near: Path) -> Path | None:
    for folder in (near, *near.parents):
        if is_game_folder(folder) and manifest_id(folder) == game_id:
            return folder
        for candidate in (folder / game_id, folder / "games" / game_id):
            if is_game_folder(candidate):
                return candidate
    return None


def game_folder_of(path: Path) -> Path | None:
    """The game folder a file or folder lies in (the nearest one holding a manifest)."""
    path = Path(path).resolve()
    for folder in (path if path.is_dir() else path.parent, *path.parents):
        if is_game_folder(folder):
            return folder
    return None


def classify(path: Path) -> tuple[str | None, Path | None]:
    """(kind, game folder) of a single file, from where it sits in a game folder or from its
    `$schema` modeline. A scenario's game is the one its `game:` names."""
    path = Path(path)
    folder = game_folder_of(path)
    kind = _kind_by_place(path.resolve(), folder) if folder is not None else None
    head = read_head(path, 2000)
    if head is None:
        return kind, folder
    match = _MODELINE.search(head)
    if match:
        name = match.group(1).rsplit("/", 1)[-1].removesuffix(".schema.json")
        if name in KINDS:
            kind = name
    if kind == "scenario":
        named = _GAME_LINE.search(head)
        try:
            folder = find_game(named.group(1), path.parent) if named else None
        except UnknownGame:
            folder = None
    return kind, folder


_SCENARIO_MODELINE = re.compile(r"^#\s*yaml-language-server:\s*\$schema=\S*scenario\.schema\.json")


def declares_scenario(path: Path) -> bool:
    """Whether a YAML file is a scenario by where it lies (a game folder's `scenarios/`) or by
    its first line (a modeline naming the scenario schema) — never by guessing."""
    path = Path(path)
    # where the file lies, a link's own place (a link to a file elsewhere, or a broken one,
    # lies in the game's scenarios/ all the same)
    placed = path.parent.resolve() / path.name
    folder = game_folder_of(placed.parent)
    if folder is not None and placed.relative_to(folder).parts[:1] == ("scenarios",):
        return True
    head = read_head(path, 400)
    return head is not None and bool(_SCENARIO_MODELINE.match(head))


def looks_like_scenario(path: Path) -> bool:
    """`declares_scenario`, or a mapping with top-level `game:` and `run:` keys: how a folder
    named on the command line is searched for scenarios."""
    if declares_scenario(path):
        return True
    head = read_head(path, 20_000)
    if head is None:
        return False
    return bool(_GAME_LINE.search(head)) and re.search(r"^run:", head, re.MULTILINE) is not None


def _kind_by_place(path: Path, folder: Path) -> str | None:
    parts = path.relative_to(folder).parts
    if parts == (MANIFEST,):
        return "game"
    if parts[0] == "scenarios":
        return "scenario"
    if len(parts) >= 2 and parts[-2] == "locale":
        return "locale"
    if len(parts) == 2 and parts[0] == "cards":
        return "cards"
    if len(parts) == 1 and path.stem in RULE_FILES:
        return path.stem
    return None
