"""observe(): a player's view of the game hides what the zones' visibility hides (other hands,
every deck), the generator's state, and other powers' options; it is plain data and a copy."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from ludex.agents import RandomAgent, step
from ludex.engine import Game, load_definition
from ludex.observation import observe

GAMES = Path(__file__).parent / "games"


@pytest.fixture(scope="module")
def imperium() -> Game:
    definition, start = load_definition("imperium")
    return Game(definition, start, seed=1)


def unseen_cards(game: Game, seen: dict) -> list[str]:
    """Instances that exist in the game but that the observation does not describe."""
    return [card for card in game.view["cards"] if card not in seen["cards"]]


def test_a_power_sees_its_own_hand_and_only_the_size_of_another_powers_hand(imperium):
    seen = observe(imperium, "celts")
    hands = seen["zones"]["hand"]
    assert hands["celts"]["cards"] == imperium.view["zones"]["hand"]["celts"]
    assert hands["persians"] == {"count": 5, "cards": []}


def test_nobody_sees_the_cards_of_a_hidden_deck_only_how_many_there_are(imperium):
    for viewer in ("celts", "persians", None):
        decks = observe(imperium, viewer)["zones"]["deck"]
        assert all(pile["cards"] == [] for pile in decks.values())
        assert decks["celts"]["count"] == len(imperium.view["zones"]["deck"]["celts"])


def test_an_unseen_cards_id_appears_nowhere_in_the_observation(imperium):
    seen = observe(imperium, "celts")
    text = json.dumps(seen)
    hidden = unseen_cards(imperium, seen)
    assert "persians_elders" in hidden  # a card of another power's hand
    assert [card for card in hidden if f'"{card}"' in text] == []


def test_public_zones_are_seen_by_everyone_including_a_spectator(imperium):
    spectator = observe(imperium, None)
    assert spectator["zones"]["state_card"]["persians"]["cards"] == ["persians_state"]
    assert "persians_state" in spectator["cards"]
    assert all(p["cards"] == [] for p in spectator["zones"]["hand"].values())


def test_the_generator_and_the_engines_bookkeeping_are_not_observed(imperium):
    seen = observe(imperium, "celts")
    assert not {"rng", "seed", "flow", "trigger_values"} & seen.keys()


def test_the_options_are_shown_to_the_power_asked_and_to_no_other(imperium):
    asked = imperium.pending.who
    other = next(p for p in imperium.view["zones"]["hand"] if p != asked)
    assert observe(imperium, asked)["pending"]["options"] == imperium.legal_actions()
    assert "options" not in observe(imperium, other)["pending"]
    assert observe(imperium, other)["pending"]["who"] == asked


def test_a_player_holding_several_powers_sees_what_each_of_them_sees():
    definition, start = load_definition("sword_of_rome")
    game = Game(definition, start, seed=2)
    seat = ["romans", "gauls"]  # as a seat holding two powers is observed
    hands = observe(game, seat)["zones"]["hand"]
    assert all(hands[p]["cards"] == game.view["zones"]["hand"][p] != [] for p in seat)
    alone = observe(game, "romans")["zones"]["hand"]
    assert alone["gauls"] == {"count": len(game.view["zones"]["hand"]["gauls"]), "cards": []}


def test_in_a_shared_zone_seen_by_owners_each_power_sees_only_its_own_cards(tmp_path):
    folder = tmp_path / "tiny"
    shutil.copytree(GAMES / "tiny", folder)
    manifest = folder / "game.yaml"
    manifest.write_text(manifest.read_text().replace("- {id: market}",
                                                     "- {id: market, visibility: owner}"))
    cards = folder / "cards" / "tiny_cards.yaml"
    cards.write_text(cards.read_text().replace("{id: stray, value: 1, zone: market}",
                                               "{id: stray, owner: blue, value: 1, zone: market}"))
    definition, start = load_definition(folder)
    game = Game(definition, start, seed=1)
    assert observe(game, "blue")["zones"]["market"][""]["cards"] == ["stray"]
    assert observe(game, "red")["zones"]["market"][""] == {"count": 1, "cards": []}


def test_the_observation_is_plain_data_and_changing_it_changes_nothing(imperium):
    seen = observe(imperium, "celts")
    before = json.dumps(imperium.view, sort_keys=True)
    assert json.loads(json.dumps(seen)) == seen
    seen["zones"]["hand"]["celts"]["cards"].clear()
    seen["counters"].clear()
    seen["cards"]["celts_state"]["tokens"]["action"] = 99
    assert json.dumps(imperium.view, sort_keys=True) == before


def test_what_is_observed_follows_the_game_as_it_is_played():
    definition, start = load_definition(GAMES / "tiny")
    game, agent = Game(definition, start, seed=5), RandomAgent(5)
    for _ in range(12):
        if game.is_terminal():
            break
        step(game, agent)
        for power in ("red", "blue"):
            seen = observe(game, power)
            assert seen["turn"] == game.view["turn"] and seen["log"] == game.view["log"]
            hand = game.view["zones"]["hand"][power]
            assert seen["zones"]["hand"][power] == {"count": len(hand), "cards": hand}
            assert all(f'"{c}"' not in json.dumps(seen) for c in unseen_cards(game, seen)
                       if c not in json.dumps(game.view["log"]))


def test_a_counter_seen_by_its_owner_only_is_hidden_from_the_others_everywhere(
        sealed_bid_wagers):
    """A designer's sealed bids were counters, and every counter was shown to every seat:
    the bids of the round could be read before choosing. `visibility: owner` hides a power's
    value from the others in observations, at the table and on the board."""
    from ludex.table.board import Board
    from ludex.table.view import table_view
    from ludex.validate import validate_paths

    folder = sealed_bid_wagers
    manifest = folder / "game.yaml"
    definition, start = load_definition(folder)
    game = Game(definition, start, seed=1)
    assert observe(game, "north")["counters"]["bid"] == {"north": 7}
    assert observe(game, None)["counters"]["bid"] == {}
    assert observe(game, "north")["counters"]["points"] == {"north": 0, "south": 0}
    text = definition.localizer()
    powers = {p["id"]: p["counters"] for p in table_view(game, text, 0, [])["powers"]}
    assert "Sealed bid" in powers["north"] and "Sealed bid" not in powers["south"]
    everything = {p["id"]: p["counters"] for p in table_view(game, text, None, [])["powers"]}
    assert "Sealed bid" in everything["south"]  # the designer's view of everything
    assert "Sealed bid" not in Board(definition).svg(game.view, text)

    manifest.write_text(manifest.read_text().replace(
        "{id: bid, per: power, visibility: owner", "{id: bid, per: game, visibility: owner"))
    codes = [d.code for d in validate_paths([folder]).diagnostics if d.is_error]
    assert codes == ["content/ignored-field"]
