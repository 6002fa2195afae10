"""What one seat at the table may see of a game, as plain data for the page: counters, the
memory the game shows players, the cards of every zone it may look at (the others as a
count), the question when it is this seat's to answer (with its legal options), the log in
the chosen language, the scores.

Who may see a zone's cards is the zone's declared visibility: `public` — everyone; `owner` —
the seat that holds the power the zone (or, in a shared zone, the card) belongs to; `hidden` —
nobody (a deck). The designer's view (`viewer=None`) sees everything.
"""

from __future__ import annotations

from typing import Any

from ..observation import (  # who sees what: one rule for every view
    may_see,
    may_see_counter,
    memory_seen,
)
from .direction import message_direction

LOG_LINES = 300  # the log's last lines sent to the page


def seat_of(state: dict, power: str | None) -> int:
    """The seat holding `power`; questions for a power no player holds go to the first seat
    (as in `ludex play`)."""
    for index, seat in enumerate(state["seats"]):
        if power in seat:
            return index
    return 0


def card_entry(text, instance: str) -> dict:
    entry = {"id": instance, "name": str(text.name(instance))}
    words = text.form(instance, "text")
    if words:
        entry["text"] = str(words)
    return entry


def zones_seen(definition, state: dict, text, viewer: set[str] | None) -> list[dict]:
    """Every zone, per holder: its name, size, and the cards the viewer may see."""
    zones = []
    seated = {p for seat in state["seats"] for p in seat} | {""}
    for zone in definition.zones:
        for holder, cards in state["zones"].get(zone, {}).items():
            if holder not in seated:  # a power nobody plays in this game
                continue
            seen = [card_entry(text, c) for c in cards
                    if may_see(definition, zone, holder, state["cards"].get(c) or {}, viewer)]
            zones.append({"zone": zone, "name": str(text.name(zone)), "holder": holder,
                          "holder_name": str(text.name(holder)) if holder else "",
                          "count": len(cards), "cards": seen,
                          "visibility": definition.zones[zone].get("visibility", "public"),
                          "mine": bool(viewer) and holder in viewer})
    return zones


def question(game, text, legal: list[Any]) -> dict:
    """The pending decision as the page shows it: options by their index among the legal
    ones (the page answers with indices; the server maps them back)."""
    decision = game.pending
    return {"who": decision.who, "who_name": str(text.name(decision.who)),
            "seat": seat_of(game.view, decision.who),
            "prompt": text.filled(decision.prompt, decision.prompt_args),
            "mode": decision.mode,
            "count": decision.count,
            # the rule that asks, where the locale names it (an id alone tells a player nothing)
            "rule": _named(text, decision.rule),
            "options": [{"index": i, "label": text.option(option)}
                        for i, option in enumerate(legal)]}


def table_view(game, text, viewer: int | None, legal: list[Any] | None) -> dict:
    """The game as seat `viewer` sees it (None: everything). `legal` is the pending question's
    legal options, worked out once by the caller."""
    definition, state = game.definition, game.view
    seen = None if viewer is None else set(state["seats"][viewer])
    powers = [p for seat in state["seats"] for p in seat]
    counters = {p: {str(text.name(c)): values[p] for c, values in state["counters"].items()
                    if isinstance(values, dict) and p in values
                    and may_see_counter(definition, c, p, seen)} for p in powers}
    shared = {str(text.name(c)): v for c, v in state["counters"].items()
              if not isinstance(v, dict)}
    log = state["log"][-LOG_LINES:]
    view: dict[str, Any] = {
        "turn": state["turn"], "round": state["round"],
        "phase": str(text.name(state["phase"])) if state["phase"] else "",
        "seats": [{"index": i, "powers": seat,
                   "names": [str(text.name(p)) for p in seat]}
                  for i, seat in enumerate(state["seats"])],
        "powers": [{"id": p, "name": str(text.name(p)), "counters": counters[p]}
                   for p in powers],
        "shared_counters": shared,
        # the memory players see (`visibility: public`), named as the locale names it; a key
        # holding nothing yet has no value to show
        "memory": [{"key": key, "name": str(text.option(key)), "value": text.kept_value(value)}
                   for key, value in memory_seen(definition, state).items()
                   if value is not None],
        "flags": [str(text.name(f)) for f, on in state["flags"].items() if on],
        "zones": zones_seen(definition, state, text, seen),
        "log": [text.log_line(entry) for entry in log],
        # each line's direction: its language's (English's where the locale lacks the line)
        "log_dirs": [message_direction(text, entry["key"]) for entry in log],
        "log_length": len(state["log"]),
        "scores": {str(text.name(p)): v for p, v in game.scores().items()},
        "ended": None, "question": None, "waiting_for": None,
    }
    if game.is_terminal():
        view["ended"] = text.end_line(state["ended"], game.winners(), game.scores(),
                                      game.leaders(), game.lost_together(),
                                      state.get("ended_args"))
    elif game.pending is not None:
        asked = seat_of(state, game.pending.who)
        view["waiting_for"] = {"seat": asked, "power": game.pending.who,
                               "name": str(text.name(game.pending.who))}
        if viewer is None or viewer == asked:
            view["question"] = question(game, text, legal or [])
    return view


def _named(text, ident: str) -> str:
    name = str(text.name(ident)) if ident else ""
    return "" if name == ident else name
