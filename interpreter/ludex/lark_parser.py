"""Parsing effect text with Lark: the grammar built once, its parse tree made into the AST
(ast.py), and its errors — every syntax error of the language — made into diagnostics that say
what was meant. parser.py comes here for what the hand-written parser (fast_parser.py) is not
sure of."""

from __future__ import annotations

import re
from functools import cache

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import (
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)
from lark.indenter import Indenter

from . import ast
from .errors import Diagnostic, LudexError, character_named
from .limits import MAX_NESTING
from .parser import GRAMMAR, MAX_DIGITS, Origin


class _BadDedent(Exception):
    """A line dedented to a column where no open block starts (lark's DedentError carries no
    position; this one does)."""

    def __init__(self, line: int, indent: int, levels: list[int]):
        super().__init__(line, indent, levels)
        self.line, self.indent, self.levels = line, indent, levels


class _Indenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ("LPAR", "LSQB")
    CLOSE_PAREN_types = ("RPAR", "RSQB")
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4

    def handle_NL(self, token: Token):
        if self.paren_level == 0:
            indent = len(token.rsplit("\n", 1)[1])
            if indent < self.indent_level[-1] and indent not in self.indent_level:
                raise _BadDedent(token.end_line, indent, list(self.indent_level))
        yield from super().handle_NL(token)


@cache
def grammar(strict: bool = False) -> Lark:
    # cache=True keeps the built LALR tables in the temp folder, keyed by the grammar's hash:
    # a cold `ludex` command skips most of the ~0.25 s that building them takes.
    return Lark(GRAMMAR.read_text(encoding="utf-8"), parser="lalr", lexer="contextual",
                postlex=_Indenter(), start=["start", "condition"], strict=strict,
                propagate_positions=True, maybe_placeholders=True, cache=not strict)


