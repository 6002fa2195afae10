"""The turn model of issue #13, engine side: phase effects that run a step at a time
(resumable.py) play exactly the games they played as one unit, answer each decision by replaying
only their own step, and keep atomic answers and save/resume; windows that forbid passing; draws
counted and shown; copies of a card told apart in every language. The rules of the designer's
game itself live in tests/games/scenarios/wagers/."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ludex import resumable
from ludex.agents import RandomAgent, step
from ludex.engine import Game, load_definition, replay
from ludex.errors import LudexError

GAMES = Path(__file__).parent / "games"
DESIGNER = Path(__file__).resolve().parent.parent / "benchmarks" / "designer"


@pytest.fixture(scope="module")
def wagers():
    return load_definition(GAMES / "wagers")


@pytest.fixture(scope="module")
def designer(tmp_path_factory):
    """The designer's first shape of the game: the hand of play as one phase effect, a loop
    asking every turn's questions (benchmarks/designer/procedures.yaml)."""
    folder = tmp_path_factory.mktemp("designer") / "wagers"
    shutil.copytree(GAMES / "wagers", folder)
    shutil.copy(DESIGNER / "procedures.yaml", folder / "procedures.yaml")
    locale = folder / "locale" / "en.yaml"
    locale.write_text("".join(line for line in locale.read_text().splitlines(keepends=True)
                              if not line.startswith("actions:")))
    return lambda: load_definition(folder)


DEAD_END = """\
phases:
  - id: deal
    effect: |
      for p in player_powers():
          draw(2, pile, hand, p)
  - id: hand
    effect: |
      for p in player_powers():
          choose c from cards(hand, p) by p prompt "turn"
          move_card(c, discard)
      require count(cards(discard)) == 0 else "too_low"
  - id: tally
    effect: |
      pass
"""


def test_a_rule_broken_by_a_later_step_of_a_phase_is_a_dead_end_not_a_refusal(tmp_path):
    folder = tmp_path / "wagers"
    shutil.copytree(GAMES / "wagers", folder)
    (folder / "procedures.yaml").write_text(DEAD_END)
    locale = folder / "locale" / "en.yaml"
    locale.write_text("".join(line for line in locale.read_text().splitlines(keepends=True)
                              if not line.startswith("actions:")))
    definition, start = load_definition(folder)
    game = Game(definition, start, seed=0)
    game.apply(game.pending.options[0])  # north's card: its own step completes
    with pytest.raises(LudexError) as dead_end:
        game.apply(game.pending.options[0])  # south's: the `require` after the loop fails
    assert dead_end.value.code == "rules/dead-end"
    message = dead_end.value.diagnostics[0].message
    assert "too_low" in message and message.count("[in ") == 1  # the rule named once


def play(definition, start, seed: int) -> tuple[list, str, int]:
    """A whole game with a seeded random agent: its answers, final state, and the most answers
    a unit ever had to replay to ask its next question."""
    game, agent, answers, longest = Game(definition, start, seed=seed), RandomAgent(seed), [], 0
    while not game.is_terminal() and game.pending is not None:
        longest = max(longest, len(game.unit.answers))
        answers.append(step(game, agent))
    return answers, json.dumps(game.state, sort_keys=True), longest


def test_a_loop_phase_run_a_step_at_a_time_plays_the_games_it_played_as_one_unit(designer):
    stepwise, start = designer()
    whole, _ = designer()
    whole.phase_plans.clear()
    assert stepwise.phase_plans["hand"] is not None
    assert stepwise.phase_plans["deal"] is None  # its loops never ask: one unit, as before
    for seed in range(4):
        a, b = play(stepwise, start, seed), play(whole, start, seed)
        assert a[:2] == b[:2], seed


def test_each_decision_of_a_loop_phase_replays_only_its_own_iteration(designer):
    stepwise, start = designer()
    whole, _ = designer()
    whole.phase_plans.clear()
    # a turn asks two questions (which card, play or discard): one earlier answer at most
    assert play(stepwise, start, 1)[2] == 1
    assert play(whole, start, 1)[2] >= 30  # the whole hand of play, replayed at each question


