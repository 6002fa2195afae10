"""Display text of one game in one language: names of entities (with their optional
grammatical forms) and messages, falling back to the game's primary language.

The message syntax is templates.py's; plural categories come from CLDR (plurals.py).
A name in a locale is a string, or a mapping with `name` and any forms a language needs:

    camillus: {name: Камилл, acc: Камилла}

A text is written by the rules of the language it is in, not of the language asked for: a
French player reading an Arabic line the French locale lacks reads it with Arabic plurals,
numbers and list joining (a count of 0 is Arabic `zero`, not French `one`).

The engine's own lines (the end-of-game line, a card's copy, the dice) are frames around the
game's words: one a language lacks is read in the primary language only when that is written
in the same script (a Galician player of a Spanish game reads the Spanish frame), else in
English — a Japanese frame around Turkish names ("Kırmızı tüccar、Mavi tüccarの引き分け") mixed
two scripts' grammar in one line (a Japanese designer's trial).
"""

from __future__ import annotations

import functools
from typing import Any

from .locale_files import DEFAULT_PRIMARY, ENGINE_SOURCE, RECORD_SECTIONS, engine_messages
from .runtime import Said, window_option
from .templates import (
    Listed,
    Shown,
    TemplateError,
    Worded,
    arguments,
    capital_form,
    capitalised,
    joined,
    list_separator,
    render,
)

__all__ = ["Localizer", "TemplateError"]

# Locale sections that hold messages or the game's own name, not names of entities.
TEXT_SECTIONS = ("messages", "game", *RECORD_SECTIONS)


