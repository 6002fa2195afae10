"""Mutated save files: `ludex play --resume` and `ludex dump` on a save with one thing changed
(a value of another shape anywhere, a key dropped or added, decisions shuffled, dropped or
repeated, the text cut short or a byte changed) end in a result or a usage error — exit 0, 1
or 2 — never an internal error or a traceback.

The commands run in this process, as `ludex` runs them (cli.main's handling of errors), on
real saves of the tiny game and Imperium. Run briefly by the test suite and at length by
`make fuzz`: `python -m tests.fuzz.save_mutations COUNT [SEED]`.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import random
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

import click

from ludex.cli import cli
from ludex.errors import LudexError

ROOT = Path(__file__).resolve().parents[2]
GAMES = {"tiny": ROOT / "tests" / "games" / "tiny", "imperium": ROOT / "games" / "imperium"}
VALUES = [[], {}, "x", 0, -1, 5, 10**30, -(10**30), 2**64, None, True, 1.5, [1], {"id": "q"},
          "a" * 300, [[[]]], "0xffffffffffffffffffff", "../../..", "/dev/zero", "pass",
          {"format": 1}, [None], ["pass"], float("inf")]


def paths(data: object, path: tuple = ()):
    yield path
    if isinstance(data, dict):
        for key, value in data.items():
            yield from paths(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from paths(value, (*path, i))


def mutate(saved: dict, rng: random.Random) -> str:
    """One mutation of a save, as the text of a file."""
    data = copy.deepcopy(saved)
    kind = rng.choice(["value", "value", "value", "drop", "add", "decisions", "text"])
    if kind == "decisions" and data["decisions"]:
        decisions = data["decisions"]
        how = rng.choice(["shuffle", "drop", "repeat", "swap"])
        if how == "shuffle":
            rng.shuffle(decisions)
        elif how == "drop":
            del decisions[rng.randrange(len(decisions))]
        elif how == "repeat":
            decisions.insert(rng.randrange(len(decisions)), rng.choice(decisions))
        else:
            decisions[rng.randrange(len(decisions))] = rng.choice(decisions + VALUES[:12])
        return json.dumps(data)
    if kind in ("value", "drop", "add"):
        place = rng.choice([p for p in paths(data) if p])
        target = data
        for key in place[:-1]:
            target = target[key]
        if kind == "value":
            target[place[-1]] = copy.deepcopy(rng.choice(VALUES))
        elif kind == "drop":
            del target[place[-1]]
        elif isinstance(target, dict):
            target[rng.choice(["extra", "run", "start", "agents", "game_folder"])] = \
                copy.deepcopy(rng.choice(VALUES))
        return json.dumps(data)
    text = json.dumps(data)
    cut = rng.randrange(len(text))
    return rng.choice([text[:cut], text[:cut] + chr(rng.randrange(32, 0x2FF)) + text[cut + 1:],
                       "[" * 5000 + text + "]" * 5000])


def run_command(args: list[str]) -> tuple[int, str]:
    """A command run as `ludex` runs it: (exit status, what it printed)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            cli.main(args, standalone_mode=False)
            code = 0
        except click.ClickException as exc:
            code = exc.exit_code
        except LudexError:
            code = 1
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    return code, out.getvalue()


def real_save(game: str, folder: Path, work: Path) -> dict:
    path = work / f"{game}.json"
    code, output = run_command(["play", str(folder), "--agents", "random", "--seed", "3",
                                "--max-decisions", "12", "--save", str(path)])
    assert code == 0, output
    return json.loads(path.read_text(encoding="utf-8"))


def crashes(count: int, seed: int, games: tuple[str, ...] = tuple(GAMES)) -> Counter:
    """Run `count` mutated saves of `games` through play --resume and dump; the crashes
    found."""
    rng = random.Random(seed)
    found: Counter = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        saves = {game: real_save(game, GAMES[game], work) for game in games}
        for i in range(count):
            game = rng.choice(sorted(saves))
            text = mutate(saves[game], rng)
            path = work / f"mutant{i % 7}.{rng.choice(['json', 'json', 'yaml'])}"
            path.write_text(text, encoding="utf-8")  # JSON text is YAML too
            command = rng.choice([
                ["play", str(GAMES[game]), "--resume", str(path), "--agents", "first",
                 "--max-decisions", "3"],
                ["play", str(GAMES[game]), "--resume", str(path), "--agents", "random",
                 "--max-decisions", "3", "--force"],
                ["dump", str(path)],
            ])
            try:
                code, output = run_command(command)
            except Exception as exc:  # the finding: an internal error
                frame = traceback.extract_tb(exc.__traceback__)[-1]
                found[f"{type(exc).__name__} at {Path(frame.filename).name}:{frame.lineno} "
                      f"({command[0]}: {text[:80]!r})"] += 1
                continue
            if code not in (0, 1, 2) or "Traceback" in output:
                found[f"exit {code} ({command[0]}: {text[:80]!r}): {output[-200:]}"] += 1
    return found


def main(argv: list[str]) -> int:
    count = int(argv[0]) if argv else 500
    seed = int(argv[1]) if len(argv) > 1 else 0
    began = time.monotonic()
    found = crashes(count, seed)
    for finding, times in found.most_common(20):
        print(f"FAILED ({times}x) {finding}", file=sys.stderr)
    print(f"saves: {count:,} mutated saves resumed or dumped, {sum(found.values())} "
          f"failures, {time.monotonic() - began:.0f} s, seed {seed}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
