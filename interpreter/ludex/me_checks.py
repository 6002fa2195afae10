"""Where `me` is none, known before play: a phase's effect without `each` runs once, for no
power, and so do the procedures the sequence of play runs by itself (a phase's `start`, `end`
and `after_round`, the game's `setup`). `me` read there is `none` — a log line said "None", a
counter went unchanged — and nothing complained; a `choose` without `by`, which asks `me`,
asked nobody.

Only what is certain is reported: `me` in such an effect, and in a procedure or function that
is called from such places and from nowhere else (the calls followed through procedures and
functions). One run from anywhere else — an action, a card, a trigger, a phase with `each`, a
zone's `empty`, an `after_window` — may run with a power, and is left alone; so is an effect
that binds a local of its own named `me`.
"""

from __future__ import annotations

from . import ast
from .errors import Collector
from .static_checks import nodes

OTHER = ("other", "")  # a caller that may run with a power: an action, a card, a trigger…
# what binds a local name, and so could hide the context's `me`
_BINDERS = (ast.Let, ast.For, ast.Choose, ast.Comprehension)


def check_me_is_none(definition, errors: Collector) -> None:
    """`effect/me-is-none` at each `me` read where it is certainly none."""
    d = definition
    bodies = {("procedure", name): found for name, found in d.procedure_trees.items()}
    bodies.update({("function", name): found for name, found in d.function_trees.items()})
    named = {key[1]: key for key in bodies}  # a call's name -> the body it runs
    callers: dict[tuple, set[tuple]] = {key: set() for key in bodies}

    def runs(name, caller: tuple) -> None:  # the engine runs a procedure a field names
        if isinstance(name, str) and name in named:
            callers[named[name]].add(caller)

    powerless = []  # (phase id, its effect's tree, its file): phases without `each`
    seen = {id(tree) for tree, _, _ in bodies.values()}
    for phase_id, spec in d.phase_specs.items():
        compiled = d.phases.get(phase_id)
        if compiled is not None and compiled.tree is not None:
            seen.add(id(compiled.tree))
            if "each" in spec:
                note_calls(compiled.tree, OTHER, named, callers, d.analysis_memo)
            else:
                powerless.append((phase_id, compiled.tree, compiled.where.file))
                note_calls(compiled.tree, ("phase", phase_id), named, callers, d.analysis_memo)
        for field in ("start", "end", "after_round"):
            runs(spec.get(field), ("run", f"phase `{phase_id}`'s `{field}`"))
        runs(spec.get("after_window"), OTHER)  # with the seat's power
    runs(d.manifest.get("setup"), ("run", "the game's `setup`"))
    for zone in d.zones.values():
        runs(zone.get("empty"), OTHER)  # by a draw, for whoever draws
    for source in d.sources:
        if id(source.tree) not in seen:  # an action, a card, a trigger, a score…
            note_calls(source.tree, OTHER, named, callers, d.analysis_memo)
    for key, (tree, _, _) in bodies.items():
        note_calls(tree, key, named, callers, d.analysis_memo)
    for phase_id, tree, file in powerless:
        _report(tree, file, (), _phase_said(phase_id), errors, d.analysis_memo)
    for key in sorted(called_only_from_roots(callers)):
        tree, file, params = bodies[key]
        _report(tree, file, params, _body_said(key, callers), errors, d.analysis_memo)


def note_calls(tree, caller: tuple, named: dict, callers: dict, memo: dict | None = None
               ) -> None:
    """`caller` noted as a caller of each body its tree calls (`memo`: static_checks.nodes)."""
    for node in nodes(tree, memo):
        if isinstance(node, ast.Call) and node.name in named:
            callers[named[node.name]].add(caller)


def called_only_from_roots(callers: dict[tuple, set[tuple]]) -> set[tuple]:
    """The procedures and functions that run, and run only, without a power: called from a
    phase without `each` or run by the sequence of play by itself, or from another such body,
    and from nowhere else."""
    roots = ("phase", "run")
    reached = {key for key, by in callers.items() if any(c[0] in roots for c in by)}
    grown = True
    while grown:  # what those call, and what that calls…
        more = {key for key, by in callers.items() if key not in reached and by & reached}
        reached |= more
        grown = bool(more)
    only = {key for key in reached if OTHER not in callers[key]}
    shrunk = True
    while shrunk:  # …but not a body that another way in may give a power
        fewer = {key for key in only if any(c[0] not in roots and c not in only
                                            for c in callers[key])}
        only -= fewer
        shrunk = bool(fewer)
    return only


def _report(tree, file: str, params, why: str, errors: Collector, memo: dict) -> None:
    """Each `me` read in the tree, and each `choose` without `by` (it asks `me`)."""
    found = nodes(tree, memo)
    if "me" in params or any(isinstance(node, _BINDERS) and node.name == "me"
                             for node in found):
        return
    for node in found:
        if isinstance(node, ast.Name) and node.name == "me":
            errors.error(file, node.line, node.col, "effect/me-is-none",
                         f"`me` is none here: {why}")
        elif isinstance(node, ast.Choose) and node.chooser is None:
            errors.error(file, node.line, node.col, "effect/me-is-none",
                         f"`choose` without `by` asks `me`, which is none here: {why}, or "
                         "say who chooses (`by p`)")


def _phase_said(phase_id: str) -> str:
    return (f"phase `{phase_id}` has no `each`, so its effect runs once, for no power; give "
            "the phase `each: power` (or `player_power`, `seat`) to run it once per power "
            "with `me` that power, or name the power: loop over them "
            "(`for p in player_powers():`)")


def _body_said(key: tuple, callers: dict[tuple, set[tuple]]) -> str:
    kind, name = key
    places = sorted({f"phase `{c[1]}`'s effect, which has no `each`" if c[0] == "phase"
                     else c[1] if c[0] == "run" else f"{c[0]} `{c[1]}`, itself run only so"
                     for c in callers[key] if c != key})
    if any(c[0] == "run" for c in callers[key]):
        # run by name (the game's `setup`, a phase's `before`…): nothing passes it arguments
        how = ("name the power: loop over them (`for p in player_powers():`) and use `p`, or "
               "run it from a phase with `each`")
    else:
        how = "give it the power as a parameter, and pass it where it is called"
    return (f"{kind} `{name}` runs only where no power is acting ({'; '.join(places)}); "
            + how)
