"""The terminal agent: a person answering at the prompt of `ludex play`.

Before each question it shows what that player needs to decide: the game's own counters and
the memory it shows players, the counters of the powers they hold, then those of the other
powers they may see, the cards they may see in their own zones and on the table, and which
rule asks; then the options, numbered. A question for several choices ("exactly N", "up to
N") takes several numbers on one line — none at all for "up to". What starts with `?` is no
answer but a look at cards (terminal_cards.py: `? N` option N's card, `??` every card in
view). Prompts go to stderr, so `ludex play --json` keeps stdout for the JSON.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Callable
from typing import Any

from .locale import Localizer
from .map_words import marker_words, piece_words
from .observation import may_see_counter, memory_seen


def _show(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _ask(prompt: str) -> str:
    # a terminal closed under the player fails reads and writes (EIO): the player has left,
    # as at the end of input, and the game is saved as then
    try:
        sys.stderr.write(prompt)
        sys.stderr.flush()
        line = sys.stdin.readline()
    except OSError:
        raise EOFError from None
    if not line:
        raise EOFError
    return line


def _number(word: str) -> int | None:
    """An option's number as typed: plain digits (`isdigit` also takes `²`, which `int`
    refuses), few enough for an option's number (Python refuses to read thousands)."""
    return int(word) if word.isascii() and word.isdigit() and len(word) <= 6 else None


TABLE_CARDS_SHOWN = 8  # of each public pile at a prompt: its top cards, then how many more


