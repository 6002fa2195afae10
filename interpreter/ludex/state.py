"""The game state as plain data (dicts, lists, strings, numbers): easy to copy, compare,
serialise and dump as a scenario. `new_state` sets a game up from its definition; `run_atomic`
runs compiled effects so that a failure leaves the state exactly as it was."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

from .errors import Diagnostic, LudexError
from .gamedef import GameDef
from .runtime import Context, GameOver


def player_counts(seats: dict) -> str:
    """The numbers of players a game's `seats` allow, as a sentence writes them: "2 or 3"."""
    counts = sorted(seats, key=int)
    return counts[0] if len(counts) == 1 else f"{', '.join(counts[:-1])} or {counts[-1]}"


_SETTING_TYPES = {"boolean": (bool,), "integer": (int,)}


def check_settings(game: GameDef, settings: dict) -> None:
    """Each setting given is one the game declares, of its declared type: `"false"` (a
    text) would play as true, silently."""
    declared = {s["id"]: s for s in game.manifest.get("settings") or []}
    for key, value in settings.items():
        spec = declared.get(key)
        if spec is None:
            raise LudexError(Diagnostic("<settings>", 1, 1, "rules/unknown-setting",
                                        f"{game.game_id} has no setting `{key}`"
                                        + (f" (it has: {', '.join(declared)})" if declared
                                           else "")))
        kind = spec["type"]
        if not isinstance(value, _SETTING_TYPES[kind]) or (kind == "integer"
                                                          and isinstance(value, bool)):
            wanted = "true or false" if kind == "boolean" else "a whole number"
            raise LudexError(Diagnostic("<settings>", 1, 1, "rules/setting-type",
                                        f"setting `{key}` is {wanted}, not "
                                        f"{json.dumps(value, default=str)}"))


def new_state(game: GameDef, players: int | None = None, settings: dict | None = None,
              seed: int = 0) -> dict:
    manifest = game.manifest
    if players is None:
        players = manifest["players"].get("default", manifest["players"]["min"])
    if str(players) not in manifest["seats"]:
        raise LudexError(Diagnostic("<settings>", 1, 1, "rules/player-count",
                                    f"{game.game_id} is played by "
                                    f"{player_counts(manifest['seats'])} players, not {players}"))
    chosen = {s["id"]: s["default"] for s in manifest.get("settings") or []}
    check_settings(game, settings or {})
    chosen.update(settings or {})
    chosen["players"] = players
    seats = [list(seat) for seat in manifest["seats"][str(players)]]
    state: dict[str, Any] = {
        "game": game.game_id, "settings": chosen, "seats": seats, "seed": seed,
        "rng": seed & ((1 << 64) - 1), "turn": 1, "round": 0, "phase": None,
        "active": seats[0][0], "ended": None, "log": [],
        "counters": {}, "flags": {}, "spaces": {}, "zones": {}, "cards": {},
    }
    for c in manifest.get("counters") or []:
        initial = c.get("initial", 0)
        state["counters"][c["id"]] = ({p: initial for p in game.power_ids}
                                      if c.get("per", "power") == "power" else initial)
    for f in manifest.get("flags") or []:
        state["flags"][f["id"]] = f.get("initial", False)
    if game.memory_types is not None:  # declared memory: every key, with its initial value
        state["memory"] = copy.deepcopy(game.memory_initial)
    for sid in game.space_ids:
        markers = {m: spec.get("initial") for m, spec in game.markers.items()}
        state["spaces"][sid] = {"markers": markers, "pieces": {}}
    for zid, spec in game.zones.items():
        owners = game.power_ids if spec.get("per", "game") == "power" else [""]
        state["zones"][zid] = {p: [] for p in owners}
    return state


def place_start(game: GameDef, state: dict, start: dict[str, dict]) -> None:
    """Apply the map's starting markers and pieces (`start` maps space id -> start block)."""
    for sid, block in start.items():
        state["spaces"][sid]["markers"].update(block.get("markers") or {})
        for power, kinds in (block.get("pieces") or {}).items():
            state["spaces"][sid]["pieces"][power] = dict(kinds)


def deal_cards(game: GameDef, state: dict) -> None:
    """Create every card instance in its starting zone (in definition order), then shuffle
    every zone that hides its order."""
    for card_id, card in game.cards.items():
        for copy_no in range(1, card.get("copies", 1) + 1):
            instance = card_id if card.get("copies", 1) == 1 else f"{card_id}#{copy_no}"
            zone = card.get("zone")
            if zone is None:
                continue
            owner = card.get("owner") or ""
            holder = owner if game.zones[zone].get("per", "game") == "power" else ""
            state["cards"][instance] = {"card": card_id, "owner": owner,
                                        "zone": [zone, holder],
                                        "tokens": dict(card.get("tokens") or {}), "under": [],
                                        "below": None}
            state["zones"][zone][holder].append(instance)
    for zid, spec in game.zones.items():
        if spec.get("visibility") == "hidden":
            for pile in state["zones"][zid].values():
                game.rng_shuffle(state, pile)


def run_atomic(game: GameDef, state: dict, work: Callable[[Context], Any], *,
               me: str | None = None, answers: list | None = None) -> tuple[dict, Any]:
    """Run `work` on a lazy copy of `state`; return (new state, result).

    Any exception (a decision still to ask, an illegal step, an error) propagates and the
    caller's state is untouched. A GameOver is not a failure: the state as it stood at that
    moment is kept, with `ended` set.
    """
    ctx = Context(game, state, me=me, answers=list(answers or []))
    trial = ctx.isolate()
    try:
        result = work(ctx)
    except GameOver:
        result = None
    return trial, result
