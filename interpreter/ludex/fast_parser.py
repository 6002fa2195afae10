"""A hand-written parser for effect text that parses: the common case, several times faster
than Lark.

grammar.lark stays the definition of the language, and Lark (parser.py) the reporter of every
syntax error. This parser follows the grammar rule for rule and returns exactly the tree
Lark's parse would give (same nodes, same positions), or None whenever it meets anything it
is not sure of — a syntax error, a keyword where a name goes (Lark's contextual lexer may
read it as a name), a number too long, nesting near the limit, an unusual character. parser.py
then parses the text with Lark, so every answer but "here is the tree" still comes from Lark.
A test holds both to the same tree on every effect of the games, the language cases and
generated programs.

Positions follow Lark's: a node starts where the first token of its text does, a `(` that
encloses its first operand included (`(a + b) * c` starts at the `(`).
"""

from __future__ import annotations

import re

from . import ast
from .static_checks import INNER_FIELDS

# Every word the grammar quotes. Where a name goes, such a word makes this parser give up.
KEYWORDS = frozenset({
    "let", "require", "else", "choose", "from", "exactly", "up", "to", "by", "prompt",
    "pass", "if", "elif", "for", "in", "where", "repeat", "or", "and", "not", "true",
    "false", "none"})

_TOKEN = re.compile(r"""
    (?P<NL>(?:\r?\n[ ]*)+)
  | (?P<SP>[ ]+)
  | (?P<NAME>[a-z_][a-z0-9_]*)
  | (?P<INT>[0-9]+)
  | (?P<STRING>"[^"\n]*")
  | (?P<COMPARE>==|!=|<=|>=|<|>)
  | (?P<OP>[-+*/%=()\[\],.:])
""", re.VERBOSE)

_MAX_DIGITS = 15  # as parser.MAX_DIGITS: a longer number is Lark's to report
_MAX_DEPTH = 30  # nested expressions and blocks; Lark's tree is at most ~3 times deeper
_OPEN, _CLOSE = frozenset("(["), frozenset(")]")

# Token kinds: a keyword is its own word; punctuation its own text; the rest these names.
NAME, INT, STRING, COMPARE, NL, INDENT, DEDENT, END = (
    "NAME", "INT", "STRING", "COMPARE", "NL", "INDENT", "DEDENT", "END")


class _GiveUp(Exception):
    """Not certainly what Lark would parse: Lark decides."""


def parse(source: str, origin, expression: bool) -> ast.Node | None:
    """The tree of `source` (comments already blanked, ending in a line break) as Lark's
    parse gives it, or None: then only Lark can say."""
    try:
        tokens = _tokens(source)
        parser = _Parser(tokens, origin)
        tree = parser.condition() if expression else parser.program()
    except (_GiveUp, IndexError, RecursionError):  # whatever it is, Lark will say
        return None
    if _depth(tree) > _MAX_DEPTH:
        return None
    return tree


def _tokens(source: str) -> list[tuple[str, str, int, int]]:
    """(kind, text, line, column) of each token, with the indentation tokens Lark's
    post-lexer makes: line breaks inside brackets dropped, INDENT and DEDENT where a line
    starts deeper or shallower than the one before."""
    tokens: list[tuple[str, str, int, int]] = []
    append = tokens.append
    match = _TOKEN.match
    position, line, line_start, end = 0, 1, 0, len(source)
    levels = [0]
    brackets = 0
    while position < end:
        found = match(source, position)
        if found is None:
            raise _GiveUp
        kind, text = found.lastgroup, found.group()
        column = position - line_start + 1
        if kind == "NL":
            if brackets == 0:
                append((NL, text, line, column))
                indent = len(text) - text.rfind("\n") - 1
                if indent > levels[-1]:
                    levels.append(indent)
                    append((INDENT, "", line, column))
                else:
                    while indent < levels[-1]:
                        levels.pop()
                        append((DEDENT, "", line, column))
                    if indent != levels[-1]:
                        raise _GiveUp
            line += text.count("\n")
            line_start = position + text.rfind("\n") + 1
        elif kind == "NAME":
            append((text if text in KEYWORDS else NAME, text, line, column))
        elif kind == "OP":
            if text in _OPEN:
                brackets += 1
            elif text in _CLOSE:
                brackets -= 1
                if brackets < 0:
                    raise _GiveUp
            append((text, text, line, column))
        elif kind != "SP":
            append((kind, text, line, column))
        position = found.end()
    tokens.extend((DEDENT, "", line, 1) for _ in levels[1:])
    tokens.append((END, "", line, 1))
    return tokens


