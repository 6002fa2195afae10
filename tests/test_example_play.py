"""The example game, Fair Weather, played by random agents to its end with three and with four
players: every game lasts its four days (14 tricks) and ends on the last day, with hands
played out; no day's forecasts add up to its tricks; a seated player wins."""

from __future__ import annotations

from pathlib import Path

import pytest

from ludex.agents import RandomAgent, play
from ludex.engine import Game, load_definition

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "fair_weather"


def forecast_totals(game: Game) -> list[int]:
    """The sum of each day's forecasts as the players made them (before any omen), from the log."""
    totals = []
    for entry in game.state["log"]:
        if entry["key"].startswith("dealt_"):
            totals.append(0)
        elif entry["key"] == "forecast_made":
            totals[-1] += entry["args"]["a1"]
    return totals


@pytest.fixture(scope="module")
def fair_weather():
    return load_definition(EXAMPLE)


@pytest.mark.parametrize("players, seats", [(3, {"north", "east", "south"}),
                                            (4, {"north", "east", "south", "west"})])
def test_random_games_last_four_days_keep_forecasts_off_the_tricks_and_a_seated_player_wins(
        fair_weather, players, seats):
    definition, start = fair_weather
    winners = set()
    for seed in range(25):
        game = play(Game(definition, start, players=players, seed=seed), {None: RandomAgent(seed)})
        assert game.state["ended"] == "last_day"
        assert game.state["turn"] == 14  # 5 + 4 + 3 + 2 tricks
        assert game.state["counters"]["day"] == 4
        assert all(not game.state["zones"]["hand"][p] for p in seats)
        assert all(total != cards for total, cards in zip(forecast_totals(game), [5, 4, 3, 2],
                                                          strict=True))
        winners.add(game.winner())
    assert winners <= seats and len(winners) >= 2
