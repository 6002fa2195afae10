"""`ludex dump` writes a game's state as a scenario; run, that scenario must start from the very
state it was dumped from — counters, flags, spaces, every card's place, the tokens on it, the
cards under it and its owner, and what the rules remembered. A dump that lost the tokens on
Imperium's market cards quietly made another game."""

from __future__ import annotations

from pathlib import Path

import pytest

from ludex.agents import RandomAgent, step
from ludex.dump import dump_yaml, scenario_from
from ludex.engine import Game, load_definition
from ludex.loading import scenario_file
from ludex.scenario import _prepare, run_scenario

PARTS = ("turn", "round", "phase", "active", "counters", "flags", "spaces", "zones", "cards")


def dumped_and_prepared(game: Game, folder: Path, name: str) -> dict:
    path = folder / f"{name}.yaml"
    path.write_text(dump_yaml(scenario_from(game, rules=["ANY"])), encoding="utf-8")
    return _prepare(scenario_file(path).doc).state


@pytest.mark.parametrize(("game_id", "players", "seeds"), [
    ("imperium", 3, range(4)), ("sword_of_rome", 5, range(1))])
def test_a_dumped_state_is_the_state_it_was_dumped_from(tmp_path, game_id, players, seeds):
    definition, start = load_definition(game_id)
    compared = 0
    for seed in seeds:
        game, agent = Game(definition, start, players=players, seed=seed), RandomAgent(seed)
        decisions = 0
        while not game.is_terminal() and game.pending is not None and decisions < 400:
            if decisions % 37 == 5:
                view = game.view
                state = dumped_and_prepared(game, tmp_path, f"{game_id}_{seed}_{decisions}")
                for part in PARTS:
                    assert state[part] == view[part], (part, decisions)
                assert (state.get("memory") or {}) == (view.get("memory") or {}), decisions
                compared += 1
            step(game, agent)
            decisions += 1
    assert compared >= 5


def test_a_scenario_lays_tokens_cards_under_a_card_an_owner_and_what_was_remembered(tmp_path):
    path = tmp_path / "case.yaml"
    path.write_text("""\
game: imperium
name: a market card with coins on it and an Unrest card under it
rules: [IMP-ACQUIRE-b]
settings: {players: 2}
state:
  zones:
    market_civilised: [market_town]
  cards:
    market_town: {tokens: {coins: 2}, under: [unrest#1]}
    celts_elders: {owner: persians}
  memory: {moment: event}
run: {effect: "pass"}
expect:
  - 'tokens(market_town, "coins") == 2'
  - 'under(market_town) == ["unrest#1"]'
  - 'not ("unrest#1" in cards(unrest_pile))'
  - "owner_of(celts_elders) == persians"
  - 'recalled("moment") == "event"'
""", encoding="utf-8")
    result = run_scenario(path)
    assert result.passed, result.report()
