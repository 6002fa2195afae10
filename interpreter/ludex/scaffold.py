"""`ludex init`: a new game folder from the starter template, ready to check, play and extend;
or, with `--example`, a copy of an example game (the tutorial's) or of a bundled one.

The starter (`templates/starter/`) is a small complete game — manifest, cards with events, a
phase with an action window, an English locale, rule clauses and scenarios covering them — that
passes `ludex check` as it is. Around it come the files of a content repository
(`templates/repository/`: README, pre-commit hooks, a CI workflow), the game's editor schemas
and the modelines pointing at them.
"""

from __future__ import annotations

import re
import shutil
import unicodedata
from pathlib import Path

from . import editor_schemas

TEMPLATES = Path(__file__).resolve().parent / "templates"
_ID = re.compile(r"^[a-z][a-z0-9_]*$")
# the manifest schema's BCP 47 tags, in their common shapes: a language, a script, a region
_LANGUAGE = re.compile(r"^[a-z]{2,3}(-[A-Z][a-z]{3})?(-([A-Z]{2}|[0-9]{3}))?$")


class InitError(Exception):
    """A folder that cannot be made into a new game (exit code 2)."""


class UnknownExample(InitError):
    """An `--example` that names no example game."""


FALLBACK_ID = "my_game"  # a folder named without Latin letters or digits (`星の市`)


def game_id_for(folder: Path) -> str:
    """A valid game id from a folder name: `My Game-2` -> `my_game_2`; `my_game` when the
    name has no Latin letter or digit to make one from."""
    # letters with accents keep their letter (`ünï` -> `uni`, not `n`)
    plain = unicodedata.normalize("NFKD", folder.resolve().name.lower())
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    ident = re.sub(r"[^a-z0-9]+", "_", plain).strip("_")
    if not ident:
        return FALLBACK_ID
    return ident if ident[0].isalpha() else f"game_{ident}"


def id_made_from(folder: Path) -> bool:
    """Whether the folder's name gave the game its id (not the fallback `my_game`)."""
    return game_id_for(folder) != FALLBACK_ID or folder.resolve().name == FALLBACK_ID


def create(folder: Path, game_id: str | None = None, name: str | None = None,
           language: str = "en") -> list[Path]:
    """Write the starter game into `folder` (new or empty); returns the files written.
    `language`: the game's primary language — its locale files are named for it, holding the
    starter's English text to be written over."""
    folder = Path(folder)
    _check_empty(folder)
    if not _LANGUAGE.match(language):
        raise InitError(f"`{language}` is not a BCP 47 language tag (ja, tr, pt-BR, zh-Hant)")
    derived = game_id is None
    game_id = game_id or game_id_for(folder)
    if not _ID.match(game_id):
        raise InitError(f"`{game_id}` is not a valid game id (use lower-case letters, digits "
                        "and _; start with a letter)")
    if name is None:  # a folder whose name makes no id still names the game (`星の市`)
        unmade = derived and not id_made_from(folder)
        name = folder.resolve().name if unmade else game_id.replace("_", " ").capitalize()
    try:  # a path through a file, a name too long, a folder not ours to write
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copytree(TEMPLATES / "starter", folder, dirs_exist_ok=True)
        shutil.copytree(TEMPLATES / "repository", folder, dirs_exist_ok=True)
    except OSError as exc:
        raise InitError(f"cannot create {folder}: {(exc.strerror or str(exc)).lower()}") from None
    _substitute(folder / "game.yaml", "id: starter", f"id: {game_id}")
    _substitute(folder / "locale" / "en.yaml", "game: {name: Orchard}",
                f"game: {{name: {_quoted(name)}}}")
    _substitute(folder / "README.md", "{name}", name)
    if language != "en":
        _make_primary(folder, game_id, language)
    editor_schemas.refresh(folder)
    return sorted(p for p in folder.rglob("*") if p.is_file())


def examples() -> dict[str, Path]:
    """The games `--example` copies, by id: the examples kept outside the bundle (the
    tutorial's `fair_weather`), then the bundled games — a copy is a game of one's own to
    change, as the installed ones are not."""
    from .resources import examples_dir, games_dir

    found: dict[str, Path] = {}
    for base in (examples_dir(), games_dir()):
        if base.is_dir():
            for game in sorted(base.iterdir()):
                if (game / "game.yaml").is_file():
                    found.setdefault(game.name, game)
    return found


def copy_example(folder: Path, example: str) -> list[Path]:
    """Copy the example game `example` into `folder` (new or empty), as it is: its files,
    scenarios and editor schemas; returns the files written."""
    from .errors import did_you_mean

    known = examples()
    if example not in known:
        raise UnknownExample(f"no example `{example}`{did_you_mean(example, list(known))}; "
                             f"the examples are {', '.join(known)}")
    folder, origin = Path(folder), known[example]
    _check_empty(folder)
    written = []
    try:
        for source in sorted(origin.rglob("*")):
            parts = source.relative_to(origin).parts
            if not source.is_file() or any(p.startswith(".") or p == "__pycache__"
                                           for p in parts):
                continue
            target = folder.joinpath(*parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            # the bytes only, not the mode: a copy of files installed read-only is the
            # person's own to change
            shutil.copyfile(source, target)
            written.append(target)
    except OSError as exc:
        raise InitError(f"cannot create {folder}: {(exc.strerror or str(exc)).lower()}") from None
    return written


def _make_primary(folder: Path, game_id: str, language: str) -> None:
    """The starter in another primary language: the manifest says so, and each English locale
    file becomes that language's, its text still the starter's for the designer to write over
    (the scenarios' expected log lines follow the primary language's text)."""
    _substitute(folder / "game.yaml", f"id: {game_id}\n", f"id: {game_id}\nlanguage: {language}\n")
    for english in sorted(folder.rglob("locale/en.yaml")):
        text = english.read_text(encoding="utf-8").replace("lang: en", f"lang: {language}", 1)
        (english.parent / f"{language}.yaml").write_text(text, encoding="utf-8")
        english.unlink()
    clauses = folder / "clauses.yaml"
    _substitute(clauses, "locale/en.yaml", f"locale/{language}.yaml")


def _check_empty(folder: Path) -> None:
    """A new game goes into a new or empty folder: never over a person's files."""
    try:
        taken = folder.exists() and (not folder.is_dir() or any(folder.iterdir()))
    except OSError as exc:  # a name too long, a folder not ours to read
        raise InitError(f"cannot create {folder}: {(exc.strerror or str(exc)).lower()}") \
            from None
    if taken:
        raise InitError(f"{folder} already exists and is not an empty folder")


def _substitute(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _quoted(text: str) -> str:
    """A YAML flow scalar for a display name, quoted so that any name reads back as text."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
