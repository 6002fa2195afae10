"""A file or folder a command cannot write is the person's situation, not a bug in Ludex: a
usage error that names it (exit 2), as `play --save` and `--out` always gave, or, when the disk
fails the write (full), an error naming it (exit 1), never "internal error … please report it"
(exit 3). And a game that lies inside the installed package (a
wheel's bundled games) is never written into: its files belong to pip.

The suite runs as root, for whom a read-only file is writable all the same: the refusals are
made with a path through a regular file (refused to root too), or by making the system's
answer a refusal where the command asks it."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ludex import resources
from ludex.cli import main

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "tests" / "games" / "tiny"


def ludex(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ludex.cli", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=300)


def run_main(capsys, *args: str) -> tuple[int, str]:
    """`ludex ARGS` in this process (so that a test can change what the system answers): the
    exit status and what was printed on stderr."""
    old = sys.argv
    sys.argv = ["ludex", *args]
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = exc.code or 0
    finally:
        sys.argv = old
    return code, capsys.readouterr().err


@pytest.fixture
def tiny(tmp_path) -> Path:
    """A copy of the tiny game, with a German locale to stamp and import."""
    shutil.copytree(TINY, tmp_path / "tiny")
    (tmp_path / "tiny" / "locale" / "de.yaml").write_text(
        "lang: de\ngame: {name: Winzig}\npowers: {red: Rot, blue: Blau}\n", encoding="utf-8")
    return tmp_path / "tiny"


@pytest.fixture
def in_the_way(tmp_path) -> Path:
    """A regular file: a path through it cannot be written, even by root."""
    path = tmp_path / "a_file"
    path.write_text("not a folder\n")
    return path


def refuse_writes_under(monkeypatch, folder: Path, error: int = errno.EACCES) -> None:
    """Writes of files under `folder` fail as the system fails them for a user without the
    right: `os.access` says no, and opening for writing raises; for a full disk (ENOSPC),
    only the writing fails."""
    folder = folder.resolve()
    real_access, real_open = os.access, os.open

    def under(path) -> bool:
        return Path(path).resolve().is_relative_to(folder)

    def access(path, mode, *args, **kwargs):
        if mode & os.W_OK and under(path):
            return False
        return real_access(path, mode, *args, **kwargs)

    def opening(path, flags, *args, **kwargs):
        if flags & (os.O_WRONLY | os.O_RDWR) and under(path):
            raise OSError(error, os.strerror(error), str(path))
        return real_open(path, flags, *args, **kwargs)

    if error != errno.ENOSPC:
        monkeypatch.setattr(os, "access", access)
    monkeypatch.setattr(os, "open", opening)


# -- schema --export -----------------------------------------------------------------------
@pytest.mark.parametrize("game", [["imperium"], []], ids=["a game's", "the base schemas"])
def test_schema_export_into_a_folder_that_cannot_be_made_is_a_usage_error(in_the_way, game):
    result = ludex("schema", *game, "--export", str(in_the_way / "schemas"))
    assert result.returncode == 2, result.stderr
    assert f"{in_the_way / 'schemas'} cannot be written: {in_the_way} is a file, not a folder" \
        in result.stderr
    assert "internal error" not in result.stderr


def test_schema_export_into_a_game_folder_refused_before_writing_writes_nothing(
        tiny, monkeypatch, capsys):
    before = {p: p.read_bytes() for p in tiny.rglob("*") if p.is_file()}
    refuse_writes_under(monkeypatch, tiny)
    code, err = run_main(capsys, "schema", str(tiny), "--export")
    assert code == 2, err
    assert "Invalid value for --export: " in err and "schemas cannot be written" in err
    assert {p: p.read_bytes() for p in tiny.rglob("*") if p.is_file()} == before


def test_schema_export_a_file_of_the_game_refuses_while_written_is_a_usage_error(
        tiny, monkeypatch, capsys):
    """The folder passes the check, then the system refuses a file (a modeline's): told as
    the file that cannot be written, not as an internal error."""
    card = tiny / "cards" / "tiny_cards.yaml"
    card.write_text(card.read_text().split("\n", 1)[1])  # its modeline gone: it is rewritten
    real = Path.write_text

    def write_text(self, *args, **kwargs):
        if self.resolve() == card.resolve():
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", write_text)
    code, err = run_main(capsys, "schema", str(tiny), "--export")
    assert code == 2, err
    assert "tiny_cards.yaml cannot be written (Permission denied)" in err
    assert "internal error" not in err


# -- locale stamp and import ---------------------------------------------------------------
@pytest.mark.parametrize("command", [["stamp", "{game}", "de"],
                                     ["import", "{game}", "de", "{po}"]])
def test_locale_stamp_and_import_into_files_that_cannot_be_written_are_usage_errors(
        tiny, tmp_path, monkeypatch, capsys, command):
    po = tmp_path / "de.po"
    code, _ = run_main(capsys, "locale", "export", str(tiny), "de", "--out", str(po))
    assert code == 0
    german = (tiny / "locale" / "de.yaml").read_text()
    refuse_writes_under(monkeypatch, tiny / "locale")
    code, err = run_main(capsys, "locale",
                         *[a.format(game=tiny, po=po) for a in command])
    assert code == 2, err
    assert "de.yaml cannot be written" in err and "internal error" not in err
    assert (tiny / "locale" / "de.yaml").read_text() == german


def test_locale_import_of_a_new_language_the_system_refuses_to_write_is_a_usage_error(
        tiny, tmp_path, monkeypatch, capsys):
    """No German file yet to check beforehand: the write itself is refused."""
    po = tmp_path / "de.po"
    assert run_main(capsys, "locale", "export", str(tiny), "de", "--out", str(po))[0] == 0
    (tiny / "locale" / "de.yaml").unlink()
    real = Path.write_text

    def write_text(self, *args, **kwargs):
        if self.parent.resolve() == (tiny / "locale").resolve():
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", write_text)
    code, err = run_main(capsys, "locale", "import", str(tiny), "de", str(po))
    assert code == 2, err
    assert "de.yaml cannot be written (Permission denied)" in err
    assert "internal error" not in err


# -- serve --saves, and what play, dump and render write -------------------------------------
def test_serve_with_a_saves_folder_that_cannot_be_made_is_a_usage_error(in_the_way):
    result = ludex("serve", "imperium", "--port", "0", "--saves", str(in_the_way / "saves"))
    assert result.returncode == 2, result.stderr
    assert f"Invalid value for --saves: {in_the_way / 'saves'} cannot be written" \
        in result.stderr


def test_serve_with_a_saves_folder_the_system_will_not_make_is_a_usage_error(
        tmp_path, monkeypatch, capsys):
    """The look before passes (the folder above is writable) and the system refuses to make
    it all the same (root under /proc, a folder made read-only meanwhile): it was an internal
    error, exit 3, from the table's own mkdir."""
    saves = tmp_path / "saves"
    make = Path.mkdir

    def mkdir(self, *args, **kwargs):
        if self == saves:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", str(self))
        return make(self, *args, **kwargs)

    monkeypatch.setattr(Path, "mkdir", mkdir)
    code, err = run_main(capsys, "serve", str(TINY), "--port", "0", "--saves", str(saves))
    assert code == 2, err
    assert f"Invalid value for --saves: {saves} cannot be written (No such file or directory)" \
        in err


def test_serve_takes_a_saves_folder_it_may_only_read(tmp_path, monkeypatch):
    """Saves to load from a read-only folder are worth serving: only saving is refused (by
    the page, test_table.py)."""
    from ludex.cli.common import check_output_folder

    (tmp_path / "saves").mkdir()
    refuse_writes_under(monkeypatch, tmp_path / "saves")
    check_output_folder(tmp_path / "saves", "--saves", written=False)


@pytest.mark.parametrize("command", [
    ["play", "tiny", "--agents", "random", "--save", "{out}"],
    ["dump", str(TINY / "scenarios" / "income.yaml"), "--out", "{out}"],
    ["render", "tiny", "--out", "{out}"],
])
def test_a_disk_that_fills_up_while_a_command_writes_is_an_io_error_not_a_usage_error(
        tmp_path, monkeypatch, capsys, command):
    """The file passed the check before any work; the write fails all the same. The
    arguments were right (a usage error with `Invalid value for --save` said otherwise, after
    a whole game had been played): exit 1, naming the file and the system's reason."""
    out = tmp_path / "written.yaml"
    refuse_writes_under(monkeypatch, tmp_path, errno.ENOSPC)
    monkeypatch.chdir(TINY.parent)
    code, err = run_main(capsys, *[a.format(out=out) for a in command])
    assert code == 1, err
    assert f"{out} cannot be written (No space left on device)" in err
    assert "Usage:" not in err and "Invalid value" not in err and "internal error" not in err
    assert not out.exists()


def test_a_game_whose_save_the_full_disk_refuses_still_ends_and_says_it_is_not_saved(
        tmp_path, monkeypatch, capsys):
    out = tmp_path / "game.json"
    refuse_writes_under(monkeypatch, tmp_path, errno.ENOSPC)
    code, err = run_main(capsys, "play", str(TINY), "--agents", "random", "--save", str(out))
    assert code == 1, err
    assert err.count(f"Error: --save {out} cannot be written (No space left on device); the "
                     "game is not saved") == 1


# -- games installed with Ludex ----------------------------------------------------------------
@pytest.fixture
def installed(tmp_path, monkeypatch) -> Path:
    """Ludex as a wheel lays it out: the bundled games inside the package (ludex/_bundled/),
    here the tiny game; the package's folder."""
    package = tmp_path / "site-packages" / "ludex"
    shutil.copytree(ROOT / "schema", package / "_bundled" / "schema")
    shutil.copytree(TINY, package / "_bundled" / "games" / "tiny")
    (package / "_bundled" / "games" / "tiny" / "locale" / "de.yaml").write_text(
        "lang: de\ngame: {name: Winzig}\n", encoding="utf-8")
    monkeypatch.setattr(resources, "_PACKAGE", package)
    resources.data_root.cache_clear()
    yield package
    resources.data_root.cache_clear()


def files_of(folder: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_schema_export_of_a_game_installed_with_ludex_is_refused_and_points_to_export_dir(
        installed, tmp_path, capsys):
    before = files_of(installed)
    code, err = run_main(capsys, "schema", "tiny", "--export")
    assert code == 2, err
    assert "tiny is a game installed with Ludex" in err
    assert "give `--export DIR` to write its schemas into a folder of your own" in err
    assert files_of(installed) == before
    code, err = run_main(capsys, "schema", "tiny", "--export", str(tmp_path / "mine"))
    assert code == 0, err
    assert (tmp_path / "mine" / "cards.schema.json").is_file()


@pytest.mark.parametrize("command", [["stamp", "tiny", "de"], ["import", "tiny", "de", "{po}"]])
def test_locale_stamp_and_import_of_a_game_installed_with_ludex_are_refused(
        installed, tmp_path, capsys, command):
    po = tmp_path / "de.po"
    assert run_main(capsys, "locale", "export", "tiny", "de", "--out", str(po))[0] == 0
    before = files_of(installed)
    code, err = run_main(capsys, "locale", *[a.format(po=po) for a in command])
    assert code == 2, err
    assert "tiny is a game installed with Ludex" in err
    assert "`ludex init DIR --example tiny`" in err
    assert files_of(installed) == before


def test_in_a_checkout_the_bundled_games_are_the_repositorys_own_to_export_into():
    assert resources.data_root() == ROOT
    assert not resources.inside_package(resources.games_dir() / "imperium")
