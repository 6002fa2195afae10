"""The rest of the command line driven for real: test, coverage, check, play, simulate, dump —
success and failure paths, exit codes and JSON shapes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

TINY = Path(__file__).parent / "games" / "tiny" / "scenarios"
SOR = Path(__file__).resolve().parent.parent / "games" / "sword_of_rome" / "scenarios"


def ludex(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ludex.cli", *args], capture_output=True,
                          text=True, cwd=cwd)


def tiny_scenario(tmp_path: Path, name: str, text: str) -> Path:
    """A scenario file of the tiny test game, in a folder that can find the game."""
    scenario = tmp_path / "scenarios" / name
    scenario.parent.mkdir(exist_ok=True)
    if not (tmp_path / "games").exists():
        (tmp_path / "games").symlink_to(TINY.parent.parent)
    scenario.write_text(text)
    return scenario


ASK_TO_PAY = ("game: tiny\nrules: [TINY-PAY]\nstate:\n  counters:\n"
              "    gold: {red: 2}\n    gems: {red: 1}\n"
              "run: {action: buy_gem, power: red}\n")


def test_test_command_runs_scenarios_and_ends_with_the_summary_line():
    result = ludex("test", str(TINY))
    assert result.returncode == 0, result.stdout
    assert result.stdout.strip().splitlines()[-1] == "7 passed, 0 failed"


def test_test_command_reports_a_failing_expectation_with_its_line(tmp_path):
    broken = tmp_path / "scenarios" / "wrong.yaml"
    broken.parent.mkdir()
    text = (TINY / "income.yaml").read_text().replace("counter(gold, red) == 2",
                                                      "counter(gold, red) == 99")
    broken.write_text(text)
    (tmp_path / "games").symlink_to(TINY.parent.parent)
    result = ludex("test", str(broken))
    assert result.returncode == 1
    assert "wrong.yaml:10: FAILED" in result.stdout
    assert "expected `counter(gold, red) == 99` to hold" in result.stdout
    assert "expected `counter(gold, red) == 99` to hold; it is 2\n" in result.stdout
    assert result.stdout.strip().splitlines()[-1] == "0 passed, 1 failed"


def test_a_failed_condition_shows_the_values_of_the_part_that_is_false(tmp_path):
    text = (TINY / "income.yaml").read_text().replace(
        "counter(gold, red) == 2",
        "counter(gold, red) == 2 and not (counter(gold, red) < 3)")
    scenario = tiny_scenario(tmp_path, "wrong.yaml", text)
    result = ludex("test", str(scenario))
    assert result.returncode == 1
    assert "(the negated part is true)" in result.stdout


@pytest.mark.parametrize(("condition", "said"), [
    ("counter(gold, red) == 2 and counter(gold, blue) == 5",
     "it does not: `counter(gold, blue) == 5` is false (it is 4)"),
    ("(counter(gold, red) < counter(gold, blue) and counter(gold, red) == 3) and true",
     "it does not: `counter(gold, red) == 3` is false (it is 2)"),
    ("(counter(gold, red) > counter(gold, blue)) and true",
     "it does not: `counter(gold, red) > counter(gold, blue)` is false "
     "(left side 2, right side 4)"),
], ids=["right", "nested", "grouped"])
def test_a_failed_and_quotes_the_part_that_is_false(tmp_path, condition, said):
    # the values alone, `(left side "alba", right side null)`, left a designer to guess which
    # part of the `and` they were of
    from ludex.scenario import run_scenario

    text = (TINY / "income.yaml").read_text().replace('"counter(gold, red) == 2"',
                                                      f'"{condition}"')
    result = run_scenario(tiny_scenario(tmp_path, "wrong.yaml", text))
    assert result.status == "failed"
    assert result.message == f"expected `{condition}` to hold; {said}"


def test_running_out_of_decisions_shows_the_pending_question(tmp_path):
    scenario = tiny_scenario(tmp_path, "ask.yaml", ASK_TO_PAY + "expect: [\"true\"]\n")
    result = ludex("test", "--json", str(scenario))
    payload = json.loads(result.stdout)
    assert payload["failed"] == 1
    message = payload["results"][0]["message"]
    assert "ran out of scripted decisions" in message and "pay" in message
    assert '{"gold": 2}' in message


def test_the_pending_question_is_shown_with_its_legal_options_and_the_refused_apart(tmp_path):
    """A scenario is written from these messages: an option offered but refused now (a gem
    to buy with no gold to pay for it) is not shown as one to script."""
    scenario = tiny_scenario(tmp_path, "poor.yaml", (
        "game: tiny\nrules: [TINY-PAY]\nstate:\n  counters:\n"
        "    gold: {red: 0, blue: 0}\n    gems: {red: 0, blue: 0}\n"
        "run: {phase: play}\nexpect: [\"true\"]\n"))
    message = json.loads(ludex("test", "--json", str(scenario)).stdout)["results"][0]["message"]
    assert "ran out of scripted decisions" in message
    legal, refused = message.split("legal options ")[1].split(" (refused now: ")
    assert "buy_gem" not in legal and "pass" in legal
    assert refused.startswith('["buy_gem"])')


def test_running_out_of_decisions_says_how_to_stop_at_the_question(tmp_path):
    """A `log` expectation does not make a run that stops at a question pass: a designer was
    caught by it twice. The failure says how to answer it or to stop there."""
    scenario = tiny_scenario(tmp_path, "ask.yaml", ASK_TO_PAY + "expect: [\"true\"]\n")
    message = json.loads(ludex("test", "--json", str(scenario)).stdout)["results"][0]["message"]
    assert "answer it under `decisions`, or, to stop at it, expect `{who: red}`" in message


def test_a_refusal_of_another_code_than_expected_names_both_codes_at_the_expectation(tmp_path):
    scenario = tiny_scenario(tmp_path, "code.yaml", (
        "game: tiny\nrules: [TINY-PAY]\nstate:\n  counters:\n"
        "    gold: {red: 0, blue: 0}\n    gems: {red: 0, blue: 0}\n"
        "run: {phase: play}\ndecisions:\n  - {who: red, choose: buy_gem}\n"
        "expect:\n  - {error: rules/illegal-choice}\n"))
    result = json.loads(ludex("test", "--json", str(scenario)).stdout)["results"][0]
    assert result["message"].startswith("expected error rules/illegal-choice, got "
                                        "rules/cannot-pay: ")
    assert "(at decision 1, `buy_gem`)" in result["message"]
    assert result["line"] == 11  # the expectation that is wrong, not the decision


def test_a_mismatched_scripted_decision_says_expected_and_actual(tmp_path):
    scenario = tiny_scenario(tmp_path, "who.yaml",
                             ASK_TO_PAY + "decisions:\n  - {who: blue, choose: {gems: 1}}\n")
    payload = json.loads(ludex("test", "--json", str(scenario)).stdout)
    assert "expected blue to decide" in payload["results"][0]["message"]
    assert payload["results"][0]["line"] == 9


def test_test_json_has_the_documented_shape():
    payload = json.loads(ludex("test", "--json", str(TINY)).stdout)
    assert {"passed", "failed", "results"} <= set(payload)
    assert {"file", "name", "rules", "status", "message"} <= set(payload["results"][0])


def test_coverage_lists_every_clause_and_fails_while_some_are_uncovered():
    result = ludex("coverage", "--json")
    payload = json.loads(result.stdout)
    ids = {c["id"] for c in payload["clauses"]}
    assert "SOR-5.10.1-c" in ids
    assert all({"id", "scenarios", "passing"} <= set(c) for c in payload["clauses"])
    covered = {c["id"]: c["passing"] for c in payload["clauses"]}
    assert covered["SOR-6.4.2"] is True
    assert result.returncode == (0 if all(covered.values()) else 1)


def test_play_with_random_agents_prints_a_localised_log_and_scores():
    result = ludex("play", "sword_of_rome", "--agents", "random", "--seed", "3",
                   "--lang", "ru")
    assert result.returncode == 0, result.stderr
    assert "Фаза:" in result.stdout


def test_play_json_is_the_log_then_scores():
    payload = json.loads(ludex("play", "sword_of_rome", "--agents", "first", "--json").stdout)
    assert isinstance(payload["log"], list) and "scores" in payload


def test_play_saves_yaml_and_resumes_it(tmp_path):
    saved = tmp_path / "game.yaml"
    first = ludex("play", "imperium", "--agents", "random", "--max-decisions", "4",
                  "--save", str(saved))
    assert first.returncode == 0, first.stderr
    assert "decisions:" in saved.read_text()
    resumed = ludex("play", "imperium", "--resume", str(saved), "--agents", "first", "--json")
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["ended"] is not None


def test_resuming_a_file_that_is_not_a_saved_game_is_a_usage_error(tmp_path):
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    result = ludex("play", "imperium", "--resume", str(junk))
    assert result.returncode == 2 and "Traceback" not in result.stderr


def test_play_save_and_resume(tmp_path):
    saved = tmp_path / "game.json"
    first = ludex("play", "sword_of_rome", "--agents", "random", "--max-decisions", "3",
                  "--save", str(saved))
    assert first.returncode == 0, first.stderr
    assert json.loads(saved.read_text())["game"] == "sword_of_rome"
    resumed = ludex("play", "sword_of_rome", "--resume", str(saved), "--agents", "random")
    assert resumed.returncode == 0, resumed.stderr


@pytest.mark.parametrize("args", [
    ["play", "chess", "--agents", "random"],
    ["play", "sword_of_rome", "--agents", "clever"],
    ["simulate", "sword_of_rome", "--games", "0"],
    ["simulate", "chess", "--games", "2"],
    ["test", "no/such/file.yaml"],
    ["play", "imperium", "--players", "7", "--agents", "random"],
    ["simulate", "imperium", "--games", "2", "--players", "9"],
])
def test_bad_arguments_get_a_one_line_error_and_exit_2(args):
    result = ludex(*args)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "Error" in result.stderr


def test_simulate_json_has_the_documented_shape():
    result = ludex("simulate", "sword_of_rome", "--games", "3", "--workers", "2", "--json")
    payload = json.loads(result.stdout)
    assert {"games", "seed", "winners", "turns", "errors"} <= set(payload)
    assert payload["games"] == 3 and payload["errors"] == []


def test_dump_turns_a_scenario_state_into_a_runnable_scenario(tmp_path):
    out = tmp_path / "scenarios" / "dumped.yaml"
    out.parent.mkdir()
    result = ludex("dump", str(SOR / "SOR-6.4.2.yaml"), "--out", str(out))
    assert result.returncode == 0, result.stderr
    text = out.read_text()
    assert "game: sword_of_rome" in text
    validate = ludex("validate", "--as", "scenario", str(out))
    assert validate.returncode == 0, validate.stdout


def test_a_dumped_scenarios_modeline_points_at_its_games_scenario_schema(tmp_path):
    out = tmp_path / "scenarios" / "dumped.yaml"
    out.parent.mkdir()
    assert ludex("dump", str(SOR / "SOR-6.4.2.yaml"), "--out", str(out)).returncode == 0
    modeline = out.read_text().splitlines()[0]
    target = modeline.split("$schema=", 1)[1]
    assert (out.parent / target).resolve() == (SOR.parent / "schemas" /
                                               "scenario.schema.json").resolve()


def test_check_validates_and_runs_every_bundled_game():
    result = ludex("check", "--json")
    games = json.loads(result.stdout)["games"]
    assert {g["game"] for g in games} >= {"sword_of_rome"}
    assert all(g["errors"] == 0 and g["scenarios"]["failed"] == 0 for g in games)


def test_a_human_whose_input_ends_mid_game_stops_it_with_exit_1_saved_and_resumable(tmp_path):
    """It exited 0, as a finished game does: a script could not tell the game was cut short."""
    saved = tmp_path / "game.json"
    result = subprocess.run([sys.executable, "-m", "ludex.cli", "play", "imperium", "--agents",
                             "human,random,random", "--seed", "1", "--save", str(saved)],
                            input="1\n", capture_output=True, text=True)
    assert result.returncode == 1, result.stderr
    assert result.stdout.splitlines()[-1].startswith("Game stopped; scores: ")
    assert "Traceback" not in result.stderr and "Error" not in result.stderr
    assert len(json.loads(saved.read_text())["decisions"]) >= 1
    resumed = ludex("play", "imperium", "--resume", str(saved), "--agents", "random")
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.splitlines()[-1].startswith("Game over")


def test_a_game_played_to_its_end_by_a_human_exits_0(tmp_path):
    """Exit 1 is for input that ends before the game does, not for input that ends after."""
    first_options = "\n".join(["1"] * 200) + "\n"
    result = subprocess.run([sys.executable, "-m", "ludex.cli", "play", str(TINY.parent),
                             "--agents", "human,first"], input=first_options,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1].startswith("Game over")


def test_bad_content_met_by_any_command_is_reported_like_validate_not_as_a_crash(tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text("game: [unclosed\n")
    result = ludex("dump", str(broken))
    assert result.returncode == 1
    assert "error[yaml/syntax]" in result.stderr
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr


def test_python_dash_m_ludex_runs_the_command_line():
    result = subprocess.run([sys.executable, "-m", "ludex", "--version"], capture_output=True,
                            text=True)
    assert result.returncode == 0 and result.stdout.startswith("ludex, version")


def test_simulate_output_piped_starts_with_its_summary_not_a_progress_line():
    result = ludex("simulate", "imperium", "--games", "2")
    assert result.stdout.splitlines()[0].startswith("2 games of Imperium from seed 0")


def test_a_card_listed_in_two_zones_of_the_state_is_an_error(tmp_path):
    scenario = tiny_scenario(tmp_path, "twice.yaml", ASK_TO_PAY.replace(
        "state:\n", "state:\n  zones:\n    hand: {red: [red_one]}\n    discard: {red: [red_one]}\n")
        + "expect: [\"true\"]\n")
    result = ludex("test", "--json", str(scenario))
    payload = json.loads(result.stdout)
    assert payload["failed"] == 1 and payload["results"][0]["status"] == "error"
    assert "error[scenario/card-listed-twice]: card `red_one` is listed twice in the state: in " \
        "hand of red and in discard of red" in payload["results"][0]["message"]


def test_log_tail_pins_the_last_lines_in_order(tmp_path):
    text = (TINY / "income.yaml").read_text()
    scenario = tiny_scenario(tmp_path, "tail.yaml",
                             text + "  - log_tail: [\"nothing like this\"]\n")
    result = ludex("test", str(scenario))
    assert result.returncode == 1
    assert 'expected the log to end with ["nothing like this"]' in result.stdout


def test_a_failed_expectation_shows_its_words_as_written_not_escaped(tmp_path):
    """`Rosso è secondo` was shown as `Rosso \u00e8 secondo` in an Italian designer's
    failures."""
    text = (TINY / "income.yaml").read_text()
    scenario = tiny_scenario(tmp_path, "tail.yaml",
                             text + '  - log_tail: ["Rosso è secondo"]\n')
    result = ludex("test", str(scenario))
    assert 'expected the log to end with ["Rosso è secondo"]' in result.stdout
    scenario.write_text(text + """  - {value: '"né"', equals: "ça"}\n""")
    assert '`"né"`: expected "ça", actual "né"' in ludex("test", str(scenario)).stdout


def test_an_error_with_another_reason_than_expected_fails(tmp_path):
    text = (TINY / "cannot_pay.yaml").read_text().replace(
        "{error: rules/cannot-pay}", "{error: rules/cannot-pay, reason: some_other_reason}")
    scenario = tiny_scenario(tmp_path, "reason.yaml", text)
    result = ludex("test", str(scenario))
    assert result.returncode == 1
    assert "expected error rules/cannot-pay for `some_other_reason`, got it for:" in result.stdout


def test_a_refused_answer_is_shown_as_the_scenario_wrote_it_not_as_python(tmp_path):
    scenario = tiny_scenario(tmp_path, "repr.yaml", (
        "game: tiny\nrules: [TINY-PAY]\nrun: {phase: play}\n"
        "decisions:\n  - {who: red, choose: {gems: 1}}\nexpect: [\"true\"]\n"))
    message = json.loads(ludex("test", "--json", str(scenario)).stdout)["results"][0]["message"]
    assert '`{"gems": 1}` is no option of this window' in message
    assert "{'gems'" not in message


def test_a_report_that_cannot_be_written_after_the_run_keeps_the_results(tmp_path):
    """`--report` into a folder removed during the run (or into /proc) crashed after the games
    were played and printed nothing: the summary now comes first, the error says so, exit 1."""
    result = ludex("simulate", str(TINY.parent), "--games", "2",
                   "--report", "/proc/ludex-report.html")
    assert result.returncode == 1, result.stderr
    assert result.stdout.startswith("2 games of Tiny from seed 0")
    assert "Error: --report /proc/ludex-report.html cannot be written" in result.stderr
    assert "internal error" not in result.stderr


def test_a_report_is_written_when_the_summary_is_piped_into_head(tmp_path):
    """`simulate --report r.html | head -2` closed the pipe under the summary, and the report
    was never written (found by a designer's trial)."""
    report = tmp_path / "r.html"
    command = (f"{sys.executable} -m ludex.cli simulate {TINY.parent} --games 20 "
               f"--report {report} | head -2")
    result = subprocess.run(["bash", "-c", command], capture_output=True, text=True)
    assert result.stdout.splitlines()[0].startswith("20 games of Tiny")
    assert report.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_a_scenario_that_errors_is_named_by_its_name_as_a_failing_one_is(tmp_path):
    """`ludex test` printed `ERROR: <file stem>` for a scenario refused as written, where a
    failing one shows its `name`."""
    scenario = tiny_scenario(tmp_path, "refused.yaml", (
        "game: tiny\nname: gold never goes below zero\nrules: [TINY-PAY]\n"
        "state:\n  counters:\n    goldd: {red: 2}\nrun: {phase: play}\nexpect: [\"true\"]\n"))
    result = ludex("test", str(scenario))
    assert result.returncode == 1
    assert "ERROR: gold never goes below zero" in result.stdout, result.stdout


@pytest.mark.parametrize("command", ["test", "coverage"])
def test_a_scenario_file_that_does_not_exist_is_named_missing_not_a_game(tmp_path, command):
    result = ludex(command, str(tmp_path / "scenarios" / "missing.yaml"))
    assert result.returncode == 2
    assert "missing.yaml` does not exist" in result.stderr
    assert "no game folder" not in result.stderr
