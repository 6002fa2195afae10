"""A game with look-ahead seats (MCTS, greedy) saved part-way and resumed goes on exactly as the
unbroken game: at the terminal (`ludex play --save` / `--resume`) and at the table (its saves
and undo). The agents draw each decision from a generator of its own (playtest/seeding.py), and
a save keeps each seat's agent with its budget."""

from __future__ import annotations

import json
import subprocess
import sys

from ludex.engine import load_definition
from ludex.table.session import Table

AGENTS = "mcts:4,greedy"
PLAY = ["imperium", "--players", "2", "--seed", "5"]


def ludex(*args: str) -> subprocess.CompletedProcess:
    run = subprocess.run([sys.executable, "-m", "ludex.cli", *args], capture_output=True,
                         text=True)
    assert run.returncode == 0, run.stderr
    return run


def test_a_game_with_lookahead_seats_resumed_from_a_save_goes_on_as_the_unbroken_one(tmp_path):
    whole, part = tmp_path / "whole.json", tmp_path / "part.json"
    unbroken = ludex("play", *PLAY, "--agents", AGENTS, "--save", str(whole), "--json")
    ludex("play", *PLAY, "--agents", AGENTS, "--max-decisions", "30", "--save", str(part))
    saved = json.loads(part.read_text())
    assert len(saved["decisions"]) == 30
    assert [a["kind"] for a in saved["agents"]] == ["mcts:4", "greedy"]  # with the budget
    # no --agents: the resumed game seats the agents it was saved with
    resumed = ludex("play", "imperium", "--resume", str(part), "--save", str(part), "--json")
    assert json.loads(part.read_text())["decisions"] == json.loads(whole.read_text())[
        "decisions"]
    assert json.loads(resumed.stdout) == json.loads(unbroken.stdout)


def test_a_table_with_lookahead_seats_goes_on_alike_after_a_save_is_loaded(tmp_path):
    definition, start = load_definition("imperium")

    def table(name: str) -> Table:
        return Table(definition.folder, definition, start, tmp_path / name, players=2,
                     seed=5, seats=["mcts:4", "greedy"])

    unbroken = table("unbroken")
    unbroken.run_agents(seconds=None)  # a slice would cut it short on a busy machine
    stopped = table("stopped")
    stopped.run_agents(limit=30, seconds=None)
    stopped.save("part")
    resumed = table("resumed")
    resumed.saves = stopped.saves
    resumed.load("part")
    assert resumed.kinds == ["mcts:4", "greedy"] and len(resumed.game.history) == 30
    resumed.run_agents(seconds=None)
    assert unbroken.game.is_terminal()
    assert resumed.game.history == unbroken.game.history
