"""A counter or zone kept per power, read or changed without naming the power: `counter(coins)`
for a `per: power` counter is `effect/missing-power` in play, whatever the state. Validation
passed it and every simulated game failed (a designer's trial); with the id written out and
the power left out of the call, it is known before play.

Only calls that leave the power out are looked at: one that gives `none` may mean it (a shared
zone and a per-power one through the same parameter) and is left to play."""

from __future__ import annotations

from typing import Any

from . import ast
from .errors import Collector
from .registry import REGISTRY
from .static_checks import Source, nodes

_KEPT_PER_POWER = {"counter": "counters", "zone": "zones"}


def check_power_arguments(definition: Any, sources: list[Source], errors: Collector) -> None:
    for source in sources:
        for node in nodes(source.tree, definition.analysis_memo):  # walked once for all checks
            if isinstance(node, ast.Call) and node.name in REGISTRY:
                _check_call(definition, source, node, errors)


def _check_call(definition: Any, source: Source, node: ast.Call, errors: Collector) -> None:
    params = REGISTRY[node.name].params
    for index, param in enumerate(params[:-1]):
        section = _KEPT_PER_POWER.get(param)
        if section is None or params[index + 1] != "power?" or len(node.args) != index + 1:
            continue
        named = node.args[index]
        if not (isinstance(named, ast.Name) and _per_power(definition, section, named.name)):
            continue
        what = "counter" if section == "counters" else "zone"
        errors.error(source.file, node.line, node.col, "effect/missing-power",
                     f"{what} `{named.name}` is kept per power: name the power "
                     f"(`{node.name}({named.name}, me)`, or another power)")


def _per_power(definition: Any, section: str, name: str) -> bool:
    spec = getattr(definition, section).get(name)
    if not isinstance(spec, dict):
        return False
    default = "power" if section == "counters" else "game"  # as the state is made (state.py)
    return spec.get("per", default) == "power"