@pytest.fixture(scope="module")
def called(designer, tmp_path_factory):
    """The same hand of play inside a procedure the phase calls, under an `if`: a designer's
    next shape of it. `load(cut)` builds it with calls cut open or not (resumable.CUT_CALLS)."""
    folder = tmp_path_factory.mktemp("called") / "wagers"
    shutil.copytree(GAMES / "wagers", folder)
    shutil.copy(DESIGNER / "procedures.yaml", folder / "procedures.yaml")
    text = (folder / "procedures.yaml").read_text()
    body = text[text.index("      repeat 30:"):text.index("  - id: tally")]
    hand = "  - id: hand\n    effect: |\n"
    text = text.replace(hand + body, hand + "      hand_of_play(30)\n")
    body = "\n".join("    " + line if line else line for line in body.splitlines())
    text += ("procedures:\n  - id: hand_of_play\n    params: [turns]\n    effect: |\n"
             "      if turns > 0:\n" + body + "\n")
    (folder / "procedures.yaml").write_text(text)
    locale = folder / "locale" / "en.yaml"
    locale.write_text("".join(line for line in locale.read_text().splitlines(keepends=True)
                              if not line.startswith("actions:")))

    def load(cut: bool):
        previous, resumable.CUT_CALLS = resumable.CUT_CALLS, cut
        try:
            return load_definition(folder)
        finally:
            resumable.CUT_CALLS = previous
    return load


def test_a_loop_in_a_procedure_a_phase_calls_is_run_a_step_at_a_time_too(called):
    (cut, start), (whole, _) = called(True), called(False)
    assert cut.phase_plans["hand"] is not None and whole.phase_plans["hand"] is None
    assert play(cut, start, 1)[2] == 1  # one earlier answer at most, as in the phase itself
    assert play(whole, start, 1)[2] >= 30
    for seed in range(4):
        assert play(cut, start, seed)[:2] == play(whole, start, seed)[:2], seed


def test_sword_of_rome_plays_the_same_games_with_its_reinforcements_cut_open():
    previous = resumable.CUT_CALLS
    try:
        resumable.CUT_CALLS = False
        whole, start = load_definition("sword_of_rome")
    finally:
        resumable.CUT_CALLS = previous
    cut, _ = load_definition("sword_of_rome")
    assert cut.phase_plans["reinforcement"] is not None
    assert whole.phase_plans["reinforcement"] is None
    for seed in range(2):
        assert play(cut, start, seed)[:2] == play(whole, start, seed)[:2], seed


def test_an_illegal_answer_inside_a_loop_step_is_refused_and_changes_nothing(designer):
    definition, start = designer()
    game = Game(definition, start, seed=5)
    game.apply(game.pending.options[0])  # north picks a card; now: play or discard
    before, pending = json.dumps(game.view, sort_keys=True), game.pending
    with pytest.raises(LudexError) as refused:
        game.apply("keep")
    assert refused.value.code == "rules/illegal-choice"
    assert json.dumps(game.view, sort_keys=True) == before and game.pending is pending
    game.apply("discard")
    assert game.pending.who == "south"


def test_a_game_saved_in_the_middle_of_a_loop_phase_resumes_exactly(designer):
    definition, start = designer()
    game, agent = Game(definition, start, seed=2), RandomAgent(2)
    for _ in range(41):  # into the second round's hand of play
        step(game, agent)
    again = replay(definition, start, json.loads(json.dumps(game.save())))
    assert json.dumps(again.view, sort_keys=True) == json.dumps(game.view, sort_keys=True)
    assert again.pending.as_dict() == game.pending.as_dict()
    for _ in range(20):
        answer = step(game, agent)
        again.apply(answer)
    assert json.dumps(again.state, sort_keys=True) == json.dumps(game.state, sort_keys=True)


@pytest.mark.parametrize(("game", "players"), [("sword_of_rome", 5), ("imperium", 3),
                                               (GAMES / "wagers", 2)])
def test_games_play_the_same_whether_window_options_are_remembered_or_worked_out_again(
        game, players, monkeypatch):
    definition, start = load_definition(game)

    def play_some(seed):
        table, agent, answers = Game(definition, start, players=players, seed=seed), \
            RandomAgent(seed), []
        while not table.is_terminal() and table.pending is not None and len(answers) < 300:
            answers.append(step(table, agent))
            answers.append(table.legal_actions())  # tries every option: none may leak
        return answers, json.dumps(table.state, sort_keys=True)
    remembered = [play_some(seed) for seed in range(3)]
    monkeypatch.setattr(Game, "memo_options", False)
    assert [play_some(seed) for seed in range(3)] == remembered