@v_args(meta=True)
class _ToAst(Transformer):
    def __init__(self, origin: Origin):
        super().__init__()
        self.origin = origin

    def _at(self, meta) -> tuple[int, int]:
        if getattr(meta, "empty", True):
            return self.origin.map(1, 1)
        return self.origin.map(meta.line, meta.column)

    def start(self, meta, body):
        return ast.Program(*self._at(meta), tuple(body))

    def condition(self, meta, children):
        return children[0]

    def block(self, meta, body):
        return tuple(body)

    def let(self, meta, c):
        return ast.Let(*self._at(meta), str(c[0]), c[1])

    def require(self, meta, c):
        return ast.Require(*self._at(meta), c[0], c[1])

    def choose(self, meta, c):
        name, options, count, chooser, prompt = c
        mode, amount = count if count else ("one", None)
        return ast.Choose(*self._at(meta), str(name), options, mode, amount, chooser, prompt)

    def message(self, meta, c):
        return ast.Message(*self._at(meta), _unquote(c[0]), tuple(c[1:]))

    def exactly(self, meta, c):
        return ("exactly", c[0])

    def up_to(self, meta, c):
        return ("up_to", c[0])

    def call_stmt(self, meta, c):
        return ast.CallStmt(*self._at(meta), c[0])

    def pass_stmt(self, meta, c):
        return ast.Pass(*self._at(meta))

    def if_stmt(self, meta, c):
        branches = [(c[0], c[1])]
        orelse: tuple = ()
        for part in c[2:]:
            if part is None:
                continue
            if part[0] == "elif":
                branches.append(part[1:])
            else:
                orelse = part[1]
        return ast.If(*self._at(meta), tuple(branches), orelse)

    def elif_clause(self, meta, c):
        return ("elif", c[0], c[1])

    def else_clause(self, meta, c):
        return ("else", c[0])

    def for_stmt(self, meta, c):
        return ast.For(*self._at(meta), str(c[0]), c[1], c[2], c[3])

    def repeat_stmt(self, meta, c):
        return ast.Repeat(*self._at(meta), c[0], c[1])

    def _operator_at(self, token: Token) -> tuple[int, int]:
        return self.origin.map(token.line, token.column)

    def or_op(self, meta, c):
        return ast.BoolOp(*self._at(meta), "or", c[0], c[2], *self._operator_at(c[1]))

    def and_op(self, meta, c):
        return ast.BoolOp(*self._at(meta), "and", c[0], c[2], *self._operator_at(c[1]))

    def not_op(self, meta, c):
        return ast.Not(*self._at(meta), c[0])

    def compare(self, meta, c):
        return ast.Compare(*self._at(meta), str(c[1]), c[0], c[2], *self._operator_at(c[1]))

    def member(self, meta, c):
        return ast.Member(*self._at(meta), c[0], c[1])

    def not_member(self, meta, c):  # `a not in b` is `not (a in b)`
        return ast.Not(*self._at(meta), ast.Member(*self._at(meta), c[0], c[1]))

    def binary(self, meta, c):
        return ast.Binary(*self._at(meta), str(c[1]), c[0], c[2], *self._operator_at(c[1]))

    def negate(self, meta, c):
        return ast.Negate(*self._at(meta), c[0])

    def attribute(self, meta, c):
        return ast.Attribute(*self._at(meta), c[0], str(c[1]))

    def call(self, meta, c):
        args = tuple(a for a in c[1:] if a is not None)
        return ast.Call(*self._at(meta), str(c[0]), args)

    def name(self, meta, c):
        return ast.Name(*self._at(meta), str(c[0]))

    def number(self, meta, c):
        if len(c[0]) > MAX_DIGITS:  # decided before conversion: Python refuses 4,300+ digits
            line, col = self._at(meta)
            raise LudexError(Diagnostic(self.origin.file, line, col, "effect/number-too-large",
                                        f"a number of {len(c[0])} digits; numbers in effects "
                                        f"have at most {MAX_DIGITS}"))
        return ast.Literal(*self._at(meta), int(c[0]))

    def string(self, meta, c):
        return ast.Literal(*self._at(meta), _unquote(c[0]))

    def true(self, meta, c):
        return ast.Literal(*self._at(meta), True)

    def false(self, meta, c):
        return ast.Literal(*self._at(meta), False)

    def none(self, meta, c):
        return ast.Literal(*self._at(meta), None)

    def index(self, meta, c):
        return ast.Index(*self._at(meta), c[0], c[1])

    def ternary(self, meta, c):
        return ast.Ternary(*self._at(meta), c[0], c[1], c[2])

    def comprehension(self, meta, c):
        return ast.Comprehension(*self._at(meta), c[0], str(c[1]), c[2], c[3])

    def list_expr(self, meta, c):
        return ast.ListExpr(*self._at(meta), tuple(a for a in c if a is not None))


def _unquote(token: Token | str) -> str:
    return str(token)[1:-1]


def parse_source(source: str, origin: Origin, expression: bool) -> ast.Node:
    """Parse `source` (comments blanked, ending in a line break) with Lark."""
    try:
        tree = grammar().parse(source, start="condition" if expression else "start")
    except (UnexpectedInput, _BadDedent) as exc:
        raise LudexError(_syntax_errors(exc, origin, source, expression)) from None
    too_deep = _too_deep(tree)
    if too_deep is not None:  # refused before anything walks the tree recursively
        line, col = origin.map(too_deep, _indent_of(source.split("\n"), too_deep) + 1)
        raise LudexError(Diagnostic(origin.file, line, col, "effect/too-deep",
                                    f"blocks or expressions nested more than {MAX_NESTING} "
                                    "levels deep (a long chain of operators nests too); split "
                                    "the effect into procedures or `let` steps"))
    try:
        return _ToAst(origin).transform(tree)
    except (RecursionError, VisitError) as exc:  # lark wraps what a transformer method raises
        if isinstance(exc, VisitError) and isinstance(exc.orig_exc, LudexError):
            raise exc.orig_exc from None
        if isinstance(exc, VisitError) and not isinstance(exc.orig_exc, RecursionError):
            raise
        line, col = origin.map(1, 1)
        raise LudexError(Diagnostic(origin.file, line, col, "effect/too-deep",
                                    "blocks or expressions nested too deeply to read; "
                                    "split the effect into procedures")) from None


