"""Imperium played by random agents to its end, for many seeds: every game ends (collapse or
an exhausted market), never with an error — the path of `ludex play imperium --agents random`."""

from __future__ import annotations

import pytest

from ludex.agents import RandomAgent, play
from ludex.engine import Game, load_definition


@pytest.fixture(scope="module")
def imperium():
    return load_definition("imperium")


def test_two_hundred_three_player_games_play_to_their_end(imperium):
    definition, start = imperium
    failures, endings = [], set()
    for seed in range(200):
        try:
            game = play(Game(definition, start, players=3, seed=seed), {None: RandomAgent(seed)})
        except Exception as exc:
            failures.append((seed, repr(exc)[:200]))
            continue
        assert game.is_terminal()
        endings.add(game.state["ended"])
        assert game.winner() in {"celts", "persians", "macedonians"}
    assert failures == []
    assert {"collapse", "market_exhausted"} <= endings


@pytest.mark.parametrize("players", [2, 4])
def test_other_player_counts_play_to_their_end(imperium, players):
    definition, start = imperium
    for seed in range(20):
        game = play(Game(definition, start, players=players, seed=seed), {None: RandomAgent(seed)})
        assert game.is_terminal()
