"""Saved games: nothing that is not a save crashes `--resume` or `dump`; a save names the content
it was played with and refuses to replay into different content; random agents resume exactly;
`simulate`'s reproduction command plays the same game; write paths are checked before play; and
Ctrl-C saves and exits 130."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ludex.resources import games_dir
from ludex.simulate import Plan, play_one

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "tests" / "games" / "tiny"


def ludex(*args: str, cwd: Path | None = None, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ludex.cli", *args], capture_output=True,
                          text=True, cwd=cwd, **kwargs)


NOT_SAVES = {
    "a_list.json": "[1, 2, 3]",
    "no_decisions.json": json.dumps({"game": "imperium", "players": 3, "seed": 1}),
    "wrong_types.json": json.dumps({"game": "imperium", "players": "three", "seed": 1,
                                    "decisions": []}),
    "deeply_nested.json": "[" * 100_000 + "]" * 100_000,
    "bad_answer.json": json.dumps({"game": "imperium", "players": 3, "seed": 1,
                                   "decisions": [{"no": ["such", {"answer": 1}]}]}),
    "too_many_players.json": json.dumps({"game": "imperium", "players": 9, "seed": 1,
                                         "decisions": []}),
}


@pytest.mark.parametrize("name", sorted(NOT_SAVES))
def test_resuming_from_something_that_is_not_a_save_is_a_usage_error(name, tmp_path):
    path = tmp_path / name
    path.write_text(NOT_SAVES[name])
    result = ludex("play", "imperium", "--resume", str(path), "--agents", "first")
    assert result.returncode == 2, result.stderr
    assert name in result.stderr and "Traceback" not in result.stderr


def test_a_save_whose_decision_no_longer_applies_names_the_decision(tmp_path):
    path = tmp_path / "game.json"
    ludex("play", "imperium", "--agents", "random", "--max-decisions", "3", "--save", str(path))
    saved = json.loads(path.read_text())
    saved["decisions"][1] = "no_such_action"
    path.write_text(json.dumps(saved))
    result = ludex("play", "imperium", "--resume", str(path), "--agents", "first")
    assert result.returncode == 2
    assert "decision 2 (\"no_such_action\")" in result.stderr


def saved_tiny_game(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the tiny game and a save of its first two decisions: (game folder, save)."""
    game = tmp_path / "tiny"
    shutil.copytree(TINY, game)
    path = tmp_path / "game.json"
    ludex("play", str(game), "--agents", "random", "--max-decisions", "2", "--save", str(path))
    return game, path


def test_resuming_after_the_content_changed_is_refused_unless_forced(tmp_path):
    game, path = saved_tiny_game(tmp_path)
    cards = game / "cards" / "tiny_cards.yaml"
    cards.write_text(cards.read_text().replace("value: 2}", "value: 3}", 1))
    refused = ludex("play", str(game), "--resume", str(path), "--agents", "first")
    assert refused.returncode == 2
    assert "content has changed" in refused.stderr
    forced = ludex("play", str(game), "--resume", str(path), "--agents", "first", "--force")
    assert forced.returncode == 0, forced.stderr


def test_a_locale_change_does_not_stop_a_resume(tmp_path):
    game, path = saved_tiny_game(tmp_path)
    locale = game / "locale" / "en.yaml"
    locale.write_text(locale.read_text().replace("name: Tiny", "name: Tiny!"))
    assert ludex("play", str(game), "--resume", str(path), "--agents", "first").returncode == 0


def test_random_agents_resume_exactly_where_they_stopped(tmp_path):
    whole = ludex("play", "imperium", "--agents", "random", "--seed", "4", "--json")
    path = tmp_path / "game.json"
    ludex("play", "imperium", "--agents", "random", "--seed", "4", "--max-decisions", "15",
          "--save", str(path))
    resumed = ludex("play", "imperium", "--resume", str(path), "--agents", "random", "--json")
    assert json.loads(resumed.stdout)["scores"] == json.loads(whole.stdout)["scores"]
    assert json.loads(resumed.stdout)["log"] == json.loads(whole.stdout)["log"]


def test_the_command_simulate_gives_to_reproduce_a_game_plays_that_game(tmp_path):
    path = tmp_path / "game.json"
    played = ludex("play", "imperium", "--agents", "random", "--seed", "7", "--json",
                   "--save", str(path))
    simulated = play_one(Plan(str(games_dir() / "imperium"), 1), 7)
    assert json.loads(played.stdout)["winner"] == simulated["winner"]
    assert len(json.loads(path.read_text())["decisions"]) == simulated["decisions"]


def test_an_unwritable_save_path_is_refused_before_play(tmp_path):
    result = ludex("play", "imperium", "--agents", "random",
                   "--save", str(tmp_path / "missing" / "game.json"))
    assert result.returncode == 2
    assert result.stdout == ""  # not a single decision was played


def test_dump_tells_a_scenario_with_decisions_from_a_save():
    scenario = games_dir() / "imperium" / "scenarios" / "IMP-PAY-a.yaml"
    assert "decisions:" in scenario.read_text()
    result = ludex("dump", str(scenario))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("# yaml-language-server") or "game:" in result.stdout


def test_dump_refuses_a_file_that_is_neither_save_nor_scenario_cleanly(tmp_path):
    path = tmp_path / "junk.json"
    path.write_text(NOT_SAVES["deeply_nested.json"])
    result = ludex("dump", str(path))
    assert result.returncode in (1, 2)
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr


def test_ctrl_c_saves_the_game_and_exits_130(tmp_path):
    path = tmp_path / "game.json"
    process = subprocess.Popen([sys.executable, "-m", "ludex.cli", "play", "imperium",
                                "--agents", "human", "--save", str(path)],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    process.stdin.write("1\n")
    process.stdin.flush()
    deadline = time.monotonic() + 30
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    process.send_signal(signal.SIGINT)
    # wait before closing its stdin (communicate does): an end of input that comes before the
    # signal is handled is a player leaving, not Ctrl-C
    process.wait(timeout=30)
    process.communicate(timeout=30)
    assert process.returncode == 130
    assert len(json.loads(path.read_text())["decisions"]) == 1
