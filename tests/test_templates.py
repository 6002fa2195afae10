"""The message syntax (templates.py): arguments, name forms, CLDR plurals and ordinals, select;
and the errors a translator gets for a template that does not parse."""

from __future__ import annotations

import re

import pytest

from ludex.templates import TemplateError, arguments, parse, render

TABLE = {
    "camillus": {"name": "Камилл", "acc": "Камилла"},
    "romans": {"name": "Romans", "number": "plural"},
    "carthage": {"name": "Carthage"},
}


class Names:
    """Names with forms, as a locale gives them."""

    def name(self, value, form=None):
        entry = TABLE.get(value)
        return (entry.get(form) or entry["name"]) if entry else value

    def form(self, value, form):
        return (TABLE.get(value) or {}).get(form)


CARDS_RU = ("{n, plural, one {набрана # карта} few {набраны # карты} many {набрано # карт} "
            "other {набрано # карты}}")
CARDS_PL = "{n, plural, one {# karta} few {# karty} many {# kart} other {# karty}}"


@pytest.mark.parametrize("lang, template, n, expected", [
    ("ru", CARDS_RU, 1, "набрана 1 карта"),
    ("ru", CARDS_RU, 2, "набраны 2 карты"),
    ("ru", CARDS_RU, 5, "набрано 5 карт"),
    ("ru", CARDS_RU, 11, "набрано 11 карт"),
    ("ru", CARDS_RU, 21, "набрана 21 карта"),
    ("ru", CARDS_RU, 22, "набраны 22 карты"),
    ("pl", CARDS_PL, 1, "1 karta"),
    ("pl", CARDS_PL, 3, "3 karty"),
    ("pl", CARDS_PL, 5, "5 kart"),
    ("pl", CARDS_PL, 22, "22 karty"),
    ("pl", CARDS_PL, 12, "12 kart"),
    ("fr", "{n, plural, one {# carte} other {# cartes}}", 0, "0 carte"),
    ("fr", "{n, plural, one {# carte} other {# cartes}}", 2, "2 cartes"),
    ("en", "{n, plural, =0 {no card} one {# card} other {# cards}}", 0, "no card"),
    ("en", "{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}", 22, "22nd"),
    ("en", "{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}", 13, "13th"),
    ("zh-Hant", "{n, plural, other {# 張}}", 1, "1 張"),
    ("xx", "{n, plural, one {# one} other {# other}}", 1, "1 other"),
])
def test_plural_cases_follow_cldr_for_the_language(lang, template, n, expected):
    assert render(template, {"n": n}, lang, Names()) == expected


def test_a_name_form_is_chosen_by_the_message_and_falls_back_to_the_name():
    template = "{a0} активируют лидера {a1:acc}"
    assert render(template, {"a0": "romans", "a1": "camillus"}, "ru", Names()) \
        == "Romans активируют лидера Камилла"
    assert render("{a1:acc}", {"a1": "carthage"}, "ru", Names()) == "Carthage"


def test_select_on_a_form_gives_plural_powers_plural_verbs():
    template = "{a0} {a0:number, select, plural {draw} other {draws}} a card."
    assert render(template, {"a0": "romans"}, "en", Names()) == "Romans draw a card."
    assert render(template, {"a0": "carthage"}, "en", Names()) == "Carthage draws a card."


def test_hash_is_the_number_inside_a_nested_select():
    template = "{n, plural, one {{a0, select, x {# x} other {# y}}} other {#}}"
    assert render(template, {"n": 1, "a0": "x"}, "en", Names()) == "1 x"


def test_apostrophes_and_lists_are_plain_text():
    assert render("c'est {a0}", {"a0": ["romans", "carthage"]}, "fr", Names()) \
        == "c'est Romans, Carthage"


def test_a_list_is_separated_as_the_language_separates_one_unless_told():
    """Lists were joined by an English ", " in every language: CLDR's separator by default
    (Japanese 、), the one a locale gives (`list_separator`) when it is given."""
    assert render("{a0}", {"a0": ["romans", "carthage"]}, "ja", Names()) == "Romans、Carthage"
    assert render("{a0}", {"a0": [3, 5]}, "ar", Names(), separator="، ") == "3، 5"
    assert render("{a0}", {"a0": [3, 5]}, "x-klingon", Names()) == "3, 5"


def test_a_number_is_written_as_the_language_of_the_template_writes_it():
    from ludex.templates import Number

    template = "{n, plural, one {# point} other {# points}}"
    assert render(template, {"n": Number(2.5, 1)}, "pl", Names()) == "2,5 points"
    assert render(template, {"n": Number(1, 1, exact=True)}, "en", Names()) == "1.0 points"
    assert render("{r}", {"r": Number(-0.25, 0, percent=True, signed=True)}, "de", Names()) \
        == "−25%"


def test_arguments_lists_every_argument_nested_ones_included():
    assert arguments("{a0} {n, plural, one {{a1}} other {#}}") == {"a0", "n", "a1"}


@pytest.mark.parametrize("template", [
    "{a0",
    "a0}",
    "{a0, plural, one {# x}}",
    "{a0, plurl, other {x}}",
    "{a0, plural, one # x other {y}}",
    "{a 0}",
])
def test_a_broken_template_is_a_template_error(template):
    with pytest.raises(TemplateError):
        parse(template)


@pytest.mark.parametrize("template, words", [
    ("x {a1, plural, lots {a} other {c}}", "`lots` is not a plural category"),
    ("{a1, selectordinal, first {a} other {c}}", "`first` is not a selectordinal category"),
    ("{a1, plural, one {a} one {b} other {c}}", "case `one` is given twice"),
    ("{a1, select, red {a} red {b} other {c}}", "case `red` is given twice"),
])
def test_a_case_that_could_never_be_chosen_is_a_template_error(template, words):
    with pytest.raises(TemplateError, match=words):
        parse(template)


@pytest.mark.parametrize("levels", [21, 2000])
def test_cases_nested_past_the_bound_are_a_template_error_at_the_deepest_brace(levels):
    template = "{n, select, other {" * levels + "x" + "}}" * levels
    with pytest.raises(TemplateError, match="nested more than 20 deep") as refused:
        parse(template)
    assert refused.value.at == 20 * len("{n, select, other {")
    parse("{n, select, other {" * 20 + "x" + "}}" * 20)  # twenty levels are still read


def test_a_case_left_open_is_placed_at_the_case_after_it_not_at_the_plural():
    """`one {# kartę few {# karty} …}`: "unclosed `{`" at the plural's brace left a designer to
    find the case that lacked its `}`."""
    template = "{a0} odrzuca {a1, plural, one {# kartę few {# karty} other {# kart}} ponad"
    with pytest.raises(TemplateError, match="a `}` is missing before `few`") as refused:
        parse(template)
    assert refused.value.at == template.index("few")
    with pytest.raises(TemplateError, match=re.escape("unclosed `{`")) as refused:
        parse("{a0} and {a1")  # a plain slot left open is at its own brace
    assert refused.value.at == 9


def test_select_takes_any_case_name_and_plural_takes_exact_numbers():
    parse("{a0, select, red {r} other {o}}")
    parse("{n, plural, =0 {none} one {one} other {#}}")


def test_a_missing_argument_is_a_template_error():
    with pytest.raises(TemplateError):
        render("{a1}", {"a0": 1}, "en", Names())
