"""Numbers as a language writes them (CLDR, through Babel): `2.83` in English, `2,83` in French
and German; percentages likewise. A tag Babel does not know is written as English writes it.
Halves round up, as people round (10.65 is 10.7), not to the even digit (Babel's default)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, localcontext

from babel import Locale
from babel.numbers import format_decimal, format_percent

from .plurals import cldr_locale


def decimal(lang: str, value: float, digits: int = 2, exact: bool = False) -> str:
    """A number written as `lang` writes one (2.83, 2,83): at most `digits` decimals, or
    `exact`ly that many."""
    pattern = "0." + ("0" if exact else "#") * digits if digits else "0"
    with localcontext(rounding=ROUND_HALF_UP):
        return format_decimal(value, pattern, locale=_locale(lang))


def percent(lang: str, fraction: float, digits: int = 1) -> str:
    """`fraction` as a percentage written as `lang` writes one (CLDR, through Babel): 50.0%
    in English, 50,0% in French; as in English where CLDR does not know `lang`."""
    pattern = "0." + "0" * digits + "%" if digits else "0%"
    with localcontext(rounding=ROUND_HALF_UP):
        return format_percent(fraction, pattern, locale=_locale(lang))


def _locale(lang: str) -> Locale:
    """`lang` as CLDR knows it (a tag it cannot read whole, `de-CH-1996`, as its shorter
    prefixes: plurals.cldr_locale), else English (a tag Babel does not know is written as
    English writes it, halves rounded up all the same)."""
    return cldr_locale(lang) or Locale("en")
