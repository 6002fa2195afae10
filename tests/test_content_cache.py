"""The content cache on disk (content_cache.py): a warm run reports exactly what a cold one
does, warnings included, without reading YAML, checking schemas or parsing effects again; any
change to a game's files, to the base schemas or to Ludex names another entry; a damaged,
foreign or hostile entry is ignored without a crash and never runs code; `--no-cache` and
LUDEX_NO_CACHE=1 turn it off."""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ludex import content_cache, loading, parser
from ludex.cli import cli
from ludex.folders import discover
from ludex.resources import schema_dir
from ludex.scenario import run_scenario
from ludex.validate import validate_paths

TESTS = Path(__file__).parent
TINY = TESTS / "games" / "tiny"
CORPUS = TESTS / "invalid"
PARTIAL_DE = "lang: de\ngame: {name: Winzig}\npowers: {red: Rot, blue: Blau}\n"


@pytest.fixture()
def cache_home(tmp_path: Path, monkeypatch) -> Path:
    """An empty content cache of this test's own; nothing kept in the process before."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache-home"))
    monkeypatch.delenv("LUDEX_NO_CACHE", raising=False)
    loading.forget()
    yield tmp_path / "cache-home" / "ludex" / "content"
    loading.forget()


@pytest.fixture()
def tiny(tmp_path: Path) -> Path:
    shutil.copytree(TINY, tmp_path / "tiny")
    return tmp_path / "tiny"


class Reads:
    """Counts the real YAML reads, game loads and effect parses made while it is installed."""

    def __init__(self, monkeypatch):
        self.files = self.games = self.parses = 0
        real_file, real_game, real_parse = loading.load_file, loading.load_game, parser.parse

        def load_file(*args, **kwargs):
            self.files += 1
            return real_file(*args, **kwargs)

        def load_game(*args, **kwargs):
            self.games += 1
            return real_game(*args, **kwargs)

        def parse(*args, **kwargs):
            self.parses += 1
            return real_parse(*args, **kwargs)

        monkeypatch.setattr(loading, "load_file", load_file)
        monkeypatch.setattr(loading, "load_game", load_game)
        monkeypatch.setattr(parser, "parse", parse)


def cold_and_warm(run):
    """`run()` with the cache off, then on (writing it), then on again in a new process (as
    far as the cache can tell: nothing kept in memory): the three results."""
    os.environ["LUDEX_NO_CACHE"] = "1"
    try:
        loading.forget()
        off = run()
    finally:
        del os.environ["LUDEX_NO_CACHE"]
    loading.forget()
    cold = run()
    loading.forget()
    warm = run()
    return off, cold, warm


def test_a_warm_validate_skips_yaml_schemas_and_parsing(cache_home, monkeypatch):
    validate_paths([TINY])
    loading.forget()
    reads = Reads(monkeypatch)
    validate_paths([TINY])
    assert (reads.games, reads.files, reads.parses) == (0, 0, 0)


def test_a_warm_scenario_run_reads_no_yaml_and_parses_nothing(cache_home, monkeypatch):
    scenarios = sorted((TINY / "scenarios").glob("*.yaml"))
    first = [run_scenario(path).status for path in scenarios]
    loading.forget()
    reads = Reads(monkeypatch)
    again = [run_scenario(path).status for path in scenarios]
    assert again == first == ["passed"] * len(scenarios)
    assert (reads.games, reads.files, reads.parses) == (0, 0, 0)


@pytest.mark.parametrize("game", [TINY, TESTS / "games" / "wagers",
                                  TESTS.parent / "examples" / "fair_weather"],
                         ids=lambda p: p.name)
def test_a_game_validates_the_same_with_and_without_the_cache(cache_home, game):
    off, cold, warm = cold_and_warm(lambda: validate_paths([game]).diagnostics)
    assert off == cold == warm
    assert any(cache_home.iterdir())


def test_warnings_are_reported_from_a_cached_game_too(cache_home, tiny):
    (tiny / "locale" / "de.yaml").write_text(PARTIAL_DE, encoding="utf-8")
    off, cold, warm = cold_and_warm(lambda: validate_paths([tiny]).diagnostics)
    assert off == cold == warm
    assert warm and {d.severity for d in warm} == {"warning"}


def first_of_each_family(cases: list[Path]) -> list[Path]:
    """One broken file per family of codes (yaml_, schema_, content_, effect_…)."""
    chosen: dict[str, Path] = {}
    for case in cases:
        chosen.setdefault(case.name.split("_")[0], case)
    return list(chosen.values())


@pytest.mark.parametrize("path", first_of_each_family(sorted(CORPUS.rglob("*.yaml"))),
                         ids=lambda p: str(p.relative_to(CORPUS)))
def test_a_broken_file_is_reported_the_same_from_the_cache(cache_home, path):
    """(A run that misses the cache computes what a run without it does, and writes it.)"""
    head = path.read_text(encoding="utf-8", errors="replace")
    kind, game = next(line.split()[2:4] for line in head.splitlines()
                      if line.startswith("# as: "))
    game = str(CORPUS / game) if game.startswith("../") else game  # a test game, from here
    cold = validate_paths([path], kind=kind, game=game).diagnostics
    loading.forget()
    warm = validate_paths([path], kind=kind, game=game).diagnostics
    assert cold == warm and warm


def test_the_command_line_prints_the_same_warnings_cold_and_warm(tmp_path, tiny):
    (tiny / "locale" / "de.yaml").write_text(PARTIAL_DE, encoding="utf-8")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "home")}
    env.pop("LUDEX_NO_CACHE", None)

    def validate() -> tuple[int, str, str]:
        done = subprocess.run([sys.executable, "-m", "ludex.cli", "validate", str(tiny)],
                              capture_output=True, text=True, env=env)
        return done.returncode, done.stdout, done.stderr

    cold = validate()
    entries = {p: p.stat().st_mtime_ns for p in (tmp_path / "home").rglob("*.pickle")}
    warm = validate()
    assert cold == warm and cold[0] == 0
    assert "warning[locale/missing-translation]" in cold[1]
    assert entries and all(p.stat().st_mtime_ns >= t for p, t in entries.items())


def test_a_changed_game_file_is_loaded_again(cache_home, tiny):
    assert validate_paths([tiny]).diagnostics == []
    procedures = tiny / "procedures.yaml"
    procedures.write_text(procedures.read_text(encoding="utf-8").replace(
        "gain(", "gian(", 1), encoding="utf-8")
    loading.forget()  # a new process: only the disk cache could answer
    assert [d.code for d in validate_paths([tiny]).diagnostics if d.is_error] == [
        "effect/unknown-function"]


def test_a_changed_scenario_file_is_read_again(cache_home, tiny):
    scenario = tiny / "scenarios" / "income.yaml"
    assert run_scenario(scenario).passed
    text = scenario.read_text(encoding="utf-8")
    scenario.write_text(text.replace("expect:", "expect:\n  - turn == 999", 1),
                        encoding="utf-8")
    assert run_scenario(scenario).status == "failed"


def test_entries_are_named_by_the_game_files_bytes_and_places(tiny):
    before = content_cache.game_key(discover(tiny))
    assert content_cache.game_key(discover(tiny)) == before
    (tiny / "tables.yaml").write_text((tiny / "tables.yaml").read_text() + "\n")
    assert content_cache.game_key(discover(tiny)) != before


def test_a_changed_base_schema_or_ludex_version_names_other_entries(tmp_path):
    schemas = tmp_path / "schema"
    shutil.copytree(schema_dir(), schemas)
    sources = [Path(content_cache.__file__)]
    base = content_cache.fingerprint_of("1.0", sources, schemas)
    assert content_cache.fingerprint_of("1.0", sources, schemas) == base
    assert content_cache.fingerprint_of("1.1", sources, schemas) != base
    card = schemas / "cards.schema.json"
    card.write_text(card.read_text() + " ")
    assert content_cache.fingerprint_of("1.0", sources, schemas) != base


def test_entries_are_named_by_the_installed_library_versions_importlib_reports(
        tmp_path, monkeypatch):
    from importlib.metadata import version

    libraries = ("pyyaml", "PyYAML", "lark", "babel", "jsonschema")
    assert content_cache.library_versions(libraries) == {n: version(n) for n in libraries}
    assert content_cache.library_versions(("no-such-library",)) == {"no-such-library": None}
    # a newer pyyaml found first on the path is the one imported, so the one named
    (tmp_path / "PyYAML-99.1.dist-info").mkdir()
    monkeypatch.syspath_prepend(str(tmp_path))
    assert content_cache.library_versions(("pyyaml",)) == {"pyyaml": "99.1"}


def test_naming_this_ludex_does_not_import_importlib_metadata():
    code = ("import sys; from ludex import content_cache; content_cache.fingerprint(); "
            "print('importlib.metadata' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "False", done.stderr


def game_entry(cache_home: Path, folder: Path) -> Path:
    return cache_home / f"{content_cache.game_key(discover(folder))}.pickle"


def test_an_entry_is_never_read_for_another_key(cache_home, tiny):
    validate_paths([tiny])
    entry = game_entry(cache_home, tiny)
    other = "0" * 64
    shutil.copy(entry, cache_home / f"{other}.pickle")
    assert content_cache.fetch(other) is None
    assert content_cache.fetch(entry.stem) is not None


@pytest.mark.parametrize("damage", ["garbage", "truncated", "flipped", "empty"])
def test_a_damaged_entry_is_ignored_and_written_anew(cache_home, tiny, damage):
    expected = validate_paths([tiny]).diagnostics
    entry = game_entry(cache_home, tiny)
    raw = entry.read_bytes()
    entry.write_bytes({"garbage": b"\x80\x05not a pickle at all",
                       "truncated": raw[: len(raw) // 2],
                       "flipped": raw[:-40] + bytes([raw[-40] ^ 0xFF]) + raw[-39:],
                       "empty": b""}[damage])
    loading.forget()
    assert validate_paths([tiny]).diagnostics == expected
    assert content_cache.fetch(entry.stem) is not None  # written anew


class _Runs:
    """Pickles as a call of os.mkdir: what a hostile entry would hold."""

    def __init__(self, target: Path):
        self.target = target

    def __reduce__(self):
        return os.mkdir, (str(self.target),)


def test_an_entry_that_would_run_code_is_refused_unrun(cache_home, tmp_path):
    key, ran = "1" * 64, tmp_path / "ran"
    blob = pickle.dumps({"key": key, "game": _Runs(ran)})
    cache_home.mkdir(parents=True)
    entry = cache_home / f"{key}.pickle"
    entry.write_bytes(content_cache.FORMAT + key.encode() + b"\n"
                      + content_cache.hashlib.sha256(blob).hexdigest().encode() + b"\n" + blob)
    assert content_cache.fetch(key) is None
    assert not ran.exists()


def test_a_cache_that_cannot_be_written_is_no_error(tmp_path, monkeypatch, tiny):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    loading.forget()
    assert validate_paths([tiny]).diagnostics == []


def test_writes_leave_no_temporary_files(cache_home, tiny):
    validate_paths([tiny])
    for scenario in sorted((tiny / "scenarios").glob("*.yaml")):
        run_scenario(scenario)
    names = [p.name for p in cache_home.iterdir()]
    assert names and all(name.endswith(".pickle") for name in names)


@pytest.mark.parametrize("args", [["--no-cache", "validate"], ["validate", "--no-cache"],
                                  ["--no-cache", "test"], ["check", "--no-cache"]])
def test_no_cache_writes_and_reads_nothing(cache_home, tiny, args):
    runner = CliRunner()
    target = [str(tiny / "scenarios")] if "test" in args else [str(tiny)]
    result = runner.invoke(cli, [*args, *target])
    assert result.exit_code == 0, result.output
    assert not cache_home.exists() or not any(cache_home.iterdir())
    loading.forget()
    result = runner.invoke(cli, [args[0] if args[0] != "--no-cache" else args[1], *target])
    assert result.exit_code == 0 and any(cache_home.iterdir())  # the next command caches


def test_the_environment_variable_turns_the_cache_off(cache_home, tiny, monkeypatch):
    monkeypatch.setenv("LUDEX_NO_CACHE", "1")
    validate_paths([tiny])
    assert not cache_home.exists()


def test_the_cache_lives_under_xdg_cache_home_or_the_home_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert content_cache.folder() == tmp_path / "ludex" / "content"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/is/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert content_cache.folder() == tmp_path / "home" / ".cache" / "ludex" / "content"


def test_the_least_recently_used_entries_go_when_the_cache_is_full(cache_home, monkeypatch):
    cache_home.mkdir(parents=True)
    for age, name in enumerate("abcd"):
        (cache_home / f"{name * 64}.pickle").write_bytes(b"x" * 1000)
        os.utime(cache_home / f"{name * 64}.pickle", (age, age))
    monkeypatch.setattr(content_cache, "MAX_BYTES", 4100)
    monkeypatch.setattr(content_cache, "KEEP_BYTES", 1500)
    monkeypatch.setattr(content_cache, "_pruned", False)
    content_cache.store("e" * 64, content_cache.pack("e" * 64, {}))
    left = sorted(p.name[0] for p in cache_home.glob("*.pickle"))
    assert left == ["d", "e"]


def test_content_that_pickle_refuses_is_still_loaded(cache_home, tiny, monkeypatch):
    def refuse(key, payload):
        raise pickle.PicklingError("refused")

    monkeypatch.setattr(content_cache, "pack", refuse)
    assert validate_paths([tiny]).diagnostics == []
    assert run_scenario(tiny / "scenarios" / "income.yaml").passed
