"""Write a game's current state as a scenario starting state, so that a situation seen in play
becomes a test in one step (`ludex dump`)."""

from __future__ import annotations

import copy
import textwrap
from typing import Any

import yaml

from .engine import Game
from .scenario import settled_owner


def scenario_from(game: Game, name: str = "dumped state", rules: list[str] | None = None
                  ) -> dict[str, Any]:
    """The game's current state as a scenario. Without `rules`, the clause list holds a
    placeholder that `ludex validate` flags until a real clause id is written there."""
    state, d = standing(game), game.definition
    counters = {}
    for counter, values in state["counters"].items():
        counters[counter] = dict(values) if isinstance(values, dict) else values
    spaces = {}
    for sid in d.space_ids:
        block = {k: v for k, v in state["spaces"][sid]["markers"].items()}
        block["pieces"] = {p: dict(k) for p, k in state["spaces"][sid]["pieces"].items() if k}
        spaces[sid] = block
    zones: dict[str, Any] = {}
    for zone, holders in state["zones"].items():
        if list(holders) == [""]:
            zones[zone] = list(holders[""])
        else:
            zones[zone] = {p: list(cards) for p, cards in holders.items()}
    cards = _cards(d, state, _after_set_up(game))
    settings = dict(state["settings"])
    scenario = {
        "game": d.game_id,
        "name": name,
        "rules": list(rules) if rules else ["NAME-THE-CLAUSE"],
        "settings": settings,
        "seed": state["seed"],
        "state": {"turn": state["turn"], "round": state["round"], "phase": state["phase"],
                  "active": state["active"], "counters": counters,
                  "flags": dict(state["flags"]), "spaces": spaces, "zones": zones},
        "run": taken_up(game)[0],
        "expect": [],
    }
    given = answers_given(game)
    if given:  # the action under way, taken again up to the question it stood at
        scenario["decisions"] = [{"choose": answer} for answer in given]
        scenario["expect"] = scenario.pop("expect")  # after the decisions, as written by hand
    if cards:
        scenario["state"]["cards"] = cards
    if state.get("memory"):
        scenario["state"]["memory"] = copy.deepcopy(state["memory"])
    # where the generator stood, so that the scenario's shuffles and dice are the game's
    scenario["state"]["rng"] = Quoted(f"{state['rng']:016x}")  # 64 bits: past a number
    if state.get("dice"):  # a scenario's dice not rolled yet: they come before the generator
        scenario["state"]["dice"] = list(state["dice"])
    if scenario["state"]["phase"] is None:
        del scenario["state"]["phase"]
    return scenario


class Quoted(str):
    """A text `dump_yaml` always writes in double quotes. An rng's 16 hexadecimal digits may
    be all digits (`0000000012345678`) or digits around one `e` (`12345678e1234567`): PyYAML
    writes those plain, as texts by its YAML 1.1 reading, and a YAML 1.2 reader (ours
    among them, which refuses the ambiguity) takes them for numbers."""


class _Dumper(yaml.SafeDumper):
    """PyYAML's safe dumper, with `Quoted` texts written in double quotes."""


_Dumper.add_representer(
    Quoted, lambda dumper, text: dumper.represent_scalar("tag:yaml.org,2002:str", str(text),
                                                         style='"'))


def standing(game: Game) -> dict:
    """The state a dump writes: the game's as it stands, but for a question asked part-way
    through a unit (an action under way, a phase effect's step, an after-window step) the
    state the unit started from. A unit's changes hold only once it completes (an answer
    refused or undone goes back there), and a scenario cannot start half-way through one:
    the state as the question sees it would have the unit's first half done, to be done
    again by the scenario's run (a card discarded twice, a die rolled with the generator
    moved on)."""
    unit = game.unit
    if game.pending is None or unit is None or not unit.answers:
        return game.view
    return unit.start


def answers_given(game: Game) -> list:
    """The answers a dumped scenario gives to take the game up where it stood inside an
    action taken at a seat's window: the choice of action and the action's answers so far
    (the window's unit is the choice and its action: `run` takes it up at the seat's window).
    Empty anywhere else."""
    unit = game.unit
    if game.pending is None or unit is None or not unit.answers or unit.window_at != 0 \
            or not game.step_windows or game.at_window_choice():
        return []
    return list(unit.answers)


