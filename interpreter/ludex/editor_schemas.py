"""A game's editor schemas: the JSON Schemas written into its folder (`schemas/`), with its
declared attributes and its ids as `enum`s, and the modelines that point each file at them.

Editors (VS Code's YAML extension, JetBrains, Neovim with yaml-language-server) read the first
line `# yaml-language-server: $schema=<relative path>`; so do `check-jsonschema` users who pass
the same file. The schemas are generated, not edited: `ludex schema GAME --export` rewrites them
after the game's ids or attributes change.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from . import memory_types, schemas
from .content import LoadedGame, load_game
from .errors import Collector
from .folders import GameFiles, classify, discover

_MODELINE = re.compile(r"^#\s*yaml-language-server:\s*\$schema=\S+[ \t]*\n?")


def generated(game: LoadedGame) -> dict[str, dict]:
    """kind -> the editor schema of that kind for `game`."""
    attributes, names = game.attributes(), listed_names(game)
    return {kind: schemas.editor_schema(kind, game.game_id, attributes.get(kind) or {}, names)
            for kind in schemas.KINDS}


def listed_names(game: LoadedGame) -> dict[str, list[str]]:
    """namespace -> the ids an editor offers: the game's ids of each kind, its cards as a
    scenario names them (`card_instance`: `name#2` for copy 2 of a card printed in several
    copies), and the types its `memory` may have."""
    names = {namespace: list(table) for namespace, table in game.names.items()}
    instances = game.card_instances()
    # past a few thousand an editor's list helps nobody: the id's pattern stays instead (a
    # list cut short would underline the copies it left out)
    names["card_instance"] = instances if len(instances) <= MAX_LISTED_CARDS else []
    # the types a memory may be declared with: the plain ones and the game's own enums
    names["memory_type"] = memory_types.type_names(game.manifest)
    return names


MAX_LISTED_CARDS = 5_000


def load(files: GameFiles) -> LoadedGame:
    """The game as far as it loads: a broken file still leaves the others' ids to list."""
    return load_game(files, Collector(), schemas.Validators())


def export(files: GameFiles, directory: Path | None = None) -> list[Path]:
    """Write the game's editor schemas (default: its `schemas/` folder); the files written.
    A file that does not read is refused (LudexError): the ids it defines would drop out of
    the schemas, and editors would stop completing them without a word."""
    from .errors import LudexError, unread

    errors = Collector()
    game = load_game(files, errors, schemas.Validators())
    if unread(errors.sorted()):
        raise LudexError(unread(errors.sorted()))
    target = Path(directory) if directory is not None else files.schemas
    return schemas.game_files(target, game.game_id, game.attributes(), listed_names(game))


def stale(files: GameFiles) -> list[str]:
    """Kinds whose schema in the game folder differs from what `export` would write."""
    import json

    out = []
    for kind, schema in generated(load(files)).items():
        path = files.schemas / f"{kind}.schema.json"
        try:
            current = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            current = None
        if current != schema:
            out.append(kind)
    return out


def modeline(path: Path, kind: str, folder: Path) -> str:
    """The modeline pointing `path` at its game's `kind` schema, as a relative path."""
    schema = Path(folder) / "schemas" / f"{kind}.schema.json"
    relative = os.path.relpath(schema, Path(path).parent).replace(os.sep, "/")
    return f"# yaml-language-server: $schema={relative}\n"


def exported_modeline(path: Path, kind: str, folder: Path) -> str:
    """`modeline`, when the game has its `kind` schema written (`ludex schema GAME --export`);
    else "": a line naming a schema that is not there is a dangling link, which an editor
    reports on the file's first line. The export writes the line into the game's files."""
    exists = (Path(folder) / "schemas" / f"{kind}.schema.json").is_file()
    return modeline(path, kind, folder) if exists else ""


def no_schema_note(folder: Path, kind: str) -> str:
    """What to say when a file of the game is written without a modeline (exported_modeline)."""
    from .resources import display_path

    shown = display_path(Path(folder))
    return (f"note: {shown} has no editor schemas (no schemas/{kind}.schema.json), so no "
            f"`# yaml-language-server` line was written: `ludex schema {shown} --export` "
            "writes them and points the game's files at them")


def set_modelines(files: GameFiles) -> list[Path]:
    """Point every content and scenario file of a game at the game's own schemas (replacing a
    modeline already there); the files changed."""
    changed = []
    scenarios = sorted(files.scenarios.rglob("*.yaml")) if files.scenarios.is_dir() else []
    for path in [*files.all_paths(), *scenarios]:
        kind = classify(path)[0]
        if kind is None or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        new = modeline(path, kind, files.folder) + _without_modeline(text.removeprefix("\ufeff"))
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(path)
    return changed


def _without_modeline(text: str) -> str:
    """The text without the modeline of its opening comment lines (an editor reads it on the
    first line; one further down, below another comment, is replaced all the same)."""
    lines = text.splitlines(keepends=True)
    for number, line in enumerate(lines):
        if _MODELINE.match(line):
            return "".join(lines[:number] + lines[number + 1:])
        if line.strip() and not line.lstrip().startswith("#"):
            break  # past the opening comments: a modeline below is no modeline
    return text


def refresh(folder: Path) -> list[Path]:
    """Export a game folder's schemas and point its files at them."""
    files = discover(folder)
    return export(files) + set_modelines(files)
