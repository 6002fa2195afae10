"""JSON Schemas: loading them, one reused validator per schema, and turning their errors into
diagnostics that point at the offending key or value.

The schemas in `schema/` are the source of truth. A game extends two of them (cards and map)
with the attributes its manifest declares (`game_schema`). A string that names an entity is a
`$ref` to `#/$defs/<namespace>_id` (the keys of a mapping: `propertyNames` with such a `$ref`),
so plain validators accept the schemas and `ludex validate` knows what to look up;
`editor_schema` turns each of those definitions into an `enum` of the game's ids, for the
schemas `ludex schema GAME --export` writes into the game folder.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .compiled_schemas import Check, compile_check
from .errors import Collector, character_named, did_you_mean, first_foreign
from .resources import schema_dir
from .scenario_rng import rng_message
from .yamlio import Document

if TYPE_CHECKING:  # jsonschema is imported when a file must be checked: a warm run has none
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError


def _draft(schema: dict) -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema)

KINDS = ("game", "map", "tables", "procedures", "cards", "locale", "scenario", "clauses")
EXTENSIBLE = {"cards": "card", "map": "space"}  # kind -> $defs entry that takes attributes


@cache
def base_schema(kind: str) -> dict:
    if kind not in KINDS:
        raise KeyError(kind)
    return json.loads((schema_dir() / f"{kind}.schema.json").read_text(encoding="utf-8"))


class Schema:
    """One schema's two validators: jsonschema's, which explains every error, and a compiled
    check that only tells valid from invalid (compiled_schemas.py), much faster on valid
    content. Compiling costs about what jsonschema spends on a couple of thousand values, so
    the check is compiled once a schema has that many to look at; until then, and for every
    file the check refuses, jsonschema decides and reports."""

    COMPILE_AFTER = 2_000  # values checked with this schema, counting the file at hand

    def __init__(self, schema: dict | Draft202012Validator):
        # a schema's validator is made when a file is checked with it (`validator`)
        self._schema, self._validator = (schema, None) if isinstance(schema, dict) \
            else (schema.schema, schema)
        self._values = 0
        self._check: Check | None = None
        self._compiled = False

    @property
    def validator(self) -> Draft202012Validator:
        if self._validator is None:
            self._validator = _draft(self._schema)
        return self._validator

    def iter_errors(self, instance: Any) -> Iterator[ValidationError]:
        return self.validator.iter_errors(instance)

    def surely_valid(self, instance: Any, values: int) -> bool:
        """True when the compiled check accepts `instance` (of `values` values); False when it
        refuses it or is not compiled (yet): jsonschema must then look."""
        self._values += values
        if not self._compiled and self._values >= self.COMPILE_AFTER:
            self.compile()
        return self._check is not None and self._check(instance)

    def compile(self) -> None:
        """Compile the check now (once), as enough values checked with this schema would."""
        if not self._compiled:
            self._compiled = True
            self._check = compile_check(self._schema)


@cache
def _base_validator(kind: str) -> Schema:
    # The base schemas' own validity (against the draft 2020-12 metaschema) is the tests'
    # business (test_schemas.py): checking it here cost every process ~10 ms per kind
    return Schema(base_schema(kind))


_REF = re.compile(r"^#/\$defs/([a-z_]+)_id$")


def game_schema(kind: str, game_id: str, attributes: dict[str, dict]) -> dict:
    """The schema for `kind` with a game's declared attributes added to each card or space."""
    schema = copy.deepcopy(base_schema(kind))
    if kind not in EXTENSIBLE:
        return schema
    entry = schema["$defs"][EXTENSIBLE[kind]]
    for name, spec in attributes.items():
        fragment = {k: v for k, v in spec.items() if k not in ("required", "ref")}
        if "ref" in spec:
            fragment["$ref"] = _id_definition(schema, spec["ref"])
        entry["properties"][name] = fragment
        if spec.get("required"):
            entry.setdefault("required", []).append(name)
    return schema


def _id_definition(schema: dict, namespace: str) -> str:
    """The `$ref` to the schema's definition of a `namespace` id, added when missing."""
    schema["$defs"].setdefault(f"{namespace}_id", {
        "$ref": "#/$defs/id",
        "description": f"The id of a {namespace.replace('_', ' ')} of this game."})
    return f"#/$defs/{namespace}_id"


