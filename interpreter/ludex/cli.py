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
      ludex init my_game                create a small playable game to start from
      ludex validate my_game/           check a game kept anywhere
      ludex play my_game/ --agents random --seed 1
    """


@cli.command(name="init")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--id", "game_id", help="The game's id (default: from the folder's name).")
@click.option("--name", help="The game's display name in English (default: from the id).")
def init_command(folder: Path, game_id: str | None, name: str | None) -> None:
    """Create a small playable game in FOLDER (new or empty) to start from: manifest, cards
    with events, an English locale, rule clauses with scenarios, editor schemas, and a
    pre-commit and CI set-up for the repository.

    \b
    Example:
      ludex init my_game && cd my_game && ludex check . && ludex play . --agents human,random
    Exit status: 0 created, 2 the folder exists and is not empty, or a bad --id.
    """
    from .scaffold import InitError, create

    try:
        written = create(folder, game_id, name)
    except InitError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(f"created {folder} ({len(written)} files). Next:")
    click.echo(f"  cd {folder}")
    click.echo("  ludex check .                      # validate, then run the scenarios")
    click.echo("  ludex play . --agents human,random  # play it")
    click.echo("  ludex schema . --export            # after adding ids: editor completion")


@cli.command()
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
def validate(paths: tuple[Path, ...], as_json: bool, output_format: str, kind: str | None,
             game_ref: str | None, strict: bool) -> None:
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
    Exit status: 0 no errors (warnings allowed), 1 content errors, 2 usage error (a path with
    no content in it).
    """
    from .validate import UsageError, validate_paths

    try:
        report = validate_paths(list(paths), kind, game_ref)
    except UsageError as exc:
        raise click.UsageError(str(exc)) from None
    diagnostics = [d.promoted() for d in report.diagnostics] if strict else report.diagnostics
    errors = sum(d.is_error for d in diagnostics)
    if as_json or output_format == "json":
        _emit_json({"errors": [d.as_dict() for d in diagnostics]})
    elif output_format == "github":
        for diag in diagnostics:
            click.echo(diag.github())
    else:
        cache: dict[str, list[str] | None] = {}
        for diag in diagnostics:
            if diag.file not in cache:
                cache[diag.file] = report.source_lines(diag.file)
            click.echo(diag.render(cache[diag.file]))
        click.echo(f"{_count(errors, 'error')}, {_count(len(diagnostics) - errors, 'warning')} "
                   f"in {report.files_checked} files checked", err=True)
    sys.exit(EXIT_FAILED if errors else EXIT_OK)


def _count(n: int, noun: str) -> str:
    return f"{n or 'no'} {noun}{'' if n == 1 else 's'}"


