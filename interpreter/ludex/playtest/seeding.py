"""The generator a look-ahead agent draws from at one decision.

It depends on the agent's seed and on how many answers the game has taken, never on what the
agent drew before. A game saved and resumed (`ludex play --resume`, the table's saves) or taken
back at the table therefore goes on exactly as the unbroken game would, with no generator state
to keep in the save: the same seed and the same answers so far give the same answer next.
"""

from __future__ import annotations

import random


def decision_generator(seed: int, moment: int) -> random.Random:
    """The generator for the decision after `moment` answers (a text seed: Python hashes it
    with SHA-512, the same on every machine and run, and no two (seed, moment) share one)."""
    return random.Random(f"{seed}/{moment}")