def editor_schema(kind: str, game_id: str, attributes: dict[str, dict],
                  names: dict[str, list[str]]) -> dict:
    """The schema an editor uses for one game's `kind` files: its attributes, and each id
    definition an `enum` of the game's ids (`names`: namespace -> ids), so names complete."""
    schema = game_schema(kind, game_id, attributes)
    for key, definition in (schema.get("$defs") or {}).items():
        if key.endswith("_id") and key != "id":
            ids = sorted(names.get(key.removesuffix("_id"), []))
            if ids:
                schema["$defs"][key] = {"enum": ids,
                                        "description": definition.get("description", "")}
    schema["$id"] = f"https://ludex.dev/games/{game_id}/{kind}.schema.json"
    schema["title"] = f"{schema.get('title', kind)} ({game_id})"
    return schema


@cache
def _attribute_validator() -> Draft202012Validator:
    """The manifest's own rule for one attribute declaration."""
    game = base_schema("game")
    return _draft({"$defs": game["$defs"], "$ref": "#/$defs/attributes/additionalProperties"})


def valid_attribute(name: object, spec: object) -> bool:
    """Whether an attribute declaration may extend a schema: well formed by the manifest's
    schema (a broken one is reported there, and must not break every card's check)."""
    import re

    return isinstance(name, str) and re.fullmatch(r"[a-z][a-z0-9_]*", name) is not None \
        and _attribute_validator().is_valid(spec)


class Validators:
    """One validator per (kind, game): compiled once, reused for every file."""

    def __init__(self) -> None:
        self._by_game: dict[tuple[str, str], Schema] = {}  # (kind, attributes)
        self._base_kinds: set[str] = set()  # the base schemas handed out

    def get(self, kind: str, game_id: str | None = None,
            attributes: dict[str, dict] | None = None) -> Schema:
        if kind not in EXTENSIBLE or not attributes or not game_id:
            self._base_kinds.add(kind)
            return _base_validator(kind)
        key = (kind, json.dumps(attributes, sort_keys=True, default=str))
        if key not in self._by_game:
            self._by_game[key] = Schema(game_schema(kind, game_id, attributes))
        return self._by_game[key]

    def compile_all(self) -> None:
        """Compile the check of every schema handed out so far: the state a process reaches
        once it has checked enough content with each (benchmarks/validate.py's warm-up)."""
        for kind in sorted(self._base_kinds):
            _base_validator(kind).compile()
        for schema in self._by_game.values():
            schema.compile()


def validate(doc: Document, validator: Schema | Draft202012Validator, errors: Collector,
             broken: list[tuple] | None = None) -> bool:
    """Validate a document; report each error at its key or value. True when clean.
    `broken`, when given, gets the path in the data of each value found wrong."""
    if isinstance(validator, Schema) and validator.surely_valid(doc.data, len(doc.positions)):
        return True
    clean = True
    root = validator._schema if isinstance(validator, Schema) else validator.schema
    moved = _Moves(validator.iter_errors)
    for error in validator.iter_errors(doc.data):
        clean = False
        if broken is not None:
            broken.append(tuple(error.absolute_path))
        _report(doc, error, errors, root, moved)
    return clean


class _Moves:
    """What `misplaced.indented_under` needs of one document's validation: its validator's
    check and how many moved copies it has checked."""

    def __init__(self, check: Any) -> None:
        self.check, self.tries = check, [0]

    def hint(self, doc: Document, path: tuple, key: str) -> str:
        from .misplaced import indented_under

        found = indented_under(doc, self.check, path, key, self.tries)
        return f" ({found})" if found else ""


def _fitting_alternatives(error: ValidationError) -> list[list[ValidationError]]:
    """The errors of each alternative of a `oneOf`/`anyOf` that the value's type fits (not
    refused for its type at the value itself), alternative by alternative."""
    by_alternative: dict[Any, list[ValidationError]] = {}
    for inner in error.context:
        by_alternative.setdefault(inner.relative_schema_path[0], []).append(inner)
    return [inner for inner in by_alternative.values()
            if not any(e.validator == "type" and not e.relative_path for e in inner)]


