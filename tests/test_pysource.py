"""Expressions written out as Python source (pysource.py): they give what the closures give —
values, errors at their places, steps — take the common path in play, and fall back to the
closures, with the step count put back, for the closures' error wherever they break."""

from __future__ import annotations

import pytest
from tests.test_fast_paths import evaluate, tiny_definition

from ludex import pysource
from ludex.agents import agents_by_power, play, seat_agents
from ludex.compiler import CompileError, Compiler
from ludex.engine import Game, load_definition
from ludex.errors import LudexError
from ludex.parser import parse
from ludex.runtime import Context
from ludex.state import deal_cards, new_state, place_start


def outcome(text: str, fast: bool):
    try:
        value, ctx = evaluate(*tiny_definition(fast), text)
        return "value", value, ctx.steps
    except LudexError as exc:
        d = exc.diagnostics[0]
        return "error", d.code, d.line, d.col, d.message


@pytest.mark.parametrize("text", [
    "[s for s in spaces() where s.control == red or s.walled]",
    "count([s for s in spaces() where s.control != none and open_wall(s)])",
    "[[s, pieces(soldier, red, s) + 1] for s in spaces() where pieces(soldier, red, s) > 0]",
    "[s for s in spaces() where s.level > 0]",
    "[s for s in spaces() where s.control < 3]",  # a text with a number: a type error
    "sum([counter(score, p) * 2 for p in powers()]) - 1",
    "[s for s in spaces() where s in [a, d]][1]",
    "[s for s in spaces()][7]",  # out of range: bad-index at its place
    "pieces(soldier, \"nobody\", a)",  # an argument of the wrong kind: checked
    "open_wall_or_home(b, b) and not open_wall(a)",
    # builtins read in place, and their other cases left to the builtin
    "[pieces(soldier, p, s) for p in powers() for s in spaces()]",
    "pieces(soldier, none, a) + pieces(soldier, red, none) + pieces(hero, red, a)",
    "[counter(score, p) + counter(gold, p) for p in powers()]",
    "counter(pot) + counter(pot, red)",  # one value for the game: the power is not needed
    "counter(score, none)",  # a per-power counter with no power: the builtin's error
    # + and - keep whole numbers in place; anything else as limits.compute has it
    "[1 + 2, 5 - 7, true + 1, \"a\" + \"b\", [1] + [2], 0.5 + 1]",
    "999999999999999 + 1",  # past the bounds: an error at its place
    "[1073741823 + 1, 0 - 1073741824 - 1, 999999999999999 - 1]",  # past one digit, in bounds
    "[x + 999999999999990 for x in [1, 9, 11]]",  # a local read again: the last past bounds
    "[x - 1 for x in [1, 0.5, true]]",  # neither a whole number: through compute
    "\"a\" + 1",  # Python refuses: the closures say it
    "[r.gold + 1 for r in rows(income) where r.power == blue]",  # an index, in a comprehension
])
def test_written_out_source_gives_what_the_closures_give(text):
    assert outcome(text, fast=True) == outcome(text, fast=False)


def test_an_expression_that_only_looks_is_written_out_and_one_that_rolls_is_not():
    definition, _ = tiny_definition(fast_paths=True)

    def compiled(text):
        return Compiler(definition, "<t>", "t").expression(parse(text, expression=True))[0]
    assert "_fallback" in compiled("[s for s in spaces() where s.walled]").__globals__
    assert "_fallback" not in getattr(compiled("roll(1) > 0"), "__globals__", {})


def test_an_expression_that_breaks_runs_again_through_the_closures_for_its_error():
    before = sum(pysource.FALLBACKS.values())
    fast, general = (outcome("[s for s in spaces() where s.control < 3]", fast)
                     for fast in (True, False))
    assert fast == general and fast[:2] == ("error", "effect/type-error")
    assert sum(pysource.FALLBACKS.values()) == before + 1


@pytest.mark.parametrize("game_id, players, seeds", [("imperium", 3, 3), ("sword_of_rome", 5, 2)])
def test_written_out_expressions_take_the_common_path_in_whole_games(game_id, players, seeds):
    definition, start = load_definition(game_id)
    pysource.FALLBACKS.clear()
    for seed in range(seeds):
        game = Game(definition, start, players=players, seed=seed)
        play(game, agents_by_power(game, seat_agents(["random"], players, seed)))
    assert not pysource.FALLBACKS, pysource.FALLBACKS.most_common(5)


