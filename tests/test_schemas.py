"""The JSON Schemas: valid Draft 2020-12, closed objects, a description on every property (what
editors show while typing), and the copies in schema/ identical to what `ludex schema --export`
writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from ludex import schemas
from ludex.content import discover, load_game
from ludex.errors import Collector
from ludex.resources import bundled_games, schema_dir


def walk(node, path=()):
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from walk(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from walk(value, (*path, i))


@pytest.mark.parametrize("kind", schemas.KINDS)
def test_schema_is_valid_draft_2020_12(kind):
    Draft202012Validator.check_schema(schemas.base_schema(kind))


@pytest.mark.parametrize("kind", schemas.KINDS)
def test_every_property_has_a_human_description(kind):
    missing = []
    for path, node in walk(schemas.base_schema(kind)):
        for name, sub in (node.get("properties") or {}).items():
            if isinstance(sub, dict) and "description" not in sub and "$ref" not in sub:
                missing.append("/".join(map(str, (*path, name))))
            if isinstance(sub, dict) and "$ref" in sub and "description" not in sub:
                target = sub["$ref"].split("/")[-1]
                if "description" not in schemas.base_schema(kind)["$defs"][target]:
                    missing.append("/".join(map(str, (*path, name))))
    assert missing == []


@pytest.mark.parametrize("kind", schemas.KINDS)
def test_every_object_with_properties_is_closed(kind):
    # Closed means additionalProperties is false, or a schema that every extra key must meet.
    open_objects = [
        "/".join(map(str, path)) for path, node in walk(schemas.base_schema(kind))
        if "properties" in node and path[-1:] != ("properties",)
        and "additionalProperties" not in node
    ]
    assert open_objects == []


def test_schema_folder_matches_what_export_writes(tmp_path: Path):
    games = {}
    for game_id in bundled_games():
        game = load_game(discover(game_id), Collector(), schemas.Validators())
        games[game_id] = game.attributes()
    written = schemas.export(tmp_path, games)
    stale = [
        str(path.relative_to(tmp_path)) for path in written
        if not (schema_dir() / path.relative_to(tmp_path)).is_file()
        or json.loads(path.read_text()) !=
        json.loads((schema_dir() / path.relative_to(tmp_path)).read_text())
    ]
    assert stale == [], "run `ludex schema --export schema/` and commit the result"


def test_declared_card_attributes_extend_the_card_schema():
    schema = schemas.game_schema("cards", "demo", {
        "value": {"type": "integer", "minimum": 1, "maximum": 3, "required": True,
                  "description": "Ops value."}})
    card = schema["$defs"]["card"]
    assert card["properties"]["value"]["maximum"] == 3
    assert "value" in card["required"]


def test_every_shipped_content_file_names_an_existing_schema_for_editors():
    root = Path(__file__).resolve().parent.parent
    files = [p for top in ("rules", "cards") for p in (root / top).rglob("*.yaml")]
    files += list((root / "tests" / "scenarios").rglob("*.yaml"))
    problems = []
    for path in files:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        prefix = "# yaml-language-server: $schema="
        if not first.startswith(prefix):
            problems.append(f"{path}: no modeline")
        elif not (path.parent / first.removeprefix(prefix)).resolve().is_file():
            problems.append(f"{path}: {first.removeprefix(prefix)} does not exist")
    assert problems == []
