"""The registry of the effect language's functions and verbs.

Each entry is registered once with its parameter kinds. The compiler uses the kinds to resolve
names at compile time (a `counter` parameter looks its argument up among counters, with "did
you mean" on a miss); the docs test checks every entry is documented. Functions compute values;
verbs change the state and are used as statements.

Parameter kinds: entity namespaces (power, space, zone, counter, flag, setting, piece, marker,
table, card) or `int`, `bool`, `text`, `list`, `any`. A trailing `?` marks an optional one.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .payment import payment_options
from .runtime import Context, Decision, GameOver, Illegal, RuleError, Where

ENTITY_KINDS = ("power", "space", "zone", "counter", "flag", "setting", "piece", "marker",
                "table", "card")


@dataclass(frozen=True)
class Builtin:
    name: str
    params: tuple[str, ...]
    fn: Callable[..., Any]
    verb: bool
    doc: str

    @property
    def required(self) -> int:
        return sum(1 for p in self.params if not p.endswith("?"))

    def kind(self, index: int) -> str:
        return self.params[min(index, len(self.params) - 1)].rstrip("?")


REGISTRY: dict[str, Builtin] = {}


def _register(name: str, params: str, verb: bool):
    def wrap(fn):
        REGISTRY[name] = Builtin(name, tuple(params.split()) if params else (), fn, verb,
                                 (fn.__doc__ or "").strip())
        return fn
    return wrap


def function(name: str, params: str = ""):
    return _register(name, params, verb=False)


def verb(name: str, params: str = ""):
    return _register(name, params, verb=True)


# --- aggregates and arithmetic -------------------------------------------------------------

@function("count", "any")
def _count(ctx: Context, w: Where, value):
    """Number of items in a list (a number is returned as is)."""
    return value if isinstance(value, int) else len(value)


@function("sum", "list")
def _sum(ctx, w, values):
    """Sum of a list of numbers."""
    return sum(values)


@function("min", "list")
def _min(ctx, w, values):
    """Smallest of a list of numbers (0 for an empty list)."""
    return min(values, default=0)


@function("max", "list")
def _max(ctx, w, values):
    """Largest of a list of numbers (0 for an empty list)."""
    return max(values, default=0)


@function("ceil", "any")
def _ceil(ctx, w, value):
    """Round up to a whole number: `ceil(m / 2)`."""
    return math.ceil(value)


@function("floor", "any")
def _floor(ctx, w, value):
    """Round down to a whole number."""
    return math.floor(value)


# --- queries -------------------------------------------------------------------------------

@function("spaces")
def _spaces(ctx, w):
    """Every space, in map order."""
    return list(ctx.game.space_ids)


@function("powers")
def _powers(ctx, w):
    """Every power, in manifest order."""
    return list(ctx.game.power_ids)


@function("player_powers")
def _player_powers(ctx, w):
    """Powers controlled by a player in this game, in seat order."""
    return [p for seat in ctx.state["seats"] for p in seat]


@function("pieces", "piece power? space?")
def _pieces(ctx, w, piece, power=None, space=None):
    """How many pieces of a kind stand on the map — of one power, in one space, or all."""
    total = 0
    spaces = [space] if space is not None else ctx.game.space_ids
    for sid in spaces:
        for owner, kinds in ctx.state["spaces"][sid]["pieces"].items():
            if power is None or owner == power:
                total += kinds.get(piece, 0)
    return total


@function("cards", "zone power?")
def _cards(ctx, w, zone, power=None):
    """The cards in a zone (of a power, for per-power zones), top first."""
    return list(_zone(ctx, w, zone, power))


@function("counter", "counter power?")
def _counter(ctx, w, counter, power=None):
    """A counter's value (per-power counters need the power)."""
    values = ctx.state["counters"][counter]
    return values[_need_power(ctx, w, counter, power)] if isinstance(values, dict) else values


@function("flag", "flag")
def _flag(ctx, w, flag):
    """Whether a flag is set."""
    return ctx.state["flags"][flag]


@function("setting", "setting")
def _setting(ctx, w, setting):
    """A game setting's value (the player count is `players`)."""
    return ctx.state["settings"][setting]


