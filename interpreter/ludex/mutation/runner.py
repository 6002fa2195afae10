"""Mutation testing of a game's content: alter one thing, run the game's scenarios, and see
whether any of them notices.

A mutant is killed when some scenario fails (or stops with an error) against the altered game,
and survives when every scenario still passes: a survivor is a reading of the rules that no
scenario tells apart from the right one. Mutants come from every effect and condition (see
`operators.py`) and from the cells of the game's tables. A mutant judged equivalent to the
original — no game could ever tell them apart — is marked in the game's `clauses.yaml` under
`equivalent_mutants`, with the reason, and is then reported as such instead of surviving.
"""

from __future__ import annotations

import copy
import re
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

from .. import ast
from ..content import LoadedGame, load_game
from ..errors import Collector, Diagnostic
from ..folders import discover
from ..gamedef import GameDef, build_definition
from ..ranges import misread_bounds, range_column
from ..scenario import discover_scenarios, run_scenario
from ..schemas import Validators
from ..static_checks import walk
from ..yamlio import load_file
from .operators import mutations, neighbours

# the kinds of id a careless reader may take one for another (a zone for a zone, a power for a
# power); a setting or a table misread is a different text, not a slip of the eye
MISREAD_KINDS = ("power", "space", "zone", "counter", "flag", "piece", "marker", "card")


@dataclass(frozen=True)
class Mutant:
    index: int
    file: str  # as the game's documents name it
    place: str  # `file:line:col`, the file relative to the game folder
    line: int
    col: int
    description: str
    rule: str  # the procedure, phase, action, card… or table it alters
    clauses: tuple[str, ...]

    def as_dict(self) -> dict:
        return {"file": self.file, "line": self.line, "col": self.col, "place": self.place,
                "mutation": self.description, "rule": self.rule, "clauses": list(self.clauses)}


@dataclass
class Outcome:
    mutant: Mutant
    status: str  # killed / survived / equivalent / invalid / not run
    detail: str = ""  # the scenario that killed it, the reason it is equivalent…

    def as_dict(self) -> dict:
        return {**self.mutant.as_dict(), "status": self.status, "detail": self.detail}


@dataclass
class Report:
    game: str
    outcomes: list[Outcome] = field(default_factory=list)
    seconds: float = 0.0
    # equivalent-mutant marks that match no mutant any more (warnings, at the mark)
    stale_marks: list[Diagnostic] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(o.status == status for o in self.outcomes)

    @property
    def survivors(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.status == "survived"]

    def as_dict(self) -> dict:
        return {"game": self.game, "generated": len(self.outcomes),
                **{s.replace(" ", "_"): self.count(s)
                   for s in ("killed", "survived", "equivalent", "invalid", "not run")},
                "seconds": round(self.seconds, 1),
                "stale_marks": [d.as_dict() for d in self.stale_marks],
                "mutants": [o.as_dict() for o in self.outcomes]}


@dataclass(frozen=True)
class _Site:
    """One effect or condition of the game, as parsed."""

    file: str
    path: tuple
    rule: str
    clauses: tuple[str, ...]
    tree: ast.Node


@dataclass(frozen=True)
class _Change:
    """How to make one mutant: a tree for one site, or a new value at one place of a file's
    data (a table's cell, the number of turns, whether an action is free)."""

    site: tuple[str, tuple] | None = None
    tree: ast.Node | None = None
    # (document kind, path in its data, new value), one or more (a bound two ranges share)
    data: tuple[tuple, ...] | None = None


