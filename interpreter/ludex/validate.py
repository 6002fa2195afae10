"""`ludex validate` as a library call: from paths to a sorted list of diagnostics.

A path may be a bundled game's id, a game folder (the whole game and its scenarios), a folder
inside one (`cards/`: the whole game; `scenarios/`: those scenarios), a folder holding game
folders or scenario files anywhere below it, or single files. With no path, every bundled game
is checked. A single file is checked in the context of its game — found from where it sits, or
from its `$schema` modeline — standing in for the game's file of the same role, and only its own
problems are reported. Each file is checked once however the paths overlap; a path that holds no
content is a usage error, so a CI job that checks nothing fails.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from . import loading, schemas
from .content import LoadedGame
from .errors import Collector, Diagnostic, sorted_diagnostics
from .folders import (
    GameFiles,
    UnknownGame,
    classify,
    discover,
    find_game,
    game_folder_of,
    is_game_folder,
    looks_like_scenario,
)
from .resources import bundled_games, display_path, games_dir
from .rootcause import fold_at_traps

_SKIPPED_FOLDERS = {"node_modules", "__pycache__", "site-packages", "schemas"}


class UsageError(Exception):
    """A request that names no valid target (exit code 2)."""


@dataclass
class Report:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    games: list[LoadedGame] = field(default_factory=list)
    files_checked: int = 0

    def source_lines(self, path: str) -> list[str] | None:
        from .yamlio import source_lines

        return source_lines(path)


def check_game(files: GameFiles, validators: schemas.Validators | None = None,
               play: bool = False) -> tuple[LoadedGame, list[Diagnostic]]:
    """Load, schema-check and semantically check one game, compiling every effect and
    condition (names resolved, syntax checked): once while its files stay unchanged.
    `play=True` when the same process plays the game next (`ludex check`): its definition
    is then compiled for play at once (loading.check)."""
    checked = loading.check(files, validators, play)
    return checked.game, list(checked.diagnostics)


@dataclass
class _Targets:
    """What a validate run will check, each file once: whole games (by folder) and single
    files (by path) with the kind and game folder they are checked as."""

    games: dict[Path, None] = field(default_factory=dict)
    files: dict[Path, tuple[Path, str | None, Path | None]] = field(default_factory=dict)

    def add_game(self, folder: Path) -> None:
        self.games[Path(folder).resolve()] = None
        scenarios = Path(folder) / "scenarios"
        if scenarios.is_dir():
            for path in sorted(scenarios.rglob("*.yaml")):
                self.add_file(path, "scenario", None)

    def add_file(self, path: Path, kind: str | None, folder: Path | None) -> None:
        self.files.setdefault(path.resolve(), (path, kind, folder))


def validate_paths(paths: list[str | Path], kind: str | None = None,
                   game: str | Path | None = None) -> Report:
    """Check `paths`; `kind` and `game` (an id or a folder) say what single files are when
    their place or their modeline does not."""
    if kind is not None and kind not in schemas.KINDS:
        raise UsageError(f"unknown kind `{kind}` (one of {', '.join(schemas.KINDS)})")
    forced_game = _game_argument(game) if game is not None else None
    targets = _Targets()
    if not paths:
        for game_id in bundled_games():
            targets.add_game(games_dir() / game_id)
    for raw in paths:
        _gather(Path(raw), str(raw), targets, kind, forced_game)
    report = Report()
    validators = schemas.Validators()
    for folder in targets.games:
        _whole_game(discover(folder), report, validators)
    named: dict = {}  # the games the scenarios name, each loaded once
    for path, file_kind, folder in targets.files.values():
        found_kind, found_folder = classify(path)
        file_kind, folder = file_kind or found_kind, folder or found_folder
        if file_kind != "scenario" and folder is not None and folder.resolve() in targets.games:
            continue  # checked with its whole game already
        _single_file(path, file_kind, folder, report, validators, named)
    # A game's own errors also reach every scenario that loads it: each is reported once.
    unique = {(d.file, d.line, d.col, d.code, d.message): d for d in report.diagnostics}
    report.diagnostics = sorted_diagnostics(unique.values())
    return report


def _game_argument(game: str | Path) -> Path:
    try:
        return find_game(game)
    except UnknownGame as exc:
        raise UsageError(str(exc)) from None


def _gather(path: Path, raw: str, targets: _Targets, kind: str | None,
            forced_game: Path | None) -> None:
    if not path.exists():
        if raw in bundled_games():
            targets.add_game(games_dir() / raw)
            return
        raise UsageError(f"no such file or folder: {raw}")
    if path.is_file():
        targets.add_file(path, kind, forced_game)
        return
    before = (len(targets.games), len(targets.files))
    owner = game_folder_of(path)
    if owner is not None:
        inside = path.resolve().relative_to(owner).parts
        if inside[:1] == ("scenarios",):
            for scenario in sorted(path.rglob("*.yaml")):
                targets.add_file(scenario, "scenario", None)
        else:
            targets.add_game(owner)
    else:
        _walk(path, targets)
    if (len(targets.games), len(targets.files)) == before and not _already_counted(path, targets):
        raise UsageError(f"{raw}: no game folder ({'game.yaml'}) or scenario file found here")


def _already_counted(path: Path, targets: _Targets) -> bool:
    """A folder whose content an earlier path already added is not empty."""
    resolved = path.resolve()
    return any(folder == resolved or resolved in folder.parents or folder in resolved.parents
               for folder in targets.games) or any(
        resolved in p.parents for p in targets.files)


def _walk(root: Path, targets: _Targets) -> None:
    """Every game folder below `root` (not descending into one) and every scenario file."""
    for folder, dirs, names in os.walk(root):
        here = Path(folder)
        if is_game_folder(here):
            targets.add_game(here)
            dirs[:] = []
            continue
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIPPED_FOLDERS)
        for name in sorted(names):
            if name.endswith((".yaml", ".yml")):
                path = here / name
                if classify(path)[0] == "scenario":
                    targets.add_file(path, "scenario", None)


def _whole_game(files: GameFiles, report: Report, validators: schemas.Validators) -> None:
    game, diagnostics = check_game(files, validators)
    report.games.append(game)
    report.files_checked += len(files.all_paths())
    report.diagnostics.extend(diagnostics)


def scenario_diagnostics(path: Path, games: dict | None = None) -> list:
    """What is wrong with one scenario file as written (its schema, its effects and
    expectations), sorted; the file is kept loaded for a run that follows. `games`: the games
    scenarios checked before named (scenario.check_scenario)."""
    errors = Collector()
    loaded = loading.scenario_file(display_path(path))  # named as the game's files are
    errors.extend(loaded.diagnostics)
    if loaded.doc is not None and loaded.schema_clean:
        from .scenario import check_scenario

        check_scenario(loaded.doc, errors, games)
    loading.remember(loaded)
    return fold_at_traps(errors.sorted())


def _single_file(path: Path, kind: str | None, folder: Path | None, report: Report,
                 validators: schemas.Validators, named: dict | None = None) -> None:
    if kind is None and looks_like_scenario(path):  # a file named on its own, read as
        kind = "scenario"  # `ludex test` reads it: a mapping with `game:` and `run:`
    if kind is None:
        raise UsageError(f"{path}: cannot tell what kind of file this is; put it in a game "
                         "folder, or start it with a `# yaml-language-server: $schema=…` line")
    report.files_checked += 1
    if kind == "scenario":
        report.diagnostics.extend(scenario_diagnostics(path, named))
        return
    if folder is None:
        raise UsageError(f"{path}: cannot tell which game this file belongs to; put it in a "
                         "game folder or name the game with --game")
    files = discover(folder)
    files.overlay(path, kind)
    _, diagnostics = check_game(files, validators)
    target = str(path)
    report.diagnostics.extend(d for d in diagnostics if d.file == target)
