"""Our schemas are plain JSON Schema: independent validators (check-jsonschema, and Ajv in strict
mode, union types allowed) judge every content file of every game as `ludex validate` does at
the schema level, using the schema each file's modeline names — the game's own editor schemas.

Skipped only where a tool is absent; `make test` installs both.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ludex.errors import Collector
from ludex.folders import classify, discover
from ludex.validate import validate_paths
from ludex.yamlio import load_file

ROOT = Path(__file__).resolve().parent.parent
GAME_FOLDERS = sorted(p.parent for p in [*(ROOT / "games").glob("*/game.yaml"),
                                         *(ROOT / "examples").glob("*/game.yaml"),
                                         *(ROOT / "tests" / "games").glob("*/game.yaml")])
CORPUS = ROOT / "tests" / "invalid"
MODELINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)")
NODE_MODULES = Path(os.environ.get("LUDEX_NODE_MODULES", ROOT / ".venv" / "node" / "node_modules"))
CHECK_JSONSCHEMA = shutil.which("check-jsonschema") or (
    str(Path(sys.executable).parent / "check-jsonschema")
    if (Path(sys.executable).parent / "check-jsonschema").is_file() else None)


def content_files() -> list[tuple[Path, Path]]:
    """(file, the schema its modeline names) for every file of every game, scenarios too."""
    pairs = []
    for folder in GAME_FOLDERS:
        files = discover(folder)
        for path in [*files.all_paths(), *sorted(files.scenarios.rglob("*.yaml"))]:
            found = MODELINE.match(path.read_text(encoding="utf-8"))
            assert found, f"{path} has no modeline"
            pairs.append((path, (path.parent / found.group(1)).resolve()))
    return pairs


def schema_rejected_corpus() -> list[tuple[Path, Path]]:
    """(file, its game's editor schema of its kind) for corpus cases that `ludex validate`
    rejects at the schema level (a `schema/…` diagnostic). Cases that YAML loading already
    refuses are left out: other tools read YAML differently (merge keys, for one)."""
    pairs = []
    for path in sorted(CORPUS.rglob("*.yaml")):
        head = path.read_text(encoding="utf-8", errors="replace")
        declared = re.search(r"^# as: (\S+) (\S+)$", head, re.MULTILINE)
        codes = re.findall(r"^# expect: (schema/\S+)", head, re.MULTILINE)
        if declared and codes and not re.search(r"^# expect: yaml/", head, re.MULTILINE):
            kind, game = declared.groups()
            # a bundled game's id, or a test game's path from the corpus (`../games/tiny`)
            folder = (CORPUS / game).resolve() if "/" in game else ROOT / "games" / game
            pairs.append((path, folder / "schemas" / f"{kind}.schema.json"))
    return pairs


def ajv(pairs: list[tuple[Path, Path]]) -> dict[str, bool]:
    if shutil.which("node") is None or not (NODE_MODULES / "ajv").is_dir():
        pytest.skip("node and ajv are not installed (make test installs them)")
    schemas, instances = {}, []
    for path, schema in pairs:
        schemas.setdefault(str(schema), json.loads(schema.read_text(encoding="utf-8")))
        doc = load_file(path, Collector())
        instances.append({"name": str(path), "schema": str(schema),
                          "data": doc.data if doc is not None else None})
    result = subprocess.run(["node", str(ROOT / "tests" / "tools" / "ajv_validate.cjs")],
                            input=json.dumps(instances and {"schemas": schemas,
                                                            "instances": instances}),
                            capture_output=True, text=True, check=True,
                            env={**os.environ, "NODE_PATH": str(NODE_MODULES)})
    return {r["name"]: (r["valid"], r["errors"]) for r in json.loads(result.stdout)}


def check_jsonschema(pairs: list[tuple[Path, Path]]) -> dict[str, tuple[bool, str]]:
    """One run per schema over all of its files; a file is valid when no error names it."""
    if CHECK_JSONSCHEMA is None:
        pytest.skip("check-jsonschema is not installed (make test installs it)")
    by_schema: dict[Path, list[Path]] = {}
    for path, schema in pairs:
        by_schema.setdefault(schema, []).append(path)
    verdicts = {}
    for schema, paths in by_schema.items():
        run = subprocess.run([CHECK_JSONSCHEMA, "-o", "json", "--schemafile", str(schema),
                              "--default-filetype", "yaml", *map(str, paths)],
                             capture_output=True, text=True)
        report = json.loads(run.stdout)
        problems: dict[str, list[str]] = {}
        for error in [*report.get("errors", []), *report.get("parse_errors", [])]:
            problems.setdefault(str(Path(error["filename"]).resolve()), []).append(
                error.get("message", ""))
        for path in paths:
            found = problems.get(str(path.resolve()), [])
            verdicts[str(path)] = (not found, "; ".join(found))
    return verdicts


def test_ludex_finds_every_game_file_clean():
    report = validate_paths(GAME_FOLDERS)
    assert report.diagnostics == []


def test_every_file_is_of_the_kind_its_modeline_says():
    for path, schema in content_files():
        assert classify(path)[0] == schema.name.removesuffix(".schema.json"), path


def test_ajv_in_strict_mode_accepts_every_game_file():
    verdicts = ajv(content_files())
    refused = {name: errors for name, (valid, errors) in verdicts.items() if not valid}
    assert refused == {}


def test_check_jsonschema_accepts_every_game_file():
    verdicts = check_jsonschema(content_files())
    refused = {name: output for name, (valid, output) in verdicts.items() if not valid}
    assert refused == {}


def test_ajv_rejects_what_ludex_rejects_at_the_schema_level():
    pairs = schema_rejected_corpus()
    assert len(pairs) >= 10
    verdicts = ajv(pairs)
    accepted = [name for name, (valid, _) in verdicts.items() if valid]
    assert accepted == []


def test_check_jsonschema_rejects_what_ludex_rejects_at_the_schema_level():
    pairs = schema_rejected_corpus()
    verdicts = check_jsonschema(pairs)
    accepted = [name for name, (valid, _) in verdicts.items() if valid]
    assert accepted == []
