"""The effect language's functions: queries over the game that compute values and change
nothing (aggregates, spaces, pieces, cards, counters, seats, payments that could be made)."""

from __future__ import annotations

import math

from .arguments import shown
from .card_enums import declared_enum
from .errors import did_you_mean
from .limits import charge
from .payment import minimal_payments, payable_with_one
from .registry import function
from .runtime import Context, RuleError, Where, looking


@function("count", "any", static=True, synonyms="len length size number", returns="int")
def _count(ctx: Context, w: Where, value):
    """Number of items in a list (a number is returned as is)."""
    return value if isinstance(value, int) else len(value)


@function("sum", "list", static=True, returns="int")
def _sum(ctx, w, values):
    """Sum of a list of numbers."""
    return sum(values)


@function("flatten", "list", static=True, returns="list", synonyms="concat join chain")
def _flatten(ctx, w, lists):
    """The items of a list of lists, in order, as one list: `flatten([[[p, s] for s in
    spaces()] for p in powers()])` lists every power with every space, as nested loops
    would."""
    items = []
    for inner in lists:
        if not isinstance(inner, list):
            raise RuleError("effect/type-error", "`flatten` takes a list of lists; an item is "
                            f"{shown(inner)}", w)
        items += inner
    charge(ctx, len(items), w)  # its work grows with the items: the step budget sees it
    return items


@function("min", "list", static=True)
def _min(ctx, w, values):
    """Smallest of a list of numbers (0 for an empty list)."""
    return min(values, default=0)


@function("max", "list", static=True)
def _max(ctx, w, values):
    """Largest of a list of numbers (0 for an empty list)."""
    return max(values, default=0)


@function("ceil", "any", static=True, returns="int")
def _ceil(ctx, w, value):
    """Round up to a whole number: `ceil(m / 2)`."""
    return math.ceil(value)


@function("floor", "any", static=True, returns="int")
def _floor(ctx, w, value):
    """Round down to a whole number."""
    return math.floor(value)


@function("spaces", static=True, returns="list:space")
def _spaces(ctx, w):
    """Every space, in map order."""
    return ctx.game.space_ids  # static data; the language has no way to change a list


@function("powers", static=True, returns="list:power")
def _powers(ctx, w):
    """Every power, in manifest order."""
    return ctx.game.power_ids


@function("player_powers", returns="list:power")
def _player_powers(ctx, w):
    """Powers controlled by a player in this game, in seat order."""
    return [p for seat in ctx.state["seats"] for p in seat]


_NONE: dict = {}  # no pieces of that power here (never written to)


@function("pieces", "piece power? space?", returns="int")
def _pieces(ctx, w, piece, power=None, space=None):
    """How many pieces of a kind stand on the map — of one power, in one space, or all."""
    if space is not None and power is not None:  # the usual question: answered directly
        return ctx.state["spaces"][space]["pieces"].get(power, _NONE).get(piece, 0)
    total = 0
    spaces = [space] if space is not None else ctx.game.space_ids
    for sid in spaces:
        for owner, kinds in ctx.state["spaces"][sid]["pieces"].items():
            if power is None or owner == power:
                total += kinds.get(piece, 0)
    return total


@function("cards", "zone power?", returns="list:card")
def _cards(ctx, w, zone, power=None):
    """The cards in a zone (of a power, for per-power zones), top first."""
    return list(_zone(ctx, w, zone, power))


@function("counter", "counter power?", synonyms="get value", returns="int")
def _counter(ctx, w, counter, power=None):
    """A counter's value (per-power counters need the power)."""
    values = ctx.state["counters"][counter]
    if values.__class__ is not dict:
        return values
    return values[power if power is not None else _need_power(ctx, w, counter, power)]


@function("flag", "flag", returns="bool")
def _flag(ctx, w, flag):
    """Whether a flag is set."""
    return ctx.state["flags"][flag]


@function("setting", "setting")
def _setting(ctx, w, setting):
    """A game setting's value (the player count is `players`)."""
    return ctx.state["settings"][setting]


@function("rows", "table", static=True, returns="list:row")
def _rows(ctx, w, table):
    """The rows of a data table; read a row's cells as `row.column`."""
    return ctx.game.tables[table]


@function("row_for", "table int", static=True, synonyms="row lookup find range roll result",
          returns="row")
def _row_for(ctx, w, table, value):
    """The row of a table keyed by ranges (its column of type `range`: `1-2`, `6`, `7+`) whose
    range holds a number: `row_for(combat, roll(1)[0]).result`. A number no row holds stops
    the game with an error naming the table and the number."""
    index = ctx.game.table_ranges.get(table)
    if index is None:
        raise RuleError("effect/no-range-column", f"table `{table}` has no range column (a "
                        "column of type `range`) to find a row by: read it with `rows`", w)
    row = index.find(value)
    if row is None:
        raise RuleError("rules/no-table-row", f"no row of table `{table}` holds {value} (its "
                        f"`{index.column}` ranges: {index.described() or 'none'})", w)
    return row


