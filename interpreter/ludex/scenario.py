"""Scenario files: a starting state, something to run, scripted decisions, expectations.

`run_scenario(path)` returns a `Result`: passed or failed, with the file:line of the failing
expectation, expected vs actual, and the decision log. Running out of scripted decisions is a
failure that shows the pending question and its options, so a scenario can be written by
running it, reading the question, and adding the answer.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import ast, schemas
from .compiler import CompileError, Compiler
from .engine import Game
from .errors import Collector, Diagnostic, LudexError, did_you_mean, distinct
from .folders import UnknownGame, find_game, looks_like_scenario
from .gamedef import GameDef
from .loading import remember, scenario_file, shared_definition
from .memory_types import enum_attributes, value_problem
from .memory_typing import describe as describe_memory
from .parser import origin_of, parse, parse_once
from .runtime import Context, Illegal, RuleError, Where, answer_text, looking
from .scenario_arguments import argument_mistakes, question_mistakes
from .scenario_dice import unused_dice
from .scenario_options import (
    card_instances,
    ending_mistakes,
    option_mistakes,
    refusal_mistakes,
    unknown_hint,
    vocabulary,
)
from .state import check_settings, player_counts
from .static_checks import Source, changing_calls, memory_keys, walk
from .typecheck import check_types
from .yamlio import Document, load_file, source_lines


@dataclass
class Result:
    file: str
    name: str
    rules: list[str]
    status: str  # passed / failed / error
    message: str = ""
    line: int = 1
    decisions: list[Any] = field(default_factory=list)
    # the decision the rules refused, the last one tried: what an expected refusal is about
    refused: Any = None
    # the decision that met an error of the content (RulesBroke), not taken and not refused
    met: Any = None
    game_errors: list[Diagnostic] = field(default_factory=list)  # its game's, shown once
    # what the rules could not settle while it ran (engine warnings), each once, placed at
    # the scenario's `run:`
    warnings: list[Diagnostic] = field(default_factory=list)
    # an error's diagnostics in the scenario file itself, or the content error a scripted
    # decision met (RulesBroke): shown with their source line
    errors: list[Diagnostic] = field(default_factory=list)
    # after those errors: which decision of the scenario met them, and at what question
    met_at: str = ""

    @property
    def passed(self) -> bool:
        return self.status == "passed"

    def as_dict(self) -> dict:
        return {"file": self.file, "name": self.name, "rules": self.rules,
                "status": self.status, "message": self.message, "line": self.line,
                "decisions": self.decisions, "refused": self.refused,
                "errors": [d.as_dict() for d in self.errors]}

    def report(self, game_errors: bool = True) -> str:
        """The result as text; `game_errors=False` leaves out its game's content errors, for
        a caller that lists them once for the game."""
        head = f"{self.file}:{self.line}: {self.status.upper()}: {self.name}"
        if self.passed:
            return head
        body = "\n".join(d.render(source_lines(d.file)) for d in self.errors) \
            if self.errors else self.message
        if self.met_at:
            body += "\n" + self.met_at
        if game_errors and self.game_errors:
            body += "\n" + "\n".join(d.headline() for d in self.game_errors)
        if self.decisions or self.refused is not None or self.met is not None:
            given = [json.dumps(d, ensure_ascii=False) for d in self.decisions]
            if self.refused is not None:  # tried last: what an expected refusal is about
                given.append(json.dumps(self.refused, ensure_ascii=False) + " (refused)")
            if self.met is not None:
                given.append(json.dumps(self.met, ensure_ascii=False) + " (met the error)")
            body += "\n  decisions given: [" + ", ".join(given) + "]"
        return head + "\n  " + body.replace("\n", "\n  ")


class ScenarioFailure(Exception):
    def __init__(self, message: str, line: int, col: int = 1, code: str = "scenario/failed"):
        super().__init__(message)
        self.line, self.col, self.code = line, col, code


class RulesBroke(ScenarioFailure):
    """A scripted decision met an error in the game's content (a runaway trigger chain, a
    type error in an effect): a bug of the rules, not a refusal of the answer. Reported as
    the content error at its place, as `play` reports it, then the decision that met it."""

    def __init__(self, error: LudexError, met_at: str, line: int):
        super().__init__(error.diagnostics[0].headline() + "\n" + met_at, line,
                         code=error.code)
        self.diagnostics, self.met_at = list(error.diagnostics), met_at


def scenario_game(doc: Document) -> Path:
    """The folder of the game a scenario names in `game:` (an id or a path relative to the
    scenario file, where it lies: a link's own folder, not its target's); raises
    UnknownGame."""
    return find_game(doc.data["game"], doc.path.parent.resolve()).resolve()


class GameContentError(LudexError):
    """The game a scenario names has content errors. They belong to the game: `ludex test`
    reports them once for it, not once for each of its scenarios."""

    def __init__(self, folder: Path, diagnostics: list[Diagnostic]):
        super().__init__(diagnostics)
        self.folder = folder


def _definition(folder: Path, play: bool = True) -> tuple[GameDef, dict]:
    """A game loaded once per process, however many scenarios name it (again when its files
    change); a broken one is not loaded again per scenario either. Scenarios only read it.
    `play=False`: for checking a scenario, not running it (loading.shared_definition)."""
    try:
        return shared_definition(folder, play)
    except LudexError as exc:
        raise GameContentError(folder, exc.diagnostics) from None


def run_scenario(path: Path | str, definition: tuple[GameDef, dict] | None = None,
                 checked: bool = False) -> Result:
    """Run one scenario file; `definition` (a loaded game and its starting map) stands in for
    the game the scenario names (mutation testing runs scenarios against altered games).
    `checked`: the caller checks the file as written itself (`ludex check` reports those
    errors beside the run), so it is not checked twice."""
    path = Path(path)
    loaded = scenario_file(path)
    doc = loaded.doc
    try:
        if doc is None or any(d.is_error for d in loaded.diagnostics):
            return _refused(path, loaded.diagnostics, doc)
        if definition is None and not checked:  # as `validate` checks it: not run if refused
            own = _written_errors(doc)
            if own:
                return _refused(path, own, doc)
        return _run(doc, definition)
    finally:
        remember(loaded)


def _written_errors(doc: Document) -> list[Diagnostic]:
    """The scenario's own errors as written (check_scenario, its texts' types included: the
    run's compiling them does not check those), against the very game the run takes next. A
    game that does not load has its own errors, which the run reports once (_run)."""
    try:
        game, _ = _definition(scenario_game(doc))
    except UnknownGame as exc:  # an error of the file as written, at its `game:`
        line, col = doc.pos(("game",))
        return [Diagnostic(str(doc.path), line, col, "scenario/unknown-game", str(exc))]
    except (GameContentError, LudexError):
        return []
    written = Collector()
    check_scenario(doc, written, {(str(doc.data["game"]), doc.path.parent): game})
    return [d for d in written.sorted() if d.is_error and d.file == str(doc.path)]


def _refused(path: Path, diagnostics: list[Diagnostic], doc: Document | None) -> Result:
    """The result of a scenario file with errors as written: not run, its errors shown."""
    errors = [d for d in diagnostics if d.is_error]
    return Result(str(path), _name(path, doc), [], "error",
                  "\n".join(d.headline() for d in errors), errors[0].line,
                  errors=[d for d in errors if d.file == str(path)] if all(
                      d.file == str(path) for d in errors) else [])


def _name(path: Path, doc: Document | None) -> str:
    """The scenario's `name`, as its failures show it; the file's stem when it has none (or
    the file does not read far enough to tell)."""
    data = doc.data if doc is not None else None
    name = data.get("name") if isinstance(data, dict) else None
    return name if isinstance(name, str) and name else path.stem


def _run(doc: Document, definition: tuple[GameDef, dict] | None) -> Result:
    path, data = doc.path, doc.data
    result = Result(str(path), _name(path, doc), list(data.get("rules") or []), "passed")
    try:
        game = _prepare(doc, definition)
        unknown = Collector()
        check_clauses(doc, game.definition, unknown)
        if unknown:
            raise LudexError(unknown.sorted())
        try:
            _execute(doc, game, result)
        finally:
            result.warnings = _placed(game.warnings, doc)
    except RulesBroke as broke:
        result.status, result.message, result.line = "error", str(broke), broke.line
        result.errors, result.met_at = broke.diagnostics, broke.met_at
    except ScenarioFailure as failure:
        result.status, result.message, result.line = "failed", str(failure), failure.line
    except GameContentError as exc:
        result.status, result.line = "error", doc.pos(("game",))[0]
        result.message = f"not run: its game ({exc.folder.name}) has content errors"
        result.game_errors = exc.diagnostics
    except LudexError as exc:
        first = exc.diagnostics[0] if exc.diagnostics else None
        result.status = "error"
        result.message = "\n".join(d.headline() for d in exc.diagnostics)
        result.line = first.line if first and first.file == str(path) else doc.pos(("run",))[0]
        # the scenario's own errors, and an error of the rules the run met (shown as `play`
        # shows it), with their source lines
        if exc.diagnostics and (isinstance(exc, RuleError)
                                or all(d.file == str(path) for d in exc.diagnostics)):
            result.errors = list(exc.diagnostics)
    return result


def _placed(warnings: list[Diagnostic], doc: Document) -> list[Diagnostic]:
    """A game's warnings, each once; those the engine has no place in content for are
    placed at the scenario's `run:`, where the play that met them began."""
    line, col = doc.pos(("run",))
    return [Diagnostic(str(doc.path), line, col, w.code, w.message, w.severity)
            if w.file == "<engine>" else w for w in distinct(warnings)]


