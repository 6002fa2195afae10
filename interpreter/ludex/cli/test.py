"""`ludex test`: run scenario files."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from . import cache_flag
from .common import (
    EXIT_FAILED,
    EXIT_OK,
    emit_json,
    scenario_paths,
)


@click.command(name="test")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True,
              help='Print {"passed", "failed", "results": [...]} as JSON.')
@cache_flag.on_command
def test_command(paths: tuple[Path, ...], as_json: bool) -> None:
    """Run scenario files: each failure with file:line, expected vs actual and the decisions
    given; ends with "N passed, N failed".

    PATHS may be games (an id or a game folder: its scenarios/ folder), folders of scenario
    files, or single scenario files. With none, every bundled game's scenarios run.

    \b
    Examples:
      ludex test                                  every bundled game's scenarios
      ludex test my_game/                         a game's own scenarios
      ludex test my_game/scenarios/my_rule.yaml --json
    Exit status: 0 all passed, 1 any failed, 2 nothing to run.
    """
    from ..scenario import discover_scenarios, run_scenario

    files = discover_scenarios(scenario_paths(paths))
    if not files:
        raise click.UsageError(f"no scenario files in {', '.join(map(str, paths))}")
    results = [run_scenario(path) for path in files]
    passed = sum(r.passed for r in results)
    failed = len(results) - passed
    # a game's content errors, once for the game, however many of its scenarios could not run
    game_errors = sorted({d for r in results for d in r.game_errors})
    if as_json:
        emit_json({"passed": passed, "failed": failed,
                    "results": [r.as_dict() for r in results],
                    "errors": [d.as_dict() for d in game_errors]})
    else:
        for diagnostic in game_errors:
            click.echo(diagnostic.headline())
        for result in results:
            if not result.passed:
                click.echo(result.report(game_errors=False))
        click.echo(f"{passed} passed, {failed} failed")
    sys.exit(EXIT_FAILED if failed else EXIT_OK)
