"""A schema compiled to Python code (fastjsonschema), to answer "is this valid?" quickly.

jsonschema walks a schema as data on every value and builds an object per step; on a file of
thousands of cards that is most of `ludex validate`'s time. Content is nearly always valid,
so the compiled check answers for the common case and jsonschema is asked only about files the
compiled check refuses: every diagnostic, its message and its place, still comes from
jsonschema. That is exact as long as the compiled check never accepts what jsonschema refuses
(it may refuse more: jsonschema then finds nothing, and its answer counts); a test holds both
to the same answer on every file of the bundled games and the invalid corpus.

fastjsonschema reads a `$ref` as replacing its sibling keywords (draft 7); draft 2020-12, which
our schemas are, applies both. Such schemas are rewritten first: the `$ref` and its siblings
become the two parts of an `allOf`.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

try:
    import fastjsonschema
except ImportError:  # pragma: no cover - a dependency; without it jsonschema does all
    fastjsonschema = None

# Keywords that say something about a schema but check nothing.
_ANNOTATIONS = frozenset({"$ref", "$comment", "description", "title", "default", "examples",
                          "deprecated", "readOnly", "writeOnly"})

# Keywords that say where a schema is or what it defines: they stay where they are.
_PLACE = frozenset({"$schema", "$id", "$anchor", "$defs", "definitions"})
# Keywords whose values are instances, not schemas.
_DATA = frozenset({"enum", "const", "default", "examples"})

Check = Callable[[Any], bool]


def compile_check(schema: dict) -> Check | None:
    """A function telling whether an instance is valid under `schema`; None when the schema
    cannot be compiled (jsonschema then checks everything)."""
    if fastjsonschema is None:
        return None
    try:
        validate = fastjsonschema.compile(_refs_with_siblings(copy.deepcopy(schema)),
                                          use_default=False, use_formats=False)
    except Exception:  # whatever the code generator trips on: not worth a diagnostic
        return None
    refused = fastjsonschema.JsonSchemaException

    def check(instance: Any) -> bool:
        try:
            validate(instance)
        except refused:
            return False
        except Exception:  # a generated check that breaks on odd data: jsonschema decides
            return False
        return True

    return check


def _refs_with_siblings(schema: Any) -> Any:
    """`schema` with each `{"$ref": r, k: v, …}` whose siblings check something made
    `{"allOf": [{"$ref": r}, {k: v, …}]}` (in place; returns it)."""
    if isinstance(schema, list):
        for item in schema:
            _refs_with_siblings(item)
        return schema
    if not isinstance(schema, dict):
        return schema
    for key, value in schema.items():
        if key not in _DATA:
            _refs_with_siblings(value)
    if isinstance(schema.get("$ref"), str) and set(schema) - _ANNOTATIONS - _PLACE:
        siblings = {k: v for k, v in schema.items() if k != "$ref" and k not in _PLACE}
        reference = schema["$ref"]
        for key in [*siblings, "$ref"]:
            del schema[key]
        schema["allOf"] = [{"$ref": reference}, siblings]
    return schema