def _prepare(doc: Document, loaded: tuple[GameDef, dict] | None = None) -> Game:
    data = doc.data
    try:
        definition, start = loaded or _definition(scenario_game(doc))
    except UnknownGame as exc:
        line, col = doc.pos(("game",))
        raise ScenarioFailure(str(exc), line, col, "scenario/unknown-game") from None
    settings = dict(data.get("settings") or {})
    players = settings.pop("players", None)
    empty = data.get("setup") == "empty"
    game = Game(definition, start, players=players, settings=settings,
                seed=data.get("seed", 0), autostart=False)
    if empty:
        for space in game.state["spaces"].values():
            space["pieces"] = {}
    _apply_state(doc, game)
    return game


def _apply_state(doc: Document, game: Game) -> None:
    state, d = game.state, game.definition
    changes = doc.data.get("state") or {}
    for key in ("turn", "round", "phase", "active"):
        if key in changes:
            state[key] = changes[key]
    for counter, value in (changes.get("counters") or {}).items():
        _need(doc, ("state", "counters", counter), counter in d.counters, "counter", counter)
        if isinstance(value, dict):
            state["counters"][counter].update(value)
        else:
            state["counters"][counter] = value
    for flag, value in (changes.get("flags") or {}).items():
        _need(doc, ("state", "flags", flag), flag in state["flags"], "flag", flag)
        state["flags"][flag] = value
    for space, block in (changes.get("spaces") or {}).items():
        _need(doc, ("state", "spaces", space), space in state["spaces"], "space", space)
        for path, key, value in _space_entries(space, block):
            if key == "pieces":
                state["spaces"][space]["pieces"] = {p: dict(k) for p, k in value.items()}
            else:
                _need(doc, path, key in d.markers, "marker", key)
                state["spaces"][space]["markers"][key] = value
    listed: dict[str, str] = {}  # card → where the state lists it
    for zone, content in (changes.get("zones") or {}).items():
        _need(doc, ("state", "zones", zone), zone in d.zones, "zone", zone)
        holders = content if isinstance(content, dict) else {"": content}
        for holder, cards in holders.items():
            _need(doc, ("state", "zones", zone, holder), holder in state["zones"][zone],
                  "holder of zone " + zone, holder)
            where = f"{zone}" + (f" of {holder}" if holder else "")
            for card in cards:
                if card in listed:  # a card lies in one place: the second listing is a mistake
                    line, col = doc.key_pos(("state", "zones", zone, holder) if holder
                                            else ("state", "zones", zone))
                    raise ScenarioFailure(f"card `{card}` is listed twice in the state: in "
                                          f"{listed[card]} and in {where}", line, col,
                                          "scenario/card-listed-twice")
                listed[card] = where
            # A listed zone holds exactly the listed cards; cards it held before leave play.
            for card in list(state["zones"][zone][holder]):
                _move(state, card, None, None)
            for card in reversed(cards):
                _need(doc, ("state", "zones", zone, holder), card in state["cards"], "card",
                      card)
                _move(state, card, zone, holder)
                info = state["cards"][card]
                info["owner"] = settled_owner(d, info["card"], zone, holder)
    cards = changes.get("cards") or {}
    for card, block in cards.items():
        _need(doc, ("state", "cards", card), card in state["cards"], "card", card)
        _lay_under(doc, d, state, card, block)
    for card, block in cards.items():  # after every card is laid: an owner given stays
        info = state["cards"][card]
        if "tokens" in block:
            info["tokens"] = {kind: n for kind, n in block["tokens"].items() if n}
        if "owner" in block:
            info["owner"] = block["owner"] or ""
    if changes.get("memory"):
        state.setdefault("memory", {}).update(changes["memory"])
    if "rng" in changes:  # shuffles and dice go on as the dumped game's did
        state["rng"] = int(changes["rng"], 16)
    if changes.get("dice"):  # the next dice shown, before the generator's (verbs `roll`)
        state["dice"] = list(changes["dice"])


def _lay_under(doc: Document, d: GameDef, state: dict, card: str, block: dict) -> None:
    """The cards a scenario lays under `card`, replacing those the set-up left (cards it had
    under it and the list lacks leave play); each belongs to its printed owner or to nobody, as
    in a shared zone, unless the scenario gives its owner (applied after every card is laid).
    """
    if "under" not in block:
        return
    info = state["cards"][card]
    for below in list(info["under"]):
        _move(state, below, None, None)
    for below in block["under"]:
        _need(doc, ("state", "cards", card, "under"), below in state["cards"], "card", below)
        _move(state, below, None, None)
        state["cards"][below]["below"] = card
        info["under"].append(below)
        state["cards"][below]["owner"] = settled_owner(d, state["cards"][below]["card"], None,
                                                       "")


def settled_owner(d: GameDef, card_id: str, zone: str | None, holder: str) -> str:
    """Who owns a card a scenario lays somewhere, as play would leave it after a deal there:
    its printed owner; else, in a power's private zone, that power (a card entering one is
    taken, verbs.py `_enter`); anywhere else (a shared zone, a power's zone that is not
    private, under a card), nobody."""
    printed = d.cards[card_id].get("owner")
    if printed:
        return printed
    return holder if zone in d.private_zones else ""


def _move(state: dict, card: str, zone: str | None, holder: str | None) -> None:
    """Move a card for a scenario's set-up; zone None takes it out of play."""
    info = state["cards"][card]
    if info.get("below") is not None:  # it lay under another card
        state["cards"][info["below"]]["under"].remove(card)
        info["below"] = None
    old_zone, old_holder = info["zone"]
    if old_zone is not None:
        state["zones"][old_zone][old_holder].remove(card)
    if zone is not None:
        state["zones"][zone][holder].insert(0, card)
    state["cards"][card]["zone"] = [zone, holder]


