"""What the engine learns by running the pending unit with some answers, kept so that it is
learnt once: the outcome of each run (trials), and whether a run that asks a question can still
be completed (the search for a way on).

The engine tests an option by running its unit with that answer (engine.py). `legal_actions()`
tests every option; `apply()` then runs the chosen one again; a question inside an action asks
`legal_actions()` again for the next answer. Within one unit the same answers always come to
the same outcome — the unit starts from the same state, replays the same answers, and effects
depend on nothing else — so each outcome is kept under its answers until the unit is
committed.

A question that no answer can get past is a dead end: taking the option that led to it would
leave the player no way on. `search_way_on` looks, depth-first, for one list of further answers
that completes the unit; what it finds is kept, so the next decision's `legal_actions()` reuses
it. Questions that pick several options at once (`exactly`, `up to`) are not searched (their
answers are sets, too many to try): a unit that reaches one counts as completable. The search is
bounded; past the bound the option is offered as before and the game notes a warning.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import Diagnostic
from .runtime import Decision, Illegal, NeedDecision

if TYPE_CHECKING:
    from .engine import Game

MAX_SEARCH_RUNS = 2_000  # runs of the unit one search may make before it gives up
MAX_SEARCH_DEPTH = 100  # questions in a row one search may answer before it gives up


@dataclass(slots=True)
class Outcome:
    """One run of a unit with given answers: the state it reached, and the question it
    stopped at (`decision`), the rule it broke (`refused`), or neither (completed)."""

    state: dict | None
    decision: Decision | None = None
    # kept without its traceback: the frames it holds hold the trials that keep it, a cycle
    # only the garbage collector frees (refusals are many: it made the collector run often)
    refused: Illegal | None = None
    frame: list | None = None  # a completed step's locals (resumable.py, flow.py)
    settled: bool = False  # a completed run ended with its trigger values known (engine.py)
    # a run ahead (run_ahead): the questions it answered, their first options, and whether
    # it completed
    ahead: tuple | None = None


def _key(answers: list[Any]) -> tuple | None:
    """Answers as a dictionary key (a multiple choice's list as a tuple, a way to pay as its
    sorted items); None when an answer is of a kind no key can hold (then nothing is kept)."""
    for answer in answers:
        if answer.__class__ is not str:
            break
    else:  # the usual answers: option names
        return tuple(answers)
    try:
        # each value with its type: `1`, `1.0` and `true` are equal in Python, and one answer
        # must not take the outcome of another (a way to pay in whole numbers is not `1.0`)
        key = tuple((_LIST, *((v.__class__, v) for v in a)) if a.__class__ is list else
                    (_MAPPING, *sorted((k, v.__class__.__name__, v) for k, v in a.items()))
                    if a.__class__ is dict else (a.__class__, a) for a in answers)
        hash(key)
    except TypeError:  # an unhashable item, keys that do not sort
        return None
    return key


# marks that keep a list or a mapping answer apart from an answer that is a tuple
_LIST, _MAPPING = object(), object()


class Trials:
    """The outcomes of the pending unit's runs, and which answers lead on, by answers."""

    def __init__(self) -> None:
        self.outcomes: dict[tuple, Outcome] = {}
        self.way_on: dict[tuple, bool] = {}

    def get(self, answers: list[Any]) -> Outcome | None:
        key = _key(answers)
        return None if key is None else self.outcomes.get(key)

    def keep(self, answers: list[Any], outcome: Outcome) -> None:
        key = _key(answers)
        if key is not None:
            self.outcomes[key] = outcome


class _Bound(Exception):
    """The search ran out of runs or depth."""


def run_ahead(game: Game, answers: list[Any], keep: bool, budget: list[int] | None = None
              ) -> Outcome:
    """Run the pending unit with `answers` and on, down the first option of every question
    past them (Context.auto): one run tells what the answers come to and, most often, that
    they lead on. Every list of answers along the way gets its outcome (kept when `keep`) and,
    when the run completed, its way on. The state at a question the run went past is not
    kept (the game works it out if it is looked at: `Game.view`)."""
    trials = game.unit.trials
    if budget is not None:
        if budget[0] <= 0:
            raise _Bound
        budget[0] -= 1
    met: list[Decision] = []  # the questions the run answered with their first option
    limit = MAX_SEARCH_DEPTH + len(game.unit.answers) - len(answers)
    try:
        state = game._try(answers, auto=met, auto_limit=max(limit, 0))
        last = Outcome(state, frame=game._frame, settled=game._settled_run)
        completed = True
    except NeedDecision as need:
        last = Outcome(need.state, decision=need.decision)
        # past the depth bound, or a multiple choice (not searched: taken to lead on)
        completed = need.decision.mode != "one" or limit <= 0
        if not completed and budget is not None:
            raise _Bound from None
    except Illegal as exc:
        last = Outcome(None, refused=exc.with_traceback(None))  # kept: see Outcome
        completed = False
    if not met:  # the usual run: it asked nothing past the given answers
        if keep:
            trials.keep(answers, last)
        if completed:
            _note(trials, answers, True)
        last.ahead = (met, [], completed)
        return last
    path = [d.options[0] for d in met]
    outcomes = [Outcome(None, decision=d) for d in met] + [last]
    for depth, outcome in enumerate(outcomes):
        reached = [*answers, *path[:depth]]
        if keep:
            trials.keep(reached, outcome)
        if completed:
            _note(trials, reached, True)
    first = outcomes[0]
    first.ahead = (met, path, completed)
    return first


def search_way_on(game: Game, answers: list[Any]) -> bool:
    """Whether the pending unit, run with `answers` (which reach a question), can be
    completed by some further answers. Past the search's bound: True, with a warning."""
    trials = game.unit.trials
    key = _key(answers)
    if key is not None and key in trials.way_on:
        return trials.way_on[key]
    try:
        return _way_on(game, list(answers), [MAX_SEARCH_RUNS])
    except _Bound:
        # placed at the question answered, where content asks it (else the engine's)
        where = game.pending.where if game.pending is not None else None
        file, line, col = (where.file, where.line, where.col) if where else ("<engine>", 1, 1)
        game.warnings.append(Diagnostic(
            file, line, col, "rules/search-bound",
            f"could not tell within {MAX_SEARCH_RUNS:,} runs and {MAX_SEARCH_DEPTH} questions "
            f"whether `{answers[-1]}` can be completed in {game.unit.label}; it is offered (a "
            "dead end may follow)", "warning"))
        return True


def _way_on(game: Game, answers: list[Any], budget: list[int]) -> bool:
    """Depth-first, first options first. One run goes down the first options of every
    question it meets, so a unit whose first options lead on costs one run; only a broken
    rule makes the search go back up and try the next option of the deepest question, then
    of the one above, and so on."""
    trials = game.unit.trials
    key = _key(answers)
    if key is not None and key in trials.way_on:
        return trials.way_on[key]
    met, path, completed = run_ahead(game, answers, game.reuse_trials, budget).ahead
    if completed:
        return True
    # the first options broke a rule somewhere below: the deepest question first, try its
    # other options; none leads on, so the answer above it does not either; and so up
    for depth in range(len(met) - 1, -1, -1):
        above = [*answers, *path[:depth]]
        _note(trials, [*above, path[depth]], False)
        for option in met[depth].options[1:]:
            if _way_on(game, [*above, option], budget):
                for level in range(depth + 1):
                    _note(trials, [*answers, *path[:level]], True)
                return True
    _note(trials, answers, False)
    return False


def _note(trials: Trials, answers: list[Any], found: bool) -> None:
    key = _key(answers)
    if key is not None:
        trials.way_on[key] = found
