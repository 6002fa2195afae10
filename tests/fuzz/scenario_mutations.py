"""Structure-aware mutation of a game's scenarios: one value somewhere in one scenario replaced
by a value of another shape, or a key a scenario knows added where it does not belong, then the
file validated and run. Whatever a scenario says, `validate` must end in diagnostics and `test`
in a result (passed, failed or error), never in an exception.

Run briefly by the test suite (deterministic seeds) and at length by `make fuzz`:
`python -m tests.fuzz.scenario_mutations GAME_FOLDER COUNT [SEED]`.
"""

from __future__ import annotations

import copy
import random
import shutil
import tempfile
import traceback
from collections import Counter
from pathlib import Path

import yaml
from tests.fuzz.content_mutations import REPLACEMENTS, main, paths

from ludex.scenario import run_scenario
from ludex.validate import validate_paths

# what scenarios are made of: names of cards (copies too), powers and phases of the bundled
# games, counts at and past the bounds, and the keys of `state`, `run`, decisions and cards
NAMES = ["unrest#1", "unrest#99", "market_town", "celts", "romans", "north", "action", "turn",
         "deal", "hand", 0, -1, 10 ** 20, 2 ** 63, "", "a" * 80, "#", "x#0"]
KEYS = ["cards", "memory", "seat", "under", "tokens", "owner", "round", "phase", "active",
        "who", "choose", "question", "options", "value", "equals", "effect", "turns", "card",
        "args", "error", "winner", "log_tail", "zones", "counters"]


def mutate(data: object, rng: random.Random) -> tuple[object, str]:
    """A deep copy of `data` changed in one place, and what was changed."""
    data = copy.deepcopy(data)
    places = [p for p in paths(data) if p]
    if not places:
        return data, "nothing"
    place = rng.choice(places)
    target = data
    for key in place[:-1]:
        target = target[key]
    value = copy.deepcopy(rng.choice(REPLACEMENTS + NAMES))
    holder = target[place[-1]]
    if isinstance(holder, dict) and rng.random() < 0.4:  # a key where it does not belong
        key = rng.choice(KEYS + NAMES[:8])
        holder[key] = value
        return data, f"{place} + {key} = {value!r:.40}"
    target[place[-1]] = value
    return data, f"{place} = {value!r:.40}"


def crashes(folder: Path, count: int, seed: int) -> Counter:
    """Mutate `count` times; the exceptions met, by kind and place (empty when all is well)."""
    rng = random.Random(seed)
    found: Counter = Counter()
    with tempfile.TemporaryDirectory() as scratch:
        game = Path(scratch) / folder.name
        shutil.copytree(folder, game)  # `game: ..` and ids resolve from the copy's scenarios
        scenarios = sorted((game / "scenarios").glob("*.yaml"))
        for number in range(count):
            source = rng.choice(scenarios)
            data, change = mutate(yaml.safe_load(source.read_text(encoding="utf-8")), rng)
            path = game / "scenarios" / f"zz_mutated_{number}.yaml"
            path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
            try:
                validate_paths([path])
                run_scenario(path)
            except Exception as exc:  # the finding: a scenario that breaks Ludex
                frame = traceback.extract_tb(exc.__traceback__)[-1]
                found[f"{type(exc).__name__} at {Path(frame.filename).name}:{frame.lineno} "
                      f"({source.name}: {change})"] += 1
            finally:
                path.unlink()
    return found


if __name__ == "__main__":
    main(crashes, "scenario mutations")