@function("rows", "table")
def _rows(ctx, w, table):
    """The rows of a data table; read a row's cells as `row.column`."""
    return list(ctx.game.tables[table])


@function("adjacent", "space space")
def _adjacent(ctx, w, a, b):
    """Whether a connection leads from the first space to the second."""
    return b in ctx.game.neighbours.get(a, ())


@function("neighbours", "space")
def _neighbours(ctx, w, space):
    """The spaces a connection leads to from this one."""
    return list(ctx.game.neighbours.get(space, ()))


@function("owner_of", "card")
def _owner_of(ctx, w, card):
    """The power owning a card."""
    return ctx.state["cards"][card]["owner"]


@function("tokens", "card text")
def _tokens(ctx, w, card, kind):
    """How many tokens of a kind lie on a card."""
    return ctx.state["cards"][card]["tokens"].get(kind, 0)


# --- verbs: counters, flags, markers ------------------------------------------------------

@verb("gain", "counter power int")
def _gain(ctx, w, counter, power, amount):
    """Add to a power's counter (clamped to its bounds)."""
    _set_counter(ctx, w, counter, power, _counter(ctx, w, counter, power) + amount)


@verb("lose", "counter power int")
def _lose(ctx, w, counter, power, amount):
    """Take from a power's counter (clamped to its bounds)."""
    _set_counter(ctx, w, counter, power, _counter(ctx, w, counter, power) - amount)


@verb("set_counter", "counter power int")
def _set_counter(ctx, w, counter, power, value):
    """Set a counter (clamped to its declared bounds)."""
    spec = ctx.game.counters[counter]
    value = max(spec.get("min", value), min(spec.get("max", value), value))
    values = ctx.state["counters"][counter]
    if isinstance(values, dict):
        values[_need_power(ctx, w, counter, power)] = value
    else:
        ctx.state["counters"][counter] = value


@verb("set_flag", "flag bool")
def _set_flag(ctx, w, flag, value):
    """Set or clear a flag."""
    ctx.state["flags"][flag] = bool(value)


@verb("set_marker", "space marker any")
def _set_marker(ctx, w, space, marker, value):
    """Set a marker in a space (`set_marker(a, level, 2)`)."""
    spec = ctx.game.markers[marker]
    if spec["type"] == "integer":
        low, high = spec.get("min", value), spec.get("max", value)
        if not low <= value <= high:
            raise RuleError("rules/out-of-range",
                            f"{marker} of {space} cannot be {value} ({low}–{high})", w)
    ctx.state["spaces"][space]["markers"][marker] = value


# --- verbs: pieces ------------------------------------------------------------------------

@verb("place", "piece int space power")
def _place(ctx, w, piece, amount, space, power):
    """Put pieces of a power into a space."""
    kinds = ctx.state["spaces"][space]["pieces"].setdefault(power, {})
    kinds[piece] = kinds.get(piece, 0) + amount


@verb("remove", "piece int space power")
def _remove(ctx, w, piece, amount, space, power):
    """Take pieces of a power off a space; removing more than stand there is an error."""
    kinds = ctx.state["spaces"][space]["pieces"].get(power, {})
    have = kinds.get(piece, 0)
    if amount > have:
        raise RuleError("rules/not-enough-pieces",
                        f"cannot remove {amount} {piece} of {power} from {space}: {have} there", w)
    kinds[piece] = have - amount
    if not kinds[piece]:
        del kinds[piece]


@verb("move_pieces", "piece int space space power")
def _move_pieces(ctx, w, piece, amount, source, target, power):
    """Move pieces of a power from one space to another."""
    _remove(ctx, w, piece, amount, source, power)
    _place(ctx, w, piece, amount, target, power)


# --- verbs: cards ---------------------------------------------------------------------------

def _zone(ctx, w, zone, power) -> list:
    holder = ctx.state["zones"][zone]
    if ctx.game.zones[zone].get("per", "game") == "power":
        return holder[_need_power(ctx, w, zone, power)]
    return holder[""]


def _need_power(ctx, w, what, power):
    if power is None:
        raise RuleError("effect/missing-power", f"`{what}` is kept per power: name the power", w)
    return power