def _state_names(doc: Document, d: GameDef):
    """(path, kind, known names, name) for every name in `state` that the game lacks."""
    changes = doc.data.get("state") or {}
    cards = card_instances(d)
    checks = [("counters", "counter", d.counters), ("flags", "flag", d.manifest_flags),
              ("spaces", "space", d.spaces), ("zones", "zone", d.zones)]
    for key, kind, known in checks:
        for ident in changes.get(key) or {}:
            if ident not in known:
                yield ("state", key, ident), kind, list(known), ident
    for space, block in (changes.get("spaces") or {}).items():
        for path, marker, _ in _space_entries(space, block or {}):
            if marker != "pieces" and marker not in d.markers:
                yield path, "marker", list(d.markers), marker
    for zone, content in (changes.get("zones") or {}).items():
        # each card at its own place in the list (key_pos falls back to the value's place)
        holders = content if isinstance(content, dict) else {None: content}
        for holder, listed in holders.items():
            at = ("state", "zones", zone) if holder is None else ("state", "zones", zone, holder)
            for i, card in enumerate(listed):
                if card not in cards:
                    yield (*at, i), "card", sorted(cards), card
    # a key no effect remembers or recalls is never read: the scenario tests a state the rules
    # ignore (a misspelt `trunfo` left the game without its trump, a designer's trial)
    memory, given = vocabulary(d).memory, changes.get("memory")
    for key in given if memory is not None and isinstance(given, dict) else ():
        if key not in memory:
            yield ("state", "memory", key), "memory key", sorted(memory), key
    for card, block in (changes.get("cards") or {}).items():
        if card not in cards:
            yield ("state", "cards", card), "card", sorted(cards), card
        for i, below in enumerate((block or {}).get("under") or []):
            if below not in cards:
                yield ("state", "cards", card, "under", i), "card", sorted(cards), below


class _Report:
    """Where a scenario's static checks put what they find (its file, its places)."""

    def __init__(self, doc: Document, errors: Collector, d: GameDef):
        self.doc, self.errors, self.name, self.d = doc, errors, str(doc.path), d

    def unknown(self, path: tuple, value, known, kind: str, at_key: bool = False) -> None:
        """An error when `value` (if given) is not among `known`."""
        if value is not None and value not in known:
            line, col = self.doc.key_pos(path) if at_key else self.doc.pos(path)
            self.errors.error(self.name, line, col, "scenario/unknown-name",
                              f"unknown {kind} `{value}`"
                              + unknown_hint(self.d, kind, value, list(known)))

    def error(self, path: tuple, code: str, message: str) -> None:
        line, col = self.doc.pos(path)
        self.errors.error(self.name, line, col, code, message)


def _check_state_shapes(doc: Document, d: GameDef, errors: Collector) -> None:
    """What the scenario names outside `state`'s sections exists; each counter and zone has
    the shape the game gives it, a counter keeps to its bounds, and no card is listed twice."""
    report = _Report(doc, errors, d)
    _check_powers_named(doc.data, d, report)
    changes = doc.data.get("state") or {}
    _check_counters(changes.get("counters") or {}, d, report)
    listed = _check_zones(changes.get("zones") or {}, d, report)
    _check_cards(changes.get("cards") or {}, listed, d, report)
    _check_spaces(changes.get("spaces") or {}, d, report)
    _check_memory(changes.get("memory"), d, report)
    _check_turn(changes.get("turn"), d, report)
    _check_seated(doc, d, changes, errors)


def _check_turn(turn, d: GameDef, report: _Report) -> None:
    """A turn no game reaches: past the manifest's `turns`, the game ends after its last
    turn. (A game that ends by `until` alone has no last turn to hold a scenario to.)"""
    last = d.manifest.get("turns")
    if isinstance(turn, int) and isinstance(last, int) and turn > last:
        report.error(("state", "turn"), "scenario/past-last-turn",
                     f"turn {turn} is past the game's last turn: `turns: {last}` in the "
                     f"manifest ends the game after turn {last}")


def _check_seated(doc: Document, d: GameDef, changes: dict, errors: Collector) -> None:
    """A warning at each power the state gives counters or cards to while it has no seat at
    the scenario's number of players, though it has one at another (a 4-player game's fourth
    merchant in a 3-player scenario): no player holds them, so the scenario most likely meant
    more players. A power seated at no count (a neutral one the rules move) is left alone, and
    so is a value that changes nothing (an empty hand, a counter at its start)."""
    settings = doc.data.get("settings") or {}
    players = settings.get("players") if isinstance(settings, dict) else None
    seats = d.manifest.get("seats") or {}
    if players is None:
        players = (d.manifest.get("players") or {}).get(
            "default", (d.manifest.get("players") or {}).get("min"))
    table = seats.get(str(players))
    if not isinstance(table, list):
        return  # an unknown player count is an error of its own
    seated = {power for seat in table for power in seat}
    # a power seated at no count is a neutral one the rules move (its counters matter)
    ever = {power for count in seats.values() if isinstance(count, list)
            for seat in count for power in seat}
    sections = [("counters", name, value) for name, value in
                (changes.get("counters") or {}).items()
                if name in d.counters and d.counters[name].get("per", "power") == "power"]
    sections += [("zones", name, value) for name, value in (changes.get("zones") or {}).items()
                 if name in d.zones and d.zones[name].get("per") == "power"]
    for section, name, value in sections:
        for power, given in value.items() if isinstance(value, dict) else ():
            initial = d.counters[name].get("initial", 0) if section == "counters" else []
            if power in ever and power not in seated and given != initial:
                line, col = doc.key_pos(("state", section, name, power))
                errors.warning(
                    str(doc.path), line, col, "scenario/power-not-seated",
                    f"`{power}` has no seat with {players} players ({', '.join(sorted(seated))} "
                    f"play): no player holds its {name}; for more players, say so in "
                    "`settings: {players: N}`")


def _check_powers_named(data: dict, d: GameDef, report: _Report) -> None:
    """The active power, the phase, the power and card a run is for, and the power each
    decision and expectation names."""
    powers, changes, run = list(d.power_ids), data.get("state") or {}, data.get("run") or {}
    report.unknown(("state", "active"), changes.get("active"), powers, "power")
    report.unknown(("state", "phase"), changes.get("phase"), d.phase_specs, "phase")
    report.unknown(("run", "power"), run.get("power"), powers, "power")
    report.unknown(("run", "seat"), run.get("seat"), powers, "power")
    report.unknown(("run", "card"), run.get("card"), sorted(card_instances(d)), "card")
    for key in ("expect", "decisions"):
        for i, entry in enumerate(data.get(key) or []):
            if isinstance(entry, dict):
                report.unknown((key, i, "who"), entry.get("who"), powers, "power")


def _check_counters(counters: dict, d: GameDef, report: _Report) -> None:
    """A per-power counter given by power, a shared one as one number, within its bounds."""
    powers = list(d.power_ids)
    for counter, value in counters.items():
        spec = d.counters.get(counter)
        if spec is None:
            continue  # an unknown counter: reported by name
        path = ("state", "counters", counter)
        per_power = spec.get("per", "power") == "power"  # a counter is per power unless said
        if per_power != isinstance(value, dict):
            report.error(path, "scenario/wrong-shape", f"counter `{counter}` is "
                         + ("kept per power: give its values by power (`{power: value}`)"
                            if per_power else "shared: give one number"))
            continue
        for power, amount in (value.items() if per_power else [(None, value)]):
            where = (*path, power) if per_power else path
            if per_power and power not in powers:
                report.unknown(where, power, powers, "power", at_key=True)
            elif isinstance(amount, int) and not isinstance(amount, bool) and not (
                    spec.get("min", amount) <= amount <= spec.get("max", amount)):
                low, high = spec.get("min"), spec.get("max")
                bounds = f"between {low} and {high}" if low is not None and high is not None \
                    else f"at least {low}" if low is not None else f"at most {high}"
                report.error(where, "scenario/wrong-shape",
                             f"counter `{counter}` is {bounds}, not {amount}")


def _check_spaces(spaces: dict, d: GameDef, report: _Report) -> None:
    """Each marker holds a value its declaration allows (as on the map's start: `level: 7`
    of 0–3, `control: true` for a power, were set as given and the scenario ran on a state
    no game reaches), and a named (`unique`) piece is listed once at most."""
    from .checks import marker_problem

    named: dict[str, int] = {}
    for space, block in spaces.items():
        if not isinstance(block, dict):
            continue
        for path, key, value in _space_entries(space, block):
            if key == "pieces" and isinstance(value, dict):
                for power, kinds in value.items():
                    for piece, count in (kinds or {}).items():
                        if not (d.pieces.get(piece) or {}).get("unique") or \
                                not isinstance(count, int) or count <= 0:
                            continue
                        named[piece] = named.get(piece, 0) + count
                        if named[piece] > 1:
                            report.error((*path, power, piece), "scenario/bad-piece",
                                         f"`{piece}` is a named piece: it exists once, and "
                                         f"the state lists it {named[piece]} times")
            elif key in d.markers and value is not None:
                problem = marker_problem(d.markers[key], value, d.power_ids)
                if problem:
                    report.error(path, "scenario/bad-marker", f"marker `{key}`: {problem}")


