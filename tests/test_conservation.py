"""Conservation, as a property: every verb that moves cards, pieces or tokens, called with
generated arguments (right and wrong kinds, negative and oversized counts) on the tiny test
game, in sequences, either changes the totals exactly as the verb says or is refused with a
diagnostic — and a refused call changes nothing at all.

Cards are conserved: each card is in exactly one place (a zone's pile or under one other
card), its record agrees with that place, and every chain of cards under cards ends at a card
in a zone. Pieces appear and disappear only through `place` and `remove`, by the count given;
tokens change only through `put_tokens`, by the amount given; nothing is ever negative.
"""

from __future__ import annotations

import copy
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ludex.compiler import Compiler
from ludex.content import load_game
from ludex.errors import Collector, LudexError
from ludex.folders import discover
from ludex.gamedef import build_definition
from ludex.parser import parse
from ludex.schemas import Validators
from ludex.state import deal_cards, new_state, place_start, run_atomic

TINY = Path(__file__).parent / "games" / "tiny"


def _tiny():
    errors = Collector()
    game = load_game(discover(TINY), errors, Validators())
    definition = build_definition(game, errors)
    assert not errors, errors.sorted()
    start = {s["id"]: s.get("start") or {} for s in game.data("map")["spaces"]}
    return definition, start


DEFINITION, START = _tiny()
START_STATE = new_state(DEFINITION, seed=7)
place_start(DEFINITION, START_STATE, START)
deal_cards(DEFINITION, START_STATE)
CARDS = sorted(START_STATE["cards"])

# Each verb's parameters, as the test understands them (its own oracle, not the registry's).
VERBS = {
    "place": ("piece", "count", "space", "power"),
    "remove": ("piece", "count", "space", "power"),
    "move_pieces": ("piece", "count", "space", "space", "power"),
    "move_card": ("card", "zone", "power?", "position?"),
    "move_all": ("zone", "zone", "power?"),
    "draw": ("count", "zone", "zone", "power"),
    "draw_if_possible": ("count", "zone", "zone", "power"),
    "shuffle": ("zone", "power?"),
    "put_tokens": ("card", "text", "int"),
    "slip_under": ("card", "card"),
}
GOOD = {
    "piece": ["soldier", "hero"], "space": ["a", "b", "c", "d"], "power": ["red", "blue"],
    "card": CARDS, "zone": ["deck", "hand", "discard", "market"], "count": [0, 1, 2, 3, 7],
    "int": [-2, -1, 0, 1, 2], "text": ["exhaust", "wound"], "position": ["top", "bottom"],
}
BAD = [None, "nobody", 7, -1, 2.5, True, [1], "red", "a", "deck", "soldier", "red_one"]


def _compiled(verb: str):
    """`verb(x0, x1, …)` with its arguments as parameters: any value reaches the verb as it
    is, past what the compiler would resolve or refuse."""
    names = tuple(f"x{i}" for i in range(len(VERBS[verb])))
    run, size = Compiler(DEFINITION, "<conservation>", verb).program(
        parse(f"{verb}({', '.join(names)})"), names)
    return lambda ctx, args: run(ctx, list(args) + [None] * (size - len(args)))


COMPILED = {verb: _compiled(verb) for verb in VERBS}


def call(state: dict, verb: str, args: list) -> dict:
    """The state after `verb(*args)`, run as an action (all or nothing) by `red`."""
    run = COMPILED[verb]
    return run_atomic(DEFINITION, state, lambda ctx: run(ctx, args), me="red")[0]


def fits(kind: str, value) -> bool:
    optional = kind.endswith("?")
    kind = kind.rstrip("?")
    if value is None:
        return optional
    if kind in ("count", "int"):
        return type(value) is int and (kind == "int" or value >= 0)
    if kind == "text":
        return isinstance(value, str)
    if kind == "position":
        return value in GOOD["position"]
    return isinstance(value, str) and value in GOOD[kind]


@st.composite
def calls(draw):
    verb = draw(st.sampled_from(sorted(VERBS)))
    args = []
    for kind in VERBS[verb]:  # one argument in ten of no fitting kind, or out of range
        wrong = draw(st.sampled_from([False] * 9 + [True]))
        args.append(draw(st.sampled_from(BAD if wrong else GOOD[kind.rstrip("?")])))
    return verb, args


# -- what the state holds ----------------------------------------------------------------------

def card_places(state) -> dict[str, tuple]:
    """Where each card is — ("zone", zone, holder) or ("under", card) — checking on the way
    that it is in exactly one place and that its record says so."""
    places: dict[str, tuple] = {}
    for zone, holders in state["zones"].items():
        for holder, pile in holders.items():
            for card in pile:
                assert card not in places, f"{card} is in two places"
                places[card] = ("zone", zone, holder)
                assert state["cards"][card]["zone"] == [zone, holder]
                assert state["cards"][card]["below"] is None
    for card, info in state["cards"].items():
        for lying in info["under"]:
            assert lying not in places, f"{lying} is in two places"
            places[lying] = ("under", card)
            assert state["cards"][lying]["below"] == card
            assert state["cards"][lying]["zone"] == [None, None]
    assert sorted(places) == CARDS, "a card left play, or one appeared"
    for card in CARDS:  # every chain of cards under cards ends at a card in a zone
        seen, at = set(), card
        while places[at][0] == "under":
            assert at not in seen, f"{card} lies in a ring of cards under each other"
            seen.add(at)
            at = places[at][1]
    return places


