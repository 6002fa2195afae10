"""The one output format every benchmark shares: a table, or with --json
{"cases": [{"name", "ludex_s", "baseline_s", "ratio", …}]} (DESIGN.md, "Benchmarks")."""

from __future__ import annotations

import json
import sys


def emit(cases: list[dict], as_json: bool, extra: tuple[str, str] | None = None) -> None:
    """Print `cases`; `extra` names one more column (key, heading) to show in the table."""
    if as_json:
        json.dump({"cases": cases}, sys.stdout, indent=2)
        print()
        return
    heading = f"{'case':<24}{'ludex s':>10}{'baseline s':>12}{'ratio':>8}"
    print(heading + (f"{extra[1]:>16}" if extra else ""))
    for c in cases:
        row = f"{c['name']:<24}{c['ludex_s']:>10.4f}{c['baseline_s']:>12.4f}{c['ratio']:>8.2f}"
        print(row + (f"{c[extra[0]]:>16.3f}" if extra else ""))
