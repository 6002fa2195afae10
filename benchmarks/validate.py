"""Validating generated cards: Ludex's whole pipeline beside the floor of its peers, on the
same files.

Generates a copy of *The Sword of Rome* whose cards are replaced by 1,000 generated ones (100
per file, names in both locales), then times, side by side in one run:

* ludex    — `check_game`: positional YAML loading, schema checks, references, locales, types,
             every effect compiled;
* baseline — the floor: libyaml (`yaml.CSafeLoader`) and one compiled validator per file kind
             (fastjsonschema, compiled before timing), no positions, no cross-file checks.

Both sides are warm (Ludex keeps its validators between rounds as the baseline keeps its
compiled ones); what a cold process pays on top is benchmarks/suite.py's business (load_<game>).
Both are warmed to their steady state before timing: the baseline compiles its validators, and
Ludex, which compiles a schema's check only once it has checked a couple of thousand values
with it (schemas.Schema), has every schema it used compiled after its first round. One round
of warm-up left the manifest's and the tables' files to jsonschema in every timed round (the
tables' schema sees 126 values a round) and the compiling of others in some of them. Before
timing both sides must accept the generated files, and the baseline must reject a broken card
(so it really validates). Both are warmed up, then take turns.
Usage: python benchmarks/validate.py [--json] [--sizes 1000] [--rounds N] [--quick]
"""

from __future__ import annotations

import argparse
import copy
import gc
import os
import shutil
import tempfile
from pathlib import Path

import fastjsonschema
import yaml

from ludex import loading, schemas
from ludex.folders import discover
from ludex.resources import games_dir
from ludex.validate import check_game
from report import alternate, case, emit

GAME = "sword_of_rome"
PER_FILE = 100


def generate(root: Path, cards: int) -> None:
    shutil.copytree(games_dir() / GAME, root / GAME,
                    ignore=shutil.ignore_patterns("cards", "scenarios", "schemas"))
    target = root / GAME / "cards"
    (target / "locale").mkdir(parents=True)
    names = {"en": {}, "ru": {}}
    for start in range(0, cards, PER_FILE):
        set_id = f"set_{start // PER_FILE:04d}"
        lines = [f"id: {set_id}", "owner: romans", "zone: deck", "cards:"]
        for n in range(start, min(start + PER_FILE, cards)):
            card = f"card_{n:05d}"
            lines += [f"  - id: {card}", f"    value: {n % 3 + 1}",
                      f"    response: {'true' if n % 7 == 0 else 'false'}",
                      f"    reshuffle: {'true' if n % 11 == 0 else 'false'}"]
            names["en"][card] = {"name": f"Card {n}"}
            names["ru"][card] = {"name": f"Карта {n}"}
        (target / f"{set_id}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for lang, entries in names.items():
        text = yaml.safe_dump({"lang": lang, "cards": entries}, allow_unicode=True)
        (target / "locale" / f"{lang}.yaml").write_text(text, encoding="utf-8")


def ludex_side(root: Path):
    validators = schemas.Validators()
    os.environ["LUDEX_NO_CACHE"] = "1"  # every round does the whole work: no content cache …

    def run():
        loading.forget()  # … and nothing kept from the round before
        _, diagnostics = check_game(discover(root / GAME), validators)
        if diagnostics:
            raise SystemExit(f"generated content is invalid: {diagnostics[0].headline()}")
    run()  # every schema looked at once, then compiled: Ludex's steady state (see above)
    validators.compile_all()
    return run


def floor_side(root: Path):
    """libyaml + a compiled validator per kind; the validators are compiled here, once."""
    files = discover(root / GAME)
    manifest = yaml.load(files.manifest.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    attributes = {"cards": manifest["card_attributes"], "map": manifest["space_attributes"]}
    jobs = [("game", files.manifest), *((k, p) for k, p in files.rules.items()),
            *(("cards", p) for p in files.cards), *(("locale", p) for p in files.locales)]
    # a copy of each schema: fastjsonschema rewrites the `$ref`s of the schema it is given
    validators = {kind: fastjsonschema.compile(copy.deepcopy(
        schemas.game_schema(kind, GAME, attributes[kind]) if kind in attributes
        else schemas.base_schema(kind))) for kind in {k for k, _ in jobs}}

    def run():
        for kind, path in jobs:
            with open(path, "rb") as handle:
                validators[kind](yaml.load(handle, Loader=yaml.CSafeLoader))
    broken = {"id": "broken", "cards": [{"id": "x", "value": "three", "no_such_key": 1}]}
    try:
        validators["cards"](broken)
    except fastjsonschema.JsonSchemaException:
        return run
    raise SystemExit("the compiled validator accepts a broken card: it is not validating")


def run(sizes: tuple[int, ...] = (1000,), rounds: int = 5) -> list[dict]:
    cases = []
    for size in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            generate(root, size)
            gc.collect()  # what generating left for the collector is neither side's work
            ludex_s, baseline_s = alternate([ludex_side(root), floor_side(root)], rounds)
        cases.append(case(f"validate_{size}_cards", "baseline", ludex_s, baseline_s,
                          "libyaml + fastjsonschema on the same files", per="card",
                          units=size))
    return cases


QUICK = {"sizes": (10,), "rounds": 1}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--sizes", default="1000")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="a tiny run (the tests')")
    args = parser.parse_args()
    options = QUICK if args.quick else {
        "sizes": tuple(int(s) for s in args.sizes.split(",")), "rounds": args.rounds}
    emit(run(**options), args.json)


if __name__ == "__main__":
    main()
