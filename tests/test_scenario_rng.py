"""A scenario's `state.rng` written wrong is said to be what it is: 16 hexadecimal digits in
quotes, as `ludex dump` writes it — not a bad name, not a number to write in decimal."""

from __future__ import annotations

import shutil
from pathlib import Path

SKIRMISH = Path(__file__).parent / "games" / "skirmish"


def scenario(tmp_path: Path, body: str) -> Path:
    game = tmp_path / "skirmish"
    if not game.exists():
        shutil.copytree(SKIRMISH, game)
    path = game / "scenarios" / "rng.yaml"
    path.write_text("game: ..\nname: rng\nrules: [SKR-CRT]\n" + body, encoding="utf-8")
    return path


def test_a_malformed_rng_is_said_to_be_sixteen_hexadecimal_digits_in_quotes(tmp_path):
    """"000000000000000g" and "3" were `schema/bad-name` "… start with a letter" (a valid rng
    need not), and an unquoted 0000000000000003 was told to be "written in decimal"."""
    from ludex.validate import validate_paths

    said = {}
    for written in ('"000000000000000g"', '"3"', "0000000000000003", "3", "1234567890123456"):
        path = scenario(tmp_path, f"state:\n  rng: {written}\nrun: {{phase: battle}}\n")
        [error] = [d for d in validate_paths([path]).diagnostics if d.is_error]
        assert (error.line, error.col) == (5, 8)
        said[written] = (error.code, error.message)
    assert said['"000000000000000g"'][0] == said['"3"'][0] == said["3"][0] \
        == "schema/bad-format"
    assert said["0000000000000003"][0] == "yaml/ambiguous-octal"
    for _code, message in said.values():
        assert "16 hexadecimal digits" in message and "in quotes" in message, message
        assert "start with a letter" not in message and "in decimal" not in message, message
    assert "`g` is not a hexadecimal digit" in said['"000000000000000g"'][1]
    assert 'rng: "0000000000000003"' in said["0000000000000003"][1]  # the fix, written out


def test_an_rng_in_capitals_is_said_to_want_lowercase_digits_not_told_a_is_no_digit():
    """`A` is a hexadecimal digit: "`A` is not a hexadecimal digit" would send a designer
    looking for a wrong character in a value that only wants lowercase."""
    from ludex.scenario_rng import rng_message

    said = rng_message("00FF00FF00FF00FF")
    assert "`F` is not a hexadecimal digit" not in said
    assert "lowercase" in said and 'rng: "00ff00ff00ff00ff"' in said  # the fix, written out
    assert "`x` is not a hexadecimal digit" in rng_message("0x0c3e51f2d47b86")


def test_an_unquoted_rng_yaml_would_read_as_a_number_is_an_error_never_another_generator(
        tmp_path):
    """All digits with a leading zero, digits around one `e` (a float to a YAML 1.2 reader):
    written unquoted, each is refused at its place with the quoted form to write, by `ludex
    validate` and by `ludex test` alike — the scenario never runs from another generator."""
    from ludex.scenario import run_scenario
    from ludex.validate import validate_paths

    for written in ("0000000012345678", "12345678e1234567", "0000000000001e10",
                    "00000000000001e1"):
        path = scenario(tmp_path, f"state:\n  rng: {written}\nrun: {{phase: battle}}\n")
        [error] = [d for d in validate_paths([path]).diagnostics if d.is_error]
        assert (error.line, error.col, error.code) == (5, 8, "yaml/ambiguous-number"), written
        assert f'rng: "{written}"' in error.message and "in quotes" in error.message
        assert run_scenario(path).status == "error", written
