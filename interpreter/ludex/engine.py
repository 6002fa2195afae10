"""The generic engine: runs a game's sequence of play from data and stops whenever a player
must decide. In the spirit of OpenSpiel: `pending`, `legal_actions`, `apply`, `is_terminal`,
`scores`.

The flow (phases, rounds, turn order, action windows) is driven here from the phase specs;
everything a phase or action *does* is compiled effect code. Work is cut into units — one phase
effect, one power's turn at a per-power phase, one action window — and each unit runs on a lazy
copy of the state it started from (a section is copied when a verb first writes it), replaying
the answers given so far. A unit that needs a new
answer stops with the question; one that breaks a rule leaves the state untouched; one that
completes is committed. Units are small, so replaying them is cheap, and a saved game is just
its settings, seed and answers.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .gamedef import GameDef
from .resumable import units
from .runtime import (
    Context,
    Decision,
    GameOver,
    Illegal,
    NeedDecision,
    RuleError,
    Where,
)
from .state import deal_cards, new_state, place_start

# LUDEX_CHECK_SHARED=1 (the test suite sets it): after every run, verify that the unit's start
# state is untouched — a verb writing a section it did not touch would fail loudly.
CHECK_SHARED = bool(os.environ.get("LUDEX_CHECK_SHARED"))


def _fingerprint(state: dict) -> str:
    # not marshal: its bytes depend on reference counts, not only on the data
    return json.dumps(state, sort_keys=True, default=repr)


MAX_FREE_ACTIONS = 50  # free actions one window may take before it must end
MAX_SILENT_UNITS = 10_000  # units in a row without a decision before the flow is a runaway
PASS = "pass"


@dataclass
class Unit:
    """A piece of work being run: its start state and the answers given to it so far."""

    label: str
    work: Callable[[Context], Any]
    me: str | None
    start: dict
    answers: list[Any] = field(default_factory=list)
    # a step of a phase effect run a step at a time (resumable.py): the effect's locals as
    # the previous steps left them; each try runs on a copy, kept when the step completes
    frame: list | None = None
    # the options of the action windows it has reached, by how many answers came before: a
    # replay reaches the same state with the same earlier answers, so it need not work them out
    # again (only for questions whose earlier answers are all given: `answers` is their prefix)
    options: dict[int, list[str]] = field(default_factory=dict)


class Game:
    """One game in progress."""

    memo_options = True  # False: work every window's options out on every replay (tests)

    def __init__(self, definition: GameDef, start: dict[str, dict] | None = None,
                 players: int | None = None, settings: dict | None = None, seed: int = 0,
                 autostart: bool = True):
        self.definition = definition
        # looked up on every decision and after every verb: worked out once
        self._state_triggers = [t for t in definition.triggers if t.get("test") is not None]
        self._owner_zones = [z for z, spec in definition.zones.items()
                             if spec.get("per") == "power" and spec.get("visibility") == "owner"]
        state = new_state(definition, players, settings, seed)
        place_start(definition, state, start or {})
        deal_cards(definition, state)
        state["flow"] = {"phase": 0}  # index of the next phase of the sequence
        state["trigger_values"] = {}
        self.state = state
        self.history: list[Any] = []  # every answer given, in order: the decision log
        self.unit: Unit | None = None
        self.pending: Decision | None = None
        self.view: dict = state  # the state as it stands now, mid-unit included
        # what to run next: (label, work, me, frame) entries, or iterators of them (a phase,
        # worked out as play reaches each of its parts)
        self._queue: list[tuple | Iterator[tuple]] = []
        self._frame: list | None = None  # the frame of the last try, kept on commit
        self.stop_when_idle = False  # run only what is queued (scenarios), not the next phase
        self.last_turn: int | None = None  # stop planning once this turn is over
        self._run_setup()
        if autostart:
            self.advance()

    def _run_setup(self) -> None:
        """The manifest's `setup` procedure, once, before play (it may not ask anything)."""
        name = self.definition.manifest.get("setup")
        if not name or name not in self.definition.procedures:
            return
        procedure = self.definition.procedures[name]
        ctx = self._context(self.state, None, [])
        try:
            procedure(ctx, [])
        except NeedDecision:
            raise RuleError("rules/setup-asks", f"setup procedure `{name}` may not ask a "
                            "question", Where("<engine>", 1, 1, name)) from None
        except GameOver:
            pass
        self.view = self.state

    def run(self, label: str, work: Callable[[Context], Any], me: str | None = None) -> None:
        """Run one piece of work (a procedure, an action, an effect) and stop when it is done
        or needs a decision; the sequence of play does not go on by itself afterwards."""
        self._queue.append((label, work, me, None))
        self.stop_when_idle = True
        self.advance()

    def run_phase(self, phase_id: str) -> None:
        """Run one phase of the sequence, then stop."""
        self.stop_when_idle = True
        self._plan_phase(phase_id)
        self.advance()

    # -- the protocol ------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.state["ended"] is not None

    def legal_actions(self) -> list[Any]:
        """The options of the pending decision that lead to no broken rule."""
        if self.pending is None:
            return []
        if self.pending.mode != "one":
            return list(self.pending.options)
        legal = []
        for option in self.pending.options:
            try:
                self._try([*self.unit.answers, option])
            except NeedDecision:
                legal.append(option)
            except Illegal:
                continue
            else:
                legal.append(option)
        return legal

    def apply(self, answer: Any) -> None:
        """Answer the pending decision. A broken rule raises and changes nothing."""
        if self.pending is None:
            raise RuleError("rules/no-decision", "no decision is pending", None)
        answers = [*self.unit.answers, answer]
        try:
            state = self._try(answers)
        except NeedDecision as need:
            self.unit.answers = answers
            self.history.append(answer)
            self.pending, self.view = need.decision, need.state
            return
        self.unit.answers = answers
        self.history.append(answer)
        self._commit(state)
        self.advance()

    def restart_unit(self) -> None:
        """Make the current unit start from `self.state` again (after a test or a scenario
        changed the state by hand at a pending decision)."""
        if self.unit is not None:
            self.unit.start, self.unit.answers = self.state, []
            self.unit.options.clear()
            self.view = self.state

    def scores(self) -> dict[str, int]:
        score = self.definition.score
        powers = [p for seat in self.state["seats"] for p in seat]
        if score is None:
            return {p: 0 for p in powers}
        ctx = Context(self.definition, self.state)
        return {p: score(ctx, [p]) for p in powers}

    def winner(self) -> str | None:
        """The power that won; None for a draw (`set_winner(none)`, or a tie for the best
        score that the game's `tie_break` does not settle or that it has no `tie_break` for).
        """
        if "winner" in self.state:
            return self.state["winner"]
        scores = self.scores()
        if not scores:
            return None
        best = max(scores.values())
        leaders = [p for p in scores if scores[p] == best]
        tie_break = self.definition.tie_break
        if len(leaders) > 1 and tie_break is not None:
            ctx = Context(self.definition, self.state)
            ranks = {p: tie_break(ctx, [p]) for p in leaders}
            leaders = [p for p in leaders if ranks[p] == max(ranks.values())]
        return leaders[0] if len(leaders) == 1 else None

    def is_draw(self) -> bool:
        """The game is over and nobody won."""
        return self.is_terminal() and self.winner() is None

    # -- running -----------------------------------------------------------------------
    def _context(self, state: dict, me: str | None, answers: list[Any]) -> Context:
        ctx = Context(self.definition, state, me=me, answers=list(answers))
        if self._state_triggers:
            ctx.watch = self._watch
        ctx.signal = self._signal
        return ctx

    def _try(self, answers: list[Any]) -> dict:
        """Run the current unit from its start with `answers`; return the resulting state."""
        start = self.unit.start
        before = _fingerprint(start) if CHECK_SHARED else None
        ctx = self._context(start, self.unit.me, answers)
        trial = ctx.isolate()
        frame = None if self.unit.frame is None else list(self.unit.frame)
        try:
            if frame is None:
                self.unit.work(ctx)
            else:
                self.unit.work(ctx, frame)
        except GameOver:
            pass
        except NeedDecision as need:
            need.state = trial  # the state as it stands at the question
            raise
        except RecursionError:  # nesting deeper than Python allows, whatever the cause
            raise RuleError("rules/step-budget", "effects nested too deeply (a rule calls "
                            "itself without end?)",
                            Where("<engine>", 1, 1, self.unit.label)) from None
        finally:
            if CHECK_SHARED and _fingerprint(start) != before:
                raise AssertionError(f"unit {self.unit.label} changed its start state: a "
                                     "verb writes a section it did not touch")
        if ctx.used < len(answers):
            raise Illegal("rules/illegal-choice", "more answers than questions", None)
        self._frame = frame
        return trial

    def _commit(self, state: dict) -> None:
        if self.unit is not None and self.unit.frame is not None:
            self.unit.frame[:] = self._frame  # the locals as this step left them
        self.state = self.view = state
        self.unit = None
        self.pending = None

    def advance(self) -> None:
        """Run the flow until a decision is needed or the game is over."""
        silent = 0
        while not self.is_terminal():
            silent += 1
            if silent > MAX_SILENT_UNITS:
                raise RuleError("rules/step-budget",
                                f"the sequence of play ran {MAX_SILENT_UNITS:,} steps without "
                                "asking anything; does the game ever end?",
                                Where("<engine>", 1, 1, self.state.get("phase") or ""))
            if self.unit is None:
                if not self._queue:
                    if self.stop_when_idle or (self.last_turn is not None
                                               and self.state["turn"] > self.last_turn):
                        return
                    self._plan_next()
                    continue
                entry = self._queue.pop(0)
                if not isinstance(entry, tuple):  # an iterator of units: take its next one
                    following = next(entry, None)
                    if following is not None:
                        self._queue[0:0] = [following, entry]
                    continue
                label, work, me, frame = entry
                self.unit = Unit(label, work, me, self.state, frame=frame)
            try:
                state = self._try(self.unit.answers)
            except NeedDecision as need:
                self.pending, self.view = need.decision, need.state
                return
            self._commit(state)

    # -- the flow from data ------------------------------------------------------------
    def _plan_next(self) -> None:
        """Queue the units of the next step of the sequence of play."""
        d, state = self.definition, self.state
        flow = state["flow"]
        sequence = d.manifest.get("sequence") or []
        if not sequence:
            state["ended"] = "no_sequence"
            return
        if flow["phase"] >= len(sequence):
            flow["phase"] = 0
        phase_id = sequence[flow["phase"]]
        flow["phase"] += 1
        self._plan_phase(phase_id)

    def _plan_phase(self, phase_id: str) -> None:
        d, state = self.definition, self.state
        spec = d.phase_specs.get(phase_id, {"id": phase_id})
        state["phase"] = phase_id
        state["round"] = 0
        state["log"].append({"key": "phase_start", "args": {"phase": phase_id}})
        if spec.get("written") is False:
            state["log"].append({"key": "phase_not_written", "args": {"phase": phase_id}})
        else:
            self._queue.append(self._phase_units(phase_id, spec))
        # The turn ends after everything of its last phase, action windows included.
        if phase_id == (d.manifest.get("sequence") or [None])[-1]:
            self._queue.append((f"{phase_id}:next_turn", self._next_turn, None, None))

    def _phase_units(self, phase_id: str, spec: dict) -> Iterator[tuple]:
        """The units of one phase, worked out as play reaches them: its `start`, then its body
        (effect, or one part per power, then every seat's action window) once per
        repetition — `rounds` times, or until `until` holds — then its `end`."""
        d = self.definition
        start, end = d.procedures.get(spec.get("start", "")), d.procedures.get(spec.get("end", ""))
        if start is not None:
            yield (f"{phase_id}:start", lambda ctx, p=start: p(ctx, []), None, None)
        until = d.phase_until.get(phase_id)
        limit = spec.get("rounds", None if until is not None else 1)
        number = 0
        while (limit is None or number < limit) and not self._holds(until):
            number += 1
            yield (f"{phase_id}:round{number}", lambda ctx, n=number: ctx.state.update(round=n),
                   None, None)
            yield from self._effect_units(phase_id, spec)
            if spec.get("window") and not (yield from self._window_units(phase_id, spec,
                                                                         number, until)):
                break
        if end is not None:
            yield (f"{phase_id}:end", lambda ctx, p=end: p(ctx, []), None, None)

    def _effect_units(self, phase_id: str, spec: dict) -> Iterator[tuple]:
        """A phase's effect once, or once per power with `each` (each power's part its own
        unit); an effect that asks inside a loop goes a step at a time (resumable.py)."""
        effect, each = self.definition.phases.get(phase_id), spec.get("each")
        if effect is None:
            return
        plan = self.definition.phase_plans.get(phase_id)
        for power in [None] if each is None else self._order(spec, each):
            label = phase_id if power is None else f"{phase_id}:{power}"
            if plan is None:
                yield (label, lambda ctx, e=effect: e(ctx), power, None)
                continue
            frame: list = [None] * plan.size
            for step_label, step in units(plan, frame, label):
                yield (step_label, step, power, frame)

    def _window_units(self, phase_id: str, spec: dict, number: int, until: Any
                      ) -> Iterator[tuple]:
        """Every seat's action window for one repetition; returns False when `until` came
        to hold before a seat's window (the phase stops there)."""
        after = self.definition.procedures.get(spec.get("after_window", ""))
        window = self._window(spec["window"], phase_id)
        for seat_power in self._order(spec, "seat"):
            if self._holds(until):
                return False
            yield (f"{phase_id}:round{number}:{seat_power}", window, seat_power, None)
            if after is not None:
                yield (f"{phase_id}:round{number}:{seat_power}:after",
                       lambda ctx, a=after: a(ctx, [ctx.me]), seat_power, None)
        return True

    def _holds(self, condition: Any) -> bool:
        """A phase's or the game's `until`, read in the state as it stands between units."""
        if condition is None:
            return False
        return bool(condition(Context(self.definition, self.state, me=self.state["active"])))

    def _next_turn(self, ctx: Context) -> None:
        """After the last phase of the sequence: advance the turn marker, or end the game
        after its last turn."""
        state, limit = ctx.state, self.definition.manifest.get("turns")
        if (limit and state["turn"] >= limit) or self._holds_in(ctx, self.definition.until):
            state["ended"] = "last_turn"
            raise GameOver("last_turn")
        state["turn"] += 1
        ctx.touch("log")
        state["log"].append({"key": "turn_start", "args": {"turn": state["turn"]}})

    def _holds_in(self, ctx: Context, condition: Any) -> bool:
        if condition is None:
            return False
        return bool(condition(Context(self.definition, ctx.state, me=ctx.me)))

    def _order(self, spec: dict, unit: str) -> list[str]:
        state, d = self.state, self.definition
        if unit == "seat":
            powers = [seat[0] for seat in state["seats"]]
        elif unit == "player_power":
            powers = [p for seat in state["seats"] for p in seat]
        else:
            powers = list(d.power_ids)
        order = spec.get("order", "seats")
        if isinstance(order, dict):
            from .builtins import order_powers

            powers = order_powers(d, state, powers, order["by"], order.get("descending", True),
                                  order.get("nonplayers_first", False))
        return powers

    def _seat_of(self, power: str) -> list[str]:
        for seat in self.state["seats"]:
            if power in seat:
                return seat
        return [power]

    def _window(self, window: str, phase_id: str | None = None) -> Callable[[Context], Any]:
        """An action window: the seat's player picks actions until a non-free one, or passes
        (when the phase's `pass` allows it at that moment)."""
        rule = self.definition.phase_pass.get(phase_id, True)

        def run(ctx: Context) -> None:
            seat = self._seat_of(ctx.me)
            where = Where("<engine>", 1, 1, window)
            unit = self.unit
            for _ in range(MAX_FREE_ACTIONS):
                # the answers before this question are given ones: its options are known
                known = self.memo_options and ctx.used <= len(unit.answers)
                options = unit.options.get(ctx.used) if known else None
                if options is None:
                    options = self._action_options(ctx, window, seat)
                    if known:
                        unit.options[ctx.used] = options
                may_pass = rule if rule.__class__ is bool else bool(
                    rule(Context(self.definition, ctx.state, me=ctx.me)))
                if not may_pass and not options:  # nothing to do and no passing: it closes
                    ctx.touch("log")
                    ctx.state["log"].append({"key": "no_action",
                                             "args": {"power": ctx.me, "window": window}})
                    return
                choices = [*options, PASS] if may_pass else list(options)
                choice = ctx.ask(Decision(ctx.me, window, choices, rule=window), where)
                if choice == PASS and may_pass:
                    return
                if choice not in options:
                    raise Illegal("rules/illegal-action", f"`{choice}` is not available now"
                                  + ("" if may_pass or choice != PASS else
                                     " (this window may not be passed)"), where)
                action = self._run_option(ctx, choice)
                if not action.get("free"):
                    return
        return run

    def _action_options(self, ctx: Context, window: str, seat: list[str]) -> list[str]:
        """`action` or `action:card` (with `power@` first when the seat holds several powers),
        for every action of the window whose card filter matches."""
        options = []
        for action_id, action in self.definition.actions.items():
            if action.get("window", window) != window or action.get("run") is None:
                continue
            for power in seat:
                prefix = f"{power}@" if len(seat) > 1 else ""
                if "filter" not in action:
                    options.append(f"{prefix}{action_id}")
                    continue
                check = action.get("filter")
                if check is None:
                    continue
                probe = Context(self.definition, ctx.state, me=power)
                for card in self._cards_of(ctx.state, power, action.get("from")):
                    probe.steps = 0  # each card's test has the whole step budget
                    if check(probe, [card]):
                        options.append(f"{prefix}{action_id}:{card}")
        return options

    def _cards_of(self, state: dict, power: str, zones: list[str] | None = None) -> list[str]:
        """Cards in the given zones (the power's own, for per-power zones); by default the cards
        the power's player holds in zones only their owner sees (hands)."""
        cards = []
        if zones is None:
            seat = self._seat_of(power)
            for zone_id in self._owner_zones:
                for holder in seat:
                    cards.extend(state["zones"][zone_id].get(holder, []))
            return cards
        for zone_id, spec in self.definition.zones.items():
            if zone_id in zones:
                per_power = spec.get("per") == "power"
                cards.extend(state["zones"][zone_id].get(power if per_power else "", []))
        return cards

    def _run_option(self, ctx: Context, choice: str) -> dict:
        power, _, rest = choice.rpartition("@")
        action_id, _, card = rest.partition(":")
        action = self.definition.actions[action_id]
        saved = ctx.me
        ctx.me = power or ctx.me
        try:
            action["run"](ctx, [card] if card else [])
        finally:
            ctx.me = saved
        return action

    # -- triggers ------------------------------------------------------------------------
    def _watch(self, ctx: Context, where: Where) -> None:
        """After every state change: fire each `when` trigger whose condition just became
        true (a trigger that is already true does not fire again until it has been false)."""
        probe = Context(self.definition, ctx.state, me=ctx.me)
        for trigger in self._state_triggers:
            probe.steps = 0
            now = bool(trigger["test"](probe, []))
            was = ctx.state.get("trigger_values", {}).get(trigger["id"], False)
            if now == was:
                continue
            ctx.touch("trigger_values")
            ctx.state.setdefault("trigger_values", {})[trigger["id"]] = now
            if now and trigger.get("run") is not None:
                ctx.step(where)
                trigger["run"](ctx, [])

    def _signal(self, ctx: Context, event: str, where: Where) -> None:
        for trigger in self.definition.triggers:
            if trigger.get("on_event") == event and trigger.get("run") is not None:
                ctx.step(where)
                trigger["run"](ctx, [])

    # -- saving --------------------------------------------------------------------------
    def save(self) -> dict:
        return {"game": self.definition.game_id, "players": self.state["settings"]["players"],
                "settings": {k: v for k, v in self.state["settings"].items() if k != "players"},
                "seed": self.state["seed"], "decisions": list(self.history)}


def load_definition(game: str | Path, *, fast_paths: bool = True) -> tuple[GameDef, dict]:
    """Load, check and compile a game — a bundled game's id or a game folder's path;
    (definition, starting map). Content errors raise LudexError; an unknown game UnknownGame."""
    from .checks import run_all
    from .content import load_game
    from .errors import Collector, LudexError
    from .folders import discover, find_game
    from .gamedef import build_definition
    from .rootcause import fold, roots
    from .schemas import Validators

    folder = game if isinstance(game, Path) else find_game(game)
    errors = Collector()
    loaded = load_game(discover(folder), errors, Validators())
    if loaded.docs.get("game") is not None:
        run_all(loaded, errors)
    definition = build_definition(loaded, errors, fast_paths)
    if errors:
        raise LudexError(fold(errors.sorted(), roots(loaded)))
    start = {s["id"]: s.get("start") or {} for s in loaded.data("map").get("spaces") or []}
    return definition, start


def replay(definition: GameDef, start: dict, saved: dict) -> Game:
    """Rebuild a saved game by replaying its decisions from the start."""
    game = Game(definition, start, players=saved["players"], settings=saved.get("settings"),
                seed=saved["seed"])
    for answer in saved["decisions"]:
        game.apply(answer)
    return game
