"""The generic engine: runs a game's sequence of play from data and stops whenever a player
must decide. In the spirit of OpenSpiel: `pending`, `legal_actions`, `apply`, `is_terminal`,
`scores`.

What runs next (phases, rounds, turn order, action windows) is worked out from the phase specs
by flow.py; everything a phase or action *does* is compiled effect code. Work is cut into units
— one phase effect (or one step of it, resumable.py), one power's part of a per-power phase, one
choice of an action window and the action it picks — and each unit runs on a lazy copy of the
state it started from (a section is copied when a verb first writes it), replaying the answers
given so far. A unit that needs a new answer stops with the question; one that breaks a rule
leaves the state untouched; one that completes is committed. Units are small, so replaying them
is cheap, and a saved game is just its settings, seed and answers. What a run with some answers
came to is kept while the unit is pending (trials.py): the option `legal_actions()` tried is not
run again by `apply()`, and options that lead into a dead end are neither offered nor taken.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .action_guards import verdict
from .dead_ends import DeadEnds
from .errors import Diagnostic
from .flow import Flow
from .gamedef import GameDef
from .runtime import (
    Context,
    Decision,
    GameOver,
    Illegal,
    NeedDecision,
    RuleError,
    Said,
    Where,
    copy_data,
    looking,
)
from .state import deal_cards, new_state, place_start
from .trials import Outcome, Trials, run_ahead, search_way_on
from .trigger_inputs import EVERY_WRITE, overlaps, watched_inputs

# LUDEX_CHECK_SHARED=1 (the test suite sets it): after every run, verify that the unit's start
# state is untouched — a verb writing a section it did not touch would fail loudly.
CHECK_SHARED = bool(os.environ.get("LUDEX_CHECK_SHARED"))


def _fingerprint(state: dict) -> bytes:
    # not marshal: its bytes depend on reference counts, not only on the data; pickle's depend
    # on the data and on which objects are the same one, which a run must not change either
    # (and it is five times faster than JSON: the suite checks every run with it)
    return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)


_NONE: frozenset = frozenset()

MAX_SILENT_UNITS = 10_000  # units in a row without a decision before the flow is a runaway
MAX_TRIGGER_CHAIN = 40  # `when` triggers firing inside each other's effects before a runaway


@dataclass(slots=True)
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
    # what each run of the unit with a given list of answers came to (trials.py): a legality
    # test already ran the option the player then picks, and a search for a way on already
    # ran the answers after it
    trials: Trials = field(default_factory=Trials)
    # values worked out before the given answers ran out, for the next replays (replays.py)
    values: dict = field(default_factory=dict)
    # its start state's `when` trigger values are known to hold (Game._settled)
    settled: bool = False
    # a step of an action window (flow.py): how many answers come before the window's choice
    window_at: int | None = None
    # a window step's choice as the engine asked it without a run (`Game._open`): the
    # decision, whether the seat may pass, the actions offered; its runs take it from here
    opened: tuple | None = None


class Game:
    """One game in progress."""

    # Each of these saves work and can be switched off (tests/test_fast_paths.py plays the
    # same games either way):
    memo_options = True  # False: work every window's options out on every replay
    step_windows = True  # False: a whole action window is one unit (flow.py)
    # False: a window step's choice is asked by running the step up to it, not by the engine
    # without a run (`_open`)
    open_windows = True
    reuse_trials = True  # False: every legality test and every answer runs the unit again
    hoist_filters = True  # False: a card filter's card-free parts run again for every card
    replay_values = True  # False: a replay works out again every value before its question
    # False: every `when` trigger is checked after every verb, not only those whose inputs
    # the verb wrote (trigger_inputs.py)
    watch_inputs = True
    # False: an option is offered when it asks a question, even if every answer then breaks
    # a rule (a dead end); True: only options from which the unit can be completed
    search_dead_ends = True
    # False: a fork runs again every unit since the last checkpoint; True: it takes the states
    # this game's units left (kept while the game keeps checkpoints) and runs only the pending
    # unit
    fast_forks = True
    # False: every option of an action window is run to test it; True: an action that cannot
    # refuse is legal without a run (quiet_actions.py)
    quiet_windows = True
    # False: every option of an action window that is not quiet is run to test it; True: one
    # whose opening tests decide its legality is judged by them (action_guards.py)
    guard_windows = True

    def __init__(self, definition: GameDef, start: dict[str, dict] | None = None,
                 players: int | None = None, settings: dict | None = None, seed: int = 0,
                 autostart: bool = True):
        if not definition.play:  # no phase cut into steps, no values kept for replays…
            raise ValueError(f"`{definition.game_id}` was compiled only to be checked, not "
                             "played (GameDef.play): load it with load_definition")
        self.definition = definition
        # looked up on every decision and after every verb: worked out once
        self._state_triggers = [t for t in definition.triggers if t.get("test") is not None]
        # tests that call nothing that writes are probed on the state itself, no lazy copy
        self._tests_only_read = all(getattr(t["test"], "only_reads", False)
                                    for t in self._state_triggers)
        self._watched = watched_inputs(self._state_triggers)
        # whether `state`'s recorded trigger values are known to be the values of the trigger
        # tests in it: true after a unit whose every write a trigger reads was followed by a
        # check (its run ended clean), false at the start, after a state changed by hand
        # (restart_unit, a fork's edit) and whenever that cannot be told. A unit starting from
        # a settled state need not check the triggers before its first such write.
        self._settled = False
        self._settled_run = False  # the last completed run ended clean (`_try`)
        self._firing: list[str] = []  # the `when` triggers whose effects are running (`_fire`)
        state = new_state(definition, players, settings, seed)
        place_start(definition, state, start or {})
        deal_cards(definition, state)
        state["flow"] = {"phase": 0}  # index of the next phase of the sequence
        state["trigger_values"] = {}
        self.state = state
        self.history: list[Any] = []  # every answer given, in order: the decision log
        self.unit: Unit | None = None
        self.pending: Decision | None = None
        self.view = state  # the state as it stands now, mid-unit included
        # what to run next: (label, work, me, frame) entries, or iterators of them (a phase,
        # worked out as play reaches each of its parts)
        self.queue: list[tuple | Iterator[tuple]] = []
        self.flow = Flow(self)  # the sequence of play: what to queue next
        self._frame: list | None = None  # the frame of the last try, kept on commit
        self.stop_when_idle = False  # run only what is queued (scenarios), not the next phase
        self.last_turn: int | None = None  # stop planning once this turn is over
        # what a search for a way on could not settle within its bound (trials.py)
        self.warnings: list[Diagnostic] = []
        # options refused because a later question would have no way on (dead_ends.py)
        self.dead_ends = DeadEnds()
        # (state, answers given) as the sequence of play last planned its next phase: where a
        # fork starts replaying from. The first plan is always kept; later ones only with
        # `checkpoints` (a deep copy per phase is worth it only to a game that is forked often)
        self.checkpoints = False
        self._checkpoint: tuple[dict, int] | None = None
        self._checkpoint_print: bytes | None = None  # its fingerprint, under CHECK_SHARED
        # with checkpoints: (label, state, locals) of every unit committed since the last one;
        # a fork takes them over instead of running those units again (`fork`). None: not
        # kept since the last checkpoint (checkpoints were off when it was taken)
        self._committed: list[tuple[str, dict, list | None]] | None = None
        self._known: list[tuple[str, dict, list | None]] = []  # of them, those not taken yet
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
        # the `when` triggers look at the state the set-up leaves, not after each of its
        # verbs: half-way through, the state is one the rules never stand in (a counter the
        # set-up is about to set still at 0), and a trigger on it ended games before their
        # first decision
        ctx.watched, ctx.dirty = None, False
        try:
            procedure(ctx, [])
            if self._state_triggers:
                self._watch(ctx, Where("<engine>", 1, 1, name))
        except NeedDecision as need:
            raise RuleError("rules/setup-asks", f"setup procedure `{name}` may not ask a "
                            "question", need.decision.where or Where("<engine>", 1, 1, name)
                            ) from None
        except GameOver:
            pass
        self.view = self.state

    def run(self, label: str, work: Callable[[Context], Any], me: str | None = None) -> None:
        """Run one piece of work (a procedure, an action, an effect) and stop when it is done
        or needs a decision; the sequence of play does not go on by itself afterwards."""
        self.queue.append((label, work, me, None))
        self.stop_when_idle = True
        self.advance()

    def run_phase(self, phase_id: str, from_seat: str | None = None) -> None:
        """Run one phase of the sequence, then stop; `from_seat`: take it up at that seat's
        action window of the current round (Flow.plan_phase)."""
        self.stop_when_idle = True
        self._plan_on_own_copy()
        self.flow.plan_phase(phase_id, from_seat)
        self.advance()

    # -- the protocol ------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.state["ended"] is not None

    def legal_actions(self) -> list[Any]:
        """The options of the pending decision that lead to no broken rule and, when the
        decision is part of a unit that asks more, from which the unit can be completed:
        each tried by running the unit with it, but for a window's actions that are known
        without a run — quiet ones, which cannot refuse whatever they ask (quiet_actions.py), and
        those their opening tests decide (action_guards.py)."""
        if self.pending is None:
            return []
        if self.pending.mode != "one":
            return list(self.pending.options)
        given = self.unit.answers
        legal, refused = self._known_options()
        if not (legal or refused):  # options of other questions may be lists or mappings
            return [option for option in self.pending.options
                    if self._leads_on([*given, option])]
        return [option for option in self.pending.options  # window options: names
                if option in legal or (option not in refused
                                       and self._leads_on([*given, option]))]

    def _known_options(self) -> tuple[set[str], set[str]]:
        """The options of a window step's choice that are legal, and those that are not,
        without a run: quiet actions, and actions whose guard decides (action_guards.py)."""
        if not self.at_window_choice():
            return _NONE, _NONE
        legal, refused = set(), set()
        for option in self.pending.options:
            verdict = self._verdict(option)
            if verdict is True:
                legal.add(option)
            elif verdict is not None:
                refused.add(option)
        return legal, refused

    def at_window_choice(self) -> bool:
        """Whether the pending question is a window step's choice of action, the step a unit
        of its own (`step_windows`: after its action the unit is done)."""
        unit = self.unit
        return self.quiet_windows and self.step_windows and unit.window_at == len(unit.answers)

    def _verdict(self, option: str) -> bool | Illegal | None:
        """A window option's legality without a run: True (a quiet action, or one whose
        guard holds), the `Illegal` its guard's broken `require` raises (the one running it
        would raise), or None (it must be run to tell)."""
        return verdict(self.definition, option, self.view, self.pending.who,
                       self.guard_windows)

    def refusal(self, option: Any) -> Illegal | None:
        """Why the rules refuse an option of the pending decision, or None when it is legal:
        the broken `require` (its reason and arguments) that answering it would raise, or a
        dead end (every way on from it breaks a rule). What a player asks at the terminal
        (`?!`) when an option they expected is not offered. Runs what `apply` would run,
        kept like any trial."""
        if self.pending is None:
            return None
        known = self._guard_refusal(option)
        if known is not None:
            return known
        answers = [*self.unit.answers, option]
        outcome = self._outcome(answers)
        if outcome.refused is not None:
            self._note_refusal(option, outcome.refused)
            return outcome.refused
        if outcome.decision is not None and self.search_dead_ends \
                and outcome.decision.mode == "one" and not search_way_on(self, answers):
            return self._dead_end(option, outcome.decision)
        return None

    def _guard_refusal(self, option: Any) -> Illegal | None:
        """The refusal a window option's guard gives without a run (the `Illegal` the run
        would raise: action_guards.py), else None (legal, or only a run can tell)."""
        if not (self.at_window_choice() and option.__class__ is str
                and option in self.pending.options):
            return None
        known = self._verdict(option)
        return None if known is None or known is True else known.with_traceback(None)

    def _dead_end(self, answer: Any, then: Decision) -> Illegal:
        """The refusal of an answer after which every answer to the next question `then`
        breaks a rule; noted (dead_ends.py), and worded for players with that question."""
        self._note_dead_end(answer, then.prompt)
        return Illegal("rules/dead-end-choice", f"after `{answer}` every answer to "
                       f"{then.prompt} breaks a rule: choose something else",
                       self.pending.where or Where("<engine>", 1, 1, self.unit.label),
                       wording=("refused_dead_end", {
                           "power": then.who, "question": Said(then.prompt, then.prompt_args)}))

    def _note_dead_end(self, option: Any, later: str) -> None:
        self.dead_ends.note(len(self.history), self.pending, option, later,
                            self.unit.window_at == len(self.unit.answers))

    def _note_refusal(self, option: Any, refused: Illegal) -> None:
        self.dead_ends.note_refusal(len(self.history), self.pending, option, refused,
                                    self.unit.window_at == len(self.unit.answers))

    def _leads_on(self, answers: list[Any]) -> bool:
        outcome = self._outcome(answers)
        if outcome.refused is not None:
            self._note_refusal(answers[-1], outcome.refused)
            return False
        if outcome.decision is None or not self.search_dead_ends:
            return True
        if search_way_on(self, answers):
            return True
        if outcome.decision.mode == "one":
            self._note_dead_end(answers[-1], outcome.decision.prompt)
        return False

    def apply(self, answer: Any) -> None:
        """Answer the pending decision. A broken rule raises and changes nothing (`Illegal`),
        and so does an answer after which every way on breaks a rule (`rules/dead-end-choice`);
        a rule broken later, by work that asks nothing, raises `rules/dead-end`."""
        if self.pending is None:
            raise RuleError("rules/no-decision", "no decision is pending", None)
        answers = [*self.unit.answers, answer]
        # players who try options until one is taken (the random agent) meet many an option
        # its guard refuses: refused without a run
        known = self._guard_refusal(answer)
        if known is not None:
            # a copy, as a kept refusal is raised (`again`): raising `known` itself would tie
            # it to this frame, which holds it, a cycle only the collector frees
            raise known.again()
        outcome = self._outcome(answers)
        if outcome.refused is not None:
            self._note_refusal(answer, outcome.refused)
            raise outcome.refused.again()
        if outcome.decision is not None:
            if self.search_dead_ends and outcome.decision.mode == "one" \
                    and not search_way_on(self, answers):
                raise self._dead_end(answer, outcome.decision)
            self.unit.answers = answers
            self.history.append(answer)
            self.pending, self._view = outcome.decision, outcome.state
            return
        self.unit.answers = answers
        self.history.append(answer)
        self._frame = outcome.frame
        self._commit(outcome.state, outcome.settled)
        try:
            self.advance()
        except Illegal as exc:
            # A later unit broke a rule with no answer of its own to refuse (a `require` in the
            # next step of a phase, an `after_window` procedure): the answer is already kept,
            # so this is no refusal but a dead end of the rules, and says so.
            # (its own message: the place and rule are the refusal's, said once)
            raise RuleError("rules/dead-end", f"after `{answer}` was kept, the rules reached a "
                            f"dead end: {exc.said}", exc.where) from None

    def _outcome(self, answers: list[Any]) -> Outcome:
        """What running the current unit with `answers` comes to: completed, a question, or
        a broken rule (any other error propagates). Remembered for the pending unit."""
        trials = self.unit.trials
        known = trials.get(answers) if self.reuse_trials else None
        if known is not None:
            return known
        if self.search_dead_ends:  # the same run also looks for a way on (trials.py)
            return run_ahead(self, answers, self.reuse_trials)
        try:
            state = self._try(answers)
            outcome = Outcome(state, frame=self._frame, settled=self._settled_run)
        except NeedDecision as need:
            outcome = Outcome(need.state, decision=need.decision)
        except Illegal as exc:
            outcome = Outcome(None, refused=exc.with_traceback(None))
        if self.reuse_trials:
            trials.keep(answers, outcome)
        return outcome

    def state_after(self, answer: Any) -> dict | None:
        """The state the pending unit comes to with `answer` given — at its next question, or
        completed — without answering: what an agent weighs an answer by; None when the
        answer is refused. The run is kept like any trial, so answering it next costs no run."""
        answers = [*self.unit.answers, answer]
        outcome = self._outcome(answers)
        if outcome.refused is not None:
            return None
        if outcome.state is not None:
            return outcome.state
        try:  # a question the run went past (trials.py): its state worked out now
            return self._try(answers)
        except NeedDecision as need:
            return need.state

    @property
    def view(self) -> dict:
        """The state as it stands now, mid-unit included."""
        if self._view is None:  # at a question a run went past (trials.py): worked out now
            try:
                self._try(self.unit.answers)
            except NeedDecision as need:
                self._view = need.state
        return self._view

    @view.setter
    def view(self, state: dict | None) -> None:
        self._view = state

    def restart_unit(self) -> None:
        """Make the current unit start from `self.state` again (after a test or a scenario
        changed the state by hand at a pending decision)."""
        self._settled = False  # changed by hand: its trigger values are not known to hold
        if self.unit is not None:
            self.unit.start, self.unit.answers, self.unit.settled = self.state, [], False
            self.unit.options.clear()
            self.unit.opened = None
            self.unit.trials = Trials()
            self.unit.values.clear()
            self.view = self.state

    def scores(self) -> dict[str, int]:
        score = self.definition.score
        powers = [p for seat in self.state["seats"] for p in seat]
        if score is None:
            return {p: 0 for p in powers}
        ctx = looking(self.definition, self.state)
        return {p: score(ctx, [p]) for p in powers}

    def winner(self) -> str | None:
        """The power that won; None for a draw (`set_winner(none)`, or a tie for the best
        score that the game's `tie_break` does not settle or that it has no `tie_break` for)
        and for a win shared by several powers (`winners`)."""
        winners = self.winners()
        return winners[0] if len(winners) == 1 else None

    def winners(self) -> list[str]:
        """The powers that won: one, several for a shared win (`set_winners`, a cooperative
        game), none for a draw."""
        if "winner" in self.state:
            named = self.state["winner"]
            return [] if named is None else list(named) if isinstance(named, list) else [named]
        leaders = self.leaders()
        return leaders[:1] if len(leaders) == 1 else []

    def leaders(self) -> list[str]:
        """The powers with the best score, after the game's `tie_break` (several: a tie it
        does not settle, a draw); none when the rules named the winner (`set_winner`)."""
        if "winner" in self.state:
            return []
        scores = self.scores()
        if not scores:
            return []
        best = max(scores.values())
        leaders = [p for p in scores if scores[p] == best]
        tie_break = self.definition.tie_break
        if len(leaders) > 1 and tie_break is not None:
            ctx = looking(self.definition, self.state)
            ranks = {p: tie_break(ctx, [p]) for p in leaders}
            leaders = [p for p in leaders if ranks[p] == max(ranks.values())]
        return leaders

    def is_draw(self) -> bool:
        """The game is over and nobody won — in a game of powers against each other: in a
        cooperative game that is a loss for all (`lost_together`)."""
        return self.is_terminal() and not self.winners() and not self.cooperative

    def lost_together(self) -> bool:
        """A cooperative game (the manifest's `cooperative`) over with no power a winner
        (`set_winners([])`): every player lost, together."""
        return self.is_terminal() and not self.winners() and self.cooperative

    @property
    def cooperative(self) -> bool:
        return bool(self.definition.manifest.get("cooperative"))

    # -- running -----------------------------------------------------------------------
    def _context(self, state: dict, me: str | None, answers: list[Any], settled: bool = False
                 ) -> Context:
        ctx = Context(self.definition, state, me=me, answers=list(answers))
        if self._state_triggers:
            ctx.watched = self._watched if self.watch_inputs else EVERY_WRITE
            # a trigger reading what no verb reports (`turn`, `active`…) is checked at once
            ctx.watch, ctx.dirty = self._watch, not settled or ctx.watched is EVERY_WRITE
        ctx.signal = self._signal
        return ctx

    def _try(self, answers: list[Any], auto: list | None = None, auto_limit: int = 0) -> dict:
        """Run the current unit from its start with `answers`; return the resulting state.
        With `auto`, questions past the answers take their first option (trials.py)."""
        start = self.unit.start
        before = _fingerprint(start) if CHECK_SHARED else None
        ctx = self._context(start, self.unit.me, answers, self.unit.settled)
        ctx.auto, ctx.auto_limit = auto, auto_limit
        if self.replay_values:
            ctx.replayed, ctx.known, ctx.seen = self.unit.values, len(self.unit.answers), {}
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
        self._settled_run = not ctx.dirty
        return trial

    def _commit(self, state: dict, settled: bool = False) -> None:
        if self.unit is not None:
            self._keep_committed(state)
        if self.unit is not None and self.unit.frame is not None:
            self.unit.frame[:] = self._frame  # the locals as this step left them
        self.state = self._view = state
        self._settled = settled
        self.unit = None
        self.pending = None

    def _keep_committed(self, state: dict) -> None:
        """Note a unit's resulting state for forks (committed states are never changed in
        place: later units run on lazy copies, and planning works on its own copy)."""
        if self._committed is not None:
            frame = None if self._frame is None else list(self._frame)
            self._committed.append((self.unit.label, state, frame))

    def _take_known(self) -> None:
        """Commit the pending unit with the state the forked game's same unit left."""
        label, state, frame = self._known.pop(0)
        if label != self.unit.label:  # the sequence of play is deterministic: cannot happen
            raise AssertionError(f"fork: unit {self.unit.label} where {label} was run")
        self._frame = frame
        self._commit(state)

    def advance(self) -> None:
        """Run the flow until a decision is needed or the game is over."""
        silent = 0
        while not self.is_terminal():
            if self.unit is None:
                if not self.queue:
                    if self.stop_when_idle or (self.last_turn is not None
                                               and self.state["turn"] > self.last_turn):
                        return
                    silent = self._count_silent(silent)
                    if self.checkpoints or self._checkpoint is None:
                        # kept as it is, not copied: a committed state never changes in
                        # place (units run on lazy copies, planning on a copy of its own), and
                        # the deep copy was a tenth of a short game (checked under
                        # LUDEX_CHECK_SHARED, at every fork)
                        self._checkpoint = (self.state, len(self.history))
                        if CHECK_SHARED:
                            self._checkpoint_print = _fingerprint(self.state)
                        self._committed = [] if self.checkpoints else None
                    self._plan_on_own_copy()
                    self.flow.plan_next()
                    continue
                entry = self.queue.pop(0)
                if not isinstance(entry, tuple):  # an iterator of units: take its next one
                    following = next(entry, None)
                    if following is not None:
                        self.queue[0:0] = [following, entry]
                    continue
                label, work, me, frame = entry
                self.unit = Unit(label, work, me, self.state, frame=frame, settled=self._settled)
                if self._known:  # a fork, at a unit its game already ran
                    self._take_known()
                    continue
                if frame is None:  # a step of a phase effect is bounded by its loop's bound
                    silent = self._count_silent(silent)
            if self._open():
                return
            try:
                state = self._try(self.unit.answers)
            except NeedDecision as need:
                self.pending, self._view = need.decision, need.state
                return
            self._commit(state, self._settled_run)

    def _open(self) -> bool:
        """Ask a new unit's first question without running it, when the unit is a window step
        (flow.py: its choice of action is its first act): the run that would stop there costs
        more than the question. False when it cannot (the unit runs as any other)."""
        unit = self.unit
        opener = getattr(unit.work, "open", None)
        if opener is None or not self.open_windows or unit.frame is None:
            return False
        view = opener(self._context(unit.start, unit.me, []))
        if view is None:
            return False
        self.pending, self._view = unit.opened[0], view
        return True

    def _plan_on_own_copy(self) -> None:
        """Planning the next phase writes the state in place (its phase, round, log lines):
        give it a state of its own, so that a committed state another game holds (a fork's)
        never changes."""
        state = self.state
        self.state = self.view = {**state, "log": list(state["log"]),
                                  "flow": dict(state["flow"])}

    def _count_silent(self, silent: int) -> int:
        """One more unit of the flow without a question; too many in a row is a runaway."""
        if silent < MAX_SILENT_UNITS:
            return silent + 1
        phase = self.state.get("phase") or ""
        until = self.definition.phase_until.get(phase)
        where = getattr(until, "where", None)
        if where is not None and not self.flow.holds(until):
            # a phase repeated until a condition that has not come to hold: most likely the cause
            raise RuleError("rules/step-budget",
                            f"phase `{phase}` ran {MAX_SILENT_UNITS:,} steps without asking "
                            "anything: does its `until` ever hold?", where)
        # at the sequence of play: a game that goes round it without end lacks a `turns`, an
        # `until` or an `end_game` there. A phase whose `until` holds ends as soon as it begins
        # (a phase's `until` is the phase's, not the game's): named, as a designer took it for
        # the game's end
        source = self.definition.sequence_source or ("<engine>", 1, 1)
        ended = [p for p in self.definition.manifest.get("sequence") or []
                 if p in self.definition.phase_until
                 and self.flow.holds(self.definition.phase_until[p])]
        why = (f"phase `{ended[0]}`'s `until` holds, so it ends as soon as it begins, and "
               "nothing ends the game (a `turns` limit or an `until` in the manifest, or an "
               "`end_game` in the rules)") if ended else (
            "does the game ever end? (a `turns` limit, an `until` in the manifest, or an "
            "`end_game` in the rules ends it)")
        raise RuleError("rules/step-budget", f"the sequence of play ran {MAX_SILENT_UNITS:,} "
                        f"steps without asking anything: {why}", Where(*source, phase))

    # -- triggers ------------------------------------------------------------------------
    def _check_triggers(self, ctx: Context, where: Where) -> None:
        """After a state change that a trigger reads (after every one in a run in place):
        fire each `when` trigger whose condition just became true (a trigger that is already
        true does not fire again until it has been false)."""
        if ctx.shared is None:  # a run in place touches nothing: it stays dirty, all checked
            written = None
        else:
            written, ctx.written, ctx.dirty = ctx.written, {}, False
        if not self.watch_inputs:
            written = None
        probe = None  # made only when some trigger's inputs changed: most verbs touch none
        fired = []
        # every trigger's value in this state first, then the effects of those that became
        # true, in order: a trigger whose effect ran first (and changed the state again) hid
        # this state from the triggers after it, which then missed becoming false and true
        # again (a designer's trial: two triggers setting each other off stopped silently)
        for trigger in self._state_triggers:
            reads = trigger.get("reads")
            # nothing it reads was written since its last check: its value is the same
            if written is not None and reads is not None and not overlaps(reads, written):
                continue
            if probe is None:
                probe = looking(self.definition, ctx.state, me=ctx.me,
                                only_reads=self._tests_only_read)
            probe.steps = 0
            now = bool(trigger["test"](probe, []))
            was = ctx.state.get("trigger_values", {}).get(trigger["id"], False)
            if now == was:
                continue
            ctx.touch("trigger_values")
            ctx.state.setdefault("trigger_values", {})[trigger["id"]] = now
            if now and trigger.get("run") is not None:
                fired.append(trigger)
        for trigger in fired:
            ctx.step(where)
            self._fire(ctx, trigger)

    def _watch(self, ctx: Context, where: Where) -> None:
        """The triggers checked after a verb (`Context.watch`); an error they meet is marked
        theirs, so that the card whose action set them off is not blamed for it."""
        try:
            self._check_triggers(ctx, where)
        except RuleError as exc:
            exc.in_trigger = True
            raise

    def _fire(self, ctx: Context, trigger: dict) -> None:
        """Run a `when` trigger's effect; one that sets off a chain of triggers that does not
        end (each setting off the next, round and round) is stopped at the trigger, naming the
        chain (it overflowed Python's stack, reported at no place of the game's)."""
        chain = self._firing
        chain.append(trigger["id"])
        try:
            if len(chain) > MAX_TRIGGER_CHAIN:
                where = getattr(trigger["test"], "where", None)
                shown = " → ".join(chain[-6:])
                raise RuleError("rules/step-budget",
                                f"`when` triggers set each other off more than "
                                f"{MAX_TRIGGER_CHAIN} deep without end (… → {shown}): each "
                                "one's effect makes another's condition true again", where)
            trigger["run"](ctx, [])
        finally:
            chain.pop()

    def _signal(self, ctx: Context, event: str, where: Where) -> None:
        for trigger in self.definition.triggers:
            if trigger.get("on_event") == event and trigger.get("run") is not None:
                ctx.step(where)
                try:
                    trigger["run"](ctx, [])
                except RuleError as exc:
                    exc.in_trigger = True
                    raise

    # -- looking ahead -------------------------------------------------------------------
    def fork(self, edit: Callable[[dict], None] | None = None,
             checkpoints: bool = True) -> Game:
        """An independent copy of this game at its pending decision, for agents that look
        ahead: answering it never touches this game. It is rebuilt from the last checkpoint
        (the state as the sequence of play planned its current phase; the game's start when
        this game keeps no checkpoints): a game that keeps checkpoints hands over the states its
        units left since (`fast_forks`), so only the pending unit runs again; otherwise the
        answers given since are replayed. Either way it goes on exactly as this game would. The
        copy keeps `checkpoints` of its own, so forks of it are cheap.

        `edit`, when given, may change a deep copy of the state the pending unit started from
        before the unit's own answers are replayed on it (an agent re-dealing what its player
        cannot see). Answers the edited state refuses raise `Illegal`."""
        if self._checkpoint is None:
            raise RuleError("rules/no-fork", "only a game played by its sequence of play can "
                            "be forked", None)
        base, given = self._checkpoint
        if CHECK_SHARED and self._checkpoint_print is not None \
                and _fingerprint(base) != self._checkpoint_print:
            raise AssertionError("the state kept as a checkpoint changed in place")
        twin = Game.__new__(Game)
        twin.__dict__.update(self.__dict__)
        # the checkpoint is shared, not copied: nothing changes it in place (the twin's units
        # run on lazy copies, its planning on a copy of its own, an edit on a deep copy)
        twin.state = twin.view = base
        twin.history = self.history[:given]
        twin.unit, twin.pending, twin.queue, twin._frame = None, None, [], None
        twin.warnings = []
        twin._firing = []
        twin.flow = Flow(twin)
        twin.checkpoints = checkpoints
        # a twin keeping no checkpoints of its own starts from this game's: its first plan
        # need not copy the state again for forks of it
        twin._checkpoint = None if checkpoints else (base, given)
        twin._settled = False
        own = self.history[len(self.history) - len(self.unit.answers):] if self.unit else []
        fast = self.fast_forks and self._committed is not None
        twin._committed, twin._known = None, list(self._committed) if fast else []
        # answers this game took need no search for a way on: it found one (same games
        # either way, tests/test_fast_paths.py); an edited state's answers get the search
        twin.search_dead_ends = False
        twin.advance()  # a fast fork takes over every known unit here
        if fast:  # and waits at the pending unit's first question
            twin.history = self.history[:len(self.history) - len(own)]
        else:
            for answer in self.history[given:len(self.history) - len(own)]:
                twin.apply(answer)
        if edit is None:
            for answer in own:
                twin.apply(answer)
        twin.search_dead_ends = self.search_dead_ends
        if edit is not None:
            twin._edit_unit_start(edit)
            for answer in own:
                twin.apply(answer)
        return twin

    def _edit_unit_start(self, edit: Callable[[dict], None]) -> None:
        """Change the state the pending unit starts from and run that unit again."""
        edited = copy_data(self.state)
        edit(edited)
        self.state = self.view = edited
        self._settled = False
        self.pending = None
        if self.unit is not None:
            self.restart_unit()  # from the edited state, with no answer and nothing kept
            try:
                state = self._try([])
            except NeedDecision as need:
                self.pending, self.view = need.decision, need.state
                return
            self._commit(state)
        self.advance()

    # -- saving --------------------------------------------------------------------------
    def save(self) -> dict:
        return {"game": self.definition.game_id, "players": self.state["settings"]["players"],
                "settings": {k: v for k, v in self.state["settings"].items() if k != "players"},
                "seed": self.state["seed"], "decisions": list(self.history)}


def load_definition(game: str | Path, *, fast_paths: bool = True) -> tuple[GameDef, dict]:
    """Load, check and compile a game — a bundled game's id or a game folder's path;
    (definition, starting map), the caller's own to change. Content errors raise LudexError;
    an unknown game UnknownGame. Loaded once per process and through the content cache."""
    from .folders import find_game
    from .loading import fresh_definition

    return fresh_definition(game if isinstance(game, Path) else find_game(game), fast_paths)


def replay(definition: GameDef, start: dict, saved: dict, checkpoints: bool = False) -> Game:
    """Rebuild a saved game by replaying its decisions from the start (keeping `checkpoints`
    from the start when it will be forked: `Game.fork`)."""
    game = Game(definition, start, players=saved["players"], settings=saved.get("settings"),
                seed=saved["seed"], autostart=False)
    game.checkpoints = checkpoints
    game.advance()
    for answer in saved["decisions"]:
        game.apply(answer)
    return game
