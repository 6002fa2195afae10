"""Paying a counter with the substitutions a game declares (`conversions` in the manifest).

A payment is a mapping counter -> amount spent. Only payments with nothing to spare are
offered: taking away any one unit spent would leave the cost unpaid, so rounding up through a
rate (3 coins paid with 2 resources worth 2 each) is allowed but gratuitous overpaying is not.
"""

from __future__ import annotations

import math
from itertools import product


def substitutes_by_counter(conversions: list[dict]) -> dict[str, list[tuple[str, int]]]:
    """counter -> [(substitute counter, rate)] in declaration order; built once per game."""
    table: dict[str, list[tuple[str, int]]] = {}
    for conversion in conversions:
        table.setdefault(conversion["pay"], []).append((conversion["with"], conversion["rate"]))
    return table


def payment_options(balances: dict[str, int], counter: str, amount: int,
                    conversions: list[dict]) -> list[dict[str, int]]:
    """Every minimal way to pay `amount` of `counter`, direct payment first."""
    return minimal_payments(balances, counter, amount,
                            substitutes_by_counter(conversions).get(counter, []))


def minimal_payments(balances: dict[str, int], counter: str, amount: int,
                     substitutes: list[tuple[str, int]]) -> list[dict[str, int]]:
    """`payment_options` with the counter's substitutes already looked up.

    One substitute (the usual case) is worked out directly, with the same answer as the
    general search: with `units` of the substitute the rest is paid directly, and that is
    minimal as long as the units do not already cover the cost. So the options are the unit
    counts from the fewest that leave a payable rest up to the count covering it all, in the
    general order (most paid directly first)."""
    if amount <= 0:
        return [{}]
    if len(substitutes) != 1:
        if substitutes:
            return _search(balances, counter, amount, substitutes)
        return [{counter: amount}] if balances.get(counter, 0) >= amount else []
    # plain arithmetic rather than max/min/unpacking: this runs for every payment
    substitute, rate = substitutes[0]
    have = balances.get(counter, 0)
    fewest = 0 if have >= amount else (amount - have + rate - 1) // rate
    last = (amount + rate - 1) // rate  # units that cover the whole cost
    spare = balances.get(substitute, 0)
    if spare < last:
        last = spare
    found = []
    for units in range(fewest, last + 1):
        direct = amount - units * rate
        if direct <= 0:
            found.append({substitute: units})
        elif units:
            found.append({counter: direct, substitute: units})
        else:
            found.append({counter: direct})
    return found


def payable_with_one(have: int, amount: int, spare: int, rate: int) -> bool:
    """Whether `minimal_payments` finds a way to pay `amount` with `have` of the counter and
    `spare` of its one substitute, at `rate` each: its unit counts are not empty (the fewest
    that leave a payable rest are no more than the count covering it all, capped by what is
    spare), worked out without the ways themselves. `can_pay` asks this in every test of a
    cost, a `pay` lists the ways only once it pays."""
    if amount <= 0:
        return True
    fewest = 0 if have >= amount else (amount - have + rate - 1) // rate
    return fewest <= (amount + rate - 1) // rate and fewest <= spare


def _search(balances: dict[str, int], counter: str, amount: int,
            substitutes: list[tuple[str, int]]) -> list[dict[str, int]]:
    """Every minimal payment, by trying each count of each substitute."""
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
