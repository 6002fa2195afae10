"""A game kept anywhere is served like a bundled one: every command takes a game folder's path,
scenarios name their game by id or by a relative path, `ludex init` makes a game that passes
at once, each file is validated once, empty targets are usage errors, and the pytest plugin
leaves other projects' YAML alone."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from ludex.folders import UnknownGame, classify, discover, find_game

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "tests" / "games" / "tiny"


def ludex(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ludex.cli", *args], capture_output=True,
                          text=True, cwd=cwd)


@pytest.fixture
def own_game(tmp_path: Path) -> Path:
    """The tiny test game, copied into a folder of the designer's own (not named after it)."""
    folder = tmp_path / "designs" / "My Tiny Game"
    shutil.copytree(TINY, folder)
    return folder


# -- finding a game ----------------------------------------------------------------------------

def _age(folder: Path, seconds: float = 60) -> None:
    """Date the game's folders and manifest back, as a layout that has stood still looks."""
    when = os.stat(folder).st_mtime - seconds
    for path in (folder, folder / "cards", folder / "locale", folder / "game.yaml"):
        if path.exists():
            os.utime(path, (when, when))


def test_a_game_found_again_lists_a_card_file_added_since(own_game: Path, monkeypatch):
    """`discover` keeps what it found while the folders stand still (a test run looks its
    game up once per scenario); a file added, removed, or a manifest edited is seen."""
    import ludex.folders

    monkeypatch.setattr(ludex.folders, "_SETTLED_NS", 0)  # os.utime cannot age a ctime
    _age(own_game)
    first = discover(own_game)
    assert discover(own_game).cards == first.cards  # kept
    added = own_game / "cards" / "more.yaml"
    added.write_text((own_game / "cards" / first.cards[0].name).read_text())
    assert [p.name for p in discover(own_game).cards] == sorted(
        [p.name for p in first.cards] + ["more.yaml"])
    _age(own_game)
    discover(own_game)
    added.unlink()
    assert [p.name for p in discover(own_game).cards] == [p.name for p in first.cards]
    _age(own_game)
    discover(own_game)
    manifest = own_game / "game.yaml"
    manifest.write_text(re.sub(r"^id: \w+", "id: renamed", manifest.read_text(), flags=re.M))
    assert discover(own_game).game_id == "renamed"


def test_a_layout_changed_within_the_last_seconds_is_looked_at_again(own_game: Path):
    """A file's times tick coarsely: a second file added within the same tick would leave
    the folder's times as they were, so a layout that just changed is never kept — by its
    change time too, which copying tools cannot put back (`cp -p` restores the mtime)."""
    from ludex.folders import _layout_stamps

    _age(own_game)  # the modification times are old; the change times are now
    assert _layout_stamps(str(own_game)) is None


def test_a_rule_file_linked_to_a_target_that_appears_is_found(own_game: Path, monkeypatch):
    """A `map.yaml` linking to a file that did not exist yet changes no folder when the
    target appears (found by a review): the rule files are stamped too."""
    import ludex.folders

    monkeypatch.setattr(ludex.folders, "_SETTLED_NS", 0)
    shared = own_game.parent / "shared"
    shared.mkdir()
    (own_game / "map.yaml").rename(shared / "kept.yaml")
    (own_game / "map.yaml").symlink_to(shared / "map.yaml")
    _age(own_game)
    assert "map" not in discover(own_game).rules  # a link to nothing yet
    (shared / "kept.yaml").rename(shared / "map.yaml")
    assert "map" in discover(own_game).rules


def test_a_caller_changing_the_files_it_got_changes_nobody_elses(own_game: Path, monkeypatch):
    import ludex.folders

    monkeypatch.setattr(ludex.folders, "_SETTLED_NS", 0)
    _age(own_game)
    files = discover(own_game)
    files.overlay(own_game / "elsewhere.yaml", "cards")
    assert "elsewhere.yaml" not in [p.name for p in discover(own_game).cards]


def test_a_bundled_game_is_found_by_its_id():
    assert find_game("imperium").resolve() == (ROOT / "games" / "imperium").resolve()


def test_a_game_folder_is_found_by_its_path(own_game: Path):
    assert find_game(str(own_game)).resolve() == own_game.resolve()


