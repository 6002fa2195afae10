"""The effect language's verbs: everything that changes the state (counters, flags, markers,
pieces, cards and the things on them, dice, the log, payments, the end of the game).

Every verb touches what it writes before writing it (`Context.touch`: a run copies a space, a
zone, a card… the first time it changes it, so a failed run leaves its start state as it was).
Only an isolated run has anything to copy, hence `if ctx.shared:` — it saves a call on the
hot path of every verb. The test suite checks, after every run, that no start state changed."""

from __future__ import annotations

from typing import Any

from .arguments import shown
from .limits import MAX_NUMBER, charge
from .plain_words import plain
from .queries import _counter, _located, _need_power, _payment_options, _zone
from .registry import function, verb
from .runtime import Decision, GameOver, Illegal, RuleError, answer_text


@verb("gain", "counter power int", synonyms="add increase earn give plus inc score",
      none_for="power")
def _gain(ctx, w, counter, power, amount):
    """Add to a power's counter (clamped to its bounds)."""
    _set_counter(ctx, w, counter, power, _counter(ctx, w, counter, power) + amount)


@verb("lose", "counter power int", synonyms="subtract sub decrease reduce minus dec deduct",
      none_for="power")
def _lose(ctx, w, counter, power, amount):
    """Take from a power's counter (clamped to its bounds)."""
    _set_counter(ctx, w, counter, power, _counter(ctx, w, counter, power) - amount)


@verb("set_counter", "counter power int", synonyms="set assign", none_for="power")
def _set_counter(ctx, w, counter, power, value):
    """Set a counter (clamped to its declared bounds)."""
    if ctx.shared:
        ctx.touch('counters', counter)
    low, high = ctx.game.counter_bounds[counter]
    value = low if value < low else high if value > high else value
    if not -MAX_NUMBER <= value <= MAX_NUMBER:  # a counter with no bound of its own
        raise RuleError("effect/too-large", f"counter `{counter}` would hold {value:,}; a "
                        f"counter holds at most ±10^15 (give it a `max`)", w)
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
    """Set a marker in a space (`set_marker(a, level, 2)`): a value of the marker's type (a
    whole number within its bounds, true or false, a power), or none to clear it."""
    if ctx.shared:
        ctx.touch('spaces', space)
    spec = ctx.game.markers[marker]
    if value is not None:
        _check_marker(ctx, w, spec, f"{marker} of {space}", value)
    ctx.state["spaces"][space]["markers"][marker] = value


def _check_marker(ctx, w, spec: dict, what: str, value) -> None:
    kind = spec.get("type")
    if kind == "integer":
        if value.__class__ is not int:
            raise RuleError("effect/type-error",
                            f"{what} is a whole number, not {shown(value)}", w)
        low, high = spec.get("min", value), spec.get("max", value)
        if not low <= value <= high:
            raise RuleError("rules/out-of-range",
                            f"{what} cannot be {value} ({low}–{high})", w)
    elif kind == "boolean" and value is not True and value is not False:
        raise RuleError("effect/type-error", f"{what} is true or false, not {shown(value)}", w)
    elif kind == "power" and value not in ctx.game.powers:
        raise RuleError("effect/type-error", f"{what} is a power, not {shown(value)}", w)


@verb("place", "piece count space power", synonyms="put add deploy spawn")
def _place(ctx, w, piece, amount, space, power):
    """Put pieces of a power into a space. A named piece (`unique`) exists once: placing a
    second one is refused (move it with `move_pieces`)."""
    if amount and ctx.game.pieces[piece].get("unique"):
        where = _located(ctx, w, piece)
        if amount > 1 or where is not None:
            there = f", and it stands in {where}" if where is not None else ""
            raise RuleError("rules/not-enough-pieces",
                            f"cannot place {amount} {piece}: a named piece exists once{there}",
                            w)
    if ctx.shared:
        ctx.touch('spaces', space)
    kinds = ctx.state["spaces"][space]["pieces"].setdefault(power, {})
    kinds[piece] = kinds.get(piece, 0) + amount


@verb("remove", "piece count space power", synonyms="kill eliminate delete destroy")
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


@verb("move_pieces", "piece count space space power", synonyms="move march")
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


@verb("move_card", "card zone power? text?", synonyms="move discard put give",
      choices={3: ("top", "bottom")})