class Localizer:
    """Names and messages of one game in `lang`; what `lang` lacks comes from `primary`."""

    def __init__(self, tables: dict[str, dict[str, dict]], lang: str | None = None,
                 primary: str = DEFAULT_PRIMARY, copies: dict[str, int] | None = None):
        self.tables, self.primary = tables, primary
        self.lang = lang or primary
        self.chain = tuple(dict.fromkeys((self.lang, primary, ENGINE_SOURCE)))
        # the engine's messages skip a primary language of another script (engine_chain)
        self.engine_chain = engine_chain(self.lang, primary)
        # card id -> how many copies the game has: copy n of a card reads "Name (n of N)"
        self.copies = copies or {}
        self.kinds: dict[str, str] = {}
        for table_lang in reversed(self.chain):
            for section, entries in tables.get(table_lang, {}).items():
                if isinstance(entries, dict) and section not in TEXT_SECTIONS:
                    for ident in entries:
                        self.kinds.setdefault(ident, section)

    def _lookup(self, section: str, key: str) -> Any:
        return self._found(section, key)[1]

    def _found(self, section: str, key: str) -> tuple[str, Any]:
        """(the language it is in, the entry) of the first language of the chain that has
        it; (this language, None) when none has."""
        for lang in self.chain_for(section, key):
            entry = self.tables.get(lang, {}).get(section, {}).get(key)
            if entry is not None:
                return lang, entry
        return self.lang, None

    def chain_for(self, section: str, key: str) -> tuple[str, ...]:
        """The languages a text is looked for in, in order: this one, the primary one, English;
        for an engine message, the primary one only when it is written in this one's script."""
        return self.engine_chain if section == "messages" and key in _engine_keys() \
            else self.chain

    def _entry(self, value: Any) -> Any:
        return self._entry_in(value)[1]

    def _entry_in(self, value: Any) -> tuple[str, Any]:
        if not isinstance(value, str):
            return self.lang, None
        ident = value.split("#", 1)[0]  # a card instance `id#2` is named as its card
        section = self.kinds.get(ident)
        return (self.lang, None) if section is None else self._found(section, ident)

    def name(self, value: Any, form: str | None = None) -> Any:
        """The name of an id, in grammatical `form` when its locale has that form (else the
        plain name); a copy of a card with several says which (`card_copy`), whatever form
        the message asks for."""
        lang, entry = self._entry_in(value)
        capital = False
        if not (isinstance(entry, dict) and form in entry):  # a form written as asked wins
            form, capital = capital_form(form)
        if isinstance(entry, dict):
            entry = (form and entry.get(form)) or entry.get("name")
        if capital and isinstance(entry or value, str):
            entry = capitalised(str(entry or value), lang)
        card_id, _, copy = value.partition("#") if isinstance(value, str) else ("", "", "")
        if entry and copy.isdigit():  # one of several identical cards: say which
            return self.message("card_copy", {"card": entry, "copy": int(copy),
                                              "copies": self.copies.get(card_id, "?")})
        return entry or value

    def game_name(self, fallback: str) -> str:
        """The game's name in this language (its locale's `game: name:`), else `fallback`."""
        name = self._lookup("game", "name")
        return str(name) if name else fallback

    def form(self, value: Any, form: str) -> str | None:
        """A grammatical form of a name (`acc`, `def`…) as written, or None when the locale has
        none: what a `select` on a form chooses by (a name to show is `name(value, form)`)."""
        entry = self._entry(value)
        return entry.get(form) if isinstance(entry, dict) else None

    def message(self, key: str, args: dict[str, Any] | None = None) -> str:
        """A message filled in, by the rules of the language its text is in (plurals,
        numbers, lists); a key with no text anywhere shows as `key(args)`."""
        template_lang, template = self._found("messages", key)
        args = args or {}
        if not isinstance(template, str):
            shown = ", ".join(f"{k}={self.name(v)}" for k, v in args.items())
            return f"{key}({shown})" if shown else key
        for lang in self.chain_for("messages", key):  # one that cannot be filled in yields
            text = self.tables.get(lang, {}).get("messages", {}).get(key)
            if isinstance(text, str):
                try:
                    return render(text, args, lang, self, separator=self.separator(lang))
                except TemplateError:
                    continue
        return render(template, args, template_lang, self, strict=False,
                      separator=self.separator(template_lang))

    def message_arguments(self, key: str) -> set[str]:
        """The arguments (`a0`, `a1`…) the text of message `key` shows."""
        _, template = self._found("messages", key)
        try:
            return arguments(template) if isinstance(template, str) else set()
        except TemplateError:
            return set()

    def text_language(self, key: str) -> str:
        """The language of the text `message(key)` shows: this one's, else the first it falls
        back to that has it. Numbers shown beside that text are written as it writes them."""
        for lang in self.chain_for("messages", key):
            if isinstance(self.tables.get(lang, {}).get("messages", {}).get(key), str):
                return lang
        return self.lang

    def separator(self, lang: str | None = None) -> str:
        """What separates the items of a plain list in `lang` (default: this language): its
        locale's `list_separator` (the game's, else the engine's), else CLDR's (list_separator
        in templates.py). Never another language's: a list is joined as its text's language
        joins one."""
        lang = lang or self.lang
        given = self.tables.get(lang, {}).get("messages", {}).get("list_separator")
        return given if isinstance(given, str) and given else list_separator(lang)

    def option(self, value: Any) -> str:
        """A decision option as a player reads it: actions by their label, ids by their name,
        payments as amounts."""
        if isinstance(value, dict):
            return self.separator().join(f"{amount} {self.name(counter)}"
                                         for counter, amount in value.items())
        if isinstance(value, list):
            return " ".join(self.option(item) for item in value)
        if not isinstance(value, str):
            return str(value)
        power, action, card = window_option(value)
        label = self._lookup("actions", action)
        if isinstance(label, dict):
            label = label.get("name")
        if label is not None:
            # the card as an id, so that a translation may ask for a form of its name
            text = self.message("action_with_card", {"action": label, "card": card}) \
                if card else label
            return f"{self.name(power)} — {text}" if power else text
        message = self._lookup("messages", value)
        return self.message(value) if isinstance(message, str) else str(self.name(value))

    def kept_value(self, value: Any) -> str:
        """A value the rules keep (a memory key's: a suit, a card, a power) as a player reads
        it: as a question's option would read (`option`), a list's items joined as the
        language joins a plain list. The terminal and the table show it alike."""
        if isinstance(value, list):
            return self.separator().join(self.kept_value(item) for item in value)
        return str(self.option(value))

    def counted(self, value: Any, count: int) -> str:
        """`count` of a thing, its name in the form named by the count's plural category
        in the language of that name (this one's, or the one it falls back to) when its locale
        gives one (`{name: Truppe, other: Truppen}`: 3 Truppen; Polish `few`, `many`…); a
        category it lacks takes its `other` form, as a plural message's does (`{name: armia,
        few: armie, other: armii}`: 5 armii), but the category of 1, which the name stands for;
        else its name."""
        from . import plurals

        lang, entry = self._entry_in(value)
        form = None
        if isinstance(entry, dict):
            category = plurals.category(lang, count)
            form = entry.get(category)
            if form is None and category != plurals.category(lang, 1):
                form = entry.get("other")
        return f"{count} {form if form is not None else self.name(value)}"

    def list_of(self, values: list[Any]) -> str:
        """Names joined as the language joins a list ("Blue and Green", "Bleu et Vert")."""
        return joined(self.lang, [str(self.name(v)) for v in values])

    def log_line(self, entry: dict) -> str:
        """A log entry as a line, its arguments as `filled` reads them."""
        return self.filled(entry["key"], entry.get("args"))

    def filled(self, key: str, args: dict[str, Any] | None) -> str:
        """A message an effect filled with values — a log line, a question's prompt
        (`prompt ("key", a)`), a refusal's or an ending's reason: a text it passes that names
        a message (an option a question offered, a suit `espadas` the locale words) reads as
        the question showed it (`option`), not as its key — the same in every one of them."""
        if args:
            args = {name: self._worded(value) for name, value in args.items()}
        return self.message(key, args)

    def refusal(self, refusal: Exception) -> str:
        """A refusal as a player reads it: a `require`'s reason, a message key of the game
        filled as a log line is (`filled`); an engine refusal that has a message for players
        (`cannot_pay`) in it; any other in the engine's own words."""
        wording = getattr(refusal, "wording", None)
        if wording is not None:
            return self.filled(*wording)
        key = getattr(refusal, "text", None) or str(refusal)
        return self.filled(key, getattr(refusal, "reason_args", None) or None)

    def _worded(self, value: Any) -> Any:
        """A logged text that is no id but the key of a message without arguments, as that
        message reads (templates.Worded, which a `select` still reads as written); any other
        value as it is."""
        if isinstance(value, list):
            return [self._worded(item) for item in value]
        if isinstance(value, Said):  # a question a refusal speaks of, in this language too
            return Shown(self.filled(value.key, value.args))
        if not isinstance(value, str) or value.split("#", 1)[0] in self.kinds:
            return value
        text = self._lookup("messages", value)
        try:
            if not isinstance(text, str) or arguments(text):
                return value
        except TemplateError:
            return value
        return Worded(value, self.option(value))

    def end_line(self, ended: str | None, winner: Any, scores: dict[str, Any],
                 tied: list[str] | None = None, lost_together: bool = False,
                 reason_args: dict[str, Any] | None = None) -> str:
        """The last line of a game: why it ended (the reason's message, filled with
        `reason_args` as a log line is: `end_game("bank_broken", me)`), who won — a power, or a
        list of those who won together (`Game.winners`) — or, for a draw, who `tied` for the
        lead, or that the players of a cooperative game lost together; the scores."""
        # each score in its own words; joined as the end line's language joins a list
        shown = [Shown(self.message("score_entry", {"power": p, "score": v}))
                 for p, v in scores.items()]
        if ended is None:
            return self.message("game_stopped", {"scores": shown})
        reason = Shown(self.filled(ended, reason_args))
        if lost_together:
            return self.message("game_lost_together", {"reason": reason, "scores": shown})
        if isinstance(winner, list):
            if len(winner) > 1:  # a shared win (a cooperative game's)
                return self.message("game_won_together", {
                    "reason": reason, "winners": Listed(winner), "scores": shown})
            winner = winner[0] if winner else None
        if winner is None and tied and len(tied) > 1:  # a draw between the leaders
            return self.message("game_tied", {"reason": reason, "scores": shown,
                                              "tied": Listed(tied)})
        if winner is None:  # nobody won: a draw
            return self.message("game_drawn", {"reason": reason, "scores": shown})
        return self.message("game_ended", {"reason": reason, "winner": winner,
                                           "scores": shown})