def test_a_window_that_may_not_be_passed_and_offers_nothing_closes_with_a_log_line(wagers):
    definition, start = wagers
    game = Game(definition, start, seed=0, autostart=False)  # not dealt: empty hands
    assert not game.state["zones"]["hand"]["north"] and not game.state["zones"]["hand"]["south"]
    saved = definition.phase_pass["hand"]
    definition.phase_pass["hand"] = False  # never, even with an empty hand
    try:
        game.run_phase("hand")
    finally:
        definition.phase_pass["hand"] = saved
    for power in ("north", "south"):  # their first windows asked nothing; each drew a card
        assert {"key": "no_action", "args": {"power": power, "window": "turn"}} in game.view["log"]
    assert game.state["round"] == 2 and game.pending.who == "north"
    assert "pass" not in game.pending.options


def test_a_phase_repeated_until_a_condition_that_never_holds_stops_as_a_runaway(wagers,
                                                                             monkeypatch):
    # 10,000 runs of a unit whose log grows: the suite's check of every run's start state
    # (engine.CHECK_SHARED) would cost a minute here, and this test is about the bound
    monkeypatch.setattr("ludex.engine.CHECK_SHARED", False)
    definition, start = wagers
    game = Game(definition, start, seed=0, autostart=False)
    definition.phase_until["tally"] = lambda ctx, args=(): False  # never holds, never asks
    try:
        with pytest.raises(LudexError) as runaway:
            game.run_phase("tally")
    finally:
        del definition.phase_until["tally"]
    assert runaway.value.code == "rules/step-budget"


def test_a_tie_without_a_tie_break_is_a_draw_and_with_one_goes_by_it(wagers):
    definition, start = wagers
    game = Game(definition, start, seed=0, autostart=False)
    game.state["ended"] = "last_turn"
    game.state["counters"]["rounds_won"] = {"north": 1, "south": 1}
    assert game.winner() is None and game.is_draw()
    tiny, tiny_start = load_definition(GAMES / "tiny")
    level = Game(tiny, tiny_start, seed=0, autostart=False)
    level.state["ended"] = "last_turn"
    assert level.scores()["red"] == level.scores()["blue"]
    assert level.winner() == "red" and not level.is_draw()  # tie_break: "-p.tie_break"


def ludex(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ludex.cli", *args], capture_output=True,
                          text=True, check=True)


def test_play_shows_a_draw_as_a_draw():
    # seed 25: both players win one round and the third is tied
    english = ludex("play", str(GAMES / "wagers"), "--agents", "random", "--seed", "25")
    assert english.stdout.splitlines()[-1].startswith(  # who is level is said
        "Game over (the last turn is over); a draw between North and South, no winner; scores:")
    assert "None" not in english.stdout
    shown = json.loads(ludex("play", str(GAMES / "wagers"), "--agents", "random", "--seed",
                             "25", "--json").stdout)
    assert shown["winner"] is None and shown["draw"] is True


@pytest.mark.parametrize(("game", "lang", "text"), [
    ("imperium", "en", "a draw, no winner"), ("imperium", "fr", "match nul, aucun vainqueur"),
    ("imperium", "de", "unentschieden, kein Sieger"),
    ("sword_of_rome", "ru", "ничья, победителя нет")])
def test_the_end_of_a_drawn_game_reads_as_a_draw_in_every_language(game, lang, text):
    definition, _ = load_definition(game)
    tied = dict.fromkeys(definition.power_ids[:2], 3)
    line = definition.localizer(lang).end_line("last_turn", None, tied)
    assert text in line and "None" not in line


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "a draw between Celts and Persians, no winner"),
    ("fr", "match nul entre Celtes et Perses, aucun vainqueur"),
    ("de", "Gleichstand an der Spitze: Kelten und Perser, kein Sieger")])
def test_a_draw_says_who_is_level_joined_as_the_language_joins_a_list(lang, text):
    """A designer's draw said "a draw, no winner" beside four scores: who tied was left to
    work out (Blue and Green, with the same score as each other)."""
    definition, _ = load_definition("imperium")
    tied = ["celts", "persians"]
    line = definition.localizer(lang).end_line("last_turn", None, dict.fromkeys(tied, 3), tied)
    assert text in line, line


def test_simulate_counts_draws_apart_from_wins():
    summary = json.loads(ludex("simulate", str(GAMES / "wagers"), "--games", "40",
                               "--json").stdout)
    assert not summary["errors"]
    assert summary["draws"] > 0
    assert sum(summary["winners"].values()) + summary["draws"] == 40
    assert summary["turns"]["min"] == summary["turns"]["max"] == 3  # a match is three rounds
    text = ludex("simulate", str(GAMES / "wagers"), "--games", "40").stdout
    draws = next(line.split() for line in text.splitlines() if line.strip().startswith("draws"))
    assert draws[1] == str(summary["draws"]) and draws[2].endswith("%")  # a rate, as wins


