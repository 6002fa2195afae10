"""`ludex dump`: a saved game or a scenario's state as a new scenario."""

from __future__ import annotations

import os
from pathlib import Path

import click

from .common import (
    check_output,
    saved_game_folder,
)


@click.command(name="dump")
@click.argument("source", type=click.Path(exists=True, path_type=Path))
@click.option("--step", type=click.IntRange(min=0),
              help="For a scenario: stop after this many of its decisions.")
@click.option("--out", type=click.Path(path_type=Path), help="Write here instead of stdout.")
@click.option("--force", is_flag=True,
              help="Dump a saved game even though the game's content changed since, and write "
                   "over an existing --out file.")
def dump_command(source: Path, step: int | None, out: Path | None, force: bool) -> None:
    """Write a game's current state as a scenario starting state.

    SOURCE is a game saved by `ludex play --save`, or a scenario file (with --step N, the state
    after its first N decisions).

    \b
    Examples:
      ludex dump game.json --out my_game/scenarios/new_case.yaml
      ludex dump my_game/scenarios/case.yaml --step 2
    """
    from ..dump import dump_yaml, scenario_from, taken_up
    from ..engine import load_definition
    from ..saves import SaveError, check_content, looks_like_save, read_save, replay_save

    rules = None
    if out is not None:
        check_output(out, reads=(source,), scenarios=True)
        if out.is_file() and not force:  # a scenario worked on by hand is easily lost here
            raise click.BadParameter(f"{out} exists: give --force to write over it, or choose "
                                     "another file", param_hint="--out")
    if looks_like_save(source):
        try:
            saved = read_save(source)
            folder = saved_game_folder(saved, source)
            check_content(saved, folder, source, force)  # as `play --resume` does
            definition, start = load_definition(folder)
            game = replay_save(definition, start, saved, source)
        except SaveError as exc:
            raise click.BadParameter(str(exc), param_hint="SOURCE") from None
    elif _meant_as_save(source):  # a save with a mistake: say what is wrong with it as a save
        try:
            read_save(source)
        except SaveError as exc:
            raise click.BadParameter(str(exc), param_hint="SOURCE") from None
        raise click.BadParameter(f"{source}: a save's decisions beside a scenario's `run`: "
                                 "neither a save nor a scenario", param_hint="SOURCE")
    else:
        from ..scenario import StepBeyondDecisions, game_at_step, scenario_rules

        try:
            game, rules = game_at_step(source, step), scenario_rules(source)
        except StepBeyondDecisions as exc:
            raise click.BadParameter(str(exc), param_hint="--step") from None
    from ..folders import UnknownGame, find_game

    folder = game.definition.folder
    schema = folder / "schemas" / "scenario.schema.json"
    where = (out.parent if out else Path.cwd()).resolve()
    # named in the game's own language: the designer edits this file next
    named = game.definition.localizer().message("dumped_state", {"source": source.name})
    scenario = scenario_from(game, named, rules)
    try:  # the id, where the scenario will find its game by it; else the folder's path
        found = find_game(scenario["game"], where).resolve() == Path(folder).resolve()
    except UnknownGame:
        found = False
    if not found:
        scenario["game"] = Path(os.path.relpath(Path(folder).resolve(), where)).as_posix()
    note = taken_up(game)[1]
    if note:  # said where the person is looking too, not only inside the file
        click.echo(f"note: {note}", err=True)
    linked = Path(os.path.relpath(schema.resolve(), where)).as_posix() if schema.is_file() \
        else None  # no link to a schema that is not there: say how to write it instead
    if linked is None:
        from ..editor_schemas import no_schema_note

        click.echo(no_schema_note(folder, "scenario"), err=True)
    text = dump_yaml(scenario, linked, note)
    if out:
        from ..saves import write_atomically
        from .common import writing

        with writing("--out", out):
            write_atomically(out, text)
    else:
        click.echo(text, nl=False)


def _meant_as_save(path: Path) -> bool:
    """Whether a file that is not a usable save was meant as one: JSON (scenarios are YAML), or
    a mapping with a save's `decisions` and `seed` and no scenario's `run`."""
    if path.suffix == ".json":
        return True
    from ..errors import Collector
    from ..yamlio import load_file

    doc = load_file(path, Collector())
    data = doc.data if doc is not None else None
    return isinstance(data, dict) and {"decisions", "seed"} <= data.keys() and "run" not in data
