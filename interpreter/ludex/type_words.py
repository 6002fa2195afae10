"""The words the static type pass speaks of values in (typecheck.py, memory_typing.py).

A type is a text: `int`, `bool`, `text`, `none`, an entity kind (`power`, `card`…), a table's
row `row:<table>`, a list `list` or `list:<element>`, a value of a card attribute's `enum`
`enum:<attribute>` (a declared memory's type: memory_types.py), the kind of a map's
connection `enum:connection kind`, one of the texts a list written out holds `texts:<a>|<b>`
(the answer to a `choose` among them: a comparison with a text none of them is never true), or
`any` when not known. The empty list `[]` is `list:nothing`: joined with another list, it
takes that one's type.
"""

from __future__ import annotations

from . import ast
from .registry import ENTITY_KINDS

ANY = "any"
ENUM = "enum:"
TEXTS = "texts:"
NOTHING = "nothing"  # the element of an empty list written out
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
    if t == "text" or t in ENTITY_KINDS or t.startswith((ENUM, TEXTS)):
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
    if t.startswith(TEXTS):
        return "a text"
    if is_list(t):
        return "a list"
    return {"int": "a number", "bool": "true or false", "text": "a text", "none": "none"}.get(
        t, f"a {t}")


def is_text(t: str) -> bool:
    """A text not known to name anything: any text, or one of some texts written out."""
    return t == "text" or t.startswith(TEXTS)


def texts(values) -> str:
    """The type of one of `values` (texts), each once, in their first order."""
    return TEXTS + "|".join(dict.fromkeys(values))


def text_values(t: str) -> list[str]:
    return t[len(TEXTS):].split("|")


def join(a: str | None, b: str) -> str:
    """The type of a value that is of type `a` on some ways and `b` on others."""
    if a is None or a in (b, NOTHING):
        return b
    if b == NOTHING:
        return a
    if is_list(a) and is_list(b):  # `["x"] if c else []`, `["x"] + ["y"]`
        return f"list:{join(element(a), element(b))}"
    if is_text(a) and is_text(b):
        both = a.startswith(TEXTS) and b.startswith(TEXTS)
        return texts([*text_values(a), *text_values(b)]) if both else "text"
    return ANY


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