def test_copies_of_a_card_are_told_apart(wagers):
    definition, _ = wagers
    localizer = definition.localizer("en")
    assert localizer.name("white_wager#2") == "White wager (2 of 6)"
    assert localizer.option("play:white_wager#2") == "Play: White wager (2 of 6)"
    assert localizer.name("white_wager") == "White wager"


@pytest.mark.parametrize(("lang", "label"), [("en", "Unrest (2 of 12)"),
                                             ("fr", "Agitation (2 sur 12)"),
                                             ("de", "Unruhe (2 von 12)")])
def test_copies_are_told_apart_in_every_language_the_game_has(lang, label):
    definition, _ = load_definition("imperium")
    assert definition.localizer(lang).name("unrest#2") == label


def test_a_game_ended_by_its_until_says_why_in_its_own_words(tmp_path):
    """`until_reason` names the message a game ended by `until` ends with ("someone reached
    the target"), where it always said the last turn was over (a designer's trial could not
    say it without `end_game`); it needs a text, and means nothing without `until`."""
    from ludex.validate import validate_paths

    folder = tmp_path / "wagers"
    shutil.copytree(GAMES / "wagers", folder)
    manifest, locale = folder / "game.yaml", folder / "locale" / "en.yaml"
    text = manifest.read_text()
    manifest.write_text(text.replace('until: "turn == 3"', 'until: "turn == 3"\n'
                                     "until_reason: match_over", 1))
    [missing] = [d for d in validate_paths([folder]).diagnostics if d.is_error]
    assert (missing.code, Path(missing.file).name, missing.line) == \
        ("locale/missing-key", "game.yaml", text.splitlines().index(
            next(line for line in text.splitlines() if line.startswith("until:"))) + 2)
    locale.write_text(locale.read_text().replace(
        "messages:\n", 'messages:\n  match_over: "three rounds are played"\n', 1))
    definition, start = load_definition(folder)
    game = Game(definition, start, seed=4)
    agent = RandomAgent(4)
    while not game.is_terminal():
        step(game, agent)
    assert game.state["ended"] == "match_over"
    last_line = definition.localizer().end_line(game.state["ended"], game.winner(),
                                                game.scores())
    assert last_line.startswith("Game over (three rounds are played);"), last_line
    manifest.write_text(text.replace('until: "turn == 3"', "until_reason: match_over", 1))
    codes = [d.code for d in validate_paths([folder]).diagnostics if d.is_error]
    assert "content/ignored-field" in codes


def test_after_round_ends_every_repetition_even_one_until_cuts_short(tmp_path):
    """`after_round:` (a draft's reveal and passing of the hands) runs at the end of each
    repetition, after its windows: also the last one, which the pile running out stopped
    before south's window."""
    from ludex.scenario import run_scenario

    folder = tmp_path / "wagers"
    shutil.copytree(GAMES / "wagers", folder)
    procedures = folder / "procedures.yaml"
    procedures.write_text(procedures.read_text().replace(
        "    after_window: draw_up\n", "    after_window: draw_up\n    after_round: mark_round\n")
        + "  - id: mark_round\n    effect: |\n      log(\"round_marked\", round)\n")
    locale = folder / "locale" / "en.yaml"
    locale.write_text(locale.read_text().replace(
        "messages:\n", "messages:\n  round_marked: \"Round {a0} of play is over.\"\n"))
    scenario = folder / "scenarios" / "after_round.yaml"
    scenario.write_text("""\
game: ..
rules: [WAG-ROUND]
state:
  zones:
    pile: ["gold_wager#1", "gold_wager#2", "black_wager#1"]
    hand: {north: ["white_wager#1", "green_wager#1"], south: ["blue_wager#1", "red_wager#1"]}
run: {phase: hand}
decisions:
  - {who: north, choose: "discard:white_wager#1"}
  - {who: south, choose: "discard:blue_wager#1"}
  - {who: north, choose: "discard:green_wager#1"}
expect:
  - log_tail: ["North discards White wager (1 of 6).", "South discards Blue wager (1 of 6).",
               "Round 1 of play is over.", "North discards Green wager (1 of 6).",
               "Round 2 of play is over."]
  - "count(cards(pile)) == 0"
""")
    result = run_scenario(scenario)
    assert result.passed, result.report()


