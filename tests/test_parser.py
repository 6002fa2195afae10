"""Syntax errors in effect text are diagnostics at their place in the YAML file; mistakes of
indentation are named as such, with the columns that would have been right."""

from __future__ import annotations

import pytest

from ludex.errors import LudexError
from ludex.parser import Origin, parse


def _error(text: str, origin: Origin | None = None):
    with pytest.raises(LudexError) as caught:
        parse(text, origin)
    (diagnostic,) = caught.value.diagnostics
    return diagnostic


def test_a_dedent_to_no_open_block_names_the_columns_of_the_open_blocks():
    d = _error("if x:\n    if y:\n        let a = 1\n      let b = 2\n")
    assert (d.code, d.line, d.col) == ("effect/indentation", 4, 7)
    assert "column 1, 5 or 9" in d.message


def test_indentation_columns_are_the_yaml_files_columns():
    # a `|` block whose text starts at line 10, column 7 of the file
    d = _error("if x:\n    let a = 1\n  let b = 2\n", Origin("f.yaml", 10, 7))
    assert (d.file, d.line, d.col) == ("f.yaml", 12, 9)
    assert "column 7 or 11" in d.message


def test_a_block_body_not_indented_under_its_colon_is_an_indentation_error():
    d = _error("if x:\n    let a = 1\nelse:\nlet b = 2\n")
    assert (d.code, d.line, d.col) == ("effect/indentation", 4, 1)
    assert "right of column 1" in d.message


def test_a_line_deeper_than_its_block_is_an_indentation_error():
    d = _error("let a = 1\n    let b = 2\n")
    assert (d.code, d.line, d.col) == ("effect/indentation", 2, 5)


def test_a_first_line_left_of_all_the_lines_below_it_is_the_line_blamed():
    """Reported by a designer: a `|` block's first line one space short makes YAML read every
    line below as indented under it, and the error blamed the second line."""
    text = "move_all(a, b)\n for p in x:\n     pass\n shuffle(b)\n"
    d = _error(text, Origin("f.yaml", 10, 6))
    assert (d.code, d.line, d.col) == ("effect/indentation", 10, 6)
    assert "starts at column 6, left of the lines below it (column 7)" in d.message
    # lines below that come back out, or a single one, leave the deeper line to blame
    for text in ("let a = 1\n  let b = 2\n  let c = 3\nlet d = 4\n", "let a = 1\n  let b = 2\n"):
        d = _error(text, Origin("f.yaml", 10, 6))
        assert (d.code, d.line, d.col) == ("effect/indentation", 11, 8)


def test_a_tab_in_effect_text_is_a_syntax_error_at_the_tab():
    d = _error("let a = 1\n\tlet b = 2\n")
    assert (d.code, d.line, d.col) == ("effect/syntax", 2, 1)


def test_indentation_inside_brackets_is_free():
    parse("if x:\n    gain(\n  vp, me, 1)\n    let b = 2\n")


def test_an_effect_nested_too_deeply_is_a_diagnostic_at_the_line_past_the_limit():
    text = "".join("    " * i + "if x:\n" for i in range(400)) + "    " * 400 + "pass\n"
    d = _error(text, Origin("f.yaml", 5, 7))
    # an `if` takes two levels (the statement, its block): the 50th `if`'s block is the
    # 101st level, on the effect's line 50, i.e. the file's line 54
    assert (d.code, d.line, d.col) == ("effect/too-deep", 54, 7 + 49 * 4)


@pytest.mark.parametrize("text", [
    "let x = " + "-" * 400 + "1\n",
    "let x = " + " + ".join(["1"] * 1500) + "\n",
    "let x = " + " and ".join(["true"] * 1500) + "\n",
    "let x = " + "[" * 300 + "]" * 300 + "\n",
    "let x = " + "f(" * 300 + ")" * 300 + "\n",
    "".join("    " * i + "if true:\n" for i in range(200)) + "    " * 200 + "pass\n",
], ids=["400-unary-minus", "1500-term-sum", "1500-term-and", "300-nested-lists",
        "300-nested-calls", "200-nested-ifs"])
def test_deep_or_long_expressions_are_too_deep_not_a_recursion_error(text):
    assert _error(text).code == "effect/too-deep"


def test_a_thousand_nested_parentheses_add_no_depth():
    assert parse("let x = " + "(" * 1000 + "1" + ")" * 1000 + "\n")


@pytest.mark.parametrize(("text", "line", "col", "hint"), [
    ("if x = 1:\n    pass\n", 1, 6, "`==`"),
    ("x = 1\n", 1, 3, "`let x = …`"),
    ("let x == 1\n", 1, 8, "one `=`"),
    ("if x:\n    pass\nelse if y:\n    pass\n", 3, 6, "`elif`"),
    ("if x && y:\n    pass\n", 1, 6, "`and`"),
    ("require x || y\n", 1, 11, "`or`"),
    ("log('a')\n", 1, 5, "double quotes"),
    ('log("abc)\n', 1, 5, "ends on the line"),
    ("if x =! 1:\n    pass\n", 1, 6, "not equal is written `!=`"),
    ("require counter(a) > 7.5\n", 1, 24, "numbers are whole numbers: `7.5` has a fraction"),
], ids=["compare", "assign", "let-twice", "else-if", "and", "or", "quotes", "open-string",
        "not-equal", "fraction"])
def test_slips_from_other_languages_say_what_was_meant(text, line, col, hint):
    d = _error(text)
    assert (d.code, d.line, d.col) == ("effect/syntax", line, col)
    assert hint in d.message