def _misspelt_here(error: ValidationError, known: set[str]) -> bool:
    """Whether a required key is missing because it is misspelt: the entry has an unknown key
    close to it (`valr` for `valor`), whose own error names it. Two errors for one slip, the
    missing one first, was noise (a designer's trial)."""
    instance = error.instance if isinstance(error.instance, dict) else {}
    if error.schema.get("additionalProperties") is not False:
        return False  # an unknown key is no error here: nothing else would be reported
    missing = [key for key in error.validator_value or () if key not in instance]
    unknown = [str(key) for key in instance
               if key not in known and not _matches_patterns(key, error.schema)]
    return bool(missing and unknown) and all(
        any(did_you_mean(key, [wanted]) for key in unknown) for wanted in missing)


def _report(doc: Document, error: ValidationError, errors: Collector, root: dict,
            moves: _Moves | None = None) -> None:
    name = str(doc.path)
    path = tuple(error.absolute_path)
    kind = error.validator
    if kind in ("oneOf", "anyOf") and error.context:
        from jsonschema.exceptions import best_match

        deepest = best_match(error.context)
        if deepest is not None and tuple(deepest.absolute_path) != path:
            _report(doc, deepest, errors, root, moves)
            return
        # the one alternative whose type the value has says what is wrong with it (a
        # mapping where a text or a mapping may stand: the mapping's unknown key)
        fitting = _fitting_alternatives(error)
        if len(fitting) == 1:
            for inner in fitting[0]:
                _report(doc, inner, errors, root, moves)
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
                # indented one level too deep says more than a name it is close to
                hint = (moves.hint(doc, path, key) if moves else "") or did_you_mean(key, known)
                home = _section_for(root, path, key) if not hint else None
                if home is not None:
                    hint = (f" (a key of the entries under `{home}:`: move this entry there if "
                            "it is one)")
                errors.error(name, line, col, "schema/unknown-key", f"unknown key `{key}`" + hint)
        return
    line, col = doc.pos(path)
    if "propertyNames" in error.absolute_schema_path and isinstance(error.instance, str):
        line, col = doc.key_pos((*path, error.instance))  # a key's name: at that key
    if kind == "required":
        message = error.message.replace("'", "`")
        known = set(error.schema.get("properties", {}))
        if _misspelt_here(error, known):
            return  # its unknown key, reported beside it, says "did you mean" the missing one
        for key in error.instance if isinstance(error.instance, dict) else ():
            home = None if key in known else _section_for(root, path, key)
            if home is not None:  # the entry is in the wrong list: say so with what it lacks
                message += f" (this entry has `{key}`, a key of the entries under `{home}:`)"
                break
        errors.error(name, line, col, "schema/missing-key", message)
    elif kind in ("pattern", "type") and error.schema.get("pattern") == _rng_pattern():
        # a scenario's generator state: no name, and not a number either
        errors.error(name, line, col, "schema/bad-format", rng_message(error.instance))
    elif kind == "type" and (known := _declared_beside(root, error)) is not None:
        # a key past those declared, whose value is not what such keys hold: a name's form
        # is a text, so `cost: 3` in a card's locale entry is a key that does not belong
        key = str(path[-1])
        line, col = doc.key_pos(path)
        what = str(error.schema.get("description") or "").rstrip(".")
        what = what[:1].lower() + what[1:] + ": " if what else ""
        errors.error(name, line, col, "schema/unknown-key",
                     f"unknown key `{key}`" + (did_you_mean(key, known) or
                                               f" (beside {_listed(known)}, a key here is "
                                               f"{what}{_article(error.validator_value)} "
                                               f"{_types(error.validator_value)}, not "
                                               f"{_show(error.instance)})"))
    elif kind == "type":
        errors.error(name, line, col, "schema/wrong-type",
                     f"{_show(error.instance)} is not of type {_types(error.validator_value)}")
    elif kind == "enum":
        allowed = [str(v) for v in error.validator_value]
        errors.error(name, line, col, "schema/not-allowed",
                     f"{_show(error.instance)} is not one of {', '.join(allowed)}"
                     + did_you_mean(str(error.instance), allowed))
    elif kind == "pattern" and error.schema.get("pattern") == _language_tag_pattern():
        errors.error(name, line, col, "schema/bad-format",
                     f"{_show(error.instance)} is not a BCP 47 language tag (en, de, pt-BR, "
                     "zh-Hant)")
    elif kind == "pattern" and error.schema.get("pattern") == _clause_id_pattern():
        errors.error(name, line, col, "schema/bad-name", _clause_id_message(error.instance))
    elif (kind == "pattern" or kind == "propertyNames") and isinstance(error.instance, str) \
            and (at := first_foreign(error.instance)) is not None:
        # "use lower-case letters" did not help: a Greek `ο` is one; say which it is, there
        col = _column_of(doc, line, col, error.instance, at)
        errors.error(name, line, col, "schema/bad-name",
                     f"{_show(error.instance)} is not a valid name: "
                     f"{character_named(error.instance[at])}, and names use the ASCII letters "
                     "a–z, digits and _ (starting with a letter)")
    elif kind == "pattern" or (kind == "propertyNames"):
        errors.error(name, line, col, "schema/bad-name",
                     f"{_show(error.instance)} is not a valid name "
                     "(use lower-case letters, digits and _; start with a letter)")
    elif kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        errors.error(name, line, col, "schema/out-of-range", error.message)
    elif kind in ("minItems", "maxItems"):
        errors.error(name, line, col, "schema/wrong-length", error.message)
    else:
        errors.error(name, line, col, "schema/invalid", error.message)


