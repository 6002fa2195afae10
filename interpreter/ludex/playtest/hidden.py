"""Information-set sampling: a copy of the game in which what one seat cannot see is dealt
again at random, so that an agent searching it learns nothing from hidden cards or from the
future of the game's random generator.

What a seat sees follows the zones' `visibility`: `public` zones by everyone, `owner` zones by
the power holding them, `hidden` zones (decks) by no one. A card counts as unseen when it lies
in a zone the seat cannot see both where the pending unit started and now (a card drawn into
the seat's own hand during that unit has been seen, and stays where it was). Unseen cards of the
same owner that began the game in the same zone are shuffled among the places such cards hold;
sizes of every pile are kept. They are sorted before the shuffle, so a sample depends only on
which cards are unseen, never on where they really lie. The random generator's state is
replaced as well. The sample must agree with all the seat sees now (every visible pile,
counter, flag and space, and the pending question); one that does not is drawn again, then
tried with fewer changes (see `sampled_fork`).
"""

from __future__ import annotations

import json
import random
from typing import Any

from ..engine import Game

ATTEMPTS = 3  # full re-deals to try before a lighter one


def seen_by(definition, zone: str, holder: str, seat: list[str]) -> bool:
    visibility = definition.zones[zone].get("visibility", "public")
    if visibility == "public":
        return True
    return visibility == "owner" and holder in seat


def unseen_places(definition, state: dict, seat: list[str]) -> dict[str, tuple[str, str, int]]:
    """card instance -> (zone, holder, index) of every card the seat cannot see."""
    places = {}
    for zone, piles in state["zones"].items():
        if zone not in definition.zones:
            continue
        for holder, pile in piles.items():
            if not seen_by(definition, zone, holder, seat):
                for index, card in enumerate(pile):
                    places[card] = (zone, holder, index)
    return places


def redeal(definition, seat: list[str], now: dict, rng: random.Random,
           shuffle: bool = True, reseed: bool = True):
    """An edit for `Game.fork`: re-deals the seat's unseen cards and reseeds the generator."""
    unseen_now = unseen_places(definition, now, seat)

    def edit(start: dict) -> None:
        if shuffle:
            groups: dict[tuple, list[tuple[str, str, int]]] = {}
            for card, place in unseen_places(definition, start, seat).items():
                if card not in unseen_now:
                    continue  # the seat has seen it since the pending unit started
                entry = start["cards"].get(card) or {}
                origin = (definition.cards.get(entry.get("card"), {}).get("zone"),
                          entry.get("owner"))
                groups.setdefault(origin, []).append(place)
            for origin in sorted(groups, key=repr):
                places = sorted(groups[origin])
                # sorted first: the sample depends on which cards are unseen, never on where
                # they really lie
                cards = sorted(start["zones"][z][h][i] for z, h, i in places)
                rng.shuffle(cards)
                for (zone, holder, index), card in zip(places, cards, strict=True):
                    start["zones"][zone][holder][index] = card
                    start["cards"][card]["zone"] = [zone, holder]
        if reseed:
            start["rng"] = rng.getrandbits(64)
    return edit


def _seen(definition, state: dict, seat: list[str]) -> str:
    """Everything of `state` the seat sees, as text to compare."""
    shown: dict[str, Any] = {k: v for k, v in state.items()
                             if k not in ("rng", "cards", "zones", "log")}
    shown["zones"] = {z: {h: (list(p) if seen_by(definition, z, h, seat) else len(p))
                          for h, p in piles.items()}
                      for z, piles in state["zones"].items() if z in definition.zones}
    shown["log"] = len(state.get("log") or [])
    return json.dumps(shown, sort_keys=True, default=repr)


def sampled_fork(game: Game, seat: list[str], rng: random.Random) -> tuple[Game, str]:
    """A fork of `game` with the seat's unseen information dealt again; (fork, how): `how` is
    `redeal`, `shuffle` (cards only), `reseed` (generator only) or `exact` when no re-deal
    agreed with what the seat sees (the fork then is the game itself, counted by callers)."""
    definition = game.definition
    wanted = (_seen(definition, game.view, seat), game.pending)
    tries = [("redeal", True, True)] * ATTEMPTS + [("shuffle", True, False),
                                                    ("reseed", False, True)]
    for how, shuffle, reseed in tries:
        try:
            fork = game.fork(edit=redeal(definition, seat, game.view, rng, shuffle, reseed),
                             checkpoints=False)
        except Exception:  # a re-deal the rules cannot follow is just a bad sample
            continue
        if (_seen(definition, fork.view, seat), fork.pending) == wanted:
            return fork, how
    return game.fork(checkpoints=False), "exact"
