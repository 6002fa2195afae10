"""Questions that take several options (`exactly N`, `up to N`) are searched by the look-ahead
agents, not drawn at random: a walk of single picks in MCTS's tree (several.py), a choice among
sets of options for greedy. The position: a copy of the Wagers test game cut down to one
question, North staking up to 3 cards of a hand of five 1s and three 6s against South's four
dice; more points win more often, so staking the three 6s is clearly best."""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest

from ludex.engine import Game, load_definition
from ludex.playtest import several
from ludex.playtest.greedy import Greedy
from ludex.playtest.mcts import MCTS
from ludex.runtime import Decision

WAGERS = Path(__file__).parent / "games" / "wagers"

STAKE = """\
phases:
  - id: deal
    effect: |
      draw(8, pile, hand, north)
  - id: hand
    effect: |
      choose staked from cards(hand, north) {count} by north prompt "turn"
      for c in staked:
          gain(points, north, c.value)
      gain(points, south, {south})
  - id: tally
    effect: |
      let best = max([counter(points, p) for p in player_powers()])
      let leaders = [p for p in player_powers() where counter(points, p) == best]
      if count(leaders) == 1:
          gain(rounds_won, leaders[0], 1)
"""
HAND = """\
id: wagers
zone: pile
cards:
  - {id: white_wager, value: 1, copies: 5}
  - {id: black_wager, value: 6, copies: 3}
"""


def stake_game(folder: Path, count: str = "up to 3", south: str = "sum(roll(4))") -> Game:
    """The staking position of the module's docstring, at North's question."""
    shutil.copytree(WAGERS, folder)
    (folder / "procedures.yaml").write_text(STAKE.format(count=count, south=south))
    (folder / "cards" / "wagers.yaml").write_text(HAND)
    manifest = folder / "game.yaml"
    manifest.write_text(manifest.read_text().replace('"turn == 3"', '"turn == 1"'))
    for locale, unused in [(folder / "cards" / "locale" / "en.yaml", "green|blue|red|gold"),
                           (folder / "locale" / "en.yaml", "^actions:")]:
        locale.write_text("".join(line for line in locale.read_text().splitlines(True)
                                  if not re.search(unused, line)))
    game = Game(*load_definition(folder), seed=0)
    assert game.pending.mode == "up_to" and len(game.pending.options) == 8
    return game


def sixes(game: Game, answer: list) -> list:
    return [c for c in answer if game.state["cards"][c]["card"] == "black_wager"]


@pytest.fixture(scope="module")
def stake(tmp_path_factory):
    return stake_game(tmp_path_factory.mktemp("stake") / "wagers")


@pytest.mark.parametrize("seed", range(5))
def test_mcts_stakes_the_three_sixes_the_clearly_best_set(stake, seed):
    answer = MCTS(seed, iterations=400)(stake)
    assert len(answer) == 3 and len(sixes(stake, answer)) == 3


def test_mcts_searches_a_set_of_options_the_same_way_for_the_same_seed(stake):
    first, again = MCTS(3, iterations=150), MCTS(3, iterations=150)
    assert first(stake) == again(stake)
    assert first.last_visits == again.last_visits
    assert sum(first.last_visits.values()) == 150  # every iteration went down the picks


def test_greedy_tries_sets_of_options_and_keeps_one_that_wins(tmp_path):
    game = stake_game(tmp_path / "wagers", count="up to 2", south="11")
    for seed in range(3):
        answer = Greedy(seed)(game)
        assert len(sixes(game, answer)) == 2 == len(answer)  # only 6 + 6 beats 11


def decision(mode: str, count: int, options: int = 4) -> Decision:
    return Decision(who="north", prompt="turn", options=[f"o{i}" for i in range(options)],
                    mode=mode, count=count)


def test_a_walk_of_picks_takes_no_option_twice_and_stops_only_where_it_may():
    exactly, up_to = decision("exactly", 2), decision("up_to", 2)
    assert several.steps(exactly, []) == [0, 1, 2, 3]  # no stop before the count
    assert several.steps(exactly, [2]) == [0, 1, 3]
    assert several.steps(exactly, [2, 0]) == []  # complete
    assert several.steps(up_to, []) == [several.STOP, 0, 1, 2, 3]
    assert several.steps(up_to, [1]) == [several.STOP, 0, 2, 3]
    assert several.answer(up_to, [3, 1]) == ["o1", "o3"]  # one set, one answer


@pytest.mark.parametrize("mode, count, options, only", [
    ("exactly", 4, 4, ["o0", "o1", "o2", "o3"]), ("exactly", 5, 3, ["o0", "o1", "o2"]),
    ("up_to", 0, 3, []), ("exactly", 2, 4, None), ("up_to", 1, 1, None),
])
def test_a_question_that_leaves_no_choice_has_its_only_answer(mode, count, options, only):
    assert several.only_answer(decision(mode, count, options)) == only


def test_greedy_tries_every_set_when_there_are_few_and_distinct_draws_when_many():
    few = several.answers(decision("up_to", 2), random.Random(0), limit=64)
    assert len(few) == 1 + 4 + 6 and [] in few and ["o0", "o3"] in few
    many = several.answers(decision("up_to", 5, options=10), random.Random(0), limit=20)
    assert len(many) == 20 == len({tuple(a) for a in many})
    assert many == several.answers(decision("up_to", 5, options=10), random.Random(0), 20)
