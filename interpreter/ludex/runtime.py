"""What compiled effects run against: the context (game definition, state, decisions) and the
exceptions that stop an effect — a decision to ask, a broken `require`, a runaway loop, a game
that has ended."""

from __future__ import annotations

import json
import marshal
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .errors import Diagnostic, LudexError


@dataclass(frozen=True)
class Where:
    """The place in content an effect step comes from, for messages."""

    file: str
    line: int
    col: int
    rule: str = ""  # procedure, card or phase id

    def describe(self) -> str:
        return f"{self.rule} ({self.file}:{self.line}:{self.col})" if self.rule else \
            f"{self.file}:{self.line}:{self.col}"


def answer_text(answer: Any) -> str:
    """An answer as a message shows it: an option's name as it is, anything else as the JSON a
    scenario or a save writes (not Python's `{'coins': 1}`)."""
    if isinstance(answer, str):
        return answer
    return json.dumps(answer, ensure_ascii=False, default=str)


def window_option(option: str) -> tuple[str, str, str]:
    """An action window's option in its parts: (power, action, card) of `power@action:card`,
    `""` for a part it leaves out (`pass`, `action`, `action:card`, `power@action`)."""
    power, _, rest = option.rpartition("@")
    action, _, card = rest.partition(":")
    return power, action, card


def with_arguments(args: dict[str, Any]) -> str:
    """A message's arguments as a diagnostic names them: `a0=red, a1=3`."""
    return ", ".join(f"{name}={answer_text(value)}" for name, value in args.items())


@dataclass
class Decision:
    """A question the engine needs answered before it can go on."""

    who: str | None
    prompt: str  # the message key of the question
    options: list[Any]
    mode: str = "one"  # one / exactly / up_to
    count: int = 1
    rule: str = ""
    # the prompt's arguments, `{"a0": …}`, worked out as it is asked (`prompt ("key", a)`)
    prompt_args: dict[str, Any] = field(default_factory=dict)
    # where in content it is asked (set by `Context.ask`): for messages about it
    where: Where | None = field(default=None, compare=False, repr=False)

    def as_dict(self) -> dict:
        return {"who": self.who, "prompt": self.prompt, "prompt_args": dict(self.prompt_args),
                "options": list(self.options), "mode": self.mode, "count": self.count,
                "rule": self.rule}

    def check(self, answer: Any, where: Where) -> Any:
        """The answer if it is one of the options (a list of distinct options for a multiple
        choice, within the allowed count); otherwise the choice is illegal."""
        if self.mode == "one":
            if not _offered(answer, self.options):
                raise Illegal("rules/illegal-choice",
                              f"`{answer_text(answer)}` is not one of the options for "
                              f"{self.prompt}", where)
            return answer
        picked = list(answer) if isinstance(answer, list | tuple) else [answer]
        remaining = list(self.options)
        for item in picked:
            if not _offered(item, remaining):
                raise Illegal("rules/illegal-choice",
                              f"`{answer_text(item)}` is not (or no longer) an option for "
                              f"{self.prompt}", where)
            remaining.remove(item)
        too_many = self.mode == "up_to" and len(picked) > self.count
        wrong = self.mode == "exactly" and len(picked) != self.count
        if too_many or wrong:
            raise Illegal("rules/illegal-choice",
                          f"{self.prompt} needs {self.mode.replace('_', ' ')} {self.count} "
                          f"choices, got {len(picked)}", where)
        return picked


def _offered(answer: Any, options: list) -> bool:
    """Whether the answer is one of the options, of the option's own type: Python takes
    `true` and `1.0` for the option `1`, a game may not (the history would keep `1.0`)."""
    if answer.__class__ is str:  # the usual answer: a name, equal only to the same text
        return answer in options
    return any(option == answer and option.__class__ is answer.__class__ for option in options)


class NeedDecision(Exception):
    """A run reached a question it has no answer for yet: `NeedDecision(decision)`. Raised
    once per run that stops at a question, so it has no __init__ of its own (the decision is
    its one argument)."""

    @property
    def decision(self) -> Decision:
        return self.args[0]

    def __str__(self) -> str:
        return self.args[0].prompt