def _wagers_skipping(tmp_path, skip: str, extra_phase: str = "") -> Path:
    """The designer's game where `skip` leaves seats out of the hand of play."""
    folder = tmp_path / "wagers"
    shutil.copytree(GAMES / "wagers", folder)
    procedures = folder / "procedures.yaml"
    procedures.write_text(procedures.read_text().replace(
        "    after_window: draw_up\n", f"    after_window: draw_up\n    skip: \"{skip}\"\n")
        .replace("phases:\n", "phases:\n" + extra_phase, 1))
    return folder


def test_skip_leaves_a_seat_out_of_the_windows_with_its_after_window(tmp_path):
    """`skip:` (a bidder out of the auction) is read as play reaches each seat's window:
    north's play takes it to 10 points, and from then on only south is asked; north draws
    nothing more (no `after_window` for a window skipped)."""
    from ludex.scenario import run_scenario

    folder = _wagers_skipping(tmp_path, "counter(points, me) >= 9")
    scenario = folder / "scenarios" / "skip.yaml"
    scenario.write_text("""\
game: ..
rules: [WAG-ROUND]
state:
  counters: {points: {north: 5, south: 0}}
  zones:
    pile: ["gold_wager#1", "gold_wager#2", "black_wager#1", "black_wager#2"]
    hand: {north: ["white_wager#1", "gold_wager#3"], south: ["blue_wager#1", "red_wager#1"]}
run: {phase: hand}
decisions:
  - {who: north, choose: "play:gold_wager#3"}
  - {who: south, choose: "discard:blue_wager#1"}
  - {who: south, choose: "discard:red_wager#1"}
  - {who: south, choose: "discard:gold_wager#2"}
expect:
  - 'cards(hand, north) == ["gold_wager#1", "white_wager#1"]'
  - "count(cards(pile)) == 0"
""")
    result = run_scenario(scenario)
    assert result.passed, result.report()
    # with 9 points from the start north is never asked: south takes every turn
    scenario.write_text(scenario.read_text().replace("north: 5", "north: 9").replace(
        """  - {who: north, choose: "play:gold_wager#3"}
  - {who: south, choose: "discard:blue_wager#1"}
  - {who: south, choose: "discard:red_wager#1"}
  - {who: south, choose: "discard:gold_wager#2"}""",
        """  - {who: south, choose: "discard:blue_wager#1"}
  - {who: south, choose: "discard:red_wager#1"}
  - {who: south, choose: "discard:gold_wager#1"}
  - {who: south, choose: "discard:gold_wager#2"}""").replace(
        '["gold_wager#1", "white_wager#1"]', '["white_wager#1", "gold_wager#3"]'))
    result = run_scenario(scenario)
    assert result.passed, result.report()


def test_skip_leaves_a_power_out_of_the_parts_of_each(tmp_path):
    """With `each:`, `skip` leaves out the powers' parts its condition holds for, read as
    play reaches each part: north's bonus is the first, and south's is left out."""
    bonus = ("  - id: bonus\n    each: player_power\n"
             "    skip: \"sum([counter(rounds_won, p) for p in player_powers()]) > 0\"\n"
             "    effect: |\n      gain(rounds_won, me, 1)\n")
    folder = _wagers_skipping(tmp_path, "false", bonus)
    manifest = folder / "game.yaml"
    manifest.write_text(manifest.read_text().replace("sequence: [", "sequence: [bonus, ", 1))
    locale = folder / "locale" / "en.yaml"
    locale.write_text(locale.read_text().replace("phases: {", "phases: {bonus: Bonus, ", 1))
    definition, start = load_definition(folder)
    game = Game(definition, start, seed=1)
    assert game.state["counters"]["rounds_won"] == {"north": 1, "south": 0}


def test_a_window_taken_up_at_its_seat_is_not_skipped(tmp_path):
    """A game dumped at a seat's window resumes there even when `skip` would leave that seat
    out now: a free action (dropping out) kept the window open in the game, and the resumed
    scenario passed the seat over (found by a review)."""
    from ludex.scenario import run_scenario

    folder = tmp_path / "auction"
    shutil.copytree(GAMES / "auction", folder)
    scenario = folder / "scenarios" / "resumed.yaml"
    scenario.write_text("""\
game: ..
rules: [AUC-SKIP]
state:
  round: 1
  counters: {out: {north: 1}}
  zones: {pile: [vase], block: [rug]}
run: {phase: auction, seat: north}
expect:
  - {who: north}
""")
    result = run_scenario(scenario)
    assert result.passed, result.report()