def _check_memory(memory, d: GameDef, report: _Report) -> None:
    """Each value given to a key the manifest declares is of its declared type: a trump
    given as `3` where the rules keep a suit tests a state no game reaches."""
    if d.memory_types is None or not isinstance(memory, dict):
        return
    ids = {"power": d.power_ids, "space": d.spaces, "zone": d.zones, "piece": d.pieces,
           "card": card_instances(d)}
    enums = enum_attributes(d.manifest)
    for key, value in memory.items():
        t = d.memory_types.get(key)
        problem = value_problem(t, value, ids, enums) if t else None
        if problem:
            report.error(("state", "memory", key), "scenario/bad-memory",
                         f"memory `{key}` holds {describe_memory(t)}: {problem}")


def _check_zones(zones: dict, d: GameDef, report: _Report) -> dict[str, str]:
    """A per-power zone given by power, a shared one as one list; each card listed once.
    Returns where each card is listed."""
    powers = list(d.power_ids)
    listed: dict[str, str] = {}  # card -> where the state lists it first
    for zone, content in zones.items():
        spec = d.zones.get(zone)
        if spec is None:
            continue  # an unknown zone: reported by name
        per_power = spec.get("per") == "power"  # a zone is shared unless said
        if per_power != isinstance(content, dict):
            report.error(("state", "zones", zone), "scenario/wrong-shape", f"zone `{zone}` is "
                         + ("kept per power: give its cards by power (`{power: [cards]}`)"
                            if per_power else "shared: give its cards as one list"))
            continue
        for holder, cards in (content.items() if per_power else [("", content)]):
            path = ("state", "zones", zone, holder) if per_power else ("state", "zones", zone)
            if per_power:
                report.unknown(path, holder, powers, "power", at_key=True)
            where = zone + (f" of {holder}" if holder else "")
            for i, card in enumerate(cards if isinstance(cards, list) else []):
                if card in listed:
                    report.error((*path, i), "scenario/card-listed-twice",
                                 f"card `{card}` is listed twice in the state: in "
                                 f"{listed[card]} and in {where}")
                else:
                    listed[card] = where
    return listed


def _check_cards(cards: dict, listed: dict[str, str], d: GameDef, report: _Report) -> None:
    """Each card's owner is a power, a card lies under one card at most and not also in a
    zone, and no card ends up under itself (the cards under one another would leave play)."""
    powers, below = list(d.power_ids), {}
    for card, block in cards.items():
        block = block or {}
        if block.get("owner") is not None:
            report.unknown(("state", "cards", card, "owner"), block["owner"], powers, "power")
        for i, under in enumerate(block.get("under") or []):
            where = f"under {card}"
            if under in listed:
                report.error(("state", "cards", card, "under", i), "scenario/card-listed-twice",
                             f"card `{under}` is listed twice in the state: in {listed[under]} "
                             f"and {where}")
                continue
            listed[under], below[under] = where, card
    for card in below:
        holder, seen = below[card], {card}
        while holder is not None and holder not in seen:
            seen.add(holder)
            holder = below.get(holder)
        if holder == card:
            index = cards[below[card]]["under"].index(card)
            report.error(("state", "cards", below[card], "under", index), "scenario/card-cycle",
                         f"card `{card}` would lie under itself"
                         + ("" if below[card] == card else f" (through `{below[card]}`)"))
            return  # one cycle, one diagnostic


RUN_KINDS = ("phase", "procedure", "action", "effect", "turns")
# parts of `run` that go with one kind only
RUN_PARTS = {"seat": "phase", "args": "procedure", "card": "action"}


def _check_run(doc: Document, d: GameDef, errors: Collector) -> None:
    """`run` runs exactly one thing (a second kind was ignored without a word), each part it
    gives belongs to that kind, and a phase taken up at a seat has windows and a round under
    way."""
    run = doc.data.get("run")
    if not isinstance(run, dict):
        return
    kinds = [k for k in RUN_KINDS if k in run]
    if len(kinds) != 1:
        line, col = doc.key_pos(("run", kinds[1])) if kinds else doc.pos(("run",))
        said = f"both `{kinds[0]}` and `{kinds[1]}`" if kinds else "nothing to run"
        errors.error(str(doc.path), line, col, "scenario/bad-run",
                     f"`run` names {said}: give exactly one of {', '.join(RUN_KINDS)}")
        return
    for part, kind in RUN_PARTS.items():
        if part in run and kind not in run:
            line, col = doc.key_pos(("run", part))
            errors.error(str(doc.path), line, col, "scenario/bad-run",
                         f"`{part}` goes with `{kind}`, not with `{kinds[0]}`")
            return
    spec = d.phase_specs.get(run.get("phase"))
    if "seat" in run and spec is not None:  # a phase taken up at a seat's window
        line, col = doc.pos(("run", "seat"))
        if not spec.get("window"):
            errors.error(str(doc.path), line, col, "scenario/bad-run",
                         f"phase `{run['phase']}` opens no action window: `seat` takes a "
                         "phase up at a seat's window")
        elif (doc.data.get("state") or {}).get("round", 1) == 0:  # not under way (yet)
            errors.error(str(doc.path), line, col, "scenario/bad-run",
                         "`seat` takes the phase up in the round under way: `state.round` is "
                         "1 or more (left out, it is 1)")


def _check_arguments(doc: Document, params: tuple[str, ...], errors: Collector) -> None:
    """`run.args` gives each parameter of the procedure run, and nothing else: by name, or
    as a list in the order of the parameters."""
    name, args = str(doc.path), doc.data["run"].get("args") or {}
    procedure = doc.data["run"]["procedure"]
    if isinstance(args, list):
        if len(args) != len(params):
            line, col = doc.pos(("run", "args"))
            errors.error(name, line, col, "scenario/argument-count",
                         f"`{procedure}({', '.join(params)})` takes {len(params)} "
                         f"argument{'s' if len(params) != 1 else ''}, not {len(args)}")
        return
    for key in args:
        if key not in params:
            line, col = doc.key_pos(("run", "args", key))
            errors.error(name, line, col, "scenario/unknown-name",
                         f"`{procedure}` has no parameter `{key}`" + did_you_mean(key, params))
    missing = [p for p in params if p not in args]
    if missing:
        where = ("run", "args") if "args" in doc.data["run"] else ("run", "procedure")
        line, col = doc.pos(where)
        errors.error(name, line, col, "scenario/missing-argument",
                     f"`{procedure}` needs {', '.join(f'`{p}`' for p in missing)} in `args`")


def _need(doc: Document, path: tuple, ok: bool, kind: str, name: str) -> None:
    if not ok:
        line, col = doc.key_pos(path)
        raise ScenarioFailure(f"unknown {kind} `{name}`", line, col, "scenario/unknown-name")