def test_a_scenario_names_its_game_by_a_path_relative_to_itself(own_game: Path):
    assert find_game("..", own_game / "scenarios").resolve() == own_game.resolve()


def test_a_scenario_names_its_game_by_the_id_of_the_folder_it_lies_in(own_game: Path):
    assert find_game("tiny", own_game / "scenarios").resolve() == own_game.resolve()


def test_an_unknown_game_names_the_bundled_ones():
    with pytest.raises(UnknownGame, match=r"not a bundled game .*imperium"):
        find_game("chess")


def test_a_folder_without_a_manifest_is_not_a_game(tmp_path: Path):
    with pytest.raises(UnknownGame, match=r"without a game\.yaml"):
        find_game(str(tmp_path))


def test_a_game_path_the_system_refuses_is_an_unknown_game_not_a_crash(tmp_path):
    """Found by `make fuzz` (seed 903): a save whose `game_folder` is a 300-letter name made
    `ludex dump` crash (the system refuses so long a name)."""
    with pytest.raises(UnknownGame, match="no game folder"):
        find_game("a" * 300 + "/", tmp_path)


def test_files_are_classified_by_their_place_in_the_game_folder(own_game: Path):
    assert classify(own_game / "game.yaml")[0] == "game"
    assert classify(own_game / "cards" / "tiny_cards.yaml")[0] == "cards"
    assert classify(own_game / "cards" / "locale" / "en.yaml")[0] == "locale"
    assert classify(own_game / "tables.yaml")[0] == "tables"
    assert classify(own_game / "scenarios" / "income.yaml") == ("scenario", own_game.resolve())


# -- every command on a game kept anywhere -----------------------------------------------------

def test_validate_check_and_test_work_on_a_game_folder(own_game: Path):
    assert ludex("validate", str(own_game)).returncode == 0
    checked = ludex("check", str(own_game))
    assert checked.returncode == 0, checked.stdout
    assert checked.stdout.startswith("tiny ") and "7 passed, 0 failed" in checked.stdout
    tested = ludex("test", str(own_game))
    assert tested.stdout.strip().endswith("7 passed, 0 failed")


def test_play_save_resume_and_dump_work_on_a_game_folder(own_game: Path, tmp_path: Path):
    saved = tmp_path / "elsewhere" / "game.json"
    saved.parent.mkdir()
    played = ludex("play", str(own_game), "--agents", "random", "--seed", "2",
                   "--max-decisions", "3", "--save", str(saved))
    assert played.returncode == 0, played.stderr
    assert json.loads(saved.read_text())["game"] == "tiny"
    resumed = ludex("play", str(own_game), "--resume", str(saved), "--agents", "first")
    assert resumed.returncode == 0 and "Game over" in resumed.stdout
    # dump finds the game from the saved file alone, run from another folder
    dumped = ludex("dump", str(saved), cwd=ROOT)
    assert dumped.returncode == 0, dumped.stderr
    # printed here, where the id `tiny` finds no game: the scenario names the folder instead
    game_line = next(line for line in dumped.stdout.splitlines() if line.startswith("game: "))
    assert game_line.endswith("designs/My Tiny Game")


def test_simulate_works_on_a_game_folder(own_game: Path):
    result = ludex("simulate", str(own_game), "--games", "5", "--json")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["game"] == "tiny" and summary["games"] == 5 and summary["errors"] == []


def test_coverage_lists_only_the_named_games_clauses(own_game: Path):
    result = ludex("coverage", str(own_game), "--json")
    ids = [c["id"] for c in json.loads(result.stdout)["clauses"]]
    assert ids == ["TINY-INCOME", "TINY-PAY", "TINY-END", "TINY-ROUNDS"]
    assert result.returncode == 0, result.stdout


def test_schema_export_writes_the_games_schemas_and_points_its_files_there(own_game: Path):
    shutil.rmtree(own_game / "schemas")
    card_file = own_game / "cards" / "tiny_cards.yaml"
    card_file.write_text("\n".join(card_file.read_text().splitlines()[1:]) + "\n")
    result = ludex("schema", str(own_game), "--export")
    assert result.returncode == 0, result.stderr
    cards = json.loads((own_game / "schemas" / "cards.schema.json").read_text())
    assert cards["$defs"]["power_id"]["enum"] == ["blue", "red"]
    assert "value" in cards["$defs"]["card"]["properties"]
    assert card_file.read_text().startswith(
        "# yaml-language-server: $schema=../schemas/cards.schema.json\n")


