"""Messages with arguments — a question's prompt (`prompt ("key", a)`), a `require`'s reason
(`else ("key", a)`) and an end reason (`end_game("key", a)`) — as players meet them: filled
in their language as a log line is, at the terminal, at the table, in `play --json`, in an
observation; carried by the pending question, the refusal and the end; kept through saves
and dumps; checked by scenarios (`question_args`, `reason_args`, `ended_args`)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from ludex.cli import cli
from ludex.engine import Game, load_definition, replay
from ludex.errors import LudexError
from ludex.observation import observe
from ludex.runtime import Illegal
from ludex.scenario import game_at_step, run_scenario
from ludex.table.session import Table, TableError
from ludex.table.view import table_view
from ludex.terminal import Human

ROOT = Path(__file__).resolve().parent.parent
FAIR_WEATHER = ROOT / "examples" / "fair_weather"
# its omen asks north, forecasting 2, whether to revise the forecast (its second question)
OMEN = FAIR_WEATHER / "scenarios" / "FW-3-c-revised.yaml"

CLAIM = """\
  - id: claim
    window: main
    effect: |
      choose picked from spaces() up to 2 by me prompt ("claim_up_to", me, 2)
      require count(picked) <= 1 else ("claimed_too_many", me, count(picked))
      for s in picked:
          set_marker(s, control, me)
"""
ENDS_IN_TURN_TWO = """\
    effect: |
      if turn == 2:
          end_game("over_in_turn", turn, blue)
"""
MESSAGES = """\
  claim_up_to: "{a0}, claim up to {a1} spaces"
  claimed_too_many: "{a0} may not claim {a1} spaces"
  over_in_turn: "time ran out in turn {a0}, {a1} last"
"""
GERMAN = """\
lang: de
powers: {red: {name: Rot, dat: dem Roten}, blue: {name: Blau, nom: der Blaue}}
messages:
  claim_up_to: "Bis zu {a1} Felder für {a0:dat}"
  claimed_too_many: "{a1} Felder sind zu viele für {a0:dat}"
  over_in_turn: "die Zeit lief in Zug {a0} ab, {a1:nom} als Letzter"
"""


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.fixture()
def claims(tmp_path: Path) -> Path:
    """The tiny game with an action that asks with a prompt of arguments and refuses with a
    reason of arguments, a game that ends in turn 2 with a reason of arguments, and German."""
    folder = shutil.copytree(ROOT / "tests" / "games" / "tiny", tmp_path / "tiny")
    procedures = folder / "procedures.yaml"
    edit(procedures, "actions:\n", "actions:\n" + CLAIM)
    edit(procedures, "  - id: income\n    effect: |\n",
         "  - id: income\n" + ENDS_IN_TURN_TWO)
    locale = folder / "locale" / "en.yaml"
    edit(locale, "messages:\n", "messages:\n" + MESSAGES)
    edit(locale, "buy_gem: Buy a gem}", "buy_gem: Buy a gem, claim: Claim}")
    (folder / "locale" / "de.yaml").write_text(GERMAN, encoding="utf-8")
    return folder


def at_claim(folder: Path) -> Game:
    """The claims game at red's question of the spaces to claim."""
    definition, start = load_definition(folder)
    game = Game(definition, start, seed=1)
    game.apply("claim")
    assert game.pending.prompt == "claim_up_to"
    return game


def omen() -> Game:
    game = game_at_step(OMEN, 1)
    assert game.pending.prompt == "revise_forecast"
    return game


def test_the_pending_question_carries_its_prompts_arguments(claims):
    game = at_claim(claims)
    assert game.pending.prompt_args == {"a0": "red", "a1": 2}
    assert game.pending.as_dict()["prompt_args"] == {"a0": "red", "a1": 2}


def test_the_terminal_asks_with_the_prompt_filled_in_the_players_language():
    game = omen()
    shown = []
    french = game.definition.localizer("fr")
    Human(ask=lambda _: "1", show=shown.append, localizer=french)(game)
    assert "Nord — Un présage : garder votre prévision de 2 plis, ou la changer d’un ?" in shown
    shown.clear()
    Human(ask=lambda _: "1", show=shown.append, localizer=game.definition.localizer())(game)
    assert "North — An omen: keep your forecast of 2 tricks, or move it by one?" in shown


def test_the_terminal_gives_a_name_of_the_prompt_the_form_its_text_asks(claims):
    game, shown = at_claim(claims), []
    german = game.definition.localizer("de")
    Human(ask=lambda _: "", show=shown.append, localizer=german)(game)
    assert "Rot — Bis zu 2 Felder für dem Roten:" in shown