def _column_of(doc: Document, line: int, col: int, text: str, index: int) -> int:
    """The column of character `index` of a name written at (line, col), plain or quoted; the
    name's own column when it is written otherwise (escaped, folded)."""
    source = doc.lines[line - 1] if 0 < line <= len(doc.lines) else ""
    for opening in ("", '"', "'"):
        if source[col - 1:].startswith(opening + text[:index + 1]):
            return col + len(opening) + index
    return col


def _declared_beside(root: dict, error: ValidationError) -> list[str] | None:
    """For a value refused for its type under `additionalProperties` of a mapping that also
    declares its keys (a name's `name` and `text` beside its forms): those keys. None for any
    other type error (a message that is not a text is a wrong type, not an unknown key)."""
    steps = list(error.absolute_schema_path)
    if steps[-2:] != ["additionalProperties", "type"] or not error.absolute_path:
        return None
    node: Any = root
    for step in steps[:-2]:
        while isinstance(node, dict) and step not in node and "$ref" in node:
            node = _target(node["$ref"], root)
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            return None
    while isinstance(node, dict) and "properties" not in node and "$ref" in node:
        node = _target(node["$ref"], root)
    declared = node.get("properties") if isinstance(node, dict) else None
    return sorted(declared) if declared else None


def _listed(keys: list[str]) -> str:
    return " and ".join(f"`{key}`" for key in keys)


def _article(wanted: Any) -> str:
    return "an" if str(wanted)[:1] in "aeiou" else "a"


def _section_for(root: dict, path: tuple, key: str) -> str | None:
    """The other list of the file whose entries take `key`, when the entry at `path` is an
    entry of a top-level list (`procedures`, `functions`…) that does not: an `expression`
    written under `procedures:` belongs to a function, under `functions:`."""
    if len(path) != 2 or not isinstance(path[1], int):
        return None
    sections = root.get("properties") or {}
    homes = [section for section, schema in sections.items() if section != path[0]
             and key in (_resolve(root, (schema or {}).get("items") or {}).get("properties")
                         or {})]
    return homes[0] if len(homes) == 1 else None


def _resolve(root: dict, schema: dict) -> dict:
    """A schema, or the local definition it is a `$ref` to."""
    ref = schema.get("$ref", "")
    if ref.startswith("#/$defs/"):
        return root.get("$defs", {}).get(ref.removeprefix("#/$defs/"), {})
    return schema


@cache
def _rng_pattern() -> str:
    return base_schema("scenario")["$defs"]["state"]["properties"]["rng"]["pattern"]


@cache
def _clause_id_pattern() -> str:
    return base_schema("clauses")["properties"]["clauses"]["items"]["properties"]["id"]["pattern"]