def test_schema_prints_a_games_schema_of_one_kind(own_game: Path):
    result = ludex("schema", str(own_game), "map")
    assert "walled" in json.loads(result.stdout)["$defs"]["space"]["properties"]


# -- validate: each file once, nothing to check is a usage error -------------------------------

def test_each_file_is_validated_once_however_the_paths_overlap(own_game: Path):
    (own_game / "cards" / "tiny_cards.yaml").write_text(
        (own_game / "cards" / "tiny_cards.yaml").read_text().replace("owner: red,", "owner: rex,",
                                                                     1))
    once = ludex("validate", "--json", str(own_game))
    overlapping = ludex("validate", "--json", str(own_game), str(own_game / "cards"),
                        str(own_game / "cards" / "tiny_cards.yaml"), str(own_game / "scenarios"))
    assert json.loads(once.stdout) == json.loads(overlapping.stdout)
    assert [e["code"] for e in json.loads(once.stdout)["errors"]] == [
        "content/unknown-name", "scenario/unchecked"]  # the scenarios wait for the game


@pytest.mark.parametrize("command", ["validate", "test"])
def test_a_folder_with_no_content_is_a_usage_error(command: str, tmp_path: Path):
    (tmp_path / "notes.yaml").write_text("title: not a game\n")
    result = ludex(command, str(tmp_path))
    assert result.returncode == 2, result.stdout + result.stderr


@pytest.mark.parametrize("command", ["validate", "play", "simulate", "check", "coverage"])
def test_a_missing_game_is_a_usage_error(command: str, tmp_path: Path):
    args = [command, str(tmp_path / "nowhere")] + (["--games", "1"] if command == "simulate"
                                                   else [])
    result = ludex(*args)
    assert result.returncode == 2, result.stdout + result.stderr


def test_validate_format_github_writes_workflow_annotations(own_game: Path):
    (own_game / "game.yaml").write_text((own_game / "game.yaml").read_text().replace(
        "turns: 3", "turns: three"))
    result = ludex("validate", "--format", "github", str(own_game))
    assert result.returncode == 1
    line = result.stdout.strip().splitlines()[0]
    assert line.startswith("::error file=") and ",line=" in line and ",col=" in line
    assert "title=schema/wrong-type::" in line


# -- ludex init --------------------------------------------------------------------------------

def test_init_makes_a_game_that_passes_check_and_covers_its_clauses(tmp_path: Path):
    created = ludex("init", "Orchard Game", cwd=tmp_path)
    assert created.returncode == 0, created.stderr
    folder = tmp_path / "Orchard Game"
    assert "id: orchard_game" in (folder / "game.yaml").read_text()
    for path in (".pre-commit-config.yaml", ".github/workflows/ludex.yml", "README.md",
                 "schemas/cards.schema.json", "scenarios/START-PLANT.yaml"):
        assert (folder / path).is_file(), path
    assert ludex("check", ".", cwd=folder).returncode == 0
    assert ludex("coverage", ".", cwd=folder).returncode == 0
    # the starter is a model of strong scenarios: no wrong reading of it goes unnoticed
    mutated = ludex("mutate", ".", "--json", cwd=folder)
    assert mutated.returncode == 0, mutated.stdout
    assert json.loads(mutated.stdout)["survived"] == 0
    played = ludex("play", ".", "--agents", "random", "--seed", "1", cwd=folder)
    assert played.returncode == 0 and "Game over (the last turn is over)" in played.stdout


def install_step(folder: Path) -> dict:
    """The step of a game repository's CI workflow that installs Ludex."""
    workflow = yaml.safe_load((folder / ".github" / "workflows" / "ludex.yml").read_text())
    steps = [s for s in workflow["jobs"]["check"]["steps"] if "pip install" in s.get("run", "")]
    assert len(steps) == 1, steps
    return steps[0]


