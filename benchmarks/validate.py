"""Load + validate cost per card: Ludex's whole pipeline beside plain jsonschema.

Generates a copy of *The Sword of Rome* with 100, 1,000 and 10,000 cards (100 cards per file,
names in both locales), then times, side by side in one run:

* ludex    — `check_game`: positional YAML loading, schema checks, references, locales;
* baseline — the peer floor: `yaml.load` (libyaml) + one jsonschema validator per file kind,
             no positions, no cross-file checks.

Ratios, not absolute times, are what we track (machines here are noisy).
Usage: python benchmarks/validate.py [--json] [--sizes 100,1000,10000]
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

import yaml
from jsonschema import Draft202012Validator

from ludex import schemas
from ludex.folders import discover
from ludex.resources import games_dir
from ludex.validate import check_game
from report import emit

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


def run_ludex(root: Path) -> float:
    files = discover(root / GAME)
    schemas.base_schema.cache_clear()  # cold: schemas read and validators built inside the timing
    schemas._base_validator.cache_clear()
    start = time.perf_counter()
    _, diagnostics = check_game(files, schemas.Validators())
    elapsed = time.perf_counter() - start
    if diagnostics:
        raise SystemExit(f"generated content is invalid: {diagnostics[0].headline()}")
    return elapsed


def run_baseline(root: Path) -> float:
    files = discover(root / GAME)
    schemas.base_schema.cache_clear()
    start = time.perf_counter()
    manifest = yaml.load(files.manifest.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    attributes = {"cards": manifest["card_attributes"], "map": manifest["space_attributes"]}
    validators = {}
    jobs = [("game", files.manifest), *((k, p) for k, p in files.rules.items()),
            *(("cards", p) for p in files.cards), *(("locale", p) for p in files.locales)]
    for kind, path in jobs:
        if kind not in validators:
            schema = (schemas.game_schema(kind, GAME, attributes[kind])
                      if kind in attributes else schemas.base_schema(kind))
            validators[kind] = Draft202012Validator(schema)
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
        errors = list(validators[kind].iter_errors(data))
        if errors:
            raise SystemExit(f"baseline found errors in {path}: {errors[0].message}")
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--sizes", default="100,1000,10000")
    args = parser.parse_args()
    cases = []
    for size in (int(s) for s in args.sizes.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            generate(root, size)
            ludex_s, baseline_s = run_ludex(root), run_baseline(root)
        cases.append({"name": f"validate_{size}_cards", "cards": size, "ludex_s": ludex_s,
                      "baseline_s": baseline_s, "ratio": ludex_s / baseline_s,
                      "ludex_us_per_card": ludex_s / size * 1e6,
                      "baseline_us_per_card": baseline_s / size * 1e6})
    emit(cases, args.json, extra=("ludex_us_per_card", "ludex µs/card"))


if __name__ == "__main__":
    main()
