"""Structure-aware mutation of a game's content: one value somewhere in one file replaced by a
value of another shape, then the whole game loaded and checked. Whatever the content, checking
it must end in diagnostics, never in an exception.

Run briefly by the test suite (deterministic seeds) and at length by `make fuzz`:
`python -m tests.fuzz.content_mutations GAME_FOLDER COUNT [SEED]`.
"""

from __future__ import annotations

import copy
import random
import sys
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

from ludex import schemas
from ludex.checks import run_all
from ludex.content import LoadedGame, _index, load_game
from ludex.errors import Collector
from ludex.folders import discover
from ludex.gamedef import build_definition

REPLACEMENTS = [[], {}, "x", 5, -3, None, True, 1.5, [1], {"id": "q"}, {"type": "bogus"},
                "a" * 300, [[[]]], "}{", "red"]


def paths(data: object, path: tuple = ()) -> Iterator[tuple]:
    yield path
    if isinstance(data, dict):
        for key, value in data.items():
            yield from paths(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from paths(value, (*path, i))


def crashes(folder: Path, count: int, seed: int) -> Counter:
    """Mutate `count` times; the exceptions met, by kind and place (empty when all is well)."""
    rng = random.Random(seed)
    files = discover(folder)
    base = load_game(files, Collector(), schemas.Validators())
    docs = base.all_docs()
    found: Counter = Counter()
    for _ in range(count):
        doc = rng.choice(docs)
        places = [p for p in paths(doc.data) if p]
        if not places:
            continue
        place, value = rng.choice(places), copy.deepcopy(rng.choice(REPLACEMENTS))
        original = doc.data
        doc.data = copy.deepcopy(original)
        target = doc.data
        for key in place[:-1]:
            target = target[key]
        target[place[-1]] = value
        try:
            _check(base, doc)
        except Exception as exc:  # the finding: content that breaks the checker
            frame = traceback.extract_tb(exc.__traceback__)[-1]
            found[f"{type(exc).__name__} at {Path(frame.filename).name}:{frame.lineno} "
                  f"({doc.path}: {place} = {value!r:.40})"] += 1
        finally:
            doc.data = original
    return found


def _check(base: LoadedGame, changed) -> None:
    game = copy.copy(base)
    game.schema_clean = set(base.schema_clean)
    kind = next((role for role, d in base.docs.items() if d is changed),
                "cards" if changed in base.cards else "locale")
    validator = schemas.Validators().get(kind, base.game_id, base.attributes().get(kind))
    if not schemas.validate(changed, validator, Collector()):
        game.schema_clean.discard(str(changed.path))
    errors = Collector()
    _index(game, errors)
    run_all(game, errors)
    build_definition(game, errors)


def main(find: Callable[[Path, int, int], Counter], what: str) -> None:
    """`python -m tests.fuzz.<fuzzer> GAME_FOLDER COUNT [SEED]`: the crashes found, by kind
    and place, then a count; exit 1 when there are any."""
    folder, count = Path(sys.argv[1]), int(sys.argv[2])
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    result = find(folder, count, seed)
    for line, times in result.most_common():
        print(times, line)
    print(f"{count} {what} of {folder}: {sum(result.values())} crashes")
    sys.exit(1 if result else 0)


if __name__ == "__main__":
    main(crashes, "mutations")
