"""The effect language's verbs: everything that changes the state (counters, flags, markers,
pieces, cards and the things on them, dice, the log, payments, the end of the game).

Every verb touches what it writes before writing it (`Context.touch`: a run copies a space, a
zone, a card… the first time it changes it, so a failed run leaves its start state as it was).
Only an isolated run has anything to copy, hence `if ctx.shared:` — it saves a call on the
hot path of every verb. The test suite checks, after every run, that no start state changed."""

from __future__ import annotations

from .limits import charge
from .queries import _counter, _need_power, _payment_options, _zone
from .registry import function, verb
from .runtime import Decision, GameOver, Illegal, RuleError


@verb("gain", "counter power int", synonyms="add increase earn give plus inc score")
def _gain(ctx, w, counter, power, amount):
    """Add to a power's counter (clamped to its bounds)."""
    _set_counter(ctx, w, counter, power, _counter(ctx, w, counter, power) + amount)


@verb("lose", "counter power int", synonyms="subtract sub decrease reduce minus dec deduct")
def _lose(ctx, w, counter, power, amount):
    """Take from a power's counter (clamped to its bounds)."""
    _set_counter(ctx, w, counter, power, _counter(ctx, w, counter, power) - amount)


@verb("set_counter", "counter power int", synonyms="set assign")
def _set_counter(ctx, w, counter, power, value):
    """Set a counter (clamped to its declared bounds)."""
    if ctx.shared:
        ctx.touch('counters', counter)
    low, high = ctx.game.counter_bounds[counter]
    value = low if value < low else high if value > high else value
    values = ctx.state["counters"][counter]
    if values.__class__ is dict:
        values[power if power is not None else _need_power(ctx, w, counter, power)] = value
    else:
        ctx.state["counters"][counter] = value


@verb("set_flag", "flag bool", synonyms="set raise clear")
def _set_flag(ctx, w, flag, value):
    """Set or clear a flag."""
    if ctx.shared:
        ctx.touch('flags')
    ctx.state["flags"][flag] = bool(value)


@verb("set_marker", "space marker any", synonyms="set mark")
def _set_marker(ctx, w, space, marker, value):
    """Set a marker in a space (`set_marker(a, level, 2)`)."""
    if ctx.shared:
        ctx.touch('spaces', space)
    spec = ctx.game.markers[marker]
    if spec["type"] == "integer":
        low, high = spec.get("min", value), spec.get("max", value)
        if not low <= value <= high:
            raise RuleError("rules/out-of-range",
                            f"{marker} of {space} cannot be {value} ({low}–{high})", w)
    ctx.state["spaces"][space]["markers"][marker] = value


@verb("place", "piece int space power", synonyms="put add deploy spawn")
def _place(ctx, w, piece, amount, space, power):
    """Put pieces of a power into a space."""
    if ctx.shared:
        ctx.touch('spaces', space)
    kinds = ctx.state["spaces"][space]["pieces"].setdefault(power, {})
    kinds[piece] = kinds.get(piece, 0) + amount


@verb("remove", "piece int space power", synonyms="kill eliminate delete destroy")
def _remove(ctx, w, piece, amount, space, power):
    """Take pieces of a power off a space; removing more than stand there is an error."""
    if ctx.shared:
        ctx.touch('spaces', space)
    kinds = ctx.state["spaces"][space]["pieces"].get(power, {})
    have = kinds.get(piece, 0)
    if amount > have:
        raise RuleError("rules/not-enough-pieces",
                        f"cannot remove {amount} {piece} of {power} from {space}: {have} there", w)
    kinds[piece] = have - amount
    if not kinds[piece]:
        del kinds[piece]


@verb("move_pieces", "piece int space space power", synonyms="move march")
def _move_pieces(ctx, w, piece, amount, source, target, power):
    """Move pieces of a power from one space to another."""
    _remove(ctx, w, piece, amount, source, power)
    _place(ctx, w, piece, amount, target, power)


def _detach(ctx, card) -> None:
    """Take a card out of wherever it is: a zone, or under another card."""
    info = ctx.state["cards"][card]
    below = info.get("below")
    if below is not None:
        if ctx.shared:
            ctx.touch('cards', below)
        ctx.state["cards"][below]["under"].remove(card)
        info["below"] = None
        return
    old_zone, old_power = info["zone"]
    if old_zone is not None:  # a card out of play (a scenario set it aside) just enters
        if ctx.shared:
            ctx.touch('zones', old_zone)
        ctx.state["zones"][old_zone][old_power].remove(card)


