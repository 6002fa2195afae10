"""Which sections of the state a `when` trigger's test reads, so that the engine checks it after a
verb only when the verb wrote one of them (engine.py `_watch`).

Every verb says which sections it is about to write (`Context.touch`); a test that reads none of
them has the value it had at its last check, so checking it again cannot fire it. The reading
side is worked out here from the test's syntax tree, conservatively: a query function reads the
sections listed below, a static one (registered `static`: of its arguments and the game's data
alone, `rows`, `neighbours`, `enum_values`…) none, an attribute (`s.control`, `c.zone`) reads
spaces and cards, a content function reads what its expression reads, and anything else — a
context name (`me`, `turn`, `active`…), a function not listed, a function that reaches itself —
makes the test one that is checked after every verb, as before. Where a query names its zone or
counter outright (`cards(draw_pile)`), the test reads that entry only: a card moved between two
hands does not make it check a test about the draw pile.
"""

from __future__ import annotations

from typing import Any

from . import ast
from .builtins import REGISTRY
from .runtime import CONTEXT_NAMES
from .static_checks import walk

# query functions and the sections of the state they read
_READS: dict[str, frozenset[str]] = {
    name: frozenset(sections) for name, sections in {
        "pieces": ("spaces",), "located": ("spaces",), "markers_now": ("spaces",),
        "cards": ("zones",), "under": ("cards",), "owner_of": ("cards",),
        "tokens": ("cards",), "has_event": ("cards",), "has_ability": ("cards",),
        "counter": ("counters",), "by_counter": ("counters",), "can_pay": ("counters",),
        "flag": ("flags",), "recalled": ("memory",),
        "lookup": (),  # a plain value's entry: no section (static functions read none either)
    }.items()
}
_ATTRIBUTE_READS = frozenset({"spaces", "cards"})  # markers; a card's zone, owner, tokens
# queries whose first argument, named outright, is the one entry of their section they read
_ENTRY_READS = {"cards": "zones", "counter": "counters", "can_pay": "counters"}


Reads = frozenset  # of sections, and of (section, entry) pairs


def sections_read(tree: ast.Node, env: Any) -> Reads | None:
    """What `tree` may read — whole sections, and (section, entry) pairs — or None when
    that cannot be told (check it always)."""
    return _reads(tree, env, set(), ())


def overlaps(reads: Reads, written: dict[str, set | None]) -> bool:
    """Whether anything read was written (`written`: section -> the entries written, None
    for the whole section)."""
    for read in reads:
        if read.__class__ is str:
            if read in written:
                return True
            continue
        section, entry = read
        if section in written:
            entries = written[section]
            if entries is None or entry in entries:
                return True
    return False


class _EveryWrite(dict):
    """What is watched when some trigger's inputs cannot be told: every write."""

    def __contains__(self, section: object) -> bool:
        return True

    def __getitem__(self, section: str) -> None:
        return None  # the whole section


EVERY_WRITE = _EveryWrite()


def watched_inputs(triggers: list[dict]) -> dict[str, frozenset | None]:
    """Everything any of these `when` tests reads, as the state's writers name it: section
    -> its entries read (None: the whole section). A write outside it cannot change any
    test's value, so it need not be followed by a check (`Context.touch` marks the run
    `dirty` only for writes inside it)."""
    watched: dict[str, set | None] = {}
    for trigger in triggers:
        reads = trigger.get("reads")
        if reads is None:
            return EVERY_WRITE
        for read in reads:
            if read.__class__ is str:
                watched[read] = None
            elif watched.get(read[0], ()) is not None:
                watched.setdefault(read[0], set()).add(read[1])
    return {section: None if entries is None else frozenset(entries)
            for section, entries in watched.items()}


def _reads(tree: ast.Node, env: Any, seen: set[str], params: tuple[str, ...]
           ) -> Reads | None:
    found: set = set()
    locals_ = {*params, *(n.name for n in walk(tree) if isinstance(n, ast.Comprehension))}
    for node in walk(tree):
        if isinstance(node, ast.Name):
            if node.name in CONTEXT_NAMES and node.name not in locals_:
                return None
        elif isinstance(node, ast.Attribute):
            found |= _ATTRIBUTE_READS
        elif isinstance(node, ast.Call):
            function = env.function_trees.get(node.name)
            if function is not None:
                if node.name in seen:
                    return None
                inner = _reads(function[0], env, seen | {node.name}, function[2])
                if inner is None:
                    return None
                found |= inner
            elif node.name in _ENTRY_READS and node.args and _named(node.args[0], locals_):
                found.add((_ENTRY_READS[node.name], node.args[0].name))
            elif node.name in _READS:
                found |= _READS[node.name]
            elif _static(node.name):  # of the game's static data alone: no section
                pass
            else:
                return None
    return frozenset(found)


def _static(name: str) -> bool:
    builtin = REGISTRY.get(name)
    return builtin is not None and builtin.static


def _named(node: ast.Node, locals_: set[str]) -> bool:
    """An id written out (not a local whose value is only known in play)."""
    return isinstance(node, ast.Name) and node.name not in locals_ \
        and node.name not in CONTEXT_NAMES
