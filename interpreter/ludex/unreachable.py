"""Statements no run can reach: those after an `end_game(…)` in the same block, which ends the
game and the effect with it. A designer who swapped `set_winner(p)` and `end_game(…)` saw the
winner decided by score instead, and nothing said why (a designer's trial). A warning: the
effect runs as written.

A block ends the game when one of its statements calls `end_game`, or calls a procedure whose
own body ends the game on every way through it, or is an `if` with an `else` whose every branch
ends it. A loop's body may not run, so a loop never ends its block. The procedures that always
end the game are found from none upward (a procedure is added once its body ends given those
found so far), so a procedure that only calls itself, or one that ends the game on some ways
only, is never taken for one."""

from __future__ import annotations

from collections.abc import Mapping

from . import ast
from .errors import Collector
from .static_checks import Source

_ENDS_THE_GAME = "end_game"


def check_unreachable(sources: list[Source], errors: Collector,
                      procedures: Mapping[str, ast.Node] | None = None) -> None:
    """Warns at statements no run reaches. `procedures`: each procedure's id and tree, so
    that a call of one that always ends the game ends its caller's block too."""
    enders = always_ending(procedures or {})
    for source in sources:
        if isinstance(source.tree, ast.Program):
            _block(source, source.tree.body, errors, enders)


def always_ending(procedures: Mapping[str, ast.Node]) -> frozenset[str]:
    """The procedures whose every way through ends the game: from none, each round adding
    those whose body ends it given the ones found, until no more are found."""
    found: set[str] = set()
    while True:
        more = {name for name, tree in procedures.items() if name not in found
                and isinstance(tree, ast.Program) and _block(None, tree.body, None, found)}
        if not more:
            return frozenset(found)
        found |= more


def _block(source: Source | None, body: tuple[ast.Node, ...], errors: Collector | None,
           enders) -> ast.Node | None:
    """Warns (with `errors`) at the first statement of `body` that follows what ends the
    game; returns that statement (None when some way through the block goes on)."""
    ender = None
    for statement in body:
        if ender is not None:
            if isinstance(statement, ast.Pass):  # does nothing either way: look past it
                continue
            if errors is not None:
                errors.warning(source.file, statement.line, statement.col, "effect/unreachable",
                               f"{_said(statement)} never runs: {_ending(ender)} ends the game "
                               "and this effect with it (what must happen as the game ends goes "
                               "before `end_game`)")
            return ender
        ender = _statement(source, statement, errors, enders)
    return ender


def _statement(source: Source | None, node: ast.Node, errors: Collector | None,
               enders) -> ast.Node | None:
    if isinstance(node, ast.CallStmt):
        name = node.call.name
        return node if name == _ENDS_THE_GAME or name in enders else None
    if isinstance(node, ast.If):
        ends = [_block(source, body, errors, enders) for _, body in node.branches]
        ends.append(_block(source, node.orelse, errors, enders) if node.orelse else None)
        return node if all(ends) else None
    if isinstance(node, ast.For | ast.Repeat):
        _block(source, node.body, errors, enders)  # a loop may not run: it ends nothing after
    return None


def _said(statement: ast.Node) -> str:
    if isinstance(statement, ast.CallStmt):
        return f"`{statement.call.name}(…)`"
    return f"this `{type(statement).__name__.lower()}`"


def _ending(ender: ast.Node) -> str:
    if isinstance(ender, ast.If):
        return f"every way through the `if` at line {ender.line} calls `end_game`, which"
    if ender.call.name != _ENDS_THE_GAME:
        return (f"`{ender.call.name}(…)` at line {ender.line}, a procedure that calls "
                "`end_game` on every way through it,")
    return f"`end_game(…)` at line {ender.line}"
