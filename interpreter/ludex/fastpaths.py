"""Specialised compile paths for the shapes that dominate rule code's inner loops: reading a
cell of a local (`row.power`), comparing it (`row.power == p`), filtering table rows on it.
Each saves closure calls per item; the general path in compiler.py gives the same results.
Measured in benchmarks/engine.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import ast

if TYPE_CHECKING:  # the compiler imports this module; type names only
    from .compiler import Scope

Run = Callable[[Any, list], Any]

_NOT_CONSTANT = object()


def _flatten(node: ast.Node, op: str) -> list[ast.Node]:
    """`a and b and c` as [a, b, c]."""
    if isinstance(node, ast.BoolOp) and node.op == op:
        return _flatten(node.left, op) + _flatten(node.right, op)
    return [node]


class FastPaths:
    """Mixed into the Compiler; uses its `compile_attribute`."""

    def fused_equality(self, node: ast.Compare, scope: Scope) -> Run | None:
        """`local.attr == local` or `local.attr == constant` in one closure.

        Filters such as `where row.power == p` are the inner loop of most rules; fusing the
        attribute read into the comparison saves two calls per item.
        """
        left = node.left
        if not isinstance(left, ast.Attribute):
            return None
        source = self.slot_of(left.target, scope)
        if source is None:
            return None
        read_slow = self.compile_attribute(left, scope)
        name = left.name
        other = self.slot_of(node.right, scope)
        constant = self.constant(node.right)
        if other is None and constant is _NOT_CONSTANT:
            return None
        equal = node.op == "=="

        if other is not None:
            def run_slot(ctx, f):
                value = f[source]
                if value.__class__ is dict and name in value:
                    return (value[name] == f[other]) is equal
                return (read_slow(ctx, f) == f[other]) is equal
            return run_slot
        c = constant[0]

        def run_constant(ctx, f):
            value = f[source]
            if value.__class__ is dict and name in value:
                return (value[name] == c) is equal
            return (read_slow(ctx, f) == c) is equal
        return run_constant

    def attribute_chain(self, node: ast.Attribute, scope: Scope) -> Run | None:
        """`local.cell.marker` (a row's space, then that space's marker) without a closure per
        step; the second read is the game definition's reader."""
        inner = node.target
        if not isinstance(inner, ast.Attribute):
            return None
        slot = self.slot_of(inner.target, scope)
        if slot is None:
            return None
        first, second = inner.name, node.name
        read = self.env.attribute_reader
        where_first, where_second = self.where(inner), self.where(node)

        def run_chain(ctx, f):
            value = f[slot]
            if value.__class__ is dict and first in value:
                value = value[first]
            else:
                value = read(ctx, value, first, where_first)
            return read(ctx, value, second, where_second)
        return run_chain

    def slot_of(self, node: ast.Node, scope: Scope) -> int | None:
        """The frame slot of a local variable reference, else None."""
        if isinstance(node, ast.Name) and node.name in scope.slots:
            return scope.slots[node.name]
        return None

    def constant(self, node: ast.Node) -> tuple | object:
        """(value,) when the node is a compile-time constant, else _NOT_CONSTANT."""
        if isinstance(node, ast.Literal):
            return (node.value,)
        return _NOT_CONSTANT

    def prefilter(self, name: str, condition: ast.Node | None, scope: Scope):
        """For `where x.cell == y and …` over table rows: drop the rows whose cell differs
        before binding anything — one dictionary read per row instead of three closure calls.
        Items that are not rows (spaces, cards) pass through to the full condition."""
        if condition is None:
            return None
        first = _flatten(condition, "and")[0]
        if not (isinstance(first, ast.Compare) and first.op == "=="
                and isinstance(first.left, ast.Attribute)
                and isinstance(first.left.target, ast.Name) and first.left.target.name == name):
            return None
        cell = first.left.name
        other = self.slot_of(first.right, scope)
        constant = self.constant(first.right)
        if other is None and constant is _NOT_CONSTANT:
            return None

        def keep(items, f):
            wanted = f[other] if other is not None else constant[0]
            return [i for i in items if i.__class__ is not dict or cell not in i
                    or i[cell] == wanted]
        return keep