def _steering_only(sites: list[tuple[tuple, dict, ast.Node]]) -> set[str]:
    """The content functions that only the heuristic calls, directly or through one another:
    like the heuristic, they steer look-ahead agents and no scenario can see them. `sites`:
    (path, entry, syntax tree) of every compiled text."""
    bodies: dict[str, set[str]] = {}
    reached: set[str] = set()
    for path, entry, tree in sites:
        calls = {node.name for node in walk(tree) if isinstance(node, ast.Call)}
        if path[0] == "functions":
            bodies.setdefault(str(entry.get("id")), set()).update(calls)
        elif path != ("heuristic",):
            reached |= calls
    steering_from = {f for path, _, tree in sites if path == ("heuristic",)
                     for f in (n.name for n in walk(tree) if isinstance(n, ast.Call))}
    to_visit = list(reached)
    while to_visit:  # what the rules call, and what those functions call in turn
        for called in bodies.get(to_visit.pop(), ()):
            if called not in reached:
                reached.add(called)
                to_visit.append(called)
    steered, to_visit = set(), [f for f in steering_from if f in bodies]
    while to_visit:
        name = to_visit.pop()
        if name in steered or name in reached:
            continue
        steered.add(name)
        to_visit.extend(f for f in bodies[name] if f in bodies)
    return steered


