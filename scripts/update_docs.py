"""Regenerate the function and verb tables of docs/effect-language.md from the registry, so
the reference never drifts from the code (tests/test_language_docs.py checks it did not)."""

from pathlib import Path

from ludex.builtins import REGISTRY

DOC = Path(__file__).resolve().parent.parent / "docs" / "effect-language.md"


def tables() -> str:
    lines = []
    for verb, title in ((False, "Functions"), (True, "Verbs")):
        lines += [f"## {title}\n", "| call | what it does |", "| --- | --- |"]
        lines += [f"| `{b.name}({', '.join(b.params)})` | {' '.join(b.doc.split())} |"
                  for b in REGISTRY.values() if b.verb == verb]
        lines.append("")
    return "\n".join(lines) + "\n"


def main() -> None:
    text = DOC.read_text(encoding="utf-8")
    start, end = text.index("## Functions"), text.index("## Errors")
    DOC.write_text(text[:start] + tables() + text[end:], encoding="utf-8")


if __name__ == "__main__":
    main()
