"""Declared memory (memory_types.py) in play: a declared key starts with its `initial` value,
`remember` and `recalled` keep and read declared values, a saved game resumes with them, and
the game's editor schemas offer the declared keys and types. What validation reports about
memory is in tests/invalid (effect_memory_*, game_memory_*, scenario_memory_*)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from ludex.engine import Game, load_definition, replay

TRUMPS = Path(__file__).parent / "games" / "trumps"
TINY = Path(__file__).parent / "games" / "tiny"


@pytest.fixture(scope="module")
def trumps():
    return load_definition(TRUMPS)


def test_every_declared_key_starts_with_its_initial_value_or_none(trumps):
    definition, start = trumps
    game = Game(definition, start, seed=1)
    assert game.state["memory"] == {"trump": "coins", "led": None, "winning": None,
                                    "taker": None}


def test_the_first_card_of_a_trick_is_remembered_as_led_and_winning(trumps):
    definition, start = trumps
    game = Game(definition, start, seed=2)
    card = game.legal_actions()[0]
    game.apply(card)
    assert game.pending.who == "west"  # the trick is in play (seed 2: west has a choice)
    memory = game.state["memory"]
    assert memory["winning"] == card and memory["taker"] == "east"
    assert memory["led"] == definition.cards[card.split("#")[0]]["suit"]


def test_a_resumed_game_has_the_memory_it_was_saved_with(trumps):
    definition, start = trumps
    game = Game(definition, start, seed=4)
    game.apply(game.legal_actions()[0])
    assert game.pending.who == "west" and game.state["memory"]["led"] == "swords"
    saved = json.loads(json.dumps(game.save()))
    resumed = replay(definition, start, saved)
    assert resumed.state["memory"] == game.state["memory"]
    assert resumed.state["memory"]["taker"] == "east"


def test_a_whole_game_ends_with_the_last_trick_taker_remembered(trumps):
    definition, start = trumps
    game = Game(definition, start, seed=2)
    while game.pending is not None:
        game.apply(game.legal_actions()[0])
    assert game.state["memory"]["taker"] in ("east", "west")
    assert game.state["memory"]["led"] is None and game.state["memory"]["winning"] is None


def test_the_editor_schemas_offer_the_declared_keys_and_types():
    from ludex.editor_schemas import generated, load
    from ludex.folders import discover

    schemas = generated(load(discover(TRUMPS)))
    assert schemas["scenario"]["$defs"]["memory_id"]["enum"] == ["led", "taker", "trump",
                                                                 "winning"]
    types = schemas["game"]["$defs"]["memory_type_id"]["enum"]
    assert {"int", "card", "suit", "list", "list of suit"} <= set(types)
    assert "rank" not in types  # an attribute without an enum of texts is no type


def test_a_number_compared_with_a_text_is_reported_in_any_game(tmp_path):
    """`==` of values that are never equal, known without any declaration: a counter (a
    number) and a text."""
    from ludex.folders import discover
    from ludex.validate import check_game

    folder = tmp_path / "tiny"
    shutil.copytree(TINY, folder)
    procedures = folder / "procedures.yaml"
    procedures.write_text(procedures.read_text().replace(
        "procedures:\n", "procedures:\n  - id: ten\n    params: [p]\n    effect: |\n"
        "      if counter(score, p) == \"ten\":\n          gain(score, p, 1)\n", 1))
    _, diagnostics = check_game(discover(folder))
    assert [(d.code, d.message) for d in diagnostics] == [
        ("effect/type-error", "`==` compares a number with a text: they are never equal")]


def _mid_trick(trumps) -> Game:
    """East has led a card: west is asked, the suit led is kept in memory."""
    definition, start = trumps
    game = Game(definition, start, seed=2)
    game.apply(game.legal_actions()[0])
    assert game.pending.who == "west"
    return game


def test_only_the_memory_declared_public_is_observed_and_hidden_keys_stay_hidden(trumps):
    """trump and led are `visibility: public`; winning and taker (the rules' bookkeeping)
    are not, and neither is anything a game keeps without declaring it."""
    from ludex.observation import observe

    game = _mid_trick(trumps)
    led = game.view["memory"]["led"]
    assert observe(game, "west")["memory"] == {"trump": "coins", "led": led}
    assert observe(game, None)["memory"] == {"trump": "coins", "led": led}
    assert game.view["memory"]["winning"] is not None  # kept, but not shown
    definition, start = load_definition(TINY)
    assert observe(Game(definition, start, seed=1), "red")["memory"] == {}


def test_the_terminal_shows_the_public_memory_named_by_the_locale(trumps):
    """The trump suit decides every trick, yet a player at `ludex play` never saw it: the
    memory a game declares public is shown beside the game's counters, each key by its
    name in the player's language (`messages.trump`), a key holding nothing left out."""
    from ludex.terminal import Human

    definition, start = trumps
    english = definition.localizer("en")
    fresh = Game(definition, start, seed=2)
    assert Human(localizer=english).context(fresh)[0] == "Trump: coins"  # nothing led yet
    game = _mid_trick(trumps)
    lines = Human(localizer=english).context(game)
    assert lines[0] == f"Trump: coins · Suit led: {game.view['memory']['led']}"
    card = game.view["memory"]["winning"]
    assert not any(line.startswith(("winning", "taker")) for line in lines)
    assert all(str(english.name(card)) not in line for line in lines[:1])


def test_the_table_sends_the_public_memory_by_name(trumps):
    from ludex.table.view import table_view

    game = _mid_trick(trumps)
    text = game.definition.localizer("en")
    view = table_view(game, text, 1, game.legal_actions())
    assert view["memory"] == [{"key": "trump", "name": "Trump", "value": "coins"},
                              {"key": "led", "name": "Suit led",
                               "value": game.view["memory"]["led"]}]


def test_a_failed_memory_expectation_says_none_as_the_engine_does_not_null(tmp_path):
    """A key holding nothing was shown as JSON's `null` ("it is null", "actual null"), a word
    neither the effect language nor the engine's messages use: it is `none`."""
    from ludex.scenario import run_scenario

    game = tmp_path / "trumps"
    shutil.copytree(TRUMPS, game)
    said = {}
    for i, expectation in enumerate(["'recalled(\"led\") == \"cups\"'",
                                     "{value: 'recalled(\"led\")', equals: cups}",
                                     "'recalled(\"led\") == recalled(\"trump\")'"]):
        path = game / "scenarios" / f"none_{i}.yaml"
        path.write_text("game: ..\nname: none\nrules: [TRUMPS-TRICK]\nstate:\n"
                        "  memory: {trump: coins}\nrun: {effect: pass}\n"
                        f"expect:\n  - {expectation}\n", encoding="utf-8")
        result = run_scenario(path)
        assert result.status == "failed", result.message
        said[i] = result.message
    assert said[0].endswith("it is none") and said[1].endswith("actual none"), said
    assert said[2].endswith('(left side none, right side "coins")'), said
    assert not any("null" in message for message in said.values())