MAX_SYNTAX_ERRORS = 10  # in one text: past a few, the first ones are the ones to fix


def _syntax_errors(exc: Exception, origin: Origin, source: str, expression: bool,
                   budget: int = MAX_SYNTAX_ERRORS) -> list[Diagnostic]:
    """The first syntax error of `source`, and those of the statements after it: the text
    is read again from the next statement that starts at the left margin past the line the
    parser stopped at, with the lines above it left blank (their line numbers kept); and
    when the statement that failed is nested in a block, the rest of that block first, from
    its next statement at the same indentation, read on its own. A bracket left open before
    the error is taken to be part of it (`f(a, b` and the next line); brackets opened after
    it must close before a line can start a statement, and a line the one above meant to go
    on (`a and`) starts none: a second error there could be the first one's echo, and one
    true error is worth more than two that mislead."""
    found = [_diagnostic(exc, origin, source, folded_hint=not expression)]
    lines = source.split("\n")
    stopped = _error_line(exc, len(lines))
    begin = _brackets_from(exc, source, lines, stopped, 1)
    stopped, begin = _after_blocks(found, lines, origin, stopped, begin, budget)
    while not expression and len(found) < budget:
        resume = _next_statement(lines, stopped, begin)
        if resume is None:
            break
        rest = "\n" * (resume - 1) + "\n".join(lines[resume - 1:])
        try:
            grammar().parse(rest, start="start")
        except (UnexpectedInput, _BadDedent) as again:
            found.append(_diagnostic(again, origin, rest))
            stopped = max(_error_line(again, len(lines)), resume)
            begin = _brackets_from(again, rest, lines, stopped, resume)
            stopped, begin = _after_blocks(found, lines, origin, stopped, begin, budget)
            continue
        break
    return found[:budget]


def _after_blocks(found: list[Diagnostic], lines: list[str], origin: Origin, stopped: int,
                  begin: int, budget: int) -> tuple[int, int]:
    """Adds to `found` the errors of the blocks around a failed nested statement, and says
    from where the margin's statements are looked for then: (line stopped at, line brackets
    are counted from) — below those blocks, whose brackets are their own business."""
    errors, covered = _block_errors(lines, origin, stopped, begin, budget - len(found))
    found += errors
    return (covered, covered + 1) if covered > stopped else (stopped, begin)


class _Shifted:
    """The places of a block's lines read on their own, dedented by `indent`: a column of
    the dedented text is `indent` columns further right in the effect text."""

    def __init__(self, origin: Origin, indent: int):
        self.file, self.origin, self.indent = origin.file, origin, indent

    def map(self, line: int, col: int) -> tuple[int, int]:
        return self.origin.map(line, col + self.indent)


