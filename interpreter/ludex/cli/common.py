"""What the commands share: exit codes, JSON output, finding games and scenarios, checking
options against a game, source lines for diagnostics, text padded to terminal columns."""

from __future__ import annotations

import contextlib
import errno
import json
from pathlib import Path

import click

from ..errors import display_width

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
EXIT_INTERRUPTED = 130  # Ctrl-C, as shells report a process ended by SIGINT


def emit_json(payload: dict) -> None:
    click.echo(json.dumps(payload, ensure_ascii=False, indent=2))



def count(n: int, noun: str) -> str:
    return f"{n or 'no'} {noun}{'' if n == 1 else 's'}"


def ljust(text: object, width: int) -> str:
    """`text` padded on the right to `width` terminal columns, as a table's column is: a
    full-width character (`赤の商人`) takes two, a combining mark or a direction mark none
    (`str.ljust` counts characters, and the numbers after a Japanese name sat 4 columns
    off)."""
    text = str(text)
    return text + " " * (width - display_width(text))


def rjust(text: object, width: int) -> str:
    """`text` padded on the left to `width` terminal columns (a number's column)."""
    text = str(text)
    return " " * (width - display_width(text)) + text



def scenario_paths(paths: tuple[Path, ...]) -> list[Path]:
    """Scenario files and folders named by `paths`: a game (id or folder) stands for its
    `scenarios/` folder; no paths, for every bundled game's."""
    from ..folders import is_game_folder

    if not paths:
        return [folder / "scenarios" for folder in game_folders(())
                if (folder / "scenarios").is_dir()]
    found = []
    for path in paths:
        if path.exists() and not is_game_folder(path):
            found.append(path)
            continue
        folder = game_or_missing_file(str(path), "PATHS")
        if (folder / "scenarios").is_dir():
            found.append(folder / "scenarios")
    return found


def game_or_missing_file(ref: str, param_hint: str) -> Path:
    """The game folder a path that does not exist names (a bundled id); a YAML file's name is
    no game's, and one that is missing is a usage error that says so (it said "no game
    folder `scenarios/missing.yaml`")."""
    if Path(ref).suffix.lower() in (".yaml", ".yml"):
        raise click.BadParameter(f"file `{ref}` does not exist", param_hint=param_hint)
    return game_folder(ref)


def game_folder(ref: str) -> Path:
    """The game folder a GAME argument names (a bundled id or a path), or a usage error."""
    from ..folders import UnknownGame, find_game

    try:
        return find_game(ref)
    except UnknownGame as exc:
        raise click.BadParameter(str(exc), param_hint="GAME") from None


def check_own_game(folder: Path, instead: str) -> None:
    """A game that lies inside the installed package (a bundled game of a wheel) is not the
    person's to change: its files belong to pip, are replaced by the next upgrade and are often
    read-only. A usage error that says so and what to do `instead`."""
    from ..folders import manifest_id
    from ..resources import inside_package

    if inside_package(folder):
        raise click.UsageError(f"{manifest_id(folder) or Path(folder).name} is a game "
                               f"installed with Ludex ({Path(folder).resolve()}): its files are "
                               f"not yours to change (the next upgrade replaces them); {instead}")


def game_folders(refs: tuple[str, ...]) -> list[Path]:
    """The folders of GAME arguments; every bundled game when none is given."""
    from ..resources import bundled_games, games_dir

    if not refs:
        return [games_dir() / game_id for game_id in bundled_games()]
    return [game_folder(ref) for ref in refs]



def check_language(definition, lang: str | None) -> str:
    """`lang`, or the game's primary language; a language the game lacks is a usage error."""
    if lang is None:
        return definition.language
    if lang not in definition.languages:
        raise click.BadParameter(f"{definition.game_id} has no `{lang}` locale (it has: "
                                 f"{', '.join(definition.languages)})", param_hint="--lang")
    return lang


def check_players(definition, players: int | None) -> None:
    seats = definition.manifest["seats"]
    if players is not None and str(players) not in seats:
        from ..state import player_counts

        raise click.BadParameter(f"{definition.game_id} is played by {player_counts(seats)} "
                                 "players",
                                 param_hint="--players")



def check_output(path: Path, option: str = "--out", reads: tuple[Path | None, ...] = (),
                 scenarios: bool = False) -> None:
    """A file a command will write (given by `option`) must be writable before any work is
    done, and neither a file the command reads (`reads`), a saved game (writing a scenario or
    a drawing over it would lose the game) nor a file of a game (refuse_game_file;
    `scenarios`: but a scenario)."""
    from ..saves import check_writable, looks_like_save

    for source in reads:
        if source is not None and path.exists() and source.exists() and path.samefile(source):
            raise click.BadParameter(f"{path} is the file this command reads: writing there "
                                     "would overwrite it", param_hint=option)
    if path.is_file() and looks_like_save(path):
        raise click.BadParameter(f"{path} is a saved game: writing there would lose it; choose "
                                 "another file", param_hint=option)
    refuse_game_file(path, option, scenarios)
    with writing(option):
        check_writable(path)


