"""The registry of the effect language's functions and verbs: what a builtin is, and the
decorators that register one. The builtins themselves live in queries.py (functions, which
compute values) and verbs.py (which change the state).

Each entry is registered once with its parameter kinds. The compiler uses the kinds to resolve
names at compile time (a `counter` parameter looks its argument up among counters, with "did
you mean" on a miss); the docs test checks every entry is documented. Functions compute values;
verbs change the state and are used as statements.

Parameter kinds: entity namespaces (power, space, zone, counter, flag, setting, piece, marker,
table, card) or `int`, `count` (a whole number from 0: pieces, cards, dice), `bool`, `text`,
`list`, `any`. A trailing `?` marks an optional one, which may also be given as `none`; a kind
listed in `none_for` takes `none` too (the power of a counter kept for the whole game). Every
argument is checked against its kind: at validation where it is known (typecheck.py), else
when the effect runs (arguments.py).

A builtin may list `synonyms`: the words a designer reaches for first (`add` for `gain`), so
that an unknown call like `add_vp` is answered with "did you mean `gain(vp, …)`".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

ENTITY_KINDS = ("power", "space", "zone", "counter", "flag", "setting", "piece", "marker",
                "table", "card")


@dataclass(frozen=True)
class Builtin:
    name: str
    params: tuple[str, ...]
    fn: Callable[..., Any]
    verb: bool
    doc: str
    # depends only on its arguments and the game definition, never on the state: with
    # arguments known at compile time, the compiler computes it once, at load
    static: bool = False
    synonyms: tuple[str, ...] = ()
    # what a function gives back, for the static pass (typecheck.py): `int`, `bool`, `text`,
    # an entity kind, `list:<kind>` (`list:row`: rows of the table named first), `row` (a row
    # of the table named first), or `any`
    returns: str = "any"
    # may ask a player a question, itself or through content it runs (a card's event): a
    # loop calling it is worth running one iteration at a time (resumable.py)
    asks: bool = False
    # parameter kinds that also take `none` where they are not optional
    none_for: tuple[str, ...] = ()
    # texts a parameter takes only one of, by its index (`move_card`'s "top" or "bottom"): a
    # literal outside them is an error at validation, not first in play. A type word in
    # place of the texts (`enum:connection kind`) names texts each game declares for itself
    choices: tuple[tuple[int, tuple[str, ...] | str], ...] = ()

    def choices_at(self, index: int) -> tuple[str, ...] | str | None:
        return dict(self.choices).get(index)

    @property
    def required(self) -> int:
        return sum(1 for p in self.params if not p.endswith("?"))

    def kind(self, index: int) -> str:
        return self.params[min(index, len(self.params) - 1)].rstrip("?")

    def nullable(self, index: int) -> bool:
        """Whether the argument at `index` may be `none`."""
        param = self.params[min(index, len(self.params) - 1)]
        return param.endswith("?") or param in self.none_for


REGISTRY: dict[str, Builtin] = {}


def _register(name: str, params: str, verb: bool, static: bool = False, synonyms: str = "",
              returns: str = "any", asks: bool = False, none_for: str = "",
              choices: dict[int, tuple[str, ...] | str] | None = None):
    def wrap(fn):
        REGISTRY[name] = Builtin(name, tuple(params.split()) if params else (), fn, verb,
                                 (fn.__doc__ or "").strip(), static, tuple(synonyms.split()),
                                 returns, asks, tuple(none_for.split()),
                                 tuple(sorted((choices or {}).items())))
        return fn
    return wrap


def function(name: str, params: str = "", static: bool = False, synonyms: str = "",
             returns: str = "any", none_for: str = "",
             choices: dict[int, tuple[str, ...] | str] | None = None):
    return _register(name, params, verb=False, static=static, synonyms=synonyms,
                     returns=returns, none_for=none_for, choices=choices)


def verb(name: str, params: str = "", synonyms: str = "", asks: bool = False,
         none_for: str = "", choices: dict[int, tuple[str, ...]] | None = None):
    return _register(name, params, verb=True, synonyms=synonyms, asks=asks, none_for=none_for,
                     choices=choices)


def suggest_builtin(name: str, kinds_of: Callable[[str], tuple[str, ...]]) -> list[str]:
    """Builtins an unknown call may have meant, by the words of its name: `add_vp` has `add`
    (a synonym of `gain`) and `vp` (a counter, which `gain` takes), so `gain(vp, …)`.
    `kinds_of` gives the entity kinds of an id in the game at hand."""
    words = name.split("_")
    found: list[tuple[int, str]] = []
    for builtin in REGISTRY.values():
        if not any(w == builtin.name or w in builtin.synonyms for w in words):
            continue
        shown = builtin.name
        for word in words:
            at = next((i for i, p in enumerate(builtin.params)
                       if p.rstrip("?") in kinds_of(word)), None)
            if at is not None:
                args = ["…"] * bool(at) + [word] + ["…"] * (at < len(builtin.params) - 1)
                shown = f"{builtin.name}({', '.join(args)})"
                break
        found.append((0 if shown != builtin.name else 1, shown))
    best = min((rank for rank, _ in found), default=1)
    return [text for rank, text in found if rank == best]
