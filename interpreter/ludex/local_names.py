"""Locals an effect sets and reads: one set and never read (most often a misspelling, which
makes a new local instead of changing the one meant), and one read where no `let` may have
given it a value yet (it reads as none there). Both ran without a word: a designer's auction
never had a winner after a misspelt `let winer = q`, and deleting `let winner = none` before an
`if` that sets it still passed every scenario (a designer's trial). Warnings: the effect runs as
written.

A local is a name an effect's `let` or `choose` binds; `for` and comprehension names are
bound for their own body only and are not looked at here. The effect language has no
functions inside an effect and no `while`, so reading the statements in order, with each
branch of an `if` and the body of a loop taken on its own, tells which locals have a value
at each read: one set in every branch of an `if` with an `else` is set after it; one set in
a loop's body is not (the loop may not run)."""

from __future__ import annotations

from . import ast
from .errors import Collector, did_you_mean
from .static_checks import Source, nodes, walk

_EXPRESSION_FIELDS = {
    ast.Let: ("value",), ast.Require: ("condition", "message"), ast.CallStmt: ("call",),
    ast.Choose: ("options", "count", "chooser", "prompt"), ast.Repeat: ("count",),
}


def check_local_names(sources: list[Source], errors: Collector, memo: dict | None = None
                      ) -> None:
    """`memo`: a definition's `analysis_memo`, where each tree is walked once for every
    check (static_checks.nodes)."""
    for source in sources:
        tree = source.tree
        if not isinstance(tree, ast.Program):
            continue  # an expression binds no local of its own
        every = nodes(tree, memo)
        bound: dict[str, ast.Node] = {}  # each local, at the first statement setting it
        for node in every:
            if isinstance(node, ast.Let | ast.Choose):
                bound.setdefault(node.name, node)
        if not bound:
            continue
        _unused(source, every, bound, errors)
        _Reads(source, set(bound), errors).block(tree.body, frozenset(source.params))


def _unused(source: Source, every: tuple[ast.Node, ...], bound: dict[str, ast.Node],
            errors: Collector) -> None:
    """A local no expression of the effect reads: its value goes nowhere."""
    read = {node.name for node in every if isinstance(node, ast.Name)}
    for name, first in bound.items():
        if name in read or name.startswith("_"):
            continue
        errors.warning(source.file, first.line, first.col, "effect/unused-name",
                       f"`{name}` is set here and never read{did_you_mean(name, sorted(read))}: "
                       "a misspelt name makes a new local instead of changing the one meant "
                       "(a name starting with `_` may stay unread on purpose)")


class _Reads:
    """Walks the statements in order with the locals that have a value (`block`'s `known`),
    warning at a read of a local that may have none."""

    def __init__(self, source: Source, locals_: set[str], errors: Collector):
        self.source, self.locals, self.errors = source, locals_, errors
        self.warned: set[str] = set()  # once per local: its first doubtful read says it
        # locals a `let` or `choose` above has set on some way: a read of one no line above
        # sets is an error of the compiler's (`effect/unknown-name`, "set only later")
        self.set_above: set[str] = set()

    def block(self, body: tuple[ast.Node, ...], known: frozenset[str]) -> frozenset[str]:
        for statement in body:
            known = self.statement(statement, known)
        return known

    def statement(self, node: ast.Node, known: frozenset[str]) -> frozenset[str]:
        if isinstance(node, ast.If):
            after = None
            for condition, body in node.branches:
                self.reads(condition, known)
                branch = self.block(body, known)
                after = branch if after is None else after & branch
            orelse = self.block(node.orelse, known)
            return after & orelse if node.orelse else known
        if isinstance(node, ast.For):
            self.reads(node.iterable, known)
            inner = known | {node.name}
            self.reads(node.where, inner)
            self.block(node.body, inner)
            return known  # the loop may not run: what it sets is not known after it
        for name in _EXPRESSION_FIELDS.get(node.__class__, ()):
            self.reads(getattr(node, name), known)
        if isinstance(node, ast.Repeat):
            self.block(node.body, known)
        if isinstance(node, ast.Let | ast.Choose):
            self.set_above.add(node.name)
            return known | {node.name}
        return known

    def reads(self, expression: ast.Node | None, known: frozenset[str]) -> None:
        if expression is None:
            return
        hidden = {n.name for n in walk(expression) if isinstance(n, ast.Comprehension)}
        for node in walk(expression):
            if isinstance(node, ast.Name) and node.name in self.set_above \
                    and node.name not in known and node.name not in hidden \
                    and node.name not in self.warned:
                self.warned.add(node.name)
                self.errors.warning(
                    self.source.file, node.line, node.col, "effect/maybe-unset",
                    f"`{node.name}` may have no value here (none): a `let` sets it only on "
                    "some ways here (in a branch of an `if`, or in a loop that may not run); "
                    f"give it a value first, `let {node.name} = none`, if none is meant")