@verb("move_card", "card zone power? text?", synonyms="move discard put give")
def _move_card(ctx, w, card, zone, power=None, position="top"):
    """Move a card to a zone (top, or "bottom"); a private zone of another power is refused."""
    if ctx.shared:
        ctx.touch('zones', zone)
        ctx.touch('cards', card)
    info = ctx.state["cards"][card]
    target_power = _enter(ctx, w, card, info, zone, power)
    _detach(ctx, card)
    pile = ctx.state["zones"][zone][target_power]
    pile.insert(0, card) if position == "top" else pile.append(card)
    info["zone"] = [zone, target_power]


def _enter(ctx, w, card, info, zone, power) -> str:
    """Which holder of `zone` the card goes to; refuses passing an owned card to another
    power's private zone, and settles who owns it there."""
    game = ctx.game
    target_power = (info["owner"] if power is None else power) \
        if zone in game.per_power_zones else ""
    if zone in game.private_zones:
        owner = info["owner"]
        if owner and target_power not in ("", owner):
            raise RuleError("rules/card-passing",
                            f"{card} belongs to {owner}: it cannot go to {target_power}'s "
                            f"{zone}", w)
        if not owner:
            info["owner"] = target_power  # a card nobody owned (market, pile) is taken
    elif target_power == "" and not game.cards[info["card"]].get("owner"):
        info["owner"] = ""  # back to a shared place: nobody's again
    return target_power


@verb("shuffle", "zone power?", synonyms="mix")
def _shuffle(ctx, w, zone, power=None):
    """Shuffle a zone with the game's seeded generator."""
    if ctx.shared:
        ctx.touch('zones', zone)
    pile = _zone(ctx, w, zone, power)
    ctx.game.rng_shuffle(ctx.state, pile)


@verb("move_all", "zone zone power?")
def _move_all(ctx, w, source, target, power=None):
    """Move every card of one zone into another, keeping their order."""
    if ctx.shared:
        ctx.touch('zones', source, target)
    pile = _zone(ctx, w, source, power)
    cards = list(pile)
    if ctx.shared:
        ctx.touch('cards', *cards)
    pile.clear()  # all at once: moving them one by one would shift the list each time
    _arrive(ctx, w, cards, target, power, on_top=False)


def _arrive(ctx, w, cards: list, zone: str, power, on_top: bool) -> None:
    """Put cards just taken out of their zone into `zone`: each on top in turn (as if drawn
    one by one) or below the others, in order."""
    infos, holders = ctx.state["cards"], ctx.state["zones"][zone]
    game = ctx.game
    if power is not None and zone in game.per_power_zones:  # one holder for the whole batch
        private = zone in game.private_zones
        for card in cards:
            info = infos[card]
            if private and info["owner"] != power:
                _enter(ctx, w, card, info, zone, power)  # refuses, or takes ownership
            info["zone"] = [zone, power]
        pile = holders[power]
        if on_top:
            pile[:0] = cards[::-1]
        else:
            pile += cards
        return
    targets = [_enter(ctx, w, card, infos[card], zone, power) for card in cards]
    for card, holder in zip(cards, targets, strict=True):
        holders[holder].insert(0, card) if on_top else holders[holder].append(card)
        infos[card]["zone"] = [zone, holder]


@verb("draw", "int zone zone power", synonyms="take deal")
def _draw(ctx, w, amount, source, target, power, refill: bool = True):
    """Draw cards from the top of one zone into another; an empty source runs its `empty`
    procedure (e.g. reshuffle the discard) and drawing goes on."""
    # Cards move a batch at a time: as many as the source holds, then its `empty` procedure
    # (only with `refill`: `draw_if_possible` passes False), then the rest.
    if ctx.shared:
        ctx.touch('zones', source, target)
    drawn, pile = 0, _zone(ctx, w, source, power)
    while drawn < amount:
        if not pile:
            procedure = ctx.game.zones[source].get("empty") if refill else None
            if not procedure:
                break
            ctx.game.call(ctx, procedure, [power], w)
            pile = _zone(ctx, w, source, power)
            if not pile:
                break
        batch = pile[:amount - drawn]
        del pile[:len(batch)]
        if ctx.shared:
            ctx.touch('cards', *batch)
        _arrive(ctx, w, batch, target, power, on_top=True)
        drawn += len(batch)
    return drawn


@verb("draw_if_possible", "int zone zone power")
def _draw_if_possible(ctx, w, amount, source, target, power):
    """Draw as `draw`, but an empty source ends the drawing: no `empty` procedure runs."""
    _draw(ctx, w, amount, source, target, power, refill=False)