def test_skip_without_each_or_window_is_an_ignored_field(tmp_path):
    from ludex.validate import validate_paths

    folder = _wagers_skipping(tmp_path, "false")
    procedures = folder / "procedures.yaml"
    text = procedures.read_text()
    procedures.write_text(text.replace("    clause: WAG-DEAL\n",
                                       "    clause: WAG-DEAL\n    skip: \"true\"\n", 1))
    found = [(d.code, d.line) for d in validate_paths([folder]).diagnostics if d.is_error]
    assert found == [("content/ignored-field", text.splitlines().index("    clause: WAG-DEAL") + 2)]


def test_a_procedure_a_phase_runs_takes_what_the_engine_passes_it(tmp_path):
    """`after_round` (and `start`, `end`) run their procedure with no arguments and
    `after_window` with the seat's power; one with other parameters ran with them unset and
    validated clean (found by a review)."""
    from ludex.validate import validate_paths

    folder = tmp_path / "wagers"
    shutil.copytree(GAMES / "wagers", folder)
    procedures = folder / "procedures.yaml"
    text = procedures.read_text()
    procedures.write_text(text.replace(
        "    after_window: draw_up\n", "    after_window: draw_up\n    after_round: draw_up\n"
        "    start: draw_up\n"))
    found = [(d.code, d.line, d.message) for d in validate_paths([folder]).diagnostics
             if d.is_error]
    line = text.splitlines().index("    after_window: draw_up") + 2
    assert [(code, at) for code, at, _ in found] == [
        ("content/procedure-arguments", line), ("content/procedure-arguments", line + 1)]
    assert "`after_round` runs `draw_up` with no arguments, but it has 1 parameter (p)" in \
        found[0][2]


def test_a_phase_whose_until_never_holds_is_a_runaway_placed_at_its_until(tmp_path,
                                                                         monkeypatch):
    """A designer's phase whose `until` could not hold ran 10,000 silent steps, then blamed
    `<engine>:1:1`; the error is at the `until` that never held."""
    monkeypatch.setattr("ludex.engine.CHECK_SHARED", False)  # as in the test above
    folder = tmp_path / "wagers"
    shutil.copytree(GAMES / "wagers", folder)
    procedures = folder / "procedures.yaml"
    text = procedures.read_text().replace(
        "  - id: tally\n    clause: WAG-ROUND-WIN\n",
        "  - id: tally\n    clause: WAG-ROUND-WIN\n    until: \"turn < 0\"\n")
    procedures.write_text(text)
    definition, start = load_definition(folder)
    game = Game(definition, start, seed=0, autostart=False)
    with pytest.raises(LudexError) as runaway:
        game.run_phase("tally")
    found = runaway.value.diagnostics[0]
    line = text.splitlines().index('    until: "turn < 0"') + 1
    assert (found.code, found.file, found.line) == ("rules/step-budget", str(procedures), line)
    assert "phase `tally` ran 10,000 steps without asking anything" in found.message


def test_an_action_with_from_but_no_card_is_told_that_card_is_what_takes_one(tmp_path):
    """A designer's action had `from: [mercado]` and no `card:`: `from` was ignored without a
    word, and the effect's `card` gave seven bare "unknown name `card`" errors."""
    from ludex.validate import validate_paths

    folder = tmp_path / "tiny"
    shutil.copytree(Path(__file__).parent / "games" / "tiny", folder)
    procedures = folder / "procedures.yaml"
    text = procedures.read_text()
    procedures.write_text(text.replace(
        "    free: true\n    effect: |\n      pay(gold, me, 2)\n",
        "    free: true\n    from: [discard]\n    effect: |\n      pay(gold, me, 2)\n"
        "      move_card(card, hand, me)\n      gain(gold, me, card.value)\n", 1))
    found = [(d.code, d.line, d.message) for d in validate_paths([folder]).diagnostics
             if d.is_error]
    line = text.splitlines().index("  - id: buy_gem") + 4
    assert [(code, at) for code, at, _ in found] == [
        ("content/ignored-field", line), ("effect/unknown-name", line + 3),
        ("effect/unknown-name", line + 4)]
    assert "give it `card: \"true\"`" in found[0][2]
    assert all("this action takes no card" in message for _, _, message in found[1:])