def test_a_lookalike_letter_from_another_script_is_named_by_its_code_point():
    # a Cyrillic `а` in `cards(mаno, p)` looks like a Latin `a`: "unexpected character `а`"
    # left a designer staring at a letter that seemed right
    d = _error("let h = cards(m\u0430no, p)\n")
    assert (d.code, d.line, d.col) == ("effect/syntax", 1, 16)
    assert "U+0430 CYRILLIC SMALL LETTER A" in d.message
    assert "ASCII letters a–z" in d.message


def test_a_comment_glued_to_a_name_is_an_error_at_the_hash():
    # `red_wager#2.zone` would silently read `red_wager`, the rest being a comment
    d = _error('let a = 1\nlet z = red_wager#2.zone\n', Origin("f.yaml", 10, 7))
    assert (d.code, d.file, d.line, d.col) == ("effect/glued-comment", "f.yaml", 11, 24)
    assert "`red_wager`" in d.message


def test_a_hash_inside_a_string_or_after_a_space_is_no_glued_comment():
    parse('log("card#2") # a comment\nlet a = 1  #another\n')


def _errors(text: str) -> list[tuple[str, int, int]]:
    with pytest.raises(LudexError) as caught:
        parse(text)
    return [(d.code, d.line, d.col) for d in caught.value.diagnostics]


def test_every_statement_at_the_margin_after_a_syntax_error_is_read_for_its_own():
    text = "f(a b)\ng(c)\nif x:\n    h(e f)\nk(l m)\n"
    assert _errors(text) == [("effect/syntax", 1, 5), ("effect/syntax", 4, 9),
                             ("effect/syntax", 5, 5)]


def test_a_bracket_left_open_is_named_and_the_statements_after_it_are_still_read():
    with pytest.raises(LudexError) as caught:
        parse("set(a, b\nset(c, d)\nlet x = = 1\n")
    first, second = caught.value.diagnostics
    assert (first.line, first.col) == (2, 1)
    assert "the `(` at line 1, column 4 is not closed" in first.message
    assert (second.line, second.col) == (3, 9)


def test_lines_that_go_on_a_broken_statement_give_no_errors_of_their_own():
    # `3,` and `4]` continue the list whose first line is broken; `else:` continues an `if`
    assert _errors("let a = [1 2,\n3,\n4]\n") == [("effect/syntax", 1, 12)]
    assert _errors("if x y:\n    pass\nelse:\n    pass\n") == [("effect/syntax", 1, 6)]


def test_an_expression_reports_its_first_syntax_error_only():
    with pytest.raises(LudexError) as caught:
        parse("a b\nc d\n", expression=True)
    assert len(caught.value.diagnostics) == 1


def test_a_text_reports_at_most_ten_syntax_errors():
    assert len(_errors("f(a b)\n" * 30)) == 10


@pytest.mark.parametrize(("text", "places"), [
    # a bracket opened on the failing statement's first line holds the lines below it
    ("let x = [1,\n2 3,\nf(4)]\ng(5 6)\n", [(2, 3), (4, 5)]),
    # a line ending in `and` meant to go on: the next lines are its echo, not statements
    ('require a and\nb and\ncount(x) > 0 else "k"\nlet y = = 1\n', [(1, 14), (4, 9)]),
    # an error at the end of a line: the statement on the next line is read
    ("let x = 1 +\nlet y = = 2\n", [(1, 12), (2, 9)]),
    # the rest of the block an error stands in, the branches after it, the blocks around it
    ("if a:\n    f(a b)\n    g(c d)\nelif b:\n    i(1 2)\nelse:\n    h(e f)\nk(l m)\n",
     [(2, 9), (3, 9), (5, 9), (7, 9), (8, 5)]),
    ("for p in ps:\n    if a:\n        f(1 2)\n    let x = = 3\n    g(4)\nh(5 6)\n",
     [(3, 13), (4, 13), (6, 5)]),
    # a designer's: a bracket left open in a block, then the margin
    ('if w > 0:\n    place(t, w, s me)\n    log("r", me, w, s\nlog("r" me, w, s)\n',
     [(2, 19), (3, 21), (4, 9)]),
], ids=["bracket-above", "goes-on", "end-of-line", "branches", "blocks-around", "open-in-block"])
def test_statements_after_a_syntax_error_are_read_where_they_really_start(text, places):
    assert [place[1:] for place in _errors(text)] == places


def test_statements_folded_into_one_line_are_said_to_be_folded_and_one_line_slips_are_not():
    """An effect written with `>` has its lines joined by YAML: the error said only
    "unexpected `if`" (trial J). The hint is given where the text's line is several of the
    file's, and not for the same slip written on one line."""
    from ludex.errors import Collector
    from ludex.parser import origin_of
    from ludex.yamlio import load_bytes

    folded = b"procedures:\n  - id: p\n    effect: >\n      log(\"a\")\n      if a == 1:\n" \
             b"          pass\n"
    doc = load_bytes(folded, "f.yaml", Collector())
    path = ("procedures", 0, "effect")
    d = _error(doc.value(path), origin_of(doc, path, "f.yaml"))
    assert (d.code, d.line, d.col) == ("effect/syntax", 5, 7)
    assert "the text's lines were joined into one" in d.message
    d = _error('log("a") if a == 1:\n    pass\n')
    assert d.code == "effect/syntax" and "joined" not in d.message
    # a condition is one expression, which folding leaves as it means: a slip in one folded
    # over lines is not blamed on the folding (its `|` block would be the error)
    folded = b"triggers:\n  - id: t\n    when: >\n      counter(a) >= 8\n      or or b\n"
    doc = load_bytes(folded, "f.yaml", Collector())
    path = ("triggers", 0, "when")
    with pytest.raises(LudexError) as caught:
        parse(doc.value(path), origin_of(doc, path, "f.yaml"), expression=True)
    (d,) = caught.value.diagnostics
    assert (d.code, d.line) == ("effect/syntax", 5) and "joined" not in d.message
