"""Declared memory: the manifest's `memory` section, the types its values may have, and
whether a value written in data (an `initial`, a scenario's `state: memory:`) fits its type.

`remember` and `recalled` keep any value under any key; a game that declares its keys gives
each a type, which validation holds every `remember`, `recalled` and data value to
(typecheck.py for effects, `check_declarations` here for the manifest, scenario.py for
scenarios). Play is untouched: a declared key only starts with its `initial` value
(state.py). Types are written in the words of typecheck.py, which speaks of values as
`int`, `bool`, `text`, an entity kind, `list:<element>`; a card attribute whose `enum` lists
texts is `enum:<attribute>`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from .errors import Collector, did_you_mean
from .memory_typing import describe
from .type_words import ENUM

# The kinds of id a value in memory may be: what play names with a text (a card's instance).
KINDS = ("power", "space", "zone", "piece", "card")
PLAIN = ("int", "bool", "text", *KINDS)
LIST, LIST_OF = "list", "list of "


def declared(manifest: dict) -> list[dict] | None:
    """The manifest's memory entries of the right shape, or None when it declares no memory
    (then `remember` and `recalled` are unchecked, as they always were)."""
    entries = manifest.get("memory")
    if not isinstance(entries, list):
        return None
    return [e for e in entries if isinstance(e, dict) and isinstance(e.get("id"), str)]


def enum_attributes(manifest: dict) -> dict[str, tuple[str, ...]]:
    """The card attributes a memory type may name: those whose `enum` lists texts only."""
    found = {}
    for name, spec in (manifest.get("card_attributes") or {}).items():
        values = spec.get("enum") if isinstance(spec, dict) else None
        if isinstance(values, list) and values and all(isinstance(v, str) for v in values):
            found[name] = tuple(values)
    return found


def type_names(manifest: dict) -> list[str]:
    """Every type name a declaration of this game may give, for editors and "did you mean"."""
    single = [*PLAIN, *enum_attributes(manifest)]
    return [*single, LIST, *(LIST_OF + name for name in single)]


def checked_type(name: object, enums: Mapping[str, tuple]) -> str | None:
    """The type typecheck.py speaks of for a declared type name, or None for a name that is
    no type."""
    if not isinstance(name, str):
        return None
    if name == LIST:
        return LIST
    if name.startswith(LIST_OF):
        element = checked_type(name[len(LIST_OF):], enums)
        return None if element is None or element == LIST else f"list:{element}"
    if name in PLAIN:
        return name
    return ENUM + name if name in enums else None


def types_by_key(manifest: dict) -> dict[str, str] | None:
    """Key -> its checked type (`any` where the type name is wrong: reported once, at the
    declaration), or None when the game declares no memory."""
    entries = declared(manifest)
    if entries is None:
        return None
    enums = enum_attributes(manifest)
    return {e["id"]: checked_type(e.get("type"), enums) or "any" for e in entries}


def value_problem(t: str, value: object, ids: Mapping[str, Collection[str]],
                  enums: Mapping[str, tuple]) -> str | None:
    """What is wrong with `value` written in data for a value of type `t`, if anything.
    None fits every type: it is what a key holds before anything is kept under it."""
    if value is None or t == "any":
        return None
    shown = _show(value)
    if t == LIST or t.startswith("list:"):
        if not isinstance(value, list):
            return f"{shown} is not a list"
        for item in value if t != LIST else ():
            problem = value_problem(t[5:], item, ids, enums)
            if problem:
                return problem
        return None
    if t == "int":
        fits = isinstance(value, int) and not isinstance(value, bool)
    elif t == "bool":
        fits = isinstance(value, bool)
    elif t == "text":
        fits = isinstance(value, str)
    elif t.startswith(ENUM):
        allowed = enums.get(t[len(ENUM):], ())
        if isinstance(value, str) and value not in allowed:
            return (f"`{value}` is not {describe(t)} ({', '.join(allowed)})"
                    + did_you_mean(value, allowed))
        fits = isinstance(value, str)
    else:  # an id of a kind
        known = ids.get(t, ())
        if isinstance(value, str) and value not in known:
            return f"unknown {t} `{value}`" + did_you_mean(value, list(known))
        fits = isinstance(value, str)
    return None if fits else f"{shown} is not {describe(t)}"


def _show(value: object) -> str:
    """A value as the YAML gave it: a text in quotes (`"3"` is no number)."""
    import json

    return f"`{json.dumps(value, ensure_ascii=False, default=str)}`"


def check_declarations(manifest_doc, ids: Mapping[str, Collection[str]],
                       errors: Collector) -> None:
    """Each declared type is one the game has (`content/unknown-name`, with "did you mean"),
    and each `initial` is a value of its type (`content/bad-memory`). Duplicate keys are
    `content/duplicate-id`, as for every id (content.py)."""
    manifest = manifest_doc.data if isinstance(manifest_doc.data, dict) else {}
    entries = manifest.get("memory")
    enums = enum_attributes(manifest)
    path = str(manifest_doc.path)
    for i, entry in enumerate(entries if isinstance(entries, list) else []):
        if not isinstance(entry, dict):
            continue
        name = entry.get("type")
        t = checked_type(name, enums)
        if t is None:
            line, col = manifest_doc.pos(("memory", i, "type"))
            errors.error(path, line, col, "content/unknown-name",
                         f"unknown memory type `{name}`: a memory holds int, bool, text, power, "
                         "space, zone, piece, card, a card attribute whose `enum` lists texts, "
                         "or a `list` (`list of` one of these)"
                         + did_you_mean(str(name), type_names(manifest)))
            continue
        if "initial" in entry:
            problem = value_problem(t, entry["initial"], ids, enums)
            if problem:
                line, col = manifest_doc.pos(("memory", i, "initial"))
                errors.error(path, line, col, "content/bad-memory",
                             f"memory `{entry.get('id')}` holds {describe(t)}: {problem}")
