"""Mutated content never crashes the checker (a brief, deterministic run; `make fuzz` runs the
same at length)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.fuzz.content_mutations import crashes

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("folder", ["tests/games/tiny", "games/imperium", "games/sword_of_rome"])
def test_a_value_of_the_wrong_shape_anywhere_gives_diagnostics_not_a_crash(folder):
    assert crashes(ROOT / folder, 150, seed=1) == {}


def test_a_broken_attribute_declaration_is_reported_once_in_the_manifest(tmp_path):
    import shutil

    from ludex.validate import validate_paths

    game = tmp_path / "tiny"
    shutil.copytree(ROOT / "tests" / "games" / "tiny", game)
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text().replace(
        "value: {type: integer, enum: [1, 2, 3],", 'value: {type: bogus, minimum: "one",'))
    report = validate_paths([game])
    assert [(d.file.endswith("game.yaml"), d.code) for d in report.diagnostics
            if d.code != "scenario/unchecked"] == [
        (True, "schema/not-allowed"), (True, "schema/wrong-type")]
