"""What a game can offer and end with, for the static checks of scenarios: an option a
scenario names (in `options`, `includes`, `excludes`, a decision's `choose`) that no question
of the game could ever offer, and an end reason (`ended:`) the game can never end with. Either
would make the scenario pass, or fail, whatever the rules do: an `excludes` of a misspelt
option holds for ever.

What a question may offer is an action window's options (`pass`, `action`, `action:card`, with
`power@` first for a seat of several powers) and whatever a `choose` offers: a value an effect
computes. Those come from the game's ids, the texts written in its effects and the texts of
its data (a table's cells, an attribute's values), so a text found in none of them is never
offered. Texts an effect builds (`"lot_" + x`) are taken as offered when they hold the
written part.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from . import ast
from .errors import did_you_mean
from .gamedef import GameDef
from .static_checks import memory_keys, walk
from .yamlio import Document

PASS = "pass"
# reasons the engine ends a game with by itself (flow.py): the last turn, no sequence of play
ENGINE_REASONS = ("last_turn", "no_sequence")


class Vocabulary:
    """The texts of one game that a question may offer or a game may end with."""

    def __init__(self, d: GameDef):
        self.cards = card_instances(d)
        self.cardless = {a for a, spec in d.actions.items() if "card" not in spec}
        literals, built, reasons, any_reason = _effect_texts(d)
        # what an answer may be named by, for "did you mean"
        self.named = {PASS, *self.cardless, *d.kinds, *self.cards, *literals}
        self.data = set(_texts_in([d.manifest, d.static, d.cards, d.tables, d.markers]))
        self.built = built  # the written parts of texts effects build with `+`
        self.reasons = {*ENGINE_REASONS, *reasons}
        self.refusals = _require_reasons(d)  # what a `require … else "…"` names
        until_reason = d.manifest.get("until_reason")
        if isinstance(until_reason, str):
            self.reasons.add(until_reason)
        # an `end_game` given a value worked out in play: it may end with any text of the game
        self.any_reason = any_reason
        # the keys `remember` and `recalled` name, or None where one is worked out in play
        keys = memory_keys(d.sources)
        self.memory = None if keys.writes_worked_out or keys.reads_worked_out else {
            *keys.written, *keys.read}
        if d.memory_types is not None:  # the manifest declares every key there is
            self.memory = set(d.memory_types)

    def offered(self, text: str) -> bool:
        """Whether some question of the game may offer `text` as it is."""
        return text in self.named or text in self.data or any(
            part in text for part in self.built)

    def may_end_with(self, reason: str) -> bool:
        """Whether the game may end with `reason`: one `end_game` is given as written or the
        engine ends with, or, where an `end_game` is given a value worked out in play, any
        text of the game."""
        return reason in self.reasons or (self.any_reason and self.offered(reason))


def vocabulary(d: GameDef) -> Vocabulary:
    """The game's vocabulary, worked out once per definition (a command checks many scenarios
    of one game)."""
    found = d.analysis_memo.get("scenario vocabulary")
    if found is None:
        found = d.analysis_memo["scenario vocabulary"] = Vocabulary(d)
    return found


def card_instances(d: GameDef) -> set[str]:
    """Every card of the game as play names it: its id, or `id#n` for each copy."""
    return {f"{c}#{n}" if spec.get("copies", 1) > 1 else c
            for c, spec in d.cards.items() for n in range(1, spec.get("copies", 1) + 1)}


def _effect_texts(d: GameDef) -> tuple[set[str], set[str], set[str], bool]:
    """The texts written in the game's effects; the written parts of texts built with `+`;
    the reasons `end_game` is given as written; whether one is given a value worked out."""
    literals: set[str] = set()
    built: set[str] = set()
    reasons: set[str] = set()
    any_reason = False
    for source in d.sources:
        for node in walk(source.tree):
            if isinstance(node, ast.Literal) and isinstance(node.value, str):
                literals.add(node.value)
            elif isinstance(node, ast.Binary) and node.op in ("+", "*"):
                built.update(side.value for side in (node.left, node.right)
                             if isinstance(side, ast.Literal) and isinstance(side.value, str)
                             and side.value)
            elif isinstance(node, ast.Call) and node.name == "end_game" and node.args:
                reason = node.args[0]
                if isinstance(reason, ast.Literal) and isinstance(reason.value, str):
                    reasons.add(reason.value)
                else:
                    any_reason = True
    return literals, built, reasons, any_reason


def _require_reasons(d: GameDef) -> set[str]:
    """The message ids the game's `require … else "id"` statements name."""
    found = set()
    for source in d.sources:
        for node in walk(source.tree):
            if isinstance(node, ast.Require):
                message = node.message
                key = message if isinstance(message, str) else getattr(message, "key", None)
                if isinstance(key, str):
                    found.add(key)
    return found


