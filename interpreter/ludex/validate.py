"""`ludex validate` as a library call: from paths to a sorted list of diagnostics.

A path may be nothing (every bundled game), a game's folder (`rules/<game>` or
`cards/<game>`), a content root holding `rules/` and `cards/`, or single files. A single file is
checked in the context of its game — found from where it sits, or from its `$schema` modeline —
standing in for the game's file of the same role, and only its own problems are reported.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from . import checks, schemas
from .content import GameFiles, LoadedGame, classify, discover, load_game
from .errors import Collector, Diagnostic
from .gamedef import build_definition
from .resources import bundled_games, cards_dir, rules_dir
from .yamlio import load_file


class UsageError(Exception):
    """A request that names no valid target (exit code 2)."""


@dataclass
class Report:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    games: list[LoadedGame] = field(default_factory=list)
    files_checked: int = 0

    def source_lines(self, path: str) -> list[str] | None:
        try:
            return Path(path).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            return None


def check_game(files: GameFiles, validators: schemas.Validators | None = None
               ) -> tuple[LoadedGame, list[Diagnostic]]:
    """Load, schema-check and semantically check one game."""
    errors = Collector()
    game = load_game(files, errors, validators or schemas.Validators())
    if game.docs.get("game") is not None:
        checks.run_all(game, errors)
        _compile_effects(game, errors)
    return game, errors.sorted()


def _compile_effects(game: LoadedGame, errors: Collector) -> None:
    """Every effect and condition compiles (names resolved, syntax checked)."""
    build_definition(game, errors)


def validate_paths(paths: list[str | Path], kind: str | None = None,
                   game_id: str | None = None) -> Report:
    """Check `paths`; `kind` and `game_id` say what single files are when their place or their
    modeline does not."""
    if kind is not None and kind not in schemas.KINDS:
        raise UsageError(f"unknown kind `{kind}` (one of {', '.join(schemas.KINDS)})")
    if game_id is not None and game_id not in bundled_games():
        raise UsageError(f"unknown game `{game_id}` (bundled: {', '.join(bundled_games())})")
    report = Report()
    validators = schemas.Validators()
    if not paths:
        for game_id in bundled_games():
            _whole_game(discover(game_id), report, validators)
        return report
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            raise UsageError(f"no such file or folder: {raw}")
        if path.is_dir():
            for files in _games_in(path):
                _whole_game(files, report, validators)
            for scenario in _scenarios_in(path):
                _single_file(scenario, report, validators)
        else:
            _single_file(path, report, validators, kind, game_id)
    report.diagnostics.sort()
    return report


def _whole_game(files: GameFiles, report: Report, validators: schemas.Validators) -> None:
    game, diagnostics = check_game(files, validators)
    report.games.append(game)
    report.files_checked += len(files.all_paths())
    report.diagnostics.extend(diagnostics)


def _games_in(path: Path) -> list[GameFiles]:
    if (path / "game.yaml").is_file():
        return [discover(path.name, rules_root=path.parent,
                         cards_root=path.parent.parent / "cards")]
    if path.parent.name == "cards" and (path.parent.parent / "rules" / path.name).is_dir():
        return [discover(path.name, rules_root=path.parent.parent / "rules",
                         cards_root=path.parent)]
    if (path / "rules").is_dir():
        return [discover(p.name, rules_root=path / "rules", cards_root=path / "cards")
                for p in sorted((path / "rules").iterdir()) if (p / "game.yaml").is_file()]
    return []


def _scenarios_in(path: Path) -> list[Path]:
    if (path / "rules").is_dir() or (path / "game.yaml").is_file():
        return []
    return sorted(p for p in path.rglob("*.yaml") if classify(p)[0] == "scenario")


def _single_file(path: Path, report: Report, validators: schemas.Validators,
                 kind: str | None = None, game_id: str | None = None) -> None:
    found_kind, found_game = classify(path)
    kind, game_id = kind or found_kind, game_id or found_game
    if kind is None:
        raise UsageError(f"{path}: cannot tell what kind of file this is; put it under rules/ or "
                         "cards/, or start it with a `# yaml-language-server: $schema=…` line")
    report.files_checked += 1
    if kind == "scenario":
        errors = Collector()
        doc = load_file(path, errors)
        if doc is not None and schemas.validate(doc, validators.get("scenario"), errors):
            from .scenario import check_scenario

            check_scenario(doc, errors)
        report.diagnostics.extend(errors.sorted())
        return
    files = _owning_game(path, game_id)
    files.overlay(path, kind)
    _, diagnostics = check_game(files, validators)
    target = str(path)
    report.diagnostics.extend(d for d in diagnostics if d.file == target)


def _owning_game(path: Path, game_id: str | None) -> GameFiles:
    parts = path.resolve().parts
    for top in ("rules", "cards"):
        if top in parts:
            root = Path(*parts[: parts.index(top)])
            if game_id and (root / "rules" / game_id / "game.yaml").is_file():
                return discover(game_id, root / "rules", root / "cards")
    if game_id and (rules_dir() / game_id / "game.yaml").is_file():
        return discover(game_id, rules_dir(), cards_dir())
    raise UsageError(f"{path}: cannot tell which game this file belongs to "
                     f"(bundled games: {', '.join(bundled_games())})")
