"""The JSON Schemas: valid Draft 2020-12, closed objects, a description on every property (what
editors show while typing), and each game folder's editor schemas identical to what
`ludex schema GAME --export` writes, with every file's modeline pointing at them."""

from __future__ import annotations

from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from ludex import editor_schemas, schemas
from ludex.folders import discover

ROOT = Path(__file__).resolve().parent.parent
GAME_FOLDERS = sorted(p.parent for p in [*(ROOT / "games").glob("*/game.yaml"),
                                         *(ROOT / "examples").glob("*/game.yaml"),
                                         *(ROOT / "tests" / "games").glob("*/game.yaml")])


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


@pytest.mark.parametrize("folder", GAME_FOLDERS, ids=lambda p: p.name)
def test_each_game_folder_holds_the_schemas_export_writes(folder: Path):
    assert editor_schemas.stale(discover(folder)) == [], \
        f"run `ludex schema {folder} --export` and commit the result"


def test_editor_schemas_list_the_games_ids_as_enums():
    game = editor_schemas.load(discover(ROOT / "games" / "sword_of_rome"))
    cards = editor_schemas.generated(game)["cards"]
    assert "romans" in cards["$defs"]["power_id"]["enum"]
    assert cards["properties"]["owner"]["$ref"] == "#/$defs/power_id"
    assert cards["$defs"]["power_id"]["description"]
    # a translator's editor completes the ids a locale names
    locale = editor_schemas.generated(game)["locale"]
    assert locale["properties"]["cards"]["propertyNames"] == {"$ref": "#/$defs/card_id"}
    assert "roman_levy" in locale["$defs"]["card_id"]["enum"]