def _move_card(ctx, w, card, zone, power=None, position="top"):
    """Move a card to a zone ("top", the default, or "bottom"); a private zone of another power
    is refused."""
    if position is None:
        position = "top"
    elif position != "top" and position != "bottom":
        raise RuleError("effect/type-error", '`move_card` puts a card on "top" or at the '
                        f'"bottom", not {shown(position)}', w)
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
    if not target_power and zone in game.per_power_zones:
        raise RuleError("effect/missing-power", f"{card} belongs to no power: name the power "
                        f"whose {zone} it goes to", w)
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
    game = ctx.game
    pile = ctx.state["zones"][zone][power] if power is not None \
        and zone in game.per_power_zones else _zone(ctx, w, zone, power)
    game.rng_shuffle(ctx.state, pile)


@verb("move_all", "zone zone power?")
def _move_all(ctx, w, source, target, power=None):
    """Move every card of one zone into another, keeping their order, under the cards
    already there."""
    if ctx.shared:
        ctx.touch('zones', source, target)
    pile = ctx.state["zones"][source][power] if power is not None \
        and source in ctx.game.per_power_zones else _zone(ctx, w, source, power)
    cards = pile[:]
    if ctx.shared:
        ctx.touch('cards', *cards)
    pile.clear()  # all at once: moving them one by one would shift the list each time
    _arrive(ctx, w, cards, target, power, False)


def _arrive(ctx, w, cards: list, zone: str, power, on_top: bool) -> None:
    """Put cards just taken out of their zone into `zone`: each on top in turn (as if drawn
    one by one) or below the others, in order."""
    state, game = ctx.state, ctx.game
    infos, holders = state["cards"], state["zones"][zone]
    if power is not None and zone in game.per_power_zones:  # one holder for the whole batch
        if zone in game.private_zones:
            for card in cards:
                info = infos[card]
                if info["owner"] != power:
                    _enter(ctx, w, card, info, zone, power)  # refuses, or takes ownership
                info["zone"] = [zone, power]
        else:
            for card in cards:
                infos[card]["zone"] = [zone, power]
        if on_top:
            holders[power][:0] = cards[::-1]
        else:
            holders[power] += cards
        return
    # every card's holder settled (or refused) before any moves; a loop, not a comprehension,
    # which would make this function's locals cells on every call, the batch path's too
    targets = []
    for card in cards:
        targets.append(_enter(ctx, w, card, infos[card], zone, power))
    for card, holder in zip(cards, targets, strict=True):
        holders[holder].insert(0, card) if on_top else holders[holder].append(card)
        infos[card]["zone"] = [zone, holder]


@verb("draw", "count zone zone power", synonyms="take deal", none_for="power")
def _draw(ctx, w, amount, source, target, power, refill: bool = True):
    """Draw cards from the top of one zone into another; an empty source runs its `empty`
    procedure (e.g. reshuffle the discard) and drawing goes on; a source still empty after it
    (nothing to reshuffle) ends the drawing, with fewer cards drawn, never an error (test
    `count(cards(hand, p))` where it matters). The power names whose pile of a
    per-power zone (source, target or both) is meant; it is never left out: between two
    shared zones it is `none` (`draw(1, pile, block, none)`)."""
    # Cards move a batch at a time: as many as the source holds, then its `empty` procedure
    # (only with `refill`: `draw_if_possible` passes False), then the rest.
    if ctx.shared:
        ctx.touch('zones', source, target)
    game = ctx.game
    # the pile read in place for a power's own pile (the usual draw), else through _zone
    direct = power is not None and source in game.per_power_zones
    drawn = 0
    pile = ctx.state["zones"][source][power] if direct else _zone(ctx, w, source, power)
    while drawn < amount:
        if not pile:
            procedure = game.zones[source].get("empty") if refill else None
            if not procedure:
                break
            game.call(ctx, procedure, [power], w)
            pile = ctx.state["zones"][source][power] if direct else \
                _zone(ctx, w, source, power)
            if not pile:
                break
        batch = pile[:amount - drawn]
        taken = len(batch)
        # each card drawn is work: a draw that never empties its source (a deck drawn into
        # itself) runs into the step budget instead of on for ever
        ctx.steps += taken
        if ctx.steps > ctx.budget:
            ctx.step(w)
        del pile[:taken]
        if ctx.shared:
            ctx.touch('cards', *batch)
        _arrive(ctx, w, batch, target, power, True)
        drawn += taken
    return drawn


