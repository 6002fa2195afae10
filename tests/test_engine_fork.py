"""`Game.fork`: an independent copy at the pending decision, which agents that look ahead
answer freely. A fork goes on exactly as the game would, its answers never reach the game, and
an edit of the pending unit's start state (a re-deal of what a player cannot see) replays the
unit's answers on the edited state."""

from __future__ import annotations

import json

import pytest

from ludex.agents import RandomAgent, agents_by_power, seat_agents, step
from ludex.engine import Game, load_definition


def _text(state: dict) -> str:
    return json.dumps(state, sort_keys=True, default=repr)


@pytest.fixture(scope="module", params=["imperium", "sword_of_rome"])
def played(request):
    """A whole game with random agents, and forks taken along the way."""
    definition, start = load_definition(request.param)
    game = Game(definition, start, seed=11)
    agents = agents_by_power(game, seat_agents(["random"], len(game.state["seats"]), 11))
    forks = []
    while not game.is_terminal():
        if len(game.history) % 29 == 3:
            forks.append((game.fork(), len(game.history), _text(game.view), game.pending))
        step(game, agents.get(game.pending.who) or agents[None])
    return game, forks


def test_a_fork_stands_where_the_game_stood_and_goes_on_exactly_as_it_did(played):
    game, forks = played
    assert forks
    for fork, given, view, pending in forks:
        assert _text(fork.view) == view and fork.pending == pending
        for answer in game.history[given:]:
            fork.apply(answer)
        assert fork.is_terminal()
        assert _text(fork.state) == _text(game.state)


def test_answering_a_fork_leaves_the_game_untouched():
    definition, start = load_definition("imperium")
    game = Game(definition, start, seed=3)
    before, pending = _text(game.view), game.pending
    fork = game.fork()
    agent = RandomAgent(1)
    for _ in range(10):
        step(fork, agent)
    assert _text(game.view) == before and game.pending == pending and game.history == []


def test_forks_of_a_fork_keep_checkpoints_and_agree_with_the_game():
    definition, start = load_definition("sword_of_rome")
    game = Game(definition, start, seed=2)
    agent = RandomAgent(2)
    for _ in range(120):
        step(game, agent)
    fork = game.fork()
    for _ in range(40):
        step(fork, agent)
        assert _text(fork.fork().view) == _text(fork.view)


def test_an_edit_of_the_unit_start_is_replayed_with_the_units_answers():
    definition, start = load_definition("imperium")
    game = Game(definition, start, seed=4)
    counter = next(iter(game.state["counters"]))

    def edit(state):
        for power in state["counters"][counter]:
            state["counters"][counter][power] += 5

    fork = game.fork(edit=edit)
    assert all(fork.view["counters"][counter][p] >= game.view["counters"][counter][p] + 5
               for p in game.view["counters"][counter])
    assert fork.history == game.history
