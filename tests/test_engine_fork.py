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


def _reference(game_id: str, seed: int, decisions: int) -> Game:
    """A game that keeps checkpoints, `decisions` answers into play with a random agent."""
    definition, start = load_definition(game_id)
    game = Game(definition, start, seed=seed)
    game.checkpoints = True
    agent = RandomAgent(seed)
    while len(game.history) < decisions and not game.is_terminal():
        step(game, agent)
    return game


@pytest.mark.parametrize("game_id", ["imperium", "sword_of_rome"])
def test_a_fast_fork_takes_over_the_units_run_and_agrees_with_a_replayed_one(game_id,
                                                                              monkeypatch):
    game = _reference(game_id, 5, 0)
    agent = RandomAgent(5)
    fast_ones = 0
    compared = 0
    while not game.is_terminal() and len(game.history) < 400:
        step(game, agent)
        if len(game.history) % 3:
            continue
        fast = game.fork()
        monkeypatch.setattr(Game, "fast_forks", False)
        replayed = game.fork()
        monkeypatch.setattr(Game, "fast_forks", True)
        assert (_text(fast.view), fast.pending, fast.history) \
            == (_text(replayed.view), replayed.pending, replayed.history) \
            == (_text(game.view), game.pending, game.history)
        compared += 1
        fast_ones += game._committed is not None
    assert compared > 15 and fast_ones > 10


@pytest.mark.parametrize("game_id", ["imperium", "sword_of_rome"])
def test_playing_a_fast_fork_to_its_end_never_changes_the_states_its_game_holds(game_id):
    """A fast fork shares the states its game's units left; playing it on (planning new
    phases included) must not write any of them."""
    game = _reference(game_id, 8, 90)
    assert game._committed  # the fork below takes the units run since the checkpoint over
    held = [(label, _text(state)) for label, state, _ in game._committed]
    view, checkpoint = _text(game.view), _text(game._checkpoint[0])
    fork = game.fork()
    agent = RandomAgent(99)
    while not fork.is_terminal() and len(fork.history) < 600:
        step(fork, agent)
    assert [(label, _text(state)) for label, state, _ in game._committed] == held
    assert _text(game.view) == view and _text(game._checkpoint[0]) == checkpoint
    # and the game itself goes on exactly as one never forked
    alone = _reference(game_id, 8, 90)
    for played in (game, alone):
        agent = RandomAgent(7)
        for _ in range(60):
            if not played.is_terminal():
                step(played, agent)
    assert _text(game.state) == _text(alone.state) and game.history == alone.history