def _execute(doc: Document, game: Game, result: Result) -> None:
    data, run = doc.data, doc.data["run"]
    expected_error = next((e["error"] for e in data.get("expect") or []
                           if isinstance(e, dict) and "error" in e), None)
    expected_reason = next((e["reason"] for e in data.get("expect") or []
                            if isinstance(e, dict) and "reason" in e), None)
    expected_args = next((e["reason_args"] for e in data.get("expect") or []
                          if isinstance(e, dict) and "reason_args" in e), None)
    try:
        _start(doc, game, run)
        _decide(doc, game, result, expected_error)
    except LudexError as exc:
        if expected_error and exc.code == expected_error:
            said = exc.diagnostics[0].message
            if expected_reason is not None and expected_reason not in said.split():
                raise ScenarioFailure(f"expected error {expected_error} for `{expected_reason}`"
                                      f", got it for: {said}",
                                      _expect_line(doc, "error")) from None
            if expected_args is not None and not _same_args(
                    expected_args, getattr(exc, "reason_args", {})):
                raise ScenarioFailure(f"expected error {expected_error} with the arguments "
                                      f"{_json(expected_args)}, got it for: {said}",
                                      _expect_line(doc, "error")) from None
            _check(doc, game, result, skip_error=True)
            return
        if expected_error:
            raise ScenarioFailure(f"expected error {expected_error}, got {exc.code}: "
                                  f"{exc.diagnostics[0].message}",
                                  _expect_line(doc, "error")) from None
        raise
    if expected_error:
        raise ScenarioFailure(f"expected error {expected_error}, but the run succeeded",
                              _expect_line(doc, "error"))
    _check(doc, game, result)
    unused_dice(doc, game.view)


def _expect_line(doc: Document, key: str) -> int:
    for i, entry in enumerate(doc.data.get("expect") or []):
        if isinstance(entry, dict) and key in entry:
            return doc.pos(("expect", i))[0]
    return 1


def _start(doc: Document, game: Game, run: dict) -> None:
    d = game.definition
    power = run.get("power") or game.state["active"]
    if "phase" in run:
        if run["phase"] not in d.phase_specs:
            raise ScenarioFailure(f"unknown phase `{run['phase']}`", doc.pos(("run", "phase"))[0])
        seat = run.get("seat")
        if seat is not None:
            if "round" not in (doc.data.get("state") or {}):
                game.state["round"] = 1  # the phase's first round, unless the state says
            _check_resumable(doc, game, run["phase"], seat)
        game.run_phase(run["phase"], seat)
    elif "procedure" in run:
        name = run["procedure"]
        if name not in d.procedures:
            raise ScenarioFailure(f"unknown procedure `{name}`", doc.pos(("run", "procedure"))[0])
        params = d.procedure_params[name]
        args = run.get("args") or {}
        values = list(args) if isinstance(args, list) else [args.get(p) for p in params]
        procedure = d.procedures[name]
        game.run(name, lambda ctx: procedure(ctx, values), power)
    elif "action" in run:
        action = d.actions.get(run["action"])
        if action is None:
            raise ScenarioFailure(f"unknown action `{run['action']}`",
                                  doc.pos(("run", "action"))[0])
        game.run(run["action"], _offered_action(game, run["action"], run.get("card"), power),
                 power)
    elif "effect" in run:
        origin = origin_of(doc, ("run", "effect"))
        try:
            compiled, size = Compiler(d, str(doc.path), "scenario", source=False).program(
                parse_once(doc.trees, run["effect"], origin))
        except CompileError as exc:
            raise LudexError(exc.diagnostics) from None
        _note_compiled(d, run["effect"], expression=False)
        game.run("effect", lambda ctx: compiled(ctx, [None] * size), power)
    elif "turns" in run:
        # whole turns from the start of the sequence; play stops when the last one is over,
        # however many decisions it takes
        game.last_turn = game.state["turn"] + run["turns"] - 1
        game.stop_when_idle = False
        game.advance()
    else:
        raise ScenarioFailure("`run` names nothing to run", doc.pos(("run",))[0])


def _space_entries(space: str, block: dict) -> list[tuple[tuple, str, Any]]:
    """(path, key, value) of what a scenario sets in a space: `pieces`, and its markers —
    given beside `pieces` (`a: {control: red}`, as `ludex dump` writes them) or under
    `markers:` (`a: {markers: {control: red}}`, as the game's state holds them, which
    designers write too)."""
    entries = []
    for key, value in block.items():
        if key == "markers" and isinstance(value, dict):  # a marker's value is never a mapping
            entries += [(("state", "spaces", space, "markers", marker), marker, v)
                        for marker, v in value.items()]
        else:
            entries.append((("state", "spaces", space, key), key, value))
    return entries


def _offered_action(game: Game, action_id: str, card: str | None, power: str
                    ) -> Callable[[Context], None]:
    """The work of running an action by itself as a window would run it: refused, as the
    window refuses it, when the window would not offer it (the card is not where the action
    takes its cards from, or fails its card filter) — else a scenario could prove an action
    allowed that no player can take."""
    action = game.definition.actions[action_id]

    def work(ctx: Context) -> None:
        if not game.flow.offers(ctx, action_id, card, power):
            shown = f"{action_id}:{card}" if card else action_id
            window = action.get("window")
            file, line, col = game.definition.window_sources.get(window, ("<engine>", 1, 1))
            if ("card" in action) != bool(card):
                why = ("it is taken with a card: name one with `card:` beside `action:`"
                       if "card" in action else "it takes no card: leave out `card:`")
            else:
                why = ("where the action takes its cards from, or its card filter, rules it "
                       "out")
            raise Illegal("rules/illegal-action",
                          f"`{shown}` is not available now: a window would not offer it to "
                          f"{power} ({why})", Where(file, line, col, action_id))
        ctx.window = action.get("window") or action_id  # as at its window: `end_window()`
        action["run"](ctx, [card] if card else [])
    return work


def _check_resumable(doc: Document, game: Game, phase: str, seat: str) -> None:
    """A phase taken up at a seat's window: the seat is one of this game's (the first power
    of a seat) with the players it is played by, which only the run knows (validate checks
    that it names a power, that the phase has windows and a round is under way: _check_run)."""
    seats = [powers[0] for powers in game.state["seats"]]
    if seat not in seats:
        line, col = doc.pos(("run", "seat"))
        raise ScenarioFailure(f"`{seat}` has no seat of its own in this game (seats: "
                              f"{', '.join(seats)})", line, col, "scenario/bad-run")


def _decide(doc: Document, game: Game, result: Result, expected_error: str | None = None
            ) -> None:
    for i, step in enumerate(doc.data.get("decisions") or []):
        line = doc.pos(("decisions", i))[0]
        pending = game.pending
        if pending is None:
            raise ScenarioFailure(f"decision {i + 1} was scripted, but nothing is being asked "
                                  f"(the run {'ended' if game.is_terminal() else 'finished'})",
                                  line)
        if "who" in step and step["who"] != pending.who:
            raise ScenarioFailure(f"decision {i + 1}: expected {step['who']} to decide, but "
                                  f"the question is for {pending.who}: {_describe(game)}",
                                  line)
        if "question" in step and step["question"] != pending.prompt:
            raise ScenarioFailure(f"decision {i + 1}: expected question `{step['question']}`, "
                                  f"actual: {_describe(game)}", line)
        if "question_args" in step and not _same_args(step["question_args"],
                                                      pending.prompt_args):
            raise ScenarioFailure(f"decision {i + 1}: expected the question's arguments "
                                  f"{_json(step['question_args'])}, actual: {_describe(game)}",
                                  line)
        _check_offered(game, step, f"decision {i + 1}: ", line)
        answer = step["choose"]
        if pending.mode != "one" and not isinstance(answer, list):
            answer = [answer]
        answered = len(game.history)
        try:
            game.apply(answer)
        except LudexError as exc:
            taken = len(game.history) > answered
            if not taken:
                result.refused = answer
            if expected_error is not None and exc.code == expected_error:
                raise  # a refusal the scenario expects; nothing changed
            if not isinstance(exc, Illegal):
                # a bug of the content, not a refusal: shown at its place, once (listing the
                # legal options would only meet it again), then the decision that met it
                shown = f"decision {i + 1} (`{answer_text(answer)}`)"
                if taken:
                    result.decisions.append(answer)
                else:
                    result.refused, result.met = None, answer
                said = "was taken, then the rules failed" if taken else "met this error"
                raise RulesBroke(exc, f"{shown} {said}; {_describe(game, pending, listing=False)}",
                                 line) from None
            said = f"{exc.code}: {exc.diagnostics[0].message}; {_describe(game, pending)}"
            if expected_error is not None:
                raise ScenarioFailure(f"expected error {expected_error}, got {said} (at "
                                      f"decision {i + 1}, `{answer_text(answer)}`)",
                                      _expect_line(doc, "error")) from None
            if taken:  # taken: what failed came after it
                result.decisions.append(answer)
                said = f"{exc.code}: {exc.diagnostics[0].message}{_at(exc)}"
                raise ScenarioFailure(f"decision {i + 1} (`{answer_text(answer)}`) was taken, "
                                      f"then the rules failed: {said}", line) from None
            raise ScenarioFailure(f"decision {i + 1} (`{answer_text(answer)}`) was refused: {said}",
                                  line) from None
        result.decisions.append(answer)