class MutationRun:
    """A game loaded once, its mutants, and the scenarios that judge them."""

    def __init__(self, folder: Path):
        self.files = discover(folder)
        self.game: LoadedGame = load_game(self.files, Collector(), Validators())
        self.sites = list(self._sites())
        self.scenarios = self._scenarios()
        self.equivalent = self._equivalent_marks()
        self._mutants: list[tuple[Mutant, _Change]] | None = None

    # -- what can be mutated ---------------------------------------------------------------
    def _sites(self) -> Iterator[_Site]:
        found: list[tuple[str, tuple, ast.Node]] = []

        def record(file: str, path: tuple, tree: ast.Node) -> ast.Node:
            found.append((file, path, tree))
            return tree

        definition = build_definition(self.game, Collector(), rewrite=record)
        self.neighbours = neighbours({kind: definition.ids(kind) for kind in MISREAD_KINDS})
        self.kind_texts = neighbours({"connection kind": list(definition.connection_kinds)})
        documents = {str(doc.path): doc for doc in self.game.all_docs()}

        def entry_of(file: str, path: tuple) -> dict:
            data = documents[file].data
            return data[path[0]][path[1]] if len(path) > 1 else data  # `scores:` has no entry

        steering = _steering_only([(path, entry_of(file, path), tree)
                                   for file, path, tree in found])
        seen = set()
        for file, path, tree in found:
            if (file, path) in seen or path == ("heuristic",):
                continue  # the heuristic only steers look-ahead agents: no scenario can see it
            entry = entry_of(file, path)
            if path[0] == "functions" and entry.get("id") in steering:
                continue  # and so do the functions only it calls
            seen.add((file, path))
            rule = str(entry.get("id", path[0])) if len(path) > 1 else str(path[0])
            if path[0] == "cards" and len(path) > 3:  # an ability: card.ability
                rule += "." + str(entry["abilities"][path[3]].get("id"))
            yield _Site(file, path, rule, _clause_ids(entry), tree)

    def mutants(self) -> list[tuple[Mutant, _Change]]:
        if self._mutants is None:
            self._mutants = []
            for site in self.sites:
                for m in mutations(site.tree, self.neighbours, self.kind_texts):
                    self._add(site.file, m.line, m.col, m.description, site.rule, site.clauses,
                              _Change(site=(site.file, site.path), tree=m.tree))
            self._table_mutants()
            self._parameter_mutants()
        return self._mutants

    def _table_mutants(self) -> None:
        """Each cell one more and one fewer (a switch flipped); in a range column, each bound
        two neighbouring rows share moved by one, both rows at once (ranges.misread_bounds)."""
        doc = self.game.docs.get("tables")
        if doc is None:
            return
        for t, table in enumerate(doc.data.get("tables") or []):
            rows = table.get("rows") or []
            ranged = range_column(table.get("columns") or {})
            for r, row in enumerate(rows):
                for column, value in row.items():
                    if column == ranged:
                        continue
                    for new in _cell_mutations(value):
                        line, col = doc.pos(("tables", t, "rows", r, column))
                        self._add(str(doc.path), line, col,
                                  f"table `{table['id']}` row {r + 1} `{column}`: "
                                  f"{_show(value)} → {_show(new)}",
                                  table["id"], _clause_ids(table),
                                  _Change(data=(("tables", ("tables", t, "rows", r, column),
                                                 new),)))
            if ranged is None:
                continue
            cells = [row.get(ranged) for row in rows]
            for i, new_i, j, new_j in misread_bounds(cells):
                line, col = doc.pos(("tables", t, "rows", i, ranged))
                self._add(str(doc.path), line, col,
                          f"table `{table['id']}` rows {i + 1} and {j + 1} `{ranged}`: "
                          f"{_show(cells[i])}, {_show(cells[j])} → {_show(new_i)}, "
                          f"{_show(new_j)}", table["id"], _clause_ids(table),
                          _Change(data=(("tables", ("tables", t, "rows", i, ranged), new_i),
                                        ("tables", ("tables", t, "rows", j, ranged), new_j))))

    def _parameter_mutants(self) -> None:
        """The rules' numbers and switches that are data, not code: how many turns the game
        lasts, how many rounds a phase has, whether a window may be passed (when `pass` is
        true or false, not a condition), whether an action is free, what a counter or a flag
        starts at (when the manifest says). A wrong one is as much a misreading as a wrong
        operator, and no effect's mutant makes it."""
        for kind, path, value, what, rule, clauses in self._parameters():
            doc = self.game.docs[kind]
            line, col = doc.pos(path) if _present(doc.data, path) else doc.pos(path[:-1])
            entry = doc.data
            for step in path[:-1]:
                entry = entry[step]
            for new in _parameter_mutations(path[-1], value, entry):
                self._add(str(doc.path), line, col, f"{what}: {_show(value)} → {_show(new)}",
                          rule, clauses, _Change(data=((kind, path, new),)))

    def _parameters(self) -> Iterator[tuple[str, tuple, object, str, str, tuple[str, ...]]]:
        """(document kind, path, value, what it is, rule, clauses) of every parameter."""
        manifest = self.game.docs.get("game")
        if manifest is not None and isinstance(manifest.data, dict):
            data = manifest.data
            if type(data.get("turns")) is int:
                yield "game", ("turns",), data["turns"], "`turns`", "game", ()
            for section in ("counters", "flags"):
                for i, entry in enumerate(data.get(section) or []):
                    if isinstance(entry, dict) and type(entry.get("initial")) in (int, bool):
                        yield ("game", (section, i, "initial"), entry["initial"],
                               f"{section[:-1]} `{entry.get('id')}` `initial`",
                               str(entry.get("id")), _clause_ids(entry))
        rules = self.game.docs.get("procedures")
        if rules is None or not isinstance(rules.data, dict):
            return
        for i, phase in enumerate(rules.data.get("phases") or []):
            if not isinstance(phase, dict):
                continue
            where, clauses = ("phases", i), _clause_ids(phase)
            if type(phase.get("rounds")) is int:
                yield ("procedures", (*where, "rounds"), phase["rounds"],
                       f"phase `{phase.get('id')}` `rounds`", str(phase.get("id")), clauses)
            if phase.get("window") and type(phase.get("pass", True)) is bool:
                yield ("procedures", (*where, "pass"), phase.get("pass", True),
                       f"phase `{phase.get('id')}` `pass`", str(phase.get("id")), clauses)
        for i, action in enumerate(rules.data.get("actions") or []):
            if isinstance(action, dict) and type(action.get("free", False)) is bool:
                yield ("procedures", ("actions", i, "free"), action.get("free", False),
                       f"action `{action.get('id')}` `free`", str(action.get("id")),
                       _clause_ids(action))

    def _add(self, file: str, line: int, col: int, description: str, rule: str,
             clauses: tuple[str, ...], change: _Change) -> None:
        relative = _relative(file, self.files.folder)
        mutant = Mutant(len(self._mutants), file, f"{relative}:{line}:{col}", line, col,
                        description, rule, clauses)
        self._mutants.append((mutant, change))

    # -- judging one mutant -----------------------------------------------------------------
    def evaluate(self, index: int) -> Outcome:
        mutant, change = self.mutants()[index]
        reason = self.equivalent.get((mutant.place, mutant.description))
        if reason is not None:
            return Outcome(mutant, "equivalent", reason)
        errors = Collector()
        try:
            definition = self._build(change, errors)
        except Exception as exc:  # an altered game that cannot even load
            return Outcome(mutant, "invalid", f"{type(exc).__name__}: {exc}")
        if errors:  # the first error explains it, not a warning of the game's own
            first = next(d for d in errors.sorted() if d.is_error)
            return Outcome(mutant, "invalid", first.headline())
        loaded = (definition, self._start())
        for path, _ in sorted(self.scenarios, key=lambda s: not set(s[1]) & set(mutant.clauses)):
            try:
                result = run_scenario(path, loaded)
            except Exception as exc:  # a crash is noticed too
                return Outcome(mutant, "killed", f"{path.name}: {type(exc).__name__}")
            if not result.passed:  # which scenario, and how: a refusal's code that changed
                # kills as surely as an option offered, and a designer weighs which it was
                said = result.message.splitlines()[0] if result.message else result.status
                return Outcome(mutant, "killed", f"{path.name}: {said[:300]}")
        return Outcome(mutant, "survived")

    def _build(self, change: _Change, errors: Collector) -> GameDef:
        if change.data is not None:
            # The definition keeps the data it is built from: build it from an altered copy.
            originals = {kind: self.game.docs[kind].data for kind, _, _ in change.data}
            for kind, original in originals.items():
                self.game.docs[kind].data = copy.deepcopy(original)
            for kind, path, value in change.data:
                *parents, key = path
                target = self.game.docs[kind].data
                for step in parents:
                    target = target[step]
                target[key] = value
            try:
                return build_definition(self.game, errors)
            finally:
                for kind, original in originals.items():
                    self.game.docs[kind].data = original
        target, tree = change.site, change.tree

        def swap(file: str, path: tuple, parsed: ast.Node) -> ast.Node:
            return tree if (file, path) == target else parsed

        return build_definition(self.game, errors, rewrite=swap)

    def _start(self) -> dict:
        spaces = self.game.data("map").get("spaces") or []
        return {s["id"]: copy.deepcopy(s.get("start") or {}) for s in spaces}

    # -- the scenarios and the marks --------------------------------------------------------
    def _scenarios(self) -> list[tuple[Path, tuple[str, ...]]]:
        found = []
        for path in discover_scenarios([self.files.scenarios]) \
                if self.files.scenarios.is_dir() else []:
            doc = load_file(path, Collector())
            data = doc.data if doc is not None and isinstance(doc.data, dict) else {}
            found.append((path, tuple(data.get("rules") or [])))
        return found

    def stale_marks(self) -> list[Diagnostic]:
        """The equivalent-mutant marks that match no mutant, each a warning at the mark: the
        rules they mark moved (a line added above them) or changed, and the mutant they meant
        is judged again (the warning names where a mutant of the same description is now);
        or the mark's place has mutants, but its text is none of theirs (the warning lists
        them)."""
        doc = self.game.docs.get("clauses")
        if doc is None:
            return []
        made: dict[str, list[str]] = {}
        made_at: dict[str, list[str]] = {}
        for mutant, _ in self.mutants():
            made.setdefault(mutant.description, []).append(mutant.place)
            made_at.setdefault(mutant.place, []).append(mutant.description)
        found = []
        for i, mark in enumerate(doc.data.get("equivalent_mutants") or []):
            if not isinstance(mark, dict):
                continue
            at, mutation = str(mark.get("at")), mark_text(mark.get("mutation"))
            if at in made.get(mutation, ()):
                continue
            line, col = doc.pos(("equivalent_mutants", i, "at"))
            found.append(Diagnostic(str(doc.path), line, col, "mutate/stale-mark",
                                    f"the mark of \"{mutation}\" at {at} matches "
                                    + self._why_unmatched(at, mutation, made, made_at),
                                    "warning"))
        return found

    def _why_unmatched(self, at: str, mutation: str, made: dict[str, list[str]],
                       made_at: dict[str, list[str]]) -> str:
        # nearest first: a line added above moves a mark a line or two, not to another rule
        # each place once: two mutants of one description may share a place
        places = sorted((p for p in dict.fromkeys(made.get(mutation, ()))
                         if (p, mutation) not in self.equivalent),
                        key=lambda place: _distance(at, place))
        if at in made_at:  # nothing moved: the text is not one `ludex mutate` made there
            there = made_at[at]
            shown = ", ".join(f"\"{d}\"" for d in there[:SHOWN_MUTATIONS]) + (
                f" and {len(there) - SHOWN_MUTATIONS} more" if len(there) > SHOWN_MUTATIONS
                else "")
            return (f"none of the mutations made there: {shown} (a mark's text is a survivor "
                    "line's, between `survived: ` and ` in `)"
                    + (f"; \"{mutation}\" is made at {', '.join(places[:3])}"
                       if places else ""))
        hint = f"; that mutation is now at {places[0]}: move the mark there" + (
            f" (it is also at {' and '.join(places[1:3])})" if len(places) > 1 else "") \
            if places else ""
        return f"no mutant: the rule it marks moved or changed{hint}"

    def _equivalent_marks(self) -> dict[tuple[str, str], str]:
        data = self.game.data("clauses")
        return {(str(m.get("at")), mark_text(m.get("mutation"))): str(m.get("reason", ""))
                for m in data.get("equivalent_mutants") or [] if isinstance(m, dict)}


