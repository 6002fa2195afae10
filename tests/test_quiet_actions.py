"""Quiet actions (quiet_actions.py): an action of a window that can neither refuse nor ask is
listed as legal without a run; every other option is still run. The listings must be the ones
running every option gives, at every decision of whole games."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from tests.test_action_guards import at_window, tiny_with

from ludex.agents import RandomAgent, step
from ludex.engine import Game, load_definition
from ludex.quiet_actions import quiet

ROOT = Path(__file__).resolve().parent.parent
GAMES = {"imperium": ("imperium", 3), "sword_of_rome": ("sword_of_rome", 5),
         "tiny": (ROOT / "tests" / "games" / "tiny", 2),
         "wagers": (ROOT / "tests" / "games" / "wagers", 2),
         "fair_weather": (ROOT / "examples" / "fair_weather", 3)}


@pytest.fixture(scope="module")
def imperium():
    return load_definition("imperium")


@pytest.mark.parametrize("name", list(GAMES))
def test_every_listing_is_the_one_running_every_option_gives(name):
    game_id, players = GAMES[name]
    definition, start = load_definition(game_id)
    listed = 0
    for seed in range(3):
        game = Game(definition, start, players=players, seed=seed)
        plain = Game(definition, start, players=players, seed=seed)
        plain.quiet_windows = False
        agent = RandomAgent(seed)
        for _ in range(400):
            if game.is_terminal() or game.pending is None:
                break
            if game.pending.mode == "one":
                before = json.dumps([game.state, game.view], sort_keys=True)
                assert game.legal_actions() == plain.legal_actions(), (seed, game.pending)
                assert json.dumps([game.state, game.view], sort_keys=True) == before
                listed += 1
            plain.apply(step(game, agent))
    assert listed > 0


@pytest.mark.parametrize(("action", "card", "expected"), [
    ("play_card", "celts_traders", True),  # gain(coins, me, 2)
    ("play_card", "celts_levy", True),  # a gain and take_unrest(me): a procedure that only acts
    ("play_card", "academy", True),  # move_card(card, history, me)
    ("play_card", "celts_scouts", True),  # draw_if_possible: an empty deck ends the drawing
    # draw: an empty deck reshuffles, which may pay for a development (only tested by an `if`)
    ("play_card", "celts_messengers", False),
    # return_unrest(me): `if count(held) > 0:` then `choose u from held`: it asks, never refuses
    ("play_card", "temple", True),
    ("acquire", "library", False),  # `require can_pay(…)`, then `pay`, which may refuse
    ("exhaust", "celts_raiders", False),  # `require active == me`
])
def test_an_action_is_quiet_only_if_nothing_it_may_run_can_refuse(imperium, action, card,
                                                                  expected):
    assert quiet(imperium[0], action, card) is expected


def test_a_quiet_option_is_not_run_and_the_others_are(imperium, monkeypatch):
    definition, start = imperium
    game, agent = Game(definition, start, players=3, seed=5), RandomAgent(5)
    game.guard_windows = False  # acquire's guard would decide it (test_action_guards.py)
    while not (game.pending.prompt == "activate"
               and any(o.startswith("acquire") for o in game.pending.options)
               and any(o.startswith("play_card") for o in game.pending.options)):
        step(game, agent)
    ran = []
    leads_on = Game._leads_on
    monkeypatch.setattr(Game, "_leads_on", lambda self, answers: ran.append(answers[-1])
                        or leads_on(self, answers))
    legal = game.legal_actions()
    cards = game.state["cards"]
    quiet_ones = {o for o in game.pending.options if o.startswith("play_card:")
                  and quiet(definition, "play_card", cards[o.split(":")[1]]["card"])}
    assert quiet_ones and quiet_ones <= set(legal)
    assert set(ran) == set(game.pending.options) - quiet_ones


def test_a_trigger_that_may_refuse_makes_no_action_quiet(tmp_path):
    """Any verb may set off a `when` trigger: one whose effect may refuse makes every action
    one that may refuse."""
    folder = tmp_path / "tiny"
    shutil.copytree(ROOT / "tests" / "games" / "tiny", folder)
    procedures = folder / "procedures.yaml"
    text = procedures.read_text()
    assert '      end_game("both_rich")\n' in text
    procedures.write_text(text.replace('      end_game("both_rich")\n',
                                       '      require flag(storm) else "not_enough_gold"\n'
                                       '      end_game("both_rich")\n'))
    original, _ = load_definition(ROOT / "tests" / "games" / "tiny")
    assert quiet(original, "play_card", None)  # a gain and a move_card
    definition, _ = load_definition(folder)
    assert not any(quiet(definition, action, None) for action in definition.actions)


def test_a_draw_asks_if_its_zone_s_empty_procedure_asks_even_under_a_local_name(tmp_path):
    """`draw(1, hand, …)` from a zone with no `empty` procedure is quiet; the same call where
    a local named `hand` holds the deck may run the deck's, which here asks."""
    folder = tmp_path / "tiny"
    shutil.copytree(ROOT / "tests" / "games" / "tiny", folder)
    procedures = folder / "procedures.yaml"
    text = procedures.read_text()
    text = text.replace("      move_all(discard, deck, p)\n",
                        "      choose c from cards(discard, p) by p prompt \"pick_space\"\n"
                        "      move_all(discard, deck, p)\n", 1)
    text = text.replace("actions:\n", """actions:
  - id: from_hand
    window: main
    effect: |
      draw(1, hand, discard, me)
  - id: from_deck
    window: main
    effect: |
      let hand = deck
      draw(1, hand, discard, me)
""", 1)
    procedures.write_text(text)
    locale = folder / "locale" / "en.yaml"
    locale.write_text(locale.read_text().replace(
        "actions: {play_card: Play a card,",
        "actions: {from_hand: Draw from hand, from_deck: Draw from deck, play_card: Play a card,"))
    definition, _ = load_definition(folder)
    assert quiet(definition, "from_hand", None)
    assert not quiet(definition, "from_deck", None)


