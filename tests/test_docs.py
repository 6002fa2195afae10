"""Docs examples are real: every YAML example in docs/ parses, and the ones in the content guide
and the scenario guide are taken from files that the test suite loads and runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md"))
BLOCK = re.compile(r"```yaml\n(.*?)```", re.DOTALL)
SOURCES = [p for top in ("games", "examples", "tests") for p in (ROOT / top).rglob("*.yaml")
           if "invalid" not in p.parts]


def normalise(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip().splitlines()
                     if line.strip() and not line.strip().startswith("#"))


def blocks(doc: Path) -> list[str]:
    return BLOCK.findall(doc.read_text(encoding="utf-8"))


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_yaml_example_parses(doc):
    for block in blocks(doc):
        yaml.safe_load(block)


@pytest.mark.parametrize("name", ["content-guide.md", "scenarios.md", "effect-language.md",
                                  "translations.md", "tutorial.md"])
def test_examples_are_excerpts_of_real_files(name):
    corpus = [normalise(p.read_text(encoding="utf-8")) for p in SOURCES]
    missing = []
    for block in blocks(ROOT / "docs" / name):
        lines = [re.sub(r"\s+#.*$", "", line) for line in normalise(block).splitlines()]
        if not all(any(line.strip() in text for text in corpus) for line in lines):
            missing.append(block.splitlines()[0])
    assert missing == []


DOC_REFERENCE = re.compile(r'((?:docs/)?[\w-]+\.md)(?:, \\?"([^"\\]+)\\?")?')
FILE_PATH_IN_OLD_LAYOUT = re.compile(r"\b(?:rules|cards)/<game>/")


def referring_texts() -> list[Path]:
    """Schema descriptions, docstrings and the engine's message files point readers at docs."""
    package = ROOT / "interpreter" / "ludex"
    return (sorted((ROOT / "schema").glob("*.json"))
            + [p for ext in ("py", "yaml", "lark") for p in sorted(package.rglob(f"*.{ext}"))])


def headings(page: Path) -> set[str]:
    return {line.lstrip("#").strip() for line in page.read_text(encoding="utf-8").splitlines()
            if line.startswith("#")}


def test_schemas_and_code_point_at_docs_pages_and_sections_that_exist():
    stale = []
    for path in referring_texts():
        text = path.read_text(encoding="utf-8")
        for page, section in DOC_REFERENCE.findall(text):
            # A bare name is a page of docs/ or a file at the top of the repository.
            target = ROOT / page if "/" in page else next(
                (p for p in (ROOT / "docs" / page, ROOT / page) if p.exists()), ROOT / page)
            if page.startswith("<") or target.name == "README.md":
                continue  # a game's own README, written by `ludex init`
            if not target.exists() or (section and section not in headings(target)):
                stale.append(f"{path.relative_to(ROOT)}: {page} {section}".strip())
        stale += [f"{path.relative_to(ROOT)}: {m.group(0)}"
                  for m in FILE_PATH_IN_OLD_LAYOUT.finditer(text)]
    assert stale == []
