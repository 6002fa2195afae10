"""The YAML loader: positions for values and keys, YAML 1.2 core typing, and refusal of every
construct whose meaning is unsafe or differs between YAML versions."""

from __future__ import annotations

import pytest

from ludex import yamlio
from ludex.errors import Collector


def load(text: str | bytes):
    errors = Collector()
    raw = text.encode() if isinstance(text, str) else text
    doc = yamlio.load_bytes(raw, "t.yaml", errors)
    return doc, [(d.code, d.line, d.col) for d in errors.sorted()]



def only_error(text: str, loader: str):
    """The one diagnostic reading `text` with `loader` gives."""
    errors = Collector()
    yamlio.load_bytes(text.encode(), "t.yaml", errors, loader=loader)
    [found] = errors.sorted()
    return found

def test_positions_are_recorded_for_values_and_keys():
    doc, errors = load("a:\n  b: [1, two]\n  c: {d: x}\n")
    assert errors == []
    assert doc.pos(("a", "b", 1)) == (2, 10)
    assert doc.key_pos(("a", "c")) == (3, 3)
    assert doc.pos(("a", "c", "d")) == (3, 10)


def test_missing_path_falls_back_to_nearest_ancestor():
    doc, _ = load("a:\n  b: 1\n")
    assert doc.pos(("a", "zzz")) == (2, 3)


@pytest.mark.parametrize(("text", "value"), [
    ("true", True), ("False", False), ("~", None), ("null", None), ("", None),
    ("12", 12), ("-3", -3), ("0x1F", 31), ("1.5", 1.5), ("1.0e+3", 1000.0),
    ("'no'", "no"), ('"0777"', "0777"), ("roma", "roma"), ("1.2.3", "1.2.3"),
])
def test_plain_scalars_follow_the_yaml_1_2_core_schema(text, value):
    doc, errors = load(f"v: {text}\n")
    assert errors == []
    assert doc.data["v"] == value


@pytest.mark.parametrize(("text", "code"), [
    ("no", "yaml/ambiguous-bool"), ("Yes", "yaml/ambiguous-bool"), ("off", "yaml/ambiguous-bool"),
    ("0777", "yaml/ambiguous-octal"), ("0o17", "yaml/ambiguous-octal"),
    ("1:30", "yaml/ambiguous-sexagesimal"), ("2001-12-14", "yaml/ambiguous-date"),
    ("1_000", "yaml/ambiguous-number"), ("0b101", "yaml/ambiguous-number"),
    ("1e3", "yaml/ambiguous-number"), ("2.5e3", "yaml/ambiguous-number"),
    ("-1E-2", "yaml/ambiguous-number"), (".5e3", "yaml/ambiguous-number"),
    ("08", "yaml/ambiguous-number"), ("-09", "yaml/ambiguous-number"),
    ("+0018", "yaml/ambiguous-number"), ("-07", "yaml/ambiguous-octal"),
])
def test_yaml_1_1_forms_that_editors_read_differently_are_refused(text, code):
    _, errors = load(f"v: {text}\n")
    assert errors == [(code, 1, 4)]


def test_every_duplicate_key_is_reported_at_the_repeat():
    _, errors = load("a: 1\nb: 2\na: 3\nb: 4\n")
    assert errors == [("yaml/duplicate-key", 3, 1), ("yaml/duplicate-key", 4, 1)]


def test_alias_bomb_is_refused_before_anything_is_built():
    levels = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 12):
        refs = ", ".join([f"*a{i - 1}"] * 10)
        levels.append(f"a{i}: &a{i} [{refs}]")
    _, errors = load("\n".join(levels) + "\n")
    assert [code for code, *_ in errors] == ["yaml/alias-bomb"]


def test_small_legitimate_aliases_are_expanded():
    doc, errors = load("base: &b {value: 1}\ncopy: *b\n")
    assert errors == []
    assert doc.data["copy"] == {"value": 1}


def test_recursive_alias_is_refused():
    _, errors = load("a: &a\n  - *a\n")
    assert [code for code, *_ in errors] == ["yaml/recursive-alias"]


def test_oversized_input_is_refused_without_parsing(monkeypatch):
    monkeypatch.setattr(yamlio, "MAX_FILE_BYTES", 100)
    _, errors = load("a: " + "x" * 200 + "\n")
    assert errors == [("yaml/file-too-large", 1, 1)]


