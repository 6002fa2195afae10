"""Grammar, AST, compiler, registry and docs line up: every grammar rule maps to an AST node,
every node has its compiler method, every rule and every registered function or verb has its
place in docs/effect-language.md."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from ludex import ast
from ludex.builtins import REGISTRY
from ludex.compiler import Compiler
from ludex.parser import GRAMMAR, NODE_FOR_RULE, grammar

DOC = (Path(__file__).parent.parent / "docs" / "effect-language.md").read_text(encoding="utf-8")


def grammar_rules() -> set[str]:
    text = GRAMMAR.read_text(encoding="utf-8")
    rules = set(re.findall(r"^\??([a-z][a-z_]*)\s*:", text, re.MULTILINE))
    aliases = set(re.findall(r"->\s*([a-z_]+)", text))
    hidden = {r for r in rules if r.startswith("_")}
    inlined = {r for r in re.findall(r"^\?([a-z][a-z_]*)\s*:", text, re.MULTILINE)}
    return (rules | aliases) - hidden - inlined


def test_grammar_builds_in_strict_mode_without_conflicts():
    grammar(strict=True)


def test_every_grammar_rule_has_an_ast_node():
    assert grammar_rules() - set(NODE_FOR_RULE) == set()
    assert set(NODE_FOR_RULE) - grammar_rules() == set()


def test_every_ast_node_has_a_compiler_method():
    nodes = [cls for cls in vars(ast).values() if isinstance(cls, type)
             and dataclasses.is_dataclass(cls) and cls is not ast.Node]
    missing = [cls.__name__ for cls in nodes
               if not hasattr(Compiler, f"compile_{cls.__name__.lower()}")]
    assert missing == []


def test_every_grammar_rule_is_documented():
    undocumented = [rule for rule in grammar_rules() - {"start", "condition", "block", "name",
                                                          "number", "string", "true", "false",
                                                          "none", "list_expr"}
                    if f"`{rule}`" not in DOC and f"({rule}" not in DOC]
    assert undocumented == []


def test_every_registered_function_and_verb_is_documented():
    assert [name for name in REGISTRY if f"`{name}(" not in DOC] == []


def test_every_function_and_verb_has_a_tested_example_in_the_docs():
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
    from update_docs import case_lines, example, tables

    lines = case_lines()
    assert [name for name in REGISTRY if not example(name, lines)] == []
    assert tables() in DOC, "run `python scripts/update_docs.py` and commit docs/"


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """(language, text) of each fenced block of a page (```yaml: "yaml"; ```: "")."""
    found, lines, lang = [], None, ""
    for line in text.splitlines():
        if line.startswith("```"):
            if lines is None:
                lines, lang = [], line[3:].strip()
            else:
                found.append((lang, "\n".join(lines)))
                lines = None
        elif lines is not None:
            lines.append(line)
    return found


def test_every_effect_example_is_a_language_case():
    """The page's examples of effect text (blocks without a language) are, line for line, in
    the effects and values of tests/language/core.yaml, which the suite runs."""
    import yaml

    core = Path(__file__).parent / "language" / "core.yaml"
    cases = yaml.safe_load(core.read_text(encoding="utf-8"))["cases"]
    texts = [case.get("effect") or case.get("value") or "" for case in cases]
    missing = [line.strip() for lang, block in fenced_blocks(DOC) if not lang
               for line in block.strip().splitlines()
               if not any(line.strip() in text for text in texts)]
    assert missing == []

