"""What the rules could not settle while games were played (the game's warnings, such as a
search for a way on stopped at its bound: `rules/search-bound`) is shown by `ludex play`,
`ludex simulate` (counted per code in the text, `--json` and the report) and `ludex check`:
compiler-style, each once. The game: Wagers with a `raise` action whose way on takes a few
runs to find, searched here with a bound of 2 runs."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from ludex import trials
from ludex.cli import cli

WAGERS = Path(__file__).parent / "games" / "wagers"
RAISE = """\
  - id: raise
    window: turn
    clause: WAG-TURN
    effect: |
      choose a from [1, 2, 3] by me prompt "turn"
      choose b from [1, 2, 3] by me prompt "turn"
      require a + b == 6 else "too_low"
"""
SCENARIO = """\
game: wagers
name: a raise of 3 and 3 is taken
rules: [WAG-TURN]
run: {phase: hand}
decisions:
  - {who: north, choose: raise}
  - {who: north, choose: 3}
  - {who: north, choose: 3}
expect:
  - {who: south}
"""
BOUND = re.compile(r"^(\S+):(\d+):(\d+): warning\[rules/search-bound\]: could not tell within "
                   r"2 runs .*`raise`", re.MULTILINE)


@pytest.fixture
def raising(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "wagers"
    shutil.copytree(WAGERS, folder)
    shutil.rmtree(folder / "scenarios")
    (folder / "scenarios").mkdir()
    (folder / "scenarios" / "raise.yaml").write_text(SCENARIO)
    procedures = folder / "procedures.yaml"
    procedures.write_text(procedures.read_text().replace("procedures:\n",
                                                         RAISE + "procedures:\n"))
    locale = folder / "locale" / "en.yaml"
    locale.write_text(locale.read_text().replace("actions: {play: Play, discard: Discard}",
                                                 "actions: {play: Play, discard: Discard, "
                                                 "raise: Raise}"))
    monkeypatch.setattr(trials, "MAX_SEARCH_RUNS", 2)
    return folder


def _asked_at(file: str, line: str, col: str) -> str:
    """The text at a warning's place: the question whose answer could not be settled."""
    return Path(file).read_text().splitlines()[int(line) - 1][int(col) - 1:].strip()


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_play_shows_each_warning_once_on_stderr_and_in_its_json(raising):
    result = run("play", str(raising), "--agents", "first", "--max-decisions", "20")
    assert result.exit_code == 0
    found = BOUND.findall(result.stderr)
    assert found and _asked_at(*found[0]) == "turn"  # the `window:` of the phase opening it
    lines = result.stderr.splitlines()
    assert len(lines) == len(set(lines))  # no warning twice
    assert not BOUND.search(result.stdout)  # stdout keeps the log
    as_json = json.loads(run("play", str(raising), "--agents", "first", "--max-decisions",
                             "20", "--json").stdout)
    codes = [w["code"] for w in as_json["warnings"]]
    assert codes and set(codes) == {"rules/search-bound"}
    assert len({w["message"] for w in as_json["warnings"]}) == len(codes)


def test_simulate_counts_warnings_per_code_with_the_first_seed(raising, tmp_path):
    summary = json.loads(run("simulate", str(raising), "--games", "3", "--agents", "first",
                             "--seed", "4", "--json").stdout)
    seen = summary["warnings"]["rules/search-bound"]
    assert seen["games"] == 3 and seen["count"] >= 3 and seen["first"]["seed"] == 4
    assert BOUND.match(seen["first"]["warning"])
    text = run("simulate", str(raising), "--games", "3", "--agents", "first", "--seed", "4",
               "--report", str(tmp_path / "r.html")).stdout
    assert f"warning rules/search-bound: {seen['count']} times in 3 games, first with seed " \
           "4:" in text
    assert text.count("warning[rules/search-bound]") == 1
    html = (tmp_path / "r.html").read_text()
    assert 'data-key="warnings.rules/search-bound.games">3<' in html


def test_check_shows_a_warning_met_by_its_scenarios_at_its_question_and_strict_fails(raising):
    result = run("check", str(raising))
    assert result.exit_code == 0, result.output
    places = BOUND.findall(result.stdout)
    assert len(places) == 1  # met at every decision, shown once
    assert _asked_at(*places[0]) == "turn"  # `window: turn`
    headlines = [line for line in result.stdout.splitlines() if "warning[" in line]
    assert len(headlines) == len(set(headlines)) == 2  # `raise`, then its answer `3`
    answer = next(h for h in headlines if "`3`" in h)
    assert _asked_at(*answer.split(": ")[0].rsplit(":", 2)) == \
        'choose a from [1, 2, 3] by me prompt "turn"'  # the question it answers
    assert "2 warnings" in result.stdout.splitlines()[-1]
    assert run("check", str(raising), "--strict").exit_code == 1


def test_warning_counts_merge_in_any_order_keeping_the_lowest_seeds_example(raising):
    from ludex.playtest.stats import Tally
    from ludex.simulate import Plan, play_chunk

    plan = Plan(str(raising), 6, seed=3, agents=("random",))
    whole = play_chunk(plan, list(plan.seeds()))
    merged = Tally()
    for part in (play_chunk(plan, [7, 8]), play_chunk(plan, [3, 4, 5, 6])):
        merged.merge(part)
    assert merged.summary()["warnings"] == whole.summary()["warnings"] != {}
    assert whole.summary()["warnings"]["rules/search-bound"]["first"]["seed"] == 3


def test_check_strict_still_runs_the_scenarios_of_a_game_with_only_warnings(tmp_path):
    """A translation half done (a warning per text missing) made `check --strict` — the CI
    command — report no scenario at all ("not run"): the warnings, promoted, counted as the
    game's errors. They fail the check, and the scenarios run all the same (found by a
    designer's trial)."""
    game = tmp_path / "press_on"
    shutil.copytree(Path(__file__).parent / "games" / "press_on", game)
    french = game / "locale" / "fr.yaml"
    french.write_text("lang: fr\ngame: {name: En route}\n", encoding="utf-8")
    result = run("check", str(game), "--strict", "--json")
    summary = json.loads(result.stdout)["games"][0]
    assert result.exit_code == 1 and summary["errors"] > 0
    assert summary["scenarios"] == {"passed": 6, "failed": 0, "not_run": 0}
