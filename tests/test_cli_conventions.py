"""The command line behaves as a well-behaved tool does: --json carries what the text shows,
people's prompts and progress go to stderr, Ctrl-C exits 130 after keeping what can be kept,
`check` says what failed, and `test` and `validate` agree on what is valid."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "tests" / "games" / "tiny"


def ludex(*args: str, cwd: Path | None = None, stdin: str | None = None
          ) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ludex.cli", *args], capture_output=True,
                          text=True, cwd=cwd, input=stdin, timeout=300)


@pytest.fixture
def tiny(tmp_path) -> Path:
    """A copy of the tiny game to break."""
    shutil.copytree(TINY, tmp_path / "tiny")
    return tmp_path / "tiny"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


# -- check -------------------------------------------------------------------------------------
def test_check_of_a_game_whose_scenarios_fail_says_failing_not_ok(tiny):
    edit(tiny / "scenarios" / "income.yaml", "count(cards(hand, red)) == 1",
         "count(cards(hand, red)) == 7")
    result = ludex("check", str(tiny))
    assert result.returncode == 1
    summary = result.stdout.splitlines()[-1]
    assert re.match(r"tiny +1 failing ", summary) and " ok " not in summary


def test_check_json_carries_each_failed_scenario_as_the_text_shows_it(tiny):
    edit(tiny / "scenarios" / "income.yaml", "count(cards(hand, red)) == 1",
         "count(cards(hand, red)) == 7")
    text = ludex("check", str(tiny)).stdout
    game = json.loads(ludex("check", str(tiny), "--json").stdout)["games"][0]
    failed = [r for r in game["results"] if r["status"] != "passed"]
    assert [Path(r["file"]).name for r in failed] == ["income.yaml"]
    assert failed[0]["message"] in text
    assert "it is 1" in failed[0]["message"]
    assert len(game["results"]) == game["scenarios"]["passed"] + game["scenarios"]["failed"]


def test_check_of_a_broken_game_shows_each_error_with_its_source_line_in_text_and_json(tiny):
    edit(tiny / "cards" / "tiny_cards.yaml", "gain(score, me, 3)", "gain(scor, me, 3)")
    result = ludex("check", str(tiny))
    assert result.returncode == 1
    assert "cards/tiny_cards.yaml:12:12: error[effect/unknown-name]" in result.stdout
    assert "  12 |       gain(scor, me, 3)\n" in result.stdout
    assert re.search(r"\n +\^\n", result.stdout)  # the caret under the column
    assert re.search(r"tiny +1 error ", result.stdout)  # one error: not "1 errors"
    game = json.loads(ludex("check", str(tiny), "--json").stdout)["games"][0]
    assert [(d["code"], d["line"], d["col"]) for d in game["diagnostics"]] == [
        ("effect/unknown-name", 12, 12)]


def test_check_shows_a_scenario_error_validate_shows_even_where_the_run_fails_first(tiny):
    """Reported by a new-user trial: a scenario whose run was refused before it reached an
    expectation with an unknown name showed the refusal only; `check` checks every scenario
    as `validate` does too."""
    edit(tiny / "scenarios" / "cannot_pay.yaml", "expect:\n", "expect:\n"
         "  - \"counter(gold, red) == nonexistent_name\"\n")
    validated = ludex("validate", str(tiny)).stdout
    assert "error[effect/unknown-name]: unknown name `nonexistent_name`" in validated
    checked = ludex("check", str(tiny))
    assert checked.returncode == 1
    assert "error[effect/unknown-name]: unknown name `nonexistent_name`" in checked.stdout
    assert re.search(r"tiny +1 error ", checked.stdout)


def test_validate_names_scenario_files_as_it_names_the_game_s_own(tiny):
    """Reported by a new-user trial: a scenario's error was shown at its absolute path, the
    game's at a path relative to the working directory."""
    edit(tiny / "scenarios" / "cannot_pay.yaml", "expect:\n", "expect:\n"
         "  - \"counter(gold, red) == nonexistent_name\"\n")
    out = ludex("validate", "tiny", cwd=tiny.parent).stdout
    files = [line.split(":")[0] for line in out.splitlines() if ": error[" in line]
    assert files == ["tiny/scenarios/cannot_pay.yaml"]  # as `tiny/cards/…` would read