def _at(exc: LudexError) -> str:
    """Where in content a rule error was raised, for a failure that names it: the scenario's
    own line says only which decision it followed (`… [in unos], at procedures.yaml:38:45`)."""
    first = exc.diagnostics[0]
    return "" if first.file.startswith("<") else f", at {first.file}:{first.line}:{first.col}"


def _check_offered(game: Game, entry: dict, said: str, line: int) -> None:
    """`options` (exactly these, any order), `includes` and `excludes` of the pending question:
    in an expectation, or in a decision, checked before its answer is given (what must not be
    offered at a question half-way through an action)."""
    if not {"options", "includes", "excludes"} & entry.keys():
        return
    actual = game.legal_actions()
    if "options" in entry and sorted(map(_key, actual)) != sorted(map(_key, entry["options"])):
        raise ScenarioFailure(f"{said}expected options {_json(entry['options'])}, "
                              f"actual {_json(actual)}", line)
    offered = set(map(_key, actual))
    missing = [o for o in entry.get("includes") or [] if _key(o) not in offered]
    forbidden = [o for o in entry.get("excludes") or [] if _key(o) in offered]
    if missing or forbidden:
        found = ([f"not offered: {_json(missing)}"] if missing else []) + (
            [f"offered though excluded: {_json(forbidden)}"] if forbidden else [])
        raise ScenarioFailure(said + "; ".join(found) + f", actual options {_json(actual)}",
                              line)


def _describe(game: Game, decision=None, listing: bool = True) -> str:
    """The question (the pending one by default) and its legal options — those a scenario
    can script — with the ones offered but refused now named apart; all it offered when it
    is no longer pending (an answer to it was kept, then the rules broke) or when telling
    which are legal is not wanted (`listing=False`: it would meet a content error again)."""
    decision = decision or game.pending
    shown = f" with {_json(list(decision.prompt_args.values()))}" if decision.prompt_args \
        else ""
    picks = {"one": "pick one", "exactly": f"pick exactly {decision.count}",
             "up_to": f"pick up to {decision.count}"}.get(decision.mode, decision.mode)
    asked = f"{decision.who} is asked `{decision.prompt}` ({picks}){shown}"
    if decision is not game.pending or not listing:
        return f"{asked}, options {_json(decision.options)}"
    try:
        legal = game.legal_actions()
    except LudexError as exc:  # the listing itself breaks: show what is offered, and why
        return (f"{asked}, options {_json(decision.options)} (which of them are legal could "
                f"not be told: {exc.diagnostics[0].message})")
    if decision.mode != "one" or len(legal) == len(decision.options):
        return f"{asked}, options {_json(legal)}"
    refused = [o for o in decision.options if o not in legal]
    return f"{asked}, legal options {_json(legal)} (refused now: {_json(refused)})"


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _said(value: Any) -> str:
    """A value found by an expectation, in the effect language's words: `none`, `true`,
    `false` (JSON's `null` was not a word the designer or the engine uses), texts quoted."""
    if value is None:
        return "none"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(map(_said, value)) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_said(k)}: {_said(v)}" for k, v in value.items()) + "}"
    return json.dumps(value, ensure_ascii=False, default=str)


def _check(doc: Document, game: Game, result: Result, skip_error: bool = False) -> None:
    expectations = doc.data.get("expect") or []
    asks_about_pending = any(isinstance(e, dict) and bool({"options", "includes", "excludes",
                                                          "who"} & e.keys())
                             for e in expectations)
    if game.pending is not None and not asks_about_pending and not skip_error:
        raise ScenarioFailure(
            "ran out of scripted decisions: " + _describe(game) + f" (answer it under "
            f"`decisions`, or, to stop at it, expect `{{who: {game.pending.who}}}` or its "
            "`options`)",
                              doc.key_pos(("decisions",))[0] if "decisions" in doc.data
                              else doc.pos(("run",))[0])
    localizer = game.definition.localizer()
    for i, entry in enumerate(expectations):
        line = doc.pos(("expect", i))[0]
        if isinstance(entry, str):
            if not _evaluate(doc, game, ("expect", i), entry):
                raise ScenarioFailure(f"expected `{entry}` to hold; "
                                      f"{_why_false(doc, game, entry)}", line)
            continue
        if "value" in entry:
            actual = _evaluate(doc, game, ("expect", i, "value"), entry["value"])
            if actual != entry.get("equals"):
                raise ScenarioFailure(f"`{entry['value']}`: expected "
                                      f"{_said(entry.get('equals'))}, actual "
                                      f"{_said(actual)}", line)
        # who is asked first: the options of another's question would only mislead
        if "who" in entry and (game.pending is None or game.pending.who != entry["who"]):
            actual = game.pending.who if game.pending else "nobody"
            raise ScenarioFailure(f"expected {entry['who']} to be deciding, actual {actual}",
                                  line)
        if {"options", "includes", "excludes"} & entry.keys():
            if game.pending is None:
                raise ScenarioFailure("expected a pending decision; nothing is being asked", line)
            _check_offered(game, entry, "", line)
        if "log" in entry:
            lines = [localizer.log_line(e) for e in game.view["log"]]
            if entry["log"] not in lines:
                shown = "\n    ".join(lines[-8:]) or "(empty)"
                raise ScenarioFailure(f"expected the log line `{entry['log']}`; last lines:\n"
                                      f"    {shown}", line)
        if "log_tail" in entry:
            lines = [localizer.log_line(e) for e in game.view["log"]]
            want = list(entry["log_tail"])
            if lines[len(lines) - len(want):] != want or len(lines) < len(want):
                shown = "\n    ".join(lines[-max(len(want), 1) - 2:]) or "(empty)"
                raise ScenarioFailure(f"expected the log to end with {_json(want)}; "
                                      f"last lines:\n    {shown}", line)
        if "ended" in entry:
            wanted = entry["ended"]
            if isinstance(wanted, bool) and game.is_terminal() != wanted:
                raise ScenarioFailure(f"expected ended={wanted}, actual "
                                      f"{game.is_terminal()} ({game.state['ended']})", line)
            if not isinstance(wanted, bool) and game.state["ended"] != wanted:
                raise ScenarioFailure(f"expected the game to end with `{wanted}`, actual "
                                      + (f"`{game.state['ended']}`" if game.is_terminal()
                                         else "not ended"), line)
        if "ended_args" in entry:
            given = game.state.get("ended_args") or {}
            if not game.is_terminal() or not _same_args(entry["ended_args"], given):
                raise ScenarioFailure(f"expected the game to end with the arguments "
                                      f"{_json(entry['ended_args'])}, actual "
                                      + (_json(list(given.values())) if game.is_terminal()
                                         else "not ended"), line)
        if "winner" in entry:
            _check_winner(game, entry["winner"], line)


def _check_winner(game: Game, wanted: str | list[str], line: int) -> None:
    """`winner:` a power, `draw`, or the list of powers that won together (any order)."""
    winners = game.winners()
    if not game.is_terminal():
        actual = "nobody (no end)"
    elif not winners:
        actual = "nobody: lost together" if game.cooperative else "draw"
    else:
        actual = winners[0] if len(winners) == 1 else winners
    matches = game.is_terminal() and sorted(wanted) == sorted(winners) \
        if isinstance(wanted, list) else actual == wanted
    if not matches:
        shown = "won together by " + ", ".join(actual) if isinstance(actual, list) else actual
        said = wanted if wanted != [] else "nobody (`[]`: lost together)" \
            if game.cooperative else "nobody (`[]`)"
        raise ScenarioFailure(f"expected winner {said}, actual {shown}{_standing(game)}", line)