@cli.command(name="test")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True,
              help='Print {"passed", "failed", "results": [...]} as JSON.')
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
    from .scenario import discover_scenarios, run_scenario

    files = discover_scenarios(_scenario_paths(paths))
    if not files:
        raise click.UsageError(f"no scenario files in {', '.join(map(str, paths))}")
    results = [run_scenario(path) for path in files]
    passed = sum(r.passed for r in results)
    failed = len(results) - passed
    # a game's content errors, once for the game, however many of its scenarios could not run
    game_errors = sorted({d for r in results for d in r.game_errors})
    if as_json:
        _emit_json({"passed": passed, "failed": failed,
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


def _scenario_paths(paths: tuple[Path, ...]) -> list[Path]:
    """Scenario files and folders named by `paths`: a game (id or folder) stands for its
    `scenarios/` folder; no paths, for every bundled game's."""
    from .folders import is_game_folder

    if not paths:
        return [folder / "scenarios" for folder in _game_folders(())
                if (folder / "scenarios").is_dir()]
    found = []
    for path in paths:
        if path.exists() and not is_game_folder(path):
            found.append(path)
            continue
        folder = _game_folder(str(path))
        if (folder / "scenarios").is_dir():
            found.append(folder / "scenarios")
    return found


def _game_folder(ref: str) -> Path:
    """The game folder a GAME argument names (a bundled id or a path), or a usage error."""
    from .folders import UnknownGame, find_game

    try:
        return find_game(ref)
    except UnknownGame as exc:
        raise click.BadParameter(str(exc), param_hint="GAME") from None


def _game_folders(refs: tuple[str, ...]) -> list[Path]:
    """The folders of GAME arguments; every bundled game when none is given."""
    from .resources import bundled_games, games_dir

    if not refs:
        return [games_dir() / game_id for game_id in bundled_games()]
    return [_game_folder(ref) for ref in refs]


@cli.command()
@click.argument("games", nargs=-1, metavar="[GAME]...")
@click.option("--json", "as_json", is_flag=True, help="Print the per-game summary as JSON.")
@click.option("--strict", is_flag=True, help="Treat warnings (partial translations…) as errors.")
def check(games: tuple[str, ...], as_json: bool, strict: bool) -> None:
    """The main job: validate games (every bundled game, or each GAME: an id or a game
    folder), run their scenarios, and print a short summary per game.

    \b
    Examples:
      ludex check
      ludex check my_game/
    Exit status: 0 when every game is clean and every scenario passes, 1 otherwise.
    """
    from .folders import discover
    from .scenario import discover_scenarios, run_scenario
    from .validate import check_game

    summaries, failed = [], False
    for folder in _game_folders(games):
        files = discover(folder)
        game, diagnostics = check_game(files)
        if strict:
            diagnostics = [d.promoted() for d in diagnostics]
        errors = sum(d.is_error for d in diagnostics)
        results = [run_scenario(p) for p in discover_scenarios([files.scenarios])] \
            if files.scenarios.is_dir() and not errors else []
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
            "spaces": len(game.names.get("space", {})),
            "locales": sorted(game.locales),
            "scenarios": {"passed": passed, "failed": len(results) - passed},
        })
        if not as_json:
            for diag in diagnostics:
                click.echo(diag.render(_source_lines(diag.file)))
            for result in results:
                if not result.passed:
                    click.echo(result.report())
    if as_json:
        _emit_json({"games": summaries})
    else:
        for s in summaries:
            runs = s["scenarios"]
            status = (f"{s['errors']} errors" if s["errors"] else
                      f"{runs['failed']} failing" if runs["failed"] else
                      f"{s['warnings']} warnings" if s["warnings"] else "ok")
            click.echo(f"{s['game']:<16} {status:<10} {s['files']} files, {s['cards']} cards, "
                       f"{s['spaces']} spaces, locales: {', '.join(s['locales'])}; scenarios: "
                       f"{runs['passed']} passed, {runs['failed']} failed")
    sys.exit(EXIT_FAILED if failed else EXIT_OK)


@cli.command()
@click.argument("args", nargs=-1, metavar="[GAME] [KIND]")
@click.option("--export", "export_dir", is_flag=False, flag_value="", default=None,
              metavar="[DIR]", help="Write the schemas: a game's into its schemas/ folder "
              "(or DIR), pointing its files' modelines there; without GAME, the base schemas "
              "into DIR.")
def schema(args: tuple[str, ...], export_dir: str | None) -> None:
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
    from . import editor_schemas, schemas
    from .folders import discover

    kinds = [a for a in args if a in schemas.KINDS]
    games = [a for a in args if a not in schemas.KINDS]
    if len(games) > 1 or len(kinds) > 1:
        raise click.UsageError("give at most one GAME and one KIND")
    if not games:
        if export_dir:
            for path in schemas.base_files(Path(export_dir)):
                click.echo(str(path))
        elif kinds:
            _emit_json(schemas.base_schema(kinds[0]))
        else:
            raise click.UsageError(f"give a KIND ({', '.join(schemas.KINDS)}), a GAME, or "
                                   "--export DIR")
        return
    files = discover(_game_folder(games[0]))
    if export_dir is not None:
        written = editor_schemas.export(files, Path(export_dir) if export_dir else None)
        if not export_dir:
            written += editor_schemas.set_modelines(files)
        for path in written:
            click.echo(str(path))
        return
    if not kinds:
        raise click.UsageError(f"give a KIND ({', '.join(schemas.KINDS)}) or --export")
    _emit_json(editor_schemas.generated(editor_schemas.load(files))[kinds[0]])


