"""Dead-end actions (issue #18): an action whose first step asks a question, every answer to
which then breaks a rule, is not offered, and taking it is refused like an illegal action —
the player is never left without a way on. The search behind it (trials.py) goes depth-first,
keeps what it finds for the next decision, and is bounded."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from ludex import trials
from ludex.agents import FirstLegal, RandomAgent, step
from ludex.engine import Game, load_definition, replay
from ludex.errors import LudexError

WAGERS = Path(__file__).parent / "games" / "wagers"

# `boast` asks which card to boast with, then requires a card worth more than any card is:
# every answer breaks the rule. `raise` asks twice; only the highest second answer leads on.
ACTIONS = """\
  - id: boast
    window: turn
    clause: WAG-TURN
    effect: |
      choose c from cards(hand, me) by me prompt "turn"
      require c.value > 100 else "too_low"
  - id: raise
    window: turn
    clause: WAG-TURN
    effect: |
      choose a from [1, 2, 3] by me prompt "turn"
      choose b from [1, 2, 3] by me prompt "turn"
      require a + b == 6 else "too_low"
      log("played", me, a)
"""


@pytest.fixture(scope="module")
def boasting(tmp_path_factory):
    folder = tmp_path_factory.mktemp("dead_ends") / "wagers"
    shutil.copytree(WAGERS, folder)
    procedures = folder / "procedures.yaml"
    text = procedures.read_text(encoding="utf-8")
    procedures.write_text(text.replace("procedures:\n", ACTIONS + "procedures:\n"),
                          encoding="utf-8")
    locale = folder / "locale" / "en.yaml"
    locale.write_text(locale.read_text(encoding="utf-8").replace(
        "actions: {play: Play, discard: Discard}",
        "actions: {play: Play, discard: Discard, boast: Boast, raise: Raise}"), encoding="utf-8")
    return load_definition(folder)


def _text_at(error: LudexError) -> str:
    """The content text at an error's place."""
    d = error.diagnostics[0]
    return Path(d.file).read_text(encoding="utf-8").splitlines()[d.line - 1][d.col - 1:]


def test_an_action_whose_every_answer_breaks_a_rule_is_not_offered(boasting):
    game = Game(*boasting, seed=0)
    assert "boast" in game.pending.options  # asked before any rule is checked
    legal = game.legal_actions()
    assert "boast" not in legal and "raise" in legal
    assert any(option.startswith("play:") for option in legal)


def test_taking_a_dead_end_action_is_refused_and_changes_nothing(boasting):
    game = Game(*boasting, seed=0)
    before, pending = json.dumps(game.view, sort_keys=True), game.pending
    with pytest.raises(LudexError) as refused:
        game.apply("boast")
    assert refused.value.code == "rules/dead-end-choice"
    assert _text_at(refused.value) == "turn"  # the `window:` of the phase asking it
    assert game.pending is pending and json.dumps(game.view, sort_keys=True) == before
    assert game.history == []


def test_the_refusal_of_a_dead_end_option_says_every_way_on_breaks_a_rule(boasting):
    game = Game(*boasting, seed=0)
    why = game.refusal("boast")
    with pytest.raises(LudexError) as refused:
        game.apply("boast")
    assert (why.code, why.said, why.where) == (
        "rules/dead-end-choice", refused.value.said, refused.value.where)
    assert game.refusal("raise") is None


def test_only_answers_that_lead_on_are_offered_inside_an_action(boasting):
    game = Game(*boasting, seed=0)
    game.apply("raise")
    assert game.legal_actions() == [3]  # 1 + anything or 2 + anything never makes 6
    with pytest.raises(LudexError) as refused:
        game.apply(1)
    assert refused.value.code == "rules/dead-end-choice"
    assert _text_at(refused.value).startswith("choose a from [1, 2, 3]")  # the question
    game.apply(3)
    assert game.legal_actions() == [3]
    game.apply(3)
    assert game.pending.who == "south"


def test_agents_play_whole_games_without_meeting_a_dead_end(boasting):
    for seed in range(3):
        for agent in (RandomAgent(seed), FirstLegal()):
            game = Game(*boasting, seed=seed)
            while not game.is_terminal() and game.pending is not None:
                step(game, agent)
            again = replay(*boasting, json.loads(json.dumps(game.save())))
            assert json.dumps(again.state, sort_keys=True) == json.dumps(game.state,
                                                                          sort_keys=True)


def test_without_the_search_the_dead_end_is_offered_as_before(boasting, monkeypatch):
    monkeypatch.setattr(Game, "search_dead_ends", False)
    game = Game(*boasting, seed=0)
    assert "boast" in game.legal_actions()
    game.apply("boast")  # taken: now every answer breaks the rule
    assert game.legal_actions() == []


