"""Regenerate the function and verb tables of docs/effect-language.md from the registry, each
with an example line taken from the language cases (tests/language/*.yaml) that the test suite
runs — so the reference never drifts from the code and every example is tested; and the
README's speed table from the last `make bench` (benchmarks/results.json) — so no number in it
is typed by hand."""

import json
import re
import sys
from pathlib import Path

import yaml

from ludex.builtins import REGISTRY

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "effect-language.md"
README = ROOT / "README.md"
BENCH_RESULTS = ROOT / "benchmarks" / "results.json"
SPEED_START = "<!-- speed table: made by scripts/update_docs.py from benchmarks/results.json -->"
SPEED_END = "<!-- end of speed table -->"
STATIC = " *Static:* with constant arguments, worked out once when the game loads."


def case_lines() -> list[str]:
    lines = []
    for path in sorted((ROOT / "tests" / "language").glob("*.yaml")):
        for case in yaml.safe_load(path.read_text(encoding="utf-8"))["cases"]:
            texts = [case.get("effect") or "", case.get("value") or "", *case.get("expect", [])]
            lines += [line.strip() for text in texts for line in text.splitlines()]
    return lines


def example(name: str, lines: list[str]) -> str:
    found = next((line for line in lines if re.search(rf"\b{name}\(", line)), "")
    return f"`{found}`".replace("|", "\\|") if found else ""


def tables() -> str:
    lines, out = case_lines(), []
    for verb, title in ((False, "Functions"), (True, "Verbs")):
        out += [f"## {title}\n", "| call | example (tested) | what it does |",
                "| --- | --- | --- |"]
        out += [f"| `{b.name}({', '.join(b.params)})` | {example(b.name, lines)} | "
                f"{' '.join(b.doc.split())}{STATIC if b.static else ''} |"
                for b in REGISTRY.values() if b.verb == verb]
        out.append("")
    return "\n".join(out) + "\n"


def _time(seconds: float) -> str:
    for unit, scale in (("s", 1), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def _per(case: dict, side: str) -> str:
    """A side's time: per unit where the case has one, else its whole time."""
    if case.get("per"):
        return f"{_time(case[f'{side}_per'])} per {case['per']}"
    return _time(case[f"{side}_s"])


def _details(case: dict) -> str:
    parts = []
    if "ludex_decisions_per_s" in case:
        parts.append(f"Ludex {case['ludex_decisions_per_s']:,.0f} decisions/s")
    if "baseline_decisions_per_s" in case:
        parts.append(f"by hand {case['baseline_decisions_per_s']:,.0f} decisions/s")
    if "checked_games" in case:
        parts.append(f"{case['checked_games']} games checked identical first")
    if "yaml_s" in case:
        parts.append(", ".join(f"{stage} {_time(case[f'{stage}_s'])}" for stage in
                               ("yaml", "schema", "checks", "compile"))
                     + f" (imports {_time(case['imports_s'])} more)")
    if "share_loading" in case:
        parts.append(f"{case['units']} scenarios, {case['share_loading']:.0%} of it loading "
                     f"({case['game_loads']} load{'s' * (case['game_loads'] != 1)}), "
                     f"wall {_time(case['wall_s'])}")
    elif case["name"].startswith("check_"):
        parts.append(f"`ludex check` on {case['games']} games, "
                     f"{'an empty' if case['name'] == 'check_cold' else 'a warm'} content "
                     f"cache, wall {_time(case['wall_s'])}")
    elif case.get("per"):
        parts.append(f"{case['units']:,} {case['per']}s")
    return "; ".join(p for p in parts if p)


def speed_table(results: dict) -> str:
    """The README's speed table for the cases of one `benchmarks/all.py --json` run."""
    kinds = {"baseline": "Ludex ÷ baseline", "ablation": "Ludex ÷ Ludex with it off",
             "absolute": "Ludex alone"}
    lines = ["| case | Ludex | baseline | ratio | |", "| --- | --- | --- | --- | --- |"]
    for kind in kinds:
        for case in (c for c in results["cases"] if c["kind"] == kind):
            baseline = "—" if case["baseline_s"] is None else \
                f"{_per(case, 'baseline')} ({case['baseline']})"
            ratio = "—" if case["ratio"] is None else f"{case['ratio']:.2f}x"
            lines.append(f"| `{case['name']}` ({kinds[kind]}) | {_per(case, 'ludex')} | "
                         f"{baseline} | {ratio} | {_details(case)} |")
    return "\n".join([SPEED_START, *lines, SPEED_END]) + "\n"


def update_readme(results: dict) -> None:
    text = README.read_text(encoding="utf-8")
    start, end = text.index(SPEED_START), text.index(SPEED_END) + len(SPEED_END) + 1
    README.write_text(text[:start] + speed_table(results) + text[end:], encoding="utf-8")


def main() -> None:
    if sys.argv[1:] == ["speed"]:  # `make bench`: only the README's speed table
        update_readme(json.loads(BENCH_RESULTS.read_text(encoding="utf-8")))
        return
    text = DOC.read_text(encoding="utf-8")
    start, end = text.index("## Functions"), text.index("## Errors")
    DOC.write_text(text[:start] + tables() + text[end:], encoding="utf-8")
    if BENCH_RESULTS.exists():
        update_readme(json.loads(BENCH_RESULTS.read_text(encoding="utf-8")))


if __name__ == "__main__":
    main()