def pieces(state) -> Counter:
    found = Counter()
    for space, info in state["spaces"].items():
        for power, kinds in info["pieces"].items():
            assert power in GOOD["power"], f"pieces of `{power}` in {space}"
            for piece, amount in kinds.items():
                assert piece in GOOD["piece"], f"`{piece}` in {space}"
                assert type(amount) is int and amount >= 0, f"{amount} {piece} in {space}"
                if amount:
                    found[space, power, piece] = amount
    return found


def tokens(state) -> Counter:
    found = Counter()
    for card, info in state["cards"].items():
        for kind, amount in info["tokens"].items():
            assert type(amount) is int and amount > 0, f"{amount} {kind} tokens on {card}"
            found[card, kind] = amount
    return found


# -- what each verb may change -----------------------------------------------------------------

def expected_pieces(verb, args, before: Counter) -> Counter:
    after = Counter(before)
    if verb == "place":
        piece, amount, space, power = args
        after[space, power, piece] += amount
    elif verb == "remove":
        piece, amount, space, power = args
        after[space, power, piece] -= amount
    elif verb == "move_pieces":
        piece, amount, source, target, power = args
        after[source, power, piece] -= amount
        after[target, power, piece] += amount
    return +after  # zero entries dropped


def check_cards(verb, args, before: dict, after: dict) -> None:
    moved = {card for card in CARDS if before[card] != after[card]}
    if verb == "move_card":
        card, zone = args[0], args[1]
        assert moved <= {card} and after[card][:2] == ("zone", zone)
    elif verb == "slip_under":
        card, target = args
        assert moved <= {card} and after[card] == ("under", target)
    elif verb == "shuffle":
        assert not moved
    elif verb == "move_all":
        source, target = args[0], args[1]
        assert all(before[c][1] == source and after[c][1] == target for c in moved)
    elif verb in ("draw", "draw_if_possible"):
        amount, source, target = args[0], args[1], args[2]
        arrived = [c for c in moved if after[c][1] == target]
        assert len(arrived) <= amount
        refill = DEFINITION.zones[source].get("empty") if verb == "draw" else None
        if refill is None:  # without a refill, only the drawn cards move
            assert len(moved) == len(arrived)
    else:
        assert not moved, f"{verb} moved cards: {sorted(moved)}"


RULE_REFUSALS = {"rules/not-enough-pieces", "rules/not-enough-tokens", "rules/card-passing",
                 "rules/slip-cycle", "effect/missing-power"}


@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(calls(), min_size=1, max_size=8))
def test_moving_verbs_conserve_or_change_totals_exactly_as_they_say(sequence):
    state = copy.deepcopy(START_STATE)
    for verb, args in sequence:
        before = copy.deepcopy(state)
        places, piece_totals, token_totals = card_places(state), pieces(state), tokens(state)
        try:
            state = call(state, verb, args)
        except LudexError as refused:
            assert state == before, f"refused {verb}{tuple(args)} changed the state"
            code = refused.diagnostics[0].code
            wrong = [kind for kind, value in zip(VERBS[verb], args, strict=True)
                     if not fits(kind, value)]
            assert code in RULE_REFUSALS or wrong, f"{verb}{tuple(args)} refused: {refused}"
            continue
        bad = [(kind, value) for kind, value in zip(VERBS[verb], args, strict=True)
               if not fits(kind, value)]
        assert not bad, f"{verb}{tuple(args)} accepted {bad}"
        check_cards(verb, args, places, card_places(state))
        assert pieces(state) == expected_pieces(verb, args, piece_totals)
        change = Counter(token_totals)
        if verb == "put_tokens":
            change[args[0], args[1]] += args[2]
        assert tokens(state) == +change
        assert state["counters"] == before["counters"]


@pytest.mark.parametrize(("verb", "args"), [
    ("slip_under", ["red_one", "red_one"]),
    ("place", ["soldier", -5, "c", "red"]),
    ("place", [7, 1, "c", "nobody"]),
    ("put_tokens", ["red_one", 9, 1]),
    ("remove", ["soldier", 3, "a", "red"]),
    ("draw", [-1, "deck", "hand", "red"]),
])
def test_a_refused_call_changes_nothing(verb, args):
    state = copy.deepcopy(START_STATE)
    with pytest.raises(LudexError):
        call(state, verb, args)
    assert state == START_STATE


def test_two_cards_slipped_under_each_other_stay_in_play():
    state = copy.deepcopy(START_STATE)
    state = call(state, "slip_under", ["red_one", "blue_one"])
    with pytest.raises(LudexError) as refused:
        call(state, "slip_under", ["blue_one", "red_one"])
    assert refused.value.diagnostics[0].code == "rules/slip-cycle"
    assert len(card_places(state)) == len(CARDS)