def refusal_mistakes(doc: Document, d: GameDef) -> Iterator[tuple[tuple, str]]:
    """(path, message) for each `reason:` of an expected `rules/illegal-action` that no
    `require … else "…"` of the game names: such a scenario could only fail (a misspelt
    `too_pour` was found only by running it)."""
    words = vocabulary(d)
    for i, entry in enumerate(doc.data.get("expect") or []):
        if not isinstance(entry, dict) or entry.get("error") != "rules/illegal-action":
            continue
        reason = entry.get("reason")
        if isinstance(reason, str) and reason not in words.refusals:
            yield (("expect", i, "reason"), f"no `require … else \"{reason}\"` of "
                   f"`{d.game_id}` refuses with `{reason}`"
                   + did_you_mean(reason, sorted(words.refusals)))


def _texts_in(values: list) -> Iterator[str]:
    """Every text inside nested data (keys too: a table's columns, a card's fields)."""
    stack = list(values)
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, list | tuple | set | frozenset):
            stack.extend(value)


def option_mistakes(doc: Document, d: GameDef) -> Iterator[tuple[tuple, str]]:
    """(path, message) for each option a scenario names — in `options`, `includes`,
    `excludes` of an expectation or a decision, or a decision's `choose` — that no question
    of the game could offer: a window's option (`[power@]action[:card]`) naming an action,
    card or power the game lacks, a card for an action that takes none (or none for one that
    takes one), or a bare text that is neither `pass`, an action, an id of the game nor a text
    its effects or data could offer."""
    words = vocabulary(d)
    places = [("expect", i, e) for i, e in enumerate(doc.data.get("expect") or [])] + [
        ("decisions", i, e) for i, e in enumerate(doc.data.get("decisions") or [])]
    for section, i, entry in places:
        if not isinstance(entry, dict):
            continue
        for key in ("options", "includes", "excludes", "choose"):
            named = entry.get(key)
            listed = named if isinstance(named, list) else [named]
            for j, option in enumerate(listed):
                if not isinstance(option, str):
                    continue
                path = (section, i, key) + ((j,) if isinstance(named, list) else ())
                said = option_mistake(d, option, words)
                if said:
                    yield path, f"option `{option}`: {said}"


def option_mistake(d: GameDef, option: str, words: Vocabulary) -> str | None:
    """What is wrong with an option; None where some question may offer it. Of a text with a
    colon that names no action, only a near miss of a real card is taken for a mistake
    (`"plant:early"` may be a text a `choose` offers that the effects build)."""
    if words.offered(option):
        return None
    power, at, rest = option.rpartition("@")
    if at and power not in d.power_ids:
        return f"unknown power `{power}`" + did_you_mean(power, d.power_ids)
    action, colon, card = rest.partition(":")
    if not colon:
        return _bare_mistake(d, rest, bool(at), words)
    card_known = card in words.cards or card.partition("#")[0] in d.cards
    if action not in d.actions:
        if card_known:  # a card after the colon: the action's name is misspelt
            return f"unknown action `{action}`" + did_you_mean(action, d.actions)
        return None
    if action in words.cardless:
        return (f"action `{action}` takes no card (it has no `card:`): it is offered as "
                f"`{option[:len(option) - len(card) - 1]}`")
    if not card_known:
        near = did_you_mean(card, sorted(words.cards))
        return f"unknown card `{card}`{near}" if near else None
    if card not in words.cards:
        return f"no card `{card}`" + unknown_hint(d, "card", card, sorted(words.cards))
    return None


def _bare_mistake(d: GameDef, name: str, with_power: bool, words: Vocabulary) -> str | None:
    """What is wrong with an option without a card (after its power, if any)."""
    if name in d.actions and name not in words.cardless:
        return f"action `{name}` takes a card: it is offered with one, as `{name}:CARD`"
    if with_power:
        if name in words.cardless:
            return None
        if name == PASS:
            return "`pass` is offered as it is, with no power before it"
        return f"unknown action `{name}`" + did_you_mean(name, [*words.cardless, PASS])
    return ("no question of the game offers it: it is not `pass`, an action, an id of the "
            "game nor a text its effects or data hold" + did_you_mean(name, words.named))


def unknown_hint(d: GameDef, kind: str, value: Any, known: list) -> str:
    """"Did you mean", or for a copy a card does not have (`coin#19`), how many it has."""
    card, _, copy = str(value).partition("#")
    if kind == "card" and card in d.cards:
        copies = d.cards[card].get("copies", 1)
        if copies == 1:
            return f" (`{card}` is one card, named `{card}`)"
        if copy.isdigit():
            return f" (`{card}` has {copies} copies, `{card}#1` to `{card}#{copies}`)"
    return did_you_mean(str(value), known)


def ending_mistakes(doc: Document, d: GameDef) -> Iterator[tuple[tuple, str]]:
    """(path, message) for each `ended:` reason of an expectation that the game can never end
    with: not `last_turn`, `no_sequence`, the manifest's `until_reason` nor a reason some
    `end_game` is given."""
    words = vocabulary(d)
    for i, entry in enumerate(doc.data.get("expect") or []):
        reason = entry.get("ended") if isinstance(entry, dict) else None
        if isinstance(reason, str) and not words.may_end_with(reason):
            yield (("expect", i, "ended"), f"`{d.game_id}` never ends with `{reason}`: a game "
                   "ends with an `end_game` reason, the manifest's `until_reason`, or "
                   "`last_turn`" + did_you_mean(reason, sorted(words.reasons)))