@function("adjacent", "space space", static=True, returns="bool")
def _adjacent(ctx, w, a, b):
    """Whether a connection leads from the first space to the second."""
    return b in ctx.game.neighbours.get(a, ())


@function("neighbours", "space text?", static=True, returns="list:space",
          choices={1: "enum:connection kind"})
def _neighbours(ctx, w, space, kind=None):
    """The spaces a connection leads to from this one; given a connection kind, only those
    a connection of that kind leads to: `neighbours(s, "river")`."""
    if kind is None:
        return list(ctx.game.neighbours.get(space, ()))
    found = ctx.game.neighbours_by_kind.get((space, kind))
    if found is None and kind not in ctx.game.connection_kinds:
        # a kind worked out in play (a literal one is refused at validation): no connection
        # of a kind the game does not declare exists, so it is a mistake, not an empty list
        raise RuleError("effect/type-error", f"`neighbours` takes a connection kind the game "
                        f"declares ({', '.join(ctx.game.connection_kinds) or 'none'}), not "
                        f"{shown(kind)}" + did_you_mean(kind, ctx.game.connection_kinds), w)
    return list(found or ())


@function("connection_kind", "space space", static=True, synonyms="crossing edge link border",
          returns="enum:connection kind")
def _connection_kind(ctx, w, a, b):
    """The kind of the connection leading from the first space to the second (none when
    none leads there, or it has no kind): `connection_kind(s, t) == "river"`."""
    return ctx.game.crossings.get(a, _NONE).get(b)


@function("owner_of", "card", returns="power")
def _owner_of(ctx, w, card):
    """The power owning a card (none: nobody's)."""
    return ctx.state["cards"][card]["owner"] or None  # "" in the state


@function("tokens", "card text", returns="int")
def _tokens(ctx, w, card, kind):
    """How many tokens of a kind lie on a card."""
    return ctx.state["cards"][card]["tokens"].get(kind, 0)


def _zone(ctx, w, zone, power) -> list:
    holder = ctx.state["zones"][zone]
    if zone in ctx.game.per_power_zones:
        return holder[power if power is not None else _need_power(ctx, w, zone, power)]
    return holder[""]


def _need_power(ctx, w, what, power):
    if power is None:
        raise RuleError("effect/missing-power", f"`{what}` is kept per power: name the power", w)
    return power


@function("can_pay", "counter power count", returns="bool", none_for="power")
def _can_pay(ctx, w, counter, power, amount):
    """Whether a power could pay a cost, counting the declared conversions."""
    substitutes = ctx.game.substitutes.get(counter, ())
    if len(substitutes) > 1:
        return bool(_payment_options(ctx, w, counter, power, amount))
    # none or one substitute (the usual cases): the balances read as `_payment_options` reads
    # them, and the answer worked out without listing the ways (payment.payable_with_one)
    counters = ctx.state["counters"]
    values = counters[counter]
    have = values if values.__class__ is not dict \
        else values[power if power is not None else _need_power(ctx, w, counter, power)]
    if not substitutes:
        return amount <= 0 or have >= amount
    substitute, rate = substitutes[0]
    values = counters[substitute]
    return payable_with_one(have, amount,
                            values if values.__class__ is not dict else values[power], rate)


def _payment_options(ctx, w, counter, power, amount) -> list[dict[str, int]]:
    """Every minimal way for `power` to pay `amount` of `counter` from what it has now: the
    counter itself and its declared substitutes (payment.py)."""
    substitutes = ctx.game.substitutes.get(counter, ())
    counters = ctx.state["counters"]
    values = counters[counter]
    balances = {counter: values if values.__class__ is not dict
                else values[power if power is not None else _need_power(ctx, w, counter, power)]}
    for name, _ in substitutes:
        values = counters[name]
        balances[name] = values if values.__class__ is not dict else values[power]
    return minimal_payments(balances, counter, amount, substitutes)


@function("seat_of", "power", returns="list:power")
def _seat_of(ctx, w, power):
    """The powers sharing a player with this one (itself alone if it has no seat)."""
    for seat in ctx.state["seats"]:
        if power in seat:
            return list(seat)
    return [power]


@function("clockwise_from", "power", returns="list:power")
def _clockwise_from(ctx, w, power):
    """Seated players' first powers in clockwise order, starting with this power's seat."""
    firsts = [seat[0] for seat in ctx.state["seats"]]
    start = next((i for i, seat in enumerate(ctx.state["seats"]) if power in seat), 0)
    return firsts[start:] + firsts[:start]


