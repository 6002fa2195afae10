"""The fused shapes of fastpaths.py are only a faster way to the same result: whole games
played with and without them, same seeds and agents, end in identical states and logs.
(tests/test_language.py runs every language case both ways too.)"""

from __future__ import annotations

import json

import pytest

from ludex.agents import RandomAgent, step
from ludex.engine import Game, load_definition


def play(definition, start, seed: int, players: int) -> tuple[list, str]:
    game = Game(definition, start, players=players, seed=seed)
    agent, answers = RandomAgent(seed), []
    while not game.is_terminal() and game.pending is not None and game.state["turn"] <= 3:
        answers.append(step(game, agent))
    return answers, json.dumps(game.state, sort_keys=True)


@pytest.mark.parametrize(("game_id", "players"), [("sword_of_rome", 5), ("imperium", 3)])
def test_games_play_the_same_with_and_without_fast_paths(game_id, players):
    fast, start = load_definition(game_id)
    general, _ = load_definition(game_id, fast_paths=False)
    assert fast.fast_paths and not general.fast_paths
    for seed in range(6):
        assert play(fast, start, seed, players) == play(general, start, seed, players), seed