@functools.cache
def _engine_keys() -> frozenset[str]:
    """The keys of the engine's own messages."""
    return frozenset(engine_messages(ENGINE_SOURCE))


def engine_chain(lang: str, primary: str) -> tuple[str, ...]:
    """Where an engine message `lang` lacks is read: the primary language's text when it is
    written in the same script as `lang` (Galician reads Spanish), else English (Turkish
    never reads a Japanese frame around its own names)."""
    if same_script(lang, primary):
        return tuple(dict.fromkeys((lang, primary, ENGINE_SOURCE)))
    return tuple(dict.fromkeys((lang, ENGINE_SOURCE)))


def same_script(lang: str, other: str) -> bool:
    """Whether two languages are written in the same script, as CLDR says (its likely
    script for a tag that names none: `ja` Jpan, `tr` Latn, `sr` Cyrl, `sr-Latn` Latn);
    not when either is unknown (`x-klingon`)."""
    if lang == other:
        return True
    first, second = script_of(lang), script_of(other)
    return first is not None and first == second


@functools.cache
def script_of(tag: str) -> str | None:
    """The script `tag` is written in: its own script subtag (`zh-Hant`), else CLDR's likely
    script for the tag or its language (`pt-BR` → Latn); None for a tag CLDR does not know."""
    from babel.core import get_global

    parts = str(tag).split("-")
    for part in parts[1:]:
        if len(part) == 4 and part.isalpha():
            return part.title()
    likely = get_global("likely_subtags")
    for attempt in ("_".join(parts[:2]), parts[0]):
        found = likely.get(attempt)
        if found:
            return next((part for part in found.split("_")[1:]
                         if len(part) == 4 and part.isalpha()), None)
    return None