def test_non_utf8_bytes_are_reported_at_their_line_and_column():
    _, errors = load(b"a: 1\nb: caf\xe9\n")
    assert errors == [("yaml/not-utf8", 2, 7)]


@pytest.mark.parametrize("encoding, said", [("utf-16", "UTF-16"), ("utf-16-be", "UTF-16"),
                                             ("utf-32", "UTF-32"), ("utf-32-be", "UTF-32")])
def test_a_utf16_or_utf32_file_is_told_its_encoding_and_to_save_it_as_utf8(encoding, said):
    raw = "a: 1\n".encode(encoding)
    if not encoding.endswith("-be"):  # Python's plain utf-16/32 write a little-endian BOM
        assert raw[:2] == b"\xff\xfe"
    else:
        raw = ("\ufeff" + "a: 1\n").encode(encoding)
    errors = Collector()
    assert yamlio.load_bytes(raw, "t.yaml", errors) is None
    [found] = errors.sorted()
    assert (found.code, found.line, found.col) == ("yaml/not-utf8", 1, 1)
    assert f"this file is {said}" in found.message and "save it as UTF-8" in found.message


def test_the_line_shown_under_a_utf16_files_error_is_its_text(tmp_path):
    path = tmp_path / "map.yaml"
    path.write_text("spaces: []\n", encoding="utf-16")
    assert yamlio.read_head(path) == "spaces: []\n"


def test_utf8_byte_order_mark_is_accepted():
    doc, errors = load(b"\xef\xbb\xbfa: 1\n")
    assert errors == [] and doc.data == {"a": 1}


def test_every_tab_in_indentation_is_reported():
    _, errors = load("a:\n\tb: 1\n\tc: 2\n")
    assert errors == [("yaml/tab-indent", 2, 1), ("yaml/tab-indent", 3, 1)]


def test_python_tags_are_never_constructed():
    _, errors = load("a: !!python/object/apply:os.system ['true']\n")
    assert [code for code, *_ in errors] == ["yaml/unsupported-tag"]


def test_syntax_error_points_at_the_problem():
    _, errors = load("a: [1, 2\nb: 3\n")
    assert errors[0][0] == "yaml/syntax"
    assert errors[0][1] == 2


@pytest.mark.parametrize("text, line, col, hint", [
    ("cards:\n  - id: gaukler\n     kosten: 1\n", 3, 12, "indented further than the keys"),
    ("cards:\n  - id: gaukler\n    text: Turn: {a0}\n", 3, 15, "must be put in quotes"),
    # a whole `[]` on a line indented too far is not what YAML stumbled on (a designer's
    # trial was told to quote it)
    ("run: {phase: deal}\n  expect: []\n", 2, 3, "indented further than the keys"),
    ("run:\n  phase: deal\n   expect: []\n", 3, 10, "indented further than the keys"),
    ("messages:\n  played: {a0} plays\n", 2, 16, "put the whole text in quotes"),
])
def test_a_colon_yaml_cannot_take_is_explained_by_its_likely_cause(text, line, col, hint):
    errors = Collector()
    yamlio.load_bytes(text.encode(), "t.yaml", errors)
    [found] = errors.sorted()
    assert (found.code, found.line, found.col) == ("yaml/syntax", line, col)
    assert hint in found.message


@pytest.mark.parametrize("loader", sorted(yamlio.LOADERS))
@pytest.mark.parametrize("text, line, hint", [
    # reported by a designer: a line of a card's event set left of the event's text was
    # blamed on the line below it (`- id: b`), with no word of why
    ('cards:\n  - id: a\n    event: |\n      log("x", me)\n    log("y", me)\n  - id: b\n', 5,
     "a line of a `|` or `>` text must be indented at least as far as the text's first line"),
    ("a: 1\noops\nb: 2\n", 2, "it has no `:`"),
])
def test_a_line_read_as_a_key_without_a_colon_is_blamed_and_explained(text, line, hint,
                                                                        loader):
    found = only_error(text, loader)
    assert (found.code, found.line) == ("yaml/syntax", line)
    assert hint in found.message


@pytest.mark.parametrize("loader", sorted(yamlio.LOADERS))
@pytest.mark.parametrize("text, line, col", [
    # reported by a designer: a key three spaces in under `  - id:` got the bare "did not
    # find expected '-' indicator"
    ("actions:\n  - id: a\n    free: true\n   window: turn\n", 4, 4),
    ("actions:\n  - id: a\n   window: turn\n", 3, 4),
])
def test_a_key_left_of_its_items_keys_is_explained(text, line, col, loader):
    found = only_error(text, loader)
    assert (found.code, found.line, found.col) == ("yaml/syntax", line, col)
    assert ("this key starts left of the keys above it, at column 5, and right of their list "
            "item's `-`: line it up with them") in found.message