def test_a_trigger_does_not_fire_on_the_state_half_way_through_the_set_up(tmp_path):
    """A game whose set-up sets a counter that a `when` trigger watches (the caravan's water,
    0 until the set-up fills it from a table) ended before its first decision: the trigger
    looked after the set-up's first verb, while the counter still stood at 0 (found by a
    designer's trial). Triggers look once the set-up is done."""
    from ludex.engine import Game, load_definition

    game = tmp_path / "press_on"
    shutil.copytree(Path(__file__).parent / "games" / "press_on", game)
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        "  - {id: banked, per: power, min: 0}\n",
        "  - {id: banked, per: power, min: 0}\n  - {id: water, per: game, min: 0}\n"),
        encoding="utf-8")
    locale = game / "locale" / "en.yaml"
    locale.write_text(locale.read_text(encoding="utf-8").replace(
        "counters: {banked: Banked goods}", "counters: {banked: Banked goods, water: Water}"),
        encoding="utf-8")
    procedures = game / "procedures.yaml"
    procedures.write_text(procedures.read_text(encoding="utf-8").replace(
        "      shuffle(road)\n",
        "      shuffle(road)\n      set_counter(water, none, 3)\n"
        "triggers:\n  - id: perished\n    when: \"counter(water) == 0\"\n"
        "    effect: |\n      end_game(\"road_empty\")\n"), encoding="utf-8")
    played = Game(*load_definition(game), seed=1)
    assert not played.is_terminal() and played.pending.who == "north"
    assert played.state["counters"]["water"] == 3
    played.state["counters"]["water"] = 0  # in play, a trigger looks at each write as ever
    played.restart_unit()
    played.apply("camp")
    assert played.state["ended"] == "road_empty"


def test_a_game_that_never_asks_nor_ends_is_stopped_at_its_sequence_of_play(tmp_path,
                                                                           monkeypatch):
    """Its error was placed at `<engine>:1:1`, nowhere a designer can open (found by a
    designer's trial, a game whose `end_game` was left out); it is the manifest's `sequence`,
    where `turns` or `until` would go."""
    monkeypatch.setattr("ludex.engine.CHECK_SHARED", False)  # as above: the bound is the point
    game = tmp_path / "wagers"
    shutil.copytree(Path(__file__).parent / "games" / "wagers", game)
    manifest = game / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    text = text.replace("sequence: [deal, hand, tally]", "sequence: [tally]")
    manifest.write_text(text.replace('until: "turn == 3"', "").replace(
        "# a match is three rounds (WAG-MATCH)", ""), encoding="utf-8")
    line = next(i for i, row in enumerate(manifest.read_text().splitlines(), 1)
                if row.startswith("sequence:"))
    with pytest.raises(LudexError) as runaway:
        Game(*load_definition(game), seed=0)
    found = runaway.value.diagnostics[0]
    assert (found.code, found.file, found.line) == ("rules/step-budget", str(manifest), line)


def wagers_without_an_end(tmp_path: Path) -> tuple[Path, int]:
    """tests/games/wagers with the manifest's `until` left out: its phase `hand` still goes on
    until the pile is empty, but nothing ends the game. Returns the folder and the line of
    its `sequence`."""
    game = tmp_path / "wagers"
    shutil.copytree(Path(__file__).parent / "games" / "wagers", game)
    manifest = game / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace('until: "turn == 3"', "").replace(
        "# a match is three rounds (WAG-MATCH)", ""), encoding="utf-8")
    return game, text.splitlines().index("sequence: [deal, hand, tally]") + 1


def test_a_game_nothing_can_end_is_warned_at_its_sequence_when_validated(tmp_path):
    """A designer wrote "until the pile is empty" on the phase alone, as the content guide's
    example reads; `validate` said nothing and play ran away at run time (a designer's
    trial). No `turns`, no manifest `until` and no `end_game` anywhere is a warning."""
    from ludex.validate import validate_paths

    game, line = wagers_without_an_end(tmp_path)
    found = [(d.code, Path(d.file).name, d.line, d.severity)
             for d in validate_paths([game]).diagnostics if d.code == "content/no-end"]
    assert found == [("content/no-end", "game.yaml", line, "warning")]
    procedures = game / "procedures.yaml"  # a rule that can end it: nothing to warn of
    procedures.write_text(procedures.read_text(encoding="utf-8").replace(
        '          log("round_tied", turn)\n',
        '          log("round_tied", turn)\n          end_game("round_tied", turn)\n'),
        encoding="utf-8")
    assert "end_game" in procedures.read_text(encoding="utf-8")
    assert not [d for d in validate_paths([game]).diagnostics if d.code == "content/no-end"]


