"""JSON Schemas: loading them, one reused validator per schema, and turning their errors into
diagnostics that point at the offending key or value.

The schemas in `schema/` are the source of truth. A game extends two of them (cards and map)
with the attributes its manifest declares; `game_schema` builds those extended schemas, which
`ludex schema --export` also writes to `schema/generated/<game>/` for editors.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

from .errors import Collector, did_you_mean
from .resources import schema_dir
from .yamlio import Document

KINDS = ("game", "map", "tables", "procedures", "cards", "locale", "scenario", "clauses")
EXTENSIBLE = {"cards": "card", "map": "space"}  # kind -> $defs entry that takes attributes


@cache
def base_schema(kind: str) -> dict:
    if kind not in KINDS:
        raise KeyError(kind)
    return json.loads((schema_dir() / f"{kind}.schema.json").read_text(encoding="utf-8"))


@cache
def _base_validator(kind: str) -> Draft202012Validator:
    schema = base_schema(kind)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def game_schema(kind: str, game_id: str, attributes: dict[str, dict]) -> dict:
    """The schema for `kind` with a game's declared attributes added to each card or space."""
    schema = copy.deepcopy(base_schema(kind))
    entry = schema["$defs"][EXTENSIBLE[kind]]
    for name, spec in attributes.items():
        fragment = {k: v for k, v in spec.items() if k not in ("required", "ref")}
        if "ref" in spec:
            fragment["x-ref"] = spec["ref"]
        entry["properties"][name] = fragment
        if spec.get("required"):
            entry.setdefault("required", []).append(name)
    schema["$id"] = f"https://ludex.dev/schema/generated/{game_id}/{kind}.schema.json"
    schema["title"] += f" ({game_id})"
    return schema


class Validators:
    """One validator per (kind, game): compiled once, reused for every file."""

    def __init__(self) -> None:
        self._by_game: dict[tuple[str, str], Draft202012Validator] = {}

    def get(self, kind: str, game_id: str | None = None,
            attributes: dict[str, dict] | None = None) -> Draft202012Validator:
        if kind not in EXTENSIBLE or not attributes or not game_id:
            return _base_validator(kind)
        key = (kind, game_id)
        if key not in self._by_game:
            self._by_game[key] = Draft202012Validator(game_schema(kind, game_id, attributes))
        return self._by_game[key]


def validate(doc: Document, validator: Draft202012Validator, errors: Collector) -> bool:
    """Validate a document; report each error at its key or value. True when clean."""
    clean = True
    for error in validator.iter_errors(doc.data):
        clean = False
        _report(doc, error, errors)
    return clean


def _report(doc: Document, error: ValidationError, errors: Collector) -> None:
    name = str(doc.path)
    path = tuple(error.absolute_path)
    kind = error.validator
    if kind in ("oneOf", "anyOf") and error.context:
        deepest = best_match(error.context)
        if deepest is not None and tuple(deepest.absolute_path) != path:
            _report(doc, deepest, errors)
            return
        wanted = [e.validator_value for e in error.context if e.validator == "type"]
        if len(wanted) == len(error.context):
            line, col = doc.pos(path)
            errors.error(name, line, col, "schema/wrong-type",
                         f"{_show(error.instance)} is not of type {_types(wanted)}")
            return
    if kind == "additionalProperties" and isinstance(error.instance, dict):
        known = set(error.schema.get("properties", {}))
        for key in error.instance:
            if key not in known and not _matches_patterns(key, error.schema):
                line, col = doc.key_pos((*path, key))
                errors.error(name, line, col, "schema/unknown-key",
                             f"unknown key `{key}`" + did_you_mean(key, known))
        return
    line, col = doc.pos(path)
    if kind == "required":
        errors.error(name, line, col, "schema/missing-key", error.message.replace("'", "`"))
    elif kind == "type":
        errors.error(name, line, col, "schema/wrong-type",
                     f"{_show(error.instance)} is not of type {_types(error.validator_value)}")
    elif kind == "enum":
        allowed = [str(v) for v in error.validator_value]
        errors.error(name, line, col, "schema/not-allowed",
                     f"{_show(error.instance)} is not one of {', '.join(allowed)}"
                     + did_you_mean(str(error.instance), allowed))
    elif kind == "pattern" or (kind == "propertyNames"):
        line, col = doc.key_pos(path) if kind == "propertyNames" else (line, col)
        errors.error(name, line, col, "schema/bad-name",
                     f"{_show(error.instance)} is not a valid name "
                     "(use lower-case letters, digits and _; start with a letter)")
    elif kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        errors.error(name, line, col, "schema/out-of-range", error.message)
    elif kind in ("minItems", "maxItems"):
        errors.error(name, line, col, "schema/wrong-length", error.message)
    else:
        errors.error(name, line, col, "schema/invalid", error.message)


def _matches_patterns(key: str, schema: dict) -> bool:
    import re

    return any(re.search(p, key) for p in schema.get("patternProperties", {}))


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return f"`{text if len(text) <= 40 else text[:37] + '...'}`"


def _types(value: Any) -> str:
    return " or ".join(value) if isinstance(value, list) else str(value)


def iter_refs(schema: dict, instance: Any, path: tuple = (), root: dict | None = None
              ) -> Iterator[tuple[str, str, tuple, bool]]:
    """Yield (namespace, name, path, is_key) for every reference the schema marks.

    A schema marks a string as naming an entity with `"x-ref": "<namespace>"`, and the keys of a
    mapping with `"x-ref-keys": "<namespace>"`. Only the constructs our schemas use are walked
    (local `$ref`, properties, items, additionalProperties); the instance is already valid.
    """
    root = root or schema
    while "$ref" in schema:
        ref = schema["$ref"]
        target = root
        for part in ref.removeprefix("#/").split("/"):
            target = target[part]
        schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
    if "x-ref" in schema and isinstance(instance, str):
        yield schema["x-ref"], instance, path, False
    if isinstance(instance, dict):
        if "x-ref-keys" in schema:
            for key in instance:
                yield schema["x-ref-keys"], key, (*path, key), True
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties")
        for key, value in instance.items():
            sub = props.get(key, extra if isinstance(extra, dict) else None)
            if sub is not None:
                yield from iter_refs(sub, value, (*path, key), root)
    elif isinstance(instance, list) and isinstance(schema.get("items"), dict):
        for i, value in enumerate(instance):
            yield from iter_refs(schema["items"], value, (*path, i), root)


def export(directory: Path, games: dict[str, dict[str, dict[str, dict]]]) -> list[Path]:
    """Write the base schemas and each game's extended ones; returns the files written.

    `games` maps game id -> kind -> declared attributes.
    """
    written = []
    directory.mkdir(parents=True, exist_ok=True)
    for kind in KINDS:
        target = directory / f"{kind}.schema.json"
        target.write_text(_dump(base_schema(kind)), encoding="utf-8")
        written.append(target)
    for game_id, kinds in sorted(games.items()):
        for kind, attributes in sorted(kinds.items()):
            target = directory / "generated" / game_id / f"{kind}.schema.json"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(_dump(game_schema(kind, game_id, attributes)), encoding="utf-8")
            written.append(target)
    return written


def _dump(schema: dict) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"
