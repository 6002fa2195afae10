"""A scenario's dice: `state: {dice: [4, 2]}` says what the next `roll`s show, in order,
before the game's seeded generator takes over (verbs `roll` takes them from the state's
`dice`, so a run that is refused or undone puts them back, and `ludex dump` writes those
still to come). The schema holds each die to 1–6; this module holds the scenario to using
them all."""

from __future__ import annotations

from .errors import Diagnostic, LudexError
from .yamlio import Document


def unused_dice(doc: Document, state: dict) -> None:
    """Dice the scenario lists that its run never rolled: the scenario means a roll that did
    not happen (fewer dice rolled than it thinks, or none), so it says so, at the first die
    left, rather than pass on expectations that may hold by chance."""
    left = state.get("dice") or []
    given = (doc.data.get("state") or {}).get("dice") or []
    if not left:
        return
    used = len(given) - len(left)
    line, col = doc.pos(("state", "dice", used))
    shown = ", ".join(map(str, left))
    rolled = (f"the run rolled {used} of its {len(given)} dice" if used
              else "the run rolled none of them")
    raise LudexError(Diagnostic(
        str(doc.path), line, col, "scenario/unused-dice",
        f"{len(left)} {'die' if len(left) == 1 else 'dice'} listed under `dice` never rolled: "
        f"{shown} ({rolled}; list only the dice the run rolls, in order)"))
