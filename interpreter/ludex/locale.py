"""Display text: names of entities and message templates per language, with CLDR plural rules.

Templates use `{name}` placeholders and ICU-style plurals:
`{n, plural, one {# карта} few {# карты} many {# карт} other {# карты}}` (`#` is the number).
An argument that is the id of a power, space, card… is shown by its localised name.
"""

from __future__ import annotations

from typing import Any

LANGUAGES = ("en", "ru", "fr")


def plural_category(lang: str, n: Any) -> str:
    """CLDR cardinal plural category of `n` in `lang` (integers; anything else is `other`)."""
    if not isinstance(n, int) or isinstance(n, bool):
        return "other"
    n = abs(n)
    if lang == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    if lang == "fr":
        if n in (0, 1):
            return "one"
        if n != 0 and n % 1_000_000 == 0:
            return "many"
        return "other"
    return "one" if n == 1 else "other"


class TemplateError(ValueError):
    pass


def render(template: str, args: dict[str, Any], lang: str,
           name_of=lambda value: value) -> str:
    """Fill a template; `name_of` turns argument values into display names."""
    out, i = [], 0
    while i < len(template):
        char = template[i]
        if char == "{":
            end = _matching(template, i)
            out.append(_placeholder(template[i + 1:end], args, lang, name_of))
            i = end + 1
        else:
            out.append(char)
            i += 1
    return "".join(out)


def _matching(text: str, start: int) -> int:
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    raise TemplateError(f"unclosed `{{` in {text!r}")


def _placeholder(body: str, args: dict, lang: str, name_of) -> str:
    name, _, rest = body.partition(",")
    name = name.strip()
    if name not in args:
        raise TemplateError(f"no argument `{name}`")
    value = args[name]
    if not rest:
        if isinstance(value, list):
            return ", ".join(str(name_of(v)) for v in value)
        return str(name_of(value))
    kind, _, cases = rest.partition(",")
    if kind.strip() != "plural":
        raise TemplateError(f"unknown format `{kind.strip()}`")
    options = _cases(cases)
    chosen = options.get(f"={value}") or options.get(plural_category(lang, value)) \
        or options.get("other")
    if chosen is None:
        raise TemplateError(f"plural for `{name}` has no `other` case")
    return render(chosen.replace("#", str(value)), args, lang, name_of)


def _cases(text: str) -> dict[str, str]:
    cases, i = {}, 0
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        brace = text.index("{", i)
        key = text[i:brace].strip()
        end = _matching(text, brace)
        cases[key] = text[brace + 1:end]
        i = end + 1
    return cases


class Localizer:
    """Names and messages of one game in one language (falls back to English, then the id)."""

    def __init__(self, tables: dict[str, dict[str, dict]], lang: str = "en"):
        self.tables, self.lang = tables, lang
        self.kinds: dict[str, str] = {}
        english = tables.get("en", {})
        for section, entries in english.items():
            if isinstance(entries, dict) and section not in ("messages", "game"):
                for ident in entries:
                    self.kinds.setdefault(ident, section)

    def _lookup(self, section: str, key: str) -> Any:
        for lang in (self.lang, "en"):
            entry = self.tables.get(lang, {}).get(section, {}).get(key)
            if entry is not None:
                return entry
        return None

    def name(self, value: Any) -> Any:
        if not isinstance(value, str):
            return value
        card_id = value.split("#", 1)[0]
        section = self.kinds.get(card_id)
        if section is None:
            return value
        entry = self._lookup(section, card_id)
        if isinstance(entry, dict):
            entry = entry.get("name")
        return entry or value

    def message(self, key: str, args: dict[str, Any] | None = None) -> str:
        template = self._lookup("messages", key)
        args = args or {}
        if template is None:
            shown = ", ".join(f"{k}={self.name(v)}" for k, v in args.items())
            return f"{key}({shown})" if shown else key
        return render(template, args, self.lang, self.name)

    def option(self, value: Any) -> str:
        """A decision option as a player reads it: actions by their label, ids by their name,
        payments as amounts."""
        if isinstance(value, dict):
            return ", ".join(f"{amount} {self.name(counter)}" for counter, amount in value.items())
        if isinstance(value, list):
            return " ".join(self.option(item) for item in value)
        if not isinstance(value, str):
            return str(value)
        power, _, rest = value.rpartition("@")
        action, _, card = rest.partition(":")
        label = self._lookup("actions", action)
        if label is not None:
            text = f"{label}: {self.name(card)}" if card else label
            return f"{self.name(power)} — {text}" if power else text
        message = self._lookup("messages", value)
        return message if isinstance(message, str) else str(self.name(value))

    def log_line(self, entry: dict) -> str:
        return self.message(entry["key"], entry.get("args"))
