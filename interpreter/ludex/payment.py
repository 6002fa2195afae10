"""Paying a counter with the substitutions a game declares (`conversions` in the manifest).

A payment is a mapping counter -> amount spent. Only payments with nothing to spare are
offered: taking away any one unit spent would leave the cost unpaid, so rounding up through a
rate (3 coins paid with 2 resources worth 2 each) is allowed but gratuitous overpaying is not.
"""

from __future__ import annotations

import math
from itertools import product


def payment_options(balances: dict[str, int], counter: str, amount: int,
                    conversions: list[dict]) -> list[dict[str, int]]:
    """Every minimal way to pay `amount` of `counter`, direct payment first."""
    if amount <= 0:
        return [{}]
    if balances.get(counter, 0) >= amount and not any(c["pay"] == counter for c in conversions):
        return [{counter: amount}]  # the common case: no substitute exists
    substitutes = [(c["with"], c["rate"]) for c in conversions if c["pay"] == counter]
    ranges = [range(min(balances.get(w, 0), math.ceil(amount / r)) + 1) for w, r in substitutes]
    found: list[dict[str, int]] = []
    for counts in product(*ranges):
        covered = sum(k * r for k, (_, r) in zip(counts, substitutes, strict=True))
        direct = max(0, amount - covered)
        if direct > balances.get(counter, 0):
            continue
        value = direct + covered
        if direct and value - 1 >= amount:
            continue
        if any(k and value - r >= amount for k, (_, r) in zip(counts, substitutes, strict=True)):
            continue
        option = {counter: direct} if direct else {}
        option.update({w: k for k, (w, _) in zip(counts, substitutes, strict=True) if k})
        found.append(option)
    found.sort(key=lambda o: (-o.get(counter, 0), sorted(o.items())))
    return found