SHOWN_MUTATIONS = 8  # of the mutations made at a mark's place, when none is the mark's

# What a survivor line (`…: survived: MUTATION in `rule` [CLAUSE, …]`) adds after the
# mutation: a mark's text copied with it still names the mutation. No mutation's own text
# ends this way (operators.py: they end in a value, `negated`, `deleted` or `swapped`).
_SURVIVOR_TAIL = re.compile(r"(?: in `[^`]+`)?(?: \[[^\]]*\])?$")


def mark_text(mutation: object) -> str:
    """The mutation a mark's `mutation:` names: its text, less the ` in `rule`` and
    ` [CLAUSES]` of the survivor line it may have been copied from."""
    return _SURVIVOR_TAIL.sub("", str(mutation).strip(), count=1)


def _distance(at: str, place: str) -> tuple:
    """How far a mutant's place (`file:line:col`) lies from a mark's: another file last; then
    a place in neither the mark's line nor its column (lines added or removed above move a
    mark down or up its column, an edit of its own line along the line: a place off both
    moved some other way); then by lines, then by columns."""
    def parts(text: str) -> tuple[str, int, int]:
        file, _, rest = text.rpartition(":")
        file, _, line = file.rpartition(":")
        try:
            return file, int(line), int(rest)
        except ValueError:
            return text, 0, 0

    (file, line, col), (there, other_line, other_col) = parts(at), parts(place)
    shifted = line == other_line or col == other_col
    return (file != there, not shifted, abs(line - other_line), abs(col - other_col))