@cli.command(name="coverage")
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
    from .clause_coverage import coverage
    from .folders import classify, is_game_folder

    folders: list[Path] = []
    scenario_paths: list[Path] = []
    for target in targets:
        path = Path(target)
        if path.exists() and not is_game_folder(path):
            scenario_paths.append(path)
            files = [path] if path.is_file() else sorted(path.rglob("*.yaml"))
            folders += [f for f in (classify(p)[1] for p in files) if f is not None]
        else:
            folders.append(_game_folder(target))
    if not targets:
        folders = _game_folders(())
    folders = list(dict.fromkeys(Path(f).resolve() for f in folders))
    clauses, _ = coverage(folders, scenario_paths or None)
    uncovered = [c for c in clauses if not c.passing]
    if as_json:
        _emit_json({"clauses": [c.as_dict() for c in clauses]})
    else:
        summaries = _clause_summaries(folders, lang) if lang else {}
        if lang and not summaries:
            raise click.BadParameter(f"no game has a `{lang}` locale (they have: "
                                     f"{', '.join(_all_languages(folders))})",
                                     param_hint="--lang")
        for clause in clauses:
            mark = "ok  " if clause.passing else ("FAIL" if clause.scenarios else "----")
            names = ", ".join(Path(f).name for f in clause.scenarios) or "no scenario"
            click.echo(f"{mark} {clause.id:<18} {names}")
            if clause.id in summaries:
                click.echo(f"     {summaries[clause.id]}")
        click.echo(f"{len(clauses) - len(uncovered)} of {len(clauses)} clauses covered by "
                   "passing scenarios")
    sys.exit(EXIT_FAILED if uncovered or not clauses else EXIT_OK)


def _saved_game_folder(saved: dict, path: Path) -> Path:
    """The folder of a saved game's game: the one it names, else its id near the file."""
    from .folders import UnknownGame, find_game

    try:
        if saved.get("game_folder"):
            return find_game(Path(saved["game_folder"]).as_posix() + "/", path.parent)
        return find_game(str(saved.get("game", "")), path.parent)
    except UnknownGame as exc:
        raise click.BadParameter(f"{path}: {exc}", param_hint="SOURCE") from None


def _clause_summaries(folders: list[Path], lang: str) -> dict[str, str]:
    """Clause id -> summary in `lang`, from the games' locales (English as fallback)."""
    from .engine import load_definition

    summaries: dict[str, str] = {}
    for folder in folders:
        definition = load_definition(folder)[0]
        if lang not in definition.languages:
            continue
        summaries.update(definition.locales[definition.language].get("clauses", {}))
        summaries.update(definition.locales[lang].get("clauses", {}))
    return summaries


def _all_languages(folders: list[Path]) -> list[str]:
    from .engine import load_definition

    return sorted({lang for folder in folders for lang in load_definition(folder)[0].languages})


def _check_language(definition, lang: str | None) -> str:
    """`lang`, or the game's primary language; a language the game lacks is a usage error."""
    if lang is None:
        return definition.language
    if lang not in definition.languages:
        raise click.BadParameter(f"{definition.game_id} has no `{lang}` locale (it has: "
                                 f"{', '.join(definition.languages)})", param_hint="--lang")
    return lang


def _check_players(definition, players: int | None) -> None:
    seats = definition.manifest["seats"]
    if players is not None and str(players) not in seats:
        counts = ", ".join(sorted(seats, key=int))
        raise click.BadParameter(f"{definition.game_id} is played by {counts} players",
                                 param_hint="--players")


@cli.command(name="play")
@click.argument("game_ref", metavar="GAME")
@click.option("--seed", default=0, show_default=True, help="Seed of the game's generator.")
@click.option("--agents", default="human", show_default=True,
              help="Comma-separated agents per seat (human, random, first); one name "
                   "serves every seat.")
@click.option("--players", type=int, help="Player count (default: the game's).")
@click.option("--lang", metavar="LANG",
              help="Language of the log: any the game has a locale for (default: its primary "
                   "language).")
@click.option("--save", "save_path", type=click.Path(path_type=Path),
              help="Write the game (settings, seed, decisions, agents) here when it stops, "
                   "and after every decision while a human plays.")
@click.option("--resume", "resume_path", type=click.Path(exists=True, path_type=Path),
              help="Continue a game saved with --save.")