def test_the_table_shows_the_question_filled_in_the_pages_language():
    game = omen()
    for lang, said in [("fr", "Un présage : garder votre prévision de 2 plis"),
                       ("en", "An omen: keep your forecast of 2 tricks")]:
        view = table_view(game, game.definition.localizer(lang), None, game.legal_actions())
        assert view["question"]["prompt"].startswith(said)


def test_an_observation_carries_the_prompts_arguments():
    assert observe(omen(), "north")["pending"]["prompt_args"] == {"a0": 2}


def test_a_refusal_carries_its_reasons_arguments_and_names_them(claims):
    game = at_claim(claims)
    with pytest.raises(Illegal) as refused:
        game.apply(["a", "b"])
    assert (refused.value.text, refused.value.reason_args) == (
        "claimed_too_many", {"a0": "red", "a1": 2})
    assert "claimed_too_many (a0=red, a1=2)" in refused.value.diagnostics[0].message
    assert game.pending.prompt == "claim_up_to"  # refused: the question is asked again


def test_the_terminal_tells_a_refusals_reason_filled_in_the_players_language(claims):
    game = at_claim(claims)
    with pytest.raises(Illegal) as refused:
        game.apply(["a", "b"])
    shown = []
    Human(show=shown.append, localizer=game.definition.localizer("de")).refuse(
        game, ["a", "b"], refused.value)
    assert any("2 Felder sind zu viele für dem Roten" in line for line in shown), shown


def test_the_table_tells_a_refusals_reason_filled_in_the_pages_language(claims, tmp_path):
    definition, start = load_definition(claims)
    at = Table(claims, definition, start, tmp_path / "saves")
    at.answer(0, [at.legal().index("claim")], 0)
    with pytest.raises(TableError) as refused:
        at.answer(0, [0, 1], len(at.game.history))
    assert str(refused.value) == "Red may not claim 2 spaces"  # the primary language's
    said = definition.localizer("de").message(refused.value.key, refused.value.values)
    assert said == "2 Felder sind zu viele für dem Roten"
    assert at.game.pending.prompt == "claim_up_to"


def first_legal_to_the_end(game: Game) -> Game:
    while not game.is_terminal():
        game.apply(game.legal_actions()[0])
    return game


def test_the_game_ends_with_its_reasons_arguments(claims):
    definition, start = load_definition(claims)
    game = first_legal_to_the_end(Game(definition, start, seed=1))
    assert (game.state["ended"], game.state["ended_args"]) == (
        "over_in_turn", {"a0": 2, "a1": "blue"})
    assert observe(game, None)["ended_args"] == {"a0": 2, "a1": "blue"}


def test_the_end_line_fills_the_reason_in_the_players_language(claims):
    definition, start = load_definition(claims)
    game = first_legal_to_the_end(Game(definition, start, seed=1))
    for lang, said in [("en", "time ran out in turn 2, Blue last"),
                       ("de", "die Zeit lief in Zug 2 ab, der Blaue als Letzter")]:
        text = definition.localizer(lang)
        line = text.end_line(game.state["ended"], game.winners(), game.scores(),
                             game.leaders(), game.lost_together(), game.state["ended_args"])
        assert said in line
        view = table_view(game, text, None, [])
        assert said in view["ended"]


def test_play_json_carries_the_end_reasons_arguments_and_the_filled_end_line(claims):
    result = CliRunner().invoke(cli, ["play", str(claims), "--agents", "first", "--json",
                                      "--lang", "de"])
    assert result.exit_code == 0, result.output
    played = json.loads(result.stdout)
    assert (played["ended"], played["ended_args"]) == ("over_in_turn", {"a0": 2, "a1": "blue"})
    assert "die Zeit lief in Zug 2 ab, der Blaue als Letzter" in played["end_line"]


def test_a_saved_game_replays_to_the_same_question_with_the_same_arguments(claims):
    game = at_claim(claims)
    again = replay(game.definition, load_definition(claims)[1], game.save())
    assert (again.pending.prompt, again.pending.prompt_args) == (
        "claim_up_to", {"a0": "red", "a1": 2})


def test_a_dumped_game_asks_the_same_question_with_the_same_arguments(claims, tmp_path):
    from ludex.dump import dump_yaml, scenario_from
    from ludex.loading import scenario_file
    from ludex.scenario import _prepare, _start

    game = at_claim(claims)
    scenario = scenario_from(game, rules=["ANY"])
    scenario["game"] = str(claims)
    path = tmp_path / "dumped.yaml"
    path.write_text(dump_yaml(scenario, schema=None), encoding="utf-8")
    doc = scenario_file(path).doc
    dumped = _prepare(doc)
    _start(doc, dumped, doc.data["run"])
    for answer in doc.data.get("decisions") or []:
        dumped.apply(answer["choose"])
    assert (dumped.pending.prompt, dumped.pending.prompt_args) == (
        "claim_up_to", {"a0": "red", "a1": 2})