def _block_errors(lines: list[str], origin: Origin, stopped: int, begin: int, budget: int
                  ) -> tuple[list[Diagnostic], int]:
    """The syntax errors of the rest of each block the failed statement (line `begin`)
    stands in, innermost first: from a block's next statement at its indentation to its end,
    read on its own, dedented (its own errors collected the same way); then the block around
    it, up to the left margin. With the last line those blocks cover (`stopped` for a
    statement at the margin), below which the margin's statements are looked for."""
    found: list[Diagnostic] = []
    after, start = stopped, begin
    indent = _indentation(lines[begin - 1]) if begin <= len(lines) else 0
    while indent > 0 and len(found) < budget:
        end = _block_end(lines, after, indent)
        resume = _next_statement(lines, after, start, indent)
        if resume is not None:
            chunk = "\n".join([""] * (resume - 1) + [line[indent:]
                                                     for line in lines[resume - 1:end]]) + "\n"
            try:
                grammar().parse(chunk, start="start")
            except (UnexpectedInput, _BadDedent) as again:
                found += _syntax_errors(again, _Shifted(origin, indent), chunk, False,
                                        budget - len(found))
        # the block is done: the one around it goes on below it, at its header's indentation
        header = next((n for n in range(begin - 1, 0, -1) if lines[n - 1].strip()
                       and _indentation(lines[n - 1]) < indent), None)
        outer = 0 if header is None else _indentation(lines[header - 1])
        end = _branches(lines, end, outer, origin, found, budget)
        after, start, indent = end, end + 1, outer
        begin = header or begin
    return found[:budget], after


def _branches(lines: list[str], end: int, indent: int, origin: Origin,
              found: list[Diagnostic], budget: int) -> int:
    """After an `if`'s block at `indent` that held an error: its `elif` and `else` blocks,
    each read on its own (their errors added to `found`); returns the last line of the
    last of them (`end` when none follows)."""
    while end < len(lines) and len(found) < budget:
        line = next((n for n in range(end + 1, len(lines) + 1) if lines[n - 1].strip()), None)
        if line is None or _indentation(lines[line - 1]) != indent \
                or not re.match(r"(?:elif\b|else\s*:)", lines[line - 1].lstrip(" ")):
            break
        body = next((n for n in range(line + 1, len(lines) + 1) if lines[n - 1].strip()), None)
        if body is None or _indentation(lines[body - 1]) <= indent:
            break
        inner = _indentation(lines[body - 1])
        end = _block_end(lines, body, inner)
        chunk = "\n".join([""] * (body - 1) + [text[inner:] for text in lines[body - 1:end]])
        try:
            grammar().parse(chunk + "\n", start="start")
        except (UnexpectedInput, _BadDedent) as again:
            found += _syntax_errors(again, _Shifted(origin, inner), chunk + "\n", False,
                                    budget - len(found))
    return end


def _block_end(lines: list[str], after: int, indent: int) -> int:
    """The last line of the block at `indent` that holds line `after`: the line before the
    first line below it that is not blank and starts left of `indent`."""
    end = after
    while end < len(lines) and (not lines[end].strip() or _indentation(lines[end]) >= indent):
        end += 1
    return end