def test_check_of_a_broken_game_says_its_scenarios_were_not_run(tiny):
    edit(tiny / "cards" / "tiny_cards.yaml", "gain(score, me, 3)", "gain(scor, me, 3)")
    summary = ludex("check", str(tiny)).stdout.splitlines()[-1]
    assert summary.endswith("scenarios: 0 passed, 0 failed, 7 not run (the game has errors)")
    game = json.loads(ludex("check", str(tiny), "--json").stdout)["games"][0]
    assert game["scenarios"] == {"passed": 0, "failed": 0, "not_run": 7}


# -- scenarios: validate and test agree ---------------------------------------------------------
def test_a_clause_id_the_game_lacks_fails_both_validate_and_test_at_its_place(tiny):
    scenario = tiny / "scenarios" / "income.yaml"
    edit(scenario, "rules: [TINY-INCOME]", "rules: [CARD-x]")
    validated = ludex("validate", str(scenario), "--json")
    tested = ludex("test", str(scenario), "--json")
    assert validated.returncode == tested.returncode == 1
    codes = [(d["code"], d["line"], d["col"]) for d in json.loads(validated.stdout)["errors"]]
    assert codes == [("scenario/unknown-clause", 4, 9)]
    result = json.loads(tested.stdout)["results"][0]
    assert result["status"] == "error" and "scenario/unknown-clause" in result["message"]


def test_a_scenario_validate_refuses_is_not_run_by_test_and_shows_the_same_error(tiny):
    scenario = tiny / "scenarios" / "income.yaml"
    text = scenario.read_text(encoding="utf-8")
    run_line = next(line for line in text.splitlines() if line.startswith("run:"))
    edit(scenario, run_line, "run: {procedure: double_score}")
    validated = json.loads(ludex("validate", str(scenario), "--json").stdout)["errors"]
    result = json.loads(ludex("test", str(scenario), "--json").stdout)["results"][0]
    assert [d["code"] for d in validated] == ["scenario/missing-argument"]
    assert result["status"] == "error" and "scenario/missing-argument" in result["message"]
    assert result["line"] == validated[0]["line"]


def test_a_clause_id_of_the_wrong_form_is_told_the_form_of_a_clause_id(tiny):
    scenario = tiny / "scenarios" / "income.yaml"
    edit(scenario, "rules: [TINY-INCOME]", "rules: [tiny-INCOME]")
    [diagnostic] = json.loads(ludex("validate", str(scenario), "--json").stdout)["errors"]
    assert (diagnostic["code"], diagnostic["line"], diagnostic["col"]) == (
        "schema/bad-name", 4, 9)
    assert "not a clause id" in diagnostic["message"]
    assert "lower-case" not in diagnostic["message"]  # the rule for other names
    assert "did you mean `TINY-INCOME`?" in diagnostic["message"]


@pytest.mark.parametrize("file,old,new,line,col", [
    ("cards/locale/en.yaml", "  red_three: {name: Red Three}", "  Red_Three: {name: Red Three}",
     6, 3),  # not the mapping's first key (line 4)
    ("game.yaml", "  value: {type: integer", "  Value: {type: integer", 37, 3),
])
def test_a_key_that_is_not_a_valid_name_is_reported_at_that_key(tiny, file, old, new, line,
                                                                 col):
    edit(tiny / file, old, new)
    errors = json.loads(ludex("validate", str(tiny), "--json").stdout)["errors"]
    found = [(d["file"], d["line"], d["col"]) for d in errors if d["code"] == "schema/bad-name"]
    assert found == [(str(tiny / file), line, col)], errors


def test_test_json_carries_the_decisions_given_before_a_failure_as_the_text_does(tiny):
    edit(tiny / "scenarios" / "buy_gem_choice.yaml", '"counter(gold, red) == 2"',
         '"counter(gold, red) == 3"')
    scenario = str(tiny / "scenarios" / "buy_gem_choice.yaml")
    assert 'decisions given: [{"gems": 1}]' in ludex("test", scenario).stdout
    [result] = json.loads(ludex("test", scenario, "--json").stdout)["results"]
    assert result["status"] == "failed" and result["decisions"] == [{"gems": 1}]


