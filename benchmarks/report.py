"""The one output format every benchmark shares, and the one way they time two sides.

A benchmark returns cases; `emit` prints them as a table, or with --json as
{"cases": [case, …]} where a case is
  name        what is measured (unique across the benchmarks)
  kind        "baseline": Ludex beside a baseline that does the same work without Ludex
              (hand-written Python, or a peer tool such as libyaml + a compiled validator);
              "ablation": Ludex beside Ludex with one mechanism off (not a ratio to hand-written
              code); "absolute": Ludex alone (baseline_s and ratio are null)
  ludex_s     Ludex's time (best of the rounds)
  baseline_s  the baseline's time on the same work, or null
  ratio       ludex_s / baseline_s (below 1: Ludex is faster), or null
  baseline    what the baseline is, in a few words
  per         the unit of `ludex_per` / `baseline_per` (e.g. "decision", "call", "card")
  ludex_per, baseline_per   seconds per that unit, when there is one
and any other figures the case explains itself with (decisions, positions, share_loading…).
Ratios, not absolute times, are what we track: the machines are shared and noisy, so both sides
run in the same process, in alternating rounds, and each side's best round counts. Times are
the process's CPU time (`time.process_time`), which other work on the machine inflates far less
than wall time.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable


def case(name: str, kind: str, ludex_s: float, baseline_s: float | None, baseline: str,
         per: str | None = None, units: int | None = None, **extra) -> dict:
    """One case in the shared format; `units` of `per` were done by each side."""
    out = {"name": name, "kind": kind, "ludex_s": ludex_s, "baseline_s": baseline_s,
           "ratio": ludex_s / baseline_s if baseline_s else None, "baseline": baseline}
    if per is not None and units:
        out.update(per=per, units=units, ludex_per=ludex_s / units,
                   baseline_per=baseline_s / units if baseline_s is not None else None)
    out.update(extra)
    return out


def alternate(sides: list[Callable[[], object]], rounds: int, warmup: int = 1) -> list[float]:
    """Best CPU time of each side over `rounds`, after `warmup` untimed rounds of every side.
    The sides take turns, and the order flips every round, so neither always runs first (a
    slow spell of the machine, or a cache warmed by the other side, falls on both). A side
    that times itself (only part of what it runs counts) returns its time as a float; any
    other side is timed whole."""
    for _ in range(warmup):
        for fn in sides:
            fn()
    best = [float("inf")] * len(sides)
    for number in range(rounds):
        order = range(len(sides)) if number % 2 == 0 else reversed(range(len(sides)))
        for index in order:
            start = time.process_time()
            timed = sides[index]()
            elapsed = timed if isinstance(timed, float) else time.process_time() - start
            best[index] = min(best[index], elapsed)
    return best


_SHOWN = {"name", "kind", "ludex_s", "baseline_s", "ratio", "baseline", "per", "units",
          "ludex_per", "baseline_per"}


def _seconds(value: float | None) -> str:
    if value is None:
        return "—"
    for unit, scale in (("s", 1), ("ms", 1e-3), ("µs", 1e-6)):
        if value >= scale:
            return f"{value / scale:.3g} {unit}"
    return f"{value / 1e-9:.3g} ns"


def emit(cases: list[dict], as_json: bool, out=None) -> None:
    """Print `cases` as JSON ({"cases": […]}) or as a table."""
    out = out or sys.stdout
    if as_json:
        json.dump({"cases": cases}, out, indent=2)
        out.write("\n")
        return
    out.write(f"{'case':<34}{'kind':<10}{'ludex':>11}{'baseline':>11}{'ratio':>8}"
              f"   per unit (ludex / baseline)\n")
    for c in cases:
        ratio = "—" if c["ratio"] is None else f"{c['ratio']:.2f}"
        per = ""
        if c.get("per"):
            per = (f"   {_seconds(c['ludex_per'])} / {_seconds(c.get('baseline_per'))} "
                   f"per {c['per']}")
        out.write(f"{c['name']:<34}{c['kind']:<10}{_seconds(c['ludex_s']):>11}"
                  f"{_seconds(c['baseline_s']):>11}{ratio:>8}{per}\n")
        extra = [f"{k}={v:.3g}" if isinstance(v, float) else f"{k}={v}"
                 for k, v in c.items() if k not in _SHOWN]
        if extra:
            out.write(f"    {', '.join(extra)}\n")
