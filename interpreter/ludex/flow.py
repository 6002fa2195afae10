"""The sequence of play from data: what runs next. A phase is its `start`, its body — its
effect (one part per power with `each`; a step at a time when it asks inside a loop, see
resumable.py) and then, with `window`, an action window for every seat — repeated `rounds`
times or until `until` holds, and its `end`; after the last phase of the sequence the turn
advances, and the game ends after `turns` or when the manifest's `until` holds. An action window
offers the actions whose card filters match and, when the phase's `pass` allows, passing.

The engine (engine.py) runs the units this queues and answers for them; a phase's units are
worked out lazily (an iterator in the engine's queue), so each `until` and each `order` is read
in the state as play reaches it.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from .action_guards import verdict
from .errors import did_you_mean
from .resumable import units
from .runtime import (
    Context,
    Decision,
    GameOver,
    Illegal,
    NeedDecision,
    RuleError,
    Where,
    answer_text,
    looking,
    window_option,
)
from .trials import MAX_SEARCH_RUNS

if TYPE_CHECKING:
    from .engine import Game

MAX_FREE_ACTIONS = 50  # free actions one window may take before it must end
PASS = "pass"


def _unavailable(choice: Any, choices: list[str], may_pass: bool, definition: Any) -> str:
    """Why a window refuses an answer: passing where it may not be passed; an action (with a
    card) the window does not offer now; or a name that is no action at all (a slip: the
    options it may have meant)."""
    shown = answer_text(choice)
    if choice == PASS and not may_pass:
        return f"`{shown}` is not available now (this window may not be passed)"
    _, action, card = window_option(str(choice))
    if action in definition.actions:
        takes_card = "filter" in definition.actions[action]
        if card and not takes_card:
            return f"`{shown}` is no option: `{action}` takes no card"
        if takes_card and not card:
            return f"`{shown}` is no option: `{action}` is taken with a card (`{action}:…`)"
        return f"`{shown}` is not available now"
    return f"`{shown}` is no option of this window{did_you_mean(shown, choices)}"


class Flow:
    """The flow of one game: queues its units on `game.queue`."""

    def __init__(self, game: Game):
        # not a reference of its own: the game holds its flow, and a cycle would keep every
        # finished game (its states, its trials) until the garbage collector ran
        self.game = weakref.proxy(game)
        self.definition = game.definition
        # the zones whose cards a player holds (hands), for actions without `from`
        self.owner_zones = [z for z, spec in self.definition.zones.items()
                            if spec.get("per") == "power" and spec.get("visibility") == "owner"]
        self._actions_by_window: dict[str, list] = {}  # _window_actions, worked out once
        # rules that run on their own, whatever set them off: an error in one is not the
        # card's (run_option)

    def plan_next(self) -> None:
        """Queue the units of the next step of the sequence of play."""
        d, state = self.definition, self.game.state
        flow = state["flow"]
        sequence = d.manifest.get("sequence") or []
        if not sequence:
            state["ended"] = "no_sequence"
            return
        if flow["phase"] >= len(sequence):
            flow["phase"] = 0
        phase_id = sequence[flow["phase"]]
        flow["phase"] += 1
        self.plan_phase(phase_id)

    def plan_phase(self, phase_id: str, from_seat: str | None = None) -> None:
        """Queue a phase; `from_seat`: take it up at that seat's action window of the state's
        current round, its `start` and that round's effect having run (a scenario that `ludex
        dump` wrote of a game stopped at a window)."""
        d, state = self.definition, self.game.state
        spec = d.phase_specs.get(phase_id, {"id": phase_id})
        state["phase"] = phase_id
        resume = None if from_seat is None else (state["round"], from_seat)
        if resume is None:
            state["round"] = 0
            state["log"].append({"key": "phase_start", "args": {"phase": phase_id}})
        if spec.get("written") is False:
            state["log"].append({"key": "phase_not_written", "args": {"phase": phase_id}})
        else:
            self.game.queue.append(self._phase_units(phase_id, spec, resume))
        # The turn ends after everything of its last phase, action windows included.
        if phase_id == (d.manifest.get("sequence") or [None])[-1]:
            self.game.queue.append((f"{phase_id}:next_turn", self.next_turn, None, None))

    def _phase_units(self, phase_id: str, spec: dict, resume: tuple[int, str] | None = None
                     ) -> Iterator[tuple]:
        """The units of one phase, worked out as play reaches them: its `start`, then its body
        (effect, or one part per power, then every seat's action window, then `after_round`)
        once per repetition — `rounds` times, or until `until` holds — then its `end`.
        `resume` (round, seat): from that seat's window of that round on."""
        d = self.definition
        start, end = d.procedures.get(spec.get("start", "")), d.procedures.get(spec.get("end", ""))
        after_round = d.procedures.get(spec.get("after_round", ""))
        if start is not None and resume is None:
            yield (f"{phase_id}:start", lambda ctx, p=start: p(ctx, []), None, None)
        until = d.phase_until.get(phase_id)
        limit = spec.get("rounds", None if until is not None else 1)
        number, from_seat = (0, None) if resume is None else (resume[0] - 1, resume[1])
        while (limit is None or number < limit) and not self.holds(until):
            number += 1
            yield (f"{phase_id}:round{number}", lambda ctx, n=number: ctx.state.update(round=n),
                   None, None)
            if from_seat is None:  # a round taken up at a window has had its effect
                yield from self._effect_units(phase_id, spec)
            windows_done = not spec.get("window") or (yield from self._window_units(
                phase_id, spec, number, until, from_seat))
            if after_round is not None:  # every repetition begun ends with it, even one cut short
                yield (f"{phase_id}:round{number}:after", lambda ctx, p=after_round: p(ctx, []),
                       None, None)
            if not windows_done:
                break
            from_seat = None
        if end is not None:
            yield (f"{phase_id}:end", lambda ctx, p=end: p(ctx, []), None, None)

    def _effect_units(self, phase_id: str, spec: dict) -> Iterator[tuple]:
        """A phase's effect once, or once per power with `each` (each power's part its own
        unit, but those its `skip` leaves out); an effect that asks inside a loop goes a step
        at a time (resumable.py)."""
        effect, each = self.definition.phases.get(phase_id), spec.get("each")
        if effect is None:
            return
        plan = self.definition.phase_plans.get(phase_id)
        skip = self.definition.phase_skip.get(phase_id)
        for power in [None] if each is None else self.order(spec, each):
            if power is not None and self._skips(skip, power):
                continue
            label = phase_id if power is None else f"{phase_id}:{power}"
            if plan is None:
                yield (label, lambda ctx, e=effect: e(ctx), power, None)
                continue
            frame: list = [None] * plan.size
            for step_label, step in units(plan, frame, label):
                yield (step_label, step, power, frame)

    def _window_units(self, phase_id: str, spec: dict, number: int, until: Any,
                      from_seat: str | None = None) -> Iterator[tuple]:
        """Every seat's action window for one repetition (from `from_seat`'s on, in the
        phase's order, but those its `skip` leaves out); returns False when `until` came to
        hold before a seat's window (the phase stops there)."""
        after = self.definition.procedures.get(spec.get("after_window", ""))
        window = self.window(spec["window"], phase_id)
        seats = self.order(spec, "seat")
        if from_seat is not None:
            if from_seat not in seats:
                raise RuleError("rules/no-seat", f"`{from_seat}` has no seat in this game: "
                                "no window of its to take the phase up at",
                                Where("<engine>", 1, 1, phase_id))
            seats = seats[seats.index(from_seat):]
        skip = self.definition.phase_skip.get(phase_id)
        for seat_power in seats:
            if self.holds(until):
                return False
            if seat_power != from_seat and self._skips(skip, seat_power):
                continue  # (a window taken up at its seat was open already: it goes on)
            label = f"{phase_id}:round{number}:{seat_power}"
            if self.game.step_windows:
                yield from self._window_steps(label, spec["window"], phase_id, seat_power)
            else:
                yield (label, window, seat_power, None)
            if after is not None:
                yield (f"{label}:after", lambda ctx, a=after: a(ctx, [ctx.me]), seat_power, None)
        return True

    def _window_steps(self, label: str, window: str, phase_id: str, power: str
                      ) -> Iterator[tuple]:
        """One seat's action window a choice at a time: each choice and the action it picks
        is a unit of its own, so a decision replays the answers of its own action only, not
        every action taken earlier in the window. The frame's one slot says the window has
        closed (a pass, an action that is not free, nothing left to do)."""
        step = self.window_step(window, phase_id)
        frame: list = [False]
        for number in range(MAX_FREE_ACTIONS):
            yield (f"{label}:{number + 1}", step, power, frame)
            if frame[0]:
                return

    def holds(self, condition: Any) -> bool:
        """A phase's or the game's `until`, read in the state as it stands between units."""
        if condition is None:
            return False
        state = self.game.state
        return bool(condition(looking(self.definition, state, me=state["active"])))

    def _skips(self, condition: Any, power: str) -> bool:
        """A phase's `skip` for `power` (its `me`), read in the state as play reaches that
        power's part or window."""
        if condition is None:
            return False
        return bool(condition(looking(self.definition, self.game.state, me=power)))

    def next_turn(self, ctx: Context) -> None:
        """After the last phase of the sequence: advance the turn marker, or end the game
        after its last turn."""
        state, manifest = ctx.state, self.definition.manifest
        limit = manifest.get("turns")
        if limit and state["turn"] >= limit:
            reason = "last_turn"
        elif self._holds_in(ctx, self.definition.until):
            reason = manifest.get("until_reason") or "last_turn"
        else:
            reason = None
        if reason is not None:
            state["ended"] = reason
            raise GameOver(reason)
        state["turn"] += 1
        ctx.touch("log")
        state["log"].append({"key": "turn_start", "args": {"turn": state["turn"]}})

    def _holds_in(self, ctx: Context, condition: Any) -> bool:
        if condition is None:
            return False
        return bool(condition(looking(self.definition, ctx.state, me=ctx.me)))

    def order(self, spec: dict, unit: str) -> list[str]:
        state, d = self.game.state, self.definition
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

    def seat_of(self, power: str) -> list[str]:
        for seat in self.game.state["seats"]:
            if power in seat:
                return seat
        return [power]

    def window(self, window: str, phase_id: str | None = None) -> Callable[[Context], Any]:
        """An action window as one unit: the seat's player picks actions until a non-free
        one, or passes (when the phase's `pass` allows it at that moment)."""
        step = self.window_step(window, phase_id)

        def run(ctx: Context) -> None:
            frame = [False]
            for _ in range(MAX_FREE_ACTIONS):
                step(ctx, frame)
                if frame[0]:
                    return
        return run

    def window_step(self, window: str, phase_id: str | None = None
                    ) -> Callable[[Context, list], Any]:
        """One choice of an action window and the action it picks; sets `frame[0]` when the
        window closes with it."""
        rule = self.definition.phase_pass.get(phase_id, True)
        # the phase that opens the window: where its questions and refusals are placed
        where = Where(*self.definition.window_sources.get(window, ("<engine>", 1, 1)), window)

        def options_at(ctx: Context, known: bool) -> tuple[bool, list[str]]:
            """Whether the seat may pass here, and the actions it is offered (kept for the
            unit's replays when `known`: the answers before this question are given ones)."""
            seat = self.seat_of(ctx.me)
            unit = self.game.unit
            may_pass = rule if rule.__class__ is bool else bool(
                rule(looking(self.definition, ctx.state, me=ctx.me, only_reads=rule.only_reads)))
            options = unit.options.get(ctx.used) if known else None
            if options is None:
                options = self.action_options(ctx, window, seat)
                if options and not may_pass and not self._some_option_may_be_taken(ctx, options):
                    options = []  # every one breaks a rule: as good as none offered
                if known:
                    unit.options[ctx.used] = options
            return may_pass, options

        def step(ctx: Context, frame: list) -> None:
            # the seat whose window it is is the active player until the next window opens
            # (its after-window step included): `active` is "whose turn it is"
            ctx.state["active"] = ctx.me
            unit = self.game.unit
            opened = unit.opened if ctx.used == 0 else None
            if opened is not None:  # the engine opened it (`open`): its choice is known
                decision, may_pass, options = opened
                choice = ctx.ask(decision, where)
            else:
                may_pass, options = options_at(
                    ctx, self.game.memo_options and ctx.used <= len(unit.answers))
                if not may_pass and not options:  # nothing to do and no passing: it closes
                    ctx.touch("log")
                    ctx.state["log"].append({"key": "no_action",
                                             "args": {"power": ctx.me, "window": window}})
                    frame[0] = True
                    return
                choices = [*options, PASS] if may_pass else list(options)
                unit.window_at = ctx.used  # the unit's question here is the window's choice
                choice = ctx.ask(Decision(ctx.me, window, choices, rule=ctx.asker(where)), where)
            if choice == PASS and may_pass:
                frame[0] = True
                return
            if choice not in options:
                raise Illegal("rules/illegal-action", _unavailable(
                    choice, [*options, PASS] if may_pass else options, may_pass,
                    self.definition), where)
            ctx.window_ends = False
            action = self.run_option(ctx, choice)
            if not action.get("free") or ctx.window_ends:  # `end_window()` ends it too
                frame[0] = True

        def open_step(ctx: Context) -> dict | None:
            """The step's choice asked without a run (`Game.advance`): the state at the
            question (the start with its `active` set) and the decision, kept on the unit for
            its runs; None when the window closes at once (nothing to do, no passing), which a
            run carries out. Asking is the step's first act and it writes nothing before, so
            the run it saves would come to the same question on the same state."""
            unit = self.game.unit
            ctx.state = {**ctx.state, "active": ctx.me}
            may_pass, options = options_at(ctx, self.game.memo_options)
            if not may_pass and not options:
                return None
            choices = [*options, PASS] if may_pass else list(options)
            decision = Decision(ctx.me, window, choices, rule=ctx.asker(where))
            decision.where = where
            unit.window_at = 0
            unit.opened = (decision, may_pass, options)
            return ctx.state

        step.open = open_step
        return step

    def action_options(self, ctx: Context, window: str, seat: list[str]) -> list[str]:
        """`action` or `action:card` (with `power@` first when the seat holds several powers),
        for every action of the window whose card filter matches."""
        options = []
        state, hoist = ctx.state, self.game.hoist_filters
        for action_id, check, zones in self._window_actions(window):
            for power in seat:
                prefix = f"{power}@" if len(seat) > 1 else ""
                if check is None:  # an action that takes no card
                    options.append(f"{prefix}{action_id}")
                    continue
                cards = self._cards_in(state, power, seat, zones)
                if check.always:
                    options += [f"{prefix}{action_id}:{card}" for card in cards]
                    continue
                probe = looking(self.definition, state, me=power, only_reads=check.only_reads)
                if hoist:
                    probe.memo = {}  # card-free parts of the filter: once for all cards
                # one frame for every card: a filter binds nothing that outlives its test
                test, frame = check.run, [None] * check.size
                for card in cards:
                    probe.steps = 0  # each card's test has the whole step budget
                    frame[0] = card
                    if test(probe, frame):
                        options.append(f"{prefix}{action_id}:{card}")
        return options

    def offers(self, ctx: Context, action_id: str, card: str | None, power: str) -> bool:
        """Whether an action window would offer `power` this action with this card (or with
        none): the card lies where the action takes its cards from and its card filter holds.
        A scenario that runs an action by itself is held to the same."""
        window = self.definition.actions[action_id].get("window")
        wanted = f"{action_id}:{card}" if card else action_id
        return wanted in self.action_options(ctx, window, [power])

    def _some_option_may_be_taken(self, ctx: Context, options: list[str]) -> bool:
        """Whether a seat that may not pass has some option it can take, or every one breaks
        a rule (then the window closes as if it offered none). A quiet action, or one whose
        guard holds, can be taken without a run; any other is run on a copy of the state, and
        its questions searched depth-first, first options first, as the engine searches for a
        way on (trials.py): it can be taken when some answers complete it. What the search
        cannot settle — a question of several options at once, or more runs than its bound —
        counts as takeable: the window stays open rather than close on a guess."""
        budget = [MAX_SEARCH_RUNS]
        for option in options:
            known = verdict(self.definition, option, ctx.state, ctx.me, self.game.guard_windows)
            if known is True or (known is None and self._completes(ctx, option, budget)):
                return True
        return False

    def _completes(self, ctx: Context, option: str, budget: list[int]) -> bool:
        """Whether some answers take `option` through without a broken rule (True too when
        the search cannot tell)."""
        stack: list[list] = [[]]  # the answers to try it with, first options first
        while stack:
            if budget[0] <= 0:
                return True
            budget[0] -= 1
            answers = stack.pop()
            probe = self.game._context(ctx.state, ctx.me, answers)
            probe.isolate()  # the probe's changes stay on its copy
            try:
                self.run_option(probe, option)
            except Illegal:
                continue
            except RuleError:  # a content error: the player's own run of it will report it
                return True
            except NeedDecision as need:
                if need.decision.mode != "one":
                    return True  # several at once: not searched (nor is it by the engine)
                stack.extend([*answers, o] for o in reversed(need.decision.options))
                continue
            except GameOver:
                pass
            return True
        return False

    def _window_actions(self, window: str) -> list[tuple[str, Any, list | None]]:
        """The actions a window offers, worked out once: (id, card filter or None for an
        action that takes no card, the zones its cards come from: (zone, kept per power?), or
        None for the player's hands)."""
        found = self._actions_by_window.get(window)
        if found is None:
            found = self._actions_by_window[window] = []
            for action_id, action in self.definition.actions.items():
                if action.get("window", window) != window or action.get("run") is None:
                    continue
                if "filter" in action and action["filter"] is None:
                    continue  # its filter did not compile (reported at load)
                wanted = action.get("from")
                zones = None if wanted is None else [
                    (zone_id, spec.get("per") == "power")
                    for zone_id, spec in self.definition.zones.items() if zone_id in wanted]
                found.append((action_id, action.get("filter"), zones))
        return found

    def _cards_in(self, state: dict, power: str, seat: list[str], zones: list | None
                  ) -> list[str]:
        """Cards in the given zones (the power's own, for per-power zones); for None, the
        cards the seat's player holds in zones only their owner sees (hands)."""
        cards: list[str] = []
        piles = state["zones"]
        if zones is None:
            for zone_id in self.owner_zones:
                for holder in seat:
                    cards += piles[zone_id].get(holder, ())
            return cards
        for zone_id, per_power in zones:
            cards += piles[zone_id].get(power if per_power else "", ())
        return cards

    def run_option(self, ctx: Context, choice: str) -> dict:
        power, action_id, card = window_option(choice)
        action = self.definition.actions[action_id]
        saved, running, window = ctx.me, ctx.running, ctx.window
        ctx.me = power or ctx.me
        ctx.running = action_id  # what its questions are asked by
        ctx.window = action.get("window") or action_id  # what `end_window()` ends
        try:
            action["run"](ctx, [card] if card else [])
        except Illegal:
            raise
        except RuleError as exc:  # a content error: which card it met is half the story
            # (unless a trigger's effect or test broke: the card only set it off)
            if not card or f"`{card}`" in exc.text or exc.in_trigger:
                raise
            raise RuleError(exc.code, f"{exc.text}, with card `{card}`", exc.where) \
                from None
        finally:
            ctx.me, ctx.running, ctx.window = saved, running, window
        return action
