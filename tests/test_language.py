"""Data-driven effect-language cases (tests/language/*.yaml) run against the tiny test game:
given the game's set-up, run an effect or evaluate an expression, then check the result or the
error code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from ludex.compiler import CompileError, Compiler
from ludex.content import load_game
from ludex.engine import Game
from ludex.errors import Collector, LudexError
from ludex.folders import discover
from ludex.gamedef import build_definition
from ludex.parser import parse
from ludex.runtime import Context
from ludex.schemas import Validators
from ludex.state import deal_cards, new_state, place_start, run_atomic

HERE = Path(__file__).parent
# Python's vocabulary, which must not reach a designer: "unsupported operand type(s) for +:
# 'int' and 'str'" is said as "`+` cannot combine a number and a text" (plain_words.py)
PYTHON_WORDS = re.compile(r"'(int|str|float|list|dict|tuple|NoneType)'|operand|instances of|"
                          r"object is not|subscriptable|NoneType")
CASE_FILES = sorted((HERE / "language").glob("*.yaml"))
CASES = [(path.stem, case) for path in CASE_FILES
         for case in yaml.safe_load(path.read_text(encoding="utf-8"))["cases"]]


@pytest.fixture(scope="module", params=[True, False], ids=["fast-paths", "general-paths"])
def tiny(request):
    """The tiny game compiled with the fused shapes of fastpaths.py and without: every case
    must give the same result both ways."""
    errors = Collector()
    files = discover(HERE / "games" / "tiny")
    game = load_game(files, errors, Validators())
    definition = build_definition(game, errors, fast_paths=request.param)
    assert not errors, errors.sorted()
    start = {s["id"]: s.get("start") or {} for s in game.data("map")["spaces"]}
    return definition, start


def fresh_state(tiny):
    definition, start = tiny
    state = new_state(definition, seed=7)
    place_start(definition, state, start)
    deal_cards(definition, state)
    return state


def compile_text(definition, text: str, expression: bool):
    compiler = Compiler(definition, "<case>", "case")
    tree = parse(text, expression=expression)
    return (compiler.expression(tree) if expression else compiler.program(tree))


def evaluate(definition, state, text: str):
    run, size = compile_text(definition, text, expression=True)
    return run(Context(definition, state), [None] * size)


def same(value, expected) -> bool:
    """Equal and of the same types throughout: `3.0` is not the `3` a player should read."""
    if value.__class__ is not expected.__class__:
        return False
    if isinstance(value, list):
        return len(value) == len(expected) and all(map(same, value, expected))
    if isinstance(value, dict):
        return value.keys() == expected.keys() and all(same(value[k], expected[k])
                                                       for k in value)
    return value == expected


def test_language_cases_exist():
    assert len(CASES) >= 30


@pytest.mark.parametrize(("source", "case"), CASES, ids=[c["name"] for _, c in CASES])
def test_language_case(tiny, source, case):
    definition, _ = tiny
    state = fresh_state(tiny)
    try:
        if "value" in case:
            result = evaluate(definition, state, case["value"])
            assert same(result, case["equals"]), (result, case["equals"])
            return
        run, size = compile_text(definition, case["effect"], expression=False)
        game = Game(definition, tiny[1], seed=7, autostart=False)  # the engine's triggers too
        game.run("case", lambda ctx: run(ctx, [None] * size), me="red")
        for answer in case.get("answers") or []:
            game.apply(answer)
        state = game.view
    except (CompileError, LudexError) as exc:
        code = exc.diagnostics[0].code
        assert code == case.get("error"), exc
        assert not PYTHON_WORDS.search(exc.diagnostics[0].message), exc  # said in our words
        if "reason" in case:  # a broken `require`'s message: its key and its arguments
            assert (exc.text, exc.reason_args) == (case["reason"], case.get("reason_args", {}))
        return
    assert "error" not in case, f"expected error {case['error']}, but the effect ran"
    assert case.get("expect") or {"log", "winner", "ended", "asked"} & set(case), \
        "the case checks nothing"
    if "asked" in case:  # the question the effect stops at (after its answers)
        pending = game.pending
        asked = {"who": pending.who, "prompt": pending.prompt, "args": pending.prompt_args}
        assert same(asked, case["asked"]), asked
    for condition in case.get("expect", []):
        assert evaluate(definition, state, condition), condition
    if "log" in case:
        assert same(state["log"][-1], case["log"]), state["log"][-1]
    if "ended" in case:
        assert game.is_terminal() and state["ended"] == case["ended"]
        assert same(state.get("ended_args", {}), case.get("ended_args", {}))
    if "winner" in case:
        wanted = case["winner"]
        assert game.is_terminal() and (sorted(game.winners()) == sorted(wanted)
                                       if isinstance(wanted, list) else
                                       game.winner() == wanted)


def test_a_failed_action_leaves_the_state_exactly_as_it_was(tiny):
    definition, _ = tiny
    state = fresh_state(tiny)
    before = yaml.safe_dump(state)
    run, size = compile_text(definition, "gain(score, red, 5)\nrequire false", False)
    with pytest.raises(LudexError):
        run_atomic(definition, state, lambda ctx: run(ctx, [None] * size))
    assert yaml.safe_dump(state) == before


def test_same_seed_gives_the_same_shuffles_and_dice(tiny):
    definition, _ = tiny
    rolls = []
    for _ in range(2):
        state = fresh_state(tiny)
        rolls.append((state["zones"]["deck"]["red"], evaluate(definition, state, "roll(5)")))
    assert rolls[0] == rolls[1]


def test_a_builtin_called_with_too_few_arguments_is_shown_its_signature(tiny):
    definition, _ = tiny
    with pytest.raises(CompileError) as raised:
        compile_text(definition, "draw(3, deck, hand)", expression=False)
    (found,) = raised.value.diagnostics
    assert (found.code, found.line, found.col) == ("effect/arity", 1, 1)
    assert "`draw(count, zone, zone, power)`" in found.message
    assert "pass `none` for it" in found.message  # the power a shared zone's draw leaves out
    with pytest.raises(CompileError) as raised:
        compile_text(definition, "place(soldier, 1, a)", expression=False)
    assert "`place(" in raised.value.diagnostics[0].message
    assert "none" not in raised.value.diagnostics[0].message


def test_a_choose_whose_prompt_shows_its_own_answer_is_told_why_it_cannot(tiny):
    """"unknown name `what`" on the line that declares `what` (a designer's re-trial)."""
    definition, _ = tiny
    with pytest.raises(CompileError) as raised:
        compile_text(definition, 'choose what from spaces() by red prompt ("pick_space", what)',
                     expression=False)
    (found,) = raised.value.diagnostics
    assert (found.code, found.line, found.col) == ("effect/unknown-name", 1, 56)
    assert "answer to this very `choose`" in found.message


def test_a_local_read_before_the_line_that_sets_it_is_told_where_it_is_set(tiny):
    """A designer moved `let k = roll(1)[0]` into the `if` that reads `k`: "unknown name `k`"
    (and a warning that it "may have no value") left them to find the line."""
    definition, _ = tiny
    with pytest.raises(CompileError) as raised:
        compile_text(definition, "if k > 3:\n    let k = roll(1)[0]\n    gain(score, red, k)\n",
                     expression=False)
    (found,) = raised.value.diagnostics
    assert (found.code, found.line, found.col) == ("effect/unknown-name", 1, 4)
    assert "set only later, at line 2" in found.message


@pytest.mark.parametrize(("text", "said"), [
    ("[1, 2, 3][5]", "no item at index 5 of a list of 3 items"),
    ("[x for x in [1] where x > 1][0]", "no item at index 0 of an empty list"),
])
def test_an_index_with_no_item_says_which_index_of_how_many_items(tiny, text, said):
    # "no item at that index" left a designer to guess that the list was empty
    with pytest.raises(LudexError) as raised:
        evaluate(tiny[0], fresh_state(tiny), text)
    found = raised.value.diagnostics[0]
    assert found.code == "effect/bad-index" and f"cannot index: {said}" in found.message
