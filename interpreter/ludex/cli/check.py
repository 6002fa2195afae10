"""`ludex check`: validate games and run their scenarios, one summary line per game."""

from __future__ import annotations

import sys

import click

from . import cache_flag
from .common import (
    EXIT_FAILED,
    EXIT_OK,
    count,
    emit_json,
    game_folders,
    ljust,
    source_lines,
)


@click.command(name="check")
@click.argument("games", nargs=-1, metavar="[GAME]...")
@click.option("--json", "as_json", is_flag=True, help="Print the per-game summary as JSON.")
@click.option("--strict", is_flag=True, help="Treat warnings (partial translations…) as errors.")
@click.option("--errors-only", is_flag=True,
              help="List errors (and failing scenarios) only; warnings are counted, not shown.")
@cache_flag.on_command
def check_command(games: tuple[str, ...], as_json: bool, strict: bool, errors_only: bool
                  ) -> None:
    """The main job: validate games (every bundled game, or each GAME: an id or a game
    folder), run their scenarios, and print a short summary per game.

    \b
    Examples:
      ludex check
      ludex check my_game/
    Exit status: 0 when every game is clean and every scenario passes, 1 otherwise.
    """
    from ..errors import Diagnostic, distinct, errors_first, folded_for_text
    from ..folders import discover
    from ..scenario import discover_scenarios, run_scenario
    from ..validate import check_game, scenario_diagnostics

    summaries, failed = [], False
    for folder in game_folders(games):
        files = discover(folder)
        game, diagnostics = check_game(files, play=True)  # its scenarios run next
        # a game whose only errors are warnings made errors by --strict (a translation half
        # done) still runs: its scenarios' results are what CI most wants to see
        errors = sum(d.is_error for d in diagnostics)
        if strict:
            diagnostics = [d.promoted() for d in diagnostics]
        scenarios = discover_scenarios([files.scenarios]) if files.scenarios.is_dir() else []
        # a clean game's scenarios are run, and checked as written (as `validate` does; after
        # the runs, so that the checks take the game the runs compiled)
        results = [] if errors else [run_scenario(p, checked=True) for p in scenarios]
        named: dict = {}  # the games the scenarios name, looked up once
        written = [] if errors else distinct(
            d.promoted() if strict else d for p in scenarios
            for d in scenario_diagnostics(p, named))
        # what the rules could not settle while the scenarios ran: warnings like the
        # content's (and errors with --strict)
        met = distinct(w.promoted() if strict else w for r in results for w in r.warnings)
        diagnostics = errors_first([*diagnostics, *written, *met])
        errors = sum(d.is_error for d in diagnostics)
        passed = sum(r.passed for r in results)
        failed |= bool(errors) or passed < len(results)
        summaries.append({
            "game": game.game_id,
            "folder": str(folder),
            "files": len(game.files.all_paths()),
            "errors": errors,
            "warnings": len(diagnostics) - errors,
            "diagnostics": [d.as_dict() for d in diagnostics],
            "cards": len(game.names.get("card", {})),
            "card_copies": len(game.card_instances()),  # copies counted: the deck as dealt
            "spaces": len(game.names.get("space", {})),
            "locales": sorted(game.locales),
            "scenarios": {"passed": passed, "failed": len(results) - passed,
                          "not_run": len(scenarios) - len(results)},
            # what the text shows of each failure, and the rest: every scenario's result
            "results": [r.as_dict() for r in results],
        })
        if not as_json:
            shown = [d for d in diagnostics if d.is_error] if errors_only else diagnostics
            for diag in folded_for_text(shown):
                click.echo(diag.render(source_lines(diag.file))
                           if isinstance(diag, Diagnostic) else diag)
            for result in results:
                if not result.passed:
                    click.echo(result.report())
    if as_json:
        emit_json({"games": summaries})
    else:
        for s in summaries:
            runs = s["scenarios"]
            status = (count(s["errors"], "error") if s["errors"] else
                      f"{runs['failed']} failing" if runs["failed"] else
                      count(s["warnings"], "warning") if s["warnings"] else "ok")
            ran = f"{runs['passed']} passed, {runs['failed']} failed" + (
                f", {runs['not_run']} not run (the game has errors)" if runs["not_run"] else "")
            copies = f" ({s['card_copies']} with copies)" if s["card_copies"] != s["cards"] else ""
            click.echo(f"{ljust(s['game'], 16)} {ljust(status, 10)} {s['files']} files, "
                       f"{s['cards']} cards{copies}, {s['spaces']} spaces, "
                       f"locales: {', '.join(s['locales'])}; scenarios: {ran}")
    sys.exit(EXIT_FAILED if failed else EXIT_OK)
