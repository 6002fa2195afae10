"""How much an effect may build and how much work it may do.

The step budget (Context.step) counts work, not statements: a loop or a comprehension pays
for every item it visits, a builtin for every item of the lists it is given or returns, a
list or text an operator builds for every item or character in it. Whatever an effect
builds is capped in size (numbers within ±10^15, as content numbers), so no effect can
run out of memory or hang on one huge operation before the budget notices. Each limit met is a
rule error at the effect's line, never a Python crash.
"""

from __future__ import annotations

import operator
from typing import Any

from .plain_words import kind_of, plain
from .runtime import Context, RuleError, Where

MAX_NUMBER = 10**15  # as numbers in content (yamlio, parser.MAX_DIGITS)
MAX_ITEMS = 10_000  # items of a list an effect builds
MAX_TEXT = 10_000  # characters of a text an effect builds
MAX_NESTING = 100  # levels of an effect's syntax tree (blocks within blocks, operands…)
MAX_LIST_DEPTH = 20  # lists within lists an effect builds

_SEQUENCES = (list, str, tuple)


def charge(ctx: Context, work: int, where: Where) -> None:
    """Count `work` steps (items visited or built) against the run's budget."""
    ctx.steps += work
    if ctx.steps > ctx.budget:
        ctx.step(where)  # raises, naming the rule


def sized(value: Any, where: Where) -> int:
    """The number of items of a list (or of any value a loop may visit); a value that is not
    a list is a type error naming it."""
    if value.__class__ is list or value.__class__ is tuple:
        return len(value)
    raise RuleError("effect/type-error", f"{kind_of(value)} is not a list", where)


def _times(a: Any, b: Any) -> Any:
    """`*`, refusing before it is built a list or text past its cap (`"ab" * 10**9`)."""
    if a.__class__ in _SEQUENCES or b.__class__ in _SEQUENCES:
        sequence, count = (a, b) if a.__class__ in _SEQUENCES else (b, a)
        if count.__class__ in (int, bool) and len(sequence) * count > _cap(sequence):
            raise _TooLarge(sequence, len(sequence) * count)
    return a * b


def _modulo(a: Any, b: Any) -> Any:
    if a.__class__ is str:  # Python would format the text (`"%9999999d" % 1`)
        raise TypeError("unsupported operand type(s) for %: 'str' and "
                        f"'{type(b).__name__}'")
    return a % b


ARITHMETIC = {"+": operator.add, "-": operator.sub, "*": _times, "/": operator.truediv,
              "%": _modulo}


class _TooLarge(Exception):
    def __init__(self, value: Any, size: int):
        super().__init__(value, size)
        self.value, self.size = value, size


def _cap(value: Any) -> int:
    return MAX_TEXT if value.__class__ is str else MAX_ITEMS


def _too_large(value: Any, size: int, where: Where) -> RuleError:
    if value.__class__ is str:
        what = f"a text of {size:,} characters; effects build texts of at most {MAX_TEXT:,}"
    elif value.__class__ in _SEQUENCES:
        what = f"a list of {size:,} items; effects build lists of at most {MAX_ITEMS:,}"
    else:
        what = "a number beyond ±10^15, the largest an effect may compute"
    return RuleError("effect/too-large", what, where)


def compute(symbol: str, a: Any, b: Any, ctx: Context, where: Where) -> Any:
    """`a symbol b` as the language computes it: within the caps, its building paid for,
    and any Python failure said as a type error at the effect's line."""
    try:
        value = ARITHMETIC[symbol](a, b)
    except _TooLarge as exc:
        raise _too_large(exc.value, exc.size, where) from None
    except (TypeError, ZeroDivisionError, OverflowError, ValueError, MemoryError) as exc:
        raise RuleError("effect/type-error", f"cannot compute `{symbol}`: {plain(exc)}",
                        where) from None
    if value.__class__ is int and -MAX_NUMBER <= value <= MAX_NUMBER:
        return value
    return bounded(value, ctx, where)


def weigh(items: list, ctx: Context, where: Where) -> list:
    """A list an effect built, counted with the lists inside it against the caps and paid
    for. The top level alone would not do: `let x = [x, x]` in a loop doubles what `x` holds
    at every turn while its top level stays two items long. Only needed when it holds a
    list: a list of numbers, names or rows is paid for by whoever built it."""
    seen, stack = 0, [(items, 1)]
    while stack:
        current, depth = stack.pop()
        seen += len(current)
        if seen > MAX_ITEMS:
            raise RuleError("effect/too-large", f"a list of more than {MAX_ITEMS:,} items, "
                            "counting the items of the lists inside it", where)
        if depth > MAX_LIST_DEPTH:
            raise RuleError("effect/too-large", f"lists nested more than {MAX_LIST_DEPTH} "
                            "deep", where)
        stack.extend((v, depth + 1) for v in current if v.__class__ in (list, tuple))
    charge(ctx, seen, where)
    return items


def holds_lists(items: list) -> bool:
    # a loop, not any(…) (half the time): this runs for every list a comprehension builds
    for item in items:  # noqa: SIM110
        if item.__class__ is list or item.__class__ is tuple:
            return True
    return False


def bounded(value: Any, ctx: Context, where: Where) -> Any:
    """A value an operator built, checked against the caps (and a list or text paid for)."""
    if value.__class__ in _SEQUENCES:
        if len(value) > _cap(value):
            raise _too_large(value, len(value), where)
        if value.__class__ is not str and holds_lists(value):
            return weigh(value, ctx, where)
        charge(ctx, len(value), where)
    elif value.__class__ in (int, float) and not -MAX_NUMBER <= value <= MAX_NUMBER:
        raise _too_large(value, 0, where)
    elif value.__class__ is float and value.is_integer():
        # a whole number however it was reached (`12 / 4`, `3.5 * 2`) is that number: a player
        # reads `3`, not `3.0`, and a count or a counter takes it as it is
        return int(value)
    return value
