"""The effect language's syntax tree: small frozen dataclasses, built by parser.py and turned
into closures by compiler.py. Each node records the line and column (in the YAML file) where it
starts, so compile errors point at the source."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Node:
    line: int
    col: int


# Fields that say where a node is written, not what it says (the operator's own place on the
# nodes of a binary operator, where a mutant of the operator is reported).
POSITION_FIELDS = frozenset({"line", "col", "op_line", "op_col"})


# --- statements ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Program(Node):
    body: tuple[Node, ...]


@dataclass(frozen=True)
class Let(Node):
    name: str
    value: Node


@dataclass(frozen=True)
class Message(Node):
    """A message a statement names: `"key"`, or `("key", a, b)` — the key and the arguments
    it is filled with (`{a0}`, `{a1}`…), worked out when the message is shown."""

    key: str
    args: tuple[Node, ...] = ()


@dataclass(frozen=True)
class Require(Node):
    """`require CONDITION [else MESSAGE]`: the message is the refusal's reason."""

    condition: Node
    message: Message | None


@dataclass(frozen=True)
class Choose(Node):
    """`choose x from OPTIONS [exactly N | up to N] [by POWER] [prompt MESSAGE]`."""

    name: str
    options: Node
    mode: str  # "one", "exactly" or "up_to"
    count: Node | None
    chooser: Node | None
    prompt: Message | None


@dataclass(frozen=True)
class CallStmt(Node):
    call: Call


@dataclass(frozen=True)
class Pass(Node):
    pass


@dataclass(frozen=True)
class If(Node):
    branches: tuple[tuple[Node, tuple[Node, ...]], ...]  # (condition, body) for if and elifs
    orelse: tuple[Node, ...]


@dataclass(frozen=True)
class For(Node):
    name: str
    iterable: Node
    where: Node | None
    body: tuple[Node, ...]


@dataclass(frozen=True)
class Repeat(Node):
    count: Node
    body: tuple[Node, ...]


# --- expressions --------------------------------------------------------------------------

@dataclass(frozen=True)
class BoolOp(Node):
    op: str  # "and" / "or"
    left: Node
    right: Node
    op_line: int = 0  # where the operator stands (0: a node the engine made, not a text)
    op_col: int = 0


@dataclass(frozen=True)
class Not(Node):
    operand: Node


@dataclass(frozen=True)
class Compare(Node):
    op: str
    left: Node
    right: Node
    op_line: int = 0  # where the operator stands (0: a node the engine made, not a text)
    op_col: int = 0


@dataclass(frozen=True)
class Member(Node):
    item: Node
    collection: Node


@dataclass(frozen=True)
class Binary(Node):
    op: str
    left: Node
    right: Node
    op_line: int = 0  # where the operator stands (0: a node the engine made, not a text)
    op_col: int = 0


@dataclass(frozen=True)
class Negate(Node):
    operand: Node


@dataclass(frozen=True)
class Attribute(Node):
    target: Node
    name: str


@dataclass(frozen=True)
class Call(Node):
    name: str
    args: tuple[Node, ...]


@dataclass(frozen=True)
class Name(Node):
    name: str


@dataclass(frozen=True)
class Literal(Node):
    value: Any


@dataclass(frozen=True)
class ListExpr(Node):
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Comprehension(Node):
    """`[item for x in items where condition]`."""

    item: Node
    name: str
    iterable: Node
    where: Node | None


@dataclass(frozen=True)
class Ternary(Node):
    """`a if condition else b`."""

    then: Node
    condition: Node
    otherwise: Node


@dataclass(frozen=True)
class Index(Node):
    """`items[i]`: an item of a list (from 0), or a value of a mapping."""

    target: Node
    key: Node
