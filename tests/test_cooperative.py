"""Cooperative games: the players win together (`set_winners`) or the game beats them (a power
no player holds wins, `set_winner`). A designer's cooperative game could say neither: a shared
win came out as a draw, and `simulate` dropped the wins of the power nobody plays."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ludex.engine import Game, load_definition
from ludex.playtest.evaluation import rewards
from ludex.scenario import run_scenario

WAGERS = Path(__file__).parent / "games" / "wagers"

TALLY = """\
  - id: tally
    clause: WAG-ROUND-WIN
    effect: |
      if sum([counter(points, p) for p in player_powers()]) >= TARGET:
          set_winners(player_powers())
      else:
          set_winner(house)
      end_game("expedition_over")
"""


@pytest.fixture
def together(tmp_path) -> Path:
    """The designer's game made cooperative: the round's points of both players together
    reach the target, or the house (a power no player holds) wins."""
    folder = tmp_path / "wagers"
    shutil.copytree(WAGERS, folder)
    set_target(folder, 60)
    manifest = folder / "game.yaml"
    manifest.write_text(manifest.read_text().replace("  - {id: south}\n",
                                                     "  - {id: south}\n  - {id: house}\n"))
    locale = folder / "locale" / "en.yaml"
    locale.write_text(locale.read_text().replace(
        "powers: {north: North, south: South}", "powers: {north: North, south: South, "
        "house: House}").replace("messages:\n", "messages:\n  expedition_over: the round is "
                                 "over\n"))
    return folder


def set_target(folder: Path, target: int) -> None:
    procedures = folder / "procedures.yaml"
    text = procedures.read_text()
    start = text.index("  - id: tally\n")
    end = text.index("actions:\n")
    procedures.write_text(text[:start] + TALLY.replace("TARGET", str(target)) + text[end:])


def finished(folder: Path, seed: int) -> Game:
    from ludex.agents import RandomAgent, step

    definition, start = load_definition(folder)
    game, agent = Game(definition, start, seed=seed), RandomAgent(seed)
    while not game.is_terminal():
        step(game, agent)
    return game


def test_a_shared_win_names_every_winner_and_is_no_draw(together):
    set_target(together, 0)
    game = finished(together, 1)
    assert game.winners() == ["north", "south"]
    assert game.winner() is None and not game.is_draw()
    line = game.definition.localizer().end_line(game.state["ended"], game.winners(),
                                                game.scores(), game.leaders())
    assert line.startswith("Game over (the round is over); won together by North and South")
    assert rewards(game) == [1.0, 1.0]  # both seats won: the search agents count it a win


def test_the_house_winning_is_a_loss_for_every_seat(together):
    set_target(together, 999)
    game = finished(together, 1)
    assert game.winners() == ["house"] and game.winner() == "house"
    # a power no player holds won: no seat did (it was counted a win for the first seat)
    assert rewards(game) == [0.0, 0.0]


def test_a_scenario_expects_a_shared_win_as_the_list_of_winners(together):
    set_target(together, 0)
    scenario = together / "scenarios" / "shared.yaml"
    text = """\
game: ..
rules: [WAG-ROUND-WIN]
run: {phase: tally}
expect:
  - {winner: WANTED}
