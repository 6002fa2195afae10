"""The compiled schema check (compiled_schemas.py) answers as jsonschema does: on every content
file of every game and every case of the invalid corpus it accepts exactly what jsonschema
accepts; on mutated documents it never accepts what jsonschema refuses, and validation with it
reports exactly what jsonschema alone reports.

(It may refuse more: its `pattern`s read `$` as the end of the text, as JavaScript does, where
Python's `re` also lets `$` match before a final newline. A file it refuses goes to
jsonschema, whose answer counts.)"""

from __future__ import annotations

import copy
import random
import re
from functools import cache
from pathlib import Path

import pytest

from ludex import schemas
from ludex.compiled_schemas import compile_check
from ludex.content import load_game
from ludex.errors import Collector
from ludex.folders import classify, discover, find_game
from ludex.yamlio import load_file

ROOT = Path(__file__).resolve().parent.parent
GAME_FOLDERS = sorted(p.parent for p in [*(ROOT / "games").glob("*/game.yaml"),
                                         *(ROOT / "examples").glob("*/game.yaml"),
                                         *(ROOT / "tests" / "games").glob("*/game.yaml")])
CORPUS = ROOT / "tests" / "invalid"
AS = re.compile(r"^# as: (\S+) (\S+)$", re.MULTILINE)
# values of other shapes, as the content fuzzer (tests/fuzz/content_mutations.py) puts them
REPLACEMENTS = [[], {}, "x", 5, -3, None, True, 1.5, 2.0, [1], {"id": "q"}, {"type": "bogus"},
                "a" * 300, [[[]]], "}{", "red", "", "Roma", "roma\n", 10**16]