class GameOver(Exception):
    """Raised by `end_game`: the game stops at once, mid-effect if need be."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


_NOWHERE = Where("<effect>", 1, 1)


class RuleError(LudexError):
    """An effect broke a rule or the language at run time; the action is rolled back."""

    # raised while a trigger was checked or run (Game._watch, _signal): a card whose action
    # set the trigger off only set it off, and is not named as the error's (flow.run_option)
    in_trigger = False

    # Raised and caught by the thousand when legal actions are listed (every refused option
    # raises one), and read only when shown: the diagnostic is built on first use.
    def __init__(self, code: str, message: str, where: Where | None):
        Exception.__init__(self, code, message, where)
        self.where = where or _NOWHERE
        self._code, self._message, self._diagnostics = code, message, None

    def again(self) -> RuleError:
        """The same error as a new exception, to raise once more one that is kept (a trial's
        refusal): raising the kept one would tie it to the raising frame, which holds it, a
        cycle of frames only the garbage collector frees."""
        copy = Exception.__new__(self.__class__)
        copy.__dict__.update(self.__dict__)
        copy.args = self.args
        return copy

    @property
    def said(self) -> str:
        """The message with what fills it, for a diagnostic (a reason's arguments)."""
        return self._message

    @property
    def diagnostics(self) -> list[Diagnostic]:
        if self._diagnostics is None:
            where, message = self.where, self.said
            self._diagnostics = [Diagnostic(where.file, where.line, where.col, self._code,
                                            f"{message} [in {where.rule}]" if where.rule
                                            else message)]
        return self._diagnostics

    @property
    def code(self) -> str:
        return self._code

    @property
    def text(self) -> str:
        """The message alone, without the rule it is placed in (to build another on it)."""
        return self._message

    def __str__(self) -> str:
        return self.diagnostics[0].headline()


class Illegal(RuleError):
    """A `require` did not hold: the action is illegal and nothing changed. Its text is the
    reason's message key (`require … else "key"`), and `reason_args` what fills it
    (`else ("key", a)`: `{"a0": …}`), as a logged message's arguments do."""

    def __init__(self, code: str, message: str, where: Where | None,
                 reason_args: dict[str, Any] | None = None,
                 wording: tuple[str, dict[str, Any]] | None = None):
        super().__init__(code, message, where)
        self.reason_args = reason_args or {}
        # an engine refusal's message for players (`cannot_pay` and its arguments): its text
        # is the engine's English, with ids, for designers (Localizer.refusal)
        self.wording = wording

    @property
    def said(self) -> str:
        return self._message + (f" ({with_arguments(self.reason_args)})"
                                if self.reason_args else "")


@dataclass(frozen=True)
class Said:
    """A message named inside another message's arguments (the question a refusal speaks
    of), filled in the reader's language when the outer one is (Localizer.filled)."""

    key: str
    args: dict[str, Any]


class EmptyChoice(Illegal):
    """A `choose` of one came up with nothing to choose from. Met after an answer, it is why
    that answer is refused: a later question would have no option (a bid no one after could
    top), which the refusal says to players (`refused_empty_choice`) and the engine notes
    (`Game.dead_ends`) so that `ludex simulate` can tell a designer how often a rule quietly
    narrowed play. `prompt` is the empty question's message key, `who` whom it would ask."""

    def __init__(self, where: Where, who: str | None, prompt: str, prompt_args: dict[str, Any]):
        super().__init__("rules/illegal-action",
                         f"nothing to choose from for `{prompt}` ({who} would be asked)", where,
                         wording=("refused_empty_choice",
                                  {"power": who, "question": Said(prompt, prompt_args)}))
        self.who, self.prompt = who, prompt


# Sections of the state a run may change. A run starts on a shallow copy of the state whose
# sections are shared with the start state until written (Context.touch):
# * entries of a keyed section — a space, a zone's piles, a card, a counter — are copied one
#   by one, the first time a verb writes them;
# * the values of a flat section are replaced, never changed in place: copying the section's
#   own dict or list is enough.
KEYED_SECTIONS = ("counters", "spaces", "zones", "cards")
FLAT_SECTIONS = ("flags", "memory", "log", "trigger_values")
SECTIONS = KEYED_SECTIONS + FLAT_SECTIONS
_ALL_SHARED = dict.fromkeys(SECTIONS)  # copied at each isolate: faster than fromkeys
# a section the run has made its own (so `shared` is never empty in an isolated run: verbs
# test `if ctx.shared:` before they touch, and triggers learn of writes from the touches)
_OWN = "own"


def copy_data(value: Any) -> Any:
    """A deep copy of plain data (dicts, lists, strings, numbers: a state or a part of one);
    marshal copies it 4-10x faster than copy.deepcopy."""
    return marshal.loads(marshal.dumps(value))


def _copy_counter(value: Any) -> Any:
    return value.copy() if value.__class__ is dict else value


def _copy_pile(holders: dict) -> dict:
    return {holder: pile[:] for holder, pile in holders.items()}


def _copy_card(info: dict) -> dict:
    return {**info, "zone": info["zone"][:], "tokens": info["tokens"].copy(),
            "under": info["under"][:]}


def _copy_space(space: dict) -> dict:
    return {**space, "markers": space["markers"].copy(),
            "pieces": {power: kinds.copy() for power, kinds in space["pieces"].items()}}


# How a run copies one entry of a keyed section before a verb writes it: the containers verbs
# change in place (a counter's values by power, a zone's piles, a card's tokens and the cards
# under it, a space's markers and pieces by power) are copied, what verbs only ever replace
# (a card's zone, a marker's value) is shared. Written out, a copy costs a third of marshal's;
# an entry not of the shape the engine makes (a state edited by hand) is copied whole.
ENTRY_COPIES: dict[str, Callable[[Any], Any]] = {
    "counters": _copy_counter, "zones": _copy_pile, "cards": _copy_card, "spaces": _copy_space}


def copy_entry(section: str, value: Any) -> Any:
    try:
        return ENTRY_COPIES[section](value)
    except (KeyError, TypeError, AttributeError):
        return copy_data(value)


@dataclass(slots=True)
class Context:
    """One run of compiled effects: the game, its state, and the scripted answers so far."""

    game: Any  # gamedef.GameDef
    state: dict
    me: str | None = None
    answers: list[Any] = field(default_factory=list)
    used: int = 0
    steps: int = 0
    budget: int = 100_000
    depth: int = 0  # nesting of content procedure and function calls
    # by section, what of it is still shared with the unit's start state: None, all of it; a
    # set, all but the entries this run has copied so far; "own", nothing. None outside an
    # isolated run.
    shared: dict[str, set | None] | None = None
    watch: Any = None  # called after every state-changing verb (the engine's trigger check)
    signal: Any = None  # called by `signal(event)` (the engine's event triggers)
    # values of card-free parts of a card filter while one action's options are listed
    # (hoisting.py); None: every part runs
    memo: dict | None = None
    # a search for a way on (trials.py): questions past the given answers are answered with
    # their first option, each such question noted here, up to `auto_limit` of them
    auto: list | None = None
    auto_limit: int = 0
    # values worked out before the unit's given answers ran out, kept for its replays
    # (replays.py); `known`: how many answers the unit was given; `seen`: how often each
    # kept value's code ran in this run, by answers used
    replayed: dict | None = None
    known: int = 0
    seen: dict | None = None
    # what verbs wrote since the triggers were last checked: section -> the entries written
    # (None: the whole section); None: not known, since the run began (check them all)
    written: dict | None = None
    # what the `when` triggers read (trigger_inputs.watched_inputs; None: there are none), and
    # whether a verb wrote any of it since they were last checked: only then does the next
    # verb's end check them (`watch`). A run starts dirty unless its start state's trigger
    # values are known to hold (engine.py, `Game._settled`).
    watched: dict | None = None
    dirty: bool = False
    # the card whose event or ability runs, else the action taken (innermost): what a question
    # asked in a procedure they call is asked by (`asker`)
    running: str = ""
    # the action window whose action is running (None: no action of a window is), and whether
    # that action ended it (`end_window()`): the window then closes after it, free or not
    window: str | None = None
    window_ends: bool = False

    def isolate(self) -> dict:
        """Run on a lazy copy of the current state from now on; returns that copy. Sections
        stay shared with the original until `touch` copies them."""
        self.state = dict(self.state)
        self.shared = _ALL_SHARED.copy()  # a section the state lacks is its own at once
        return self.state

    def touch(self, section: str, *keys: Any) -> None:
        """About to change `section` of the state (its entries `keys`: spaces, zones, cards or
        counters by id; none named means any): give this run its own copy first.

        Every verb touches what it writes, so a failed or replayed run never changes the
        state it started from, and a run copies only what it changes: setting one marker
        copies one space, not the map.
        """
        watched = self.watched
        if watched is not None and section in watched:
            entries = watched[section]
            if entries is None or not keys or not entries.isdisjoint(keys):
                self.dirty = True
                written = self.written
                if written is not None:
                    if not keys:
                        written[section] = None  # the whole section
                    elif section not in written:
                        written[section] = set(keys)
                    elif written[section] is not None:
                        written[section].update(keys)
        shared = self.shared
        if shared is None:
            return
        copied = shared.get(section, _OWN)
        if copied is _OWN:
            return
        value = self.state.get(section)
        if value is None:  # not in this state (yet): whatever the verb creates is its own
            shared[section] = _OWN
            return
        if copied is None:
            if section in FLAT_SECTIONS:
                self.state[section] = value.copy()
                shared[section] = _OWN
                return
            if not keys:
                self.state[section] = copy_data(value)
                shared[section] = _OWN
                return
            value = self.state[section] = dict(value)
            copied = shared[section] = set()
        if not keys:  # a writer that does not say which entries: copy all the rest
            for key in value:
                if key not in copied:
                    value[key] = copy_entry(section, value[key])
            shared[section] = _OWN
            return
        copy = ENTRY_COPIES[section]
        for key in keys:  # copy_entry, written in line: this is every verb's path
            if key not in copied:
                copied.add(key)
                entry = value[key]
                try:
                    value[key] = copy(entry)
                except (KeyError, TypeError, AttributeError):
                    value[key] = copy_data(entry)

    def step(self, where: Where) -> None:
        self.steps += 1
        if self.steps > self.budget:
            raise RuleError("rules/step-budget",
                            f"effect ran more than {self.budget:,} steps; a loop or trigger "
                            "chain does not end", where)

    def asker(self, where: Where) -> str:
        """The rule a question at `where` is asked by, for the players: the card, action or
        phase whose text asks it; a question written in a procedure (or a trigger) is asked by
        the card or action running it (the Fiscal's event calls `fiscalizar`, which asks),
        else by the phase under way. A procedure's id names nothing a player has read."""
        game, rule = self.game, where.rule
        if rule in game.cards or rule in game.actions or rule in game.phase_specs:
            return rule
        return self.running or self.state.get("phase") or rule

    def ask(self, decision: Decision, where: Where) -> Any:
        """The scripted answer to `decision`, or NeedDecision when there is none yet."""
        decision.where = where
        if self.used < len(self.answers):
            answer = self.answers[self.used]
            self.used += 1
            return answer
        if self.auto is not None and decision.mode == "one" and len(self.auto) < self.auto_limit:
            self.auto.append(decision)
            self.answers.append(decision.options[0])
            self.used += 1
            return decision.options[0]
        raise NeedDecision(decision)


def looking(game: Any, state: dict, me: str | None = None, only_reads: bool = False
            ) -> Context:
    """A context for evaluating an expression — a condition, a card filter, a `when` test, a
    score — on a lazy copy of `state`: expressions only look (validation rejects a verb in
    one), and even one that slipped a change past validation, or a `roll` that advances the
    generator, changes only the copy, never the state it looks at. `only_reads`: the caller
    knows the expression calls nothing that writes (`Compiled.only_reads`), so no copy."""
    ctx = Context(game, state, me=me)
    if not only_reads:
        ctx.isolate()
    return ctx


# Names every effect can read, computed from the context.
CONTEXT_NAMES: dict[str, Callable[[Context], Any]] = {
    "me": lambda ctx: ctx.me,
    "active": lambda ctx: ctx.state["active"],
    "players": lambda ctx: ctx.state["settings"]["players"],
    "turn": lambda ctx: ctx.state["turn"],
    "round": lambda ctx: ctx.state["round"],
    "phase": lambda ctx: ctx.state["phase"],
}
