"""plurals.py: CLDR categories through Babel for any tag, `other` for tags CLDR lacks."""

from ludex import plurals


def test_categories_come_from_cldr_for_any_language_babel_knows():
    assert plurals.categories("pl") == {"one", "few", "many", "other"}
    assert plurals.categories("pt-BR") >= {"one", "other"}
    assert plurals.categories("en", "selectordinal") == {"one", "two", "few", "other"}


def test_an_unknown_language_has_only_other():
    assert not plurals.known("xx")
    assert plurals.category("xx", 1) == "other"
    assert plurals.categories("xx") == {"other"}


def test_non_numbers_are_other():
    assert plurals.category("ru", "many") == "other"
    assert plurals.category("ru", True) == "other"