def run_step(step: dict, tmp_path: Path, spec: str) -> subprocess.CompletedProcess:
    """The step's script as the runner runs it (bash -e), LUDEX_SPEC set to `spec`, with a
    `pip` that only notes its arguments."""
    fake = tmp_path / "bin"
    fake.mkdir(exist_ok=True)
    (fake / "pip").write_text(f'#!/bin/sh\necho "$@" > {tmp_path / "pip-args"}\n')
    (fake / "pip").chmod(0o755)
    env = {**os.environ, "PATH": f"{fake}:{os.environ['PATH']}", "LUDEX_SPEC": spec}
    assert step["env"] == {"LUDEX_SPEC": "${{ vars.LUDEX_SPEC }}"}
    return subprocess.run(["bash", "-e", "-c", step["run"]], capture_output=True, text=True,
                          env=env)


def test_the_ci_workflow_of_init_stops_with_an_error_saying_how_to_set_ludex_spec(tmp_path):
    """It installed `ludex` from PyPI when LUDEX_SPEC was not set: Ludex is not published
    there, and anyone could publish something under that name."""
    assert ludex("init", "game", cwd=tmp_path).returncode == 0
    result = run_step(install_step(tmp_path / "game"), tmp_path, "")
    assert result.returncode == 1
    assert result.stdout.startswith("::error title=LUDEX_SPEC is not set::Set the repository "
                                    "variable LUDEX_SPEC to where Ludex is installed from: a "
                                    "wheel's URL")
    assert "git URL" in result.stdout and "gh variable set LUDEX_SPEC" in result.stdout
    assert not (tmp_path / "pip-args").exists()


def test_the_ci_workflow_of_init_installs_ludex_from_ludex_spec_and_nothing_else(tmp_path):
    assert ludex("init", "game", cwd=tmp_path).returncode == 0
    step = install_step(tmp_path / "game")
    assert "${{" not in step["run"]  # the variable reaches the script as data, not as code
    spec = "git+https://example.invalid/ludex.git@v0.1.0"
    assert run_step(step, tmp_path, spec).returncode == 0
    assert (tmp_path / "pip-args").read_text() == f"install {spec}\n"
    readme = (tmp_path / "game" / "README.md").read_text()
    assert "repository variable `LUDEX_SPEC`" in readme


def test_no_template_links_to_a_domain_that_is_not_the_tools_own():
    """The starter README linked to https://ludex.dev, a domain that is not ours."""
    allowed = {"pre-commit.com", "…"}  # pre-commit's own site; `…` stands for the reader's
    templates = ROOT / "interpreter" / "ludex" / "templates"
    found = {(p.relative_to(templates).as_posix(), host) for p in templates.rglob("*")
             if p.is_file()
             for host in re.findall(r"https?://([^/\s)`'\"]+)", p.read_text(encoding="utf-8"))}
    assert {(path, host) for path, host in found if host not in allowed} == set()


def test_init_refuses_a_folder_that_is_not_empty(tmp_path: Path):
    (tmp_path / "mine.txt").write_text("keep me")
    result = ludex("init", str(tmp_path))
    assert result.returncode == 2
    assert (tmp_path / "mine.txt").read_text() == "keep me"


def test_init_refuses_an_invalid_id(tmp_path: Path):
    assert ludex("init", str(tmp_path / "g"), "--id", "Bad-Id").returncode == 2


@pytest.mark.parametrize("where", ["a_file/inside", "a" * 300])
def test_init_refuses_a_path_it_cannot_create_with_a_usage_error(tmp_path: Path, where: str):
    """A path through a file, a name longer than the system takes: internal errors (exit 3)
    before (found by a reliability audit)."""
    (tmp_path / "a_file").write_text("keep me")
    result = ludex("init", where, cwd=tmp_path)
    assert result.returncode == 2 and "cannot create" in result.stderr, result.stderr
    assert (tmp_path / "a_file").read_text() == "keep me"


def test_init_keeps_the_letters_of_an_accented_folder_name_in_the_id(tmp_path: Path):
    assert ludex("init", str(tmp_path / "Jeu Unï")).returncode == 0
    assert "id: jeu_uni\n" in (tmp_path / "Jeu Unï" / "game.yaml").read_text(encoding="utf-8")