def test_a_games_scenario_schema_completes_its_clause_ids_and_its_cards_copies_included():
    """A designer's editor offered nothing under a scenario's `rules` or in its zones: the
    game's clause ids and its cards (`unrest#2` for a copy) are listed, and every bundled
    scenario still validates against its game's schema."""
    import yaml
    from jsonschema import Draft202012Validator

    folder = ROOT / "games" / "imperium"
    scenario = editor_schemas.generated(editor_schemas.load(discover(folder)))["scenario"]
    assert "IMP-ACQUIRE-a" in scenario["$defs"]["clause_id"]["enum"]
    cards = scenario["$defs"]["card_instance_id"]["enum"]
    assert {"market_town", "unrest#1", "unrest#2"} <= set(cards) and "unrest" not in cards
    zones = scenario["$defs"]["state"]["properties"]["zones"]["additionalProperties"]
    assert zones["items"] == {"$ref": "#/$defs/card_instance_id"}
    validator = Draft202012Validator(scenario)
    for path in sorted((folder / "scenarios").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        errors = [e.message for e in validator.iter_errors(data)]
        assert errors == [], path.name


def test_a_games_rules_and_cards_schemas_complete_the_clause_ids_a_clause_field_names():
    """`clause:` on a procedure, table or card completes the game's clause ids in an editor,
    and every bundled file of those kinds still validates against its game's schema."""
    import yaml
    from jsonschema import Draft202012Validator

    folder = ROOT / "games" / "imperium"
    generated = editor_schemas.generated(editor_schemas.load(discover(folder)))
    for kind, files in (("procedures", [folder / "procedures.yaml"]),
                        ("tables", [folder / "tables.yaml"]),
                        ("cards", sorted((folder / "cards").glob("*.yaml")))):
        schema = generated[kind]
        assert "IMP-ACQUIRE-a" in schema["$defs"]["clause_id"]["enum"], kind
        clause = schema["$defs"]["clauses"]["oneOf"]
        assert clause[0]["$ref"] == clause[1]["items"]["$ref"] == "#/$defs/clause_id"
        validator = Draft202012Validator(schema)
        for path in files:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            assert [e.message for e in validator.iter_errors(data)] == [], path.name
    assert generated["cards"]["$defs"]["card"]["properties"]["clause"] == {
        "$ref": "#/$defs/clauses"}


@pytest.mark.parametrize("copies, listed", [(300, 300), (6000, 0)])
def test_every_copy_of_a_card_is_completed_or_none_is_listed(tmp_path, copies, listed):
    """The list stopped at 200 copies of a card, so the editor underlined a valid `x#201`;
    past a few thousand cards the id's pattern stands instead of any list."""
    import shutil

    game = tmp_path / "tiny"
    shutil.copytree(ROOT / "tests" / "games" / "tiny", game)
    cards = game / "cards" / "tiny_cards.yaml"
    cards.write_text(cards.read_text() + f"  - {{id: filler, copies: {copies}}}\n")
    scenario = editor_schemas.generated(editor_schemas.load(discover(game)))["scenario"]
    listed_cards = scenario["$defs"]["card_instance_id"].get("enum", [])
    assert len([c for c in listed_cards if c.startswith("filler#")]) == listed
    if not listed:
        assert scenario["$defs"]["card_instance_id"]["pattern"]


def test_declared_card_attributes_extend_the_card_schema():
    schema = schemas.game_schema("cards", "demo", {
        "value": {"type": "integer", "minimum": 1, "maximum": 3, "required": True,
                  "description": "Ops value."}})
    card = schema["$defs"]["card"]
    assert card["properties"]["value"]["maximum"] == 3
    assert "value" in card["required"]


@pytest.mark.parametrize("folder", GAME_FOLDERS, ids=lambda p: p.name)
def test_every_file_of_a_game_points_at_the_games_own_schema(folder: Path):
    files = discover(folder)
    paths = [*files.all_paths(), *sorted(files.scenarios.rglob("*.yaml"))]
    problems = []
    for path in paths:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        prefix = "# yaml-language-server: $schema="
        if not first.startswith(prefix):
            problems.append(f"{path}: no modeline")
        elif (path.parent / first.removeprefix(prefix)).resolve().parent != \
                files.schemas.resolve():
            problems.append(f"{path}: {first.removeprefix(prefix)} is not in {files.schemas}")
        elif not (path.parent / first.removeprefix(prefix)).resolve().is_file():
            problems.append(f"{path}: {first.removeprefix(prefix)} does not exist")
    assert problems == []


def every_reference(schema: dict, instance, path: tuple = (), root: dict | None = None):
    """The references the schema marks, found the plain way: every value walked, every `$ref`
    followed each time it is met (iter_refs prunes and remembers; it must find the same)."""
    root = root or schema
    while "$ref" in schema:
        namespace = schemas._namespace(schema)
        if namespace is not None:
            if isinstance(instance, str):
                yield namespace, instance, path, False
            return
        target = root
        for part in schema["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
    names = schemas._namespace(schema.get("propertyNames") or {})
    if names and isinstance(instance, dict):
        for key in instance:
            yield names, key, (*path, key), True
    if isinstance(instance, dict):
        extra = schema.get("additionalProperties")
        for key, value in instance.items():
            sub = schema.get("properties", {}).get(key, extra if isinstance(extra, dict)
                                                   else None)
            if sub is not None:
                yield from every_reference(sub, value, (*path, key), root)
    elif isinstance(instance, list) and isinstance(schema.get("items"), dict):
        for i, value in enumerate(instance):
            yield from every_reference(schema["items"], value, (*path, i), root)


@pytest.mark.parametrize("folder", GAME_FOLDERS, ids=lambda p: p.name)
def test_iter_refs_finds_every_reference_in_the_order_of_the_content(folder: Path):
    from ludex.content import load_game
    from ludex.errors import Collector

    game = load_game(discover(folder), Collector(), schemas.Validators())
    declared = game.attributes()
    found, by_role = 0, {}
    for role, doc in [*game.docs.items(), *(("cards", d) for d in game.cards)]:
        if role not in by_role:  # one schema per role, and what walks worked out of it
            by_role[role] = (schemas.game_schema(role, game.game_id, declared[role])
                             if role in schemas.EXTENSIBLE and declared.get(role)
                             else schemas.base_schema(role)), {}
        schema, shared = by_role[role]
        expected = list(every_reference(schema, doc.data))
        assert list(schemas.iter_refs(schema, doc.data)) == expected, doc.path
        # what one file's walk worked out of the schema serves the next files of its role
        assert list(schemas.iter_refs(schema, doc.data, memo=shared)) == expected, doc.path
        found += len(expected)
    assert found > 0


def test_export_points_a_file_at_its_schema_once_past_a_byte_order_mark_or_a_comment(tmp_path):
    """A modeline after a byte-order mark, or below a first comment line, was missed: a
    second one was added and the mark left in mid-file (found by a reliability audit)."""
    import shutil

    game = tmp_path / "tiny"
    shutil.copytree(ROOT / "tests" / "games" / "tiny", game)
    map_file, manifest = game / "map.yaml", game / "game.yaml"
    map_file.write_text("\ufeff" + map_file.read_text(encoding="utf-8"), encoding="utf-8")
    lines = manifest.read_text(encoding="utf-8").splitlines(keepends=True)
    manifest.write_text("# the tiny game\n" + "".join(lines), encoding="utf-8")
    editor_schemas.refresh(game)
    for path in (map_file, manifest):
        text = path.read_text(encoding="utf-8")
        assert text.count("yaml-language-server") == 1 and "\ufeff" not in text
        assert text.startswith("# yaml-language-server: $schema=schemas/")


def test_export_refuses_a_game_with_a_file_that_does_not_read(tmp_path):
    """Its ids would drop out of the schemas (a phase's `enum` became any id) without a word."""
    import shutil

    from ludex.errors import LudexError

    game = tmp_path / "tiny"
    shutil.copytree(ROOT / "tests" / "games" / "tiny", game)
    before = (game / "schemas" / "game.schema.json").read_bytes()
    procedures = game / "procedures.yaml"
    procedures.write_text(procedures.read_text(encoding="utf-8") + "oops: [\n", encoding="utf-8")
    with pytest.raises(LudexError) as refused:
        editor_schemas.export(discover(game))
    assert refused.value.diagnostics[0].code == "yaml/syntax"
    assert (game / "schemas" / "game.schema.json").read_bytes() == before
