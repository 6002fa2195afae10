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
    """The main job: validate every bundled game, run every bundled scenario, and print a short
    summary per game.

    \b
    Example:
      ludex check
    Exit status: 0 when every game is clean and every scenario passes, 1 otherwise.
    """
    from .content import discover
    from .resources import bundled_games, scenarios_dir
    from .scenario import discover_scenarios, run_scenario
    from .validate import check_game

    summaries, failed = [], False
    for game_id in bundled_games():
        game, diagnostics = check_game(discover(game_id))
        folder = scenarios_dir() / game_id
        results = [run_scenario(p) for p in discover_scenarios([folder])] \
            if folder.is_dir() and not diagnostics else []
        passed = sum(r.passed for r in results)
        failed |= bool(diagnostics) or passed < len(results)
        summaries.append({
            "game": game_id,
            "files": len(game.files.all_paths()),
            "errors": len(diagnostics),
            "cards": len(game.names.get("card", {})),
            "spaces": len(game.names.get("space", {})),
            "locales": sorted(game.locales),
            "scenarios": {"passed": passed, "failed": len(results) - passed},
        })
        if not as_json:
            for diag in diagnostics:
                click.echo(diag.render())
            for result in results:
                if not result.passed:
                    click.echo(result.report())
    if as_json:
        _emit_json({"games": summaries})
    else:
        for s in summaries:
            status = "ok" if not s["errors"] else f"{s['errors']} errors"
            runs = s["scenarios"]
            click.echo(f"{s['game']:<16} {status:<10} {s['files']} files, {s['cards']} cards, "
                       f"{s['spaces']} spaces, locales: {', '.join(s['locales'])}; scenarios: "
                       f"{runs['passed']} passed, {runs['failed']} failed")
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


@cli.command(name="coverage")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help='Print {"clauses": [...]} as JSON.')
@click.option("--lang", type=click.Choice(["en", "ru", "fr"]),
              help="Also print each clause's summary in this language.")
def coverage_command(paths: tuple[Path, ...], as_json: bool, lang: str | None) -> None:
    """Every rule clause of the bundled games with the scenarios that cover it and whether
    they pass.

    \b
    Example:
      ludex coverage
    Exit status: 1 if any clause has no passing scenario.
    """
    from .clause_coverage import coverage
    from .resources import scenarios_dir

    clauses, _ = coverage(list(paths) or [scenarios_dir()])
    uncovered = [c for c in clauses if not c.passing]
    if as_json:
        _emit_json({"clauses": [c.as_dict() for c in clauses]})
    else:
        summaries = _clause_summaries(lang) if lang else {}
        for clause in clauses:
            mark = "ok  " if clause.passing else ("FAIL" if clause.scenarios else "----")
            names = ", ".join(Path(f).name for f in clause.scenarios) or "no scenario"
            click.echo(f"{mark} {clause.id:<18} {names}")
            if clause.id in summaries:
                click.echo(f"     {summaries[clause.id]}")
        click.echo(f"{len(clauses) - len(uncovered)} of {len(clauses)} clauses covered by "
                   "passing scenarios")
    sys.exit(EXIT_FAILED if uncovered else EXIT_OK)


def _write_saved(path: Path, saved: dict) -> None:
    """A saved game as JSON, or as YAML when the file name ends in .yaml/.yml."""
    if path.suffix in (".yaml", ".yml"):
        import yaml

        path.write_text(yaml.safe_dump(saved, allow_unicode=True, sort_keys=False),
                        encoding="utf-8")
    else:
        path.write_text(json.dumps(saved, ensure_ascii=False, indent=1), encoding="utf-8")