def _standing(game: Game) -> str:
    """The scores behind a winner, and how the game ended: what a designer checks first when
    the winner is not the one expected (a tie the rules broke, an end come early)."""
    said = []
    if game.definition.score is not None:
        said.append("scores " + ", ".join(f"{p} {v}" for p, v in game.scores().items()))
    if game.is_terminal() and game.state.get("ended"):
        said.append(f"ended: {game.state['ended']}")
    return f" ({'; '.join(said)})" if said else ""


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _same_args(wanted: list, given: dict[str, Any]) -> bool:
    """Whether a message's arguments (`{"a0": …}`: a prompt's, a reason's) are the values a
    scenario lists, in order and of the same type (`1` is not `true`)."""
    return _key(list(wanted)) == _key(list(given.values()))


def _evaluate(doc: Document, game: Game, path: tuple, text: str) -> Any:
    origin = origin_of(doc, path)
    try:
        run, size = Compiler(game.definition, str(doc.path), "expect", source=False).expression(
            parse_once(doc.trees, text, origin, expression=True))
    except CompileError as exc:
        raise LudexError(exc.diagnostics) from None
    _note_compiled(game.definition, text, expression=True)
    ctx = looking(game.definition, game.view, me=game.state["active"])
    return run(ctx, [None] * size)


def _why_false(doc: Document, game: Game, text: str) -> str:
    """What a failed condition found: "it is 8" when it compares one value with a constant
    (`count(…) == 7`); else "it does not", with the actual values behind it — both sides of
    the comparison that failed, the value under a `not` — and, in an `and`, the part that is
    false, quoted (a designer had to guess which part the values were of)."""
    compiler = Compiler(game.definition, str(doc.path), "expect", source=False)
    ctx = looking(game.definition, game.view, me=game.state["active"])

    def value(node: ast.Node) -> Any:
        run, size = compiler.expression(node)
        return run(ctx, [None] * size)

    def shown(node: ast.Node) -> str:
        return _said(value(node))

    def found(node: ast.Node) -> str:
        if isinstance(node, ast.Compare) and isinstance(node.right, ast.Literal) \
                and not isinstance(node.left, ast.Literal):
            return f"it is {shown(node.left)}"
        if isinstance(node, ast.Compare):
            return f"left side {shown(node.left)}, right side {shown(node.right)}"
        if isinstance(node, ast.Not):
            return f"the negated part is {shown(node.operand)}"
        return ""

    try:
        # parsed here from the text itself, so that a part's place is its place in the text
        tree = parse(text, expression=True)
        part, end = tree, len(text)
        while isinstance(part, ast.BoolOp) and part.op == "and":
            if not value(part.left):
                part, end = part.left, _offset(text, part.op_line, part.op_col)
            else:
                part = part.right
        said = found(part)
        if part is tree:
            return said if said.startswith("it is ") else \
                "it does not" + (f" ({said})" if said else "")
        quoted = _part_of(text, _offset(text, part.line, part.col), end)
        return f"it does not: `{quoted}` is false" + (f" ({said})" if said else "")
    except (CompileError, LudexError):
        return "it does not"


def _offset(text: str, line: int, col: int) -> int:
    """Where (line, col), both from 1, stands in `text`."""
    lines = text.split("\n")
    return sum(len(earlier) + 1 for earlier in lines[:line - 1]) + col - 1


def _part_of(text: str, start: int, end: int) -> str:
    """The part of a condition written from `start` to `end` (where the `and` after it
    stands, or the text's end), without the closing brackets of a group it ends."""
    part = " ".join(text[start:end].split())
    while part.endswith(")") and part.count(")") > part.count("("):
        part = part[:-1].rstrip()
    return part