def test_a_runaway_after_a_phase_whose_until_holds_blames_the_game_without_an_end(
        tmp_path, monkeypatch):
    """The runaway asked whether the phase's `until` "ever holds", pointing at a condition
    that held: the pile was empty, the phase ended at once, and the game had no end of its
    own. The error says so, at the sequence of play."""
    monkeypatch.setattr("ludex.engine.CHECK_SHARED", False)  # the bound is the point
    game, line = wagers_without_an_end(tmp_path)
    manifest = game / "game.yaml"  # no deal: once the pile is drawn, nothing asks anything
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        "sequence: [deal, hand, tally]", "sequence: [hand, tally]"), encoding="utf-8")
    played = Game(*load_definition(game), seed=0)
    with pytest.raises(LudexError) as runaway:
        while played.pending is not None:
            step(played, RandomAgent(0))
    found = runaway.value.diagnostics[0]
    assert (found.code, Path(found.file).name, found.line) == \
        ("rules/step-budget", "game.yaml", line)
    assert "phase `hand`'s `until` holds, so it ends as soon as it begins, and nothing ends " \
        "the game" in found.message


@pytest.mark.parametrize(("answer", "said"), [
    ("pres_on", "did you mean `press_on`?"),  # a slip: the options it may have meant
    ("camp:salt#1", "`camp` takes no card"),
    ("pass", "may not be passed"),
])
def test_a_window_says_why_an_answer_is_no_option(answer, said):
    """A misspelt action was `not available now` — as if it might be later — with no hint
    of what was meant (found by a designer's trial)."""
    from ludex.runtime import Illegal

    game = Game(*load_definition(Path(__file__).parent / "games" / "press_on"), seed=1)
    with pytest.raises(Illegal) as refused:
        game.apply(answer)
    assert refused.value.code == "rules/illegal-action" and said in refused.value.text


def test_me_read_where_no_power_is_acting_is_an_error_at_the_read(tmp_path):
    """`me` in a phase's effect without `each` is none: `log("banked", me, …)` printed
    "None" and validated clean (found by a designer's trial). So it is in the game's `setup`
    and in a function called only from such places; a procedure also run by an action may
    run with a power, and is left alone."""
    from ludex.validate import validate_paths

    folder = tmp_path / "tiny"
    shutil.copytree(GAMES / "tiny", folder)
    manifest = folder / "game.yaml"
    manifest.write_text(manifest.read_text() + "setup: prepare\n")
    procedures = folder / "procedures.yaml"
    text = procedures.read_text().replace(
        "      for p in player_powers():\n          draw(1, deck, hand, p)\n",
        "      for p in player_powers():\n          draw(1, deck, hand, p)\n"
        "      gain(score, me, richest())\n      double_score(me)\n").replace(
        "      pay(gold, me, 2)\n", "      pay(gold, me, 2)\n      double_score(me)\n").replace(
        "procedures:\n", "procedures:\n  - id: prepare\n    effect: |\n"
        "      gain(gold, me, 1)\n      double_score(red)\n").replace(
        "functions:\n", "functions:\n  - id: richest\n    expression: \"counter(gold, me)\"\n")
    procedures.write_text(text)
    lines = text.splitlines()
    found = [(d.code, d.line, d.col) for d in validate_paths([folder]).diagnostics
             if d.is_error]
    assert found == sorted([
        ("effect/me-is-none", lines.index("      gain(score, me, richest())") + 1, 19),
        ("effect/me-is-none", lines.index("      double_score(me)") + 1, 20),
        ("effect/me-is-none", lines.index("      gain(gold, me, 1)") + 1, 18),
        ("effect/me-is-none", lines.index('    expression: "counter(gold, me)"') + 1, 32)])
    by_line = {d.line: d.message for d in validate_paths([folder]).diagnostics if d.is_error}
    # the game's `setup` is run by name, with no arguments: the fix is a loop over the powers
    # (a parameter, which nothing could pass, was a designer's trial's advice)
    setup_read = by_line[lines.index("      gain(gold, me, 1)") + 1]
    assert "`for p in player_powers():`" in setup_read and "as a parameter" not in setup_read
    called = by_line[lines.index('    expression: "counter(gold, me)"') + 1]
    assert "give it the power as a parameter" in called
