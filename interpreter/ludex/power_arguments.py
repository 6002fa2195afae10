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
    _check_power_given(definition, source, node, params, errors)


def _check_power_given(definition: Any, source: Source, node: ast.Call, params: tuple,
                       errors: Collector) -> None:
    """A power given where every counter and zone of the call is one the whole game shares:
    it is not used (`counter(water, me)` read the one shared pool, and the designer took it
    for each player's own). `none`, as verbs whose power is not optional take it, is meant."""
    at = next((i for i, p in enumerate(params) if p.startswith("power")), None)
    if at is None or at >= len(node.args):
        return
    power = node.args[at]
    if isinstance(power, ast.Literal) and power.value is None:
        return
    kept = [(node.args[i], _KEPT_PER_POWER[p]) for i, p in enumerate(params[:at])
            if p in _KEPT_PER_POWER and i < len(node.args)]
    if not kept or not all(isinstance(named, ast.Name)
                           and _kept_for(definition, section, named.name) == "game"
                           for named, section in kept):
        return
    named, section = kept[-1]
    what = "counter" if section == "counters" else "zone"
    fix = "leave the power out" if params[at].endswith("?") else "give `none` for the power"
    errors.warning(source.file, power.line, power.col, "effect/unused-power",
                   f"{what} `{named.name}` is one for the whole game (`per: game`): the power "
                   f"given is not used; {fix}, or declare it `per: power` if each power "
                   "keeps its own")


def _kept_for(definition: Any, section: str, name: str) -> str | None:
    """`power` or `game` for a declared counter or zone (None: not one)."""
    spec = getattr(definition, section).get(name)
    if not isinstance(spec, dict):
        return None
    default = "power" if section == "counters" else "game"  # as the state is made (state.py)
    return spec.get("per", default)


def _per_power(definition: Any, section: str, name: str) -> bool:
    spec = getattr(definition, section).get(name)
    if not isinstance(spec, dict):
        return False
    default = "power" if section == "counters" else "game"  # as the state is made (state.py)
    return spec.get("per", default) == "power"