@verb("draw_if_possible", "count zone zone power", none_for="power")
def _draw_if_possible(ctx, w, amount, source, target, power):
    """Draw as `draw`, but an empty source ends the drawing: no `empty` procedure runs."""
    _draw(ctx, w, amount, source, target, power, refill=False)


@verb("put_tokens", "card text int")
def _put_tokens(ctx, w, card, kind, amount):
    """Lay tokens of a kind on a card (negative amounts take them off)."""
    if amount == 0 and card in ctx.state["cards"]:
        return  # changes nothing: nothing to copy, nothing for a trigger to see
    if ctx.shared:
        ctx.touch('cards', card)
    tokens = ctx.state["cards"][card]["tokens"]
    value = tokens.get(kind, 0) + amount
    if value < 0:
        raise RuleError("rules/not-enough-tokens", f"{card} carries no {kind} token to take", w)
    tokens[kind] = value
    if not value:
        del tokens[kind]


@function("roll", "count", synonyms="dice die random", returns="list")
def _roll(ctx, w, dice):
    """Roll six-sided dice with the game's generator; the dice are logged one by one. A
    scenario says what the next dice show with `state: {dice: [4, 2]}`."""
    charge(ctx, max(dice, 0), w)  # each die is work: `roll(10**9)` stops at the step budget
    if ctx.shared:
        ctx.touch('log')
    state = ctx.state
    forced = state.get("dice")
    if forced:  # a scenario's `dice`: shown, in order, before the generator takes over
        results = forced[:dice]
        if len(forced) > dice:
            state["dice"] = forced[dice:]  # replaced, never changed in place: runs share it
        else:
            del state["dice"]
        results += [ctx.game.rng_int(state, 1, 6) for _ in range(dice - len(results))]
    else:
        results = [ctx.game.rng_int(state, 1, 6) for _ in range(dice)]
    ctx.state["log"].append({"key": "dice", "args": {"dice": results}})
    return results


# the values a log line or an ending may pass its message (`{a0}`…`{a7}`): a battle's line
# names both sides, the space, both rolls and both losses (four made a designer split it in two)
MESSAGE_ARGUMENTS = 8


@verb("log", "text" + " any?" * MESSAGE_ARGUMENTS, synonyms="print say message show announce")
def _log(ctx, w, key, *args):
    """Add a localised line to the log: a message key and its arguments (up to eight, `{a0}`
    to `{a7}` in the message)."""
    if ctx.shared:
        ctx.touch('log')
    ctx.state["log"].append({"key": key, "args": {f"a{i}": a for i, a in enumerate(args)}})


@verb("end_game", "text" + " any?" * MESSAGE_ARGUMENTS, synonyms="end finish stop over")
def _end_game(ctx, w, reason, *args):
    """End the game at once with a reason: a message key (the last line says why the game
    ended) and, as for `log`, its arguments (`end_game("bank_broken", me)`); later steps of
    the effect never happen (a statement after it in the same block is an
    `effect/unreachable` warning). `none` or an empty text is refused."""
    if not reason:
        raise RuleError("effect/type-error", "`end_game` needs a reason key, not an empty text",
                        w)
    ctx.state["ended"] = reason
    ctx.state["ended_args"] = {f"a{i}": a for i, a in enumerate(args)}
    raise GameOver(reason)


@verb("end_window", synonyms="end_turn close_window stop_turn pass_turn bust")
def _end_window(ctx, w):
    """End the action window the running action was taken in: the seat's window closes after
    this action, as after an action that is not `free` (a bust: "your turn ends now"), and
    its `after_window` procedure runs. The rest of the action still runs. Only in an action
    taken at a window (and what it calls); anywhere else it is an error."""
    if ctx.window is None:
        raise RuleError("rules/no-window", "`end_window()` ends the action window of the action "
                        "that calls it, and no action of a window is running here", w)
    ctx.window_ends = True


