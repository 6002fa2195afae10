"""`enum_values("colour")`: the values a card attribute's `enum` declares, in the manifest's
order, so that a rule over every colour ("5 points per colour with three cards") reads the
manifest instead of a hand-written copy of it that drifts when a colour is added.

The attribute is named by a text. The same lookup serves play (the builtin, in queries.py)
and validation (typecheck.py, which reports a name with no enum at its place and types the
result as a list of that enum's values).
"""

from __future__ import annotations

from collections.abc import Mapping

from .errors import did_you_mean

NO_ENUM = "effect/no-enum"
UNKNOWN = "effect/unknown-attribute"


def declared_enum(manifest: Mapping, name: object) -> tuple[tuple | None, str, str]:
    """(the enum's values, "", "") for a card attribute that declares an `enum`; else
    (None, code, message) saying what is wrong with asking for `name`."""
    attributes = manifest.get("card_attributes")
    attributes = attributes if isinstance(attributes, Mapping) else {}
    if not isinstance(name, str):
        return None, "effect/type-error", "`enum_values` takes the name of a card attribute, " \
            "as a text"
    spec = attributes.get(name)
    if not isinstance(spec, Mapping):
        with_enum = [n for n, s in attributes.items() if isinstance(s, Mapping) and "enum" in s]
        return None, UNKNOWN, (f"the manifest's `card_attributes` declares no `{name}`"
                               + (did_you_mean(name, attributes)
                                  or _those(with_enum)))
    values = spec.get("enum")
    if not isinstance(values, list):
        return None, NO_ENUM, (f"card attribute `{name}` declares no `enum`, so it has no list "
                               "of values to give: add `enum: [...]` to its declaration in "
                               "the manifest")
    return tuple(values), "", ""


def _those(names: list[str]) -> str:
    if not names:
        return " (no card attribute of this game declares an `enum`)"
    return " (those with an `enum`: " + ", ".join(f"`{n}`" for n in names) + ")"