def _indentation(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _brackets_from(exc: Exception, source: str, lines: list[str], stopped: int, first: int
                   ) -> int:
    """The line from which brackets are counted to find where the next statement may start:
    below the error when a bracket left open before it is the error (it never closes), else
    the first line of the statement that failed (`[1,` above a broken `2 3,` still holds the
    lines below it in the list)."""
    token = getattr(exc, "token", None)
    if token is not None and _unclosed_before(source, token) is not None:
        return stopped + 1
    deepest = _indentation(lines[stopped - 1]) if stopped <= len(lines) else 0
    for number in range(stopped, first - 1, -1):  # the nearest statement holding that line
        text = lines[number - 1]
        if _STATEMENT_START.match(text.lstrip(" ")) and _indentation(text) <= deepest:
            return number
    return first


def _diagnostic(exc: Exception, origin: Origin, source: str, folded_hint: bool = True
                ) -> Diagnostic:
    if isinstance(exc, _BadDedent):
        return _bad_dedent(exc, origin)
    return _syntax_error(exc, origin, source, folded_hint)


def _error_line(exc: Exception, last: int) -> int:
    """The line the parser stopped at (an error at the end of the text: its last line)."""
    token = getattr(exc, "token", None)
    if token is not None and token.type in ("_INDENT", "_DEDENT") \
            and getattr(token, "end_line", None):
        return token.end_line  # an indent's token starts with the line break before its line
    return getattr(exc, "line", None) or last


# how a statement's line begins: `elif` and `else` go on with an `if`, a `]` or `3,` with a list
_STATEMENT_START = re.compile(r"(?:let|require|choose|pass|if|for|repeat)\b|[A-Za-z_]\w*\s*\(")


# a line ending so was meant to go on below (`a and`, `x +`): a call on the next line is taken
# for the rest of its expression, not a statement (a keyword, `let`…, starts one all the same)
_GOES_ON = re.compile(r"(?:\b(?:and|or|not|in|else|if)|[-+*/%,=<>(\[])\s*$")
_KEYWORD_START = re.compile(r"(?:let|require|choose|pass|if|for|repeat)\b")


def _next_statement(lines: list[str], after: int, begin: int, indent: int = 0
                    ) -> int | None:
    """The first line below line `after` (1-based) that starts a statement at `indent`
    (the left margin by default; a statement's keyword, or a name called when the line
    above does not go on), with every bracket opened from line `begin` on closed; None if
    there is none — or, for an indented block, if the block ends first."""
    depth = 0
    for number in range(begin, len(lines) + 1):
        text = lines[number - 1]
        statement = text[indent:] if _indentation(text) == indent else ""
        if number > after and depth == 0 and indent and text.strip() \
                and _indentation(text) < indent:
            return None  # out of the block
        above = next((t for t in reversed(lines[:number - 1]) if t.strip()), "")
        if number > after and depth == 0 and _STATEMENT_START.match(statement) \
                and (_KEYWORD_START.match(statement) or not _GOES_ON.search(above)):
            return number
        depth = max(depth + _bracket_change(text), 0)
    return None


def _bracket_change(text: str) -> int:
    """Brackets opened minus closed on a line, outside strings (a string ends on its line)."""
    change, quoted = 0, False
    for char in text:
        if char == '"':
            quoted = not quoted
        elif not quoted:
            change += (char in "([") - (char in ")]")
    return change


def _too_deep(tree: Tree) -> int | None:
    """The line of the effect text where the syntax tree goes deeper than MAX_NESTING
    levels, else None. Iterative: the tree may be far deeper than Python's
    stack."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            meta = node.meta
            return 1 if getattr(meta, "empty", True) else meta.line
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))
    return None


def _columns(origin: Origin, line: int, indents: list[int]) -> str:
    """Indentation levels as the file's columns: 'column 7', 'column 7 or 11'."""
    cols = [f"{origin.map(line, i + 1)[1]}" for i in indents]
    return "column " + (cols[0] if len(cols) == 1 else ", ".join(cols[:-1]) + " or " + cols[-1])


def _bad_dedent(exc: _BadDedent, origin: Origin) -> Diagnostic:
    line, col = origin.map(exc.line, exc.indent + 1)
    message = (f"inconsistent indentation: this line starts at column {col}, where no open "
               f"block starts; expected {_columns(origin, exc.line, exc.levels)}")
    return Diagnostic(origin.file, line, col, "effect/indentation", message)


def _indentation_error(exc: UnexpectedToken, origin: Origin, source: str) -> Diagnostic | None:
    """An indentation mistake, said as such: a block's body not indented under its `:` line,
    or a line indented deeper than the block it belongs to."""
    token = exc.token
    accepts = _accepted(exc)
    if token.type == "_INDENT":
        # an indent token borrows the position of the line break before it
        line, indent = token.end_line, len(str(token).rsplit("\n", 1)[-1])
        lines = source.split("\n")
        first = _first_line_out_of_line(lines, line, indent)
        if first is not None:
            first_in_file, col = origin.map(first, 1)
            return Diagnostic(origin.file, first_in_file, col, "effect/indentation",
                              f"this line starts at column {col}, left of the lines below it "
                              f"({_columns(origin, line, [indent])}): a YAML block takes its "
                              "indentation from its first line, so the lines below read as "
                              "indented under this one; line it up with them")
        above = _indent_of(lines, line - 1)
        line_in_file, col = origin.map(line, indent + 1)
        return Diagnostic(origin.file, line_in_file, col, "effect/indentation",
                          "unexpected indentation: this line is deeper than the block it "
                          f"belongs to; expected {_columns(origin, line, [above])}")
    if "_INDENT" in accepts and token.type not in ("_INDENT", "$END"):
        line = token.line
        lines = source.split("\n")
        opener = _indent_of(lines, line - 1)
        line_in_file, col = origin.map(line, token.column)
        return Diagnostic(origin.file, line_in_file, col, "effect/indentation",
                          "expected an indented block after `:`: this line must start right "
                          f"of {_columns(origin, line, [opener])}, where the line ending in "
                          f"`:` starts (e.g. at {_columns(origin, line, [opener + 4])})")
    return None


def _first_line_out_of_line(lines: list[str], line: int, indent: int) -> int | None:
    """The text's first line, when it (and any line down to `line`, which is indented to
    `indent` where no block opens) starts left of the lines from `line` on, and more of these
    agree on `indent` than there are lines above: then the lines above are out of line (a `|`
    block's first line a space short), not `line`."""
    above = [text for text in lines[:line - 1] if text.strip()]
    if not above or any(text.startswith(" ") for text in above):
        return None
    below = [len(text) - len(text.lstrip(" ")) for text in lines[line - 1:] if text.strip()]
    if min(below) < indent or below.count(indent) < max(2, len(above) + 1):
        return None
    return next(number for number, text in enumerate(lines, 1) if text.strip())


def _accepted(exc: UnexpectedToken) -> dict:
    """The tokens the parser would have taken (lark's `expected` can miss `_INDENT` after a
    line break); empty if lark's parser state ever looks otherwise."""
    try:
        return exc.state.parse_conf.parse_table.states[exc.state.position]
    except (AttributeError, KeyError, TypeError):
        return {}


def _indent_of(lines: list[str], line: int) -> int:
    """Indentation of the nearest non-blank line at or above `line` (1-based), or 0."""
    for text in reversed(lines[:line]):
        if text.strip():
            return len(text) - len(text.lstrip(" "))
    return 0


_FRIENDLY = {
    "_NL": "end of line", "_INDENT": "indented block", "_DEDENT": "end of block",
    "$END": "end of text", "NAME": "a name", "INT": "a number", "STRING": "a \"string\"",
    "COLON": "`:`", "LPAR": "`(`", "RPAR": "`)`", "LSQB": "`[`", "RSQB": "`]`",
    "EQUAL": "`=`", "COMMA": "`,`", "DOT": "`.`", "MINUS": "`-`", "COMPARE": "a comparison",
    "ADD_OP": "`+` or `-`", "MUL_OP": "`*`, `/` or `%`",
}

# What a designer coming from another language most often meant.
_CHARACTER_HINTS = {"&": "write `and`", "|": "write `or`", "!": "write `not` (or `!=`)",
                    '"': "a string ends on the line it starts on, with `\"`",
                    "'": "strings are written in double quotes"}


def _token_hint(token: Token, previous: Token | None, source: str) -> str:
    if token.type == "EQUAL" and previous is not None and previous.type == "EQUAL":
        return "`let name = …` takes one `=`"
    end = getattr(token, "end_pos", None)
    if token.type == "EQUAL" and end is not None and source[end:end + 1] == "!":
        return "not equal is written `!=`"
    if token.type == "EQUAL" and previous is not None and previous.type != "LET":
        line = source.split("\n")[token.line - 1].split()
        if line and line[0] == str(previous) and len(line) > 1 and line[1] == "=":
            return f"to set a local, write `let {previous} = …`"
        return "to compare, write `==`"
    if token.type == "IF" and previous is not None and previous.type == "ELSE":
        return "write `elif`"
    start = getattr(token, "start_pos", None)
    if token.type == "INT" and start is not None and start >= 2 and source[start - 1] == "." \
            and source[start - 2].isdigit():  # `7.5`: a whole number, a dot, a number
        whole = re.search(r"\d+$", source[:start - 1])[0]
        return (f"numbers are whole numbers: `{whole}.{token}` has a fraction; count in "
                "smaller units (a counter of half-points) or round it")
    return ""


def _unclosed_before(source: str, token: Token) -> tuple[str, int, int] | None:
    """The bracket still open at `token` that was opened on an earlier line, with its
    (line, column): the unexpected token is then most likely the next statement, read as
    going on inside it."""
    start = getattr(token, "start_pos", None)
    if start is None or token.type in ("$END",):
        return None
    opened: list[tuple[str, int, int]] = []
    line, col, quoted = 1, 0, False
    for char in source[:start]:
        col += 1
        if char == "\n":
            line, col, quoted = line + 1, 0, False
        elif char == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif char in "([":
            opened.append((char, line, col))
        elif char in ")]" and opened:
            opened.pop()
    if opened and opened[-1][1] < token.line:
        return opened[-1]
    return None


def _syntax_error(exc: UnexpectedInput, origin: Origin, source: str,
                  folded_hint: bool = True) -> Diagnostic:
    """`folded_hint`: an effect's statements may have been joined by YAML's folding (a
    condition is one expression, which folding leaves as it means)."""
    line, col = getattr(exc, "line", 1) or 1, getattr(exc, "column", 1) or 1
    if isinstance(exc, UnexpectedToken):
        indentation = _indentation_error(exc, origin, source)
        if indentation is not None:
            return indentation
    if isinstance(exc, UnexpectedCharacters):
        message = f"unexpected character `{exc.char}`"
        if exc.char == "\t":
            message = "a tab character: indent effect text with spaces"
        elif exc.char in _CHARACTER_HINTS:
            message += f" ({_CHARACTER_HINTS[exc.char]})"
        elif not exc.char.isascii():  # a Cyrillic `а` looks like `a`: say which it is
            message += f" ({character_named(exc.char)}" + (
                "; names use the ASCII letters a–z)" if exc.char.isalpha() else ")")
    elif isinstance(exc, UnexpectedToken):
        token = exc.token
        shown = "end of line" if token.type == "_NL" else (
            "end of text" if token.type == "$END" else f"`{token}`")
        if token.type in ("_INDENT", "_DEDENT"):
            shown = "a change of indentation"
        expected = sorted({_FRIENDLY.get(t, f"`{t.lower()}`" if t.isupper() else t)
                           for t in exc.expected if not t.startswith("__")})
        message = f"unexpected {shown}"
        history = getattr(exc, "token_history", None) or []
        hint = _token_hint(token, history[-1] if history else None, source)
        unclosed = _unclosed_before(source, token)
        if not hint and unclosed is not None:
            bracket, at_line, at_col = unclosed
            opened_line, opened_col = origin.map(at_line, at_col)
            hint = (f"the `{bracket}` at line {opened_line}, column {opened_col} is not "
                    "closed")
        if hint:
            message += f" ({hint})"
        elif expected and len(expected) <= 8:
            message += f"; expected {', '.join(expected)}"
    elif isinstance(exc, UnexpectedEOF):
        message = "unexpected end of text"
    else:  # pragma: no cover - lark has no other kinds today
        message = str(exc).splitlines()[0]
    file_line, file_col = origin.map(line, col)
    # a line end wanted where the file has one: the text's line is several of the file's
    if folded_hint and isinstance(exc, UnexpectedToken) and "_NL" in exc.expected \
            and origin.map(line, 1)[0] != file_line:
        message += (" (the text's lines were joined into one: a `>` block, or a plain text "
                     "over several lines, folds them; write the effect as a `|` block)")
    return Diagnostic(origin.file, file_line, file_col, "effect/syntax", message)
