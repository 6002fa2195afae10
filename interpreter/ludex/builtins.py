"""Every function and verb of the effect language, registered once (see registry.py).

Importing this module registers them all: queries.py holds the functions, verbs.py the verbs.
"""

from . import queries, verbs  # noqa: F401 - imported for their registrations
from .queries import order_powers
from .registry import ENTITY_KINDS, REGISTRY, Builtin

__all__ = ["ENTITY_KINDS", "REGISTRY", "Builtin", "order_powers"]
