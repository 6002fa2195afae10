"""Parse effect-language text into the AST (ast.py), reporting syntax errors as Ludex
diagnostics at their place in the YAML file.

The language is defined by grammar.lark (LALR, contextual lexer, strict: no conflict is resolved
silently). Text that parses is read by a hand-written parser (fast_parser.py) that gives exactly
Lark's tree; anything else, and every error, goes to Lark (lark_parser.py), which is imported
only then: a command whose effects all parse never loads it.
`origin` says where each character of the text sits in the file: a `|` block maps line for
line, shifted by the block's indentation; a folded (`>`) or escaped text, character by
character (yamlio.TextPlaces).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import ast, fast_parser
from .errors import Diagnostic, LudexError

if TYPE_CHECKING:
    from collections.abc import Callable

    from .yamlio import Document

GRAMMAR = Path(__file__).with_name("grammar.lark")


def grammar(strict: bool = False) -> Any:
    """The Lark parser of the grammar (lark_parser.grammar), built once."""
    from .lark_parser import grammar as built

    return built(strict)


# Grammar rule or alias -> the AST node it becomes (checked against the grammar by a test).
NODE_FOR_RULE = {
    "start": ast.Program, "condition": ast.Program, "let": ast.Let, "require": ast.Require,
    "choose": ast.Choose, "choose_count": ast.Choose, "exactly": ast.Choose,
    "up_to": ast.Choose, "message": ast.Message,
    "call_stmt": ast.CallStmt, "pass_stmt": ast.Pass, "if_stmt": ast.If,
    "elif_clause": ast.If, "else_clause": ast.If, "for_stmt": ast.For,
    "repeat_stmt": ast.Repeat, "block": ast.Program, "or_op": ast.BoolOp, "and_op": ast.BoolOp,
    "not_op": ast.Not, "compare": ast.Compare, "member": ast.Member,
    "not_member": ast.Not,  # `a not in b` is `not (a in b)`: a Not around a Member
    "binary": ast.Binary,
    "negate": ast.Negate, "attribute": ast.Attribute, "call": ast.Call, "name": ast.Name,
    "number": ast.Literal, "string": ast.Literal, "true": ast.Literal, "false": ast.Literal,
    "none": ast.Literal, "list_expr": ast.ListExpr, "comprehension": ast.Comprehension,
    "ternary": ast.Ternary, "index": ast.Index,
}


class Origin:
    """Maps (line, col) in effect text to (line, col) in the YAML file.

    `line` and `col` are where the text's character 0 sits. A `|` block, or a text on one line
    as written, maps by shifting them (`block`: line for line); a folded or escaped text maps
    by its `places` (yamlio.TextPlaces), which `origin_of` gives it.
    """

    def __init__(self, file: str = "<effect>", line: int = 1, col: int = 1, block: bool = True,
                 places: Callable[[int, int], tuple[int, int]] | None = None):
        self.file, self.line, self.col, self.block = file, line, col, block
        if places is not None:
            self.map = places  # called for every node parsed: no test of `places` in `map`

    def map(self, line: int, col: int) -> tuple[int, int]:
        if self.block or line == 1:
            return self.line + line - 1, self.col + col - 1
        return self.line + line - 1, col


def origin_of(doc: Document, path: tuple, file: str | None = None) -> Origin:
    """Where the text at `path` of a document sits in its file, character by character."""
    line, col = doc.text_origin(path)
    return Origin(file or str(doc.path), line, col, places=doc.text_places(path))


MAX_DIGITS = 15  # as content numbers: within ±10^15

_COMMENT = re.compile(r'^((?:[^"#\n]|"[^"\n]*")*)#.*$', re.MULTILINE)


# `#` right after a name, number or closing bracket: `red_wager#2.zone` reads as `red_wager`
# and a comment, which is never what was meant (a card copy is named as a string).
_GLUED_COMMENT = re.compile(r'^(?:[^"#\n]|"[^"\n]*")*?[A-Za-z0-9_)\]]#', re.MULTILINE)


def _glued_comment(text: str, origin: Origin) -> Diagnostic | None:
    found = _GLUED_COMMENT.search(text)
    if found is None:
        return None
    before = text[:found.end() - 1]
    line = before.count("\n") + 1
    col = len(before) - (before.rfind("\n") + 1) + 1
    word = re.search(r"[A-Za-z0-9_]*[)\]]?$", before).group(0)
    line, col = origin.map(line, col)
    return Diagnostic(origin.file, line, col, "effect/glued-comment",
                      f"`#` right after `{word}` starts a comment, so the rest of the line is "
                      "ignored; a copy of a card is named by its id as a string (`\"name#2\"`). "
                      "Put a space before `#` if a comment is meant")


def _strip_comments(text: str) -> str:
    """Blank out `# …` comments (outside strings), keeping every other character in place."""
    return _COMMENT.sub(lambda m: m.group(1).rstrip(), text)


def parse_once(trees: dict, text: str, origin: Origin, *, expression: bool = False
               ) -> ast.Node:
    """`parse`, remembered in `trees` (a document's): the same text at the same place is
    parsed once, and the trees travel with the document into the content cache."""
    key = (text, origin.file, origin.line, origin.col, origin.block, expression)
    tree = trees.get(key)
    if tree is None:
        tree = trees[key] = parse(text, origin, expression=expression)
    return tree


def parse(text: str, origin: Origin | None = None, *, expression: bool = False,
          fast: bool = True) -> ast.Node:
    """Parse a statement block (or, with `expression`, a single expression): with the
    hand-written parser (fast_parser.py) when it is sure of the tree, else (or with
    `fast=False`) with Lark, which reports every syntax error."""
    origin = origin or Origin()
    source = text
    if "#" in text:  # most effects have no comment: both patterns need a `#` to match
        glued = _glued_comment(text, origin)
        if glued is not None:
            raise LudexError(glued)
        source = _strip_comments(text)
    source = source if source.endswith("\n") else source + "\n"
    if fast:
        tree = fast_parser.parse(source, origin, expression)
        if tree is not None:
            return tree
    from .lark_parser import parse_source

    return parse_source(source, origin, expression)
