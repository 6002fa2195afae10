"""`ludex simulate`: many games with any agents, summarised; a balance report; Ray."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from .common import (
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    check_language,
    check_output,
    check_players,
    check_workers,
    emit_json,
    game_folder,
    ljust,
    rjust,
)


@click.command(name="simulate")
@click.argument("game_ref", metavar="GAME")
@click.option("--games", "count", type=click.IntRange(min=1), required=True,
              help="How many games.")
@click.option("--seed", default=0, show_default=True, help="Seed of the first game; game i "
              "uses seed + i.")
@click.option("--agents", default="random", show_default=True,
              help="Comma-separated agents per seat (random, first, greedy, mcts, mcts:N, "
                   "mcts:Ns); one name serves every seat.")
@click.option("--rotate", is_flag=True,
              help="Game i seats the agents shifted by i places, so each agent plays every "
                   "seat (the summary then compares agents, not only seats).")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Parallel processes (with --backend ray: CPUs of the local Ray).")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local",
              show_default=True, help="Where games run: here, or on a Ray cluster (pip "
              "install 'ludex[ray]').")
@click.option("--address", metavar="HOST:PORT",
              help="With --backend ray: an existing cluster (default: a local Ray on "
                   "127.0.0.1 for this run).")
@click.option("--players", type=int, help="Player count (default: the game's).")
# simulate.MAX_DECISIONS, written out: importing the engine would slow every command's start
@click.option("--max-decisions", type=click.IntRange(min=1), default=10_000,
              show_default=True, help="A game not over after this many decisions is reported "
              "as an error with its seed (rules that never end would hold the run up).")
@click.option("--lang", metavar="LANG",
              help="Language of the powers' names (default: the game's primary language).")
@click.option("--report", "report_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write a self-contained HTML balance report (plots, intervals).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def simulate_command(game_ref, count, seed, agents, rotate, workers, backend, address, players,
                     max_decisions, lang, report_path, as_json) -> None:
    """Play many games and summarise them: win rates per power, seat and agent with 95%
    intervals, draws, game lengths, endings, scores, cards played, and errors (each with the
    seed and command that reproduce it).

    \b
    Examples:
      ludex simulate GAME --games 200 --workers 2
      ludex simulate GAME --games 400 --agents mcts:50,random,random --rotate --report r.html
      ludex simulate GAME --games 10000 --backend ray --address HOST:6379
    Exit status: 1 if any game failed; 130 when stopped by Ctrl-C (after summarising the
    games played so far).
    """
    from rich.console import Console
    from rich.progress import Progress

    from ..loading import shared_definition
    from ..simulate import run, simulate

    folder = game_folder(game_ref)
    definition = shared_definition(folder)[0]  # the very one the games are played with
    localizer = definition.localizer(check_language(definition, lang))
    check_players(definition, players)
    if report_path:
        check_output(report_path, "--report")
    names = tuple(n.strip() for n in agents.split(","))
    _check_agents(definition, names, players)
    runner = run
    if address is not None and backend != "ray":  # it would be ignored: the games run here
        raise click.UsageError("--address names a Ray cluster to play on: it goes with "
                               "--backend ray")
    if backend == "ray":
        runner = _ray_runner(address)
    else:  # a cluster's workers are the cluster's to bound; this machine's are ours
        check_workers(workers)
    # progress is for the person watching: on stderr, so piped output stays clean, and only
    # on a terminal (elsewhere it would leave an empty line)
    console = Console(stderr=True)
    with Progress(transient=True, console=console,
                  disable=as_json or not console.is_terminal) as bar:
        task = bar.add_task("playing", total=count)
        summary = simulate(folder, count, seed, workers, players,
                           progress=lambda n: bar.advance(task, n), agents=names,
                           rotate=rotate, runner=runner, max_decisions=max_decisions)
    _with_commands(summary, game_ref, players)
    try:
        if as_json:  # the results first: a report that cannot be written must not lose them
            emit_json(summary)
        else:
            _show_summary(summary, localizer)
    except BrokenPipeError:  # `| head` took what it wanted: the report is written all the same
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    written = not report_path or _write_report(report_path, summary, localizer)
    if summary["interrupted"]:  # Ctrl-C: the games played so far are summarised above
        click.echo(localizer.message("simulated_interrupted", {
            "games": summary["games"], "requested": summary["requested"]}), err=True)
        if summary["playing"]:  # one of them may be a game that never ends: say which
            click.echo(localizer.message("simulated_playing", {
                "seeds": _seed_list(summary["playing"])}), err=True)
        sys.exit(EXIT_INTERRUPTED)
    sys.exit(EXIT_FAILED if summary["errors"] or not written else EXIT_OK)


def _write_report(path: Path, summary: dict, localizer) -> bool:
    """Write the balance report (atomically: a failure leaves any earlier file whole); False,
    said on stderr, when it cannot be written (its folder removed during the run…)."""
    from ..playtest.report import render
    from ..saves import write_atomically

    try:
        write_atomically(path, render(summary, localizer))
    except OSError as exc:
        click.echo(f"Error: --report {path} cannot be written ({exc.strerror or exc}); the "
                   "summary above holds the run's results", err=True)
        return False
    click.echo(f"wrote {path}", err=True)
    return True


def _check_agents(definition, names: tuple[str, ...], players: int | None) -> None:
    from ..playtest.registry import check_name

    manifest = definition.manifest
    count = players or manifest["players"].get("default", manifest["players"]["min"])
    seats = len(manifest["seats"][str(count)])
    try:
        for name in names:
            check_name(name)
            if name.partition(":")[0] == "human":
                raise ValueError("a person plays at `ludex play` or the table (`ludex serve`), "
                                 "not in a simulation")
        if len(names) > seats:
            fitting = [n for n, seating in manifest["seats"].items() if len(seating) == len(names)]
            hint = f"; with {len(names)} seats, add --players {fitting[0]}" if fitting and \
                players is None else ""
            raise ValueError(f"give at most {seats} agents (one per seat; the last fills the "
                             f"seats left){hint}")
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--agents") from None


def _ray_runner(address: str | None):
    import importlib.util

    if importlib.util.find_spec("ray") is None:
        raise click.UsageError("--backend ray needs Ray: pip install 'ludex[ray]'")
    from ..playtest.cluster import ClusterError, simulate_on_ray

    def run_on_ray(plan, workers, progress=None):
        try:
            return simulate_on_ray(plan, workers, address, progress)
        except ClusterError as exc:
            raise click.ClickException(str(exc)) from None
    return run_on_ray


def _show_summary(summary: dict, localizer) -> None:
    """The summary as text, in the language of `--lang` (the engine's messages, which a
    game's locale may override), its numbers written as the language of its words writes
    them: a Polish game whose locale does not give the `simulated_*` words reads them in the
    engine's English, and its numbers too (80.0%, not 80,0%)."""
    from ..number_format import decimal, percent

    def say(key: str, **args) -> str:
        return localizer.message(f"simulated{'_' + key if key else ''}", args)

    lang = localizer.text_language("simulated_rate")  # the language of the table's columns

    def pct(r: dict) -> str:
        low, high = r["interval"]
        return (f"{r['count']:>5}  {rjust(percent(lang, r['rate']), 6)}  "
                f"[{decimal(lang, 100 * low, 1, exact=True)}–{percent(lang, high)}]")

    # the game by its name in this language: its id may also name a phase, a zone…
    click.echo(say("", games=summary["games"], game=localizer.game_name(summary["game"]),
                   seed=summary["seed"],
                   agents=",".join(summary["agents"]),
                   rotated="yes" if summary["rotate"] else "no"))
    if summary["errors"]:  # the rates below count the finished games only: say so first
        click.echo("  " + say("failed", failed=len(summary["errors"]),
                              finished=summary["finished"]))
    if summary["finished"]:  # with no finished game, rates and lengths would say nothing
        _show_results(summary, localizer, say, pct)
    for code, seen in summary["warnings"].items():
        click.echo("  " + say("warning", code=code, count=seen["count"], games=seen["games"],
                              seed=seen["first"]["seed"]))
        click.echo(f"    {seen['first']['warning']}")
    for message, seeds, command in _grouped(summary["errors"]):
        if len(seeds) == 1:
            click.echo("  " + say("error", seed=seeds[0], message=message))
        else:
            click.echo("  " + say("errors", games=len(seeds), message=message,
                                  seeds=_seed_list(seeds)))
        click.echo("    " + say("reproduce", command=command))


def _show_results(summary: dict, localizer, say, pct) -> None:
    """The rates, the first seat's advantage, lengths and endings of the finished games."""
    from ..templates import Number

    def ending(key: str) -> str:  # a reason's message (the game's, or the engine's)
        if key == "unfinished":
            return say("unfinished")
        # one line stands for games that gave the reason different arguments: "…" for each
        return localizer.message(key, dict.fromkeys(localizer.message_arguments(key), "…"))

    # padded by terminal columns: a Japanese name's characters take two each
    click.echo(f"  {ljust(say('wins'), 24)} {rjust(say('games'), 5)}  "
               f"{rjust(say('rate'), 6)}  {say('interval')}")
    for power, r in sorted(summary["powers"].items(), key=lambda kv: -kv[1]["count"]):
        click.echo(f"  {ljust(localizer.name(power), 24)} {pct(r)}")
    if summary["shared_wins"]["count"]:  # each winner's line counts the game too
        click.echo(f"  {ljust(say('shared_wins'), 24)} {pct(summary['shared_wins'])}")
    if summary["draws"]:  # a cooperative game's games without a winner: lost by all
        label = say("lost_together") if summary["cooperative"] else say("draws")
        click.echo(f"  {ljust(label, 24)} {pct(summary['draw_rate'])}")
    for index, r in enumerate(summary["seats"], 1):
        click.echo(f"  {ljust(say('seat', seat=index), 24)} {pct(r)}")
    if len(summary["by_agent"]) > 1 or summary["rotate"]:
        for agent, r in summary["by_agent"].items():
            click.echo(f"  {ljust(say('agent', agent=agent), 24)} {pct(r)} "
                       f"{say('seats_taken', seats=r['of'])}")
    t = summary["turns"]
    # numbers in messages are written by the language of each message's text
    if summary["fair_share"] is not None and summary["seats"]:  # none: a cooperative game
        advantage = 100 * summary["first_seat"]["advantage"]
        click.echo("  " + say("first_seat", fair=Number(summary["fair_share"], 1, percent=True),
                              advantage=Number(advantage, 1, exact=True, signed=True)))
    d = summary["decisions"]
    if t["max"] <= 1:  # a game played in one turn (a phase until the pile is empty): its
        # length is its decisions, their spread what the turns' would have said
        click.echo("  " + say("decisions", min=d["min"], mean=Number(d["mean"]), max=d["max"]))
    else:
        click.echo("  " + say("lengths", min=t["min"], mean=Number(t["mean"]), max=t["max"],
                              decisions=Number(d["mean"])))
    if summary["endings"]:  # one line each: a reason is a sentence of the game's
        click.echo("  " + say("endings", endings="").rstrip())
        for key, count in summary["endings"].items():
            click.echo(f"    {count:>5}  {ending(key)}")
    if summary["actions"]:  # in the game's order: each by its name in this language
        click.echo("  " + say("actions", actions=" · ".join(
            f"{localizer.name(a['action'])} {a['taken']}" for a in summary["actions"])))
    if summary["never_taken"]:  # by id, in the content's words: what to look up and fix
        click.echo("  " + say("never_taken", count=len(summary["never_taken"]),
                              games=summary["finished"],
                              actions=", ".join(f"`{a}`" for a in summary["never_taken"])))
    for dead in summary["dead_ends"]:  # by id, as the never-taken line: what to look up
        click.echo("  " + say("dead_end", question=f"`{dead['question']}`",
                              later=f"`{dead['later']}`", count=dead["refused"],
                              games=dead["games"]))
    if summary["finished"] and d["max"] == 0:  # nobody was ever asked anything
        click.echo("  " + say("no_decisions"))


def _grouped(errors: list[dict]) -> list[tuple[str, list[int], str]]:
    """The errors by place and code, in the order first met: (the first seed's message,
    seeds, the first seed's command to play that game again). A rule that breaks in many
    games is said once, whatever answers led each game there."""
    groups: dict[str, tuple[str, list[int], str]] = {}
    for error in errors:
        key = error.get("at", error["message"])
        group = groups.setdefault(key, (error["message"], [], error["command"]))
        group[1].append(error["seed"])
    return list(groups.values())


def _seed_list(seeds: list[int], shown: int = 8) -> str:
    listed = ", ".join(str(seed) for seed in seeds[:shown])
    return listed + (", …" if len(seeds) > shown else "")


def _with_commands(summary: dict, game_ref: str, players: int | None) -> None:
    """Each error of a simulation gets the command that plays that very game again."""
    import shlex

    from ..simulate import Plan

    plan = Plan("", summary["requested"], summary["seed"], players, tuple(summary["agents"]),
                summary["rotate"])
    seats = len(summary["seats"])
    extra = f" --players {players}" if players else ""
    for error in summary["errors"]:
        names = plan.seating(error["seed"], seats) if seats else list(plan.agents)
        agents = names[0] if len(set(names)) == 1 else ",".join(names)
        # a game with no end: the replay stops where the simulation gave up on it
        stop = f" --max-decisions {summary['max_decisions']}" \
            if error["message"].startswith("NoEnd") else ""
        error["command"] = (f"ludex play {shlex.quote(game_ref)} --agents {agents} "
                            f"--seed {error['seed']}{extra}{stop}")