def _clause_ids(entry: dict) -> tuple[str, ...]:
    clause = entry.get("clause") if isinstance(entry, dict) else None
    if isinstance(clause, str):
        return (clause,)
    return tuple(c for c in clause or () if isinstance(c, str))


def _parameter_mutations(name: str, value: object, entry: dict) -> list[object]:
    """A parameter's wrong readings: a switch flipped; a count one more and one fewer — but
    never below 1 for the counts of turns and rounds, nor outside a counter's `min` and `max`
    for where it starts (no reading of the rules, only content `validate` refuses)."""
    if name in ("turns", "rounds"):
        return [v for v in (value + 1, value - 1) if v >= 1]
    low, high = entry.get("min"), entry.get("max")
    return [v for v in _cell_mutations(value) if type(v) is bool or (
        (type(low) is not int or v >= low) and (type(high) is not int or v <= high))]


def _present(data: object, path: tuple) -> bool:
    """Whether the data has a value at `path` (a field left to its default has none: its
    mutant is reported at the entry that leaves it out)."""
    for step in path:
        held = (isinstance(data, dict) and step in data) or (
            isinstance(data, list) and isinstance(step, int) and step < len(data))
        if not held:
            return False
        data = data[step]
    return True


def _cell_mutations(value: object) -> list[object]:
    if type(value) is bool:
        return [not value]
    if type(value) is int:
        return [value + 1, value - 1]
    return []


