"""`ludex mutate`: mutation testing of a game's rules."""

from __future__ import annotations

import sys

import click

from .common import (
    EXIT_FAILED,
    EXIT_OK,
    check_workers,
    emit_json,
    game_folder,
    source_lines,
)


@click.command(name="mutate")
@click.argument("game_ref", metavar="GAME")
@click.option("--clause", "clauses", multiple=True, metavar="ID",
              help="Only mutants of code that names this clause (repeatable).")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Parallel processes.")
@click.option("--budget", type=click.FloatRange(min=0), metavar="SECONDS",
              help="Stop judging mutants after this long (the rest are reported not run).")
@click.option("--all", "show_all", is_flag=True, help="List every mutant, not only survivors.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def mutate_command(game_ref, clauses, workers, budget, show_all, as_json) -> None:
    """Mutation testing: alter the game's rules one small way at a time (an operator, a
    bound, a condition, a step order, a table cell) and run its scenarios against each. A
    mutant no scenario notices — a survivor — is a rule the scenarios do not pin down.

    Mark a mutant that no game could tell apart from the original in the game's clauses.yaml:
    `equivalent_mutants: [{at: FILE:LINE:COL, mutation: "…", reason: "…"}]`.

    \b
    Examples:
      ludex mutate my_game/ --workers 2
      ludex mutate my_game/ --clause RULE-2-b --json
    Exit status: 0 no survivors, 1 survivors (or mutants not run), 2 usage error.
    """
    from ..clause_coverage import clauses_of
    from ..errors import did_you_mean
    from ..mutation import mutate

    check_workers(workers)
    folder = game_folder(game_ref)
    known = [c.id for c in clauses_of(folder)]
    for clause in clauses:  # a misspelled id would select no mutant and pass
        if known and clause not in known:
            raise click.BadParameter(f"`{clause}` is not a clause of the game"
                                     + did_you_mean(clause, known), param_hint="--clause")
    if as_json:
        report = mutate(folder, workers, list(clauses), budget)
        emit_json(report.as_dict())
    else:
        from rich.console import Console
        from rich.progress import Progress

        with Progress(transient=True, console=Console(stderr=True)) as bar:
            task = bar.add_task("mutants", total=None)
            report = mutate(folder, workers, list(clauses), budget,
                            progress=lambda outcome: bar.advance(task))
        for outcome in report.outcomes:
            if show_all or outcome.status == "survived":
                m = outcome.mutant
                clause_ids = f" [{', '.join(m.clauses)}]" if m.clauses else ""
                detail = f" ({outcome.detail})" if outcome.detail and show_all else ""
                click.echo(f"{m.file}:{m.line}:{m.col}: {outcome.status}: {m.description} "
                           f"in `{m.rule}`{clause_ids}{detail}")
        for mark in report.stale_marks:
            click.echo(mark.render(source_lines(mark.file)))
        counts = ", ".join(f"{report.count(s)} {s}" for s in
                           ("killed", "survived", "equivalent", "invalid", "not run")
                           if report.count(s) or s in ("killed", "survived"))
        click.echo(f"{len(report.outcomes)} mutants of {report.game}: {counts} "
                   f"({report.seconds:.0f} s)")
    if clauses and not report.outcomes:  # a clause no rule names: nothing was tested
        click.echo(f"no rule names {', '.join(clauses)} (`clause:` on the procedure, action, "
                   "card or table that carries it out): nothing was mutated", err=True)
        sys.exit(EXIT_FAILED)
    sys.exit(EXIT_FAILED if report.survivors or report.count("not run") else EXIT_OK)
