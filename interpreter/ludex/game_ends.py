"""Whether a game can end at all: by its last turn (`turns`), by the manifest's `until`, or by
an `end_game` in its rules. A phase's `until` ends the phase, not the game: a designer who
wrote "until the pile is empty" on the phase alone got a sequence of play that came round to
the ended phase without end, stopped as a runaway at run time (a designer's trial)."""

from __future__ import annotations

from . import ast
from .errors import Collector
from .static_checks import _UNPARSED, Source, nodes, walk


def check_game_ends(manifest, sources: list[Source], errors: Collector) -> None:
    """A warning at the manifest's `sequence` when nothing can end the game."""
    data = manifest.data if isinstance(manifest.data, dict) else {}
    if not data.get("sequence") or data.get("turns") or data.get("until"):
        return
    if any(d.is_error and d.code in _UNPARSED for d in errors.diagnostics):
        return  # an `end_game` may be in an effect that did not parse
    for source in sources:
        if any(isinstance(node, ast.Call) and node.name == "end_game"
               for node in walk(source.tree)):
            return
    line, col = manifest.key_pos(("sequence",))
    errors.warning(str(manifest.path), line, col, "content/no-end",
                   "nothing ends this game: the manifest has no `turns` and no `until`, and no "
                   "rule calls `end_game`, so play would go round the sequence without end "
                   "(a phase's `until` ends the phase, not the game): give the manifest "
                   '`turns: N` or `until: "…"`, or end it with `end_game("reason")`')


def check_shared_wins(definition, sources: list[Source], errors: Collector) -> None:
    """A warning at `set_winners(powers())` in a game that some numbers of players leave powers
    unplayed in: `powers()` names those too, so they win together with the players (a
    designer's cooperative game made two crews nobody played winners); `player_powers()`
    names the powers players hold."""
    seats = definition.manifest.get("seats") or {}
    every = set(definition.power_ids)
    if not isinstance(seats, dict) or all(
            isinstance(seating, list) and {p for seat in seating if isinstance(seat, list)
                                           for p in seat} == every
            for seating in seats.values()):
        return
    for source in sources:
        for node in nodes(source.tree, definition.analysis_memo):
            if isinstance(node, ast.Call) and node.name == "set_winners" and node.args \
                    and isinstance(node.args[0], ast.Call) and node.args[0].name == "powers" \
                    and not node.args[0].args:
                errors.warning(source.file, node.args[0].line, node.args[0].col,
                               "effect/unplayed-winners",
                               "`powers()` names every power of the game, those no player "
                               "holds with fewer players too: they would win together with the "
                               "players; `player_powers()` names the powers players hold")
