"""CLDR plural categories (cardinal and ordinal) for any language Babel knows.

A language is a BCP 47 tag (`ru`, `pt-BR`, `zh-Hant`). A tag Babel does not know has no rules:
every number is `other` (CLDR's root rule), and validation warns about it.
"""

from __future__ import annotations

from decimal import Decimal
from functools import cache
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.plural import PluralRule

_ROOT = PluralRule({})  # no rule: every number is `other`


@cache
def cldr_locale(lang: str) -> Locale | None:
    """`lang` as CLDR (Babel) knows it, None when it does not: the one lookup plurals, list
    joining (templates.py) and numbers (number_format.py) share. A tag Babel cannot read whole
    (`en-x-pirate`, `de-CH-1996`, `de-u-co-phonebk`) counts as the language of its shorter
    prefixes."""
    subtags = lang.split("-") if isinstance(lang, str) else []
    for end in range(len(subtags), 0, -1):
        if len(subtags[end - 1]) == 1:
            continue  # an extension's or private use's singleton ends no prefix
        try:
            return Locale.parse("-".join(subtags[:end]), sep="-")
        except (UnknownLocaleError, ValueError, TypeError):
            continue
    return None


@cache
def _rules(lang: str) -> tuple[PluralRule, PluralRule] | None:
    locale = cldr_locale(lang)
    return None if locale is None else (locale.plural_form, locale.ordinal_form)


def known(lang: str) -> bool:
    """Whether CLDR (through Babel) has plural rules for `lang`."""
    return _rules(lang) is not None


def _is_number(n: Any) -> bool:
    return isinstance(n, int | float | Decimal) and not isinstance(n, bool)


def category(lang: str, n: Any) -> str:
    """Cardinal category of `n` in `lang`: zero, one, two, few, many or other."""
    rules = _rules(lang)
    if rules is None or not _is_number(n):
        return "other"
    return rules[0](abs(n))


def ordinal(lang: str, n: Any) -> str:
    """Ordinal category of `n` in `lang` (English 1st/2nd/3rd/4th: one/two/few/other)."""
    rules = _rules(lang)
    if rules is None or not _is_number(n):
        return "other"
    return rules[1](abs(n))


def categories(lang: str, kind: str = "plural") -> set[str]:
    """Every category `lang` distinguishes (always including `other`)."""
    rules = _rules(lang)
    rule = _ROOT if rules is None else rules[0 if kind == "plural" else 1]
    return set(rule.tags) | {"other"}



@cache
def first_number(lang: str, kind: str, name: str) -> int | None:
    """The smallest whole number from 2 on (up to ten million; else 0 or 1) in category
    `name`, to show what it is about: Polish `many` is 5, 6…, which tells more than its 0;
    Spanish `many` is 1000000, 2000000…; None when only fractions fall in it."""
    rules = _rules(lang)
    if rules is None:
        return None
    rule = rules[0 if kind == "plural" else 1]
    # every category's rule repeats within 1000 or starts at a power of ten: try those first
    candidates = [*range(2, 1000), *(10 ** e * m for e in range(3, 8) for m in range(1, 10)),
                  0, 1]
    return next((n for n in candidates if rule(n) == name), None)