@pytest.mark.parametrize("loader", sorted(yamlio.LOADERS))
def test_a_line_set_left_of_its_block_text_is_explained(loader):
    """An effect line indented one space short of the text's others ended the `|` text: the
    bare "did not find expected key" said nothing of it (a designer's trial)."""
    text = ("actions:\n  - id: buy\n    window: w\n    effect: |\n      require x\n"
            "     pay(coins, me, card.cost)\n      gain(a, b)\n")
    found = only_error(text, loader)
    assert (found.code, found.line, found.col) == ("yaml/syntax", 6, 6)
    assert "set left of the lines of the `|` or `>` text above it" in found.message


@pytest.mark.parametrize("loader", sorted(yamlio.LOADERS))
@pytest.mark.parametrize("text, line, item", [
    # reported by two designers: `pass: false` dedented to the column of the item's `-` got
    # only "did not find expected '-' indicator"
    ("phases:\n  - id: turn\n    window: w\n  pass: false\n", 4, 2),
    ("phases:\n  - id: a\n  - id: b\n    effect: |\n      pass\n\n  pass: false\n", 7, 3),
])
def test_a_key_at_the_column_of_its_items_dash_is_explained(text, line, item, loader):
    found = only_error(text, loader)
    assert (found.code, found.line, found.col) == ("yaml/syntax", line, 3)
    assert (f"this key is at the column of the `-` of the list item on line {item}: a key of "
            "that item lines up with its first key, at column 5") in found.message


@pytest.mark.parametrize("loader", sorted(yamlio.LOADERS))
@pytest.mark.parametrize("text, line, col, column", [
    # reported by a designer: after an effect block, the bare "did not find expected '-'
    # indicator" said nothing of the one space too many
    ("phases:\n  - id: a\n    effect: |\n      pass\n   - id: b\n", 5, 4, 3),
    ("- a\n- b: 1\n - c\n", 3, 2, 1),
])
def test_a_list_item_indented_further_than_the_items_above_is_explained(text, line, col,
                                                                          column, loader):
    found = only_error(text, loader)
    assert (found.code, found.line, found.col) == ("yaml/syntax", line, col)
    assert (f"this list item's `-` is further in than the `-` of the items above it, at "
            f"column {column}: line it up with theirs") in found.message


def test_block_scalar_text_maps_line_for_line_to_the_file():
    doc, errors = load("effect: |\n    gain 1 vp\n    pass\n")
    assert errors == []
    assert doc.text_origin(("effect",)) == (2, 5)


def test_quoted_scalar_text_starts_after_the_quote():
    doc, _ = load('cond: "x > 1"\n')
    assert doc.text_origin(("cond",)) == (1, 8)


def test_integer_keys_become_strings_and_boolean_keys_are_refused():
    doc, errors = load('5: a\ntrue: b\n')
    assert doc.data == {"5": "a"}
    assert errors == [("yaml/non-string-key", 2, 1)]


def test_a_pipe_named_yaml_is_refused_without_blocking(tmp_path):
    import os

    from ludex.errors import Collector
    from ludex.yamlio import load_file

    pipe = tmp_path / "cards.yaml"
    os.mkfifo(pipe)
    errors = Collector()
    assert load_file(pipe, errors) is None
    assert [d.code for d in errors.sorted()] == ["io/not-a-file"]


def test_a_yaml_link_to_an_endless_device_is_refused(tmp_path):
    from ludex.errors import Collector
    from ludex.yamlio import load_file

    link = tmp_path / "cards.yaml"
    link.symlink_to("/dev/zero")
    errors = Collector()
    assert load_file(link, errors) is None
    assert [d.code for d in errors.sorted()] == ["io/not-a-file"]


def test_integers_past_the_content_range_are_refused_before_conversion():
    _, errors = load("a: " + "9" * 5000 + "\nb: 1000000000000000\nc: -1000000000000001\n")
    assert errors == [("yaml/number-too-large", 1, 4), ("yaml/number-too-large", 3, 4)]


def test_nesting_past_the_limit_is_one_error_not_a_crash():
    # 500 levels: libyaml reads it, and building it once ran out of Python stack
    _, errors = load("a: " + "[" * 500 + "]" * 500 + "\n")
    assert [code for code, *_ in errors] == ["yaml/too-deep"]