@click.option("--force", is_flag=True,
              help="Resume even though the game's content changed since it was saved.")
@click.option("--max-decisions", default=100_000, show_default=True,
              help="Stop (and save) after this many decisions.")
@click.option("--json", "as_json", is_flag=True, help="Print the log as events, then scores.")
def play_command(game_ref, seed, agents, players, lang, save_path, resume_path, force,
                 max_decisions, as_json) -> None:
    """Play a game (a bundled game's id or a game folder) with any mix of agents; the log is
    printed in the chosen language.

    \b
    Examples:
      ludex play GAME --agents random --seed 7
      ludex play GAME --agents human,random,random --players 3 --lang ru
      ludex play GAME --agents random --max-decisions 20 --save game.json
      ludex play GAME --resume game.json --agents first
    """
    from .agents import Human, agent_states, agents_by_power, restore_states, seat_agents, step
    from .engine import Game, load_definition
    from .saves import SaveError, check_content, check_writable, read_save, replay_save

    folder = _game_folder(game_ref)
    definition, start = load_definition(folder)
    _check_players(definition, players)
    try:
        if save_path:
            check_writable(save_path)
        if resume_path:
            saved = read_save(resume_path)
            if saved["game"] != definition.game_id:
                raise SaveError(f"{resume_path} is a saved `{saved['game']}` game")
            check_content(saved, folder, resume_path, force)
            game = replay_save(definition, start, saved, resume_path)
        else:
            game = Game(definition, start, players=players, seed=seed)
    except SaveError as exc:
        raise click.BadParameter(str(exc), param_hint="--resume" if resume_path and not (
            save_path and "cannot be written" in str(exc)) else "--save") from None
    localizer = definition.localizer(_check_language(definition, lang))
    names = [n.strip() for n in agents.split(",")]
    try:
        seated = seat_agents(names, len(game.state["seats"]),
                             saved["seed"] if resume_path else seed,
                             human=lambda: Human(localizer=localizer))
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--agents") from None
    if resume_path:
        restore_states(seated, saved.get("agents") or [])
    by_power = agents_by_power(game, seated)
    humans = any(isinstance(a, Human) for a in seated)

    def save() -> None:
        from .saves import make_save, write_save

        write_save(save_path, make_save(game, folder, save_path, agent_states(seated)))

    shown = 0

    def show_new_lines() -> None:
        nonlocal shown
        lines = game.view["log"][shown:]
        shown += len(lines)
        if not as_json:
            for entry in lines:
                click.echo(localizer.log_line(entry))

    show_new_lines()
    decisions, interrupted = 0, False
    try:
        while not game.is_terminal() and game.pending is not None and decisions < max_decisions:
            # Non-player powers' decisions go to the first seat's agent (16.1 is not written).
            step(game, by_power.get(game.pending.who) or by_power[None])
            decisions += 1
            show_new_lines()
            if save_path and humans:  # a person's answers are never lost: save each one
                save()
    except EOFError:  # the human left: stop here (and save, if asked)
        click.echo("")
    except KeyboardInterrupt:  # stopped by Ctrl-C: save, show where it stood, exit 130
        click.echo("")
        interrupted = True
    if save_path:
        save()
    scores = game.scores()
    ended = game.state["ended"] if game.is_terminal() else None
    end_line = localizer.end_line(ended, game.winner() if ended else None, scores)
    if as_json:
        events = [{**e, "text": localizer.log_line(e)} for e in game.view["log"]]
        _emit_json({"log": events, "scores": scores, "ended": game.state["ended"],
                    "winner": game.winner() if game.is_terminal() else None,
                    "draw": game.is_draw(), "end_line": end_line})
    else:
        click.echo(end_line)
    if interrupted:
        sys.exit(130)