def _clause_id_message(value) -> str:
    """A clause id of the wrong form, with the form (the rules for other names differ: a clause
    id is written as the rulebook numbers it) and the likely id when only the case is off."""
    import re

    text = f"{_show(value)} is not a clause id (capital letters, a hyphen, then letters, " \
           "digits, dots and hyphens, as in RULE-5.10.1-c)"
    if isinstance(value, str) and "-" in value:
        head, rest = value.split("-", 1)
        guess = f"{head.upper()}-{rest}"
        if re.fullmatch(_clause_id_pattern(), guess):
            text += f" (did you mean `{guess}`?)"
    return text


def _language_tag_pattern() -> str:
    return base_schema("locale")["$defs"]["language_tag"]["pattern"]


def is_language_tag(value: object) -> bool:
    """Whether `value` is a BCP 47 tag as the locale schema takes one (`lang:`): what a
    command taking a language checks, so that it names no file the schema would refuse."""
    return isinstance(value, str) and re.fullmatch(_language_tag_pattern(), value) is not None


def language_tag_problem(value: str) -> str:
    """Why `value` is not a language tag, with the tag it may have meant (`EN`: `en`)."""
    if not value:
        return "an empty language is not a BCP 47 tag (en, de, pt-BR, zh-Hant, en-x-pirate)"
    text = f"`{value}` is not a BCP 47 language tag (en, de, pt-BR, zh-Hant, en-x-pirate)"
    subtags = value.replace("_", "-").split("-")
    cased = [subtags[0].lower()]
    for sub in subtags[1:]:  # the usual case: Hant, BR, 419, the rest lower-case
        extended = any(len(s) == 1 for s in cased)
        cased.append(sub.title() if len(sub) == 4 and sub.isalpha() and not extended
                     else sub.upper() if len(sub) == 2 and not extended else sub.lower())
    guess = "-".join(cased)
    if guess != value and is_language_tag(guess):
        text += f" (did you mean `{guess}`?)"
    return text


def _matches_patterns(key: str, schema: dict) -> bool:
    import re

    return any(re.search(p, key) for p in schema.get("patternProperties", {}))


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return f"`{text if len(text) <= 40 else text[:37] + '...'}`"


def _types(value: Any) -> str:
    return " or ".join(value) if isinstance(value, list) else str(value)


def iter_refs(schema: dict, instance: Any, path: tuple = (), root: dict | None = None,
              memo: dict | None = None) -> Iterator[tuple[str, str, tuple, bool]]:
    """Yield (namespace, name, path, is_key) for every reference the schema marks, in the
    order of the instance (depth first).

    A string names an entity where its schema is `{"$ref": "#/$defs/<namespace>_id"}`; the
    keys of a mapping do where its `propertyNames` is. Only the constructs our schemas use
    are walked (local `$ref`, properties, items, additionalProperties); the instance is
    already valid. Each schema node is resolved once per call (a file of 1,000 cards meets
    the card's schema 1,000 times), parts of the instance whose schema can hold no reference
    are not walked, nor are the items of a list whose keys lead to none, and the walk keeps
    a stack rather than nesting generators. `memo`, a dict the caller keeps with the schema,
    keeps what was worked out of it for the next calls on that very schema object (its nodes
    are known by identity): a game's card files all have one.
    """
    root = root or schema
    memo = {} if memo is None else memo
    plans: dict[int, tuple] = memo.setdefault("plans", {})

    def plan_of(node: dict) -> tuple:
        plan = plans.get(id(node))
        if plan is None:
            plan = plans[id(node)] = _ref_plan(node, root)
        return plan

    # schema node -> (property -> its schema, None where no reference can be met under it;
    # the schema of other properties, likewise)
    walked: dict[int, tuple[dict, dict | None]] = memo.setdefault("walked", {})
    # schema node -> the keys under which a mapping of it can hold a reference, or None
    # when any key may (its keys are ids, its other properties may hold some, it is an id)
    leading: dict[int, frozenset | None] = memo.setdefault("leading", {})

    def kept_of(node: dict) -> tuple[dict, dict | None]:
        kept = walked.get(id(node))
        if kept is None:
            _, _, props, extra, _, _ = plan_of(node)
            kept = walked[id(node)] = (
                {k: sub if plan_of(sub)[5] else None for k, sub in props.items()},
                extra if extra is not None and plan_of(extra)[5] else None)
        return kept

    def keys_leading(node: dict) -> frozenset | None:
        if id(node) not in leading:
            namespace, names, _, _, _, _ = plan_of(node)
            props_kept, extra_kept = kept_of(node)
            leading[id(node)] = None if namespace is not None or names or extra_kept \
                is not None else frozenset(k for k, sub in props_kept.items() if sub is not None)
        return leading[id(node)]

    stack = [(schema, instance, path)] if plan_of(schema)[5] else []
    while stack:
        node, value, where = stack.pop()
        namespace, names, _, _, items, _ = plan_of(node)
        if namespace is not None:
            if isinstance(value, str):
                yield namespace, value, where, False
            continue
        if isinstance(value, dict):
            if names:
                for key in value:
                    yield names, key, (*where, key), True
            props_kept, extra_kept = kept_of(node)
            children = []
            for key, child in value.items():
                sub = props_kept.get(key, extra_kept)
                if sub is not None:
                    children.append((sub, child, (*where, key)))
            stack.extend(reversed(children))
        elif isinstance(value, list) and items is not None and plan_of(items)[5]:
            # an item whose keys lead to no reference is passed over (most cards name none)
            lead = keys_leading(items)
            stack.extend(reversed([(items, child, (*where, i)) for i, child in enumerate(value)
                                   if lead is None or child.__class__ is not dict
                                   or not lead.isdisjoint(child)]))


