"""A scenario's starting state reads as a game in progress: cards it lays in a power's zone
belong to that power, as they would after a deal."""

from __future__ import annotations

from pathlib import Path

from ludex.scenario import run_scenario

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "fair_weather"


def scenario(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "case.yaml"
    path.write_text(f"game: {EXAMPLE}\nname: ownership\nrules: [FW-3-c]\n{body}", encoding="utf-8")
    return path


def test_a_card_laid_in_a_players_hand_belongs_to_that_player_whoever_was_dealt_it(tmp_path):
    # the standard set-up deals every card; whoever got wind_1 there, north holds it now, so
    # its omen asks north
    path = scenario(tmp_path, """\
state:
  zones:
    hand: {north: [wind_1], east: [], south: [], west: []}
run: {effect: "play_event(wind_1)"}
expect:
  - "owner_of(wind_1) == north"
  - {who: north}
""")
    result = run_scenario(path)
    assert result.passed, result.report()


def test_a_card_laid_in_a_shared_zone_belongs_to_nobody(tmp_path):
    path = scenario(tmp_path, """\
state:
  zones:
    deck: [wind_1]
run: {effect: "pass"}
expect:
  - "not (owner_of(wind_1) in powers())"
""")
    result = run_scenario(path)
    assert result.passed, result.report()


def test_a_wrong_winner_is_shown_with_the_scores_and_how_the_game_ended(tmp_path):
    """A designer's scenario expected one winner at 50-48: "expected winner azul, actual
    verde" said nothing of the scores behind it."""
    import shutil

    source = EXAMPLE.parent.parent / "games" / "imperium" / "scenarios" / "IMP-COLLAPSE-b-tie.yaml"
    path = tmp_path / "case.yaml"
    shutil.copy(source, path)
    path.write_text(path.read_text().replace("{winner: persians}", "{winner: celts}"))
    result = run_scenario(path)
    assert not result.passed
    assert "expected winner celts, actual persians (scores celts " in result.report()
    assert "; ended: " in result.report()