"""
    scenario.write_text(text.replace("WANTED", "[south, north]"))
    assert run_scenario(scenario).passed
    scenario.write_text(text.replace("WANTED", "north"))
    result = run_scenario(scenario)
    assert not result.passed
    assert "expected winner north, actual won together by north, south" in result.report()
    set_target(together, 999)
    scenario.write_text(text.replace("WANTED", "[house]"))  # a list of one: it alone won
    assert run_scenario(scenario).passed
    scenario.write_text(text.replace("WANTED", "[north, nobody]"))
    result = run_scenario(scenario)
    assert "shared.yaml:5:22: error[scenario/unknown-name]: the winner is a power or `draw`, " \
        "not `nobody`" in result.report()


def test_simulate_counts_shared_wins_and_the_wins_of_a_power_nobody_plays(together, tmp_path):
    set_target(together, 16)  # some rounds reach it, some do not
    run = subprocess.run([sys.executable, "-m", "ludex.cli", "simulate", str(together),
                          "--games", "30", "--json"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    shared, house = summary["shared_wins"]["count"], summary["powers"]["house"]["count"]
    assert shared > 0 and house > 0 and shared + house == 30
    assert summary["powers"]["north"]["count"] == summary["powers"]["south"]["count"] == shared
    assert summary["draws"] == 0
    assert [s["count"] for s in summary["seats"]] == [shared, shared]
    text = subprocess.run([sys.executable, "-m", "ludex.cli", "simulate", str(together),
                           "--games", "30"], capture_output=True, text=True).stdout
    assert f"won together             {shared:>5}" in text
    assert f"House                    {house:>5}" in text


def test_a_list_of_winners_holds_only_once_the_game_is_over(together):
    """`set_winners` names the winners but ends nothing: a scenario's list of winners held
    before the end (found by a review)."""
    procedures = together / "procedures.yaml"
    set_target(together, 0)
    text = procedures.read_text()
    procedures.write_text(text.replace('      end_game("expedition_over")\n', ""))
    scenario = together / "scenarios" / "shared.yaml"
    scenario.write_text("game: ..\nrules: [WAG-ROUND-WIN]\nrun: {phase: tally}\n"
                        "expect:\n  - {winner: [north, south]}\n")
    result = run_scenario(scenario)
    assert not result.passed and "actual nobody (no end)" in result.report()
    scenario.write_text(scenario.read_text().replace("[north, south]", "[north, draw]"))
    assert "`draw` (nobody won) cannot be one of them" in run_scenario(scenario).report()


def test_the_report_of_a_cooperative_game_shows_the_house_winning_and_scores_only_players(
        together, tmp_path):
    """`simulate --report` stopped with an internal error when a power no player holds won:
    it was given a score histogram it never had (found by a review)."""
    set_target(together, 16)
    report = tmp_path / "report.html"
    run = subprocess.run([sys.executable, "-m", "ludex.cli", "simulate", str(together),
                          "--games", "12", "--report", str(report), "--json"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    assert "house" in summary["powers"] and "house" not in summary["scores"]
    assert "House" in report.read_text()
    assert summary["fair_share"] == 0.5  # not declared cooperative: seats are measured
    manifest = together / "game.yaml"
    manifest.write_text(manifest.read_text() + "cooperative: true\n")
    run = subprocess.run([sys.executable, "-m", "ludex.cli", "simulate", str(together),
                          "--games", "12", "--report", str(report), "--json"],
                         capture_output=True, text=True)
    summary = json.loads(run.stdout)
    # every seat shares the result: a first seat's edge over a fair share means nothing
    assert summary["fair_share"] is None and summary["first_seat"]["advantage"] is None
    assert "First-player advantage" not in report.read_text()
    text = subprocess.run([sys.executable, "-m", "ludex.cli", "simulate", str(together),
                           "--games", "4"], capture_output=True, text=True).stdout
    assert "first-player advantage" not in text and "wins" in text  # nor in the text
    shared = summary["shared_wins"]["count"]
    assert f'Won together: <span data-key="shared_wins.count">{shared}</span> of' in \
        report.read_text()


def test_tallies_with_a_winner_nobody_plays_merge_alike_in_any_order():
    from ludex.playtest.stats import Tally

    def record(seed, winners):
        return {"seed": seed, "seats": [["north"], ["south"]], "agents": ["random"] * 2,
                "winner": winners[0] if len(winners) == 1 else None, "winners": winners,
                "winner_seats": [], "ended": "x", "turns": 1, "decisions": 1,
                "scores": {"north": 0, "south": 0}, "plays": {}, "error": None,
                "warnings": []}

    def tally(winners):
        one = Tally()
        one.add(record(0, winners))
        return one

    first, second = Tally(), Tally()
    for merged, order in ((first, (["storm"], ["house"])), (second, (["house"], ["storm"]))):
        for winners in order:
            merged.merge(tally(winners))
    assert json.dumps(first.summary()) == json.dumps(second.summary())
    assert list(first.summary()["powers"]) == ["north", "south", "house", "storm"]


LOST = TALLY.replace("set_winner(house)", "set_winners([])")  # no power for the game


def test_a_cooperative_game_without_a_winner_is_lost_together_not_drawn(tmp_path):
    """The players of a cooperative game lose together with `set_winners([])`, no power
    standing for the game needed: it read "a draw" everywhere — the last line, `simulate`,
    the report — and a look-ahead agent valued it as half a win (found by a designer's
    trial, who declared a power nobody plays to lose to)."""
    from click.testing import CliRunner

    from ludex.cli import cli

    folder = tmp_path / "wagers"
    shutil.copytree(WAGERS, folder)
    (folder / "game.yaml").write_text((folder / "game.yaml").read_text()
                                      + "cooperative: true\n")
    procedures = folder / "procedures.yaml"
    text = procedures.read_text()
    start, end = text.index("  - id: tally\n"), text.index("actions:\n")
    procedures.write_text(text[:start] + LOST.replace("TARGET", "1000") + text[end:])
    locale = folder / "locale" / "en.yaml"
    locale.write_text(locale.read_text().replace(
        "messages:\n", "messages:\n  expedition_over: the round is over\n"))
    game = finished(folder, 1)
    assert game.lost_together() and not game.is_draw() and game.winners() == []
    assert rewards(game) == [0.0, 0.0]
    played = CliRunner().invoke(cli, ["play", str(folder), "--agents", "random", "--seed", "1",
                                      "--json"])
    outcome = json.loads(played.stdout)
    assert outcome["lost_together"] and not outcome["draw"]
    assert "lost together, nobody won" in outcome["end_line"]
    simulated = CliRunner().invoke(cli, ["simulate", str(folder), "--games", "4"])
    assert "lost together" in simulated.stdout and "draws" not in simulated.stdout


def test_a_scenario_expects_a_cooperative_loss_as_no_winners_and_draw_is_refused(together):
    """The content guide says a cooperative game lost together is asserted with `winner: []`;
    the scenario schema refused the empty list, and `draw` (which such a game does not have)
    passed instead (a designer's trial)."""
    set_target(together, 999)  # out of reach: nobody wins
    procedures = together / "procedures.yaml"
    procedures.write_text(procedures.read_text().replace("set_winner(house)", "set_winners([])"))
    manifest = together / "game.yaml"
    manifest.write_text(manifest.read_text() + "cooperative: true\n")
    scenario = together / "scenarios" / "lost.yaml"
    text = "game: ..\nrules: [WAG-ROUND-WIN]\nrun: {phase: tally}\nexpect:\n  - {winner: WANTED}\n"
    scenario.write_text(text.replace("WANTED", "[]"))
    result = run_scenario(scenario)
    assert result.passed, result.report()
    scenario.write_text(text.replace("WANTED", "north"))
    assert "expected winner north, actual nobody: lost together" in \
        run_scenario(scenario).report()
    scenario.write_text(text.replace("WANTED", "draw"))
    assert "lost.yaml:5:14: error[scenario/unknown-name]: a cooperative game has no draw: a " \
        "game that ends with nobody winning is lost together; write `winner: []`" in \
        run_scenario(scenario).report()
    set_target(together, 0)  # both win: an empty list is not met
    scenario.write_text(text.replace("WANTED", "[]"))
    assert "expected winner nobody (`[]`: lost together), actual won together by north, " \
        "south" in run_scenario(scenario).report()
    manifest.write_text(manifest.read_text().replace("cooperative: true\n", ""))
    # a game of powers against each other: nobody won, but nothing was lost together
    assert "expected winner nobody (`[]`), actual won together by north, south" in \
        run_scenario(scenario).report()
