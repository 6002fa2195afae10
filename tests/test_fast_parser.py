"""The hand-written effect parser (fast_parser.py) gives exactly Lark's tree — nodes and
positions — or leaves the text to Lark: on every effect of the games, every language case and
the edge cases below. (tests/fuzz/programs.py holds generated programs to the same.) And the
tree walks the checks and the compiler share (static_checks.walk, bound_names) visit what a
walk over every field visits, in the same order."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest
import yaml

from ludex import ast, fast_parser, gamedef, loading, parser
from ludex.errors import LudexError
from ludex.folders import discover
from ludex.parser import Origin
from ludex.static_checks import bound_names, walk

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["games/sword_of_rome", "games/imperium", "tests/games/tiny", "tests/games/wagers",
         "examples/fair_weather"]


def by_both(text: str, origin: Origin | None = None, expression: bool = False):
    """(the hand-written parser's tree or None, Lark's tree or the LudexError it raised)."""
    origin = origin or Origin("t.yaml", 3, 7)
    source = parser._strip_comments(text)
    source = source if source.endswith("\n") else source + "\n"
    fast = fast_parser.parse(source, origin, expression)
    try:
        lark = parser.parse(text, origin, expression=expression, fast=False)
    except LudexError as exc:
        lark = exc
    return fast, lark


def effects_of_the_games() -> list[tuple[str, Origin | None, bool]]:
    """Every text the games' loading parses, with its origin (cache off: all are parsed)."""
    seen = []
    real = gamedef.parse_once

    def spy(trees, text, origin, *, expression=False):
        seen.append((text, origin, expression))
        return real(trees, text, origin, expression=expression)

    gamedef.parse_once = spy
    previous = os.environ.get("LUDEX_NO_CACHE")
    os.environ["LUDEX_NO_CACHE"] = "1"
    try:
        loading.forget()
        for game in GAMES:
            loading.check(discover(ROOT / game))
    finally:
        gamedef.parse_once = real
        loading.forget()
        if previous is None:
            del os.environ["LUDEX_NO_CACHE"]
        else:
            os.environ["LUDEX_NO_CACHE"] = previous
    return seen


def test_every_effect_of_the_games_parses_to_larks_tree_without_falling_back():
    texts = effects_of_the_games()
    assert len(texts) > 200
    for text, origin, expression in texts:
        fast, lark = by_both(text, origin, expression)
        assert fast is not None, text  # the common case stays fast
        assert fast == lark, text


def language_cases() -> list[tuple[str, bool]]:
    cases = []
    for path in sorted((ROOT / "tests" / "language").glob("*.yaml")):
        for case in yaml.safe_load(path.read_text(encoding="utf-8"))["cases"]:
            if "effect" in case:
                cases.append((case["effect"], False))
            if "value" in case:
                cases.append((case["value"], True))
    return cases


@pytest.mark.parametrize(("text", "expression"), language_cases(),
                         ids=lambda v: str(v)[:40])
def test_every_language_case_parses_to_larks_tree_or_is_left_to_lark(text, expression):
    fast, lark = by_both(text, expression=expression)
    if isinstance(lark, LudexError):
        assert fast is None
    else:
        assert fast is None or fast == lark


@pytest.mark.parametrize("text", [
    "(a + b) * c\n",                       # a parenthesised first operand starts the node
    "((x)).y[(1)]\n",
    "-(-3) - -x\n",
    "a if b else c if d else e\n",
    "not not a and b or c in [1, 2] and d != e\n",
    "a not in b and not c not in [d + 1, e]\n",   # `not in`: not (a in b)
    "[x for x in xs where x.kind not in ys]\n",
    "[x * 2 for x in xs where x > 1 and x in ys]\n",
    "[]\n",
    'f(g(h()), [1, "two", none, true, false])\n',
    "x\n\n",
])
def test_expressions_parse_to_larks_tree(text):
    fast, lark = by_both(text, expression=True)
    assert fast is not None
    assert fast == lark


@pytest.mark.parametrize("text", [
    "\n\n  \nlet x = 1\n",                  # leading blank lines: the program starts at 1:1
    "let x = 1  # a comment\n# another\ngain(x, me, 1)\n",
    "if a:\n    if b:\n        f()\n    else:\n        g()\nelif c:\n    pass\nelse:\n    h()\n",
    "for s in spaces() where s.walled:\n    repeat 2:\n        place(cu, 1, s, me)\nlog(\"x\")\n",
    'choose c from hand(me) up to 2 by active prompt "pick"\nrequire c != none else "no"\n',
    "choose c from xs exactly n + 1\n",
    "f(a,\n  b,\n      c)\n",                   # line breaks inside brackets
    "pass\r\nf()\r\n",
    "",
])
def test_statements_parse_to_larks_tree(text):
    fast, lark = by_both(text)
    assert fast is not None
    assert fast == lark


@pytest.mark.parametrize(("text", "expression"), [
    ("let by = 1\nf(by)\n", False),        # a keyword as a name: Lark's contextual lexer
    ("x.from\n", True),
    ("1 < 2 < 3\n", True),                 # comparisons do not chain
    ("a +\n", True),
    ("if a:\nf()\n", False),               # a block not indented
    ("if a:\n    f()\n  g()\n", False),     # a dedent to no open block
    ("f()\n    g()\n", False),
    ("let x = 1234567890123456\n", False),  # a number too long: Lark reports it
    ("let x = " + "(" * 40 + "1" + ")" * 40 + "\n", False),
    ("let x = " + " + ".join(["1"] * 200) + "\n", False),
    ("f(\tx)\n", False),
    ("Let x = 1\n", False),
])
def test_what_it_is_not_sure_of_is_left_to_lark(text, expression):
    fast, lark = by_both(text, expression=expression)
    assert fast is None
    assert isinstance(lark, LudexError | ast.Node)


def test_a_keyword_used_as_a_name_still_parses_through_lark():
    tree = parser.parse("let by = 1\n", Origin("t.yaml", 1, 1))
    assert tree == ast.Program(1, 1, (ast.Let(1, 1, "by", ast.Literal(1, 10, 1)),))


def every_field(node) -> list[ast.Node]:
    """The walk without shortcuts: every field of every node, recursively, in field order."""
    found = []
    if isinstance(node, ast.Node):
        found.append(node)
        for field in dataclasses.fields(node):
            found += every_field(getattr(node, field.name))
    elif isinstance(node, tuple | list):
        for item in node:
            found += every_field(item)
    return found


def test_walk_and_bound_names_agree_with_a_walk_over_every_field():
    trees = [parser.parse(text, origin, expression=expression)
             for text, origin, expression in effects_of_the_games()]
    assert len(trees) > 200
    for tree in trees:
        nodes = every_field(tree)
        assert list(walk(tree)) == nodes
        assert bound_names(tree) == {n.name for n in nodes if isinstance(
            n, ast.Let | ast.Choose | ast.For | ast.Comprehension)}
