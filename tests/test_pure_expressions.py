"""Expressions only look: card filters, conditions, `when` tests and scores are evaluated on an
isolated copy of the state (runtime.looking), so even a change that slipped past validation
cannot reach the game. Validation rejects verbs in expressions (effect/verb-in-expression);
these tests bypass that check on purpose, to show the engine holds on its own."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from ludex import gamedef
from ludex.engine import Game, load_definition
from ludex.errors import LudexError

TINY = Path(__file__).parent / "games" / "tiny"
# every change leaves the expression's value as it was: `gain(…)` gives none
CHANGES = {
    "filter": ("procedures.yaml", 'card: "card.zone == hand"',
               'card: "card.zone == hand and gain(gold, me, 1) == none"'),
    "when": ("procedures.yaml", 'when: "counter(score, red) >= 5',
             'when: "gain(gold, blue, 1) == none and counter(score, red) >= 5'),
    "scores": ("game.yaml", 'scores: "counter(score, p)"',
               'scores: "counter(score, p) + (0 if gain(gold, p, 1) == none else 0)"'),
}
DECISIONS = ["buy_gem", "pass", "play_card:blue_one", "pass", "pass", "pass", "pass", "pass"]


def _game_with(tmp_path: Path, file: str, old: str, new: str) -> Game:
    folder = tmp_path / "tiny"
    shutil.copytree(TINY, folder)
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    return Game(*load_definition(folder), seed=3)


def _play(game: Game) -> list[str]:
    """The decisions above, each after asking for the legal actions (which tries every
    option) and after one refused answer; the state as JSON after each step."""
    states = []
    for answer in DECISIONS:
        if game.is_terminal():
            break
        game.legal_actions()
        with pytest.raises(LudexError):
            game.apply("no_such_action")
        game.apply(answer)
        game.scores()
        states.append(json.dumps(game.state, sort_keys=True))
    return states


@pytest.mark.parametrize("where", list(CHANGES))
def test_a_verb_slipped_into_an_expression_cannot_change_the_game(tmp_path, monkeypatch,
                                                                  where):
    monkeypatch.setattr(gamedef, "changing_calls", lambda tree, procedures: [])  # bypassed
    changed = _game_with(tmp_path, *CHANGES[where])
    plain = Game(*load_definition(TINY), seed=3)
    assert _play(changed) == _play(plain)


def test_the_bypass_is_needed_validation_rejects_a_verb_in_a_filter(tmp_path):
    with pytest.raises(LudexError) as raised:
        _game_with(tmp_path, *CHANGES["filter"])
    assert raised.value.code == "effect/verb-in-expression"


def test_a_roll_in_a_card_filter_does_not_advance_the_games_dice(tmp_path):
    # `roll` is a function, not a verb: validation allows it, and it moves the generator
    changed = _game_with(tmp_path, "procedures.yaml", 'card: "card.zone == hand"',
                         'card: "card.zone == hand and count(roll(1)) == 1"')
    plain = Game(*load_definition(TINY), seed=3)
    assert _play(changed) == _play(plain)