def test_the_decisions_given_list_the_refused_one_marked_as_refused(tmp_path):
    # an expected refusal failing on its `reason_args` showed only the decisions before it:
    # the one the expectation is about was missing
    game = tmp_path / "auction"
    shutil.copytree(ROOT / "tests" / "games" / "auction", game)
    scenario = game / "scenarios" / "AUC-BID-b-no-pass.yaml"
    edit(scenario, '"counter(out, north) == 0"', '"counter(out, north) == 1"')
    assert 'decisions given: ["pass" (refused)]' in ludex("test", str(scenario)).stdout
    [result] = json.loads(ludex("test", str(scenario), "--json").stdout)["results"]
    assert (result["decisions"], result["refused"]) == ([], "pass")


def test_a_failed_comparison_with_a_constant_says_what_the_value_is(tiny):
    edit(tiny / "scenarios" / "income.yaml", "count(cards(hand, red)) == 1",
         "count(cards(hand, red)) == 7")
    result = ludex("test", str(tiny))
    assert "expected `count(cards(hand, red)) == 7` to hold; it is 1\n" in result.stdout


def test_the_interpreter_reads_yaml_only_through_its_safe_loader():
    """yamlio's loader refuses YAML 1.1 traps, duplicate keys and alias bombs; a module that
    called PyYAML itself would accept them."""
    readers = re.compile(r"\byaml\.(safe_load|load|full_load|unsafe_load)\b")
    package = ROOT / "interpreter" / "ludex"
    offenders = [str(p.relative_to(package)) for p in package.rglob("*.py")
                 if p.name != "yamlio.py" and readers.search(p.read_text(encoding="utf-8"))]
    assert offenders == []


# -- --json carries what the text shows ---------------------------------------------------------
def test_validate_counts_one_file_checked_in_the_singular():
    result = ludex("validate", str(TINY / "game.yaml"))
    assert result.stderr.strip().endswith("in 1 file checked"), result.stderr


def test_validate_json_carries_the_counts_the_text_summary_shows():
    text = ludex("validate", str(TINY))
    data = json.loads(ludex("validate", str(TINY), "--json").stdout)
    assert text.stderr.strip() == f"no errors, no warnings in {data['files_checked']} files checked"
    assert (data["error_count"], data["warning_count"]) == (0, 0)


def test_coverage_json_carries_the_summaries_asked_for_and_the_count_covered():
    text = ludex("coverage", "imperium", "--lang", "fr").stdout
    data = json.loads(ludex("coverage", "imperium", "--lang", "fr", "--json").stdout)
    assert all(clause["summary"] in text for clause in data["clauses"])
    assert f"{data['covered']} of {data['total']} clauses covered" in text


def test_init_json_lists_the_files_it_created(tmp_path):
    data = json.loads(ludex("init", "orchard", "--json", cwd=tmp_path).stdout)
    assert data["created"] == "orchard" and data["game"] == "orchard"
    assert "game.yaml" in data["files"]
    assert all((tmp_path / "orchard" / f).is_file() for f in data["files"])


# -- people: prompts and progress on stderr -----------------------------------------------------
def test_a_human_playing_with_json_gets_the_prompts_on_stderr_and_clean_json_on_stdout():
    result = ludex("play", str(TINY), "--agents", "human,random", "--max-decisions", "2",
                   "--json", stdin="1\n1\n")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)  # nothing but the JSON
    assert data["log"] and "end_line" in data
    assert "Your move" in result.stderr and "> " in result.stderr


def test_a_human_playing_sees_the_log_on_stdout_and_the_questions_on_stderr():
    result = ludex("play", str(TINY), "--agents", "human,random", "--max-decisions", "2",
                   stdin="1\n1\n")
    assert "Your move" not in result.stdout and "Your move" in result.stderr
    assert result.stdout.splitlines()[-1].startswith("Game stopped")


