"""Which content functions the compiler may inline, and the order to compile them in.

A call of a content function (`on_map(s)`, `cu_of(p, s)`) normally runs the function's own
compiled closure in a fresh frame. When the function cannot reach itself through other
functions, the compiler instead compiles its expression right into the caller, with its
parameters in fresh slots of the caller's frame (compiler.py, `inline_call`): no frame, no
call. Functions are compiled callees first, so a caller finds what it inlines already checked.
"""

from __future__ import annotations

from collections.abc import Iterable

from . import ast
from .static_checks import walk


def called_functions(tree: ast.Node, functions: Iterable[str]) -> list[str]:
    """The content functions a tree calls, in order of first appearance."""
    names = set(functions)
    seen: dict[str, None] = {}
    for node in walk(tree):
        if isinstance(node, ast.Call) and node.name in names:
            seen.setdefault(node.name)
    return list(seen)


def inline_plan(trees: dict[str, ast.Node]) -> tuple[list[str], set[str]]:
    """(an order to compile the functions in, callees first; the functions safe to inline:
    those that cannot call themselves, directly or through others)."""
    calls = {name: called_functions(tree, trees) for name, tree in trees.items()}
    order: list[str] = []
    state: dict[str, str] = {}  # "open" while its callees are visited, then "done"
    recursive: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if state.get(name) == "done":
            return
        if state.get(name) == "open":  # a cycle: every function on it calls itself
            recursive.update(path[path.index(name):])
            return
        state[name] = "open"
        for callee in calls[name]:
            visit(callee, [*path, callee])
        state[name] = "done"
        order.append(name)

    for name in trees:
        visit(name, [name])
    return order, set(trees) - recursive
