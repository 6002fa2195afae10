"""Where `end_window()` can never work, known before play: it ends the action window of the
action that calls it, and the sequence of play runs some effects outside every action — a
phase's effect, a phase's `start`, `end`, `after_round` and `after_window`, the game's `setup`.
Called there it is `rules/no-window` the moment play reaches it; here it is reported at load,
at its line.

As with `me` (me_checks.py), only what is certain is reported: a call in such an effect, and in
a procedure called from such places and from nowhere else (followed through procedures). One
call from anywhere else — an action, a card's event or ability, a trigger (it may fire while an
action runs), a zone's `empty` (a draw inside an action) — may run inside an action, and is
left alone.
"""

from __future__ import annotations

from . import ast
from .errors import Collector
from .me_checks import OTHER, called_only_from_roots, note_calls
from .static_checks import nodes


def check_end_window_outside_actions(definition, errors: Collector) -> None:
    """`rules/no-window` at each `end_window()` that certainly runs outside every action."""
    d = definition
    bodies = {("procedure", name): found for name, found in d.procedure_trees.items()}
    named = {key[1]: key for key in bodies}
    callers: dict[tuple, set[tuple]] = {key: set() for key in bodies}

    def runs(name, caller: tuple) -> None:
        if isinstance(name, str) and name in named:
            callers[named[name]].add(caller)

    outside = []  # (what runs it, its tree, its file): phase effects
    seen = {id(tree) for tree, _, _ in bodies.values()}
    for phase_id, spec in d.phase_specs.items():
        compiled = d.phases.get(phase_id)
        if compiled is not None and compiled.tree is not None:
            seen.add(id(compiled.tree))
            said = f"phase `{phase_id}`'s effect"
            outside.append((said, compiled.tree, compiled.where.file))
            note_calls(compiled.tree, ("phase", said), named, callers, d.analysis_memo)
        for field in ("start", "end", "after_round", "after_window"):
            runs(spec.get(field), ("run", f"phase `{phase_id}`'s `{field}`"))
    runs(d.manifest.get("setup"), ("run", "the game's `setup`"))
    for zone in d.zones.values():
        runs(zone.get("empty"), OTHER)
    for source in d.sources:
        if id(source.tree) not in seen:
            note_calls(source.tree, OTHER, named, callers, d.analysis_memo)
    for key, (tree, _, _) in bodies.items():
        note_calls(tree, key, named, callers, d.analysis_memo)
    for said, tree, file in outside:
        _report(tree, file, f"{said} runs outside every action", errors, d.analysis_memo)
    for key in sorted(called_only_from_roots(callers)):
        tree, file, _ = bodies[key]
        places = sorted({c[1] for c in callers[key] if c[0] in ("phase", "run")}
                        | {f"procedure `{c[1]}`" for c in callers[key]
                           if c[0] == "procedure" and c != key})
        _report(tree, file, f"procedure `{key[1]}` runs only outside every action "
                f"({'; '.join(places)})", errors, d.analysis_memo)


def _report(tree, file: str, why: str, errors: Collector, memo: dict) -> None:
    for node in nodes(tree, memo):
        if isinstance(node, ast.Call) and node.name == "end_window":
            errors.error(file, node.line, node.col, "rules/no-window",
                         f"`end_window()` ends the window of the action that calls it, and "
                         f"{why}: call it from an action (or a card or procedure an action "
                         "runs), or end the phase another way")
