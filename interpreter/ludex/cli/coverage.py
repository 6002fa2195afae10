"""`ludex coverage`: rule clauses and the scenarios that cover them."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .common import (
    EXIT_FAILED,
    EXIT_OK,
    emit_json,
    game_folders,
    game_or_missing_file,
    ljust,
)


@click.command(name="coverage")
@click.argument("targets", nargs=-1, metavar="[GAME | SCENARIOS]...")
@click.option("--json", "as_json", is_flag=True, help='Print {"clauses": [...]} as JSON.')
@click.option("--lang", metavar="LANG",
              help="Also print each clause's summary in this language (any the games have).")
def coverage_command(targets: tuple[str, ...], as_json: bool, lang: str | None) -> None:
    """Every rule clause of a game with the scenarios that cover it and whether they pass.

    TARGETS are games (an id or a game folder: their clauses, covered by their own
    scenarios/) or scenario files and folders (the clauses of the games they name). With
    none, every bundled game.

    \b
    Examples:
      ludex coverage
      ludex coverage my_game/
    Exit status: 1 if any clause has no passing scenario.
    """
    from ..clause_coverage import coverage
    from ..folders import classify, is_game_folder

    folders: list[Path] = []
    scenario_paths: list[Path] = []
    for target in targets:
        path = Path(target)
        if path.exists() and not is_game_folder(path):
            try:
                files = [path] if path.is_file() else sorted(path.rglob("*.yaml"))
            except (OSError, RuntimeError) as exc:  # unreadable, or links in a loop
                raise click.BadParameter(f"{target}: cannot look inside: {exc}",
                                         param_hint="TARGETS") from None
            named = [f for f in (classify(p)[1] for p in files) if f is not None]
            if not named:  # `/etc/passwd` covered nothing and passed for a clause count
                raise click.BadParameter(f"{target}: no game folder, and no scenario of a "
                                         "game here", param_hint="TARGETS")
            scenario_paths.append(path)
            folders += named
        else:
            folders.append(game_or_missing_file(target, "TARGETS"))
    if not targets:
        folders = game_folders(())
    folders = list(dict.fromkeys(Path(f).resolve() for f in folders))
    clauses, _ = coverage(folders, scenario_paths or None)
    uncovered = [c for c in clauses if not c.passing]
    summaries = _clause_summaries(folders, lang) if lang else {}
    if lang and not summaries:
        raise click.BadParameter(f"no game has a `{lang}` locale (they have: "
                                 f"{', '.join(_all_languages(folders))})", param_hint="--lang")
    if as_json:
        emit_json({"clauses": [{**c.as_dict(), **({"summary": summaries[c.id]}
                                                  if c.id in summaries else {})}
                               for c in clauses],
                   "covered": len(clauses) - len(uncovered), "total": len(clauses)})
    else:
        for clause in clauses:
            mark = "ok  " if clause.passing else ("FAIL" if clause.scenarios else "----")
            names = ", ".join(Path(f).name for f in clause.scenarios) or "no scenario"
            click.echo(f"{mark} {ljust(clause.id, 18)} {names}")
            if clause.id in summaries:
                click.echo(f"     {summaries[clause.id]}")
        click.echo(f"{len(clauses) - len(uncovered)} of {len(clauses)} clauses covered by "
                   "passing scenarios")
    sys.exit(EXIT_FAILED if uncovered or not clauses else EXIT_OK)


def _clause_summaries(folders: list[Path], lang: str) -> dict[str, str]:
    """Clause id -> summary in `lang`, from the games' locales (English as fallback)."""
    from ..engine import load_definition

    summaries: dict[str, str] = {}
    for folder in folders:
        definition = load_definition(folder)[0]
        if lang not in definition.languages:
            continue
        summaries.update(definition.locales[definition.language].get("clauses", {}))
        summaries.update(definition.locales[lang].get("clauses", {}))
    return summaries


def _all_languages(folders: list[Path]) -> list[str]:
    from ..engine import load_definition

    return sorted({lang for folder in folders for lang in load_definition(folder)[0].languages})