def _detach(ctx, card) -> None:
    """Take a card out of wherever it is: a zone, or under another card."""
    info = ctx.state["cards"][card]
    below = info.get("below")
    if below is not None:
        ctx.state["cards"][below]["under"].remove(card)
        info["below"] = None
        return
    old_zone, old_power = info["zone"]
    if old_zone is not None:  # a card out of play (a scenario set it aside) just enters
        ctx.state["zones"][old_zone][old_power].remove(card)


@verb("move_card", "card zone power? text?")
def _move_card(ctx, w, card, zone, power=None, position="top"):
    """Move a card to a zone (top, or "bottom"); a private zone of another power is refused."""
    info = ctx.state["cards"][card]
    target_power = power if ctx.game.zones[zone].get("per", "game") == "power" else ""
    if target_power is None:
        target_power = info["owner"]
    private = ctx.game.zones[zone].get("private")
    if private and info["owner"] and target_power not in ("", info["owner"]):
        raise RuleError("rules/card-passing",
                        f"{card} belongs to {info['owner']}: it cannot go to {target_power}'s "
                        f"{zone}", w)
    if private and not info["owner"]:
        info["owner"] = target_power  # a card nobody owned (market, pile) is taken
    elif not private and target_power == "" and not ctx.game.cards[info["card"]].get("owner"):
        info["owner"] = ""  # back to a shared place: nobody's again
    _detach(ctx, card)
    pile = ctx.state["zones"][zone][target_power]
    pile.insert(0, card) if position == "top" else pile.append(card)
    info["zone"] = [zone, target_power]


@verb("shuffle", "zone power?")
def _shuffle(ctx, w, zone, power=None):
    """Shuffle a zone with the game's seeded generator."""
    pile = _zone(ctx, w, zone, power)
    ctx.game.rng_shuffle(ctx.state, pile)


@verb("move_all", "zone zone power?")
def _move_all(ctx, w, source, target, power=None):
    """Move every card of one zone into another, keeping their order."""
    for card in list(_zone(ctx, w, source, power)):
        _move_card(ctx, w, card, target, power, "bottom")


def _draw(ctx, w, amount, source, target, power, refill: bool):
    drawn = 0
    for _ in range(amount):
        pile = _zone(ctx, w, source, power)
        if not pile and refill:
            procedure = ctx.game.zones[source].get("empty")
            if procedure:
                ctx.game.call(ctx, procedure, [power], w)
                pile = _zone(ctx, w, source, power)
        if not pile:
            break
        _move_card(ctx, w, pile[0], target, power)
        drawn += 1
    return drawn


@verb("draw", "int zone zone power")
def _draw_verb(ctx, w, amount, source, target, power):
    """Draw cards from the top of one zone into another; an empty source runs its `empty`
    procedure (e.g. reshuffle the discard) and drawing goes on."""
    _draw(ctx, w, amount, source, target, power, refill=True)


@verb("draw_if_possible", "int zone zone power")
def _draw_if_possible(ctx, w, amount, source, target, power):
    """Draw as `draw`, but an empty source ends the drawing: no `empty` procedure runs."""
    _draw(ctx, w, amount, source, target, power, refill=False)


@verb("put_tokens", "card text int")
def _put_tokens(ctx, w, card, kind, amount):
    """Lay tokens of a kind on a card (negative amounts take them off)."""
    tokens = ctx.state["cards"][card]["tokens"]
    value = tokens.get(kind, 0) + amount
    if value < 0:
        raise RuleError("rules/not-enough-tokens", f"{card} carries no {kind} token to take", w)
    tokens[kind] = value
    if not value:
        del tokens[kind]


# --- verbs: dice, log, end ---------------------------------------------------------------

@function("roll", "int")
def _roll(ctx, w, dice):
    """Roll six-sided dice with the game's generator; the dice are logged one by one."""
    results = [ctx.game.rng_int(ctx.state, 1, 6) for _ in range(dice)]
    ctx.state["log"].append({"key": "dice", "args": {"dice": results}})
    return results


@verb("log", "text any? any? any? any?")
def _log(ctx, w, key, *args):
    """Add a localised line to the log: a message key and its arguments."""
    ctx.state["log"].append({"key": key, "args": {f"a{i}": a for i, a in enumerate(args)}})


