"""`ludex validate`: check content and print every diagnostic."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from . import cache_flag
from .common import (
    EXIT_FAILED,
    EXIT_OK,
    count,
    emit_json,
)


@click.command(name="validate")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print {\"errors\": [...]} as JSON "
              "(the same as --format json).")
@click.option("--format", "output_format", type=click.Choice(["text", "json", "github"]),
              default="text", show_default=True,
              help="text: path:line:col: error[code]: message with the source line; json; "
                   "github: GitHub Actions annotations (::error file=…,line=…::…).")
@click.option("--as", "kind", metavar="KIND",
              help="What single files are (game, map, tables, procedures, cards, locale, "
                   "scenario), when neither their folder nor their $schema line says.")
@click.option("--game", "game_ref", metavar="GAME",
              help="The game (id or folder) single files belong to, when their place does not "
                   "say.")
@click.option("--strict", is_flag=True,
              help="Treat warnings (partial or stale translations…) as errors.")
@click.option("--errors-only", is_flag=True,
              help="List errors only; warnings are counted, not shown (a half-done translation's "
                   "warnings no longer bury an error).")
@cache_flag.on_command
def validate_command(paths: tuple[Path, ...], as_json: bool, output_format: str, kind: str | None,
             game_ref: str | None, strict: bool, errors_only: bool) -> None:
    """Check content against its schemas and rules; report every error.

    PATHS may be bundled game ids, game folders (with their scenarios), folders holding game
    folders or scenarios, or single files. With none, every bundled game is checked.

    \b
    Examples:
      ludex validate
      ludex validate my_game/
      ludex validate my_game/cards/SET.yaml --json
      ludex validate . --format github       annotations in a GitHub Actions job
      ludex validate --strict            warnings fail too (the bundled games' CI)
      ludex validate . --errors-only     errors alone, warnings counted
    Exit status: 0 no errors (warnings allowed), 1 content errors, 2 usage error (a path with
    no content in it).
    """
    from ..errors import Diagnostic, errors_first, folded_for_text
    from ..validate import UsageError, validate_paths

    try:
        report = validate_paths(list(paths), kind, game_ref)
    except UsageError as exc:
        raise click.UsageError(str(exc)) from None
    diagnostics = errors_first([d.promoted() for d in report.diagnostics] if strict
                               else report.diagnostics)
    errors = sum(d.is_error for d in diagnostics)
    warnings = len(diagnostics) - errors
    if errors_only:
        diagnostics = [d for d in diagnostics if d.is_error]
    if as_json or output_format == "json":
        emit_json({"errors": [d.as_dict() for d in diagnostics], "error_count": errors,
                   "warning_count": warnings, "files_checked": report.files_checked})
    elif output_format == "github":
        _echo_lines(diag.github() for diag in diagnostics)
    else:
        cache: dict[str, list[str] | None] = {}

        def rendered(diag) -> str:
            if diag.file not in cache:
                cache[diag.file] = report.source_lines(diag.file)
            return diag.render(cache[diag.file])

        _echo_lines(rendered(d) if isinstance(d, Diagnostic) else d
                    for d in folded_for_text(diagnostics))
        hidden = " (not shown: --errors-only)" if errors_only and warnings else ""
        click.echo(f"{count(errors, 'error')}, {count(warnings, 'warning')}{hidden} "
                   f"in {count(report.files_checked, 'file')} checked", err=True)
    sys.exit(EXIT_FAILED if errors else EXIT_OK)


def _echo_lines(lines) -> None:
    """Print each of `lines`, a thousand to a write: a file of 100,000 broken cards prints
    as many diagnostics, and a write for each took longer than finding them."""
    chunk: list[str] = []
    for line in lines:
        chunk.append(line)
        if len(chunk) == 1000:
            click.echo("\n".join(chunk))
            chunk.clear()
    if chunk:
        click.echo("\n".join(chunk))