class Human:
    """Asks at the terminal; `ask` and `show` are injected so tests can drive it."""

    name = "human"

    def __init__(self, ask: Callable[[str], str] = _ask, show: Callable[[str], None] = _show,
                 localizer=None):
        self.ask, self.show, self.localizer = ask, show, localizer
        self._map_shown: list[str] = []  # the map's lines as last shown (_on_the_map)
        self._asked: tuple = (None, [])  # the game and options of the question being asked
        self._helped = False  # the look-up commands were shown (before the first answer)

    def refuse(self, game, answer: Any, reason: Exception | None = None) -> None:
        """The rules refused the answer given: say why; the question is asked again."""
        why = getattr(reason, "text", None) or str(reason or "")
        # a `require`'s reason is a message key, filled as a log line is
        if self.localizer and reason is not None:
            why = self.localizer.refusal(reason)
        self.show(self._message("answer_refused", {"reason": why},
                                f"That answer breaks a rule: {why}"))

    def _name(self, value: Any) -> str:
        return str(self.localizer.name(value)) if self.localizer else str(value)

    def _joiner(self) -> str:
        """What separates a list's items in the player's language (`، ` in Arabic)."""
        return self.localizer.separator() if self.localizer else ", "

    def _message(self, key: str, args: dict | None = None, fallback: str = "") -> str:
        return self.localizer.message(key, args) if self.localizer else fallback or key

    def _labelled(self, label: str, shown: str) -> str:
        """A label and what it shows ("Red: Gold 3"), joined as the player's language joins
        them (`label_separator`, an engine message: Japanese "赤：金 3")."""
        return label + self._message("label_separator", None, ": ") + shown

    def context(self, game) -> list[str]:
        """The game's own counters, the player's counters and cards, the other powers'
        counters the player may see, the cards on the table everyone sees, and the rule that
        asks."""
        decision, state = game.pending, game.view
        seat = next((s for s in state["seats"] if decision.who in s), [decision.who])
        lines = self._game_counters(game) + self._memory(game)
        for power in seat:
            counters = [f"{self._name(c)} {values[power]}"
                        for c, values in state["counters"].items()
                        if isinstance(values, dict) and power in values]
            if counters:
                lines.append(self._labelled(self._name(power), " · ".join(counters)))
            for zone, spec in game.definition.zones.items():
                cards = state["zones"].get(zone, {}).get(power)
                if cards and spec.get("visibility", "public") != "hidden":
                    lines.append("  " + self._labelled(
                        self._name(zone), self._joiner().join(self._name(c) for c in cards)))
        lines += self._others_counters(game, seat)
        # under headings of their own: indented right after the last power's line, the map
        # and a shared discard pile read as that power's (a designer's trial)
        lines += self._headed("on_the_table", "On the table", self._on_the_table(game, seat))
        lines += self._headed("on_the_map", "On the map", self._on_the_map(game))
        rule = self._name(decision.rule) if decision.rule else ""
        if rule and rule != decision.rule:
            lines.append(self._message("asked_by", {"rule": rule}, f"Asked by: {rule}"))
        return lines

    def _headed(self, key: str, fallback: str, lines: list[str]) -> list[str]:
        if not lines:
            return []
        separator = self._message("label_separator", None, ": ").rstrip()
        return [self._message(key, None, fallback) + separator, *lines]

    def _game_counters(self, game) -> list[str]:
        """The counters of the whole game (`per: game`: a team's treasure, the torches left),
        as the table shows them: on one line, none hidden (`visibility: owner` is for a
        power's own value, and validation refuses it on a counter of the game)."""
        secret = game.definition.secret_counters
        shown = [f"{self._name(c)} {value}" for c, value in game.view["counters"].items()
                 if not isinstance(value, dict) and c not in secret]
        return [" · ".join(shown)] if shown else []

    def _memory(self, game) -> list[str]:
        """The game's memory that players see (`visibility: public`: the trump suit), on one
        line as the game's counters are, each key named by the locale (`messages.trump`) and
        its value as a question's option is (a suit, a card, a power by name); a key holding
        nothing yet is left out."""
        shown = [self._labelled(self._word(key), self._word(value))
                 for key, value in memory_seen(game.definition, game.view).items()
                 if value is not None]
        return [" · ".join(shown)] if shown else []

    def _word(self, value: Any) -> str:
        """A value as the player reads it: an id or a word by the locale's name for it."""
        if self.localizer:
            return self.localizer.kept_value(value)
        return self._joiner().join(map(str, value)) if isinstance(value, list) else str(value)

    def _others_counters(self, game, seat: list[str]) -> list[str]:
        """The counters of every other seated power that the player may see, a line each, in
        seat order from the player's left: what they have is half of what to decide (how high
        to bid in an auction), and the table shows it. A counter of `visibility: owner` (a
        sealed bid) is its power's alone (observation.may_see_counter)."""
        state = game.view
        seats = state["seats"]
        mine = seats.index(seat) if seat in seats else -1
        lines = []
        for other in seats[mine + 1:] + seats[:max(mine, 0)]:
            for power in other:
                shown = [f"{self._name(c)} {values[power]}"
                         for c, values in state["counters"].items()
                         if isinstance(values, dict) and power in values
                         and may_see_counter(game.definition, c, power, set(seat))]
                if shown:
                    lines.append(self._labelled(self._name(power), " · ".join(shown)))
        return lines

    def _on_the_table(self, game, seat: list[str]) -> list[str]:
        """What everyone sees beside the player's own: the cards of public zones, shared ones
        and the other powers' (the trick played so far, the market)."""
        lines = []
        for zone, spec in game.definition.zones.items():
            if spec.get("visibility", "public") != "public":
                continue
            for holder, cards in game.view["zones"].get(zone, {}).items():
                if cards and holder not in seat:
                    # a message, not composed here: Polish says "Plecak Południa" ({power:gen})
                    label = self._message("zone_of_power", {"zone": zone, "power": holder},
                                          f"{zone} ({holder})") if holder else self._name(zone)
                    shown = self._joiner().join(self._name(c)
                                                for c in cards[:TABLE_CARDS_SHOWN])
                    more = len(cards) - TABLE_CARDS_SHOWN  # a whole discard pile is noise
                    lines.append("  " + self._labelled(label, shown)
                                 + (f" (+{more})" if more > 0 else ""))
        return lines

    def _on_the_map(self, game) -> list[str]:
        """The map, as the table's board shows it: each space someone holds, whose markers
        stand off their start or where pieces stand — who holds it, its markers, each power's
        pieces. Shown when it changed since the player last saw it (a map of forty spaces at
        every question would bury the question); empty for a game without a map."""
        definition = game.definition
        if not definition.space_ids:
            return []
        text = self.localizer or Localizer({"en": {}}, "en", "en")  # ids as they are
        spaces, lines = game.view["spaces"], []
        for space in definition.space_ids:
            held = spaces.get(space) or {}
            parts = [marker_words(definition, held.get("markers") or {}, text)]
            parts += [f"{text.name(power)} {words}" for power, kinds in
                      (held.get("pieces") or {}).items()
                      if (words := piece_words(definition, kinds, text))]
            parts = [part for part in parts if part]
            if parts:
                lines.append("  " + self._labelled(str(text.name(space)), " · ".join(parts)))
        if lines == self._map_shown:
            return []
        self._map_shown = lines
        return lines

    def __call__(self, game) -> Any:
        decision = game.pending
        options = game.legal_actions()
        self._asked = (game, options)
        if decision.mode == "one" and not options:  # nothing to choose from: not a question
            from .agents import no_way_on

            raise no_way_on(game)
        text = self.localizer
        for line in self.context(game):
            self.show(line)
        who = self._name(decision.who)
        prompt = text.filled(decision.prompt, decision.prompt_args) if text \
            else decision.prompt
        # a prompt that ends in its own punctuation ("Which one?", "どちらにしますか？") takes
        # none; any other takes the language's (`prompt_end`: ":" in English, " :" in French)
        last = prompt.rstrip()[-1:]
        end = "" if not last or unicodedata.category(last) == "Po" else \
            self._message("prompt_end", None, ":")
        self.show(f"{who} — {prompt}{end}")
        if decision.mode == "one" and _all_numbers(options):
            # numbers are typed as they are: listed `1. 0`, `2. 1`…, typing 5 meant 4
            self.show("  " + "  ".join(str(o) for o in options))
            return self._one_value(options)
        for number, option in enumerate(options, 1):
            self.show(f"  {number}. {text.option(option) if text else option}")
        if decision.mode == "one":
            return self._one(options)
        return self._several(options, decision.mode, decision.count)

    def _reply(self, numbered: bool = True) -> str:
        """The player's next answer; what they type to look at cards (`?`, `? N`, `??`) is
        answered here and never taken for an answer."""
        from .terminal_cards import look

        game, options = self._asked
        text = self.localizer or game.definition.localizer()
        seat = next((s for s in game.view["seats"] if game.pending.who in s),
                    [game.pending.who])
        if not self._helped:
            self._helped = True
            self.show(text.message("look_help"))
        while True:
            reply = self.ask("> ").strip()
            lines = look(game, text, seat, reply, options, numbered, TABLE_CARDS_SHOWN)
            if lines is None:
                return reply
            for line in lines:
                self.show(line)

    def _one(self, options: list) -> Any:
        while True:
            reply = self._reply()
            number = _number(reply)
            if number is not None and 1 <= number <= len(options):
                return options[number - 1]
            if reply in [str(o) for o in options]:
                return next(o for o in options if str(o) == reply)
            self.show(self._message("choose_number", {"count": len(options)},
                                    f"choose 1–{len(options)}"))

    def _one_value(self, options: list) -> Any:
        while True:
            reply = self._reply(numbered=False)
            number = int(reply) if re.fullmatch(r"-?[0-9]{1,15}", reply) else None
            if number is not None and number in options:
                return number
            self.show(self._message("choose_value", {"values": ", ".join(map(str, options))},
                                    f"type one of {', '.join(map(str, options))}"))

    def _several(self, options: list, mode: str, count: int) -> list:
        key = "choose_exactly" if mode == "exactly" else "choose_up_to"
        hint = self._message(key, {"count": count}, f"{key.replace('_', ' ')} {count}")
        self.show(hint)
        while True:
            words = [w for w in re.split(r"[\s,;]+", self._reply()) if w]
            numbers = [n for n in map(_number, words) if n is not None]
            fits = (len(numbers) == len(words) == len(set(numbers))
                    and all(1 <= n <= len(options) for n in numbers)
                    and (len(numbers) == count if mode == "exactly" else len(numbers) <= count))
            if fits:
                return [options[n - 1] for n in numbers]
            self.show(hint)


def _all_numbers(options: list) -> bool:
    """Whole numbers only (a bid, an amount): typed as values, not picked by position."""
    return bool(options) and all(o.__class__ is int for o in options)
