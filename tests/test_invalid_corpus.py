"""Every file in tests/invalid/ is broken in one way and says, in its header, exactly which
diagnostics (code, line, column) validation must report for it — no more, no fewer. Its game
(`# as: KIND GAME`) is a bundled game's id, or a test game's path from here (`../games/tiny`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ludex.validate import validate_paths

CORPUS = Path(__file__).parent / "invalid"
EXPECT = re.compile(rb"^# expect: (\S+) (\d+):(\d+)$", re.MULTILINE)
AS = re.compile(rb"^# as: (\S+) (\S+)$", re.MULTILINE)
CASES = sorted(CORPUS.rglob("*.yaml"))


def test_corpus_has_at_least_forty_cases():
    assert len(CASES) >= 40


@pytest.mark.parametrize("path", CASES, ids=lambda p: str(p.relative_to(CORPUS)))
def test_invalid_file_reports_exactly_its_expected_diagnostics(path: Path):
    head = path.read_bytes()
    expected = sorted((c.decode(), int(line), int(col)) for c, line, col in EXPECT.findall(head))
    assert expected, f"{path} names no expected diagnostic"
    kind, game = (part.decode() for part in AS.search(head).groups())
    if game.startswith("../"):  # a test game, by its path from the corpus (`../games/tiny`)
        game = str(CORPUS / game)
    report = validate_paths([path], kind=kind, game=game)
    actual = sorted((d.code, d.line, d.col) for d in report.diagnostics)
    assert actual == expected, "\n".join(d.headline() for d in report.diagnostics)