def test_init_in_another_primary_language_names_its_locales_for_it_and_checks(tmp_path):
    created = ludex("init", "星の市", "--language", "ja", cwd=tmp_path)
    assert created.returncode == 0, created.stderr
    folder = tmp_path / "星の市"
    manifest = yaml.safe_load((folder / "game.yaml").read_text(encoding="utf-8"))
    assert manifest["language"] == "ja"
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("locale/*.yaml")) \
        == ["cards/locale/ja.yaml", "locale/ja.yaml"]
    locale = yaml.safe_load((folder / "locale" / "ja.yaml").read_text(encoding="utf-8"))
    assert locale["lang"] == "ja" and locale["game"]["name"] == "星の市"  # the folder's name
    # no id could be made from the name: the fallback, said out loud
    assert manifest["id"] == "my_game" and "--id" in created.stdout
    checked = ludex("check", ".", cwd=folder)
    assert checked.returncode == 0, checked.stdout


@pytest.mark.parametrize("lang", ["es", "el"])
def test_init_in_a_language_the_engine_speaks_validates_strictly_at_once(tmp_path, lang):
    """A Spanish or Greek designer met `locale/missing-engine-messages` for ~130 of the
    engine's lines before `validate --strict` passed: the engine speaks both now."""
    assert ludex("init", "mygame", "--language", lang, cwd=tmp_path).returncode == 0
    checked = ludex("validate", "--strict", "--json", "mygame", cwd=tmp_path)
    found = {e["code"] for e in json.loads(checked.stdout)["errors"]}
    # the starter's English text in a Greek file is Greek's to write over (locale/mixed-script)
    assert found <= ({"locale/mixed-script"} if lang == "el" else set()), checked.stdout
    assert "missing-engine-messages" not in checked.stdout + checked.stderr


def test_a_fresh_game_in_a_language_the_engine_lacks_passes_strict_once_cli_md_steps_are_done(
        tmp_path):
    """docs/cli.md showed a fresh `init --language es` as clean (a designer's trial, when the
    engine lacked Spanish); in a language it lacks there is one warning, which `--strict`
    makes an error, until the engine's messages are given as the docs now say: exported to a
    catalog, translated, imported."""
    from babel.messages.pofile import read_po, write_po

    init = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8").split("## `ludex init")[1] \
        .split("\n## ")[0]
    assert "locale/missing-engine-messages" in init and "--strict" in init
    assert "ludex locale export . it --out it.po" in init and "ludex locale import . it it.po" \
        in init
    assert ludex("init", "gioco", "--language", "it", cwd=tmp_path).returncode == 0
    folder = tmp_path / "gioco"
    strict = ludex("validate", "--strict", "--json", ".", cwd=folder)
    assert [e["code"] for e in json.loads(strict.stdout)["errors"]] == \
        ["locale/missing-engine-messages"]
    assert ludex("locale", "export", ".", "it", "--out", "it.po", cwd=folder).returncode == 0
    with (folder / "it.po").open("rb") as po:
        catalog = read_po(po)
    for message in catalog:
        if message.id and not message.string:
            message.string = message.id  # "translated" as it stands: the steps are the point
    with (folder / "it.po").open("wb") as po:
        write_po(po, catalog)
    assert ludex("locale", "import", ".", "it", "it.po", cwd=folder).returncode == 0
    strict = ludex("validate", "--strict", ".", cwd=folder)
    assert strict.returncode == 0, strict.stdout


def test_init_refuses_a_language_that_is_no_language_tag(tmp_path: Path):
    result = ludex("init", str(tmp_path / "g"), "--language", "EN_us")
    assert result.returncode == 2 and "BCP 47" in result.stderr
    assert not (tmp_path / "g").exists()


def test_init_example_copies_a_bundled_game_as_a_folder_of_ones_own_that_checks(tmp_path):
    """The way to change a bundled game (a wheel's are not the person's to write into); its
    scenarios find the copy, not the bundled game of the same id."""
    created = ludex("init", "my_rome", "--example", "imperium", "--json", cwd=tmp_path)
    assert created.returncode == 0, created.stderr
    assert json.loads(created.stdout)["game"] == "imperium"
    copy = tmp_path / "my_rome"
    assert (copy / "locale" / "de.yaml").read_bytes() == \
        (ROOT / "games" / "imperium" / "locale" / "de.yaml").read_bytes()
    scenario = next((copy / "scenarios").glob("*.yaml"))
    assert find_game("imperium", scenario.parent).resolve() == copy.resolve()
    checked = ludex("check", "my_rome", cwd=tmp_path)
    bundled = len(list((ROOT / "games" / "imperium" / "scenarios").glob("*.yaml")))
    assert checked.returncode == 0 and f"{bundled} passed, 0 failed" in checked.stdout


