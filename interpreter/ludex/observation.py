"""What one player may see of a game in progress: the state with hidden things left out, as
plain data, for programs that play (reinforcement-learning agents, bots, a remote table).

It follows the `visibility` of zones and counters in the game's manifest (a counter with
`visibility: owner` shows each power its own value only: a sealed bid), and for zones: `public`
zones show their cards to
everyone; `owner` zones to the power holding them (a zone shared by the game: each card to the
card's owner); `hidden` zones (decks) to nobody. A pile the viewer may not see keeps only its
size: `zones[zone][holder]` is `{"count", "cards"}`, `cards` listing (in order) only the
cards the viewer sees, and those alone are described in `cards` (an instance id names the card).
The generator's state and seed are left out too (they would tell the order of every shuffled
deck), and so is the engine's own bookkeeping; of memory (`remember`), only the keys the
manifest declares `visibility: public`. The log is kept: it is what the whole table is
told. The pending question shows its options only to the power it asks."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .engine import Game

# the state's sections that everyone sees as they are
PUBLIC = ("game", "settings", "seats", "turn", "round", "phase", "active", "ended", "log",
          "counters", "flags", "spaces")


def observe(game: Game, viewer: str | Iterable[str] | None) -> dict[str, Any]:
    """The game as `viewer` sees it now: a power id, the powers of one seat (a player holding
    several powers sees what each of them sees), or None for a spectator (public things only).
    Plain data (JSON-serialisable); a copy, so changing it changes nothing in the game."""
    powers = {viewer} if isinstance(viewer, str) else set(viewer or ())
    state = game.view
    seen = {section: _copy(state[section]) for section in PUBLIC}
    seen["ended_args"] = _copy(state.get("ended_args") or {})  # what the end's reason says
    for counter in game.definition.secret_counters:  # each power sees its own value only
        values = seen["counters"].get(counter)
        if isinstance(values, dict):
            seen["counters"][counter] = {p: v for p, v in values.items()
                                         if may_see_counter(game.definition, counter, p, powers)}
    seen["memory"] = memory_seen(game.definition, state)
    seen["viewer"] = sorted(powers)
    zones: dict[str, dict[str, dict]] = {}
    visible: list[str] = []
    for zone, piles in state["zones"].items():
        zones[zone] = {}
        for holder, cards in piles.items():
            shown = [c for c in cards
                     if may_see(game.definition, zone, holder, state["cards"][c], powers)]
            zones[zone][holder] = {"count": len(cards), "cards": shown}
            visible += shown
    seen["zones"] = zones
    # a card lying under a visible one is seen with it
    for card in list(visible):
        visible += state["cards"][card].get("under") or []
    seen["cards"] = {c: _copy(state["cards"][c]) for c in dict.fromkeys(visible)}
    pending = game.pending
    if pending is not None:
        question = {"who": pending.who, "prompt": pending.prompt,
                    "prompt_args": _copy(pending.prompt_args), "mode": pending.mode,
                    "count": pending.count, "rule": pending.rule}
        if pending.who in powers:
            question["options"] = game.legal_actions()
        seen["pending"] = question
    else:
        seen["pending"] = None
    return seen


def may_see(definition, zone: str, holder: str, card: dict, viewer: set[str] | None) -> bool:
    """May powers `viewer` see `card`, lying in `holder`'s pile of `zone`? None sees all (a
    designer's view); an empty set only what is public. The one rule of who sees what: the
    web table (table/view.py) asks it too."""
    visibility = definition.zones[zone].get("visibility", "public")
    if viewer is None or visibility == "public":
        return True
    if visibility == "hidden":
        return False
    return (holder or card.get("owner")) in viewer


def may_see_counter(definition, counter: str, power: str, viewer: set[str] | None) -> bool:
    """May powers `viewer` see `power`'s value of `counter`? None sees all (a designer's
    view); an empty set only what is public. A counter is public unless its `visibility` is
    `owner` (a sealed bid), whose value only its own power sees. The one rule for counters, as
    `may_see` is for cards: the web table and the terminal ask it too."""
    return viewer is None or counter not in definition.secret_counters or power in viewer


def memory_seen(definition, state: dict) -> dict[str, Any]:
    """The declared memory players see: each key of `visibility: public`, in the manifest's
    order, with its value now (none before anything is kept). Memory is the whole game's, not
    a power's, so it is shown to everyone or to nobody; undeclared and `hidden` keys are the
    rules' own bookkeeping (a snapshot, a card being judged) and are never shown. The one
    rule for memory: the terminal, the web table and observations ask it."""
    kept = state.get("memory") or {}
    return {key: _copy(kept.get(key)) for key in definition.public_memory}


def _copy(value: Any) -> Any:
    """A deep copy of plain data (dicts, lists, scalars)."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_copy(v) for v in value]
    return value