def test_an_index_of_a_literal_is_a_rule_error_with_no_python_warning(recwarn):
    assert outcome("true[0] == 1", fast=True) == outcome("true[0] == 1", fast=False)
    assert outcome("true[0] == 1", fast=True)[:2] == ("error", "effect/bad-index")
    assert not [w for w in recwarn if issubclass(w.category, SyntaxWarning)]


@pytest.mark.parametrize("text", [
    # the loop's item is read only from the Python local: written to the frame once, at the end
    "let n = 0\nfor p in powers():\n    let n = n + counter(score, p)\nlet last = p",
    # an index of a table by a loop's item, the item read after the loop
    "let t = 0\nfor p in powers():\n    for r in rows(income) where r.power == p:\n"
    "        let t = t + r.gold\nlet last = [p, r]",
    # a comprehension in the body reads the item from the frame: written at every turn
    "let seen = []\nfor p in powers():\n    let seen = seen + [[q for q in powers() where q == p]]",
    # the item rebound in the body: the frame keeps the rebinding
    "for p in powers():\n    let p = 7\nlet after = p",
    "for s in spaces() where s.walled:\n    let w = s\nlet none_left = [x for x in [] where x]",
    # locals kept in Python locals and stored at the end, one bound before the loop
    "let n = 1\nlet m = 0\nfor p in powers():\n    if counter(score, p) >= 0:\n"
    "        let m = m + n\n        let n = n + 1",
    # a text that reads like a frame slot stays the text it is
    "let t = \"f[0]\"\nfor p in powers():\n    let t = t + \"f[1] = \" + p",
])
def test_written_out_statements_leave_the_frame_and_steps_the_closures_leave(text):
    def run(fast: bool):
        definition, start = tiny_definition(fast)
        state = new_state(definition, seed=1)
        place_start(definition, state, start)
        body, size = Compiler(definition, "<test>", "test").program(parse(text))
        ctx, frame = Context(definition, state), [None] * size
        body(ctx, frame)
        return frame, ctx.steps
    before = sum(pysource.FALLBACKS.values())
    assert run(fast=True) == run(fast=False)
    assert sum(pysource.FALLBACKS.values()) == before  # the source's own path, no fallback


def run_program(text: str, fast: bool):
    """A program run on the tiny game's start, as `("done", frame, steps, counters, piles)` or
    `("error", code, line, col, message)`."""
    definition, start = tiny_definition(fast)
    state = new_state(definition, seed=1)
    place_start(definition, state, start)
    body, size = Compiler(definition, "<test>", "test").program(parse(text))
    ctx, frame = Context(definition, state), [None] * size
    try:
        body(ctx, frame)
    except LudexError as exc:
        d = exc.diagnostics[0]
        return "error", d.code, d.line, d.col, d.message
    return "done", frame, ctx.steps, ctx.state["counters"], ctx.state["zones"]


@pytest.mark.parametrize(("text", "falls_back"), [
    ("let p = red\ngain(score, p, 2 + counter(gold, p))", False),
    ("for p in powers():\n    gain(gold, p, count(cards(deck, p)))", False),
    ("let c = cards(deck, red)[0]\nmove_card(c, discard, red)\nput_tokens(c, \"gold\", 2)",
     False),
    ("let x = 5\nmove_card(x, discard, red)", True),  # not a card: the closures' error
    ("let p = \"nobody\"\ngain(score, p, 1)", True),  # not a power, checked at its place
    ("let c = cards(deck, red)[0]\nput_tokens(c, \"gold\", 0 - 1)", False),  # the verb's error
    ("let n = \"two\"\ngain(score, red, n)", True),  # a text for a number
    # verbs one after another, one function: constants called at once, the verb's own error
    ("gain(score, red, 1)\nmove_all(deck, discard, red)\ndraw(2, discard, hand, red)", False),
    ("gain(score, red, 1)\nremove(soldier, 9, a, red)\ngain(score, red, 2)", False),
])
def test_a_verb_called_from_source_does_what_the_closures_do(text, falls_back):
    before = sum(pysource.FALLBACKS.values())
    assert run_program(text, fast=True) == run_program(text, fast=False)
    assert (sum(pysource.FALLBACKS.values()) > before) is falls_back


