"""The registry of the effect language's functions and verbs: what a builtin is, and the
decorators that register one. The builtins themselves live in queries.py (functions, which
compute values) and verbs.py (which change the state).

Each entry is registered once with its parameter kinds. The compiler uses the kinds to resolve
names at compile time (a `counter` parameter looks its argument up among counters, with "did
you mean" on a miss); the docs test checks every entry is documented. Functions compute values;
verbs change the state and are used as statements.

Parameter kinds: entity namespaces (power, space, zone, counter, flag, setting, piece, marker,
table, card) or `int`, `bool`, `text`, `list`, `any`. A trailing `?` marks an optional one.
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

    @property
    def required(self) -> int:
        return sum(1 for p in self.params if not p.endswith("?"))

    def kind(self, index: int) -> str:
        return self.params[min(index, len(self.params) - 1)].rstrip("?")


REGISTRY: dict[str, Builtin] = {}


def _register(name: str, params: str, verb: bool, static: bool = False):
    def wrap(fn):
        REGISTRY[name] = Builtin(name, tuple(params.split()) if params else (), fn, verb,
                                 (fn.__doc__ or "").strip(), static)
        return fn
    return wrap


def function(name: str, params: str = "", static: bool = False):
    return _register(name, params, verb=False, static=static)


def verb(name: str, params: str = ""):
    return _register(name, params, verb=True)