def test_a_search_past_its_bound_offers_the_option_and_says_so(boasting, monkeypatch):
    monkeypatch.setattr(trials, "MAX_SEARCH_RUNS", 2)
    game = Game(*boasting, seed=0)
    assert "raise" in game.legal_actions()  # 3 first answers to try: more than 2 runs
    warning = game.warnings[-1]
    assert warning.code == "rules/search-bound" and warning.severity == "warning"
    assert "`raise`" in warning.message


# `outbid` asks for a bid, then for a higher one: after the highest first bid the second
# question has nothing to choose from, so that bid is refused (a designer's trial lost a bid
# of 6 this way, and nobody was told).
OUTBID = """\
  - id: outbid
    window: turn
    clause: WAG-TURN
    effect: |
      choose a from [1, 2, 3] by me prompt ("bid_over", 0)
      choose b from [x for x in [1, 2, 3] where x > a] by me prompt ("bid_over", a)
"""


@pytest.fixture(scope="module")
def outbidding(tmp_path_factory):
    """The wagers game with `boast` (every answer breaks a rule) and `outbid` (a bid after
    which the next question is empty): its folder."""
    folder = tmp_path_factory.mktemp("dead_end_notes") / "wagers"
    shutil.copytree(WAGERS, folder)
    procedures = folder / "procedures.yaml"
    text = procedures.read_text(encoding="utf-8")
    procedures.write_text(text.replace("procedures:\n", ACTIONS + OUTBID + "procedures:\n"),
                          encoding="utf-8")
    locale = folder / "locale" / "en.yaml"
    locale.write_text(locale.read_text(encoding="utf-8").replace(
        "actions: {play: Play, discard: Discard}",
        "actions: {play: Play, discard: Discard, boast: Boast, raise: Raise, outbid: Outbid}")
        .replace("  turn: Your turn\n", '  turn: Your turn\n  bid_over: "Bid more than {a0}"\n'),
        encoding="utf-8")
    return folder


def test_a_bid_refused_because_the_next_choice_would_be_empty_says_which_choice(outbidding):
    """The refusal of the hidden option names the later question that would have no option,
    in the player's words: at the terminal's `?!` and wherever a refusal is told."""
    from ludex.terminal import Human

    definition = load_definition(outbidding)
    game = Game(*definition, seed=0)
    game.apply("outbid")
    assert game.legal_actions() == [1, 2]
    english = definition[0].localizer("en")
    why = game.refusal(3)
    assert why.code == "rules/illegal-action"
    assert english.refusal(why) == "North would then have nothing to choose from: “Bid more " \
                                   "than 3”"
    answers, shown = iter(["?!", "1"]), []
    Human(ask=lambda prompt: next(answers), show=shown.append, localizer=english)(game)
    assert "  3 — North would then have nothing to choose from: “Bid more than 3”" in shown


def test_a_dead_end_refusal_names_the_question_every_answer_to_which_breaks_a_rule(
        outbidding):
    definition = load_definition(outbidding)
    game = Game(*definition, seed=0)
    why = game.refusal("boast")
    assert definition[0].localizer("en").refusal(why) == \
        "every answer North could then give to “Your turn” breaks a rule"


def test_the_game_notes_each_option_refused_for_a_dead_end_once(outbidding):
    game = Game(*load_definition(outbidding), seed=0)
    game.legal_actions()
    game.legal_actions()  # listed again: not noted again
    assert game.dead_ends.records() == [("boast", "boast", "turn")]
    game.apply("outbid")
    game.legal_actions()
    assert game.dead_ends.records()[1:] == [("bid_over", "3", "bid_over")]


def test_simulate_says_how_often_options_were_refused_for_a_dead_end(outbidding):
    """A rule that quietly narrows play is counted per question (a window's by its action),
    with the later question that had no way on: in the summary and on the command line."""
    from click.testing import CliRunner

    from ludex.cli import cli
    from ludex.simulate import simulate

    summary = simulate(outbidding, games=2, seed=0)
    found = {(d["question"], d["later"]): d for d in summary["dead_ends"]}
    # `raise` asks "turn" inside the action: a question, not the window of the same name
    assert set(found) == {("boast", "turn"), ("bid_over", "bid_over"), ("turn", "turn")}
    boast = found["boast", "turn"]
    assert 1 <= boast["games"] <= 2 and boast["refused"] >= boast["games"]
    result = CliRunner().invoke(cli, ["simulate", str(outbidding), "--games", "2"])
    games = "1 game" if boast["games"] == 1 else "2 games"
    assert (f"  `boast`: {boast['refused']} option{'s' * (boast['refused'] > 1)} refused "
            f"because `turn` would then have no way on, in {games}") in result.output
