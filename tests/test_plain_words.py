"""Run-time errors are said in the effect language's words: Python's texts for the usual
mistakes are translated, and anything else falls back to a plain phrase."""

from __future__ import annotations

import pytest

from ludex.plain_words import missing_item, plain


def _raised(fn) -> Exception:
    with pytest.raises(Exception) as caught:
        fn()
    return caught.value


@pytest.mark.parametrize(("fn", "said"), [
    (lambda: 1 + "a", "`+` cannot combine a number and a text"),
    (lambda: None + 1, "`+` cannot combine none and a number"),
    (lambda: 1 < "a", "cannot compare a number with a text using `<`"),
    (lambda: -"a", "cannot use `-` on a text"),
    (lambda: sum(3), "a number is not a list"),
    (lambda: 1 / 0, "division by zero"),
    (lambda: [1][5], "no item at that index"),
], ids=["add", "none", "compare", "negate", "iterate", "divide", "index"])
def test_pythons_error_texts_become_the_languages_words(fn, said):
    assert plain(_raised(fn)) == said


def test_an_error_text_not_known_falls_back_to_a_plain_phrase():
    assert plain(ValueError("math domain error")) == "a value of the wrong kind"


@pytest.mark.parametrize(("items", "index", "said"), [
    ([], 0, "no item at index 0 of an empty list"),
    (["a"], 1, "no item at index 1 of a list of 1 item"),
    ("abc", -4, "no item at index -4 of a text of 3 characters"),
])
def test_a_missing_item_names_the_index_and_how_many_items_there_are(items, index, said):
    assert missing_item(items, index) == said
