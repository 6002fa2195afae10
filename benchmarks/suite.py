"""What a designer waits for: a cold load of each bundled game, and `ludex test` on it.

Times are CPU time (of the child process), as everywhere in the benchmarks.

* load_<game> (absolute) — a cold load in a fresh process (imports done first and reported
  apart), split into its stages: YAML (the positional loader on every file of the game),
  schema (the rest of `load_game`: schema checks and the index of ids; the YAML is read again
  there, so schema = load_game − YAML), checks (`checks.run_all`) and compile
  (`build_definition`). Best of `--rounds` processes, stage by stage.
* scenarios_<game> (absolute) — `ludex test <game>` as a user runs it, in a fresh process: its
  CPU time (wall time beside it), and the time per scenario. `share_loading` is the share of
  the run spent loading games (`load_game`, `checks.run_all`, `build_definition`, wherever
  they are called from) and `game_loads` how often `load_game` ran, both read from one extra
  run under cProfile (which slows every call alike, so the share is close, not exact).

* check_cold / check_warm (absolute) — `ludex check` on the bundled games as a user runs it,
  in a fresh process (imports included, with Python's bytecode cache as a user has it): its
  CPU time with an empty content cache (cold) and with the cache the cold run left (warm);
  wall time beside it. Issue #14's targets: at most 3 s cold, 1 s warm.

All are Ludex alone: a user waits for them, and no other tool does the same work (the floor
for reading and schema-checking cards is benchmarks/validate.py's).
Usage: python benchmarks/suite.py [--json] [--rounds N] [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from report import case, emit

GAMES = ("imperium", "sword_of_rome")

LOAD_CHILD = """
import json, sys, time
began = time.process_time()
from ludex.checks import run_all
from ludex.content import load_game
from ludex.errors import Collector
from ludex.folders import discover, find_game
from ludex.gamedef import build_definition
from ludex.schemas import Validators
from ludex.yamlio import load_file
import jsonschema  # imported by the first schema check (not by a warm run): an import cost
imports = time.process_time() - began
files = discover(find_game(sys.argv[1]))
times = {"imports": imports}
began = time.process_time()
for path in files.all_paths():
    load_file(path, Collector())
times["yaml"] = time.process_time() - began
errors = Collector()
began = time.process_time()
game = load_game(files, errors, Validators())
times["schema"] = time.process_time() - began - times["yaml"]
began = time.process_time()
run_all(game, errors)
times["checks"] = time.process_time() - began
began = time.process_time()
build_definition(game, errors)
times["compile"] = time.process_time() - began
if errors:
    raise SystemExit(f"{sys.argv[1]} has content errors")
print(json.dumps(times))
"""

PROFILE_CHILD = """
import cProfile, pstats, sys
from ludex.cli import cli
profile = cProfile.Profile()
profile.enable()
try:
    cli.main(["test", sys.argv[1]], standalone_mode=False)
except SystemExit:
    pass
profile.disable()
stats = pstats.Stats(profile).stats
total = sum(tt for (_, _, _), (_, _, tt, _, _) in stats.items())
wanted = {("content.py", "load_game"), ("checks.py", "run_all"),
          ("gamedef.py", "build_definition")}
loading = loads = 0.0
for (path, _, name), (_, calls, _, cumulative, _) in stats.items():
    if (path.rsplit("/", 1)[-1], name) in wanted:
        loading += cumulative
        if name == "load_game":
            loads += calls
print(f"{loading / total} {int(loads)}")
"""


def _child(code: str, *args: str) -> str:
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          check=True).stdout


def load_case(game: str, rounds: int) -> dict:
    best: dict[str, float] = {}
    for _ in range(rounds):
        for stage, seconds in json.loads(_child(LOAD_CHILD, game)).items():
            best[stage] = min(best.get(stage, float("inf")), seconds)
    total = best["yaml"] + best["schema"] + best["checks"] + best["compile"]
    return case(f"load_{Path(game).name}", "absolute", total, None, "none", **{
        f"{stage}_s": best[stage] for stage in ("imports", "yaml", "schema", "checks",
                                                "compile")})


def ludex_command() -> list[str]:
    script = Path(sys.executable).with_name("ludex")
    return [str(script)] if script.exists() else [sys.executable, "-m", "ludex.cli"]


def scenarios_case(game: str, rounds: int) -> dict:
    wall = cpu = float("inf")
    count = 0
    for _ in range(rounds):
        before = os.times()
        began = time.perf_counter()
        done = subprocess.run([*ludex_command(), "test", game, "--json"], capture_output=True,
                              text=True)
        elapsed = time.perf_counter() - began
        after = os.times()
        outcome = json.loads(done.stdout)
        if outcome["failed"]:
            raise SystemExit(f"ludex test {game}: {outcome['failed']} scenarios failed")
        count = outcome["passed"]
        wall = min(wall, elapsed)
        cpu = min(cpu, (after.children_user - before.children_user)
                  + (after.children_system - before.children_system))
    # the last line: the child prints the test report first
    share, loads = _child(PROFILE_CHILD, game).splitlines()[-1].split()
    return case(f"scenarios_{Path(game).name}", "absolute", cpu, None, "none", per="scenario",
                units=count, wall_s=wall, share_loading=float(share), game_loads=int(loads))


def _timed(command: list[str], env: dict) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one run of `command`, which must succeed."""
    before, began = os.times(), time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    elapsed, after = time.perf_counter() - began, os.times()
    if done.returncode:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}")
    return ((after.children_user - before.children_user)
            + (after.children_system - before.children_system)), elapsed


def check_cases(games: tuple[str, ...], rounds: int) -> list[dict]:
    """`ludex check GAMES` cold (a new, empty content cache each round) and warm (the cache
    the cold run of the same round left), best of `rounds` each."""
    import tempfile

    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONDONTWRITEBYTECODE", "LUDEX_NO_CACHE")}
    command = [*ludex_command(), "check", *games]
    subprocess.run(command, capture_output=True, env=env)  # bytecode written, as a user has
    best = {"cold": (float("inf"), 0.0), "warm": (float("inf"), 0.0)}
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as cache:
            env["XDG_CACHE_HOME"] = cache
            for state in ("cold", "warm"):
                best[state] = min(best[state], _timed(command, env))
    return [case(f"check_{state}", "absolute", cpu, None, "none", wall_s=wall,
                 games=len(games)) for state, (cpu, wall) in best.items()]


def run(rounds: int = 3, games: tuple[str, ...] = GAMES) -> list[dict]:
    return [*(load_case(game, rounds) for game in games),
            *(scenarios_case(game, rounds) for game in games),
            *check_cases(games, rounds)]


# the tests' tiny game (a game id or folder is what `ludex test` takes)
QUICK = {"rounds": 1, "games": (str(Path(__file__).resolve().parents[1] / "tests" / "games"
                                    / "tiny"),)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="a tiny run (the tests')")
    args = parser.parse_args()
    emit(run(**(QUICK if args.quick else {"rounds": args.rounds})), args.json)


if __name__ == "__main__":
    main()
