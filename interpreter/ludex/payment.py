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
    substitutes = [(c["with"], c["rate"]) for c in conversions if c["pay"] == counter]
    if not substitutes:
        return [{counter: amount}] if balances.get(counter, 0) >= amount else []
    if len(substitutes) == 1:
        return _one_substitute(balances, counter, amount, *substitutes[0])
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


def _one_substitute(balances: dict[str, int], counter: str, amount: int, substitute: str,
                    rate: int) -> list[dict[str, int]]:
    """The same answer as the general search when one counter may stand in (the usual case),
    without building the product of ranges: more substitute units means less paid directly,
    so counting them up lists the options in the general order."""
    have, found = balances.get(counter, 0), []
    for units in range(min(balances.get(substitute, 0), -(-amount // rate)) + 1):
        covered = units * rate
        direct = amount - covered if amount > covered else 0
        value = direct + covered
        if direct > have or (direct and value - 1 >= amount) or (units and value - rate >= amount):
            continue
        option = {counter: direct} if direct else {}
        if units:
            option[substitute] = units
        found.append(option)
    return found
