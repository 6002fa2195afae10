"""`ludex simulate`: many games with random agents, summarised."""

from __future__ import annotations

import sys

import click

from .common import (
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    check_language,
    check_players,
    emit_json,
    game_folder,
)


@click.command(name="simulate")
@click.argument("game_ref", metavar="GAME")
@click.option("--games", "count", type=click.IntRange(min=1), required=True,
              help="How many games.")
@click.option("--seed", default=0, show_default=True, help="Seed of the first game; game i "
              "uses seed + i.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Parallel processes.")
@click.option("--players", type=int, help="Player count (default: the game's).")
@click.option("--lang", metavar="LANG",
              help="Language of the powers' names (default: the game's primary language).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def simulate_command(game_ref, count, seed, workers, players, lang, as_json) -> None:
    """Play many games with random agents and summarise winners, lengths and errors (each
    error with the seed that reproduces it).

    \b
    Example:
      ludex simulate GAME --games 200 --workers 2
    Exit status: 1 if any game failed; 130 when stopped by Ctrl-C (after summarising the
    games played so far).
    """
    from rich.progress import Progress

    from ..loading import shared_definition
    from ..simulate import simulate

    folder = game_folder(game_ref)
    definition = shared_definition(folder)[0]  # the very one the games are played with
    localizer = definition.localizer(check_language(definition, lang))
    check_players(definition, players)
    if as_json:
        summary = _with_commands(simulate(folder, count, seed, workers, players), game_ref,
                                 players)
        emit_json(summary)
    else:
        from rich.console import Console

        # progress is for the person watching: on stderr, so piped output stays clean
        with Progress(transient=True, console=Console(stderr=True)) as bar:
            task = bar.add_task("playing", total=count)
            summary = _with_commands(
                simulate(folder, count, seed, workers, players,
                         progress=lambda outcome: bar.advance(task)), game_ref, players)
        click.echo(f"{summary['games']} games of {definition.game_id} from seed {seed}")
        for power, wins in sorted(summary["winners"].items(), key=lambda kv: -kv[1]):
            click.echo(f"  {localizer.name(power):<24} {wins} wins")
        if summary["draws"]:
            click.echo(f"  {'draws':<24} {summary['draws']}")
        t = summary["turns"]
        click.echo(f"  turns: min {t['min']}, mean {t['mean']}, max {t['max']}; "
                   f"decisions per game: {summary['decisions']['mean']}")
        for error in summary["errors"]:
            click.echo(f"  error with seed {error['seed']}: {error['message']}")
            click.echo(f"    reproduce: {error['command']}")
    if summary.get("interrupted"):  # Ctrl-C: the games played so far are summarised above
        click.echo(f"interrupted after {summary['games']} of {summary['requested']} games",
                   err=True)
        sys.exit(EXIT_INTERRUPTED)
    sys.exit(EXIT_FAILED if summary["errors"] else EXIT_OK)


def _with_commands(summary: dict, game_ref: str, players: int | None) -> dict:
    """Each error of a simulation gets the command that plays that very game again."""
    import shlex

    extra = f" --players {players}" if players else ""
    for error in summary["errors"]:
        error["command"] = (f"ludex play {shlex.quote(game_ref)} --agents random "
                            f"--seed {error['seed']}{extra}")
    return summary
