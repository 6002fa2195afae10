"""Payments with substitutes: the minimal ways to pay, and the fast one-substitute path agreeing
with the general search on every small case."""

from __future__ import annotations

import itertools

import pytest

from ludex import payment

COINS = [{"pay": "coins", "with": "resources", "rate": 2}]


@pytest.mark.parametrize(("balances", "amount", "options"), [
    ({"coins": 3, "resources": 0}, 3, [{"coins": 3}]),
    ({"coins": 0, "resources": 2}, 3, [{"resources": 2}]),  # 4 coins' worth, no change
    ({"coins": 1, "resources": 2}, 3, [{"coins": 1, "resources": 1}, {"resources": 2}]),
    ({"coins": 0, "resources": 1}, 3, []),
    ({"coins": 5, "resources": 5}, 0, [{}]),
])
def test_minimal_payments(balances, amount, options):
    assert payment.payment_options(balances, "coins", amount, COINS) == options


def test_one_substitute_path_matches_the_general_search():
    for coins, resources, amount, rate in itertools.product(range(5), range(5), range(7),
                                                            range(1, 4)):
        balances = {"coins": coins, "resources": resources}
        direct = payment.minimal_payments(balances, "coins", amount, [("resources", rate)])
        general = payment._search(balances, "coins", amount, [("resources", rate)]) \
            if amount > 0 else [{}]
        assert direct == general, (balances, amount, rate)


def test_whether_a_cost_is_payable_is_whether_some_minimal_way_pays_it():
    """`can_pay` asks `payable_with_one` rather than listing the ways: the same answer on
    every small case, negative balances included (no way is offered then, not even paying
    directly, and the shortcut says so too)."""
    for have, spare, amount, rate in itertools.product(range(-2, 5), range(-2, 5), range(-1, 7),
                                                       range(1, 4)):
        balances = {"coins": have, "resources": spare}
        ways = payment.minimal_payments(balances, "coins", amount, [("resources", rate)])
        assert payment.payable_with_one(have, amount, spare, rate) == bool(ways), \
            (balances, amount, rate)


def test_can_pay_answers_as_the_ways_to_pay_do_with_none_and_one_substitute():
    """The `can_pay` builtin against the ways `pay` would list, on a game's own counters:
    Imperium pays military with influence, coins with resources, and influence directly."""
    from ludex.engine import Game, load_definition
    from ludex.queries import _can_pay, _payment_options
    from ludex.runtime import looking

    definition, start = load_definition("imperium")
    state = Game(definition, start, players=2, seed=1).state
    power = next(iter(state["counters"]["coins"]))
    for coins, resources, influence, military in itertools.product(range(-1, 4), repeat=4):
        for counter, value in (("coins", coins), ("resources", resources),
                               ("influence", influence), ("military", military)):
            state["counters"][counter][power] = value
        ctx = looking(definition, state)
        for counter, amount in itertools.product(("coins", "military", "influence"), range(5)):
            assert _can_pay(ctx, None, counter, power, amount) == bool(
                _payment_options(ctx, None, counter, power, amount)), (counter, amount)


def test_can_pay_does_not_list_the_ways_to_pay(monkeypatch):
    """A guard's or a `require`'s `can_pay` only asks whether some way pays: with no
    substitute or one, the ways are never listed (only a `pay` lists them)."""
    from ludex import queries
    from ludex.engine import Game, load_definition
    from ludex.runtime import looking

    definition, start = load_definition("imperium")
    state = Game(definition, start, players=2, seed=1).state
    power = next(iter(state["counters"]["coins"]))
    listed = []
    monkeypatch.setattr(queries, "minimal_payments", lambda *a: listed.append(a) or [])
    ctx = looking(definition, state)
    for counter in ("coins", "military", "influence"):
        queries._can_pay(ctx, None, counter, power, 2)
    assert listed == []
