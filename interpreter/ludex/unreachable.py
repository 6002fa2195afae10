"""Statements no run can reach: those after an `end_game(…)` in the same block, which ends the
game and the effect with it. A designer who swapped `set_winner(p)` and `end_game(…)` saw the
winner decided by score instead, and nothing said why (a designer's trial). A warning: the
effect runs as written.

A block ends the game when one of its statements calls `end_game`, or is an `if` with an
`else` whose every branch ends it. A loop's body may not run, so a loop never ends its block;
a procedure that always ends the game is not followed into (its caller's later statements are
not judged)."""

from __future__ import annotations

from . import ast
from .errors import Collector
from .static_checks import Source

_ENDS_THE_GAME = frozenset({"end_game"})


def check_unreachable(sources: list[Source], errors: Collector) -> None:
    for source in sources:
        if isinstance(source.tree, ast.Program):
            _block(source, source.tree.body, errors)


def _block(source: Source, body: tuple[ast.Node, ...], errors: Collector) -> ast.Node | None:
    """Warns at the first statement of `body` that follows what ends the game; returns that
    statement (None when some way through the block goes on)."""
    ender = None
    for statement in body:
        if ender is not None:
            if isinstance(statement, ast.Pass):  # does nothing either way: look past it
                continue
            errors.warning(source.file, statement.line, statement.col, "effect/unreachable",
                           f"{_said(statement)} never runs: {_ending(ender)} ends the game "
                           "and this effect with it (what must happen as the game ends goes "
                           "before `end_game`)")
            return ender
        ender = _statement(source, statement, errors)
    return ender


def _statement(source: Source, node: ast.Node, errors: Collector) -> ast.Node | None:
    if isinstance(node, ast.CallStmt):
        return node if node.call.name in _ENDS_THE_GAME else None
    if isinstance(node, ast.If):
        ends = [_block(source, body, errors) for _, body in node.branches]
        ends.append(_block(source, node.orelse, errors) if node.orelse else None)
        return node if all(ends) else None
    if isinstance(node, ast.For | ast.Repeat):
        _block(source, node.body, errors)  # a loop may not run: it ends nothing after it
    return None


def _said(statement: ast.Node) -> str:
    if isinstance(statement, ast.CallStmt):
        return f"`{statement.call.name}(…)`"
    return f"this `{type(statement).__name__.lower()}`"


def _ending(ender: ast.Node) -> str:
    if isinstance(ender, ast.If):
        return f"every way through the `if` at line {ender.line} calls `end_game`, which"
    return f"`end_game(…)` at line {ender.line}"
