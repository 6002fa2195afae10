"""The words the static type pass speaks of values in (typecheck.py, memory_typing.py).

A type is a text: `int`, `bool`, `text`, `none`, an entity kind (`power`, `card`…), a table's
row `row:<table>`, a list `list` or `list:<element>`, a value of a card attribute's `enum`
`enum:<attribute>` (a declared memory's type: memory_types.py), the kind of a map's
connection `enum:connection kind`, or `any` when not known.
"""

from __future__ import annotations

from . import ast
from .registry import ENTITY_KINDS

ANY = "any"
ENUM = "enum:"
# the kinds of the map's connections (`connection_kinds`), typed as an enum of the game's own:
# no card attribute can take this name (theirs are snake_case)
CONNECTION_KIND = ENUM + "connection kind"
# Categories of runtime values, for operators: numbers, strings (text and ids), lists.
NUM, STR, LIST = "number", "string", "list"


def is_list(t: str) -> bool:
    return t.startswith("list")


def element(t: str) -> str:
    return t.split(":", 1)[1] if t.startswith("list:") else ANY


def category(t: str) -> str | None:
    """The runtime shape of a type, or None when unknown."""
    if t in ("int", "bool"):
        return NUM
    if t == "text" or t in ENTITY_KINDS or t.startswith(ENUM):
        return STR
    if is_list(t):
        return LIST
    if t == "none" or t.startswith("row:"):
        return t.split(":")[0]
    return None


def describe(t: str) -> str:
    if t.startswith("row:"):
        return f"a row of table `{t[4:]}`"
    if t == CONNECTION_KIND:
        return "a connection kind"
    if t.startswith(ENUM):
        return f"a `{t[len(ENUM):]}` value"
    if is_list(t):
        return "a list"
    return {"int": "a number", "bool": "true or false", "text": "a text", "none": "none"}.get(
        t, f"a {t}")


def join(a: str | None, b: str) -> str:
    return b if a is None or a == b else ANY


def quoted(text: str) -> str:
    return '"' + text + '"'


def literal(node: ast.Node):
    """The value of a literal argument (`-5` included), else None."""
    if isinstance(node, ast.Literal):
        return node.value
    if isinstance(node, ast.Negate) and isinstance(node.operand, ast.Literal) \
            and isinstance(node.operand.value, int) and not isinstance(node.operand.value, bool):
        return -node.operand.value
    return None
