"""A counter compared with a number its declared bounds never let it reach: `counter(alarm) > 8`
of a counter with `max: 8` never holds (every verb clamps a counter to its `min` and `max`), so a
`when` trigger on it never fires and a `require` on it always refuses. A designer's loss
condition was written so and passed validation; only a scenario caught it. Said as a warning at
the operator: the comparison that always holds (`counter(alarm) <= 8`) is as sure a slip.

Only the plain shape is looked at — `counter(id)` or `counter(id, power)` on one side, a whole
number written out on the other — where the answer is certain whatever the state."""

from __future__ import annotations

import math
from typing import Any

from . import ast
from .errors import Collector
from .static_checks import Source, nodes

# the comparison read the other way round: `8 < counter(x)` is `counter(x) > 8`
_FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
# `counter(x) OP n` in words, for the message
_WORDS = {"<": "less than", "<=": "at most", ">": "more than", ">=": "at least",
          "==": "equal to", "!=": "other than"}


def check_counter_comparisons(definition: Any, sources: list[Source], errors: Collector
                              ) -> None:
    for source in sources:
        for node in nodes(source.tree, definition.analysis_memo):
            if isinstance(node, ast.Compare) and node.op in _FLIPPED:
                _check(definition, source, node, errors)


def _check(definition: Any, source: Source, node: ast.Compare, errors: Collector) -> None:
    op, counter, number = node.op, _counter_id(node.left), _number(node.right)
    if counter is None or number is None:
        op, counter, number = _FLIPPED[op], _counter_id(node.right), _number(node.left)
    if counter is None or number is None:
        return
    spec = definition.counters.get(counter)
    if not isinstance(spec, dict):
        return
    low, high = _bound(spec.get("min"), -math.inf), _bound(spec.get("max"), math.inf)
    holds = _always(op, number, low, high)
    if holds is None:
        return
    bound = (f"at most {_shown(high)} (its `max`)" if _beyond_max(op, number, high, holds)
             else f"at least {_shown(low)} (its `min`)")
    line, col = (node.op_line, node.op_col) if node.op_line else (node.line, node.col)
    always = "always" if holds else "never"
    errors.warning(source.file, line, col, "effect/constant-comparison",
                   f"this comparison {always} holds: counter `{counter}` is {bound} and every "
                   f"change is kept within its bounds, so it is {always} {_WORDS[op]} {number}")


def _always(op: str, n: int, low: float, high: float) -> bool | None:
    """True: holds for every value from `low` to `high`; False: for none; None: it depends."""
    if op == ">":
        return False if n >= high else True if n < low else None
    if op == ">=":
        return False if n > high else True if n <= low else None
    if op == "<":
        return False if n <= low else True if n > high else None
    if op == "<=":
        return False if n < low else True if n >= high else None
    outside = n < low or n > high
    if op == "==":
        return False if outside else True if low == high == n else None
    return True if outside else False if low == high == n else None  # !=


def _beyond_max(op: str, n: int, high: float, holds: bool) -> bool:
    """Whether the counter's `max` (else its `min`) is what settles the comparison: a test
    that is true for large values never holds past the `max` and always holds below the
    `min`, and the other way round."""
    if op in ("==", "!="):
        return n > high
    return (op in (">", ">=")) != holds


def _counter_id(node: ast.Node) -> str | None:
    if isinstance(node, ast.Call) and node.name == "counter" and 1 <= len(node.args) <= 2 \
            and isinstance(node.args[0], ast.Name):
        return node.args[0].name
    return None


def _number(node: ast.Node) -> int | None:
    if isinstance(node, ast.Literal) and node.value.__class__ is int:
        return node.value
    if isinstance(node, ast.Negate) and isinstance(node.operand, ast.Literal) \
            and node.operand.value.__class__ is int:
        return -node.operand.value
    return None


def _bound(value: Any, default: float) -> float:
    return value if isinstance(value, int | float) and not isinstance(value, bool) else default


def _shown(value: float) -> str:
    return str(int(value)) if value == int(value) else str(value)
