"""A window that may not be passed closes by itself when the seat can take nothing: when it
offers no action, and when every action it offers breaks a rule, whatever it is answered (a
trial's game, found by a new-user trial: "play higher or be skipped" left agents stuck and a
person facing an empty question). A question of several options at once is not searched: an
action asking one keeps the window open, and when every set then breaks a rule, every agent
reports the dead end as a rule error at the question — never a crash, never an endless loop."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ludex.agents import FirstLegal, RandomAgent, play, step
from ludex.engine import Game, load_definition
from ludex.errors import LudexError
from ludex.playtest.greedy import Greedy
from ludex.playtest.mcts import MCTS
from ludex.terminal import Human

WAGERS = Path(__file__).parent / "games" / "wagers"

# Wagers with no passing and no discarding: a seat must play a card at least as high as the
# table's top card, or it can do nothing.
PLAY_HIGHER = {"    pass: \"count(cards(hand, me)) == 0\"\n": "    pass: false\n"}
DISCARD = """  - id: discard
    window: turn
    clause: WAG-TURN
    card: "card.zone == hand"
    effect: |
      move_card(card, discard)
      log("discarded", me, card)
"""
# an action that asks first and then refuses every answer
BOAST = """  - id: boast
    window: turn
    clause: WAG-TURN
    effect: |
      choose c from cards(hand, me) by me prompt "turn"
      require c.value > 100 else "too_low"
"""
PLAY = """  - id: play
    window: turn
    clause: WAG-TURN
    card: "card.zone == hand"
    effect: |
      require count(cards(table)) == 0 or card.value >= cards(table)[0].value else "too_low"
      gain(points, me, card.value)
      move_card(card, table)
      log("played", me, card)
"""


def _wagers(folder: Path, replace: dict[str, str], labels: str, actions: str = "") -> Path:
    game = folder / "wagers"
    shutil.copytree(WAGERS, game)
    procedures = game / "procedures.yaml"
    text = procedures.read_text(encoding="utf-8")
    for old, new in replace.items():
        assert old in text
        text = text.replace(old, new)
    procedures.write_text(text.replace("procedures:\n", actions + "procedures:\n"),
                          encoding="utf-8")
    locale = game / "locale" / "en.yaml"
    locale.write_text(locale.read_text(encoding="utf-8").replace(
        "actions: {play: Play, discard: Discard}", f"actions: {{{labels}}}"),
        encoding="utf-8")
    return game


@pytest.fixture(scope="module")
def play_higher(tmp_path_factory):
    return load_definition(_wagers(tmp_path_factory.mktemp("higher"),
                                   {**PLAY_HIGHER, DISCARD: ""}, "play: Play"))


@pytest.fixture(scope="module")
def only_boasting(tmp_path_factory):
    return load_definition(_wagers(tmp_path_factory.mktemp("boast"),
                                   {**PLAY_HIGHER, DISCARD: "", PLAY: ""}, "boast: Boast",
                                   BOAST))


@pytest.mark.parametrize("seed", range(6))
def test_whole_games_go_on_when_a_seat_that_may_not_pass_can_play_nothing(play_higher, seed):
    game = Game(*play_higher, seed=seed)
    play(game, {None: RandomAgent(seed)})
    assert game.is_terminal()
    skipped = [e for e in game.state["log"] if e["key"] == "no_action"]
    assert skipped, "no seat was ever left with nothing it could play"
    assert all(e["args"]["window"] == "turn" for e in skipped)


def test_every_window_question_of_a_no_pass_window_has_a_legal_option(play_higher):
    game, agent, asked = Game(*play_higher, seed=3), FirstLegal(), 0
    while not game.is_terminal() and game.pending is not None:
        assert game.legal_actions(), game.pending.options
        step(game, agent)
        asked += 1
    assert asked > 10


def _values(definition) -> dict[str, int]:
    return {card_id: card["value"] for card_id, card in definition.cards.items()}


def test_a_seat_holding_only_lower_cards_is_skipped_and_the_log_says_so(play_higher):
    game, checked = Game(*play_higher, seed=1), 0
    values = _values(game.definition)
    while game.pending is not None and not game.is_terminal():
        view = game.view
        value = {c: values[info["card"]] for c, info in view["cards"].items()}
        table = view["zones"]["table"].get("", [])
        lowest = value[table[0]] if table else 0
        hand = view["zones"]["hand"][game.pending.who]
        # the open window offers the cards at least as high as the table's top, no other
        assert set(game.legal_actions()) == {f"play:{c}" for c in hand if value[c] >= lowest}
        checked += 1
        step(game, FirstLegal())
    assert checked > 10
    assert any(e["key"] == "no_action" for e in game.state["log"])


def test_an_option_whose_every_answer_breaks_a_rule_closes_the_window_too(only_boasting):
    game = Game(*only_boasting, seed=0)  # boast asks for a card, then refuses every one
    play(game, {None: RandomAgent(0)})
    assert game.is_terminal() and game.history == []  # nothing was ever asked
    assert any(e["key"] == "no_action" for e in game.state["log"])


def test_simulate_says_how_many_games_failed_and_groups_one_error_met_in_many(tmp_path):
    game = _wagers(tmp_path, {**PLAY_HIGHER, DISCARD: "", PLAY: ""}, "play: Play",
                   PAIR.replace("{extra}", " and card.value > 100"))  # every pair refused
    run = subprocess.run([sys.executable, "-m", "ludex.cli", "simulate", str(game), "--games",
                          "12", "--workers", "1"], capture_output=True, text=True)
    assert run.returncode == 1, run.stderr
    lines = run.stdout.splitlines()
    assert lines[1] == "  12 games failed with an error: the rates count the 0 finished"
    errors = [line for line in lines if "error" in line and "rules/dead-end" in line]
    assert len(errors) == 1  # one line for the twelve games, not twelve lines
    assert errors[0].startswith("  error in 12 games (seeds 0, 1, 2, 3, 4, 5, 6, 7, …): ")
    assert lines[-1] == f"    reproduce: ludex play {game} --agents random --seed 0"


# an action that asks for two cards at once, then requires each to be at least the table's top
PAIR = """  - id: play
    window: turn
    clause: WAG-TURN
    effect: |
      choose two from cards(hand, me) exactly 2 by me prompt "turn"
      let top = 0 if count(cards(table)) == 0 else cards(table)[0].value
      for card in two:
          require card.value >= top{extra} else "too_low"
          gain(points, me, card.value)
          move_card(card, table)
          log("played", me, card)