@verb("put_tokens", "card text int")
def _put_tokens(ctx, w, card, kind, amount):
    """Lay tokens of a kind on a card (negative amounts take them off)."""
    if ctx.shared:
        ctx.touch('cards', card)
    tokens = ctx.state["cards"][card]["tokens"]
    value = tokens.get(kind, 0) + amount
    if value < 0:
        raise RuleError("rules/not-enough-tokens", f"{card} carries no {kind} token to take", w)
    tokens[kind] = value
    if not value:
        del tokens[kind]


@function("roll", "int", synonyms="dice die random", returns="int")
def _roll(ctx, w, dice):
    """Roll six-sided dice with the game's generator; the dice are logged one by one."""
    charge(ctx, max(dice, 0), w)  # each die is work: `roll(10**9)` stops at the step budget
    if ctx.shared:
        ctx.touch('log')
    results = [ctx.game.rng_int(ctx.state, 1, 6) for _ in range(dice)]
    ctx.state["log"].append({"key": "dice", "args": {"dice": results}})
    return results


@verb("log", "text any? any? any? any?", synonyms="print say message show announce")
def _log(ctx, w, key, *args):
    """Add a localised line to the log: a message key and its arguments."""
    if ctx.shared:
        ctx.touch('log')
    ctx.state["log"].append({"key": key, "args": {f"a{i}": a for i, a in enumerate(args)}})


@verb("end_game", "text", synonyms="end finish stop over")
def _end_game(ctx, w, reason):
    """End the game at once with a reason key; later steps of the effect never happen."""
    ctx.state["ended"] = reason
    raise GameOver(reason)


@verb("pay", "counter power int", synonyms="spend cost", asks=True)
def _pay(ctx, w, counter, power, amount):
    """Pay a cost from a power's counters, using the game's declared conversions; the payer
    chooses when there is more than one way, and a cost that cannot be paid is illegal."""
    if ctx.shared:
        ctx.touch('counters', counter, *[name for name, _ in ctx.game.substitutes.get(counter, ())])
    options = _payment_options(ctx, w, counter, power, amount)
    if not options:
        raise Illegal("rules/cannot-pay", f"{power} cannot pay {amount} {counter}", w)
    choice = options[0]
    if len(options) > 1:
        choice = ctx.ask(Decision(power, "pay", options, rule=w.rule), w)
        if choice not in options:
            raise Illegal("rules/illegal-choice", f"`{choice}` is not a way to pay", w)
    counters = ctx.state["counters"]
    for spent, value in choice.items():
        if counters[spent].__class__ is dict:
            counters[spent][power] -= value
        else:  # a counter kept for the whole game, not per power
            counters[spent] -= value


@verb("signal", "text")
def _signal(ctx, w, event):
    """Announce a game event by name; triggers declared with `on_event: <event>` run now."""
    if ctx.signal is not None:
        ctx.signal(ctx, event, w)


@verb("remember", "text any")
def _remember(ctx, w, key, value):
    """Keep a value under a name, to be read later with `recalled` (judge a later step by how
    things stood earlier)."""
    if ctx.shared:
        ctx.touch('memory')
    ctx.state.setdefault("memory", {})[key] = value


@verb("play_event", "card", asks=True)
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


@verb("slip_under", "card card")
def _slip_under(ctx, w, card, target):
    """Slip a card under another; it travels with it until taken off (`under(card)`)."""
    if ctx.shared:
        ctx.touch('cards', card, target)
    _detach(ctx, card)
    info = ctx.state["cards"][card]
    info["zone"], info["below"] = [None, None], target
    ctx.state["cards"][target]["under"].append(card)


@verb("use_ability", "card text", asks=True)
def _use_ability(ctx, w, card, kind):
    """Carry out a card's ability of that kind (`card` is the card, `me` the user)."""
    abilities = ctx.game.card_abilities.get(ctx.state["cards"][card]["card"], {})
    found = [a for a in abilities.values() if a["kind"] == kind]
    if not found:
        raise RuleError("rules/no-ability", f"{card} has no {kind} ability", w)
    saved = ctx.me
    ctx.me = ctx.state["cards"][card]["owner"] or saved
    try:
        found[0]["run"](ctx, [card])
    finally:
        ctx.me = saved


@verb("set_winner", "power", synonyms="win winner victory")
def _set_winner(ctx, w, power):
    """Name the winner (when the game's end decides it otherwise than by score)."""
    ctx.state["winner"] = power