# -- scenarios ------------------------------------------------------------------------------
SCENARIO = """\
game: {folder}
name: red claims
rules: [TINY-END]
run: {{phase: play}}
decisions:
  - {{choose: claim}}
  - {{who: red, question: claim_up_to, question_args: {question_args}, choose: [a, b]}}
expect:
  - {{error: rules/illegal-action, reason: claimed_too_many, reason_args: {reason_args}}}
"""


def scenario(folder: Path, tmp_path: Path, **args) -> Path:
    path = tmp_path / "claims.yaml"
    given = {"question_args": "[red, 2]", "reason_args": "[red, 2]", **args}
    path.write_text(SCENARIO.format(folder=folder, **given), encoding="utf-8")
    return path


def test_a_scenario_checks_the_questions_and_the_reasons_arguments(claims, tmp_path):
    result = run_scenario(scenario(claims, tmp_path))
    assert result.passed, result.report()


@pytest.mark.parametrize("wrong, said", [
    ({"question_args": "[blue, 2]"}, 'expected the question\'s arguments ["blue", 2]'),
    ({"question_args": "[red, true]"}, 'expected the question\'s arguments ["red", true]'),
    ({"reason_args": "[red, 3]"}, 'with the arguments ["red", 3]'),
])
def test_a_scenario_expecting_other_arguments_fails_saying_which(claims, tmp_path, wrong,
                                                                 said):
    result = run_scenario(scenario(claims, tmp_path, **wrong))
    assert not result.passed and said in result.message, result.message
    assert "claimed_too_many" in result.message or "claim_up_to" in result.message


def test_a_scenario_shows_the_arguments_of_the_question_it_stopped_at(claims, tmp_path):
    path = tmp_path / "stops.yaml"
    path.write_text(f"game: {claims}\nname: stops\nrules: [TINY-END]\nrun: {{phase: play}}\n"
                    "decisions:\n  - {choose: claim}\n", encoding="utf-8")
    result = run_scenario(path)
    assert not result.passed
    assert 'red is asked `claim_up_to` (pick up to 2) with ["red", 2]' in result.message, \
        result.message


def test_a_scenario_checks_the_end_reasons_arguments(claims, tmp_path):
    path = tmp_path / "ends.yaml"
    for args, passed in [("[2, blue]", True), ("[2, red]", False)]:
        path.write_text(f"game: {claims}\nname: ends\nrules: [TINY-END]\nrun: {{turns: 2}}\n"
                        "decisions:\n  - {choose: pass}\n  - {choose: pass}\n"
                        "  - {choose: pass}\n  - {choose: pass}\n"
                        f"expect:\n  - {{ended: over_in_turn, ended_args: {args}}}\n",
                        encoding="utf-8")
        result = run_scenario(path)
        assert result.passed == passed, result.report()


def test_validation_accepts_the_scenario_fields_of_arguments(claims, tmp_path):
    from ludex.validate import validate_paths

    report = validate_paths([scenario(claims, tmp_path)])
    assert [d.headline() for d in report.diagnostics if d.is_error] == []


@pytest.mark.parametrize("wrong, field, said", [
    ({"question_args": "[red]"}, "question_args", "`claim_up_to` is filled with 2 values, not 1"),
    ({"reason_args": "[red, 2, 3]"}, "reason_args",
     "`claimed_too_many` is filled with 2 values, not 3"),
])
def test_validation_refuses_arguments_of_another_number_than_the_effects_pass(
        claims, tmp_path, wrong, field, said):
    from ludex.validate import validate_paths

    path = scenario(claims, tmp_path, **wrong)
    report = validate_paths([path])
    errors = [d for d in report.diagnostics if d.is_error]
    assert [d.code for d in errors] == ["scenario/argument-count"], errors
    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1) if field in text)
    assert errors[0].line == line and said in errors[0].message, errors[0].headline()


def test_a_reasons_arguments_that_break_are_a_rule_error_at_the_require(claims):
    """An argument is worked out as the rule is broken: one that cannot be (an index past the
    list's end) is an error at its place, as in any expression."""
    edit(claims / "procedures.yaml", 'else ("claimed_too_many", me, count(picked))',
         'else ("claimed_too_many", me, picked[5])')
    game = at_claim(claims)
    with pytest.raises(LudexError) as broken:
        game.apply(["a", "b"])
    lines = (claims / "procedures.yaml").read_text(encoding="utf-8").splitlines()
    line = next(n for n, text in enumerate(lines, 1) if "picked[5]" in text)
    place = (line, lines[line - 1].index("picked[5]") + 1)
    found = broken.value.diagnostics[0]
    assert (found.code, found.line, found.col) == ("effect/bad-index", *place)
