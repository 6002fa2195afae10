"""Mutation operators: from one effect's syntax tree, every small wrong reading of it.

Each mutant is what a careless reader of the rule might have written instead: an operator off
by one (`<` for `<=`), `and` for `or`, a condition or a `where` filter negated or dropped, a
constant one higher or lower, `ceil` for `floor`, a statement deleted or two swapped, one id of
the game read as its neighbour of the same kind (the discard pile for the hand, one power for
another: `neighbours`), a connection kind written as a text read as the next kind the game
declares (`"road"` for `"river"`: `kind_texts`). The tree
is rebuilt with the one change (nodes are frozen dataclasses), so a mutant compiles exactly as
content would.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from .. import ast

COMPARISON = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
ARITHMETIC = {"+": "-", "-": "+", "*": "/", "/": "*", "%": "*"}
LOGIC = {"and": "or", "or": "and"}
SWAPPED_CALLS = {"ceil": "floor", "floor": "ceil", "min": "max", "max": "min"}
# Fields holding a block of statements, where statements may be deleted or swapped.
BLOCKS = {ast.Program: ("body",), ast.For: ("body",), ast.Repeat: ("body",),
          ast.If: ("orelse",)}


@dataclass(frozen=True)
class Mutation:
    line: int
    col: int
    description: str  # e.g. "`<=` → `<`"
    tree: ast.Node  # the whole tree with the change


def mutations(tree: ast.Node, neighbours: Mapping[str, tuple[str, str]] | None = None,
              kind_texts: Mapping[str, tuple[str, str]] | None = None) -> Iterator[Mutation]:
    """Every mutant of `tree`, in a stable order. `neighbours`: the game's ids each with the
    id read for it by mistake and their kind (`neighbours()`); none, no id is misread.
    `kind_texts`: the same for the texts of the game's connection kinds
    (`neighbours({"connection kind": kinds})`), misread where a text stands as a kind."""
    bound = _bound_names(tree) if neighbours else frozenset()
    as_kinds = _kind_places(tree) if kind_texts else frozenset()
    for path, node in walk(tree):
        if path in as_kinds and node.value in kind_texts:
            other, kind = kind_texts[node.value]
            yield Mutation(node.line, node.col, f'`"{node.value}"` → `"{other}"` (the next '
                           f"{kind})", replace_at(tree, path, replace(node, value=other)))
        first_item = path[-1:] == ("key",) and isinstance(node, ast.Literal) \
            and type(node.value) is int and node.value == 0  # the 0 of `items[0]`
        for description, new, at in _node_mutations(node, first_item):
            yield Mutation(at.line, at.col, description, replace_at(tree, path, new))
        if neighbours and node.__class__ is ast.Name and node.name not in bound:
            misread = neighbours.get(node.name)
            if misread is not None:
                other, kind = misread
                yield Mutation(node.line, node.col, f"`{node.name}` → `{other}` (the next "
                               f"{kind})", replace_at(tree, path, replace(node, name=other)))
        for field_path, block in _blocks(node):
            for description, new_block, at in _block_mutations(block):
                yield Mutation(at.line, at.col, description,
                               replace_at(tree, (*path, *field_path), new_block))


def neighbours(ids_by_kind: Mapping[str, list[str]]) -> dict[str, tuple[str, str]]:
    """Each id with the one a careless reader takes for it: the next of its kind in the order
    the game declares them (the last reads as the first), and that kind. An id of one kind
    only, of a kind with two ids or more: a name several kinds share cannot be misread as
    one of them without guessing which the text meant."""
    kinds: dict[str, list[str]] = {}
    for kind, ids in ids_by_kind.items():
        for ident in ids:
            kinds.setdefault(ident, []).append(kind)
    found = {}
    for kind, ids in ids_by_kind.items():
        if len(ids) < 2:
            continue
        for i, ident in enumerate(ids):
            if len(kinds[ident]) == 1:
                found[ident] = (ids[(i + 1) % len(ids)], kind)
    return found


def _kind_places(tree: ast.Node) -> frozenset[tuple]:
    """The paths of the texts that stand as a connection's kind: compared (`==`, `!=`) with a
    value, listed after `in`, or the kind `neighbours(s, "river")` follows. A text elsewhere (a
    message key, a log line) that happens to spell a kind is no kind to misread."""
    found = set()
    for path, node in walk(tree):
        if node.__class__ is ast.Compare and node.op in ("==", "!="):
            found.update((*path, side) for side in ("left", "right")
                         if _is_text(getattr(node, side)))
        elif node.__class__ is ast.Member and node.collection.__class__ is ast.ListExpr:
            found.update((*path, "collection", "items", i)
                         for i, item in enumerate(node.collection.items) if _is_text(item))
        elif node.__class__ is ast.Call and node.name == "neighbours" and len(node.args) == 2 \
                and _is_text(node.args[1]):
            found.add((*path, "args", 1))
    return frozenset(found)


def _is_text(node: ast.Node) -> bool:
    return node.__class__ is ast.Literal and isinstance(node.value, str)


def _bound_names(tree: ast.Node) -> frozenset[str]:
    """The names a text binds itself (`let`, `for`, `choose`, a comprehension's): a local
    that happens to share an id's name is no id to misread."""
    return frozenset(node.name for _, node in walk(tree)
                     if isinstance(node, ast.Let | ast.For | ast.Choose | ast.Comprehension))


def walk(obj: Any, path: tuple = ()) -> Iterator[tuple[tuple, ast.Node]]:
    """(path, node) for every node, parents first; a path is field names and tuple indexes."""
    if isinstance(obj, ast.Node):
        yield path, obj
        for f in dataclasses.fields(obj):
            if f.name not in ast.POSITION_FIELDS:
                yield from walk(getattr(obj, f.name), (*path, f.name))
    elif isinstance(obj, tuple):
        for i, item in enumerate(obj):
            yield from walk(item, (*path, i))


def replace_at(obj: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    step, rest = path[0], path[1:]
    if isinstance(step, str):
        return dataclasses.replace(obj, **{step: replace_at(getattr(obj, step), rest, new)})
    items = list(obj)
    items[step] = replace_at(items[step], rest, new)
    return tuple(items)


def _node_mutations(node: ast.Node, first_item: bool = False
                    ) -> Iterator[tuple[str, ast.Node, ast.Node]]:
    """(description, replacement node, where to report it) for one node. `first_item`: the
    node is the 0 of `items[0]`, whose `-1` reads the same item of a list of one (the usual
    list `[0]` is read from) — a mutant no scenario can kill, 12 of one designer's 21 marks;
    `[1]` is the wrong item of a longer list, and an error on a list of one."""
    if isinstance(node, ast.Compare | ast.Binary | ast.BoolOp):
        other = _OTHER_OPERATOR[type(node)].get(node.op)
        if other is not None:
            yield f"`{node.op}` → `{other}`", replace(node, op=other), _operator_place(node)
    elif isinstance(node, ast.Literal) and type(node.value) is int:
        for delta in ((1,) if first_item else (1, -1)):
            yield (f"{node.value} → {node.value + delta}",
                   replace(node, value=node.value + delta), node)
    elif isinstance(node, ast.Literal) and type(node.value) is bool:
        yield f"{_show(node.value)} → {_show(not node.value)}", replace(
            node, value=not node.value), node
    elif isinstance(node, ast.Call) and node.name in SWAPPED_CALLS:
        yield (f"`{node.name}` → `{SWAPPED_CALLS[node.name]}`",
               replace(node, name=SWAPPED_CALLS[node.name]), node)
    elif isinstance(node, ast.If):
        for i, (condition, body) in enumerate(node.branches):
            branches = list(node.branches)
            branches[i] = (_negated(condition), body)
            word = "if" if i == 0 else "elif"
            yield f"`{word}` condition negated", replace(node, branches=tuple(branches)), condition
    elif isinstance(node, ast.For | ast.Comprehension) and node.where is not None:
        yield "`where` filter dropped", replace(node, where=None), node.where
        yield "`where` filter negated", replace(node, where=_negated(node.where)), node.where
    elif isinstance(node, ast.Ternary):
        yield "`if … else` condition negated", replace(
            node, condition=_negated(node.condition)), node.condition


_OTHER_OPERATOR = {ast.Compare: COMPARISON, ast.Binary: ARITHMETIC, ast.BoolOp: LOGIC}


def _operator_place(node: ast.Compare | ast.Binary | ast.BoolOp) -> ast.Node:
    """Where a mutant of a binary operator is reported: at the operator, not at the start of
    its left operand (`a and b and c` has two `and`s, which start at the same place)."""
    if node.op_line:
        return ast.Node(node.op_line, node.op_col)
    return node  # a node the engine built has no operator of its own in the text


def _negated(condition: ast.Node) -> ast.Node:
    return ast.Not(condition.line, condition.col, condition)


def _blocks(node: ast.Node) -> Iterator[tuple[tuple, tuple]]:
    for field_name in BLOCKS.get(type(node), ()):
        yield (field_name,), getattr(node, field_name)
    if isinstance(node, ast.If):
        for i, (_, body) in enumerate(node.branches):
            yield ("branches", i, 1), body


def _block_mutations(block: tuple) -> Iterator[tuple[str, tuple, ast.Node]]:
    for i, statement in enumerate(block):
        kept = block[:i] + block[i + 1:]
        if not kept:  # a block may not be empty: `pass` stands in
            kept = (ast.Pass(statement.line, statement.col),)
        if not isinstance(statement, ast.Pass):
            yield f"{_statement(statement)} deleted", kept, statement
    for i in range(len(block) - 1):
        swapped = (*block[:i], block[i + 1], block[i], *block[i + 2:])
        yield (f"{_statement(block[i])} and the {_statement(block[i + 1])} after it swapped",
               swapped, block[i])


def _statement(node: ast.Node) -> str:
    if isinstance(node, ast.CallStmt):
        return f"`{node.call.name}(…)`"
    return f"`{type(node).__name__.lower()}`"


def _show(value: bool) -> str:
    return "true" if value else "false"
