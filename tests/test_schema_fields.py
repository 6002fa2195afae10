"""No field of the schemas is silently ignored: a designer who writes a field the schema accepts
must get the behaviour its description promises. Every property of every schema is named by the
package's code (which reads it), or is marked editor-only (`"$comment": "editor-only: …"`:
text for editors and readers; a comment, not a custom keyword, so that strict validators accept
the schemas)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = sorted((ROOT / "schema").glob("*.schema.json"))
SOURCE = "\n".join(p.read_text(encoding="utf-8")
                   for p in sorted((ROOT / "interpreter" / "ludex").rglob("*.py")))
_NESTED = ("items", "additionalProperties", "then", "else", "if", "not")


def properties(node, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], dict]]:
    """(path, schema) of every property declared anywhere in a schema."""
    if not isinstance(node, dict):
        return
    for name, spec in (node.get("properties") or {}).items():
        yield (*path, name), spec
        yield from properties(spec, (*path, name))
    for key in _NESTED:
        yield from properties(node.get(key), path)
    for key in ("oneOf", "anyOf", "allOf", "prefixItems"):
        for sub in node.get(key) or []:
            yield from properties(sub, path)
    for key in ("$defs", "patternProperties"):
        for name, sub in (node.get(key) or {}).items():
            yield from properties(sub, (*path, name))


CASES = [(schema.name, "/".join(path), spec) for schema in SCHEMAS
         for path, spec in properties(json.loads(schema.read_text(encoding="utf-8")))]


def test_the_walk_finds_the_fields_of_every_schema():
    assert {name for name, _, _ in CASES} == {s.name for s in SCHEMAS}
    assert ("procedures.schema.json", "phases/until") in {(n, p) for n, p, _ in CASES}


@pytest.mark.parametrize(("schema", "path", "spec"), CASES, ids=[f"{n}:{p}" for n, p, _ in CASES])
def test_every_schema_field_is_read_by_the_code_or_marked_editor_only(schema, path, spec):
    name = path.rsplit("/", 1)[-1]
    if str(spec.get("$comment", "")).startswith("editor-only"):
        assert spec.get("description"), f"{schema} {path}: say who the field is for"
        return
    assert f'"{name}"' in SOURCE or f"'{name}'" in SOURCE, (
        f"{schema}: `{path}` is accepted but no code reads `{name}`; read it, or mark it "
        "editor-only (`\"$comment\": \"editor-only: …\"`) if it is for editors and readers only")