@verb("end_game", "text")
def _end_game(ctx, w, reason):
    """End the game at once with a reason key; later steps of the effect never happen."""
    ctx.state["ended"] = reason
    raise GameOver(reason)


# --- verbs: payment and signals --------------------------------------------------------

@verb("pay", "counter power int")
def _pay(ctx, w, counter, power, amount):
    """Pay a cost from a power's counters, using the game's declared conversions; the payer
    chooses when there is more than one way, and a cost that cannot be paid is illegal."""
    balances = _balances(ctx, w, counter, power)
    options = payment_options(balances, counter, amount, ctx.game.conversions)
    if not options:
        raise Illegal("rules/cannot-pay", f"{power} cannot pay {amount} {counter}", w)
    choice = options[0]
    if len(options) > 1:
        choice = ctx.ask(Decision(power, "pay", options, rule=w.rule), w)
        if choice not in options:
            raise Illegal("rules/illegal-choice", f"`{choice}` is not a way to pay", w)
    for spent, value in choice.items():
        values = ctx.state["counters"][spent]
        values[power] -= value


@function("can_pay", "counter power int")
def _can_pay(ctx, w, counter, power, amount):
    """Whether a power could pay a cost, counting the declared conversions."""
    balances = _balances(ctx, w, counter, power)
    return bool(payment_options(balances, counter, amount, ctx.game.conversions))


def _balances(ctx, w, counter, power) -> dict[str, int]:
    """The payer's counters that can pay `counter`: itself and its declared substitutes."""
    names = [counter] + [c["with"] for c in ctx.game.conversions if c["pay"] == counter]
    return {name: _counter(ctx, w, name, power) for name in names}


@verb("signal", "text")
def _signal(ctx, w, event):
    """Announce a game event by name; triggers declared with `on: <event>` run now."""
    if ctx.signal is not None:
        ctx.signal(ctx, event, w)



# --- more queries: seats, alliances, pieces, memory --------------------------------------

@function("seat_of", "power")
def _seat_of(ctx, w, power):
    """The powers sharing a player with this one (itself alone if it has no seat)."""
    for seat in ctx.state["seats"]:
        if power in seat:
            return list(seat)
    return [power]


@function("clockwise_from", "power")
def _clockwise_from(ctx, w, power):
    """Seated players' first powers in clockwise order, starting with this power's seat."""
    firsts = [seat[0] for seat in ctx.state["seats"]]
    start = next((i for i, seat in enumerate(ctx.state["seats"]) if power in seat), 0)
    return firsts[start:] + firsts[:start]


@function("located", "piece")
def _located(ctx, w, piece):
    """The space a named (unique) piece stands in, or none."""
    for sid in ctx.game.space_ids:
        for kinds in ctx.state["spaces"][sid]["pieces"].values():
            if kinds.get(piece):
                return sid
    return None


@function("named_pieces", "power")
def _named_pieces(ctx, w, power):
    """The unique pieces (leaders) a power owns, wherever they are."""
    return [p for p, spec in ctx.game.pieces.items() if spec.get("unique")
            and spec.get("owner") == power]


@function("random_pick", "list int")
def _random_pick(ctx, w, items, amount):
    """Pick that many items at random with the game's seeded generator."""
    pool = list(items)
    ctx.game.rng_shuffle(ctx.state, pool)
    return pool[:amount]


@verb("remember", "text any")
def _remember(ctx, w, key, value):
    """Keep a value under a name, to be read later with `recalled` (judge a later step by how
    things stood earlier)."""
    ctx.state.setdefault("memory", {})[key] = value


@function("recalled", "text")
def _recalled(ctx, w, key):
    """A value kept with `remember` (none if nothing was kept)."""
    return ctx.state.get("memory", {}).get(key)


@function("markers_now", "marker")
def _markers_now(ctx, w, marker):
    """A marker's value in every space, as a mapping space -> value (a snapshot to remember)."""
    return {sid: ctx.state["spaces"][sid]["markers"].get(marker) for sid in ctx.game.space_ids}


@function("lookup", "any any")
def _lookup(ctx, w, mapping, key):
    """The value under a key of a mapping (none when absent)."""
    return mapping.get(key) if isinstance(mapping, dict) else None