def _read_saved(path: Path) -> dict:
    if path.suffix in (".yaml", ".yml"):
        from .errors import Collector
        from .yamlio import load_file

        errors = Collector()
        doc = load_file(path, errors)
        if doc is None or errors or not isinstance(doc.data, dict):
            problem = errors.sorted()[0].headline() if errors else f"{path}: not a saved game"
            raise click.BadParameter(problem, param_hint="--resume")
        return doc.data
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise click.BadParameter(f"{path}: not a saved game ({exc})",
                                 param_hint="--resume") from None


def _clause_summaries(lang: str) -> dict[str, str]:
    """Clause id -> summary in `lang`, from the bundled games' locales (English as fallback)."""
    from .engine import load_definition
    from .resources import bundled_games

    summaries: dict[str, str] = {}
    for game_id in bundled_games():
        locales = load_definition(game_id)[0].locales
        summaries.update(locales.get("en", {}).get("clauses", {}))
        summaries.update(locales.get(lang, {}).get("clauses", {}))
    return summaries


def _check_players(definition, players: int | None) -> None:
    seats = definition.manifest["seats"]
    if players is not None and str(players) not in seats:
        counts = ", ".join(sorted(seats, key=int))
        raise click.BadParameter(f"{definition.game_id} is played by {counts} players",
                                 param_hint="--players")


def _known_game(game_id: str) -> str:
    from .resources import bundled_games

    if game_id not in bundled_games():
        raise click.BadParameter(f"unknown game `{game_id}` (bundled: "
                                 f"{', '.join(bundled_games())})", param_hint="GAME")
    return game_id


@cli.command(name="play")
@click.argument("game_id", metavar="GAME")
@click.option("--seed", default=0, show_default=True, help="Seed of the game's generator.")
@click.option("--agents", default="human", show_default=True,
              help="Comma-separated agents per seat (human, random, first); one name "
                   "serves every seat.")
@click.option("--players", type=int, help="Player count (default: the game's).")
@click.option("--lang", type=click.Choice(["en", "ru", "fr"]), default="en",
              show_default=True, help="Language of the log.")
@click.option("--save", "save_path", type=click.Path(path_type=Path),
              help="Write the game (settings, seed, decisions) here when it stops.")
@click.option("--resume", "resume_path", type=click.Path(exists=True, path_type=Path),
              help="Continue a game saved with --save.")
@click.option("--max-decisions", default=100_000, show_default=True,
              help="Stop (and save) after this many decisions.")
@click.option("--json", "as_json", is_flag=True, help="Print the log as events, then scores.")
def play_command(game_id, seed, agents, players, lang, save_path, resume_path, max_decisions,
                 as_json) -> None:
    """Play a game with any mix of agents; the log is printed in the chosen language.

    \b
    Examples:
      ludex play GAME --agents random --seed 7
      ludex play GAME --agents human,random,random --players 3 --lang ru
      ludex play GAME --agents random --max-decisions 20 --save game.json
      ludex play GAME --resume game.json --agents first
    """
    from .agents import FirstLegal, Human, RandomAgent, step
    from .engine import Game, load_definition, replay
    from .locale import Localizer

    _known_game(game_id)
    definition, start = load_definition(game_id)
    _check_players(definition, players)
    if resume_path:
        saved = _read_saved(resume_path)
        if saved.get("game") != game_id:
            raise click.BadParameter(f"{resume_path} is a saved `{saved.get('game')}` game",
                                     param_hint="--resume")
        game = replay(definition, start, saved)
    else:
        game = Game(definition, start, players=players, seed=seed)
    localizer = Localizer(definition.locales, lang)
    makers = {"human": lambda i: Human(localizer=localizer),
              "random": lambda i: RandomAgent(seed * 1000 + i),
              "first": lambda i: FirstLegal()}
    names = [n.strip() for n in agents.split(",")]
    unknown = [n for n in names if n not in makers]
    if unknown:
        raise click.BadParameter(f"unknown agent `{unknown[0]}` (human, random, first)",
                                 param_hint="--agents")
    seats = game.state["seats"]
    if len(names) not in (1, len(seats)):
        raise click.BadParameter(f"give 1 agent or {len(seats)} (one per seat)",
                                 param_hint="--agents")
    by_power = {}
    for i, seat in enumerate(seats):
        agent = makers[names[0] if len(names) == 1 else names[i]](i)
        for power in seat:
            by_power[power] = agent
    shown = 0

    def show_new_lines() -> None:
        nonlocal shown
        lines = game.view["log"][shown:]
        shown += len(lines)
        if not as_json:
            for entry in lines:
                click.echo(localizer.log_line(entry))

    show_new_lines()
    decisions = 0
    try:
        while not game.is_terminal() and game.pending is not None and decisions < max_decisions:
            # Non-player powers' decisions go to the first seat's agent (16.1 is not written).
            step(game, by_power.get(game.pending.who) or next(iter(by_power.values())))
            decisions += 1
            show_new_lines()
    except (EOFError, KeyboardInterrupt):  # the human left: stop here (and save, if asked)
        click.echo("")
    if save_path:
        _write_saved(save_path, game.save())
    scores = game.scores()
    if as_json:
        events = [{**e, "text": localizer.log_line(e)} for e in game.view["log"]]
        _emit_json({"log": events, "scores": scores, "ended": game.state["ended"],
                    "winner": game.winner() if game.is_terminal() else None})
    else:
        status = (f"ended ({game.state['ended']}), winner: {localizer.name(game.winner())}"
                  if game.is_terminal() else "stopped")
        click.echo(f"{status}; scores: " + ", ".join(
            f"{localizer.name(p)} {v}" for p, v in scores.items()))


