"""`ludex validate` driven for real, as a subprocess: exit codes, the text and JSON shapes, and
no Python traceback whatever the input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

INVALID = Path(__file__).parent / "invalid"


def ludex(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ludex.cli", *args], capture_output=True,
                          text=True, cwd=cwd)


def test_every_bundled_game_validates_clean():
    result = ludex("validate")
    assert result.returncode == 0, result.stdout
    assert "no errors" in result.stderr


def test_content_errors_exit_1_with_compiler_style_lines_and_carets():
    result = ludex("validate", "--as", "cards", "--game", "sword_of_rome",
                   str(INVALID / "schema_unknown_key.yaml"))
    assert result.returncode == 1
    first = result.stdout.splitlines()
    assert any(line.endswith("error[schema/unknown-key]: unknown key `respnse` "
                             "(did you mean `response`?)") for line in first)
    assert any(line.strip() == "^" for line in first)


def test_json_output_has_the_documented_shape():
    result = ludex("validate", "--json", "--as", "cards", "--game", "sword_of_rome",
                   str(INVALID / "yaml_bool_no.yaml"))
    assert result.returncode == 1
    payload = json.loads(result.stdout)
    assert set(payload) == {"errors", "error_count", "warning_count", "files_checked"}
    assert payload["files_checked"] == 1 and payload["error_count"] >= 1
    assert {"file", "line", "col", "code", "message"} <= set(payload["errors"][0])
    assert ("yaml/ambiguous-bool", 6, 15) in [
        (e["code"], e["line"], e["col"]) for e in payload["errors"]]


@pytest.mark.parametrize("args", [
    ["validate", "no/such/path.yaml"],
    ["validate", "--game", "chess", "x.yaml"],
    ["validate", "--as", "spreadsheet", "x.yaml"],
])
def test_usage_errors_exit_2_with_one_line_and_no_traceback(args, tmp_path: Path):
    (tmp_path / "x.yaml").write_text("a: 1\n")
    result = ludex(*args, cwd=tmp_path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("payload", [
    b"\x00\x01\x02binary", b"- - - [", b"{" * 5000, b"&a [*a]", b"cards: !!binary AAAA",
    "карты: [".encode(), b"\xff\xfe\x00",
])
def test_garbage_content_never_produces_a_traceback(payload: bytes, tmp_path: Path):
    target = tmp_path / "garbage.yaml"
    target.write_bytes(payload)
    result = ludex("validate", "--as", "cards", "--game", "sword_of_rome", str(target))
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr + result.stdout


@pytest.mark.parametrize("command", ["validate", "check"])
def test_errors_only_lists_the_errors_and_counts_the_warnings_it_hides(command, tmp_path):
    import shutil

    game = tmp_path / "tiny"
    shutil.copytree(Path(__file__).parent / "games" / "tiny", game)
    (game / "locale" / "de.yaml").write_text("lang: de\n", encoding="utf-8")  # all missing
    procedures = game / "procedures.yaml"
    procedures.write_text(procedures.read_text(encoding="utf-8").replace(
        "gain(", "gian(", 1), encoding="utf-8")
    full = ludex(command, str(game))
    assert "warning[" in full.stdout and "error[effect/unknown-function]" in full.stdout
    quiet = ludex(command, str(game), "--errors-only")
    assert quiet.returncode == full.returncode == 1
    assert "warning[" not in quiet.stdout
    assert [line for line in quiet.stdout.splitlines() if "error[" in line] == \
        [line for line in full.stdout.splitlines() if "error[" in line]
    if command == "validate":
        assert "(not shown: --errors-only)" in quiet.stderr


def test_errors_come_before_the_warnings_of_the_same_run(tmp_path):
    """A primary message broken by an edit made its translations stale: the `stale`
    warning of `de.yaml` was printed before the real error in `en.yaml` (a designer's trial).
    A run lists its errors first, then its warnings, each in file order; `check` too."""
    import shutil

    from ludex.folders import games_dir

    game = tmp_path / "imperium"
    shutil.copytree(games_dir() / "imperium", game)
    locale = game / "locale" / "en.yaml"
    text = locale.read_text(encoding="utf-8")
    broken = "{a1, plural, one {# card} other {# cards}}."
    assert broken in text
    locale.write_text(text.replace(broken, "{a1, plural, one {# card} other {# cards}.", 1),
                      encoding="utf-8")
    shown = [line for line in ludex("validate", str(game)).stdout.splitlines()
             if ": error[" in line or ": warning[" in line]
    assert [line.split(": ")[1] for line in shown] == [
        "error[locale/bad-message]", "warning[scenario/unchecked]",
        "warning[locale/stale-translation]", "warning[locale/stale-translation]"]
    assert shown[0].startswith(str(locale))
    found = json.loads(ludex("validate", str(game), "--json").stdout)["errors"]
    assert [d["severity"] for d in found] == ["error", "warning", "warning", "warning"]
    checked = ludex("check", str(game)).stdout.splitlines()
    assert ": error[locale/bad-message]" in next(line for line in checked if "[" in line)