"""


def _pairs(tmp_path, extra: str = ""):
    return load_definition(_wagers(tmp_path, {**PLAY_HIGHER, DISCARD: "", PLAY: ""},
                                   "play: Play", PAIR.replace("{extra}", extra)))


def _pair_to_beat(definition_and_start) -> Game:
    """North asked which two cards to play over a blue wager (3), holding a white (1), a
    green (2), a red (4) and a gold (5) wager: only red and gold together may go."""
    game = Game(*definition_and_start, seed=3)
    state = game.state
    wanted = {"table": ["blue_wager#1"],
              "north": ["white_wager#1", "green_wager#1", "red_wager#1", "gold_wager#1"]}
    for card in [c for cards in wanted.values() for c in cards]:
        zone, holder = state["cards"][card]["zone"]
        state["zones"][zone][holder].remove(card)
    state["zones"]["table"][""] = list(wanted["table"])
    state["cards"]["blue_wager#1"]["zone"] = ["table", ""]
    state["zones"]["hand"]["north"] = list(wanted["north"])
    for card in wanted["north"]:
        state["cards"][card]["zone"] = ["hand", "north"]
    game.restart_unit()
    assert game.pending.who == "north"
    game.apply("play")
    assert game.pending.mode == "exactly"
    return game


@pytest.mark.parametrize("make", [lambda: RandomAgent(3), FirstLegal, lambda: Greedy(3),
                                  lambda: MCTS(3, 5)])
def test_a_set_the_rules_refuse_is_tried_again_with_another(tmp_path, make):
    game = _pair_to_beat(_pairs(tmp_path))
    picked = step(game, make())  # tried sets until the rules took one
    assert sorted(picked) == ["gold_wager#1", "red_wager#1"]


@pytest.mark.parametrize("make", [lambda: RandomAgent(3), FirstLegal, lambda: Greedy(3),
                                  lambda: MCTS(3, 5)])
def test_a_question_of_sets_that_all_break_a_rule_is_a_dead_end_not_a_loop(tmp_path, make):
    game = Game(*_pairs(tmp_path, " and card.value > 100"), seed=3)
    step(game, FirstLegal()) if game.pending.prompt != "turn" else None
    with pytest.raises(LudexError) as caught:
        for _ in range(5):  # the first window: every pair is refused
            step(game, make())
    assert caught.value.diagnostics[0].code == "rules/dead-end"
    assert "every set of options of `turn` breaks a rule" in caught.value.diagnostics[0].message


def test_a_person_whose_set_is_refused_is_told_why_and_asked_again(tmp_path):
    game = _pair_to_beat(_pairs(tmp_path))
    options = game.pending.options
    low = [options.index(c) + 1 for c in ("white_wager#1", "green_wager#1")]
    high = [options.index(c) + 1 for c in ("red_wager#1", "gold_wager#1")]
    replies, shown = iter([f"{low[0]} {low[1]}", f"{high[0]} {high[1]}"]), []
    human = Human(ask=lambda prompt: next(replies), show=shown.append,
                  localizer=game.definition.localizer())
    assert sorted(step(game, human)) == ["gold_wager#1", "red_wager#1"]
    assert any(line.startswith("That answer breaks a rule: ") for line in shown)


# a question whose one answer breaks a rule, and one with two equal options
ONLY = """  - id: play
    window: turn
    clause: WAG-TURN
    effect: |
      choose n from {options} exactly 2 by me prompt "turn"
      require count(n) > 5 else "too_low"
"""


@pytest.mark.parametrize("options", ["[1, 2]", '["x", "x", "y"]'])
@pytest.mark.parametrize("make", [lambda: RandomAgent(3), FirstLegal, lambda: Greedy(3),
                                  lambda: MCTS(3, 5)])
def test_no_agent_loops_on_a_sole_or_repeated_answer_the_rules_refuse(tmp_path, make, options):
    definition = load_definition(_wagers(tmp_path, {**PLAY_HIGHER, DISCARD: "", PLAY: ""},
                                         "play: Play", ONLY.replace("{options}", options)))
    game = Game(*definition, seed=3)
    with pytest.raises(LudexError) as caught:
        for _ in range(5):
            step(game, make())
    assert caught.value.diagnostics[0].code == "rules/dead-end"
    assert "every set of options of `turn` breaks a rule" in caught.value.diagnostics[0].message


def test_a_count_of_choices_below_zero_is_a_rule_error_at_the_choose(tmp_path):
    definition = load_definition(_wagers(tmp_path, {**PLAY_HIGHER, DISCARD: "", PLAY: ""},
                                         "play: Play", ONLY.replace(
                                             "exactly 2", "exactly count(cards(table)) - 1")
                                         .replace("{options}", "[1, 2]")))
    game = Game(*definition, seed=3)
    with pytest.raises(LudexError) as caught:
        for _ in range(3):
            step(game, FirstLegal())
    assert caught.value.diagnostics[0].code == "effect/bad-count"