@verb("pay", "counter power count", synonyms="spend cost", asks=True, none_for="power")
def _pay(ctx, w, counter, power, amount):
    """Pay a cost from a power's counters, using the game's declared conversions; the payer
    chooses when there is more than one way, and a cost that cannot be paid is illegal."""
    if ctx.shared:
        ctx.touch('counters', counter, *[name for name, _ in ctx.game.substitutes.get(counter, ())])
    options = _payment_options(ctx, w, counter, power, amount)
    if not options:
        raise Illegal("rules/cannot-pay", f"{power} cannot pay {amount} {counter}", w,
                      wording=("cannot_pay", {"power": power, "amount": amount,
                                              "counter": counter}))
    choice = options[0]
    if len(options) > 1:
        choice = ctx.ask(Decision(power, "pay", options, rule=ctx.asker(w)), w)
        # one of the ways exactly: Python takes `true` and `1.0` for 1, a game may not
        if not any(_same_way(choice, way) for way in options):
            raise Illegal("rules/illegal-choice", f"`{answer_text(choice)}` is not a way to pay",
                          w)
    counters = ctx.state["counters"]
    for spent, value in choice.items():
        if counters[spent].__class__ is dict:
            counters[spent][power] -= value
        else:  # a counter kept for the whole game, not per power
            counters[spent] -= value


def _same_way(answer: Any, way: dict) -> bool:
    """Whether an answer is this way to pay: the same counters, each a whole number."""
    return answer.__class__ is dict and answer.keys() == way.keys() and all(
        value.__class__ is int and value == way[key] for key, value in answer.items())


@verb("signal", "text")
def _signal(ctx, w, event):
    """Announce a game event by name; triggers declared with `on_event: <event>` run now."""
    if ctx.signal is not None:
        ctx.signal(ctx, event, w)


@verb("remember", "text any")
def _remember(ctx, w, key, value):
    """Keep a value under a name, to be read later with `recalled` (judge a later step by how
    things stood earlier). A key the manifest's `memory` declares takes values of its type
    only (checked at validation)."""
    if ctx.shared:
        ctx.touch('memory')
    ctx.state.setdefault("memory", {})[key] = value


@verb("play_event", "card", asks=True)
def _play_event(ctx, w, card):
    """Carry out a card's event (`card` is the card, `me` its player)."""
    event = ctx.game.card_events.get(ctx.state["cards"][card]["card"])
    if event is None:
        raise RuleError("rules/no-event", f"{card} has no event", w)
    _run_on_card(ctx, card, event)


@verb("slip_under", "card card")
def _slip_under(ctx, w, card, target):
    """Slip a card under another; it travels with it until taken off (`under(card)`). A card
    cannot go under itself, nor under a card lying under it: both would leave play."""
    cards = ctx.state["cards"]
    holder = target
    while holder is not None:  # up from the target through the cards it lies under
        if holder == card:
            why = "itself" if target == card else f"{target}, which lies under it"
            raise RuleError("rules/slip-cycle", f"{card} cannot go under {why}", w)
        holder = cards[holder]["below"]
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
    _run_on_card(ctx, card, found[0]["run"])


# Python's errors that a value of the wrong kind causes inside an effect (`-x` of a text)
_PYTHON_ERRORS = (TypeError, KeyError, ValueError, IndexError, AttributeError, ZeroDivisionError)


def _run_on_card(ctx, card, effect) -> None:
    """Run a card's event or ability for the card's owner. A value its text cannot use is
    reported at the card's own text (its file and line), not at the call that played it."""
    saved, running = ctx.me, ctx.running
    ctx.me = ctx.state["cards"][card]["owner"] or saved
    ctx.running = ctx.state["cards"][card]["card"]  # what its questions are asked by
    try:
        effect(ctx, [card])
    except _PYTHON_ERRORS as exc:
        raise RuleError("effect/type-error", f"a value the card's text cannot use: {plain(exc)}",
                        effect.where) from None
    finally:
        ctx.me, ctx.running = saved, running


@verb("set_winner", "power", synonyms="win winner victory")
def _set_winner(ctx, w, power):
    """Name the winner (when the game's end decides it otherwise than by score)."""
    ctx.state["winner"] = power


@verb("set_winners", "list", synonyms="win together shared cooperative team victory")
def _set_winners(ctx, w, powers):
    """Name the powers that won together: a cooperative game's shared win (an empty list:
    nobody won)."""
    known = ctx.game.power_ids
    for power in powers:
        if power not in known:
            raise RuleError("effect/type-error", f"`{answer_text(power)}` is not a power: "
                            "set_winners takes a list of powers", w)
    shared = list(dict.fromkeys(powers))
    ctx.state["winner"] = shared if len(shared) > 1 else (shared[0] if shared else None)