def _ref_plan(schema: dict, root: dict) -> tuple:
    """What iter_refs needs of one schema node, its `$ref`s followed: (the namespace it names
    an id of, or None; the namespace its keys name, or None; properties; the schema of other
    properties, or None; the schema of items, or None; whether any reference can be met
    under it)."""
    finds = _reaches_reference(schema, root)
    while "$ref" in schema:
        namespace = _namespace(schema)
        if namespace is not None:
            return namespace, None, {}, None, None, True
        schema = {**_target(schema["$ref"], root), **{k: v for k, v in schema.items()
                                                       if k != "$ref"}}
    extra = schema.get("additionalProperties")
    items = schema.get("items")
    return (None, _namespace(schema.get("propertyNames") or {}), schema.get("properties", {}),
            extra if isinstance(extra, dict) else None,
            items if isinstance(items, dict) else None, finds)


def _target(ref: str, root: dict) -> dict:
    target = root
    for part in ref.removeprefix("#/").split("/"):
        target = target[part]
    return target


def _reaches_reference(schema: dict, root: dict) -> bool:
    """Whether a reference can sit anywhere under `schema`: a namespaced id, or keys that name
    one, reachable through what iter_refs follows (a superset of it: `$ref`, properties,
    additionalProperties, items)."""
    stack: list[Any] = [schema]
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if not isinstance(node, dict) or id(node) in seen:
            continue
        seen.add(id(node))
        if _namespace(node) is not None or _namespace(node.get("propertyNames") or {}):
            return True
        if isinstance(node.get("$ref"), str):
            stack.append(_target(node["$ref"], root))
        properties = node.get("properties")
        if isinstance(properties, dict):
            stack.extend(properties.values())
        stack.extend((node.get("additionalProperties"), node.get("items")))
    return False


def _namespace(schema: dict) -> str | None:
    found = _REF.match(schema.get("$ref", ""))
    return found.group(1) if found else None


def base_files(directory: Path) -> list[Path]:
    """Write the base schemas (those in `schema/`) to `directory`."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for kind in KINDS:
        target = directory / f"{kind}.schema.json"
        target.write_text(_dump(base_schema(kind)), encoding="utf-8")
        written.append(target)
    return written


def game_files(directory: Path, game_id: str, attributes: dict[str, dict[str, dict]],
               names: dict[str, list[str]]) -> list[Path]:
    """Write one game's editor schemas, every kind, to `directory` (a game folder's
    `schemas/`); `attributes` maps kind -> declared attributes."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for kind in KINDS:
        target = directory / f"{kind}.schema.json"
        schema = editor_schema(kind, game_id, attributes.get(kind) or {}, names)
        target.write_text(_dump(schema), encoding="utf-8")
        written.append(target)
    return written


def _dump(schema: dict) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"
