"""A game is loaded once per process (loading.py): `ludex check` validates and then runs the
scenarios of a game loaded once, the scenario runner shares one definition per game and loads
it again when a file of the game changes, `simulate` loads it once (in the parent, where
workers are forked), and `load_definition` hands each caller a definition of its own, so that
a caller changing one never changes what others run."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ludex import loading
from ludex.cli import cli
from ludex.engine import load_definition
from ludex.folders import discover
from ludex.scenario import run_scenario
from ludex.simulate import simulate

TINY = Path(__file__).parent / "games" / "tiny"


@pytest.fixture()
def tiny(tmp_path: Path) -> Path:
    shutil.copytree(TINY, tmp_path / "tiny")
    return tmp_path / "tiny"


@pytest.fixture()
def loads(monkeypatch, tmp_path: Path) -> Path:
    """Counts real loads of a game, one line each in a file (so that forked workers' loads
    count too); the disk cache is off, so that every load is a real one."""
    monkeypatch.setenv("LUDEX_NO_CACHE", "1")
    loading.forget()
    log = tmp_path / "loads.log"
    log.write_text("")
    real = loading.load_game

    def load_game(files, *args, **kwargs):
        with log.open("a") as out:
            out.write(f"{files.game_id}\n")
        return real(files, *args, **kwargs)

    monkeypatch.setattr(loading, "load_game", load_game)
    yield log
    loading.forget()


def count(log: Path) -> int:
    return len(log.read_text().splitlines())


def test_check_validates_and_runs_the_scenarios_of_a_game_loaded_once(loads, tiny):
    result = CliRunner().invoke(cli, ["check", str(tiny)])
    assert result.exit_code == 0, result.output
    assert "7 passed" in result.output
    assert count(loads) == 1


def test_check_compiles_each_scenario_text_once_for_its_run_and_its_check(
        loads, tiny, monkeypatch):
    from ludex import scenario

    compiled = []

    class Counting(scenario.Compiler):
        def expression(self, tree):
            compiled.append((self.rule, tree))
            return super().expression(tree)

    monkeypatch.setattr(scenario, "Compiler", Counting)
    result = CliRunner().invoke(cli, ["check", str(tiny)])
    assert result.exit_code == 0, result.output
    assert compiled and {rule for rule, _ in compiled} == {"expect"}  # the runs' only

    broken = tiny / "scenarios" / "broken_expectation.yaml"
    broken.write_text((tiny / "scenarios" / "cannot_pay.yaml").read_text(encoding="utf-8")
                      .replace("expect:", "expect:\n  - no_such_function(1) == 2", 1),
                      encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", str(tiny)])
    assert "broken_expectation.yaml" in result.output and "no_such_function" in result.output


def test_scenarios_of_one_game_share_its_definition_until_a_file_changes(loads, tiny):
    first = loading.shared_definition(tiny)
    for scenario in sorted((tiny / "scenarios").glob("*.yaml")):
        assert run_scenario(scenario).passed
    assert loading.shared_definition(tiny) is first and count(loads) == 1
    tables = tiny / "tables.yaml"
    tables.write_text(tables.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert loading.shared_definition(tiny) is not first and count(loads) == 2


def test_a_definition_loaded_for_a_caller_is_its_own_to_change(loads, tiny):
    shared, _ = loading.shared_definition(tiny)
    mine, start = load_definition(tiny)
    table = next(iter(mine.tables))
    mine.tables[table][0].clear()
    mine.phase_pass.clear()
    start.clear()
    again, start_again = load_definition(tiny)
    assert again.tables[table][0] and shared.tables[table][0]
    assert again.phase_pass == shared.phase_pass and start_again
    assert count(loads) == 1  # copies of the content loaded once


def test_the_first_caller_may_change_the_definition_compiled_while_checking(loads, tiny):
    mine, _ = load_definition(tiny)  # the first load: compiled while the game was checked
    table = next(iter(mine.tables))
    row = dict(mine.tables[table][0])
    mine.tables[table][0].clear()
    kept = loading.check(discover(tiny)).game.data("tables")["tables"]
    assert next(t for t in kept if t["id"] == table)["rows"][0] == row
    assert loading.shared_definition(tiny)[0].tables[table][0] == row
    assert load_definition(tiny)[0].tables[table][0] == row
    assert count(loads) == 1


def test_a_definition_without_fast_paths_leaves_the_shared_one_alone(loads, tiny):
    plain, _ = load_definition(tiny, fast_paths=False)
    shared, _ = loading.shared_definition(tiny)
    assert not plain.fast_paths and shared.fast_paths
    assert all(run_scenario(s).passed for s in sorted((tiny / "scenarios").glob("*.yaml")))


def test_simulate_loads_the_game_once_with_one_worker(loads, tiny):
    summary = simulate(tiny, games=2, seed=1)
    assert summary["games"] == 2 and not summary["errors"]
    assert count(loads) == 1


@pytest.mark.skipif(not sys.platform.startswith("linux"),
                    reason="workers are forked on Linux only")
def test_simulate_workers_start_with_the_game_the_parent_loaded(loads, tiny):
    summary = simulate(tiny, games=4, seed=1, workers=2)
    assert summary["games"] == 4 and not summary["errors"]
    assert count(loads) == 1


def test_the_cyclic_collector_pauses_while_a_game_loads_and_is_left_as_it_was(
        tiny: Path, monkeypatch):
    import gc

    monkeypatch.setenv("LUDEX_NO_CACHE", "1")
    seen = []
    real = loading.load_game

    def spy(*args, **kwargs):
        seen.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr(loading, "load_game", spy)
    loading.forget()
    assert gc.isenabled()
    loading.check(discover(tiny))
    assert seen == [False] and gc.isenabled()
    gc.disable()  # whoever turned it off keeps it off
    try:
        loading.forget()
        loading.check(discover(tiny))
        assert seen == [False, False] and not gc.isenabled()
    finally:
        gc.enable()


def test_a_kept_game_is_left_out_of_the_collectors_passes_until_it_is_dropped(
        tiny: Path, tmp_path: Path, monkeypatch):
    import gc
    import weakref

    monkeypatch.setenv("LUDEX_NO_CACHE", "1")
    loading.forget()
    checked = loading.check(discover(tiny))
    card = checked.game.cards[0]
    assert not any(o is card for o in gc.get_objects())  # frozen: no pass walks it
    gone = weakref.ref(checked)
    holder: list = [checked]
    holder.append(holder)  # cyclic garbage once let go, which only the collector frees …
    other = shutil.copytree(tiny, tmp_path / "other")
    loading.check(discover(other))  # … and which this load froze with its own game
    del checked, card, holder
    loading.forget()
    gc.collect()
    assert gone() is None


def _corpus_games() -> list:
    import re

    corpus = Path(__file__).parent / "invalid"
    cases = []
    for path in sorted(corpus.rglob("*.yaml")):
        found = re.search(r"^# as: (\S+) (\S+)$", path.read_text(encoding="utf-8",
                                                                  errors="replace"), re.M)
        if found and found.group(1) != "scenario":
            cases.append((path, *found.groups()))
    return cases


@pytest.mark.parametrize("case", _corpus_games(), ids=lambda c: c[0].name)
def test_checking_only_reports_what_compiling_for_play_reports(case, monkeypatch):
    """`ludex validate` plays nothing, so it compiles without what only speeds play (no
    Python source, no inlined functions, no static loop tests worked out): every corpus case
    gets the same diagnostics as when the game is compiled for play."""
    from ludex.folders import find_game
    from ludex.validate import check_game

    monkeypatch.setenv("LUDEX_NO_CACHE", "1")
    path, kind, game = case
    if game.startswith("../"):  # a test game, by its path from the corpus
        game = str(path.parent / game)
    found = []
    for play in (False, True):
        loading.forget()
        files = discover(find_game(game))
        files.overlay(path, kind)
        found.append(check_game(files, play=play)[1])
    assert found[0] == found[1]


def test_a_game_checked_for_validation_is_compiled_again_for_play(tiny: Path, monkeypatch):
    from ludex.validate import check_game

    monkeypatch.setenv("LUDEX_NO_CACHE", "1")
    loading.forget()
    check_game(discover(tiny))  # as `ludex validate` does: no Python source
    checking, _ = loading.shared_definition(tiny, play=False)
    assert not checking.play  # a scenario being validated takes that one
    playing, _ = loading.shared_definition(tiny)
    assert playing.play and playing is not checking
    assert loading.shared_definition(tiny, play=False)[0] is playing  # checks take it now
    assert load_definition(tiny)[0].play


def test_a_game_compiled_only_to_be_checked_is_not_played(tiny: Path, monkeypatch):
    """It lacks what only play needs (its phases cut into steps, values kept for replays):
    playing it would not be the game, so a Game refuses it."""
    from ludex.engine import Game
    from ludex.validate import check_game

    monkeypatch.setenv("LUDEX_NO_CACHE", "1")
    loading.forget()
    check_game(discover(tiny))
    checking, start = loading.shared_definition(tiny, play=False)
    with pytest.raises(ValueError, match="only to be checked"):
        Game(checking, start)
    Game(*load_definition(tiny))  # the same game loaded for play