def test_a_verb_with_arguments_known_in_play_is_written_out_and_one_with_constants_is_not():
    definition, _ = tiny_definition(fast_paths=True)

    def compiled(text):
        return Compiler(definition, "<t>", "t").program(parse(text))[0]
    assert "_fallback" in compiled("gain(score, me, 1)").__globals__
    assert "_fallback" not in getattr(compiled("gain(score, red, 1)"), "__globals__", {})


def test_a_verb_whose_arguments_fall_back_in_a_run_of_verbs_runs_alone_through_its_closures():
    """The middle call reads an attribute its card leaves out (none, by the general reader):
    that call runs through its closures, the one before it is not run again, the one after it
    runs from the source."""
    text = "let c = red_one\ngain(score, red, 1)\nlog(\"seen\", c.condition)\ngain(score, red, 2)"

    def run(fast: bool):
        definition, start = tiny_definition(fast)
        state = new_state(definition, seed=1)
        place_start(definition, state, start)
        deal_cards(definition, state)
        body, size = Compiler(definition, "<test>", "test").program(parse(text))
        ctx = Context(definition, state)
        body(ctx, [None] * size)
        return ctx.state["counters"]["score"], ctx.state["log"], ctx.steps
    before = sum(pysource.FALLBACKS.values())
    fast = run(fast=True)
    assert sum(pysource.FALLBACKS.values()) == before + 1
    assert fast == run(fast=False) and fast[0]["red"] == 3


def test_every_mistake_in_a_run_of_verbs_is_reported_as_the_closures_report_it():
    def diagnostics(fast: bool):
        definition, _ = tiny_definition(fast)
        text = "gain(score, nobody, 1)\ngain(gold, red, 1)\ngain(gems, somebody, 1)"
        with pytest.raises(CompileError) as caught:
            Compiler(definition, "<t>", "t").program(parse(text))
        return [(d.line, d.code) for d in caught.value.diagnostics]
    assert diagnostics(fast=True) == diagnostics(fast=False) == [
        (1, "effect/unknown-name"), (3, "effect/unknown-name")]


def test_verbs_called_one_after_another_are_written_out_as_one_function():
    definition, _ = tiny_definition(fast_paths=True)
    run = Compiler(definition, "<t>", "t").program(
        parse("gain(score, red, 1)\nshuffle(deck, red)\ngain(gold, me, 1)"))[0]
    assert "_fallback" in run.__globals__  # one function, not a block of closures


@pytest.mark.parametrize("warm_up", [1, 3, pysource.PLAY_WARM_UP_CALLS])
def test_written_out_source_is_compiled_by_python_after_its_warm_up_calls(monkeypatch, warm_up):
    """Loading compiles nothing, the first `WARM_UP_CALLS` calls run the closures, the next
    compiles the source once, and every call gives the same value (a scenario's effects
    mostly run a few times: compiling them cost `ludex check` more than it saved)."""
    monkeypatch.setattr(pysource, "WARM_UP_CALLS", warm_up)  # as in play (the suite sets 0)
    definition, start = tiny_definition(fast_paths=True)
    text = "[s for s in spaces() where s.walled]"
    run = Compiler(definition, "<t>", "t").expression(parse(text, expression=True))[0]
    assert run.__code__ is pysource._first_call.__code__
    compiles = []
    monkeypatch.setattr(pysource, "compile", lambda *a: compiles.append(a) or compile(*a),
                        raising=False)
    state = new_state(definition, seed=1)
    place_start(definition, state, start)
    values = []
    for _ in range(warm_up + 2):
        values.append(run(Context(definition, state), [None] * 4))
        if len(values) <= warm_up:
            assert not compiles  # the closures ran it
    assert values == [["a", "d"]] * (warm_up + 2)
    assert len(compiles) == 1 and run.__code__ not in (pysource._first_call.__code__,
                                                       pysource._second_call.__code__)


def test_source_python_cannot_compile_runs_through_the_closures(monkeypatch):
    def refuse(*args):
        raise RecursionError("too deep for Python's parser")
    monkeypatch.setattr(pysource, "compile", refuse, raising=False)
    definition, start = tiny_definition(fast_paths=True)
    text = "count([s for s in spaces() where s.walled])"
    run = Compiler(definition, "<t>", "t").expression(parse(text, expression=True))[0]
    state = new_state(definition, seed=1)
    place_start(definition, state, start)
    assert [run(Context(definition, state), [None] * 4) for _ in range(3)] == [2, 2, 2]
    assert run.__code__ is pysource._closures_only.__code__
