"""Specialised compile paths for the shapes that dominate rule code's inner loops: reading a
cell of a local (`row.cu`), a marker or attribute of the space or card a local names
(`row.space.besieged`, `s.kind`), comparing them, filtering table rows on their cells and
spaces or powers on their static attributes (once, at load), loops whose body is one `if`,
accumulating (`let total = total + x`), static builtins of constants worked out at load
(`rows(income)`). Inlining content functions is compiler.py's
`inline_call` (see inlining.py).

Each shape becomes one closure instead of one per syntax node. Every fast path is a *guess
with a fallback*: it tries the plain dictionary reads the shape nearly always needs, and when
they do not apply (KeyError, TypeError) it runs the general closure, which returns the same
value or raises the proper rule error. Reads have no side effects, so running the general
closure after a failed guess changes nothing. `Compiler(fast=False)` compiles without any of
them; the tests run the language cases and whole games both ways and compare.
Measured in benchmarks/engine.py.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import ast
from .limits import MAX_NUMBER, compute
from .registry import REGISTRY
from .runtime import CONTEXT_NAMES, Context
from .static_checks import bound_names, walk

if TYPE_CHECKING:  # the compiler imports this module; type names only
    from .compiler import Scope

Run = Callable[[Any, list], Any]

_NOT_CONSTANT = object()
_CARD_INSTANCE_FIELDS = ("owner", "card", "zone")  # read from the card's state, not its text
_NO_CARDS: dict = {}  # every card lookup misses: the general reader decides
_MISSED = (KeyError, TypeError)  # a guess that does not apply; the general closure decides
# whole-number arithmetic done in place when both sides are whole numbers and the result is
# within bounds; anything else goes through limits.compute (caps, type errors)
_WHOLE = {"+": operator.add, "-": operator.sub, "*": operator.mul}


def _flatten(node: ast.Node, op: str) -> list[ast.Node]:
    """`a and b and c` as [a, b, c]."""
    if isinstance(node, ast.BoolOp) and node.op == op:
        return _flatten(node.left, op) + _flatten(node.right, op)
    return [node]


class FastPaths:
    """Mixed into the Compiler; relies on its `expr`, `where` and `compile_attribute`."""

    # -- what a node is, at compile time ---------------------------------------------------
    def slot_of(self, node: ast.Node, scope: Scope) -> int | None:
        """The frame slot of a local variable reference, else None."""
        if isinstance(node, ast.Name) and node.name in scope.slots:
            return scope.slots[node.name]
        return None

    def constant(self, node: ast.Node, scope: Scope | None = None) -> tuple | object:
        """(value,) when the node is a compile-time constant — a literal, the id of a
        space, power, counter… that no local shadows, or a static builtin (`rows(income)`,
        `spaces()`) of constants — else _NOT_CONSTANT."""
        if isinstance(node, ast.Literal):
            return (node.value,)
        if scope is None:
            return _NOT_CONSTANT
        if isinstance(node, ast.Name) and node.name not in scope.slots \
                and node.name not in CONTEXT_NAMES \
                and node.name in self.env.kinds:
            return (node.name,)
        if isinstance(node, ast.Call) and self.fast:
            return self.folded(node, scope)
        return _NOT_CONSTANT

    def folded(self, node: ast.Call, scope: Scope) -> tuple | object:
        """A static builtin called with constants, computed now. Anything unusual (a wrong
        arity, an argument it cannot use) is left to run time and its proper error."""
        builtin = REGISTRY.get(node.name)
        if builtin is None or not builtin.static \
                or not builtin.required <= len(node.args) <= len(builtin.params):
            return _NOT_CONSTANT
        args = [self.constant(a, scope) for a in node.args]
        if _NOT_CONSTANT in args:
            return _NOT_CONSTANT
        try:
            return (builtin.fn(Context(self.env, {}), self.where(node), *(a[0] for a in args)),)
        except Exception:  # the same call at run time reports the problem properly
            return _NOT_CONSTANT

    def is_marker(self, name: str) -> bool:
        return name in self.env.markers

    # -- attribute reads -------------------------------------------------------------------
    def attribute_fast(self, node: ast.Attribute, scope: Scope, general: Run,
                       negate: bool = False) -> Run | None:
        """`local.name` or `local.cell.name` as one closure (negated for `not …`), or None
        when the target is not a local."""
        name = node.name
        slot = self.slot_of(node.target, scope)
        if slot is not None:
            if self.is_marker(name):  # a local naming a space: its marker
                def space_marker(ctx, f):
                    try:
                        return ctx.state["spaces"][f[slot]]["markers"][name]
                    except _MISSED:
                        return general(ctx, f)
                return _negated(space_marker) if negate else space_marker

            reader = self.local_attribute(slot, name, general)
            return _negated(reader) if negate else reader
        inner = node.target
        if not isinstance(inner, ast.Attribute):
            return None
        slot = self.slot_of(inner.target, scope)
        if slot is None:
            return None
        first = inner.name
        if self.is_marker(name):  # `row.space.besieged`: a row's space, then its marker
            if negate:
                def not_cell_marker(ctx, f):
                    try:
                        return not ctx.state["spaces"][f[slot][first]]["markers"][name]
                    except _MISSED:
                        return not general(ctx, f)
                return not_cell_marker

            def cell_marker(ctx, f):
                try:
                    return ctx.state["spaces"][f[slot][first]]["markers"][name]
                except _MISSED:
                    return general(ctx, f)
            return cell_marker
        read, where = self.env.attribute_reader, self.where(node)

        def cell_attribute(ctx, f):  # `row.card.cost`: the game's reader for the second step
            value = f[slot]
            if value.__class__ is dict and first in value:
                return read(ctx, value[first], name, where)
            return general(ctx, f)
        return _negated(cell_attribute) if negate else cell_attribute

    def local_attribute(self, slot: int, name: str, general: Run) -> Run:
        """`local.name` for a name that is not a marker: a row's cell, else — as the game's
        reader would find it — a static attribute (`s.kind`) or a card's (`c.cost`; card
        definitions carry their defaults)."""
        if name in self.env.static_names or name in self.env.card_names:
            static = self.env.static
            # a card's owner, card and zone are the instance's, now: the general reader's
            cards = self.env.cards if name not in _CARD_INSTANCE_FIELDS else _NO_CARDS

            def entity_attribute(ctx, f):
                value = f[slot]
                try:
                    if value.__class__ is dict:
                        return value[name]
                    attributes = static.get(value)
                    if attributes is not None:
                        return attributes[name]
                    return cards[ctx.state["cards"][value]["card"]][name]
                except _MISSED:
                    return general(ctx, f)
            return entity_attribute

        if name in _CARD_INSTANCE_FIELDS:
            return _card_state_attribute(slot, name, general)

        def cell(ctx, f):  # a local holding a table row: its cell
            value = f[slot]
            if value.__class__ is dict and name in value:
                return value[name]
            return general(ctx, f)
        return cell

    # -- comparisons -----------------------------------------------------------------------
    def fused_equality(self, node: ast.Compare, scope: Scope) -> Run | None:
        """`local.name == local` or `local.name == constant` (or `!=`) in one closure.

        Filters such as `where row.power == p` or `where s.kind != "box"` are the inner loop
        of most rules; fusing the read into the comparison saves two calls per item.
        """
        left = node.left
        if not isinstance(left, ast.Attribute):
            return None
        other = self.slot_of(node.right, scope)
        constant = self.constant(node.right, scope)
        if other is None and constant is _NOT_CONSTANT:
            return None
        equal = node.op == "=="
        if self.is_marker(left.name):
            return self.marker_equality(node, scope, other, constant)
        source = self.slot_of(left.target, scope)
        if source is None:
            return None
        general = self.compile_attribute(left, scope)
        name, c = left.name, None if constant is _NOT_CONSTANT else constant[0]
        if name in self.env.static_names:  # `s.kind == "box"`: a space's static attribute
            static = self.env.static

            def equals_static(ctx, f):
                value = f[source]
                try:
                    got = value[name] if value.__class__ is dict else static[value][name]
                except _MISSED:
                    got = general(ctx, f)
                return (got == (c if other is None else f[other])) is equal
            return equals_static

        def equals_cell(ctx, f):  # `row.power == p`: a row's cell
            value = f[source]
            got = value[name] if value.__class__ is dict and name in value else general(ctx, f)
            return (got == (c if other is None else f[other])) is equal
        return equals_cell

    def marker_equality(self, node: ast.Compare, scope: Scope, other: int | None,
                        constant: tuple | object) -> Run | None:
        """`space.control == p` or `row.space.control == p` (a local naming a space, or a
        row's cell naming one) in one closure."""
        left, equal = node.left, node.op == "=="
        name, general = left.name, self.compile_attribute(left, scope)
        slot, first = self.slot_of(left.target, scope), None
        if slot is None:
            inner = left.target
            if not isinstance(inner, ast.Attribute):
                return None
            slot, first = self.slot_of(inner.target, scope), inner.name
            if slot is None:
                return None
        if other is None:
            value = constant[0]  # type: ignore[index]

            def equals_constant(ctx, f):
                try:
                    space = f[slot] if first is None else f[slot][first]
                    return (ctx.state["spaces"][space]["markers"][name] == value) is equal
                except _MISSED:
                    return (general(ctx, f) == value) is equal
            return equals_constant

        def equals_local(ctx, f):
            try:
                space = f[slot] if first is None else f[slot][first]
                return (ctx.state["spaces"][space]["markers"][name] == f[other]) is equal
            except _MISSED:
                return (general(ctx, f) == f[other]) is equal
        return equals_local

    # -- conditions and loops --------------------------------------------------------------
    @staticmethod
    def if_all(parts: tuple[Run, ...], body: Run) -> Run:
        """`if a and b …:` without an else: only truth matters, so no `and` closure."""
        if len(parts) == 2:
            a, b = parts

            def run_if_both(ctx, f):
                if a(ctx, f) and b(ctx, f):
                    body(ctx, f)
            return run_if_both
        if len(parts) == 3:
            a, b, c = parts

            def run_if_three(ctx, f):
                if a(ctx, f) and b(ctx, f) and c(ctx, f):
                    body(ctx, f)
            return run_if_three

        def run_if_all(ctx, f):
            for part in parts:
                if not part(ctx, f):
                    return
            body(ctx, f)
        return run_if_all

    def loop_filter(self, loop: ast.For | ast.Comprehension, scope: Scope
                    ) -> tuple[tuple[Run, ...], Callable | None]:
        """A loop's `where` as the tests each item must pass (all of them: only truth
        matters) and a filter applied to the whole list first (None: no filter). Call after
        binding the loop's name."""
        parts, keep = self.loop_filter_parts(loop, scope)
        return tuple(self.expr(p, scope) for p in parts), keep

    def loop_filter_parts(self, loop: ast.For | ast.Comprehension, scope: Scope
                          ) -> tuple[list[ast.Node], Callable | None]:
        """`loop_filter`'s tests as syntax (pysource.py writes them out as source).

        The filter runs once, before the first item, so it may only compare with locals the
        loop never changes: not the loop's own name, nor any name bound inside it."""
        condition = loop.where
        if not self.fast:
            return ([condition] if condition else []), None
        if condition is None:
            return [], None
        bound = bound_names(loop)  # every local the loop (or anything in it) binds
        fixed = {n: s for n, s in scope.slots.items() if n not in bound}
        tests = self.row_tests(loop.name, loop.iterable, condition, scope, fixed)
        if tests is None and self.play:
            # for play only: static tests report nothing (one that does not compile or raises
            # is left to the loop), and compiled in the loop they report nothing either
            tests = self.static_tests(loop.name, loop.iterable, condition, scope)
        if tests is not None:
            keep, rest = tests
            return list(rest), keep
        return _flatten(condition, "and"), self.prefilter(loop.name, condition, scope, fixed)

    # -- filtering rows --------------------------------------------------------------------
    def row_tests(self, name: str, iterable: ast.Node, condition: ast.Node,
                  scope: Scope, fixed: dict[str, int]) -> tuple[Callable, list[ast.Node]] | None:
        """For `for row in rows(table) where row.cell == value and …`: the leading equality
        tests on cells every row of the table has, as one list filter, and the conjuncts
        left for the loop. The rows are static data, so the filter needs no guard; taking
        only the leading tests keeps the order in which the condition is evaluated."""
        if not (isinstance(iterable, ast.Call) and iterable.name == "rows"
                and len(iterable.args) == 1 and isinstance(iterable.args[0], ast.Name)):
            return None
        rows = self.env.tables.get(iterable.args[0].name)
        if rows is None or iterable.args[0].name in scope.slots:
            return None
        tests: list[tuple[str, int | None, Any, bool]] = []
        parts = _flatten(condition, "and")
        for part in parts:
            if not (isinstance(part, ast.Compare) and part.op in ("==", "!=")
                    and isinstance(part.left, ast.Attribute)
                    and isinstance(part.left.target, ast.Name)
                    and part.left.target.name == name
                    and all(part.left.name in row for row in rows)):
                break
            other = _fixed_slot(part.right, fixed)
            constant = self.constant(part.right, scope)
            if other is None and constant is _NOT_CONSTANT:
                break
            value = None if constant is _NOT_CONSTANT else constant[0]
            tests.append((part.left.name, other, value, part.op == "=="))
        if not tests:
            return None
        return _row_filter(rows, tests), parts[len(tests):]

    # -- filtering spaces, powers… on what never changes ------------------------------------
    def static_tests(self, name: str, iterable: ast.Node, condition: ast.Node, scope: Scope
                     ) -> tuple[Callable, list[ast.Node]] | None:
        """For `for s in spaces() where s.kind == "normal" and …`: the leading tests that read
        only static attributes of the item (a space's kind, a power's maximum) and constants,
        worked out here, once, for every item of the list the loop always walks (a static
        builtin of constants), and the conjuncts left for the loop. Such tests call nothing,
        so they count no steps; an item they drop would have failed them before any later
        test ran, so the rest runs in the same order on the same items. A test that cannot
        be worked out here (it raises) is left to the loop and its proper error."""
        constant = self.constant(iterable, scope)
        if constant is _NOT_CONSTANT or not isinstance(constant[0], list):
            return None
        items = constant[0]
        parts = _flatten(condition, "and")
        fixed = list(itertools.takewhile(lambda p: self._static_in(p, name, scope), parts))
        if not fixed:
            return None
        from .compiler import Compiler, Scope  # the compiler imports this module

        probe = Compiler(self.env, self.file, self.rule, fast=False)
        tests = [probe.expr(p, Scope((name,))) for p in fixed]
        ctx = Context(self.env, {"spaces": {}, "cards": {}, "counters": {}})
        try:
            passing = [i for i in items if all(test(ctx, [i]) for test in tests)]
        except Exception:  # whatever it is, the loop runs the tests itself and says so
            return None
        if probe.errors:
            return None
        try:
            members = set(passing)
        except TypeError:  # items no set can hold (a table's rows): the loop tests them
            return None

        def keep(values, f):
            return passing if values is items else [v for v in values if v in members]
        keep.items, keep.passing = items, passing  # pysource.py: known at once for `items`
        return keep, parts[len(fixed):]

    def _static_in(self, node: ast.Node, name: str, scope: Scope) -> bool:
        """Whether `node` reads nothing but constants and static attributes of `name`, and
        calls nothing."""
        for part in walk(node):
            if isinstance(part, ast.Compare | ast.BoolOp | ast.Not | ast.Literal):
                continue
            if isinstance(part, ast.Name):
                if part.name == name or self.constant(part, scope) is not _NOT_CONSTANT:
                    continue
                return False
            if isinstance(part, ast.Attribute) and isinstance(part.target, ast.Name) \
                    and part.target.name == name and part.name in self.env.static_names \
                    and not self.is_marker(part.name) and part.name not in self.env.card_names:
                continue
            return False
        return True

    def prefilter(self, name: str, condition: ast.Node, scope: Scope, fixed: dict[str, int]):
        """For `where x.cell == y and …` over items not known at compile time: drop the
        table rows whose cell differs before binding anything. Items that are not rows
        (spaces, cards) pass through to the full condition, which is still evaluated."""
        first = _flatten(condition, "and")[0]
        if not (isinstance(first, ast.Compare) and first.op == "=="
                and isinstance(first.left, ast.Attribute)
                and isinstance(first.left.target, ast.Name) and first.left.target.name == name):
            return None
        cell = first.left.name
        other = _fixed_slot(first.right, fixed)
        constant = self.constant(first.right, scope)
        if other is None and constant is _NOT_CONSTANT:
            return None

        def keep(items, f):
            wanted = f[other] if other is not None else constant[0]
            return [i for i in items if i.__class__ is not dict or cell not in i
                    or i[cell] == wanted]
        return keep

    # -- accumulating ----------------------------------------------------------------------
    def accumulate(self, node: ast.Let, scope: Scope) -> Run | None:
        """`let x = x + y` (any arithmetic) as one closure writing the slot in place."""
        value = node.value
        if not (isinstance(value, ast.Binary) and isinstance(value.left, ast.Name)
                and value.left.name == node.name and node.name in scope.slots):
            return None
        target, symbol, where = scope.slots[node.name], value.op, self.where(value)
        whole = _WHOLE.get(symbol)
        right = value.right
        constant = self.constant(right, scope)
        if constant is not _NOT_CONSTANT:
            c = constant[0]

            def add_constant(ctx, f):
                f[target] = _combined(whole, symbol, f[target], c, ctx, where)
            return add_constant
        if isinstance(right, ast.Attribute) and self.slot_of(right.target, scope) is not None:
            source, cell = self.slot_of(right.target, scope), right.name
            general = self.expr(value, scope)

            def add_cell(ctx, f):
                try:
                    amount = f[source][cell]
                except _MISSED:  # not a row: the general closure reads it (or says why not)
                    f[target] = general(ctx, f)
                    return
                f[target] = _combined(whole, symbol, f[target], amount, ctx, where)
            return add_cell
        operand = self.expr(right, scope)

        def add_value(ctx, f):  # the operand may have effects (a roll): evaluate it once
            amount = operand(ctx, f)
            f[target] = _combined(whole, symbol, f[target], amount, ctx, where)
        return add_value


def _combined(whole, symbol: str, old: Any, amount: Any, ctx, where) -> Any:
    """`old <symbol> amount` for an accumulation: whole numbers within the number cap directly,
    anything else (other types, overflow past the cap, division) through the general rule."""
    if whole is not None and old.__class__ is int and amount.__class__ is int:
        new = whole(old, amount)
        if -MAX_NUMBER <= new <= MAX_NUMBER:
            return new
    return compute(symbol, old, amount, ctx, where)


def _fixed_slot(node: ast.Node, fixed: dict[str, int]) -> int | None:
    """The slot of a local the loop never rebinds, else None."""
    return fixed.get(node.name) if isinstance(node, ast.Name) else None


def _negated(run: Run) -> Run:
    return lambda ctx, f: not run(ctx, f)


def _row_filter(rows: list[dict], tests: list[tuple[str, int | None, Any, bool]]
                ) -> Callable[[list, list], list]:
    """The rows passing every (cell, slot or constant, equal?) test. Tables are static data,
    so tests against constants are applied here, once, and a leading `==` test against a
    local is answered from an index built here: a loop over the rows of one power visits
    only that power's rows. (Equality tests never raise, so their order does not matter.)"""
    for cell, _, value, equal in (t for t in tests if t[1] is None):
        rows = [r for r in rows if (r[cell] == value) is equal]
    tests = [t for t in tests if t[1] is not None]
    if not tests:
        def constant_rows(items, f):
            return rows
        constant_rows.rows = rows  # pysource.py writes the list in place of the call
        return constant_rows
    index = None
    cell, slot, _, equal = tests[0]
    if equal:
        try:
            index = {}
            for row in rows:
                index.setdefault(row[cell], []).append(row)
            tests = tests[1:]
        except TypeError:  # a cell holding a list: no index, filter row by row
            index = None

    def keep(items, f):
        if index is not None:
            try:
                items = index.get(f[slot], ())
            except TypeError:  # the wanted value is a list: nothing equals it
                items = ()
        else:
            items = rows
        for name, source, _, same in tests:
            wanted = f[source]
            if same:
                items = [r for r in items if r[name] == wanted]
            else:
                items = [r for r in items if r[name] != wanted]
        return items
    if index is not None and not tests:  # pysource.py writes the lookup in place of the call
        keep.index, keep.slot = index, slot
    return keep


def _card_state_attribute(slot: int, name: str, general: Run) -> Run:
    """`local.zone`, `local.owner`, `local.card` where no space, power or piece has the
    attribute and no card's text does: a table row's cell, else the card instance's, read as
    the game's reader reads it (a space of the same id would be asked for its markers first:
    the reader decides then, as for anything else)."""
    if name == "zone":
        def card_zone(ctx, f):
            value = f[slot]
            if value.__class__ is str:
                state = ctx.state
                instance = state["cards"].get(value)
                if instance is not None and value not in state["spaces"]:
                    return instance["zone"][0]
            elif value.__class__ is dict and name in value:
                return value[name]
            return general(ctx, f)
        return card_zone

    def card_field(ctx, f):
        value = f[slot]
        if value.__class__ is str:
            state = ctx.state
            instance = state["cards"].get(value)
            if instance is not None and value not in state["spaces"]:
                # nobody's is "" in the state, none in the language
                return (instance[name] or None) if name == "owner" else instance[name]
        elif value.__class__ is dict and name in value:
            return value[name]
        return general(ctx, f)
    return card_field
