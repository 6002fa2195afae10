"""A content error met while a scenario runs a scripted decision (a runaway trigger chain, an
effect's error) is reported as the content error at its place, once, then the decision that
met it — not as the answer being refused. A true refusal (a broken `require`, an option not
offered) is still a refusal."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

GAMES = Path(__file__).parent / "games"

# two triggers that undo each other once north has banked goods: a bug of the rules
LOOP = """\
triggers:
  - id: up
    when: "counter(banked, north) == 4"
    effect: |
      set_counter(banked, north, 5)
  - id: down
    when: "counter(banked, north) == 5"
    effect: |
      set_counter(banked, north, 4)
"""


def press_on(tmp_path: Path, camp_effect: str | None = None, triggers: str = "") -> Path:
    game = tmp_path / "press_on"
    shutil.copytree(GAMES / "press_on", game)
    procedures = game / "procedures.yaml"
    text = procedures.read_text(encoding="utf-8")
    if camp_effect is not None:
        text = text.replace('      log("camped", me, goods)\n',
                            f'      log("camped", me, goods)\n      {camp_effect}\n')
    procedures.write_text(text + triggers, encoding="utf-8")
    return game


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if text in line)


def test_a_trigger_loop_met_at_a_decision_is_reported_at_the_trigger_not_as_a_refusal(
        tmp_path):
    from ludex.scenario import run_scenario

    game = press_on(tmp_path, triggers=LOOP)
    result = run_scenario(game / "scenarios" / "camping_banks_the_cart.yaml")
    assert result.status == "error", result.report()
    [error] = result.errors
    assert error.code == "rules/step-budget"
    assert Path(error.file) == game / "procedures.yaml"
    assert error.line in (line_of(game / "procedures.yaml", "== 4"),
                          line_of(game / "procedures.yaml", "== 5"))
    report = result.report()
    assert "refused" not in report
    assert report.count("set each other off") == 1, report  # the message once
    assert "\n   " in report and "^" in report  # its source line and caret
    assert "decision 1 (`camp`) met this error" in report
    # the scenario's line is the decision's
    assert result.line == line_of(game / "scenarios" / "camping_banks_the_cart.yaml", "camp}")


def test_an_effect_error_met_at_a_decision_is_placed_in_the_effect(tmp_path):
    from ludex.scenario import run_scenario

    game = press_on(tmp_path, camp_effect="move_card(cards(road)[99], discard)")
    result = run_scenario(game / "scenarios" / "camping_banks_the_cart.yaml")
    assert result.status == "error", result.report()
    assert [(e.code, e.line) for e in result.errors] == [
        ("effect/bad-index", line_of(game / "procedures.yaml", "cards(road)[99]"))]
    assert "refused" not in result.report()
    assert result.met == "camp" and result.refused is None


def test_a_broken_require_at_a_decision_is_still_a_refusal(tmp_path):
    from ludex.scenario import run_scenario

    game = press_on(tmp_path)
    scenario = game / "scenarios" / "empty_road.yaml"
    scenario.write_text("""\
game: press_on
name: passing, which the rules do not allow
rules: [PRESS-TURN]
state:
  zones:
    road: [salt#1]
    cart: {north: [], south: []}
run: {phase: journey}
decisions:
  - {who: north, choose: pass}
expect:
  - "counter(banked, north) == 0"
""", encoding="utf-8")
    result = run_scenario(scenario)
    assert result.status == "failed" and not result.errors, result.report()
    assert "decision 1 (`pass`) was refused: rules/illegal-action" in result.message


def test_ludex_test_prints_a_content_error_at_a_decision_compiler_style(tmp_path):
    game = press_on(tmp_path, triggers=LOOP)
    scenario = game / "scenarios" / "camping_banks_the_cart.yaml"
    shown = subprocess.run([sys.executable, "-m", "ludex.cli", "test", str(scenario)],
                           capture_output=True, text=True, cwd=tmp_path)
    assert shown.returncode == 1
    lines = shown.stdout.splitlines()
    assert lines[0].startswith(f"{scenario}:") and ": ERROR: " in lines[0]
    assert "press_on/procedures.yaml:" in lines[1] and "error[rules/step-budget]" in lines[1]
    as_json = json.loads(subprocess.run(
        [sys.executable, "-m", "ludex.cli", "test", "--json", str(scenario)],
        capture_output=True, text=True, cwd=tmp_path).stdout)
    [found] = as_json["results"]
    assert found["status"] == "error"
    assert [e["code"] for e in found["errors"]] == ["rules/step-budget"]


def trigger_after_a_discard(tmp_path: Path, effect: str, procedure: str | None = None):
    """Wagers with a `when` trigger that a card's discard sets off, running `effect` (and
    `procedure`, a procedure `take_far` for it to call): the error the scenario
    `discard_then_draw` meets."""
    from ludex.scenario import run_scenario

    game = tmp_path / "wagers"
    shutil.copytree(GAMES / "wagers", game)
    path = game / "procedures.yaml"
    text = path.read_text(encoding="utf-8")
    if procedure is not None:
        text = text.replace("procedures:\n", "procedures:\n  - id: take_far\n    effect: |\n"
                            f"      {procedure}\n", 1)
    path.write_text(text + "triggers:\n  - id: on_discard\n"
                    '    when: "count(cards(discard)) == 1"\n'
                    f"    effect: |\n      {effect}\n", encoding="utf-8")
    [error] = run_scenario(game / "scenarios" / "discard_then_draw.yaml").errors
    return error


def test_an_error_in_a_trigger_a_card_set_off_is_not_said_to_be_the_cards(tmp_path):
    """"…, with card `zima` [in tam]": the card played only set the trigger off; the trigger
    is the rule to fix."""
    error = trigger_after_a_discard(tmp_path, "move_card(cards(pile)[99], table)")
    assert error.code == "effect/bad-index" and "[in on_discard]" in error.message
    assert "with card" not in error.message


def test_an_error_in_a_procedure_a_trigger_calls_is_not_said_to_be_the_cards_either(tmp_path):
    """The error's rule is then the procedure, not the trigger: the card was still blamed (a
    review's finding)."""
    error = trigger_after_a_discard(tmp_path, "take_far()", "move_card(cards(pile)[99], table)")
    assert error.code == "effect/bad-index" and "[in take_far]" in error.message
    assert "with card" not in error.message


def test_a_content_error_met_by_the_run_itself_is_shown_with_its_source_line(tmp_path):
    from ludex.scenario import run_scenario

    game = press_on(tmp_path, triggers=LOOP)
    scenario = game / "scenarios" / "bank.yaml"
    scenario.write_text("game: ..\nname: banking four\nrules: [PRESS-CAMP]\nrun:\n"
                        "  power: north\n  effect: |\n    set_counter(banked, north, 4)\n"
                        'expect: ["true"]\n', encoding="utf-8")
    result = run_scenario(scenario)
    assert result.status == "error" and result.line == 5  # `run:`
    assert [e.code for e in result.errors] == ["rules/step-budget"]
    assert 'when: "counter(banked, north) ==' in result.report()
