"""The `ludex` command line. Each command is a thin layer over a library call; this module only
parses arguments, prints, and chooses exit codes (0 ok, 1 content or test failures, 2 usage)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from . import __version__

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


def _emit_json(payload: dict) -> None:
    click.echo(json.dumps(payload, ensure_ascii=False, indent=2))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ludex")
def cli() -> None:
    """Ludex runs the rules of card-driven board games from data.

    \b
    Examples:
      ludex check                       validate and test every bundled game
      ludex validate cards/GAME         check one game's cards
      ludex schema --export schema/     write JSON Schemas for editors
    """


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print {\"errors\": [...]} as JSON.")
@click.option("--as", "kind", metavar="KIND",
              help="What single files are (game, map, tables, procedures, cards, locale, "
                   "scenario), when neither their folder nor their $schema line says.")
@click.option("--game", "game_id", metavar="GAME",
              help="The bundled game single files belong to, when their folder does not say.")
def validate(paths: tuple[Path, ...], as_json: bool, kind: str | None,
             game_id: str | None) -> None:
    """Check content against its schemas and rules; report every error.

    PATHS may be game folders (rules/GAME or cards/GAME), a folder holding rules/ and cards/,
    scenario folders, or single files. With none, every bundled game is checked.

    \b
    Examples:
      ludex validate
      ludex validate rules/GAME
      ludex validate cards/GAME/SET.yaml --json
    Exit status: 0 clean, 1 content errors, 2 usage error.
    """
    from .validate import UsageError, validate_paths

    try:
        report = validate_paths(list(paths), kind, game_id)
    except UsageError as exc:
        raise click.UsageError(str(exc)) from None
    if as_json:
        _emit_json({"errors": [d.as_dict() for d in report.diagnostics]})
    else:
        cache: dict[str, list[str] | None] = {}
        for diag in report.diagnostics:
            if diag.file not in cache:
                cache[diag.file] = report.source_lines(diag.file)
            click.echo(diag.render(cache[diag.file]))
        count = len(report.diagnostics)
        summary = f"{count} error{'s' if count != 1 else ''}" if count else "no errors"
        click.echo(f"{summary} in {report.files_checked} files checked", err=True)
    sys.exit(EXIT_FAILED if report.diagnostics else EXIT_OK)


@cli.command(name="test")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.option("--json", "as_json", is_flag=True,
              help='Print {"passed", "failed", "results": [...]} as JSON.')
def test_command(paths: tuple[Path, ...], as_json: bool) -> None:
    """Run scenario files: each failure with file:line, expected vs actual and the decisions
    given; ends with "N passed, N failed".

    \b
    Examples:
      ludex test                                  every bundled game's scenarios
      ludex test tests/scenarios/GAME/
      ludex test my_rule.yaml --json
    Exit status: 0 all passed, 1 any failed.
    """
    from .resources import scenarios_dir
    from .scenario import discover_scenarios, run_scenario

    files = discover_scenarios(list(paths) or [scenarios_dir()])
    results = [run_scenario(path) for path in files]
    passed = sum(r.passed for r in results)
    failed = len(results) - passed
    if as_json:
        _emit_json({"passed": passed, "failed": failed,
                    "results": [r.as_dict() for r in results]})
    else:
        for result in results:
            if not result.passed:
                click.echo(result.report())
        click.echo(f"{passed} passed, {failed} failed")
    sys.exit(EXIT_FAILED if failed else EXIT_OK)


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print the per-game summary as JSON.")
def check(as_json: bool) -> None:
    """The main job: validate every bundled game and print a short summary per game.

    \b
    Example:
      ludex check
    Exit status: 0 when every game is clean, 1 otherwise.
    """
    from .content import discover
    from .resources import bundled_games
    from .validate import check_game

    summaries, failed = [], False
    for game_id in bundled_games():
        game, diagnostics = check_game(discover(game_id))
        failed |= bool(diagnostics)
        summaries.append({
            "game": game_id,
            "files": len(game.files.all_paths()),
            "errors": len(diagnostics),
            "cards": len(game.names.get("card", {})),
            "spaces": len(game.names.get("space", {})),
            "locales": sorted(game.locales),
        })
        if not as_json:
            for diag in diagnostics:
                click.echo(diag.render())
    if as_json:
        _emit_json({"games": summaries})
    else:
        for s in summaries:
            status = "ok" if not s["errors"] else f"{s['errors']} errors"
            click.echo(f"{s['game']:<16} {status:<10} {s['files']} files, {s['cards']} cards, "
                       f"{s['spaces']} spaces, locales: {', '.join(s['locales'])}")
    sys.exit(EXIT_FAILED if failed else EXIT_OK)


@cli.command()
@click.option("--export", "export_dir", type=click.Path(path_type=Path),
              help="Write every schema (and each bundled game's extended ones) to this folder.")
@click.argument("kind", required=False)
def schema(export_dir: Path | None, kind: str | None) -> None:
    """Print a JSON Schema, or export them all for editors.

    \b
    Examples:
      ludex schema cards                 print the cards schema
      ludex schema --export schema/      write schema/*.schema.json and schema/generated/GAME/
    """
    from . import schemas
    from .content import discover, load_game
    from .errors import Collector
    from .resources import bundled_games

    if export_dir is None:
        if kind not in schemas.KINDS:
            raise click.UsageError(f"give a kind ({', '.join(schemas.KINDS)}) or --export DIR")
        _emit_json(schemas.base_schema(kind))
        return
    games = {}
    for game_id in bundled_games():
        game = load_game(discover(game_id), Collector(), schemas.Validators())
        games[game_id] = game.attributes()
    for path in schemas.export(export_dir, games):
        click.echo(str(path))


def main() -> None:
    """Console entry point: no Python traceback for anything but a bug in Ludex itself."""
    try:
        cli.main(standalone_mode=True)
    except SystemExit:
        raise
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as exc:  # a bug in Ludex, not in the content
        if os.environ.get("LUDEX_DEBUG"):
            raise
        click.echo(f"ludex: internal error: {type(exc).__name__}: {exc} "
                   "(set LUDEX_DEBUG=1 for details; please report it)", err=True)
        sys.exit(EXIT_INTERNAL)


if __name__ == "__main__":
    main()