# `choose` from `t`: the walled spaces no one controls (a and d), or nothing; behind tests that
# show, or do not show, that `t` holds something. (effect, quiet?, `t` empty?, legal?)
CHOICES = {
    "shown_by_else": ("if count(t) == 0:\n    pass\nelse:\n    choose s from t", True, True,
                      True),
    "shown_by_then": ("if count(t) >= 1:\n    choose s from t", True, True, True),
    "shown_by_not_less": ("if not (count(t) < 1):\n    choose s from t", True, True, True),
    "shown_by_an_earlier_branch": ("if count(t) <= 0:\n    pass\nelif true:\n"
                                   "    choose s from t", True, True, True),
    "a_list_added": ("choose s from t + [\"none_of_them\"]", True, True, True),
    "up_to": ("choose s from t up to 1", True, True, True),
    # wrong readings: where the choice is made the list may be empty, or too short
    "then_of_empty": ("if count(t) > 0:\n    pass\nelse:\n    choose s from t", False, True,
                      False),
    "rebound_after_the_test": ("if count(t) > 0:\n    let t = []\n    choose s from t",
                               False, False, False),
    "exactly": ("if count(t) > 0:\n    choose s from t exactly 3", False, False, False),
    "no_test": ("choose s from t", False, False, True),  # not shown, though there
    # an expression shown not empty, and chosen from before anything is done
    "expression_shown": ("if count(cards(hand, me)) > 0:\n    choose c from cards(hand, me)",
                         True, False, True),
    # … and after a card left the hand: the one card there was
    "expression_after_a_move": ("if count(cards(hand, me)) > 0:\n"
                                "    move_card(cards(hand, me)[0], discard, me)\n"
                                "    choose c from cards(hand, me)", False, False, False),
}


@pytest.mark.parametrize("name", list(CHOICES))
def test_a_choice_is_quiet_only_where_its_options_are_surely_there(tmp_path, name):
    """A `choose` of one refuses when it has nothing to choose from, one of exactly N when it
    has fewer: it is quiet only where a test shows its options are there. Each case is listed
    as running it lists it; those a run refuses would be listed by a wrong reading."""
    effect, is_quiet, empty, legal = CHOICES[name]
    effect = re.sub(r"(choose .*)", r'\1 prompt "pick_space"', effect)
    text = "let t = []\n" if empty else \
        "let t = [x for x in spaces() where x.walled and x.control == none]\n"
    folder = tiny_with(tmp_path, {"choosy": text + effect})
    definition, _ = load_definition(folder)
    assert quiet(definition, "choosy", None) is is_quiet
    guarded, plain = at_window(folder)
    assert guarded.legal_actions() == plain.legal_actions()
    assert ("choosy" in plain.legal_actions()) is legal


def test_a_procedure_reaching_itself_is_scanned_once_and_its_refusals_count(tmp_path):
    """A recursive procedure refuses nothing more by calling itself: without a `require` it
    is quiet, with one anywhere in it, it is not (and the run refuses it)."""
    folder = tiny_with(tmp_path, {"calm": "count_down(3)", "strict": "check_down(3)"})
    procedures = folder / "procedures.yaml"
    procedures.write_text(procedures.read_text().replace("procedures:\n", """procedures:
  - id: count_down
    params: [n]
    effect: |
      if n > 0:
          count_down(n - 1)
  - id: check_down
    params: [n]
    effect: |
      require n != 1 else "not_enough_gold"
      if n > 0:
          check_down(n - 1)
""", 1))
    definition, _ = load_definition(folder)
    assert quiet(definition, "calm", None) and not quiet(definition, "strict", None)
    guarded, plain = at_window(folder)
    assert "strict" not in plain.legal_actions()
    assert guarded.legal_actions() == plain.legal_actions()