def _after_set_up(game: Game) -> dict[str, dict]:
    """Each card as the standard set-up leaves it (a dumped scenario starts there): tokens or
    an `under` list emptied since must be written, or the set-up's would come back."""
    fresh = Game(game.definition, None, players=game.state["settings"]["players"],
                 settings={k: v for k, v in game.state["settings"].items() if k != "players"},
                 seed=game.state["seed"], autostart=False)
    return fresh.state["cards"]


def taken_up(game: Game) -> tuple[dict[str, Any], str | None]:
    """What a dumped scenario runs to go on as the game did, and, when no `run` can take the
    game up where it stood (inside a phase's effect, an action, an after-window step), why:
    then it runs the phase from its start on the dumped state."""
    phase = game.view["phase"]
    if not phase:
        return {"turns": 1}, None
    if game.pending is None or game.unit is None:
        return {"phase": phase}, None
    # a seat's window, its earlier seats done, or an action under way in it (its answers so
    # far are the scenario's first decisions: answers_given): go on from the window
    if game.at_window_choice() or answers_given(game):
        spec = game.definition.phase_specs.get(phase, {})
        if not isinstance(spec.get("order"), dict):
            return {"phase": phase, "seat": game.pending.who}, None
        # seats ordered by the state: the order the round began with may differ from the
        # dumped state's, and the seats still to play with it
        return {"phase": phase, "seat": game.pending.who}, (
            f"phase `{phase}` orders its seats by the state: taken up at "
            f"{game.pending.who}'s window, the round goes on in the order the dumped state "
            "gives, which may differ from the order it began with; check the seats asked")
    return {"phase": phase}, (
        f"the game stood inside `{game.unit.label}` ({game.pending.prompt}), where no "
        f"scenario can take it up: the state is the one `{game.unit.label}` began from, and "
        f"`run` plays phase `{phase}` from its start on it; make `run` what the test needs")


def _cards(d, state: dict, set_up: dict[str, dict]) -> dict[str, dict]:
    """What the zones do not say of each card: the tokens on it, the cards under it, and its
    owner where the scenario would settle another (scenario.settled_owner). `set_up`: each
    card as the standard set-up leaves it."""
    cards: dict[str, dict] = {}
    for card, info in state["cards"].items():
        block: dict[str, Any] = {}
        # against what the scenario's standard set-up leaves on and under the card before its
        # state applies, so that one emptied since is written too
        fresh = set_up.get(card) or {"tokens": {}, "under": []}
        tokens = {k: v for k, v in info["tokens"].items() if v}
        if tokens != {k: v for k, v in fresh["tokens"].items() if v}:
            block["tokens"] = tokens
        if info["under"] != fresh["under"]:
            block["under"] = list(info["under"])
        zone, holder = info["zone"]
        if zone is not None or info["below"] is not None:  # out of play: it has no say
            settled = settled_owner(d, info["card"], zone, holder or "")
            if info["owner"] != settled:
                block["owner"] = info["owner"] or None
        if block:
            cards[card] = block
    return cards


def dump_yaml(scenario: dict, schema: str | None = "../schemas/scenario.schema.json",
              note: str | None = None) -> str:
    """The scenario as YAML, its modeline pointing at `schema` (by default where a scenario
    in its game folder's `scenarios/` finds the game's own schema; None: no modeline, for a
    game without editor schemas), and `note` (taken_up's) as a comment."""
    head = f"# yaml-language-server: $schema={schema}\n" if schema is not None else ""
    head += "# Dumped by `ludex dump`: name the clause in `rules`, then write what must hold.\n"
    if note:
        head += "".join(f"# {line}\n" for line in textwrap.wrap(f"Note: {note}.", 94))
    # no width: PyYAML folds a long plain scalar onto the next line, and a designer grepping
    # or copying the `game:` path of a deep folder (or a long log line) wants it whole
    return head + yaml.dump(scenario, Dumper=_Dumper, allow_unicode=True, sort_keys=False,
                            width=float("inf"))
