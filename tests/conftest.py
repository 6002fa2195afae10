"""Test-wide settings. Every engine run in the suite verifies that a unit never changes the
state it started from (engine.CHECK_SHARED): a verb that writes a state section without
touching it first fails loudly here instead of corrupting a rollback in play."""

import os

os.environ.setdefault("LUDEX_CHECK_SHARED", "1")
