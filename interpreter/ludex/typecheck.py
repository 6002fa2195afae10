"""A static pass over compiled effects: values of the wrong kind and attributes nothing has.

`gain(vp, me, "one")` and `castle.walld` would fail only in play; the kinds of the builtins'
parameters are registered (registry.py) and the attributes of spaces, powers, pieces, cards and
table rows are known at load, so both are reported at validation time, at their place.

The pass is sound rather than complete: a value whose kind is not known statically (a
procedure's parameter, a value remembered under a key the manifest does not declare
(memory_types.py), a name of two kinds) is `any`, and `any` is never
reported — except an attribute that nothing in the game has, which is a misspelling whatever
the value. A local bound twice to values of different kinds is `any` too. Only the validator
pays for this pass; the compiled closures are untouched.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable

from . import ast
from . import type_words as tw
from .arguments import shown, wanted
from .builtins import ENTITY_KINDS, REGISTRY
from .card_enums import declared_enum
from .errors import Collector, did_you_mean
from .memory_types import enum_attributes
from .memory_typing import MEMORY_CALLS, memory_call
from .static_checks import Source, bound_names
from .type_words import ANY, CONNECTION_KIND, ENUM

_CONTEXT = {"me": "power", "active": "power", "players": "int", "turn": "int", "round": "int",
            "phase": "text"}
_MARKER_TYPES = {"integer": "int", "boolean": "bool", "power": "power"}
_COLUMN_TYPES = {"integer": "int", "boolean": "bool", "string": "text"}
_PLAIN = frozenset({bool, int, str})  # attribute values typed without looking at each one


def check_types(definition, sources: Iterable[Source], errors: Collector) -> None:
    kinds = _kinds(definition)
    for source in sources:
        try:
            _Checker(kinds, source, errors).run()
        except RecursionError:  # nested past what the compiler takes: reported there
            continue


def _kinds(definition) -> _Kinds:
    """The kinds of a definition's ids and what its functions give back: worked out once per
    definition, not again for each scenario checked against it (`ludex validate`)."""
    kinds = definition.type_kinds
    if kinds is None or kinds.d is not definition:
        kinds = _Kinds(definition)
        _function_results(kinds)
        definition.type_kinds = kinds
    return kinds


def _function_results(kinds: _Kinds) -> None:
    """What each content function gives back, from its expression with parameters of unknown
    kind (a call of a function not yet typed, or of itself, is `any`): rounds until stable."""
    trees = kinds.d.function_trees
    order = kinds.d.function_order
    if set(order) == set(trees) and set(trees) <= kinds.d.inlinable:
        # no function reaches itself: typed callees first, each meets its callees' results,
        # and one round is the fixed point the rounds below would reach
        for name in order:
            kinds.results[name] = _function_result(kinds, name, *trees[name])
        return
    for _ in range(len(trees) + 1):
        before = dict(kinds.results)
        for name, (tree, file, params) in trees.items():
            kinds.results[name] = _function_result(kinds, name, tree, file, params)
        if kinds.results == before:
            return
    kinds.results.clear()  # not settled: claim nothing


def _function_result(kinds: _Kinds, name: str, tree, file: str, params: tuple) -> str:
    checker = _Checker(kinds, Source(tree, file, name, None, dict.fromkeys(params, ANY)),
                       Collector())
    try:
        return checker.type(tree)
    except RecursionError:
        return ANY


class _Kinds:
    """What the game definition says about ids: their kinds, attributes and attribute types."""

    def __init__(self, d) -> None:
        self.d = d
        self.ids = {kind: d.id_set(kind) for kind in ENTITY_KINDS}
        self.card_attributes = self._card_attributes()
        self.by_kind: dict[str, dict[str, str] | None] = {}
        self.by_id: dict[str, dict[str, str]] = {}  # attributes_of_id
        self.by_name: dict[str, str] = {}  # attribute_anywhere
        self.results: dict[str, str] = {}  # content function -> what it gives back
        self._bound: dict[int, tuple] = {}  # id(tree) -> (tree, the locals it binds)
        # declared memory: key -> type (None: none declared), and the enums a type may name
        self.memory: dict[str, str] | None = d.memory_types
        self.enums = enum_attributes(d.manifest)
        # what `connection_kind(a, b)` gives: one of the kinds the manifest declares
        self.enums[CONNECTION_KIND[len(ENUM):]] = d.connection_kinds

    def bound(self, tree) -> set[str]:
        """bound_names(tree), worked out once per tree: a content function is typed again
        in every round of _function_results."""
        found = self._bound.get(id(tree))
        if found is None:
            found = self._bound[id(tree)] = (tree, frozenset(bound_names(tree)))
        return found[1]

    def _card_attributes(self) -> dict[str, str]:
        from .schemas import base_schema

        card = base_schema("cards").get("$defs", {}).get("card", {})
        names = set(card.get("properties", {})) | set(self.d.card_defaults) | set().union(
            *self.d.cards.values())  # every card's keys
        defaults = self.d.card_defaults
        # the none of a card that leaves an attribute out fits every type (as a key's none
        # does in memory): the type is what the cards that give it give (a designer's
        # optional `faction` was `any`, so a faction remembered as a number passed)
        types = {n: self._type_of([c[n] for c in self.d.cards.values()
                                   if c.get(n) is not None]
                                  + ([defaults[n]] if defaults.get(n) is not None else []))
                 for n in names}
        # an attribute whose `enum` lists texts holds a value of that enum: compared with a
        # text outside it (`card.cor == "azull"`) it is never equal (a designer's trial)
        for n in enum_attributes(self.d.manifest):
            types[n] = ENUM + n
        types.update(owner="power", zone="zone", card=ANY)
        return types

    def _type_of(self, values: list) -> str:
        """The type the values share (`any` when they do not). Each distinct value is looked
        at once: an attribute of 100,000 cards has a handful of values."""
        classes = set(map(type, values))
        if not classes or not classes <= _PLAIN:
            return self._type_of_each(values)
        # numbers, truth values and texts (nearly every attribute): sorted by C loops
        types = {"bool" if cls is bool else "int" for cls in classes if cls is not str}
        if str in classes:
            for text in set(values):
                if text.__class__ is str:
                    named = self.d.kinds.get(text, ())
                    types.add(named[0] if len(named) == 1 else "text")
                    if len(types) > 1:
                        return ANY
        return types.pop() if len(types) == 1 else ANY

    def _type_of_each(self, values: list) -> str:
        """`_type_of` for any values, each distinct one looked at in Python."""
        with contextlib.suppress(TypeError):  # an unhashable value: `any` below
            values = [value for _, value in dict.fromkeys((v.__class__, v) for v in values)]
        found: str | None = None
        for value in values:
            if isinstance(value, bool):
                t = "bool"
            elif isinstance(value, int):
                t = "int"
            elif isinstance(value, str):
                named = self.d.kinds.get(value, ())
                t = named[0] if len(named) == 1 else "text"
            else:
                return ANY
            found = tw.join(found, t)
        return found or ANY

    def attributes_of_id(self, ident: str) -> dict[str, str]:
        """Attribute -> type for one id, as the game definition's reader finds them (worked
        out once per id: asked at every `x.name` of a named id, and for every id of a kind).
        Shared: read it, never change it."""
        found = self.by_id.get(ident)
        if found is None:
            found = self.by_id[ident] = self._attributes_of_id(ident)
        return found

    def _attributes_of_id(self, ident: str) -> dict[str, str]:
        out: dict[str, str] = {}
        if ident in self.d.spaces:
            for marker, spec in self.d.markers.items():
                out[marker] = _MARKER_TYPES.get(spec.get("type"), ANY)
        for name, value in (self.d.static.get(ident) or {}).items():
            out.setdefault(name, self._type_of([value]))
        if ident in self.d.cards or ident.split("#")[0] in self.d.cards:
            for name, t in self.card_attributes.items():
                out.setdefault(name, t)
        return out

    def attributes_of_kind(self, kind: str) -> dict[str, str] | None:
        """Attribute -> type for any value of a kind (the union over its ids; a name two ids
        type differently is `any`), or None when the kind has no attributes to check."""
        if kind == "card":
            return self.card_attributes
        if kind not in ("space", "power", "piece"):
            return None
        if kind not in self.by_kind:
            out: dict[str, str] = {}
            for ident in self.ids[kind]:
                for name, t in self.attributes_of_id(ident).items():
                    out[name] = tw.join(out.get(name), t)
            self.by_kind[kind] = out
        return self.by_kind[kind]

    def any_attributes(self) -> set[str]:
        """Every attribute some value may have: of a card, a space, a power, a piece, or a
        column of a table. A name outside it is a misspelling whatever the value."""
        if "*" not in self.by_kind:
            names = set(self.card_attributes)
            for kind in ("space", "power", "piece"):
                names |= set(self.attributes_of_kind(kind) or ())
            for columns in self.d.table_columns.values():
                names |= set(columns or ())
            self.by_kind["*"] = dict.fromkeys(names, ANY)
        return set(self.by_kind["*"])

    def attribute_anywhere(self, name: str) -> str:
        """The type of attribute `name` of a value whose kind is not known (a procedure's
        parameter, an item of a list parameter): the one type every card, space, power,
        piece and table row having the attribute gives it, else `any`. A parameter's
        `s.control` is a marker of whatever space it is; the value read has the marker's
        type whichever space that is (`none` aside, which every type takes)."""
        if name in self.ids["space"]:  # `markers_now(…)` is keyed by space id: any value
            return ANY
        found = self.by_name.get(name)
        if found is None:
            found = None
            sources = [self.card_attributes, *(self.attributes_of_kind(kind) or {}
                                               for kind in ("space", "power", "piece")),
                       *(self.row_attributes(table) or {} for table in self.d.table_columns)]
            for attributes in sources:
                if name in attributes:
                    found = tw.join(found, attributes[name])
            found = self.by_name[name] = found or ANY
        return found

    def card_texts(self, name: str) -> tuple[str, ...] | None:
        """The texts the cards give attribute `name`, when it is a text only cards have (no
        space, power, piece or table row has one of that name): a card's `faction` read
        from a parameter is one of these, or none. Else None."""
        if self.card_attributes.get(name) != "text" or any(
                name in (self.attributes_of_kind(kind) or {})
                for kind in ("space", "power", "piece")) or any(
                name in (columns or {}) for columns in self.d.table_columns.values()):
            return None
        values = [c[name] for c in self.d.cards.values() if c.get(name) is not None]
        if self.d.card_defaults.get(name) is not None:
            values.append(self.d.card_defaults[name])
        if not all(isinstance(v, str) for v in values):
            return None
        return tuple(sorted(set(values)))

    def row_attributes(self, table: str) -> dict[str, str] | None:
        columns = self.d.table_columns.get(table)
        if not columns:
            return None
        return {c: _COLUMN_TYPES.get(k, k if k in ENTITY_KINDS else ANY)
                for c, k in columns.items()}

    def enum_names_ids(self, t: str) -> bool:
        """Whether a value of an enum type may be an id (then it has that id's attributes)."""
        return any(value in self.d.kinds for value in self.enums.get(t[len(ENUM):], ()))

    def disjoint(self, a: str, b: str) -> bool:
        """No id is of both kinds: a value of one can never stand for the other."""
        return not (self.ids.get(a, set()) & self.ids.get(b, set()))


class _Checker:
    """Types one effect's locals (flow-insensitively: every binding of a name joined), then
    reports what those types rule out."""

    def __init__(self, kinds: _Kinds, source: Source, errors: Collector):
        self.k, self.source, self.errors = kinds, source, errors
        self.env: dict[str, str] = dict(source.params)
        self.locals = set(source.params) | kinds.bound(source.tree)
        self.reporting = False

    def run(self) -> None:
        for _ in range(4 if self.locals - set(self.source.params) else 0):
            # bindings reach their join in a few rounds; each round only widens
            before = dict(self.env)
            self.walk(self.source.tree)
            if self.env == before:
                break
        self.reporting = True
        self.walk(self.source.tree)

    def error(self, node: ast.Node, code: str, message: str) -> None:
        if self.reporting:
            self.errors.error(self.source.file, node.line, node.col, code, message)

    def bind(self, name: str, t: str) -> None:
        self.env[name] = tw.join(self.env.get(name), t)

    # -- statements ------------------------------------------------------------------------
    def walk(self, node) -> None:
        if isinstance(node, tuple):
            for item in node:
                self.walk(item)
        elif isinstance(node, ast.Program):
            self.walk(node.body)
        elif isinstance(node, ast.Let):
            self.bind(node.name, self.type(node.value))
        elif isinstance(node, ast.Require):
            self.type(node.condition)
            self.walk(node.message)
        elif isinstance(node, ast.Message):
            for arg in node.args:  # any value fills a message, as `log`'s arguments
                self.type(arg)
        elif isinstance(node, ast.Choose):
            self.walk(node.prompt)  # read before the answer is bound
            options = self.type(node.options)
            self.numeric(node.count, "a count")
            if node.chooser is not None:
                chooser = self.type(node.chooser)
                if tw.category(chooser) not in (None, tw.STR) or (
                        chooser in ENTITY_KINDS and chooser != "power"):
                    # `by 3` asked a player who does not exist
                    self.error(node.chooser, "effect/type-error",
                               f"`choose … by` needs a power, not {tw.describe(chooser)}")
            self.bind(node.name, tw.element(options) if node.mode == "one" else "list")
        elif isinstance(node, ast.CallStmt):
            self.type(node.call)
        elif isinstance(node, ast.If):
            for condition, body in node.branches:
                self.type(condition)
                self.walk(body)
            self.walk(node.orelse)
        elif isinstance(node, ast.For):
            self.loop(node.name, node.iterable, node.where)
            self.walk(node.body)
        elif isinstance(node, ast.Repeat):
            self.numeric(node.count, "a number of repetitions")
            self.walk(node.body)
        elif isinstance(node, ast.Node) and not isinstance(node, ast.Pass):
            self.type(node)

    def loop(self, name: str, iterable: ast.Node, where: ast.Node | None) -> None:
        items = self.type(iterable)
        if tw.category(items) in (tw.NUM, "none"):
            self.error(iterable, "effect/type-error",
                       f"cannot go through {tw.describe(items)}: a list is needed")
        self.bind(name, tw.element(items))
        if where is not None:
            self.type(where)

    def numeric(self, node: ast.Node | None, what: str) -> None:
        if node is None:
            return
        t = self.type(node)
        if tw.category(t) not in (None, tw.NUM):
            self.error(node, "effect/type-error", f"{what} must be a number, not {tw.describe(t)}")

    # -- expressions -----------------------------------------------------------------------
    def type(self, node: ast.Node) -> str:
        method = _METHODS.get(node.__class__)
        return method(self, node) if method else ANY

    def type_literal(self, node: ast.Literal) -> str:
        v = node.value
        if v is None:
            return "none"
        return "bool" if isinstance(v, bool) else "int" if isinstance(v, int) else "text"

    def type_name(self, node: ast.Name) -> str:
        if node.name in self.locals:
            return self.env.get(node.name, ANY)
        if node.name in _CONTEXT:
            return _CONTEXT[node.name]
        named = self.k.d.kinds.get(node.name, ())
        return named[0] if len(named) == 1 else ANY

    def type_listexpr(self, node: ast.ListExpr) -> str:
        element = tw.NOTHING
        for item in node.items:
            t = self.type(item)
            if item.__class__ is ast.Literal and t == "text":  # which text: kept
                t = tw.texts([item.value])
            element = tw.join(element, t)
        return f"list:{element}"

    def type_comprehension(self, node: ast.Comprehension) -> str:
        self.loop(node.name, node.iterable, node.where)
        return f"list:{self.type(node.item)}"

    def type_ternary(self, node: ast.Ternary) -> str:
        self.type(node.condition)
        return tw.join(self.type(node.then), self.type(node.otherwise))

    def type_index(self, node: ast.Index) -> str:
        target = self.type(node.target)
        self.type(node.key)
        return tw.element(target) if tw.is_list(target) else ANY

    def type_boolop(self, node: ast.BoolOp) -> str:
        self.type(node.left)
        self.type(node.right)
        return ANY  # like Python's: one of its operands, whichever decided

    def type_not(self, node: ast.Not) -> str:
        self.type(node.operand)
        return "bool"

    def type_negate(self, node: ast.Negate) -> str:
        t = self.type(node.operand)
        if tw.category(t) not in (None, tw.NUM) or t == "bool":  # `-true` would be -1
            self.error(node.operand, "effect/type-error", f"cannot negate {tw.describe(t)}")
        return "int" if tw.category(t) == tw.NUM else ANY

    def type_compare(self, node: ast.Compare) -> str:
        left, right = self.type(node.left), self.type(node.right)
        if node.op in ("==", "!="):
            self.never_equal(node, left, right)
        else:
            a, b = tw.category(left), tw.category(right)
            if a and b and (a != b or a in ("none", "row")):
                self.error(node, "effect/type-error",
                           f"cannot compare {tw.describe(left)} with {tw.describe(right)} "
                           f"using `{node.op}`")
        return "bool"

    def never_equal(self, node: ast.Compare, left: str, right: str) -> None:
        """`==` or `!=` of values that can never be equal: a number and a text (a declared
        suit compared with 3), or a value of an enum and a text outside it."""
        for t, other, this in ((left, node.right, node.left), (right, node.left, node.right)):
            literal = tw.literal(other)
            if not isinstance(literal, str):
                continue
            if t.startswith(ENUM):
                values = self.k.enums.get(t[len(ENUM):])
                if values is None:
                    continue
                if not values:  # connection kinds, in a game that declares none
                    self.error(other, "effect/type-error",
                               f"{tw.describe(t)} is never {tw.quoted(literal)}: the game "
                               "declares none (`connection_kinds`)")
                    return
                said = f"{tw.describe(t)} is {', '.join(values)}"
            elif t.startswith(tw.TEXTS):  # the answer to a `choose` among texts written out
                values = tw.text_values(t)
                subject = f"`{this.name}`" if isinstance(this, ast.Name) else "this value"
                said = f"{subject} is one of {', '.join(map(tw.quoted, values))}"
            else:
                continue
            if literal not in values:
                self.error(other, "effect/type-error", f"{said}, never {tw.quoted(literal)}"
                           + did_you_mean(literal, values))
                return
        a, b = tw.category(left), tw.category(right)
        if a != b and {a, b} <= {tw.NUM, tw.STR, tw.LIST}:
            self.error(node, "effect/type-error",
                       f"`{node.op}` compares {tw.describe(left)} with {tw.describe(right)}: they "
                       "are never equal")

    def type_member(self, node: ast.Member) -> str:
        item = self.type(node.item)
        collection = self.type(node.collection)
        if tw.category(collection) in (tw.NUM, "none"):
            self.error(node.collection, "effect/type-error",
                       f"`in` needs a list, not {tw.describe(collection)}")
        elif item.startswith(ENUM) and isinstance(node.collection, ast.ListExpr):
            self.never_among(item, node.collection)
        return "bool"

    def never_among(self, t: str, listed: ast.ListExpr) -> None:
        """`connection_kind(a, b) in ["road", "rivr"]`, `c.suit in [...]`: each text written
        in the list must be a value of the enum, as with `==` (a text outside it is never the
        value, so the test reads one kind fewer than it says)."""
        values = self.k.enums.get(t[len(ENUM):])
        if values is None:
            return
        for item in listed.items:
            literal = tw.literal(item)
            if not isinstance(literal, str) or literal in values:
                continue
            if not values:  # connection kinds, in a game that declares none
                self.error(item, "effect/type-error",
                           f"{tw.describe(t)} is never {tw.quoted(literal)}: the game "
                           "declares none (`connection_kinds`)")
            else:
                self.error(item, "effect/type-error",
                           f"{tw.describe(t)} is {', '.join(values)}, never "
                           f"{tw.quoted(literal)}" + did_you_mean(literal, values))

    def type_binary(self, node: ast.Binary) -> str:
        left, right = self.type(node.left), self.type(node.right)
        a, b = tw.category(left), tw.category(right)
        if "bool" in (left, right) and not (node.op == "%" and a == tw.STR):
            # Python would count true as 1: `true + true` is 2, which no rule means
            self.error(node, "effect/type-error",
                       f"cannot use `{node.op}` on {tw.describe(left)} and {tw.describe(right)}")
            return ANY
        if a is None or b is None:
            return "int" if tw.NUM in (a, b) and node.op in "-/" else ANY
        fine = {
            "+": a == b and a in (tw.NUM, tw.STR, tw.LIST),
            "-": a == b == tw.NUM, "/": a == b == tw.NUM,
            "*": (a == tw.NUM and b in (tw.NUM, tw.STR, tw.LIST))
            or (b == tw.NUM and a in (tw.STR, tw.LIST)),
            "%": (a == b == tw.NUM) or a == tw.STR,  # text % value formats, as in Python
        }[node.op]
        if not fine:
            self.error(node, "effect/type-error",
                       f"cannot use `{node.op}` on {tw.describe(left)} and {tw.describe(right)}")
            return ANY
        if a == b == tw.LIST:
            return f"list:{tw.join(tw.element(left), tw.element(right))}"
        return {tw.NUM: "int", tw.STR: "text"}.get(a, ANY) if a == b else ANY

    def type_attribute(self, node: ast.Attribute) -> str:
        target = self.type(node.target)
        known, what = None, None
        if isinstance(node.target, ast.Name) and node.target.name not in self.locals \
                and node.target.name not in _CONTEXT and node.target.name in self.k.d.kinds:
            known, what = self.k.attributes_of_id(node.target.name), f"`{node.target.name}`"
        elif target.startswith("row:"):
            known, what = self.k.row_attributes(target[4:]), tw.describe(target)
        elif target in ENTITY_KINDS:
            known, what = self.k.attributes_of_kind(target), tw.describe(target)
        elif target.startswith(ENUM) and not self.k.enum_names_ids(target):
            known, what = {}, tw.describe(target)  # a text of a list: it has no attributes
        if what and isinstance(node.target, ast.Name) and (
                node.target.name in self.locals or node.target.name in _CONTEXT):
            what = f"`{node.target.name}` ({what})"
        elif tw.category(target) in (tw.NUM, tw.LIST, "none"):
            known, what = {}, tw.describe(target)  # the reader refuses these outright
        if known is None and target == ANY and not (
                isinstance(node.target, ast.Name) and node.target.name not in self.locals):
            # a value whose kind cannot be told (a parameter, an item of a list parameter
            # `[c for c in cs …]`, an index, a call's result): still, a name that nothing in
            # the game has is a misspelling (`c.semi` for `c.seme` read `none` in play). The
            # only mappings a value can be are table rows (keyed by column) and
            # `markers_now(…)`'s (keyed by space id), so an id is let through.
            everything = self.k.any_attributes()
            if node.name not in everything and node.name not in self.k.d.kinds:
                self.error(self._at_name(node), "effect/unknown-attribute",
                           f"no card, space, power, piece or table row has an attribute "
                           f"`{node.name}`" + did_you_mean(node.name, everything))
                return ANY
            return self.k.attribute_anywhere(node.name)
        if known is None:
            return ANY
        if node.name not in known:
            self.error(self._at_name(node), "effect/unknown-attribute",
                       f"{what} has no attribute `{node.name}`" + did_you_mean(node.name, known))
            return ANY
        return known[node.name]

    def texts_read(self, node: ast.Node, t: str) -> tuple[str, ...] | None:
        """The texts a value may be when it is a card's text attribute (`c.faction`, of a
        card or of a value whose kind is not known), each known at load; else None."""
        if t != "text" or not isinstance(node, ast.Attribute):
            return None
        if isinstance(node.target, ast.Name) and node.target.name not in self.locals \
                and node.target.name not in _CONTEXT:  # a named card: its own text
            value = (self.k.d.cards.get(node.target.name) or {}).get(node.name)
            return (value,) if isinstance(value, str) else None
        if self.type(node.target) not in ("card", ANY):
            return None
        return self.k.card_texts(node.name)

    @staticmethod
    def _at_name(node: ast.Attribute) -> ast.Node:
        """Where to point for an attribute: at its name (`castle.walld`) when the target is
        a plain name; else at the whole attribute."""
        if isinstance(node.target, ast.Name):
            return ast.Name(node.line, node.col + len(node.target.name) + 1, node.name)
        return node

    def type_call(self, node: ast.Call) -> str:
        args = [self.type(a) for a in node.args]
        builtin = REGISTRY.get(node.name)
        if builtin is None:
            return self.k.results.get(node.name, ANY)  # a content function, or a procedure
        if not builtin.required <= len(args) <= len(builtin.params):
            return ANY  # an arity the compiler reported
        for i, (arg, t) in enumerate(zip(node.args, args, strict=True)):
            self.argument(builtin, i, arg, t)
        if node.name == "set_marker" and len(args) == 3:
            self.marker_value(node.args[1], node.args[2], args[2])
        if builtin.returns == "list:row":
            table = node.args[0]
            return f"list:row:{table.name}" if isinstance(table, ast.Name) else "list"
        if builtin.returns == "row":
            return self.ranged_row(node.args[0])
        if node.name in MEMORY_CALLS and self.k.memory is not None:
            return memory_call(self, node, args)
        if node.name == "enum_values":
            return self.enum_values(node.args[0])
        return builtin.returns

    def marker_value(self, marker: ast.Node, value: ast.Node, t: str) -> None:
        """`set_marker(s, m, v)` of a marker named by its id: `v` of the type the map declares
        for it (none clears any). Play refused `set_marker(s, control, 1)` on a power marker,
        in one game in three; validation, which knew the marker's type, said nothing (a
        designer's trial)."""
        if not isinstance(marker, ast.Name) or marker.name in self.locals:
            return
        declared = _MARKER_TYPES.get((self.k.d.markers.get(marker.name) or {}).get("type"))
        category = tw.category(t)
        if declared is None or category in (None, "none"):
            return
        literal = tw.literal(value)
        if declared == "int":
            bad = t == "bool" or category != tw.NUM
        elif declared == "bool":
            bad = t != "bool"
        elif isinstance(literal, str):  # a power marker given a text: it must name a power
            bad = t == "text" and literal not in self.k.ids["power"]
        else:
            bad = category != tw.STR or (t in ENTITY_KINDS and t != "power"
                                         and self.k.disjoint(t, "power"))
            texts = self.texts_read(value, t)
            if texts and not set(texts) & self.k.ids["power"]:  # a card's text naming none
                self.error(value, "effect/type-error",
                           f"marker `{marker.name}` holds a power: `set_marker` cannot set it "
                           f"to a card's `{value.name}`, a text that names no power "
                           f"({', '.join(texts)})")
                return
        if bad:
            what = tw.describe(t) if literal is None else shown(literal) + (
                ", which names no power" if isinstance(literal, str) and declared == "power"
                else "")
            self.error(value, "effect/type-error",
                       f"marker `{marker.name}` holds {wanted(declared)}: "
                       f"`set_marker` cannot set it to {what}")

    def enum_values(self, name: ast.Node) -> str:
        """`enum_values("colour")`: a list of `colour` values, or an error at the name when
        the manifest declares no such attribute, or one without an `enum`."""
        literal = tw.literal(name)
        if not isinstance(literal, str):
            return "list"  # worked out in play: checked there
        values, code, message = declared_enum(self.k.d.manifest, literal)
        if values is None:
            self.error(name, code, message)
            return "list"
        if literal in self.k.enums:
            return f"list:{ENUM}{literal}"
        element: str | None = None
        for value in values:  # an enum of numbers (or of mixed values, `any`)
            element = tw.join(element, "bool" if isinstance(value, bool) else "int"
                              if isinstance(value, int) else "text" if isinstance(value, str)
                              else ANY)
        return f"list:{element or ANY}"

    def ranged_row(self, table: ast.Node) -> str:
        """A row found by its range (`row_for`): of the table named, which must have a range
        column to find it by."""
        if not isinstance(table, ast.Name) or table.name in self.locals:
            return ANY
        columns = self.k.d.table_columns.get(table.name)
        if columns is None:
            return ANY  # not a table: the compiler says so
        if "range" not in columns.values():
            self.error(table, "effect/no-range-column",
                       f"table `{table.name}` has no range column (a column of type `range`) "
                       "for `row_for` to find a row by: read it with `rows`")
        return f"row:{table.name}"

    def argument(self, builtin, index: int, arg: ast.Node, t: str) -> None:
        """Report an argument that cannot fit its parameter's kind: one of another kind, a
        literal naming no id of the kind, `none` where none is taken, a negative count."""
        name, kind = builtin.name, builtin.kind(index)
        category = tw.category(t)
        if category is None or kind == "any":
            return
        literal = tw.literal(arg)
        if category == "none":
            bad = not builtin.nullable(index)
        elif kind in ("int", "count"):
            bad = category != tw.NUM
            if not bad and kind == "count" and isinstance(literal, int) and literal < 0:
                self.error(arg, "effect/bad-count",
                           f"`{name}` needs a count of 0 or more, not {literal}")
                return
        elif kind == "bool":
            bad = t != "bool"
        elif kind == "list":
            bad = category != tw.LIST
        elif kind == "text":
            bad = category in (tw.NUM, tw.LIST, "row")
            choices = builtin.choices_at(index)
            if isinstance(choices, str):  # texts the game declares: `enum:connection kind`
                choices = self.k.enums.get(choices[len(ENUM):], ())
                if not choices and isinstance(literal, str):
                    self.error(arg, "effect/type-error", f"`{name}` takes "
                               f"{tw.describe(builtin.choices_at(index))} here, never "
                               f"{tw.quoted(literal)}: the game declares none "
                               "(`connection_kinds`)")
                    return
            if not bad and choices and isinstance(literal, str) and literal not in choices:
                self.error(arg, "effect/type-error",
                           f"`{name}` takes {' or '.join(f'{c}' for c in map(tw.quoted, choices))}"
                           f" here, not {tw.quoted(literal)}" + did_you_mean(literal, choices))
                return
        elif isinstance(arg, ast.Name) and arg.name not in self.locals:
            return  # an id: the compiler resolves it among ids of the kind wanted
        elif isinstance(literal, str) and kind != "card":
            bad = literal not in self.k.ids[kind]
        else:
            bad = category in (tw.NUM, tw.LIST, "row") or (
                t in ENTITY_KINDS and t != kind and self.k.disjoint(t, kind))
        if bad:
            what = f'"{literal}", which names no {kind}' if isinstance(literal, str) \
                and t == "text" and kind in ENTITY_KINDS else tw.describe(t)
            self.error(arg, "effect/type-error", f"`{name}` needs {wanted(kind)} here, not {what}")


_METHODS = {cls: getattr(_Checker, f"type_{cls.__name__.lower()}")
            for cls in vars(ast).values()
            if isinstance(cls, type) and hasattr(_Checker, f"type_{cls.__name__.lower()}")}
