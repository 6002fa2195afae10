"""Regenerate the function and verb tables of docs/effect-language.md from the registry, each
with an example line taken from the language cases (tests/language/*.yaml) that the test suite
runs — so the reference never drifts from the code and every example is tested."""

import re
from pathlib import Path

import yaml

from ludex.builtins import REGISTRY

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "effect-language.md"
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


def main() -> None:
    text = DOC.read_text(encoding="utf-8")
    start, end = text.index("## Functions"), text.index("## Errors")
    DOC.write_text(text[:start] + tables() + text[end:], encoding="utf-8")


if __name__ == "__main__":
    main()