def paths(data: object, path: tuple = ()) -> list[tuple]:
    found = [path]
    if isinstance(data, dict):
        for key, value in data.items():
            found += paths(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            found += paths(value, (*path, i))
    return found


@cache
def attributes(folder: Path) -> tuple[str, dict]:
    game = load_game(discover(folder), Collector(), schemas.Validators())
    return game.game_id, game.attributes()


@cache
def both(folder: Path, kind: str) -> tuple:
    """jsonschema's validator and the compiled check of `kind` for the game in `folder`."""
    game_id, declared = attributes(folder)
    full = schemas.Validators().get(kind, game_id, declared.get(kind)).validator
    check = compile_check(full.schema)
    assert check is not None, f"{kind} of {game_id} did not compile"
    return full, check


@cache
def compiled(folder: Path, kind: str) -> schemas.Schema:
    """The schema as `ludex validate` uses it, its compiled check made at once."""
    schema = schemas.Schema(both(folder, kind)[0])
    schema.surely_valid({}, schemas.Schema.COMPILE_AFTER)
    assert schema._check is not None
    return schema


def reported(doc, data, validator) -> list[tuple]:
    errors = Collector()
    schemas.validate(_with_data(doc, data), validator, errors)
    return [(d.code, d.line, d.col, d.message) for d in errors.sorted()]


def _with_data(doc, data):
    changed = copy.copy(doc)
    changed.data = data
    return changed


def game_files() -> list[tuple[Path, str, Path]]:
    found = []
    for folder in GAME_FOLDERS:
        files = discover(folder)
        for path in [*files.all_paths(), *sorted(files.scenarios.rglob("*.yaml"))]:
            found.append((path, classify(path)[0], folder))
    return found


def corpus_files() -> list[tuple[Path, str, Path]]:
    found = []
    for path in sorted(CORPUS.rglob("*.yaml")):
        kind, game = AS.search(path.read_text(encoding="utf-8", errors="replace")).groups()
        found.append((path, kind, find_game(CORPUS / game if game.startswith("../") else game)))
    return found


def _shown(value) -> str:
    if isinstance(value, Path):
        return str(value.relative_to(ROOT)) if value.is_relative_to(ROOT) else value.name
    return str(value)


def same_answer(path: Path, kind: str, folder: Path) -> None:
    doc = load_file(path, Collector())
    if doc is None:
        return  # refused before any schema looks at it
    full, check = both(folder, kind)
    assert check(doc.data) == full.is_valid(doc.data), path


@pytest.mark.parametrize(("path", "kind", "folder"), game_files(),
                         ids=lambda v: _shown(v))
def test_compiled_check_accepts_every_file_of_every_game_as_jsonschema_does(path, kind, folder):
    same_answer(path, kind, folder)


@pytest.mark.parametrize(("path", "kind", "folder"), corpus_files(),
                         ids=lambda v: _shown(v))
def test_compiled_check_judges_every_corpus_case_as_jsonschema_does(path, kind, folder):
    same_answer(path, kind, folder)


@pytest.mark.parametrize("folder", GAME_FOLDERS, ids=lambda p: p.name)
def test_compiled_check_judges_mutated_documents_as_jsonschema_does(folder: Path):
    """One value somewhere replaced by a value of another shape (the content fuzzer's
    mutations), 300 times per game: both validators give the same answer every time."""
    rng = random.Random(14)
    files = [(p, k) for p, k, f in game_files() if f == folder]
    docs = [(load_file(p, Collector()), k) for p, k in files]
    refused = 0
    for _ in range(300):
        doc, kind = rng.choice(docs)
        places = [p for p in paths(doc.data) if p]
        place, value = rng.choice(places), copy.deepcopy(rng.choice(REPLACEMENTS))
        data = copy.deepcopy(doc.data)
        target = data
        for key in place[:-1]:
            target = target[key]
        target[place[-1]] = value
        full, check = both(folder, kind)
        valid = full.is_valid(data)
        assert valid or not check(data), (doc.path, place, value)
        assert reported(doc, data, compiled(folder, kind)) == reported(doc, data, full), (
            doc.path, place, value)
        refused += not valid
    assert refused > 50  # the mutations do break files


def test_a_ref_with_sibling_keywords_applies_both_as_draft_2020_12_does():
    """fastjsonschema reads `$ref` as replacing its siblings (draft 7): the schema is rewritten
    so that an object missing a required key under a `$ref` is still refused."""
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema",
              "$defs": {"thing": {"type": "object"}},
              "$ref": "#/$defs/thing", "required": ["id"]}
    check = compile_check(schema)
    assert check({"id": 1}) is True
    assert check({}) is False


def test_the_check_compiles_once_a_schema_has_enough_values_and_errors_still_come_from_jsonschema():
    game_id, declared = attributes(ROOT / "games" / "sword_of_rome")
    schema = schemas.Validators().get("cards", game_id, declared["cards"])
    assert schema._check is None
    small = load_file(ROOT / "games" / "sword_of_rome" / "cards" / "romans.yaml", Collector())
    schema.surely_valid(small.data, 1)
    assert not schema._compiled  # a handful of values: jsonschema alone is cheaper
    schema.surely_valid(small.data, schemas.Schema.COMPILE_AFTER)
    assert schema._check is not None
    broken = copy.deepcopy(small)
    broken.data["cards"][0]["value"] = "three"
    errors = Collector()
    assert schemas.validate(broken, schema, errors) is False
    line, col = broken.pos(("cards", 0, "value"))
    assert [(d.code, d.line, d.col) for d in errors.sorted()] == [
        ("schema/wrong-type", line, col)]


def test_compile_all_compiles_every_schema_handed_out_and_only_those():
    game_id, declared = attributes(ROOT / "games" / "sword_of_rome")
    validators = schemas.Validators()
    cards = validators.get("cards", game_id, declared["cards"])
    tables = validators.get("tables")
    validators.compile_all()  # benchmarks/validate.py's warm-up: no threshold left to reach
    assert cards._compiled and tables._compiled
    assert cards._check is not None and tables._check is not None
