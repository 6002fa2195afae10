"""The hand-written baselines' own seeded shuffle: splitmix64 steps, rejection sampling so no
value is favoured, Fisher-Yates — the same shuffle as Ludex's (gamedef.rng_shuffle), written
without it. The generator's state is passed in and the new state returned."""

from __future__ import annotations

MASK64 = (1 << 64) - 1


def shuffle(rng: int, items: list) -> int:
    """Shuffle `items` in place with the generator at state `rng`; its state after."""
    z = rng
    for i in range(len(items) - 1, 0, -1):
        span = i + 1
        limit = (1 << 64) - (1 << 64) % span
        while True:  # the mixing steps in line: a call per step would slow the baseline
            z = (z + 0x9E3779B97F4A7C15) & MASK64
            x = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
            x ^= x >> 31
            if x < limit:
                break
        j = x % span
        items[i], items[j] = items[j], items[i]
    return z