def _show(value: object) -> str:
    return ("true" if value else "false") if type(value) is bool else str(value)


def _relative(file: str, folder: Path) -> str:
    try:
        return Path(file).resolve().relative_to(Path(folder).resolve()).as_posix()
    except ValueError:
        return file


# -- running many, in worker processes ----------------------------------------------------------

_WORKER: MutationRun | None = None


def _start_worker(folder: str) -> None:
    global _WORKER
    _WORKER = MutationRun(Path(folder))


def _evaluate_in_worker(index: int) -> Outcome:
    return _WORKER.evaluate(index)


def mutate(folder: Path, workers: int = 1, clauses: list[str] | None = None,
           budget: float | None = None,
           progress: Callable[[Outcome], None] | None = None) -> Report:
    """Generate the game's mutants (those touching `clauses`, when given) and judge each;
    stop judging after `budget` seconds (the rest are reported `not run`)."""
    started = time.perf_counter()
    _refuse_broken(folder)
    run = MutationRun(folder)
    _refuse_failing(run)
    chosen = [m for m, _ in run.mutants() if not clauses or set(clauses) & set(m.clauses)]
    outcomes: dict[int, Outcome] = {}

    def over_budget() -> bool:
        return budget is not None and time.perf_counter() - started > budget

    def done(outcome: Outcome) -> None:
        outcomes[outcome.mutant.index] = outcome
        if progress:
            progress(outcome)

    if workers <= 1:
        for mutant in chosen:
            if over_budget():
                break
            done(run.evaluate(mutant.index))
    else:
        _judge_in_parallel(folder, chosen, workers, over_budget, done)
    report = Report(run.game.game_id, stale_marks=run.stale_marks())
    report.outcomes = [outcomes.get(m.index) or Outcome(m, "not run") for m in chosen]
    report.seconds = time.perf_counter() - started
    return report


def _refuse_broken(folder: Path) -> None:
    """Content with errors fails every scenario: each mutant would seem killed. Its errors come
    first (LudexError, reported like any command meeting bad content)."""
    from ..errors import LudexError
    from ..validate import check_game

    _, diagnostics = check_game(discover(folder))
    errors = [d for d in diagnostics if d.severity == "error"]
    if errors:
        raise LudexError(errors)


def _refuse_failing(run: MutationRun) -> None:
    """A scenario that fails on the game as it is fails on every mutant too: each would seem
    killed by it, and the report would read clean. Such scenarios come first, each at its
    place (LudexError)."""
    from ..errors import LudexError

    failing = []
    for path, _ in run.scenarios:
        result = run_scenario(path)
        if not result.passed:
            # the whole failure: a log expectation's last lines follow its first line
            why = "\n  ".join((result.message or result.status).splitlines())
            failing.append(Diagnostic(str(path), result.line or 1, 1, "mutate/failing-scenario",
                                      "fails on the game as it is, so it would seem to kill "
                                      f"every mutant: make it pass first ({why})"))
    if failing:
        raise LudexError(failing)


def _judge_in_parallel(folder: Path, chosen: list[Mutant], workers: int,
                       over_budget: Callable[[], bool], done: Callable[[Outcome], None]
                       ) -> None:
    """A bounded number of mutants in flight, so that a budget or Ctrl-C stops promptly."""
    pending = iter(chosen)
    with ProcessPoolExecutor(max_workers=workers, initializer=_start_worker,
                             initargs=(str(folder),)) as pool:
        running = set()
        try:
            while True:
                while len(running) < workers * 4 and not over_budget():
                    mutant = next(pending, None)
                    if mutant is None:
                        break
                    running.add(pool.submit(_evaluate_in_worker, mutant.index))
                if not running:
                    break
                finished, running = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    done(future.result())
        except KeyboardInterrupt:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