@cli.command(name="simulate")
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
    Exit status: 1 if any game failed.
    """
    from rich.progress import Progress

    from .engine import load_definition
    from .simulate import simulate

    folder = _game_folder(game_ref)
    definition = load_definition(folder)[0]
    localizer = definition.localizer(_check_language(definition, lang))
    _check_players(definition, players)
    if as_json:
        summary = _with_commands(simulate(folder, count, seed, workers, players), game_ref,
                                 players)
        _emit_json(summary)
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
    sys.exit(EXIT_FAILED if summary["errors"] else EXIT_OK)


def _with_commands(summary: dict, game_ref: str, players: int | None) -> dict:
    """Each error of a simulation gets the command that plays that very game again."""
    import shlex

    extra = f" --players {players}" if players else ""
    for error in summary["errors"]:
        error["command"] = (f"ludex play {shlex.quote(game_ref)} --agents random "
                            f"--seed {error['seed']}{extra}")
    return summary


@cli.command(name="mutate")
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
    from .mutation import mutate

    folder = _game_folder(game_ref)
    if as_json:
        report = mutate(folder, workers, list(clauses), budget)
        _emit_json(report.as_dict())
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
        counts = ", ".join(f"{report.count(s)} {s}" for s in
                           ("killed", "survived", "equivalent", "invalid", "not run")
                           if report.count(s) or s in ("killed", "survived"))
        click.echo(f"{len(report.outcomes)} mutants of {report.game}: {counts} "
                   f"({report.seconds:.0f} s)")
    sys.exit(EXIT_FAILED if report.survivors or report.count("not run") else EXIT_OK)


@cli.command(name="dump")
@click.argument("source", type=click.Path(exists=True, path_type=Path))
@click.option("--step", type=int, help="For a scenario: stop after this many of its decisions.")
@click.option("--out", type=click.Path(path_type=Path), help="Write here instead of stdout.")
def dump_command(source: Path, step: int | None, out: Path | None) -> None:
    """Write a game's current state as a scenario starting state.

    SOURCE is a game saved by `ludex play --save`, or a scenario file (with --step N, the state
    after its first N decisions).

    \b
    Examples:
      ludex dump game.json --out my_game/scenarios/new_case.yaml
      ludex dump my_game/scenarios/case.yaml --step 2
    """
    from .dump import dump_yaml, scenario_from
    from .engine import load_definition
    from .saves import SaveError, looks_like_save, read_save, replay_save

    rules = None
    if out is not None:
        _check_output(out)
    if looks_like_save(source):
        try:
            saved = read_save(source)
            definition, start = load_definition(_saved_game_folder(saved, source))
            game = replay_save(definition, start, saved, source)
        except SaveError as exc:
            raise click.BadParameter(str(exc), param_hint="SOURCE") from None
    else:
        from .scenario import game_at_step, scenario_rules

        game, rules = game_at_step(source, step), scenario_rules(source)
    from .folders import UnknownGame, find_game

    folder = game.definition.folder
    schema = folder / "schemas" / "scenario.schema.json"
    where = (out.parent if out else Path.cwd()).resolve()
    scenario = scenario_from(game, f"state dumped from {source.name}", rules)
    try:  # the id, where the scenario will find its game by it; else the folder's path
        found = find_game(scenario["game"], where).resolve() == Path(folder).resolve()
    except UnknownGame:
        found = False
    if not found:
        scenario["game"] = Path(os.path.relpath(Path(folder).resolve(), where)).as_posix()
    text = dump_yaml(scenario, Path(os.path.relpath(schema.resolve(), where)).as_posix())
    if out:
        from .saves import write_atomically

        write_atomically(out, text)
    else:
        click.echo(text, nl=False)


def _check_output(path: Path) -> None:
    """A file a command will write must be writable before any work is done."""
    from .saves import SaveError, check_writable

    try:
        check_writable(path)
    except SaveError as exc:
        raise click.BadParameter(str(exc), param_hint="--out") from None


def _source_lines(path: str) -> list[str] | None:
    from .yamlio import read_head

    text = read_head(path)
    return text.splitlines() if text is not None else None


def _register_subcommands() -> None:
    from .locale_cli import locale_group

    cli.add_command(locale_group)


_register_subcommands()


def main() -> None:
    """Console entry point: no Python traceback for anything but a bug in Ludex itself."""
    from .errors import LudexError

    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("Aborted!", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except LudexError as exc:  # bad content met by a command other than validate
        for diag in exc.diagnostics:
            click.echo(diag.render(_source_lines(diag.file)), err=True)
        sys.exit(EXIT_FAILED)
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