def test_a_card_passed_to_a_procedure_is_judged_by_its_own_event(tmp_path):
    """`play_it(me, card)` playing `card`'s event is quiet for a card whose event cannot
    refuse, not for one whose event can, nor for a procedure that goes on to play another."""
    folder = tiny_with(tmp_path, {})
    procedures = folder / "procedures.yaml"
    procedures.write_text(procedures.read_text().replace("actions:\n", """actions:
  - id: play_event_of
    window: main
    card: "card.zone == hand and has_event(card)"
    effect: |
      play_it(me, card)
""", 1).replace("procedures:\n", """procedures:
  - id: play_it
    params: [p, card]
    effect: |
      log("decided")
      play_event(card)
  - id: play_on
    params: [card]
    comment: "Calls itself with another card: the other card's event is judged too."
    effect: |
      play_event(card)
      if card != red_two:
          play_on(red_two)
""", 1).replace("  - id: play_event_of\n", """  - id: play_on_from
    window: main
    card: "card.zone == hand and has_event(card)"
    effect: |
      play_on(card)
  - id: play_event_of
""", 1))
    locale = folder / "locale" / "en.yaml"
    locale.write_text(locale.read_text().replace("actions: {",
                                                 "actions: {play_event_of: x, play_on_from: y, "))
    cards = folder / "cards" / "tiny_cards.yaml"
    cards.write_text(cards.read_text().replace(
        "  - {id: red_two, owner: red, value: 2}\n",
        "  - id: red_two\n    owner: red\n    value: 2\n    event: |\n"
        "      require counter(gold, me) > 100 else \"not_enough_gold\"\n"))
    definition, _ = load_definition(folder)
    assert quiet(definition, "play_event_of", "red_three")
    assert not quiet(definition, "play_event_of", "red_two")
    assert not quiet(definition, "play_on_from", "red_three")  # it goes on to red_two


@pytest.mark.parametrize(("effect", "is_quiet"), [
    ("choose c from cards(hand, me)", True),
    # the filter held before the card left the hand; the hand is empty now
    ("move_card(card, discard, me)\nchoose c from cards(hand, me)", False),
])
def test_what_the_card_filter_showed_holds_until_the_action_does_something(tmp_path, effect,
                                                                          is_quiet):
    folder = tiny_with(tmp_path, {})
    procedures = folder / "procedures.yaml"
    effect = "".join(f"      {line} prompt \"pick_space\"\n" if line.startswith("choose")
                     else f"      {line}\n" for line in effect.splitlines())
    procedures.write_text(procedures.read_text().replace("actions:\n", f"""actions:
  - id: pick_from_hand
    window: main
    card: "card.zone == hand and count(cards(hand, me)) > 0"
    effect: |
{effect}""", 1))
    locale = folder / "locale" / "en.yaml"
    locale.write_text(locale.read_text().replace("actions: {", "actions: {pick_from_hand: x, "))
    definition, _ = load_definition(folder)
    assert quiet(definition, "pick_from_hand", "red_one") is is_quiet
    guarded, plain = at_window(folder)
    listed = plain.legal_actions()
    assert guarded.legal_actions() == listed
    assert any(o.startswith("pick_from_hand") for o in listed) is is_quiet


@pytest.mark.parametrize("effect", [
    # a verb inside an expression: it refuses as a statement would
    "let spent = pay(gold, me, 50)",
    "gain(score, me, pay(gold, me, 50))",
    # a condition that acts: what it tested before drawing the deck empty is not known now
    "if count(cards(deck, me)) > 0 and draw_if_possible(9, deck, hand, me) == none:\n"
    "    choose c from cards(deck, me) prompt \"pick_space\"",
])
def test_what_expressions_do_is_scanned_as_statements_are(tmp_path, effect):
    """Found by review: an effect's expressions may call verbs (`let x = pay(…)`); such a call
    may refuse, and it acts: a list shown not empty before it may be empty after it."""
    folder = tiny_with(tmp_path, {"acting": effect})
    definition, _ = load_definition(folder)
    assert not quiet(definition, "acting", None)
    guarded, plain = at_window(folder, gold=0, gems=0)
    assert "acting" not in plain.legal_actions()
    assert guarded.legal_actions() == plain.legal_actions()
