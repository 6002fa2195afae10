"""The Sword of Rome played by random agents: whole turns of the written phases, for many
seeds, never an error (the same code path as `ludex play sword_of_rome --agents random`)."""

from __future__ import annotations

import pytest

from ludex.agents import RandomAgent, step
from ludex.engine import Game, load_definition


@pytest.fixture(scope="module")
def sword_of_rome():
    return load_definition("sword_of_rome")


def play_turns(definition, start, seed: int, players: int, turns: int) -> Game:
    game = Game(definition, start, players=players, seed=seed)
    agent = RandomAgent(seed)
    while not game.is_terminal() and game.state["turn"] <= turns:
        step(game, agent)
    return game


def test_two_hundred_seeds_play_a_whole_five_player_turn_without_error(sword_of_rome):
    definition, start = sword_of_rome
    failures = []
    for seed in range(200):
        try:
            game = play_turns(definition, start, seed, players=5, turns=1)
        except Exception as exc:
            failures.append((seed, repr(exc)[:200]))
            continue
        assert game.state["turn"] == 2 or game.is_terminal()
    assert failures == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_smaller_games_play_two_turns(sword_of_rome, players):
    definition, start = sword_of_rome
    for seed in range(10):
        game = play_turns(definition, start, seed, players=players, turns=2)
        assert game.state["turn"] == 3


def test_a_whole_game_reaches_its_last_turn(sword_of_rome):
    definition, start = sword_of_rome
    game = play_turns(definition, start, seed=42, players=5, turns=99)
    assert game.is_terminal() and game.state["ended"] == "last_turn"
    assert game.state["turn"] == 9