def _depth(tree: ast.Node) -> int:
    """How deep the tree is, in nodes (iterative: it may be deep)."""
    deepest = 0
    stack: list[tuple[object, int]] = [(tree, 1)]
    pop, push = stack.pop, stack.extend
    while stack:
        node, depth = pop()
        if isinstance(node, ast.Node):
            if depth > deepest:
                deepest = depth
            depth += 1
            push([(getattr(node, name), depth) for name in INNER_FIELDS[node.__class__]])
        elif isinstance(node, tuple):
            push([(item, depth) for item in node])
    return deepest


class _Parser:
    """Recursive descent over the token list, one method per rule of grammar.lark. Each
    expression method returns (node, where its text starts)."""

    def __init__(self, tokens: list[tuple[str, str, int, int]], origin):
        self.tokens, self.at, self.depth = tokens, 0, 0
        self.map = origin.map

    # -- tokens ----------------------------------------------------------------------------
    def peek(self) -> str:
        return self.tokens[self.at][0]

    def operator_place(self) -> tuple[int, int]:
        """Take the binary operator at hand; where it stands in the file."""
        _, _, line, col = self.tokens[self.at]
        self.at += 1
        return self.map(line, col)

    def take(self, kind: str) -> tuple[str, str, int, int]:
        token = self.tokens[self.at]
        if token[0] != kind:
            raise _GiveUp
        self.at += 1
        return token

    def name(self) -> str:
        return self.take(NAME)[1]

    def enter(self) -> None:
        self.depth += 1
        if self.depth > _MAX_DEPTH:
            raise _GiveUp

    # -- statements ------------------------------------------------------------------------
    def program(self) -> ast.Node:
        first = self.tokens[0]
        if first[0] == NL:
            self.at = 1
        body = []
        while self.peek() != END:
            body.append(self.statement())
        return ast.Program(*self.map(first[2], first[3]), tuple(body))

    def condition(self) -> ast.Node:
        if self.peek() == NL:
            self.at += 1
        node = self.expr()[0]
        if self.peek() == NL:
            self.at += 1
        self.take(END)
        return node

    def statement(self) -> ast.Node:
        kind, _, line, col = self.tokens[self.at]
        compound = {"if": self.if_stmt, "for": self.for_stmt, "repeat": self.repeat_stmt}
        if kind in compound:
            self.enter()
            node = compound[kind](self.map(line, col))
            self.depth -= 1
            return node
        where = self.map(line, col)
        if kind == "let":
            self.at += 1
            name = self.name()
            self.take("=")
            node = ast.Let(*where, name, self.expr()[0])
        elif kind == "require":
            self.at += 1
            condition = self.expr()[0]
            message = None
            if self.peek() == "else":
                self.at += 1
                message = self.message()
            node = ast.Require(*where, condition, message)
        elif kind == "choose":
            node = self.choose(where)
        elif kind == "pass":
            self.at += 1
            node = ast.Pass(*where)
        elif kind == NAME:
            call, _ = self.call()
            node = ast.CallStmt(*where, call)
        else:
            raise _GiveUp
        self.take(NL)
        return node

    def choose(self, where: tuple[int, int]) -> ast.Node:
        self.at += 1
        name = self.name()
        self.take("from")
        options = self.expr()[0]
        mode, count, chooser, prompt = "one", None, None, None
        if self.peek() == "exactly":
            self.at += 1
            mode, count = "exactly", self.expr()[0]
        elif self.peek() == "up":
            self.at += 1
            self.take("to")
            mode, count = "up_to", self.expr()[0]
        if self.peek() == "by":
            self.at += 1
            chooser = self.expr()[0]
        if self.peek() == "prompt":
            self.at += 1
            prompt = self.message()
        return ast.Choose(*where, name, options, mode, count, chooser, prompt)

    def message(self) -> ast.Message:
        """`"key"`, or `("key", a, b)`: a key and its arguments."""
        kind, text, line, col = self.tokens[self.at]
        if kind == STRING:
            self.at += 1
            return ast.Message(*self.map(line, col), text[1:-1])
        self.take("(")
        key = self.take(STRING)[1][1:-1]
        args = []
        while self.peek() == ",":
            self.at += 1
            args.append(self.expr()[0])
        self.take(")")
        return ast.Message(*self.map(line, col), key, tuple(args))

    def block(self) -> tuple[ast.Node, ...]:
        self.take(":")
        self.take(NL)
        self.take(INDENT)
        self.enter()
        body = [self.statement()]
        while self.peek() != DEDENT:
            body.append(self.statement())
        self.at += 1
        self.depth -= 1
        return tuple(body)

    def if_stmt(self, where: tuple[int, int]) -> ast.Node:
        self.at += 1
        branches = [(self.expr()[0], self.block())]
        while self.peek() == "elif":
            self.at += 1
            branches.append((self.expr()[0], self.block()))
        orelse: tuple = ()
        if self.peek() == "else":
            self.at += 1
            orelse = self.block()
        return ast.If(*where, tuple(branches), orelse)

    def for_stmt(self, where: tuple[int, int]) -> ast.Node:
        self.at += 1
        name = self.name()
        self.take("in")
        iterable = self.expr()[0]
        condition = None
        if self.peek() == "where":
            self.at += 1
            condition = self.expr()[0]
        return ast.For(*where, name, iterable, condition, self.block())

    def repeat_stmt(self, where: tuple[int, int]) -> ast.Node:
        self.at += 1
        count = self.expr()[0]
        return ast.Repeat(*where, count, self.block())

    # -- expressions -----------------------------------------------------------------------
    def expr(self) -> tuple[ast.Node, tuple[int, int]]:
        self.enter()
        then, start = self.or_test()
        if self.peek() == "if":
            self.at += 1
            condition = self.or_test()[0]
            self.take("else")
            then = ast.Ternary(*self.map(*start), then, condition, self.expr()[0])
        self.depth -= 1
        return then, start

    def or_test(self) -> tuple[ast.Node, tuple[int, int]]:
        left, start = self.and_test()
        while self.peek() == "or":
            op_at = self.operator_place()
            left = ast.BoolOp(*self.map(*start), "or", left, self.and_test()[0], *op_at)
        return left, start

    def and_test(self) -> tuple[ast.Node, tuple[int, int]]:
        left, start = self.not_test()
        while self.peek() == "and":
            op_at = self.operator_place()
            left = ast.BoolOp(*self.map(*start), "and", left, self.not_test()[0], *op_at)
        return left, start

    def not_test(self) -> tuple[ast.Node, tuple[int, int]]:
        kind, _, line, col = self.tokens[self.at]
        if kind != "not":
            return self.comparison()
        self.at += 1
        self.enter()
        operand = self.not_test()[0]
        self.depth -= 1
        return ast.Not(*self.map(line, col), operand), (line, col)

    def comparison(self) -> tuple[ast.Node, tuple[int, int]]:
        left, start = self.sum()
        kind, text, _, _ = self.tokens[self.at]
        if kind == COMPARE:
            op_at = self.operator_place()
            return ast.Compare(*self.map(*start), text, left, self.sum()[0], *op_at), start
        if kind == "in":
            self.at += 1
            return ast.Member(*self.map(*start), left, self.sum()[0]), start
        if kind == "not" and self.tokens[self.at + 1][0] == "in":  # `a not in b`: not (a in b)
            self.at += 2
            member = ast.Member(*self.map(*start), left, self.sum()[0])
            return ast.Not(*self.map(*start), member), start
        return left, start

    def sum(self) -> tuple[ast.Node, tuple[int, int]]:
        left, start = self.term()
        while self.peek() in ("+", "-"):
            op = self.tokens[self.at][1]
            op_at = self.operator_place()
            left = ast.Binary(*self.map(*start), op, left, self.term()[0], *op_at)
        return left, start

    def term(self) -> tuple[ast.Node, tuple[int, int]]:
        left, start = self.factor()
        while self.peek() in ("*", "/", "%"):
            op = self.tokens[self.at][1]
            op_at = self.operator_place()
            left = ast.Binary(*self.map(*start), op, left, self.factor()[0], *op_at)
        return left, start

    def factor(self) -> tuple[ast.Node, tuple[int, int]]:
        kind, _, line, col = self.tokens[self.at]
        if kind != "-":
            return self.postfix()
        self.at += 1
        self.enter()
        operand = self.factor()[0]
        self.depth -= 1
        return ast.Negate(*self.map(line, col), operand), (line, col)

    def postfix(self) -> tuple[ast.Node, tuple[int, int]]:
        node, start = self.atom()
        while True:
            kind = self.peek()
            if kind == ".":
                self.at += 1
                node = ast.Attribute(*self.map(*start), node, self.name())
            elif kind == "[":
                self.at += 1
                key = self.expr()[0]
                self.take("]")
                node = ast.Index(*self.map(*start), node, key)
            else:
                return node, start

    def atom(self) -> tuple[ast.Node, tuple[int, int]]:
        kind, text, line, col = self.tokens[self.at]
        start = (line, col)
        if kind == NAME:
            if self.tokens[self.at + 1][0] == "(":
                return self.call()
            self.at += 1
            return ast.Name(*self.map(line, col), text), start
        self.at += 1
        if kind == INT:
            if len(text) > _MAX_DIGITS:
                raise _GiveUp
            return ast.Literal(*self.map(line, col), int(text)), start
        if kind == STRING:
            return ast.Literal(*self.map(line, col), text[1:-1]), start
        if kind in ("true", "false", "none"):
            value = {"true": True, "false": False, "none": None}[kind]
            return ast.Literal(*self.map(line, col), value), start
        if kind == "(":
            node = self.expr()[0]
            self.take(")")
            return node, start
        if kind == "[":
            return self.bracket(start), start
        raise _GiveUp

    def bracket(self, start: tuple[int, int]) -> ast.Node:
        """`[a, b]` or `[item for x in items where condition]`, after the `[`."""
        where = self.map(*start)
        if self.peek() == "]":
            self.at += 1
            return ast.ListExpr(*where, ())
        first = self.expr()[0]
        if self.peek() == "for":
            self.at += 1
            name = self.name()
            self.take("in")
            iterable = self.expr()[0]
            condition = None
            if self.peek() == "where":
                self.at += 1
                condition = self.expr()[0]
            self.take("]")
            return ast.Comprehension(*where, first, name, iterable, condition)
        items = [first]
        while self.peek() == ",":
            self.at += 1
            items.append(self.expr()[0])
        self.take("]")
        return ast.ListExpr(*where, tuple(items))

    def call(self) -> tuple[ast.Node, tuple[int, int]]:
        _, name, line, col = self.take(NAME)
        self.take("(")
        args = []
        if self.peek() != ")":
            args.append(self.expr()[0])
            while self.peek() == ",":
                self.at += 1
                args.append(self.expr()[0])
        self.take(")")
        return ast.Call(*self.map(line, col), name, tuple(args)), (line, col)
