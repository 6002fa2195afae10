"""Looking at cards at the terminal prompt (`ludex play --agents human`): what the player types
instead of an answer to see a card's attributes and text.

    ?      the commands (the help line, also shown before the player's first answer)
    ? N    the card option N is taken with (`? 2`): its name, the attributes the manifest's
           `card_attributes` declare, the tokens on it, its text from the locale
    ??     every card the player may see — their own zones, and the public ones — likewise
    ?!     the options the rules refuse now, each with its reason (terminal_refusals.py)

Words come from the locale in the player's language: names and texts from the game's, the
commands' own lines from the engine's messages (`look_*`, `card_details`), which a game's
locale may give for its language. An attribute is named as a player reads an id: by the name
of something of the same id (a counter `stars`), else by a message of that key, else its id.
Who may see a card is observation.may_see, the table's rule too: a card in another player's
hand is never listed; an option's card is already named by the option.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from .observation import may_see
from .runtime import window_option

_OPTION = re.compile(r"\?\s*([0-9]{1,6})")


def look(game, text, seat: list[str], reply: str, options: list[Any],
         numbered: bool = True, pile_shown: int = 8) -> list[str] | None:
    """The lines answering `reply` when it is a look-up command (it starts with `?`), else
    None: an answer to give the rules. `numbered`: the options are picked by their number
    (not typed as values, a bid), so `? N` names one. `pile_shown`: the cards shown of a
    pile not the player's own (a discard pile), then how many more, as the prompt shows it."""
    # a Japanese or Chinese keyboard types `？` and `２`: a command either way
    command = unicodedata.normalize("NFKC", reply).strip()
    if not command.startswith("?"):
        return None
    if command == "??":
        return cards_in_view(game, text, seat, pile_shown) or [text.message("look_no_cards")]
    if command == "?!":
        from .terminal_refusals import refused_lines

        return refused_lines(game, text, options)
    number = _OPTION.fullmatch(command)
    if number is None or not numbered:
        return [text.message("look_help")]
    index = int(number.group(1))
    if not 1 <= index <= len(options):
        return [text.message("choose_number", {"count": len(options)})]
    cards = option_cards(options[index - 1], game.view["cards"], game.definition.cards)
    if not cards:
        return [text.message("look_no_card", {"number": index})]
    return [line for card in cards for line in card_lines(game, text, card)]


def option_cards(option: Any, instances: dict, definitions: dict) -> list[str]:
    """The cards an option is taken with: a card chosen (`red_two#2`), the card of an action
    (`aka@buy:chochin#3`, `play_card:red_one`); none for a payment or a plain word."""
    if isinstance(option, list):
        return [card for item in option for card in option_cards(item, instances, definitions)]
    if not isinstance(option, str):
        return []
    if option in instances or option in definitions:
        return [option]
    card = window_option(option)[2]
    return [card] if card and (card in instances or card in definitions) else []


def card_lines(game, text, card: str, indent: str = "  ") -> list[str]:
    """A card as the player reads it: its name and attributes on one line, its text below."""
    definition = game.definition
    card_id = card.split("#", 1)[0]
    spec = definition.cards.get(card_id, {})
    words = []
    for attribute in definition.manifest.get("card_attributes") or {}:
        value = spec.get(attribute)
        if value is None or value is False:  # a flag the card lacks says nothing
            continue
        label = text.option(attribute)
        words.append(label if value is True else f"{label} {_value(text, value)}")
    tokens = (game.view["cards"].get(card) or {}).get("tokens") or {}
    words += [f"{text.name(token)} {count}" for token, count in tokens.items() if count]
    name = str(text.name(card))
    lines = [indent + (text.message("card_details", {"card": card, "attributes": " · ".join(
        words)}) if words else name)]
    said = text.form(card, "text")
    if said:
        lines.append(indent + "  " + str(said).strip())
    return lines


def _value(text, value: Any) -> str:
    """An attribute's value: a word (a colour) as the locale names it, a number as it is."""
    return text.option(value) if isinstance(value, str) else str(value)


def cards_in_view(game, text, seat: list[str], pile_shown: int = 8) -> list[str]:
    """Every card the seat's powers may see, zone by zone: their own piles first, then the
    shared and the other powers' public ones (the first `pile_shown` cards of each, then how
    many more), each headed by its name."""
    definition, state = game.definition, game.view
    seen, played = set(seat), {p for powers in state["seats"] for p in powers} | {""}
    piles = [(zone, holder, cards) for zone in definition.zones
             for holder, cards in state["zones"].get(zone, {}).items()
             if cards and holder in played]
    piles.sort(key=lambda pile: pile[1] not in seen)  # the player's own first, else in order
    lines = []
    for zone, holder, cards in piles:
        shown = [c for c in cards
                 if may_see(definition, zone, holder, state["cards"].get(c) or {}, seen)]
        if not shown:
            continue
        # whose pile: the player's own is theirs, unless the seat holds several powers
        label = text.message("zone_of_power", {"zone": zone, "power": holder}) \
            if holder and (holder not in seen or len(seen) > 1) else str(text.name(zone))
        more = len(shown) - pile_shown if holder not in seen else 0  # a whole discard pile
        lines.append(label)
        lines += [line for card in (shown[:pile_shown] if more > 0 else shown)
                  for line in card_lines(game, text, card)]
        if more > 0:
            lines.append(f"  (+{more})")
    return lines