# the files that make a game: writing a save, a report or a drawing over one destroys it
_GAME_FILE_KINDS = ("game", "map", "tables", "procedures", "clauses", "cards", "locale")


def refuse_game_file(path: Path, option: str, scenarios: bool = False) -> None:
    """A command's output may not be one of a game's own files (`--save imp/game.yaml` wrote
    a save over the manifest), its editor schemas (`schemas/*.json`) nor, unless `scenarios`
    (`dump`, which writes scenarios), one of its scenarios."""
    from ..folders import classify, game_folder_of
    from ..saves import looks_like_save

    if not path.is_file():
        return
    kind, folder = classify(path)
    what = None
    if kind in _GAME_FILE_KINDS and folder is not None:
        what = "manifest" if kind == "game" else f"{kind} file"
    elif kind == "scenario" and not scenarios and not looks_like_save(path):
        # (a save kept among the scenarios is what `play --save` may replace)
        folder, what = folder or game_folder_of(path), "scenario"
    else:
        home = game_folder_of(path)
        if home is not None and path.resolve().relative_to(home).parts[0] == "schemas":
            folder, what = home, "editor schema"
    if what is not None:
        whose = (f"one of the files of the game in {folder} (its {what})" if folder is not None
                 else f"a {what}")  # a scenario outside any game, of a game not found
        raise click.BadParameter(f"{path} is {whose}: writing there would destroy it; choose "
                                 "another file", param_hint=option)


def check_output_folder(path: Path, option: str, written: bool = True) -> None:
    """A folder a command will write into (given by `option`) must be writable, or makeable
    when missing, before any work is done (`written=False`: an existing one may be read-only,
    as long as a missing one can be made)."""
    from ..saves import check_folder

    with writing(option):
        check_folder(path, written=written)


# What the system says when the disk, not the place chosen, failed a write: the command's
# arguments were right, and the same command may work once room is made
DEVICE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EFBIG})


class WriteFailed(click.ClickException):
    """A write the disk failed (full, over quota, failing): `Error: …`, exit 1, with no usage
    line — the person's arguments were not the trouble."""

    exit_code = EXIT_FAILED


@contextlib.contextmanager
def writing(option: str | None = None, path: Path | None = None):
    """Around a command's writes: a file or folder it cannot write (read-only, a file in the
    way) is a usage error naming it and `option` (the argument that chose it; none when it is
    the game's own file), exit 2, as check_output's refusals are; a disk that fails the write
    (full, over quota, an I/O error) is WriteFailed, exit 1 — never an internal error. `path`
    names the file when the error does not."""
    from ..saves import SaveError, WriteError, write_errors

    try:
        with write_errors(path):
            yield
    except WriteError as exc:
        if exc.errno in DEVICE_ERRNOS:
            raise WriteFailed(str(exc)) from None
        raise _refused(exc, option) from None
    except SaveError as exc:
        raise _refused(exc, option) from None


def _refused(exc: Exception, option: str | None) -> click.UsageError:
    if option is None:
        return click.UsageError(str(exc))
    return click.BadParameter(str(exc), param_hint=option)


def source_lines(path: str) -> list[str] | None:
    from ..yamlio import source_lines as lines_of

    return lines_of(path)



def check_workers(workers: int) -> None:
    """Local worker processes: at most four per core. Each loads the game and plays on its own;
    `--workers 100000` forked thousands and took every byte of memory."""
    import os

    most = 4 * (os.cpu_count() or 1)
    if workers > most:
        raise click.BadParameter(f"{workers} worker processes on {os.cpu_count() or 1} cores; "
                                 f"give at most {most} (more only wait their turn)",
                                 param_hint="--workers")


def saved_game_folder(saved: dict, path: Path, param_hint: str = "SOURCE") -> Path:
    """The folder of a saved game's game: the one it names, else its id near the file."""
    from ..folders import UnknownGame, find_game

    try:
        if saved.get("game_folder"):
            return find_game(Path(saved["game_folder"]).as_posix() + "/", path.parent)
        return find_game(str(saved.get("game", "")), path.parent)
    except UnknownGame as exc:
        raise click.BadParameter(f"{path}: {exc}", param_hint=param_hint) from None
