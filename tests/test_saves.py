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


@pytest.mark.parametrize("command", [["dump", "{save}"],
                                     ["render", "{game}", "--state", "{save}", "--out",
                                      "{folder}/board.svg"]])
def test_dump_and_render_refuse_a_save_of_changed_content_unless_forced(tmp_path, command):
    game, path = saved_tiny_game(tmp_path)
    cards = game / "cards" / "tiny_cards.yaml"
    cards.write_text(cards.read_text().replace("value: 2}", "value: 3}", 1))
    args = [a.format(save=path, game=game, folder=tmp_path) for a in command]
    refused = ludex(*args)
    assert refused.returncode == 2 and "content has changed" in refused.stderr
    assert "use --force to replay it anyway" in refused.stderr
    assert ludex(*args, "--force").returncode == 0


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


@pytest.mark.parametrize("stop, status", [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_a_game_stopped_by_kill_or_a_closed_terminal_is_saved_as_by_ctrl_c(tmp_path, stop,
                                                                             status):
    """`kill`, a cancelled CI job or a closed terminal lost a whole game of agents (only
    Ctrl-C saved it): it is saved, and the exit status says which signal stopped it."""
    path = tmp_path / "game.json"
    process = subprocess.Popen([sys.executable, "-m", "ludex.cli", "play", "imperium",
                                "--agents", "mcts:400", "--save", str(path)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    process.stdout.readline()  # playing: the first phase is under way
    process.send_signal(stop)
    process.communicate(timeout=60)
    assert process.returncode == status
    saved = json.loads(path.read_text())
    assert saved["game"] == "imperium" and isinstance(saved["decisions"], list)


@pytest.mark.parametrize("agents", ["human", "mcts:400"])
def test_a_game_in_a_terminal_that_is_closed_is_saved(tmp_path, agents):
    """Closing the terminal sends SIGHUP, and its reads and writes then fail (EIO): the
    handler's own line to the closed terminal, or the player's next prompt, failed before the
    save, and the game was lost (found by a review)."""
    import os
    import pty

    path = tmp_path / "game.json"
    pid, terminal = pty.fork()
    if pid == 0:  # the child: ludex in the terminal
        os.execv(sys.executable, [sys.executable, "-m", "ludex.cli", "play", "imperium",
                                  "--agents", agents, "--save", str(path)])
    seen = b""
    # generous: on a machine busy with other tests ludex may take long to start, and closing
    # the terminal before play began would test nothing
    deadline = time.monotonic() + 300
    while b"Phase" not in seen and time.monotonic() < deadline:  # playing: close it now
        try:
            seen += os.read(terminal, 1024)
        except OSError:
            break
    os.close(terminal)
    _, status = os.waitpid(pid, 0)
    assert b"Phase" in seen, f"play never began in the terminal: {seen[-500:]!r}"
    assert json.loads(path.read_text())["game"] == "imperium", status


def test_a_game_started_under_nohup_goes_on_when_the_terminal_closes(tmp_path):
    """`nohup ludex play …` stopped at SIGHUP once play handled the signal; an ignored
    SIGHUP stays ignored."""
    path = tmp_path / "game.json"
    process = subprocess.Popen(["nohup", sys.executable, "-m", "ludex.cli", "play", "tiny",
                                "--agents", "mcts:30", "--save", str(path)],
                               cwd=ROOT / "tests" / "games", stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    process.stdout.readline()
    process.send_signal(signal.SIGHUP)
    process.communicate(timeout=120)
    assert process.returncode == 0
    assert json.loads(path.read_text())["game"] == "tiny"


@pytest.mark.parametrize("text", ["00000000000003e8", "1e5", "0777", "yes", "Off", "null",
                                  "12:30", "acquire:market_town#1", "-", "pass", "a: b", ""])
def test_a_yaml_save_reads_back_exactly_what_was_written(text, tmp_path):
    from ludex.saves import read_save, write_save

    saved = {"format": 1, "game": "imperium", "players": 3, "seed": 1,
             "decisions": [text, [text], {"coins": 2}],
             # generator states that YAML would read as numbers
             "agents": [{"kind": "random", "state": state}
                        for state in ("00000000000003e8", "1e5", "0777")]}
    write_save(tmp_path / "s.yaml", saved)
    assert read_save(tmp_path / "s.yaml") == saved


def test_a_save_is_written_through_a_link_and_keeps_its_permissions(tmp_path):
    from ludex.saves import write_save

    real = tmp_path / "real" / "target.json"
    real.parent.mkdir()
    write_save(real, {"game": "imperium", "players": 3, "seed": 1, "decisions": []})
    real.chmod(0o664)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    write_save(link, {"game": "imperium", "players": 3, "seed": 1, "decisions": ["pass"]})
    assert link.is_symlink()
    assert json.loads(real.read_text())["decisions"] == ["pass"]
    assert real.stat().st_mode & 0o777 == 0o664


def test_a_game_the_rules_break_in_is_saved_up_to_the_error_and_resumes_to_it(tmp_path):
    game = tmp_path / "tiny"
    shutil.copytree(TINY, game)
    procedures = game / "procedures.yaml"
    procedures.write_text(procedures.read_text().replace(
        "          draw(1, deck, hand, p)\n",
        "          draw(1, deck, hand, p)\n      if turn == 2:\n"
        "          gain(gold, red, 1 / 0)\n"))
    save = tmp_path / "broken.json"
    played = ludex("play", str(game), "--agents", "random", "--seed", "1", "--save", str(save))
    assert played.returncode == 1 and "division by zero" in played.stderr
    decisions = json.loads(save.read_text())["decisions"]
    assert decisions  # turn 1 was played before the rules broke in turn 2
    resumed = ludex("play", str(game), "--resume", str(save))  # replays up to the error
    assert resumed.returncode == 2 and "division by zero" in resumed.stderr
    assert f"decision {len(decisions)} " in resumed.stderr  # the answer the rules broke after


def test_a_game_whose_output_is_closed_is_saved_all_the_same(tmp_path):
    save = tmp_path / "piped.json"
    with subprocess.Popen([sys.executable, "-m", "ludex.cli", "play", "imperium", "--agents",
                           "random", "--seed", "1", "--save", str(save)],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        process.stdout.readline()
        process.stdout.close()  # as `| head -1` does
        process.wait(timeout=60)
    assert json.loads(save.read_text())["game"] == "imperium"


def _sor_save(tmp_path: Path, **changes) -> Path:
    saved = {"format": 1, "game": "sword_of_rome", "players": 5, "seed": 1, "decisions": [],
             "settings": {}, **changes}
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(saved))
    return path


@pytest.mark.parametrize("changes, words", [
    ({"settings": {"pooled_reinforcements": "false"}},
     'setting `pooled_reinforcements` is true or false, not "false"'),
    ({"settings": {"pooled_reinforcements": 1}}, "is true or false, not 1"),
    ({"settings": {"no_such_option": True}}, "has no setting `no_such_option`"),
    ({"players": 0}, "is played by"),
    ({"format": 2}, "format 2: this Ludex reads format 1"),
    ({"format": True}, "format true: this Ludex reads format 1"),
    ({"format": 1.0}, "format 1.0: this Ludex reads format 1"),
    # a seat's agent damaged by hand was dropped, and the game resumed another way (one bad
    # entry made every seat human): refused, naming the seat
    ({"agents": [{"kind": "random", "state": "DAA66D2C7DDF9F38"}]},
     'seat 1\'s agent `state` is "DAA66D2C7DDF9F38"'),
    ({"agents": [{"kind": "random", "state": "1"}, {"kind": 5}]}, "seat 2's agent has no `kind`"),
    ({"agents": [{"kind": "random", "state": None}]}, "seat 1's agent `state` is null"),
])
def test_a_save_edited_into_a_game_the_rules_do_not_have_is_refused(tmp_path, changes, words):
    result = ludex("play", "sword_of_rome", "--resume", str(_sor_save(tmp_path, **changes)),
                   "--agents", "random", "--max-decisions", "1")
    assert result.returncode == 2 and words in result.stderr, result.stderr


def test_a_way_to_pay_is_taken_only_as_whole_numbers(tmp_path):
    from ludex.agents import FirstLegal, step
    from ludex.engine import Game, load_definition
    from ludex.runtime import Illegal

    definition, start = load_definition("imperium")
    game = Game(definition, start, seed=1)
    while game.pending.prompt != "pay":  # until someone pays in more than one way
        step(game, FirstLegal())
    way = game.legal_actions()[0]
    for sloppy in ({k: float(v) for k, v in way.items()},
                   {k: v == 1 or v for k, v in way.items()}):
        if sloppy == way and json.dumps(sloppy) != json.dumps(way):
            with pytest.raises(Illegal):
                game.apply(sloppy)
    game.apply(way)


@pytest.mark.parametrize("args, words", [
    (["--seed", "77"], "keeps the players and seed it was saved with"),
    (["--players", "2"], "keeps the players and seed it was saved with"),
    (["--max-decisions", "-1"], "-1 is not in the range"),
])
def test_options_a_resumed_game_cannot_take_are_usage_errors_not_ignored(tmp_path, args, words):
    game, path = saved_tiny_game(tmp_path)
    result = ludex("play", str(game), "--resume", str(path), "--agents", "first", *args)
    assert result.returncode == 2 and words in result.stderr


@pytest.mark.parametrize("command, status, words", [
    (["play", "--resume", "{save}", "--max-decisions", "0"], 2, "the key `seed` is given twice"),
    (["dump", "{save}"], 2, "the key `seed` is given twice"),
    # not a save, so read as the other thing --state takes, a scenario: YAML says where
    (["render", "{game}", "--state", "{save}", "--out", "{svg}"], 1,
     ":8:13: error[yaml/duplicate-key]: duplicate key `seed`"),
])
def test_a_json_save_giving_a_key_twice_is_refused_not_read_by_its_last(tmp_path, command,
                                                                        status, words):
    """JSON's reader keeps the last of two `seed`s without a word: a save edited so (a line
    copied, a merge) resumed another game than the one saved. YAML saves refuse it already."""
    game, path = saved_tiny_game(tmp_path)
    text = path.read_text()
    path.write_text(text.replace('"seed": ', '"seed": 5, "seed": ', 1))
    names = {"save": str(path), "game": str(game), "svg": str(tmp_path / "b.svg")}
    result = ludex(*(part.format(**names) for part in command))
    assert result.returncode == status and words in result.stderr, result.stderr
    assert not (tmp_path / "b.svg").exists()


def test_dump_of_a_save_with_a_mistake_says_what_is_wrong_with_it_as_a_save(tmp_path):
    _, path = saved_tiny_game(tmp_path)
    saved = json.loads(path.read_text())
    path.write_text(json.dumps({**saved, "players": "2"}))
    result = ludex("dump", str(path))
    assert result.returncode == 2
    assert "not a saved game (`players` is not a whole number)" in result.stderr
    assert result.stderr.count("error") <= 1


def test_a_save_through_a_link_to_nowhere_is_refused_before_play(tmp_path):
    link = tmp_path / "dangling.yaml"
    link.symlink_to(tmp_path / "no_such_folder" / "f.yaml")
    result = ludex("play", "imperium", "--agents", "random", "--max-decisions", "3", "--save",
                   str(link))
    assert result.returncode == 2 and "does not exist" in result.stderr
    assert "Phase" not in result.stdout  # refused before anything was played


def test_locale_export_into_a_missing_folder_is_a_usage_error(tmp_path):
    result = ludex("locale", "export", "imperium", "fr", "--out", str(tmp_path / "no" / "x.po"))
    assert result.returncode == 2 and "does not exist" in result.stderr


def test_a_save_through_a_link_that_leads_to_itself_is_refused(tmp_path):
    loop = tmp_path / "loop.json"
    loop.symlink_to(loop)
    result = ludex("play", "imperium", "--agents", "random", "--max-decisions", "1", "--save",
                   str(loop))
    assert result.returncode == 2 and "a link that leads nowhere" in result.stderr


def test_an_answer_equal_to_an_option_but_of_another_type_is_refused():
    from ludex.runtime import Decision, Illegal, Where

    decision = Decision("red", "how many", [1, 2, 3])
    where = Where("t.yaml", 1, 1)
    assert decision.check(1, where) == 1
    for sloppy in (1.0, True):
        with pytest.raises(Illegal):
            decision.check(sloppy, where)
    several = Decision("red", "which", [1, 2, 3], mode="up_to", count=2)
    with pytest.raises(Illegal):
        several.check([1.0, 2], where)


def test_dump_of_a_save_that_also_has_a_scenarios_run_says_it_is_neither(tmp_path):
    _, path = saved_tiny_game(tmp_path)
    path.write_text(json.dumps({**json.loads(path.read_text()), "run": {"phase": "play"}}))
    result = ludex("dump", str(path))  # found by the save-mutation fuzzer (seed 802)
    assert result.returncode == 2 and "neither a save nor a scenario" in result.stderr


@pytest.mark.parametrize("command", [
    ["dump", "{save}", "--out", "{target}"],
    ["render", "{game}", "--state", "{save}", "--out", "{target}"],
    ["simulate", "{game}", "--games", "1", "--report", "{target}"]])
@pytest.mark.parametrize("target", ["the save read", "another save"])
def test_no_command_writes_over_the_save_it_reads_or_any_other(tmp_path, command, target):
    """`dump save.yaml --out save.yaml` turned the save into a scenario, `render --out` into a
    drawing: the game was lost (found by a reliability audit)."""
    game, path = saved_tiny_game(tmp_path)
    other = tmp_path / "other.json"
    shutil.copy(path, other)
    written = path if target == "the save read" else other
    before = written.read_bytes()
    args = [a.format(save=path, game=game, target=written) for a in command]
    refused = ludex(*args)
    assert refused.returncode == 2, refused.stderr
    assert "would overwrite it" in refused.stderr or "is a saved game" in refused.stderr
    assert written.read_bytes() == before


def test_a_save_records_the_content_played_not_files_edited_since_the_game_began(tmp_path):
    """A card edited while a game was under way: the save said the new content, and resumed
    on it without a word, a different game (found by a reliability audit). It now names the
    content the game was played with, so resuming on the edited files is refused, and a table
    still playing the old content takes it back."""
    from ludex.agents import FirstLegal, step
    from ludex.engine import Game, load_definition
    from ludex.saves import SaveError, changed_on_disk, check_content, make_save

    folder = tmp_path / "tiny"
    shutil.copytree(TINY, folder)
    definition, start = load_definition(folder)
    game, agent = Game(definition, start, seed=1), FirstLegal()
    for _ in range(3):
        step(game, agent)
    cards = folder / "cards" / "tiny_cards.yaml"
    cards.write_text(cards.read_text().replace("value: 2}", "value: 3}", 1))
    assert changed_on_disk(definition, folder)
    saved = make_save(game, folder, tmp_path / "s.json")
    assert saved["content"] == definition.content
    with pytest.raises(SaveError, match="content has changed"):
        check_content(saved, folder, tmp_path / "s.json")
    check_content(saved, folder, tmp_path / "s.json", content=definition.content)


def test_a_game_whose_card_file_is_linked_from_outside_its_folder_is_saved(tmp_path):
    """A card file linked from a shared folder validated, then made every save an internal
    error: the game was lost at the end of `play --save`."""
    folder = tmp_path / "tiny"
    shutil.copytree(TINY, folder)
    shared = tmp_path / "shared"
    shared.mkdir()
    cards = folder / "cards" / "tiny_cards.yaml"
    cards.rename(shared / "tiny_cards.yaml")
    cards.symlink_to(Path("..", "..", "shared", "tiny_cards.yaml"))
    path = tmp_path / "linked.json"
    played = ludex("play", str(folder), "--agents", "first", "--save", str(path))
    assert played.returncode == 0, played.stderr
    resumed = ludex("play", str(folder), "--resume", str(path), "--agents", "first")
    assert resumed.returncode == 0, resumed.stderr


@pytest.mark.parametrize("command, target", [
    (["play", "{game}", "--agents", "random", "--save"], "game.yaml"),
    (["simulate", "{game}", "--games", "1", "--report"], "cards/tiny_cards.yaml"),
    (["render", "{game}", "--out"], "locale/en.yaml"),
])
def test_no_command_writes_its_output_over_one_of_the_games_own_files(tmp_path, command, target):
    """`play imp --save imp/game.yaml` wrote a save over the manifest (found by a reliability
    audit), and the game no longer loaded."""
    _refused_over_a_file_of_the_game(tmp_path, command, target)


def _refused_over_a_file_of_the_game(tmp_path, command: list[str], target: str) -> None:
    """`command` with a file of a copy of tiny as its output: refused, the file unchanged."""
    game = tmp_path / "tiny"
    shutil.copytree(TINY, game)
    before = (game / target).read_bytes()
    result = ludex(*[part.format(game=game) for part in command], str(game / target))
    assert result.returncode == 2
    assert "is one of the files of the game" in result.stderr
    assert (game / target).read_bytes() == before


@pytest.mark.parametrize("command, target", [
    (["play", "{game}", "--agents", "random", "--save"], "scenarios/income.yaml"),
    (["simulate", "{game}", "--games", "1", "--report"], "scenarios/income.yaml"),
    (["render", "{game}", "--out"], "scenarios/income.yaml"),
    (["play", "{game}", "--agents", "random", "--save"], "schemas/cards.schema.json"),
    (["dump", "{game}/scenarios/income.yaml", "--force", "--out"],
     "schemas/scenario.schema.json"),
])
def test_no_command_writes_its_output_over_a_games_scenario_or_editor_schema(tmp_path, command,
                                                                            target):
    """Scenarios and schemas were left out of the game's files that outputs may not replace
    (found by a reliability audit): `play --save GAME/scenarios/x.yaml` overwrote the test."""
    _refused_over_a_file_of_the_game(tmp_path, command, target)


def test_dump_writes_over_an_existing_file_only_with_force(tmp_path):
    game = tmp_path / "tiny"
    shutil.copytree(TINY, game)
    target = game / "scenarios" / "buy_gem_choice.yaml"
    before = target.read_bytes()
    source = str(game / "scenarios" / "income.yaml")
    refused = ludex("dump", source, "--out", str(target))
    assert refused.returncode == 2 and "--force" in refused.stderr
    assert target.read_bytes() == before
    assert ludex("dump", source, "--out", str(target), "--force").returncode == 0
    assert target.read_bytes() != before


def test_a_save_of_another_game_is_not_written_over_by_play(tmp_path):
    path = tmp_path / "campaign.json"
    assert ludex("play", "sword_of_rome", "--agents", "random", "--max-decisions", "2",
                 "--save", str(path)).returncode == 0
    before = path.read_bytes()
    result = ludex("play", str(TINY), "--agents", "random", "--save", str(path))
    assert result.returncode == 2 and "holds a saved `sword_of_rome` game" in result.stderr
    assert path.read_bytes() == before


def test_a_card_file_that_does_not_read_is_a_content_error_for_play_not_a_crash(tmp_path):
    """Taking the content's fingerprint as the game loads read every card file first, and a
    dangling link became an internal error (found by a review)."""
    game = tmp_path / "tiny"
    shutil.copytree(TINY, game)
    (game / "cards" / "extra.yaml").symlink_to("/does/not/exist")
    result = ludex("play", str(game), "--agents", "random")
    assert result.returncode == 1, result.stderr
    assert "cards/extra.yaml:1:1: error[io/unreadable]" in result.stderr


def test_play_resumes_a_save_without_being_told_its_game(tmp_path):
    """`ludex play --resume FILE` said `Missing argument 'GAME'`, though the save names its
    game (and its folder), as `dump` finds it (found by a designer's trial)."""
    game = tmp_path / "designs" / "tiny"
    shutil.copytree(TINY, game)
    path = tmp_path / "saves" / "s.json"
    path.parent.mkdir()
    assert ludex("play", str(game), "--agents", "random", "--max-decisions", "3",
                 "--save", str(path)).returncode == 0
    resumed = ludex("play", "--resume", str(path), cwd=tmp_path / "saves")
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.splitlines()[-1].startswith("Game over")
    missing = ludex("play")
    assert missing.returncode == 2 and "with --resume, the save names it" in missing.stderr


@pytest.mark.parametrize("stop_after_keeping", [False, True],
                         ids=["before-the-answer-is-kept", "after-it-is-kept"])
def test_a_game_stopped_while_a_random_agent_chooses_resumes_as_it_would_have_gone_on(
        tmp_path, monkeypatch, stop_after_keeping):
    """Ctrl-C (or a kill) can land after a random agent drew from its generator for an answer
    the game has not kept yet: the save held the generator as it stood after that draw, and the
    resumed game drew differently from then on (3 runs in 25, found by an audit). It holds the
    generator as it was at the last answer kept."""
    from click.testing import CliRunner

    from ludex.agents import RandomAgent
    from ludex.cli import cli
    from ludex.engine import Game

    drawing, calls = RandomAgent.__call__, []

    def stopped_at_the_twentieth(self, game):
        answer = drawing(self, game)
        calls.append(answer)
        if len(calls) == 20 and not stop_after_keeping:
            raise KeyboardInterrupt  # drawn, not yet answered
        return answer

    applying = Game.apply

    def stopped_once_kept(self, answer):
        applying(self, answer)
        if stop_after_keeping and len(calls) == 20:
            raise KeyboardInterrupt  # kept, not yet noted by the loop

    monkeypatch.setattr(RandomAgent, "__call__", stopped_at_the_twentieth)
    monkeypatch.setattr(Game, "apply", stopped_once_kept)
    path = tmp_path / "stopped.json"
    stopped = CliRunner().invoke(cli, ["play", "imperium", "--agents", "random", "--seed", "4",
                                       "--save", str(path)])
    assert stopped.exit_code == 130, stopped.output
    monkeypatch.undo()
    resumed = ludex("play", "imperium", "--resume", str(path), "--agents", "random", "--json")
    whole = ludex("play", "imperium", "--agents", "random", "--seed", "4", "--json")
    assert json.loads(resumed.stdout)["log"] == json.loads(whole.stdout)["log"]


@pytest.mark.parametrize("stop", ["Stopped", "KeyboardInterrupt"])
def test_a_stop_landing_as_the_save_begins_is_held_and_the_game_saved(tmp_path, monkeypatch,
                                                                      stop):
    """A closed terminal ends the player's input and sends SIGHUP: under load the signal
    landed at the very call that was to hold it, the stop escaped, and the game was lost
    (the closed-terminal test failed 1 run in 2 on a busy machine)."""
    from click.testing import CliRunner

    from ludex.cli import cli
    from ludex.cli import play as play_module

    holding, calls = play_module._StopSignals.hold, []

    def landed_at_the_call(self):
        calls.append(self)
        if len(calls) == 1:
            raise play_module.Stopped(1) if stop == "Stopped" else KeyboardInterrupt
        holding(self)

    monkeypatch.setattr(play_module._StopSignals, "hold", landed_at_the_call)
    path = tmp_path / "game.json"
    result = CliRunner().invoke(cli, ["play", "imperium", "--agents", "human", "--save",
                                      str(path)], input="")
    assert result.exit_code == (129 if stop == "Stopped" else 130), result.output
    assert json.loads(path.read_text())["game"] == "imperium"


@pytest.mark.parametrize("content, said", [("7", "a number"), ("[1, 2]", "a list"),
                                           ("\"x\"", "a text"), ("null", "nothing")])
def test_a_save_that_is_no_mapping_says_what_it_is_in_plain_words(tmp_path, content, said):
    """"not a saved game (a int, not a mapping)": Python's type name, with a wrong article."""
    path = tmp_path / "save.json"
    path.write_text(content)
    result = ludex("dump", str(path))
    assert result.returncode == 2
    assert f"{said}, not a mapping" in result.stderr, result.stderr
