"""A scenario's `state: {dice: [...]}`: what the next `roll`s show, in order, before the
game's seeded generator takes over — instead of an `rng` found by trying values."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import yaml

SKIRMISH = Path(__file__).parent / "games" / "skirmish"


def scenario(tmp_path: Path, body: str) -> Path:
    game = tmp_path / "skirmish"
    if not game.exists():
        shutil.copytree(SKIRMISH, game)
    path = game / "scenarios" / "dice.yaml"
    path.write_text("game: ..\nname: dice\nrules: [SKR-CRT]\n" + body, encoding="utf-8")
    return path


ROLL_THREE = """\
run:
  power: red
  effect: |
    let r = roll(3)
"""


def rolled(tmp_path: Path, state: str) -> list[int]:
    from ludex.scenario import game_at_step

    game = game_at_step(scenario(tmp_path, state + ROLL_THREE), None)
    return next(e["args"]["dice"] for e in game.state["log"] if e["key"] == "dice")


def test_the_scenarios_dice_come_first_then_the_generator_goes_on_as_it_stood(tmp_path):
    plain = rolled(tmp_path, "")
    forced = rolled(tmp_path, "state:\n  dice: [4, 2]\n")
    assert forced[:2] == [4, 2]
    # the third die is the generator's first: forced dice do not move it
    assert forced[2] == plain[0]


def test_a_bundled_die_table_scenario_says_its_die_instead_of_an_rng():
    from ludex.scenario import run_scenario

    path = SKIRMISH / "scenarios" / "a_roll_of_six_reads_the_last_row.yaml"
    state = yaml.safe_load(path.read_text(encoding="utf-8"))["state"]
    assert state == {"dice": [6]}
    assert run_scenario(path).passed


def test_dice_the_run_never_rolls_are_an_error_at_the_first_of_them(tmp_path):
    from ludex.scenario import run_scenario

    result = run_scenario(scenario(tmp_path, "state:\n  dice: [4, 2, 5, 1]\n" + ROLL_THREE
                                   + 'expect: ["true"]\n'))
    assert result.status == "error", result.report()
    [error] = result.errors
    assert (error.code, error.line, error.col) == ("scenario/unused-dice", 5, 19)
    assert "1 die listed under `dice` never rolled: 1" in error.message


def test_dice_are_part_of_the_state_so_a_refused_run_puts_them_back(tmp_path):
    """A run that breaks a rule changes nothing, the dice it took included."""
    from ludex.scenario import run_scenario

    result = run_scenario(scenario(tmp_path, """\
state:
  dice: [3]
run:
  power: red
  effect: |
    let r = roll(1)
    require r[0] == 6 else "not_a_six"
expect:
  - {error: rules/illegal-action}
"""))
    assert result.passed, result.report()


def test_a_dump_writes_the_dice_still_to_come_and_resumes_with_them(tmp_path):
    from ludex.dump import scenario_from
    from ludex.scenario import game_at_step

    path = scenario(tmp_path, """\
state:
  dice: [6, 1, 2]
run: {phase: battle}
decisions:
  - {who: red, choose: attack}
""")
    dumped = scenario_from(game_at_step(path, 0))
    assert dumped["state"]["dice"] == [6, 1, 2]
    after = scenario_from(game_at_step(path, None))
    assert after["state"]["dice"] == [1, 2]  # the attack rolled one
    assert "dice" not in scenario_from(game_at_step(
        scenario(tmp_path, "run: {phase: battle}\n"), 0))["state"]


def test_ludex_dump_of_a_scenario_step_writes_its_dice(tmp_path):
    path = scenario(tmp_path, "state:\n  dice: [6, 1]\nrun: {phase: battle}\ndecisions:\n"
                              "  - {who: red, choose: attack}\n")
    out = tmp_path / "dumped.yaml"
    done = subprocess.run([sys.executable, "-m", "ludex.cli", "dump", str(path), "--step",
                           "1", "--out", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert yaml.safe_load(out.read_text(encoding="utf-8"))["state"]["dice"] == [1]

