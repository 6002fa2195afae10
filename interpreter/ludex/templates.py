"""The message syntax of locales: parsing a template, checking it, and filling it in.

ICU-like, the convention translators know (docs/translations.md, "Messages"):

    {a0}                                   an argument; an id shows as its localised name
    {a0:acc}                               a grammatical form of a name (falls back to the name)
    {a0:Acc}, {a0:Name}                    that form, or the plain name, with a capital first
                                           letter (a line that starts with a name's article)
    {n, plural, one {# card} other {# cards}}       CLDR cardinal categories; `=N` cases first
    {n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}
    {a0:number, select, plural {draw} other {draws}}   chooses on a form's (or a value's) text

`#` inside a plural case is the number. Braces always delimit; there is no quoting, so
apostrophes are plain text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal, localcontext
from functools import cache
from typing import Any, Protocol

from . import plurals

KINDS = ("plural", "selectordinal", "select")
CATEGORIES = ("zero", "one", "two", "few", "many", "other")  # CLDR's, in every language
# cases within cases a message may nest: a translation needs three or four; a thousand ran the
# parser out of Python's stack (a RecursionError, not a diagnostic)
MAX_DEPTH = 20
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class TemplateError(ValueError):
    """A template that does not parse, or that names an argument it is not given; `at` is the
    index in the template of the brace that opens the faulty part, when known."""

    def __init__(self, message: str, at: int | None = None):
        super().__init__(message)
        self.at = at


@dataclass(frozen=True)
class Slot:
    arg: str
    form: str | None = None
    kind: str | None = None
    cases: dict[str, tuple] = field(default_factory=dict)
    at: int = field(default=0, compare=False)  # index of its opening brace in the template


HASH = object()  # `#` inside a plural case
PLAIN = "name"  # the key of a name's plain form in a locale's mapping: `{a0:Name}` asks it


def capital_form(form: str | None) -> tuple[str | None, bool]:
    """(the form a slot asks a name for, whether its first letter is made a capital): a form
    written with a capital first letter (`{a0:Def}`) asks for that form (`def`) capitalised,
    `{a0:Name}` for the plain name capitalised — so a line may start with a name's article
    ("Η Αυγή παίζει…") without a second form per name. Any other form is as written."""
    if not form or not form[0].isupper():
        return form, False
    base = form[0].lower() + form[1:]
    return (None if base == PLAIN else base), True


def capitalised(text: str, lang: str) -> str:
    """`text` with its first character a capital letter, as `lang` writes one (Turkish and
    Azerbaijani dotted `i` → `İ`); unchanged when it starts with no letter (a number)."""
    first = text[:1]
    if not first.isalpha():
        return text
    if first == "i" and lang.split("-")[0] in ("tr", "az"):
        return "İ" + text[1:]
    return first.upper() + text[1:]


class Text(str):
    """A run of a template's own words, as written, and the index in the template where it
    starts: what a check of the words themselves reads (locale_scripts.py), without the
    argument names and case names around them."""

    at: int

    def __new__(cls, text: str, at: int) -> Text:
        made = super().__new__(cls, text)
        made.at = at
        return made


class Names(Protocol):
    def name(self, value: Any, form: str | None = None) -> Any: ...  # to show, form or not
    def form(self, value: Any, form: str) -> str | None: ...  # as written, for `select`


@cache
def parse(template: str) -> tuple:
    """The template as a tuple of strings, `HASH` and `Slot`s; raises TemplateError."""
    nodes, end = _text(template, 0, in_plural=False, depth=0)
    if end != len(template):
        raise TemplateError("unmatched `}`", end)
    return nodes


def _text(s: str, i: int, in_plural: bool, depth: int) -> tuple[tuple, int]:
    nodes: list = []
    start = i
    while i < len(s) and s[i] != "}":
        char = s[i]
        if char == "{" or (char == "#" and in_plural):
            if i > start:
                nodes.append(Text(s[start:i], start))
            if char == "#":
                nodes.append(HASH)
                i += 1
            else:
                slot, i = _slot(s, i + 1, in_plural, depth)
                nodes.append(slot)
            start = i
        else:
            i += 1
    if i > start:
        nodes.append(Text(s[start:i], start))
    return tuple(nodes), i


def _slot(s: str, i: int, in_plural: bool, depth: int) -> tuple[Slot, int]:
    if depth >= MAX_DEPTH:
        raise TemplateError(f"cases nested more than {MAX_DEPTH} deep", i - 1)
    try:
        return _slot_at(s, i, in_plural, depth)
    except TemplateError as exc:
        if exc.at is None:
            exc.at = i - 1  # the slot's opening brace
        raise


def _slot_at(s: str, i: int, in_plural: bool, depth: int) -> tuple[Slot, int]:
    try:
        close = _find(s, i, "}")
    except TemplateError:
        # unclosed: a plural's cases, read on, may tell where (a case left open); a plain
        # slot has none, and is unclosed at its own brace
        close = len(s)
    comma = s.find(",", i, close)
    head = s[i:comma if comma >= 0 else close].strip()
    arg, _, form = head.partition(":")
    arg, form = arg.strip(), form.strip() or None
    if not _NAME.match(arg) or (form is not None and not _NAME.match(form)):
        left_open = _CASE_BEFORE.search(s, 0, i - 1) if in_plural else None
        if left_open is not None:  # `one {# card few {# cards}`: `few` is no text of `one`
            raise TemplateError(f"the case before `{left_open[1]}` is not closed: a `}}` is "
                                f"missing before `{left_open[1]}`", left_open.start(1))
        raise TemplateError(f"`{{{head}}}` is not an argument name"
                            if close < len(s) else "unclosed `{`")
    if comma < 0:
        if close == len(s):
            raise TemplateError("unclosed `{`")
        return Slot(arg, form, at=i - 1), close + 1
    kind_end = s.find(",", comma + 1)
    if kind_end < 0 or kind_end > s.find("{", comma + 1) >= 0:
        raise TemplateError(f"`{{{head}, …}}`: expected `plural`, `selectordinal` or `select` "
                            "followed by a comma and cases")
    kind = s[comma + 1:kind_end].strip()
    if kind not in KINDS:
        raise TemplateError(f"unknown format `{kind}` (one of {', '.join(KINDS)})")
    cases: dict[str, tuple] = {}
    j = kind_end + 1
    while True:
        while j < len(s) and s[j].isspace():
            j += 1
        if j >= len(s):
            raise TemplateError(f"unclosed `{{{arg}, {kind}, …`")
        if s[j] == "}":
            break
        brace = s.find("{", j)
        if brace < 0:
            raise TemplateError(f"case `{s[j:].strip()}` has no `{{…}}` text")
        key = s[j:brace].strip()
        if not key or not re.match(r"^(=\d+|[A-Za-z0-9_]+)$", key):
            raise TemplateError(f"`{key}` is not a case name")
        if kind != "select" and not key.startswith("=") and key not in CATEGORIES:
            raise TemplateError(f"`{key}` is not a {kind} category (zero, one, two, few, many, "
                                "other, or =N for one number)")
        if key in cases:  # the second would hide the first, or never be reached
            raise TemplateError(f"case `{key}` is given twice in `{{{arg}, {kind}, …}}`")
        body, k = _text(s, brace + 1, in_plural or kind != "select", depth + 1)
        if k >= len(s):
            raise TemplateError(f"unclosed case `{key}`")
        cases[key] = body
        j = k + 1
    if "other" not in cases:
        raise TemplateError(f"`{{{arg}, {kind}, …}}` has no `other` case")
    return Slot(arg, form, kind, cases, at=i - 1), j + 1


# a case name and its brace, just before a brace inside a case's text: the case before it
# was not closed (`one {# card few {# cards}`)
_CASE_BEFORE = re.compile(r"(?:^|\s)(zero|one|two|few|many|other|=\d+)\s*$")


def _find(s: str, i: int, char: str) -> int:
    depth = 0
    for k in range(i, len(s)):
        if s[k] == "{":
            depth += 1
        elif s[k] == "}":
            if depth == 0:
                return k
            depth -= 1
    raise TemplateError("unclosed `{`")


def slots(nodes: tuple):
    """Every slot of a parsed template, nested ones included."""
    for node in nodes:
        if isinstance(node, Slot):
            yield node
            for body in node.cases.values():
                yield from slots(body)


def texts(nodes: tuple):
    """Every run of words of a parsed template (`Text`), those inside cases included."""
    for node in nodes:
        if isinstance(node, Text):
            yield node
        elif isinstance(node, Slot):
            for body in node.cases.values():
                yield from texts(body)


def arguments(template: str) -> set[str]:
    return {slot.arg for slot in slots(parse(template))}


def argument_places(template: str) -> dict[str, int]:
    """Argument -> the index of the opening brace of its first slot in the template."""
    places: dict[str, int] = {}
    for slot in slots(parse(template)):
        places[slot.arg] = min(slot.at, places.get(slot.arg, slot.at))
    return places


def render(template: str, args: dict[str, Any], lang: str, names: Names,
           strict: bool = True, separator: str | None = None) -> str:
    """Fill `template` in language `lang`: the language of the template's own text, whose
    plural rules choose the cases, whose way of writing numbers writes `Number`s and whose way
    of joining lists joins list arguments (`separator` between plain lists' items, default
    CLDR's: list_separator). A missing argument raises TemplateError, or with `strict` False
    shows as its slot (`{a2}`): a line is never lost to a message that asks more than it was
    given (validate reports such a message; a save's old log may still meet one)."""
    filling = _Filling(args, lang, names, strict,
                       list_separator(lang) if separator is None else separator)
    return _render(parse(template), filling, None)


@dataclass(frozen=True)
class _Filling:
    args: dict
    lang: str
    names: Names
    strict: bool
    separator: str


def _render(nodes: tuple, filling: _Filling, number: Any) -> str:
    out = []
    for node in nodes:
        if isinstance(node, str):
            out.append(node)
        elif node is HASH:
            out.append(_written(number, filling.lang))
        else:
            out.append(_fill(node, filling, number))
    return "".join(out)


def _fill(slot: Slot, filling: _Filling, number: Any) -> str:
    args, lang, names = filling.args, filling.lang, filling.names
    if slot.arg not in args:
        if not filling.strict:
            return f"{{{slot.arg}}}"
        raise TemplateError(f"no argument `{slot.arg}`")
    value = args[slot.arg]
    if slot.kind is None:
        if isinstance(value, Listed):  # each name in the form asked, joined as `lang` joins
            return joined(lang, [_shown(v, slot.form, filling) for v in value],
                          filling.separator)
        if isinstance(value, list):
            return filling.separator.join(_shown(v, slot.form, filling) for v in value)
        return _shown(value, slot.form, filling)
    if slot.kind == "select":
        key = names.form(value, slot.form) if slot.form else value
        body = slot.cases.get(str(key), slot.cases["other"])
        return _render(body, filling, number)
    n = value.counted() if isinstance(value, Number) else value
    category = (plurals.category if slot.kind == "plural" else plurals.ordinal)(lang, n)
    body = slot.cases.get(f"={n}") or slot.cases.get(category) or slot.cases["other"]
    return _render(body, filling, value)


class Listed(list):
    """A list an engine message shows as its language joins one ("North and South", «Север
    и Юг»), each item in the form its slot asks (`{tied:dat}`); a log's list arguments are
    plain lists, shown `a, b, c` (the separator of the message's language)."""


class Shown(str):
    """Text already written in its language (a message filled in, as each score of the end
    line): shown as it is, never looked up as an id."""


class Worded(str):
    """A text argument that names a message (`take_coins`, an option a question offered): it
    shows as that message's text (`shown`), as the question showed it, and a `select` still
    chooses on the text as written (`{a1, select, take_coins {…} other {…}}`)."""

    shown: str

    def __new__(cls, text: str, shown: str) -> Worded:
        worded = super().__new__(cls, text)
        worded.shown = shown
        return worded


@dataclass(frozen=True)
class Number:
    """A number a message writes as the language of its own text writes one (number_format):
    `Number(97.9)` is "97.9" in an English text and "97,9" in a Polish one, whatever language
    was asked for; `percent` writes a fraction as a percentage, `signed` puts + or − before
    it. A plural chooses by its value; `#` writes it."""

    value: float
    digits: int = 2
    exact: bool = False
    percent: bool = False
    signed: bool = False

    def counted(self) -> Decimal:
        """The number as it is written, for its plural category: "1.0" is English `other`,
        "1" is `one` (CLDR counts the decimals shown)."""
        shown = Decimal(repr(abs(self.value) * (100 if self.percent else 1)))
        with localcontext(rounding=ROUND_HALF_UP):
            text = format(shown.quantize(Decimal(1).scaleb(-self.digits)), "f")
        if not self.exact and "." in text:
            text = text.rstrip("0").rstrip(".")
        return Decimal(text)

    def written(self, lang: str) -> str:
        from . import number_format

        size = abs(self.value) if self.signed else self.value
        text = number_format.percent(lang, size, self.digits) if self.percent \
            else number_format.decimal(lang, size, self.digits, self.exact)
        return (("−" if self.value < 0 else "+") + text) if self.signed else text


def _written(number: Any, lang: str) -> str:
    return number.written(lang) if isinstance(number, Number) else str(number)


def joined(lang: str, items: list[str], separator: str | None = None) -> str:
    """Items joined as `lang` joins a list ("A, B, and C", "A, B et C", «A وB وC»: CLDR's
    standard list); in a language CLDR does not know, by `separator` (default ", ")."""
    from babel.lists import format_list

    locale = plurals.cldr_locale(lang)
    if locale is not None:
        try:
            return format_list(items, locale=locale)
        except (ValueError, LookupError):
            pass
    return (", " if separator is None else separator).join(items)


@cache
def list_separator(lang: str) -> str:
    """What separates the items of a plain list in `lang` when its locale does not say
    (`list_separator`): what CLDR's standard list puts between its middle items (", " in
    English, "、" in Japanese, " و" in Arabic, whose lists join every item by "and"), else ", "."""
    locale = plurals.cldr_locale(lang)
    pattern = None
    if locale is not None:
        try:
            pattern = locale.list_patterns["standard"]["middle"]
        except (KeyError, LookupError):
            pattern = None
    if not isinstance(pattern, str) or "{0}" not in pattern or "{1}" not in pattern:
        return ", "
    return pattern.split("{0}", 1)[1].split("{1}", 1)[0]


def _shown(value: Any, form: str | None, filling: _Filling) -> str:
    if isinstance(value, Shown):
        return str(value)
    if isinstance(value, Worded):
        return value.shown
    if isinstance(value, Number):
        return value.written(filling.lang)
    # one call for both: the names add what a name shows beside its form (a card's copy)
    return str(filling.names.name(value, form))