def discover_scenarios(paths: list[Path]) -> list[Path]:
    """The scenario files among `paths`: a file as given; in a folder, every YAML file that
    is or looks like a scenario (`folders.looks_like_scenario`), so that configuration files
    lying beside them are left alone."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(p for p in sorted(path.rglob("*.y*ml"))
                         if p.suffix in (".yaml", ".yml") and looks_like_scenario(p)
                         and not any(part.startswith(".") for part in p.relative_to(path).parts))
        else:
            found.append(path)
    return found


class StepBeyondDecisions(ValueError):
    """`--step N` of a scenario with fewer than N decisions (a usage error, not content's)."""


def game_at_step(path: Path, step: int | None) -> Game:
    """The game of a scenario after its first `step` decisions (all of them when None);
    raises StepBeyondDecisions when it has fewer than `step` (the drawing or the dump would
    silently be of another moment than the one asked for)."""
    errors = Collector()
    doc = load_file(path, errors)
    if doc is not None and not errors:  # the steps below assume the scenario's shape
        schemas.validate(doc, schemas.Validators().get("scenario"), errors)
    if doc is None or errors:
        raise LudexError(errors.sorted())
    given = len(doc.data.get("decisions") or [])
    if step is not None and step > given:
        raise StepBeyondDecisions(f"{path} has {given} decision{'' if given == 1 else 's'}, "
                                  f"not {step}")
    written = _written_errors(doc)  # as `validate` and `test` refuse it
    if written:
        raise LudexError(written)
    try:
        game = _prepare(doc)
        _start(doc, game, doc.data["run"])
    except ScenarioFailure as failure:
        raise LudexError(Diagnostic(str(path), failure.line, failure.col, failure.code,
                                    str(failure))) from None
    for answer in (doc.data.get("decisions") or [])[:step]:
        game.apply(answer["choose"])
    return game


_BROKEN = object()  # a game that did not load, in check_scenario's `games`


def _game_name(doc: Document) -> str:
    """The game a scenario names, by its id (`game: ..` says nothing to a reader)."""
    from .folders import discover

    try:
        # a manifest with no id yet (an empty game.yaml): its folder's name
        folder = scenario_game(doc)
        return discover(folder).game_id or folder.resolve().name
    except (UnknownGame, OSError):
        return str(doc.data["game"])


def _unchecked_place(doc: Document, folder: Path | None) -> tuple[str, int, int]:
    """Where to say that a broken game's scenarios are not checked: at the game's manifest,
    its `id` (the game is what to fix, and no scenario is more to blame than another: the
    warning was pinned to whichever sorted first, a designer's trial); at the scenario's
    `game:` when the manifest cannot be read."""
    from .resources import display_path

    manifest = folder / "game.yaml" if folder is not None else None
    loaded = load_file(manifest, Collector()) if manifest is not None and manifest.is_file() \
        else None
    if loaded is None:
        return (str(doc.path), *doc.pos(("game",)))
    return (str(display_path(manifest)), *loaded.pos(("id",)))  # 1:1 with no `id` yet


def check_scenario(doc: Document, errors: Collector, games: dict | None = None,
                   texts: bool = True) -> None:
    """Static checks of a schema-valid scenario, for `ludex validate`: its game, the names in
    its state and `run`, its clause ids, and (`texts`) that every expectation and effect
    compiles — a run compiles them anyway, so a scenario about to be run is checked without.
    `games`, when given, keeps the game each `game:` (from each folder) names, for the next
    scenarios checked in the same command."""
    name = str(doc.path)
    named = (str(doc.data["game"]), doc.path.parent)
    folder = None
    try:
        d = games.get(named) if games is not None else None
        if d is _BROKEN:  # said at the first of its scenarios
            return
        if d is None:
            folder = scenario_game(doc)
            # the same game named another way (`..` and its id): said once all the same
            if games is not None and games.get(("folder", str(folder))) is _BROKEN:
                games[named] = _BROKEN
                return
            d, _ = _definition(folder, play=False)
            if games is not None:
                games[named] = d
    except UnknownGame as exc:
        line, col = doc.pos(("game",))
        errors.error(name, line, col, "scenario/unknown-game", str(exc))
        return
    except LudexError as exc:
        errors.extend(exc.diagnostics)
        if games is not None:
            games[named] = games[("folder", str(folder))] = _BROKEN
        # said once: else their own mistakes show up only once the game is fixed
        errors.warning(*_unchecked_place(doc, getattr(exc, "folder", folder)),
                       "scenario/unchecked",
                       f"scenarios of `{_game_name(doc)}` are not checked against it while it "
                       "has errors: fix those first, then their names, clauses and texts are "
                       "checked")
        return
    settings = doc.data.get("settings") or {}
    known_settings = ["players", *(x["id"] for x in d.manifest.get("settings") or [])]
    for key, value in settings.items():
        line, col = doc.key_pos(("settings", key))
        if key not in known_settings:
            errors.error(name, line, col, "scenario/unknown-name", f"unknown setting `{key}`"
                         + did_you_mean(key, known_settings))
        elif key == "players" and str(value) not in d.manifest["seats"]:
            line, col = doc.pos(("settings", key))
            errors.error(name, line, col, "rules/player-count",
                         f"{d.game_id} is played by {player_counts(d.manifest['seats'])} "
                         "players")
        elif key != "players":
            try:
                check_settings(d, {key: value})
            except LudexError as exc:  # of another type than the game declares
                line, col = doc.pos(("settings", key))
                errors.error(name, line, col, exc.diagnostics[0].code,
                             exc.diagnostics[0].message)
    for path, kind, known, value in _state_names(doc, d):
        line, col = doc.key_pos(path)
        errors.error(name, line, col, "scenario/unknown-name",
                     f"unknown {kind} `{value}`" + unknown_hint(d, kind, value, known))
    _check_state_shapes(doc, d, errors)
    for path, message in [*option_mistakes(doc, d), *ending_mistakes(doc, d),
                          *refusal_mistakes(doc, d), *question_mistakes(doc, d)]:
        line, col = doc.pos(path)
        errors.error(name, line, col, "scenario/unknown-name", message)
    for path, message in argument_mistakes(doc, d):
        line, col = doc.pos(path)
        errors.error(name, line, col, "scenario/argument-count", message)
    winners = [*d.power_ids, "draw"]
    cooperative = bool(d.manifest.get("cooperative"))
    for i, entry in enumerate(doc.data.get("expect") or []):
        if isinstance(entry, dict) and "value" in entry and "equals" not in entry:
            line, col = doc.pos(("expect", i))
            errors.error(name, line, col, "scenario/missing-key",
                         "`value` needs `equals`: the value it must come to")
        named = entry.get("winner") if isinstance(entry, dict) else None
        if named == "draw" and cooperative:
            line, col = doc.pos(("expect", i, "winner"))
            errors.error(name, line, col, "scenario/unknown-name",
                         "a cooperative game has no draw: a game that ends with nobody winning "
                         "is lost together; write `winner: []`")
            continue
        for j, power in enumerate(named if isinstance(named, list) else [named]):
            if power is None or (power in winners and (power != "draw" or named == power)):
                continue
            path = ("expect", i, "winner") + ((j,) if isinstance(named, list) else ())
            line, col = doc.pos(path)
            if power == "draw":  # in a list: those who won together
                errors.error(name, line, col, "scenario/unknown-name",
                             "a list of winners names the powers that won together: `draw` "
                             "(nobody won) cannot be one of them")
                continue
            errors.error(name, line, col, "scenario/unknown-name",
                         f"the winner is a power or `draw`, not `{power}`"
                         + did_you_mean(str(power), winners))
    check_clauses(doc, d, errors)
    run = doc.data.get("run") or {}
    for key, table in (("phase", d.phase_specs), ("procedure", d.procedures),
                       ("action", d.actions)):
        if key in run and run[key] not in table:
            line, col = doc.pos(("run", key))
            errors.error(name, line, col, "scenario/unknown-name",
                         f"unknown {key} `{run[key]}`" + did_you_mean(run[key], table))
    if run.get("procedure") in d.procedure_params:
        _check_arguments(doc, d.procedure_params[run["procedure"]], errors)
    _check_run(doc, d, errors)
    if texts:
        _check_texts(doc, d, errors)


def _check_texts(doc: Document, d: GameDef, errors: Collector) -> None:
    """Every expectation and the `run` effect parse, compile, only look, and type-check."""
    name, run = str(doc.path), doc.data.get("run") or {}
    texts = [(("run", "effect"), run["effect"], False)] if "effect" in run else []
    for i, entry in enumerate(doc.data.get("expect") or []):
        if isinstance(entry, str):
            texts.append((("expect", i), entry, True))
        elif isinstance(entry, dict) and "value" in entry:
            texts.append((("expect", i, "value"), entry["value"], True))
    trees = []
    for path, text, expression in texts:
        origin = origin_of(doc, path, name)
        try:
            tree = parse_once(doc.trees, text, origin, expression=expression)
            trees.append(tree)
            for call in changing_calls(tree, d.procedure_params) if expression else ():
                errors.error(name, call.line, call.col, "effect/verb-in-expression",
                             f"`{call.name}` changes the game: an expectation may only look")
            if not _compiled_before(d, text, expression):  # a run compiled it: it compiles
                compiler = Compiler(d, name, "scenario", source=False)  # only checked here
                compiler.expression(tree) if expression else compiler.program(tree)
            check_types(d, [Source(tree, name, "scenario")], errors)
        except CompileError as exc:
            errors.extend(exc.diagnostics)
        except LudexError as exc:
            errors.extend(exc.diagnostics)
    _check_memory_keys(name, trees, d, errors)


def _check_memory_keys(name: str, trees: list, d: GameDef, errors: Collector) -> None:
    """`recalled("takr")` in an expectation, where the game's memory keys are all known (its
    manifest declares them, or its rules name every one as a text): none whatever the rules
    did, so the expectation tests nothing the rules keep (`effect/unknown-memory`, as in the
    rules, with "did you mean"). A key the scenario's own `run` effect keeps is known too."""
    keys = vocabulary(d).memory
    if keys is None:
        return
    sources = [Source(tree, name, "scenario") for tree in trees]
    if d.memory_types is None:
        kept = memory_keys(sources)
        if kept.writes_worked_out:
            return
        keys = {*keys, *kept.written}
    for node in (n for source in sources for n in walk(source.tree)):
        if isinstance(node, ast.Call) and node.name in ("recalled", "remember") and node.args:
            key = node.args[0]
            if isinstance(key, ast.Literal) and isinstance(key.value, str) \
                    and key.value not in keys:
                errors.error(name, key.line, key.col, "effect/unknown-memory",
                             f'the game keeps nothing under "{key.value}" (its memory keys: '
                             f'{", ".join(sorted(keys)) or "none"}), so `{node.name}'
                             f'("{key.value}")` is always none' + did_you_mean(key.value, keys))


def _note_compiled(d: GameDef, text: str, expression: bool) -> None:
    """A scenario's text compiled against `d` without error. Whether a text compiles depends
    on the text and the game alone, so checking the scenario after its run (`ludex check`)
    need not compile it again."""
    d.analysis_memo[("scenario text compiles", text, expression)] = True


def _compiled_before(d: GameDef, text: str, expression: bool) -> bool:
    return ("scenario text compiles", text, expression) in d.analysis_memo


def check_clauses(doc: Document, d: GameDef, errors: Collector) -> None:
    """Each clause id in the scenario's `rules` is one of its game's clauses (a game that
    declares none takes any). `ludex validate` and `ludex test` both ask this, so that they
    agree on which ids are valid."""
    known_clauses = set(d.locales.get(d.language, {}).get("clauses", {}))
    for i, clause in enumerate(doc.data.get("rules") or []):
        if known_clauses and clause not in known_clauses:
            line, col = doc.pos(("rules", i))
            errors.error(str(doc.path), line, col, "scenario/unknown-clause",
                         f"`{clause}` is not a clause of {d.game_id}"
                         + did_you_mean(clause, known_clauses))


def scenario_rules(path: Path) -> list[str]:
    """The clause ids a scenario file names."""
    doc = load_file(path, Collector())
    return list((doc.data or {}).get("rules") or []) if doc is not None else []