@pytest.mark.parametrize("args, words", [
    (["--example", "fair_weathr"], "Invalid value for --example: no example `fair_weathr` "
     "(did you mean `fair_weather`?); the examples are fair_weather, imperium, sword_of_rome"),
    (["--example", "fair_weather", "--id", "mine"], "drop --id, --name and --language"),
])
def test_init_example_names_the_examples_when_asked_for_one_it_lacks(tmp_path, args, words):
    result = ludex("init", "copy", *args, cwd=tmp_path)
    assert result.returncode == 2 and words in result.stderr, result.stderr
    assert not (tmp_path / "copy").exists()


def test_init_example_refuses_a_folder_that_is_not_empty(tmp_path: Path):
    (tmp_path / "mine.txt").write_text("keep me")
    result = ludex("init", str(tmp_path), "--example", "fair_weather")
    assert result.returncode == 2 and "is not an empty folder" in result.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["mine.txt"]


# -- the pytest plugin -------------------------------------------------------------------------

def test_pytest_collects_a_games_scenarios_and_never_another_projects_yaml(tmp_path: Path):
    project = tmp_path / "project"
    shutil.copytree(TINY, project / "games" / "tiny")
    (project / "tests" / "scenarios").mkdir(parents=True)
    (project / "tests" / "scenarios" / "login.yaml").write_text("user: admin\nsteps: []\n")
    (project / "rules").mkdir()
    (project / "rules" / "extra.yaml").write_text(
        (TINY / "scenarios" / "income.yaml").read_text().replace("game: tiny",
                                                                   "game: ../games/tiny"))
    collected = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q"],
                               capture_output=True, text=True, cwd=project).stdout
    assert "login" not in collected
    assert "games/tiny/scenarios/income.yaml::income" in collected
    # a file that declares itself a scenario (its modeline) is collected wherever it lies
    assert "rules/extra.yaml::extra" in collected


def test_pytest_collects_the_folders_named_in_the_ludex_scenarios_option(tmp_path: Path):
    project = tmp_path / "project"
    shutil.copytree(TINY, project / "tiny")
    (project / "checks").mkdir()
    text = (TINY / "scenarios" / "income.yaml").read_text().split("\n", 1)[1]  # no modeline
    (project / "checks" / "income.yaml").write_text(text.replace("game: tiny",
                                                                 "game: ../tiny"))
    (project / "pytest.ini").write_text("[pytest]\nludex_scenarios = checks\n")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "checks"],
                         capture_output=True, text=True, cwd=project)
    assert run.returncode == 0, run.stdout
    assert "1 passed" in run.stdout


def test_a_broken_link_among_a_games_scenarios_fails_in_pytest_and_ludex_test(tmp_path: Path):
    """A scenario file that is a link to nothing was passed over by pytest, `ludex test` and
    the plugin alike: the suite passed with the scenario never run."""
    game = tmp_path / "tiny"
    shutil.copytree(TINY, game)
    (game / "scenarios" / "gone.yaml").symlink_to(tmp_path / "moved" / "gone.yaml")
    (game / "scenarios" / "more").mkdir()  # in a folder of its own too
    (game / "scenarios" / "more" / "lost.yaml").symlink_to(tmp_path / "moved" / "lost.yaml")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
                         capture_output=True, text=True, cwd=game)
    assert run.returncode == 1, run.stdout
    assert "FAILED scenarios/gone.yaml::gone" in run.stdout
    assert "FAILED scenarios/more/lost.yaml::lost" in run.stdout
    assert f"a link to {tmp_path / 'moved' / 'gone.yaml'}, which is not there" in run.stdout
    test = ludex("test", ".", cwd=game)
    assert test.returncode == 1
    assert "scenarios/gone.yaml:1:1: error[io/unreadable]" in test.stdout


