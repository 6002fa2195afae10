"""`ludex schema`: print or export JSON Schemas."""

from __future__ import annotations

from pathlib import Path

import click

from .common import (
    check_output_folder,
    check_own_game,
    emit_json,
    game_folder,
    writing,
)


@click.command(name="schema")
@click.argument("args", nargs=-1, metavar="[GAME] [KIND]")
@click.option("--export", "export_dir", is_flag=False, flag_value="", default=None,
              metavar="[DIR]", help="Write the schemas: a game's into its schemas/ folder "
              "(or DIR), pointing its files' modelines there; without GAME, the base schemas "
              "into DIR.")
def schema_command(args: tuple[str, ...], export_dir: str | None) -> None:
    """Print a JSON Schema, or export a game's schemas for editors.

    A game's schemas add its declared attributes and list its ids (powers, spaces, zones,
    counters, procedures…) as enums, so an editor completes them.

    \b
    Examples:
      ludex schema cards                   the base schema of card files
      ludex schema my_game/ cards          my_game's schema of card files
      ludex schema my_game/ --export       write my_game/schemas/*.schema.json, set modelines
      ludex schema --export out/           write the base schemas to out/
    """
    from .. import editor_schemas, schemas
    from ..folders import discover

    if export_dir and Path(export_dir).exists() and not Path(export_dir).is_dir():
        raise click.BadParameter(f"{export_dir} is a file: --export writes into a folder",
                                 param_hint="--export")
    kinds = [a for a in args if a in schemas.KINDS]
    games = [a for a in args if a not in schemas.KINDS]
    if len(games) == 2 and not kinds:  # `schema GAME NONSENSE`: a kind misspelled
        from ..errors import did_you_mean

        raise click.BadParameter(f"`{games[1]}` is no kind of file (one of "
                                 f"{', '.join(schemas.KINDS)})"
                                 + did_you_mean(games[1], list(schemas.KINDS)),
                                 param_hint="KIND")
    if len(games) > 1 or len(kinds) > 1:
        raise click.UsageError("give at most one GAME and one KIND")
    if not games:
        if export_dir:
            check_output_folder(Path(export_dir), "--export")
            with writing("--export"):
                written = schemas.base_files(Path(export_dir))
            for path in written:
                click.echo(str(path))
        elif kinds:
            emit_json(schemas.base_schema(kinds[0]))
        else:
            raise click.UsageError(f"give a KIND ({', '.join(schemas.KINDS)}), a GAME, or "
                                   "--export DIR")
        return
    files = discover(game_folder(games[0]))
    if export_dir is not None:
        if not export_dir:  # into the game's own folder, and its files' modelines
            check_own_game(files.folder, "give `--export DIR` to write its schemas into a "
                           "folder of your own")
        target = Path(export_dir) if export_dir else files.schemas
        check_output_folder(target, "--export")
        with writing("--export"):
            written = editor_schemas.export(files, target)
            if not export_dir:
                written += editor_schemas.set_modelines(files)
        for path in written:
            click.echo(str(path))
        return
    if not kinds:
        raise click.UsageError(f"give a KIND ({', '.join(schemas.KINDS)}) or --export")
    emit_json(editor_schemas.generated(editor_schemas.load(files))[kinds[0]])