# -- Ctrl-C ----------------------------------------------------------------------------------------
def test_simulate_stopped_summarises_the_games_it_finished_and_says_so():
    from ludex.simulate import simulate

    finished = []

    def stop_after_three(outcome) -> None:
        finished.append(outcome)
        if len(finished) == 3:
            raise KeyboardInterrupt

    for workers in (1, 2):
        finished.clear()
        summary = simulate(TINY, 500, seed=1, workers=workers, progress=stop_after_three)
        assert summary["interrupted"] is True and summary["requested"] == 500
        assert summary["games"] == 3
        assert sum(summary["winners"].values()) + summary["draws"] == 3


def _long_scenario_run(tmp_path: Path) -> Path:
    """A copy of the tiny game with thousands of scenarios: a `ludex test` that is surely still
    running when Ctrl-C comes, however fast the machine."""
    game = tmp_path / "tiny"
    shutil.copytree(TINY, game)
    scenario = (game / "scenarios" / "income.yaml").read_text(encoding="utf-8")
    for number in range(3000):
        (game / "scenarios" / f"income_{number}.yaml").write_text(scenario, encoding="utf-8")
    return game


@pytest.mark.parametrize("args", [["simulate", str(TINY), "--games", "100000"],
                                  ["simulate", str(TINY), "--games", "100000", "--workers", "2",
                                   "--json"],
                                  # a report that then cannot be written does not hide that the
                                  # run was stopped (found by a review: it exited 1)
                                  ["simulate", str(TINY), "--games", "100000", "--report",
                                   "/proc/ludex-report.html"],
                                  ["test", "LONG_RUN"]])
def test_ctrl_c_exits_130_without_a_traceback(args, tmp_path):
    args = [str(_long_scenario_run(tmp_path)) if a == "LONG_RUN" else a for a in args]
    process = subprocess.Popen([sys.executable, "-m", "ludex.cli", *args],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    time.sleep(3)  # under way (when it is not, Ctrl-C during start-up must exit 130 too)
    os.killpg(process.pid, signal.SIGINT)  # as a terminal sends it: to the whole group
    try:
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 130, err
    assert "Traceback" not in err
    if "--json" in args and out:
        assert json.loads(out)["interrupted"] is True


def test_player_counts_and_agent_counts_are_told_as_a_person_would_say_them():
    result = ludex("simulate", "imperium", "--players", "7", "--games", "1")
    assert "imperium is played by 2, 3 or 4 players" in result.stderr
    result = ludex("simulate", "imperium", "--agents", "random,random,random,random",
                   "--games", "1")
    assert "give at most 3 agents (one per seat; the last fills the seats left); with 4 seats, " \
        "add --players 4" in result.stderr


def test_a_call_with_the_wrong_number_of_arguments_counts_them_in_words(tiny):
    edit(tiny / "cards" / "tiny_cards.yaml", "gain(score, me, 3)",
         "gain(score, me, countdown(3, 4))")
    errors = json.loads(ludex("validate", str(tiny), "--json").stdout)["errors"]
    assert any("takes 1 argument " in d["message"] for d in errors), errors


def test_schema_export_into_a_file_is_a_usage_error(tmp_path):
    taken = tmp_path / "taken.json"
    taken.write_text("{}")
    result = ludex("schema", "imperium", "--export", str(taken))
    assert result.returncode == 2 and "is a file" in result.stderr
    assert taken.read_text() == "{}"


def test_a_misspelled_schema_kind_is_named_as_such():
    result = ludex("schema", "imperium", "card")
    assert result.returncode == 2 and "`card` is no kind of file" in result.stderr
    assert "did you mean `cards`" in result.stderr


def test_coverage_of_a_file_that_holds_no_scenario_is_a_usage_error(tmp_path):
    """`coverage /etc/passwd` printed "0 of 0 clauses" and exited 1."""
    stray = tmp_path / "notes.txt"
    stray.write_text("nothing here\n")
    result = ludex("coverage", str(stray))
    assert result.returncode == 2 and "no game folder, and no scenario" in result.stderr


def test_stamping_the_primary_language_is_a_usage_error_not_a_silent_success():
    result = ludex("locale", "stamp", "imperium", "en")
    assert result.returncode == 2 and "is imperium's primary language" in result.stderr