@pytest.mark.parametrize("loader", sorted(yamlio.LOADERS))
def test_an_unclosed_bracket_hundreds_deep_after_a_key_is_one_error_not_a_crash(loader):
    # libyaml reported it, then the hint's second reading recursed past Python's limit
    errors = Collector()
    yamlio.load_bytes(("a: " + "[" * 500 + " x: y: z\n").encode(), "t.yaml", errors,
                      loader=loader)
    assert [d.code for d in errors.sorted()] in (["yaml/syntax"], ["yaml/too-deep"])


def test_nesting_past_libyamls_own_limit_is_too_deep_not_a_crash():
    _, errors = load("id: c\ncards: " + "[" * 1000 + "]" * 1000 + "\n")
    assert [(code, line) for code, line, _ in errors] == [("yaml/too-deep", 2)]


def test_a_long_source_line_is_shown_around_the_caret():
    from ludex.errors import Diagnostic

    line = "x" * 300 + "HERE" + "y" * 300
    shown = Diagnostic("f.yaml", 1, 301, "c/d", "m").render([line]).splitlines()
    assert "HERE" in shown[1] and len(shown[1]) < 120
    assert shown[2].index("^") == shown[1].index("HERE")


@pytest.mark.parametrize(("text", "line", "col"), [
    ("a: 1\nb: x\x00y\n", 2, 5), ("a: 1\n\x1b: 2\n", 2, 1), ("a: \u00e9\u00e9 \x07\n", 1, 7),
    ("a: 1\r\nb: \x7f\r\n", 2, 4),
])
def test_a_control_character_is_reported_at_its_own_line_and_column(text, line, col):
    _, errors = load(text)
    assert errors == [("yaml/control-character", line, col)]


def test_every_line_with_a_control_character_is_reported():
    _, errors = load("a: \x01\nb: 2\nc: \x02\x03\n")
    assert errors == [("yaml/control-character", 1, 4), ("yaml/control-character", 3, 4)]


def _every_content_file() -> list:
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    folders = [*root.glob("games/*"), *root.glob("examples/*"), *root.glob("tests/games/*")]
    files = [p for folder in folders for p in sorted(folder.rglob("*.yaml"))]
    return [*files, *sorted((root / "tests" / "invalid").rglob("*.yaml"))]


@pytest.mark.skipif("libyaml" not in yamlio.LOADERS, reason="PyYAML built without libyaml")
@pytest.mark.parametrize("path", _every_content_file(), ids=lambda p: "/".join(p.parts[-3:]))
def test_libyaml_and_pure_python_composers_give_the_same_values_and_positions(path):
    """The pure-Python composer stands in where libyaml is absent: every file of the games and
    the corpus loads to the same data, positions, block styles and diagnostics with both."""
    raw = path.read_bytes()
    loaded = {}
    for loader in ("libyaml", "python"):
        errors = Collector()
        doc = yamlio.load_bytes(raw, "t.yaml", errors, loader=loader)
        shown = None if doc is None else (doc.data, doc.positions, doc.key_positions,
                                          doc.block_scalars)
        loaded[loader] = (shown, [(d.code, d.line, d.col) for d in errors.sorted()])
    assert loaded["libyaml"] == loaded["python"]


@pytest.mark.parametrize("text", [
    "0", "7", "10", "08", "-09", "999999999999999", "1000000000000000", "07", "-3", "+4",
    "1_000", "1e3", "0x1F", "1:30", "2001-12-14", "yes", "No", "null", "~", "True", "<<",
    "roma", "_x", "é", "٣", "1.5", ".inf", "-.nan",
])
def test_values_read_in_the_mapping_loop_match_the_general_rule(text):
    """The builder reads a mapping's plain names and small numbers in its loop; anything else
    goes through the general rule. As a value in a mapping, as a list item (the general rule
    only) and as a key, each gives the same value and the same diagnostics."""
    in_mapping, mapping_errors = load(f"k: {text}\n")
    in_list, list_errors = load(f"- {text}\n")
    assert mapping_errors == [(code, 1, 4) for code, _, _ in list_errors]
    assert in_mapping.data["k"] == in_list.data[0] or text.endswith("nan")
    assert in_mapping.pos(("k",)) == (1, 4)
    _, key_errors = load(f"{text}: 1\n")
    shown = [code for code, _, _ in key_errors]
    assert shown == [] or shown[0].startswith("yaml/")