def test_a_scenario_linked_into_a_game_names_its_game_from_where_the_link_lies(tmp_path):
    """`game: tiny` in a scenario kept elsewhere and linked into the game's scenarios/ is
    looked up from the link's folder, as the card files linked into a game are its own."""
    game = tmp_path / "my_game"
    shutil.copytree(TINY, game)
    kept = tmp_path / "elsewhere" / "income.yaml"
    kept.parent.mkdir()
    (game / "scenarios" / "income.yaml").rename(kept)
    (game / "scenarios" / "income.yaml").symlink_to(kept)
    assert "game: tiny" in kept.read_text()
    run = ludex("test", "scenarios/income.yaml", cwd=game)
    assert run.returncode == 0, run.stdout


def test_a_ludex_scenarios_path_that_is_not_there_is_a_usage_error(tmp_path: Path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "pytest.ini").write_text("[pytest]\nludex_scenarios = chekcs\n")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
                         capture_output=True, text=True, cwd=project)
    assert run.returncode == 4, run.stdout + run.stderr
    assert "`ludex_scenarios` option names" in run.stderr and "chekcs" in run.stderr


# -- pre-commit hooks --------------------------------------------------------------------------

def test_the_pre_commit_hooks_pass_on_a_clean_game_and_fail_on_a_broken_one(own_game: Path):
    import yaml

    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert [h["id"] for h in hooks] == ["ludex-validate", "ludex-test"]
    for hook in hooks:
        command = hook["entry"].split()[1:] + hook["args"]
        assert ludex(*command, cwd=own_game).returncode == 0, hook["id"]
    (own_game / "game.yaml").write_text((own_game / "game.yaml").read_text().replace(
        "turns: 3", "turns: three"))
    for hook in hooks:
        command = hook["entry"].split()[1:] + hook["args"]
        assert ludex(*command, cwd=own_game).returncode == 1, hook["id"]


def test_the_documented_vs_code_problem_matcher_reads_validates_lines(own_game: Path):
    import re

    doc = (ROOT / "docs" / "editor-setup.md").read_text()
    block = next(b for b in re.findall(r"```json\n(.*?)```", doc, re.DOTALL)
                 if "problemMatcher" in b)
    pattern = json.loads(block)["problemMatcher"]["pattern"]
    (own_game / "game.yaml").write_text((own_game / "game.yaml").read_text().replace(
        "turns: 3", "turns: three"))
    line = ludex("validate", str(own_game)).stdout.splitlines()[0]
    found = re.match(pattern["regexp"], line)
    assert found, line
    assert found.group(pattern["file"]).endswith("game.yaml")
    assert found.group(pattern["severity"]) == "error"
    assert found.group(pattern["code"]) == "schema/wrong-type"


def test_dump_names_a_game_kept_elsewhere_by_a_path_the_scenario_can_follow(own_game: Path,
                                                                            tmp_path: Path):
    saved = tmp_path / "game.json"
    ludex("play", str(own_game), "--agents", "random", "--max-decisions", "2",
          "--save", str(saved))
    target = tmp_path / "far" / "away" / "case.yaml"
    target.parent.mkdir(parents=True)
    assert ludex("dump", str(saved), "--out", str(target)).returncode == 0
    text = target.read_text()
    assert "\ngame: ../../designs/My Tiny Game\n" in text
    assert "$schema=../../designs/My Tiny Game/schemas/scenario.schema.json" in text


def test_validate_reads_a_scenario_named_on_its_own_as_test_runs_it(tmp_path: Path):
    """A scenario outside any game folder, with no modeline: `ludex test` ran it, while
    `ludex validate` said it could not tell what kind of file it was."""
    text = (TINY / "scenarios" / "income.yaml").read_text().split("\n", 1)[1]  # no modeline
    scenario = tmp_path / "elsewhere" / "income.yaml"
    scenario.parent.mkdir()
    scenario.write_text(text.replace("game: tiny", f"game: {TINY}"))
    assert ludex("test", str(scenario)).returncode == 0
    checked = ludex("validate", str(scenario))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "in 1 file checked" in checked.stderr  # the count goes to stderr
    scenario.write_text(scenario.read_text() + "  - counter(gold, red) == undefined_name\n")
    broken = ludex("validate", str(scenario))
    assert broken.returncode == 1 and "error[effect/unknown-name]" in broken.stdout
