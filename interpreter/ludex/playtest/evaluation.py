"""How a position looks to the powers of one seat, from the game's own data: the manifest's
`heuristic` (or, without one, its `scores`), a seat's best power against the best power of any
other seat."""

from __future__ import annotations

from ..engine import Game
from ..errors import LudexError
from ..runtime import Context


class MeasureBroke(LudexError):
    """The game's `heuristic` (or, standing in for it, its `scores`) broke a rule while a
    look-ahead agent weighed a position. A content error like any other, placed at the
    heuristic: the agents' guards that rank a sampled game that broke a rule last must let it
    through, or a heuristic that never works would go unnoticed and the agent play blind."""


def seat_of(game: Game, power: str | None) -> int:
    """The index of the seat holding `power` (a power no player holds: the first seat)."""
    for index, seat in enumerate(game.state["seats"]):
        if power in seat:
            return index
    return 0


def winning_seats(game: Game) -> set[int]:
    """The seats holding a power that won (several for a shared win; none when the winner
    is a power no player holds — the game beating its players — or nobody won)."""
    winners = set(game.winners())
    return {index for index, seat in enumerate(game.state["seats"]) if winners & set(seat)}


def values(game: Game, state: dict | None = None) -> list[float]:
    """One number per seat: its best power's heuristic value (higher is better), in the game
    as it stands or in `state`, one it may come to (Game.state_after)."""
    definition = game.definition
    measure = definition.heuristic or definition.score
    if measure is None:
        return [0.0 for _ in game.state["seats"]]
    ctx = Context(definition, game.view if state is None else state)
    result = []
    for seat in game.state["seats"]:
        best = None
        for power in seat:
            ctx.steps = 0  # each power's value has the whole step budget
            try:
                value = measure(ctx, [power])
            except LudexError as exc:
                raise MeasureBroke(exc.diagnostics) from None
            best = value if best is None else max(best, value)
        result.append(float(best or 0))
    return result


def advantage(game: Game, seat: int, state: dict | None = None) -> float:
    """The seat's value minus the best other seat's: what a greedy player maximises; in a
    cooperative game (the manifest's `cooperative`), its own value: the other seats are on
    its side, and the difference would be 0 whatever they did together."""
    scores = values(game, state)
    if game.definition.manifest.get("cooperative"):
        return scores[seat]
    others = [v for i, v in enumerate(scores) if i != seat]
    return scores[seat] - (max(others) if others else 0.0)


def rewards(game: Game) -> list[float]:
    """A result per seat in [0, 1]: 1 to each winner's seat when the game is over (all the
    seats of a shared win; shared equally on a draw; none when a power no player holds won,
    nor when the players of a cooperative game lost together),
    otherwise to the seats leading on the heuristic (shared on a tie)."""
    seats = len(game.state["seats"])
    if game.is_terminal():
        winners = game.winners()
        if not winners:  # a draw shares the point; a cooperative game's is lost by all
            return [0.0 if game.cooperative else 1.0 / seats] * seats
        won = winning_seats(game)
        return [1.0 if index in won else 0.0 for index in range(seats)]
    scores = values(game)
    best = max(scores)
    leaders = [i for i, v in enumerate(scores) if v == best]
    return [1.0 / len(leaders) if i in leaders else 0.0 for i in range(seats)]