@function("abs", "int")
def _abs(ctx, w, value):
    """Absolute value."""
    return abs(value)



# --- ordering and cards' events ---------------------------------------------------------

def order_powers(game, state, powers, counter, descending=True, nonplayers_first=False):
    """Powers sorted by a counter (ties by each power's tie_break); optionally powers no
    player controls first, in manifest order."""
    values = state["counters"][counter]
    sign = -1 if descending else 1
    seated = {p for seat in state["seats"] for p in seat}
    ranked = sorted((p for p in powers if p in seated or not nonplayers_first),
                    key=lambda p: (sign * values[p], game.powers[p].get("tie_break", 0)))
    if not nonplayers_first:
        return ranked
    return [p for p in powers if p not in seated] + ranked


@function("by_counter", "list counter bool")
def _by_counter(ctx, w, powers, counter, descending):
    """Powers ordered by a counter, highest first when `descending`; ties by tie_break."""
    return order_powers(ctx.game, ctx.state, list(powers), counter, descending)


@function("nonplayer_powers")
def _nonplayer_powers(ctx, w):
    """Powers no player controls in this game, in manifest order."""
    seated = {p for seat in ctx.state["seats"] for p in seat}
    return [p for p in ctx.game.power_ids if p not in seated]


@function("has_event", "card")
def _has_event(ctx, w, card):
    """Whether a card has an event."""
    return ctx.state["cards"][card]["card"] in ctx.game.card_events


@function("event_allowed", "card")
def _event_allowed(ctx, w, card):
    """Whether a card's event may be played now: its `condition` holds (judged for the card's
    owner; true when the card has none)."""
    definition = ctx.state["cards"][card]["card"]
    condition = ctx.game.card_conditions.get(definition)
    if condition is None:
        return definition in ctx.game.card_events
    saved = ctx.me
    ctx.me = ctx.state["cards"][card]["owner"] or saved
    try:
        return bool(condition(ctx, [card]))
    finally:
        ctx.me = saved


@verb("play_event", "card")
def _play_event(ctx, w, card):
    """Carry out a card's event (`card` is the card, `me` its player)."""
    event = ctx.game.card_events.get(ctx.state["cards"][card]["card"])
    if event is None:
        raise RuleError("rules/no-event", f"{card} has no event", w)
    saved = ctx.me
    ctx.me = ctx.state["cards"][card]["owner"] or saved
    try:
        event(ctx, [card])
    finally:
        ctx.me = saved



@function("visibility", "zone")
def _visibility(ctx, w, zone):
    """Who may see a zone's cards: "public", "owner" or "hidden" (counts are always public)."""
    return ctx.game.zones[zone].get("visibility", "public")



# --- things under cards, abilities, winners ----------------------------------------------

@verb("slip_under", "card card")
def _slip_under(ctx, w, card, target):
    """Slip a card under another; it travels with it until taken off (`under(card)`)."""
    _detach(ctx, card)
    info = ctx.state["cards"][card]
    info["zone"], info["below"] = [None, None], target
    ctx.state["cards"][target]["under"].append(card)


@function("under", "card")
def _under(ctx, w, card):
    """The cards slipped under a card."""
    return list(ctx.state["cards"][card]["under"])


@function("has_ability", "card text")
def _has_ability(ctx, w, card, kind):
    """Whether a card has an ability of that kind (the `kind` its definition gives)."""
    abilities = ctx.game.card_abilities.get(ctx.state["cards"][card]["card"], {})
    return any(a["kind"] == kind for a in abilities.values())


@verb("use_ability", "card text")
def _use_ability(ctx, w, card, kind):
    """Carry out a card's ability of that kind (`card` is the card, `me` the user)."""
    abilities = ctx.game.card_abilities.get(ctx.state["cards"][card]["card"], {})
    found = [a for a in abilities.values() if a["kind"] == kind]
    if not found:
        raise RuleError("rules/no-ability", f"{card} has no {kind} ability", w)
    found[0]["run"](ctx, [card])


@verb("set_winner", "power")
def _set_winner(ctx, w, power):
    """Name the winner (when the game's end decides it otherwise than by score)."""
    ctx.state["winner"] = power
