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
