"""`remember` and `recalled` in the static type pass, for a game that declares its memory
(memory_types.py): `recalled("k")` is of k's declared type, so that what follows it is
checked as for a counter or a card's attribute, and `remember("k", v)` needs a `v` that can be
of that type. Validation only: the builtins themselves are untouched, and play as fast.
"""

from __future__ import annotations

from . import ast
from . import type_words as tw
from .errors import did_you_mean
from .registry import ENTITY_KINDS
from .type_words import ANY, ENUM

# the builtins that keep or read a value in memory, by a key given first
MEMORY_CALLS = frozenset({"remember", "recalled"})


def memory_call(checker, node: ast.Call, args: list[str]) -> str:
    """The type of a `remember` or `recalled` call (`checker` is typecheck.py's, with the
    types of the call's arguments in `args`); a value `remember` cannot keep is reported at
    it. A key not declared is static_checks.py's to report."""
    key = node.args[0]
    if not (isinstance(key, ast.Literal) and isinstance(key.value, str)):
        return ANY  # a key worked out in play: any key, of any type
    t = checker.k.memory.get(key.value, ANY)
    if node.name == "remember" and t != ANY:
        wrong = misfit(checker.k, t, args[1], tw.literal(node.args[1])) \
            or text_misfit(checker.k, t, node.args[1], checker.texts_read(node.args[1], args[1]))
        if wrong:
            checker.error(node.args[1], "effect/type-error",
                          f"memory `{key.value}` holds {describe(t)} (its type in the "
                          f"manifest), not {wrong}")
    return t


def text_misfit(kinds, t: str, node: ast.Node, texts: tuple[str, ...] | None) -> str | None:
    """What a card's text attribute (`node`, `texts` every value the cards give it) is, when
    none of its values can be a `t`: no power of that name, no value of that enum."""
    if not texts:
        return None
    if t in ENTITY_KINDS and t != "card":
        fits, what = set(texts) & kinds.ids[t], f"names no {t}"
    elif t.startswith(ENUM):
        fits = set(texts) & set(kinds.enums.get(t[len(ENUM):], ()))
        what = f"is never {describe(t)}"
    else:
        return None
    return None if fits else f"a card's `{node.name}`, a text that {what} ({', '.join(texts)})"


def describe(t: str) -> str:
    """A declared type as a message names it (a list with its items)."""
    if t.startswith("list:"):
        return f"a list, each item {describe(t[5:])}"
    return tw.describe(t)


def misfit(kinds, t: str, given: str, literal: object) -> str | None:
    """What a value of type `given` (`literal`, when written out) is, when it cannot be a
    `t`; else None. `kinds` is typecheck.py's view of the game's ids."""
    category = tw.category(given)
    if category in (None, "none") or given == t:
        return None  # unknown, or none, which every key holds before anything is kept
    if tw.is_list(t):
        if category != tw.LIST:
            return tw.describe(given)
        if tw.element(t) != ANY and tw.element(given) != ANY:
            inner = misfit(kinds, tw.element(t), tw.element(given), None)
            return f"a list with {inner} in it" if inner else None
        return None
    if t in ("int", "bool") or category != tw.STR:
        return tw.describe(given)  # only the very type fits (true is not 1 here)
    if t.startswith(ENUM):
        values = kinds.enums.get(t[len(ENUM):], ())
        if isinstance(literal, str) and literal not in values:
            return f"{tw.quoted(literal)} ({', '.join(values)})" + did_you_mean(literal, values)
        if given.startswith(tw.TEXTS):  # some texts written out: each must be a value
            outside = [v for v in tw.text_values(given) if v not in values]
            return f"{tw.quoted(outside[0])} ({', '.join(values)})" + did_you_mean(
                outside[0], values) if outside else None
        return tw.describe(given) if given != "text" else None
    if t in ENTITY_KINDS:
        if isinstance(literal, str) and t != "card" and literal not in kinds.ids[t]:
            return f"{tw.quoted(literal)}, which names no {t}"
        if given in ENTITY_KINDS and kinds.disjoint(given, t):
            return tw.describe(given)
        if given.startswith(ENUM) and not kinds.enum_names_ids(given):
            return tw.describe(given)
    return None