@function("located", "piece", returns="space")
def _located(ctx, w, piece):
    """The space a named (unique) piece stands in, or none."""
    for sid, space in ctx.state["spaces"].items():  # one space at most holds it: any order
        for kinds in space["pieces"].values():
            if kinds.get(piece):
                return sid
    return None


@function("named_pieces", "power", static=True, returns="list:piece")
def _named_pieces(ctx, w, power):
    """The unique pieces (leaders) a power owns, wherever they are."""
    return [p for p, spec in ctx.game.pieces.items() if spec.get("unique")
            and spec.get("owner") == power]


@function("random_pick", "list count", returns="list")
def _random_pick(ctx, w, items, amount):
    """Pick that many items at random with the game's seeded generator."""
    pool = list(items)
    ctx.game.rng_shuffle(ctx.state, pool)
    return pool[:amount]


@function("recalled", "text")
def _recalled(ctx, w, key):
    """A value kept with `remember` (none if nothing was kept; a key the manifest's `memory`
    declares starts with its `initial` value, and is of its type: see "Checked before play")."""
    return ctx.state.get("memory", {}).get(key)


@function("markers_now", "marker")
def _markers_now(ctx, w, marker):
    """A marker's value in every space, as a mapping space -> value (a snapshot to remember)."""
    return {sid: ctx.state["spaces"][sid]["markers"].get(marker) for sid in ctx.game.space_ids}


@function("lookup", "any any")
def _lookup(ctx, w, mapping, key):
    """The value under a key of a mapping (none when absent)."""
    return mapping.get(key) if isinstance(mapping, dict) else None


@function("abs", "int", static=True, returns="int")
def _abs(ctx, w, value):
    """Absolute value."""
    return abs(value)


MAX_NUMBERS = 1000  # as many as `repeat` may run: a list of numbers is a bounded loop too


@function("numbers", "int int", static=True)
def _numbers(ctx, w, first, last):
    """The whole numbers from the first to the last, both included (an empty list when the
    last is smaller): the options of "name a number from 0 to 5"."""
    if not isinstance(first, int) or not isinstance(last, int) or isinstance(first, bool) \
            or isinstance(last, bool):
        raise RuleError("effect/type-error", f"numbers({first!r}, {last!r}) needs two whole "
                        "numbers", w)
    if last - first + 1 > MAX_NUMBERS:
        raise RuleError("effect/bad-repeat", f"numbers({first}, {last}) would list more than "
                        f"{MAX_NUMBERS:,} numbers", w)
    return list(range(first, last + 1))


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


@function("by_counter", "list counter bool", returns="list:power")
def _by_counter(ctx, w, powers, counter, descending):
    """Powers ordered by a counter, highest first when `descending`; ties by tie_break."""
    return order_powers(ctx.game, ctx.state, list(powers), counter, descending)


@function("nonplayer_powers", returns="list:power")
def _nonplayer_powers(ctx, w):
    """Powers no player controls in this game, in manifest order."""
    seated = {p for seat in ctx.state["seats"] for p in seat}
    return [p for p in ctx.game.power_ids if p not in seated]


@function("has_event", "card", returns="bool")
def _has_event(ctx, w, card):
    """Whether a card has an event."""
    return ctx.state["cards"][card]["card"] in ctx.game.card_events


@function("event_allowed", "card", returns="bool")
def _event_allowed(ctx, w, card):
    """Whether a card's event may be played now: its `condition` holds (judged for the card's
    owner; true when the card has none)."""
    definition = ctx.state["cards"][card]["card"]
    condition = ctx.game.card_conditions.get(definition)
    if condition is None:
        return definition in ctx.game.card_events
    owner = ctx.state["cards"][card]["owner"] or ctx.me
    # a condition only looks: it is judged on a lazy copy of the state (runtime.looking)
    return bool(condition(looking(ctx.game, ctx.state, owner), [card]))


@function("visibility", "zone", static=True, returns="text")
def _visibility(ctx, w, zone):
    """Who may see a zone's cards: "public", "owner" or "hidden" (counts are always public)."""
    return ctx.game.zones[zone].get("visibility", "public")


@function("under", "card", returns="list:card")
def _under(ctx, w, card):
    """The cards slipped under a card."""
    return list(ctx.state["cards"][card]["under"])


@function("has_ability", "card text", returns="bool")
def _has_ability(ctx, w, card, kind):
    """Whether a card has an ability of that kind (the `kind` its definition gives)."""
    return kind in ctx.game.ability_kinds.get(ctx.state["cards"][card]["card"], ())


@function("enum_values", "text", static=True, synonyms="values enum colours colors options")
def _enum_values(ctx, w, name):
    """The values a card attribute's `enum` declares, in the manifest's order:
    `enum_values("colour")` is every colour, for rules over each one. A name that declares no
    `enum` is `effect/no-enum`."""
    values, code, message = declared_enum(ctx.game.manifest, name)
    if values is None:
        raise RuleError(code, message, w)
    return list(values)
