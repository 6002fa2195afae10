"""`ludex init`: a new game folder to start from."""

from __future__ import annotations

from pathlib import Path

import click

from .common import emit_json


@click.command(name="init")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--id", "game_id", help="The game's id (default: from the folder's name).")
@click.option("--name", help="The game's display name (default: from the id, or the folder's "
                             "name when it makes no id).")
@click.option("--language", default="en", show_default=True, metavar="TAG",
              help="The game's primary language (a BCP 47 tag: ja, tr, pt-BR): its locale files "
                   "are named for it, holding the starter's English text to write over.")
@click.option("--example", metavar="NAME",
              help="Copy an example game instead, as it is: fair_weather (the tutorial's) or "
                   "a bundled game.")
@click.option("--json", "as_json", is_flag=True,
              help='Print {"created", "game", "files": [...]} as JSON.')
def init_command(folder: Path, game_id: str | None, name: str | None, language: str,
                 example: str | None, as_json: bool) -> None:
    """Create a small playable game in FOLDER (new or empty) to start from: manifest, cards
    with events, an English locale, rule clauses with scenarios, editor schemas, and a
    pre-commit and CI set-up for the repository. With --example, a copy of an example game
    instead (its id kept).

    \b
    Examples:
      ludex init my_game && cd my_game && ludex check . && ludex play . --agents human,random
      ludex init examples/fair_weather --example fair_weather    the tutorial's game
    Exit status: 0 created, 2 the folder exists and is not empty, a bad --id, or an
    unknown --example.
    """
    from ..scaffold import (
        FALLBACK_ID,
        InitError,
        UnknownExample,
        copy_example,
        create,
        id_made_from,
    )

    if example is not None and (game_id or name or language != "en"):
        raise click.UsageError("--example copies a game as it is: drop --id, --name and "
                               "--language (they make the starter game)")
    try:
        written = create(folder, game_id, name, language) if example is None else \
            copy_example(folder, example)
    except UnknownExample as exc:
        raise click.BadParameter(str(exc), param_hint="--example") from None
    except InitError as exc:
        raise click.UsageError(str(exc)) from None
    if as_json:
        from ..folders import manifest_id

        emit_json({"created": str(folder), "game": manifest_id(folder),
                   "files": [Path(p).relative_to(folder).as_posix() for p in written]})
        return
    copied = f", a copy of the example {example}" if example else ""
    click.echo(f"created {folder} ({len(written)} files{copied}). Next:")
    if example is None and game_id is None and not id_made_from(folder):
        click.echo(f"  (its id is `{FALLBACK_ID}`: the folder's name has no Latin letter or "
                   "digit to make one from; choose one with --id)")
    click.echo(f"  cd {folder}")
    click.echo("  ludex check .                      # validate, then run the scenarios")
    click.echo("  ludex play . --agents human,random  # play it")
    click.echo("  ludex schema . --export            # after adding ids: editor completion")