@cli.command(name="simulate")
@click.argument("game_id", metavar="GAME")
@click.option("--games", "count", type=click.IntRange(min=1), required=True,
              help="How many games.")
@click.option("--seed", default=0, show_default=True, help="Seed of the first game; game i "
              "uses seed + i.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Parallel processes.")
@click.option("--players", type=int, help="Player count (default: the game's).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def simulate_command(game_id, count, seed, workers, players, as_json) -> None:
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

    _known_game(game_id)
    _check_players(load_definition(game_id)[0], players)
    if as_json:
        summary = simulate(game_id, count, seed, workers, players)
        _emit_json(summary)
    else:
        with Progress(transient=True) as bar:
            task = bar.add_task("playing", total=count)
            summary = simulate(game_id, count, seed, workers, players,
                               progress=lambda outcome: bar.advance(task))
        click.echo(f"{summary['games']} games of {game_id} from seed {seed}")
        for power, wins in sorted(summary["winners"].items(), key=lambda kv: -kv[1]):
            click.echo(f"  {power:<24} {wins} wins")
        t = summary["turns"]
        click.echo(f"  turns: min {t['min']}, mean {t['mean']}, max {t['max']}; "
                   f"decisions per game: {summary['decisions']['mean']}")
        for error in summary["errors"]:
            click.echo(f"  error with seed {error['seed']}: {error['message']}")
    sys.exit(EXIT_FAILED if summary["errors"] else EXIT_OK)


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
      ludex dump game.json --out tests/scenarios/GAME/new_case.yaml
      ludex dump tests/scenarios/GAME/case.yaml --step 2
    """
    from .dump import dump_yaml, scenario_from
    from .engine import load_definition, replay

    rules = None
    if source.suffix == ".json" or "decisions" in source.read_text(encoding="utf-8",
                                                                    errors="replace")[:2000]:
        saved = _read_saved(source)
        definition, start = load_definition(_known_game(saved.get("game", "")))
        game = replay(definition, start, saved)
    else:
        from .scenario import game_at_step, scenario_rules

        game, rules = game_at_step(source, step), scenario_rules(source)
    text = dump_yaml(scenario_from(game, f"state dumped from {source.name}", rules))
    if out:
        out.write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False)


def _source_lines(path: str) -> list[str] | None:
    try:
        return Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None


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
