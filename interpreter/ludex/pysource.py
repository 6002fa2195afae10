"""Expressions compiled to Python source, for the tests and lists that rules evaluate most.

The compiler turns every syntax node into a closure (compiler.py); a condition such as
`s.kind == "normal" and s.control != none and not allied(s.control, p)` is then a dozen
calls per item of the loop it filters. Here an expression that only looks — comparisons,
`and`/`or`/`not`, attributes of locals, arithmetic, `in`, indexes, lists, comprehensions, calls
of builtin functions and of inlined content functions — is written out as the Python it means
and compiled once by Python itself: one function per expression, one per comprehension and
per inlined function, each a few plain dictionary reads per item.

The source takes the common path only: a space's marker is `state["spaces"][s]["markers"]
[name]`, a static attribute `static[s][name]`, a builtin is called with its checked arguments.
Whatever does not fit that path raises some Python error (a KeyError where a local does not
name a space, a TypeError comparing a text with a number, a rule error from a builtin), and
then the expression runs again through its closures — compiled beside it, with the step count
put back as it was — which return the same value by the general route or raise the proper rule
error at the proper place. Running it twice is safe because such an expression changes
nothing: no verb, no procedure, no draw on the generator (`roll`, `random_pick`) is let in.
Steps are counted as the closures count them (a step per inlined call, an item per item a
comprehension visits), so a run reaches the step budget at the same point either way.

Anything else in an expression (a value of the context, a non-inlined call, a part kept once
per card by hoisting.py) is compiled as a closure and called from the source. `Compiler(fast=
False)` compiles no source; the tests run the language cases, the fuzzed programs and whole
games both ways and compare.
"""

from __future__ import annotations

import collections
import itertools
import re
import types
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import ast
from .arguments import checked, vouched
from .fastpaths import _NOT_CONSTANT, _flatten
from .hoisting import loop_invariant, pure_call
from .limits import MAX_NUMBER, charge, compute, holds_lists, sized, weigh
from .registry import ENTITY_KINDS, REGISTRY
from .runtime import CONTEXT_NAMES
from .static_checks import walk

if TYPE_CHECKING:
    from .compiler import Compiler, Scope

Run = Callable[[Any, list], Any]

# (file, rule, error) -> how often written-out source fell back to the closures: a guess that
# keeps missing costs a second run every time (tests/test_pysource.py keeps it at zero in play)
FALLBACKS: collections.Counter = collections.Counter()

# the nodes an expression written out as source may start with: the ones worth it
ROOTS = (ast.Comprehension, ast.BoolOp, ast.Not, ast.Compare, ast.Call, ast.Binary,
         ast.Ternary, ast.Member)
_SIMPLE_LITERALS = (bool, int, str, type(None))
# Calls of a written-out function that run through its closures before its source is compiled.
# Python's compile of one costs about as much as 30-100 calls through the closures, and most of
# a scenario's effects run a handful of times: at 16, `ludex check` compiles 90 functions
# instead of 245, while a whole game's hot ones still run compiled all but their first calls.
# The test suite and the program fuzzer set 0: their single runs exercise the source.
PLAY_WARM_UP_CALLS = 16
WARM_UP_CALLS = PLAY_WARM_UP_CALLS


def source_expression(compiler: Compiler, node: ast.Node, scope: Scope) -> Run | None:
    """`node` as a function compiled from Python source, with its closures as the fallback;
    None when it is not such an expression (it may change something, or failed to compile)."""
    if not only_looks(node, compiler.env):
        return None
    fallback, clean = _closures(compiler, lambda: compiler.stmt(node, scope))
    if not clean:
        return fallback
    writer = _Writer(compiler)
    body = writer.expr(node, scope)
    return writer.finish(body, fallback)


def source_statements(compiler: Compiler, body: tuple[ast.Node, ...], scope: Scope) -> Run:
    """A run of statements that only look and bind locals (`let`, `if`, `for`, `pass`: rule
    code working a value out before it acts on it) as one function compiled from source.
    On the uncommon path the frame is put back as it was, with the step count, and the
    statements run again through their closures."""
    fallback, clean = _closures(compiler, lambda: compiler.block(body, scope))
    if not clean:
        return fallback
    writer = _Writer(compiler)
    lines = writer.statements(body, scope, "        ")
    return writer.finish_statements(lines, fallback)


def source_verb_call(compiler: Compiler, node: ast.Call, scope: Scope) -> Run:
    """A verb called as a statement (`move_card(card, play_area, me)`), its arguments worked
    out and checked in one function compiled from source, then the verb called and the
    triggers watched as the closures do it. Arguments only look, so on the uncommon path (any
    error working them out) the step count is put back and the closures run the whole call,
    verb included, for their value or their error; an error of the verb itself is the verb's."""
    return source_verb_calls(compiler, (node,), scope)


def source_verb_calls(compiler: Compiler, nodes: tuple[ast.Call, ...], scope: Scope) -> Run:
    """Verbs called as statements one after another (`move_all(discard, deck, p)` then
    `shuffle(deck, p)`) as one function compiled from source, each call as `source_verb_call`
    writes it: a block of closures would add a call or two per statement to the verbs' own.
    Each call's arguments fall back to that call's closures alone (the calls before it have
    run: they do not run again). A call whose arguments are all constants the compiler vouches
    for (`draw(5, deck, hand, north)`) has nothing to work out: it is called at once."""
    from .compiler import _WRONG_VALUE, _paying, _wrong_value  # it imports this module

    errors = len(compiler.errors)
    fallbacks = [_closures(compiler, lambda n=node: compiler.compile_call(n, scope))[0]
                 for node in nodes]  # every call's errors reported, as closures report them
    if len(compiler.errors) != errors:
        return fallbacks[0] if len(nodes) == 1 else _in_order(tuple(fallbacks))
    writer = _Writer(compiler)
    wrong, caught = writer.value(_wrong_value, "wrong"), writer.value(_WRONG_VALUE, "errors")
    single = len(nodes) == 1
    main = f"_v{next(writer.counter)}"
    lines = [f"def {main}(ctx, f):"]
    for node, fallback in zip(nodes, fallbacks, strict=True):
        builtin = REGISTRY[node.name]
        sure = writer.vouched(builtin, node, scope)
        args = writer.arguments(builtin, node, scope, sure)
        fn, where = writer.value(_paying(builtin.fn, builtin.params), "b"), writer.where(node)
        if not single and all(sure) and all(constant_argument(a, scope) for a in node.args):
            lines += _verb_lines(fn, where, args, "    ", wrong, caught)
            continue
        names = [f"_a{next(writer.counter)}" for _ in args]
        if any("S[" in a for a in args):  # read the state: after a verb, as it is now
            lines.append("    S = ctx.state")
        lines += [
            "    steps = ctx.steps",
            "    try:",
            *(f"        {name} = {arg}" for name, arg in zip(names, args, strict=True)),
            "        pass",
            "    except Exception:  # not the common path: the closures decide",
            f"        FALLBACKS[({compiler.file!r}, {compiler.rule!r}, 'verb')] += 1",
            "        ctx.steps = steps",
        ]
        if single:
            lines += ["        return _fallback(ctx, f)",
                      *_verb_lines(fn, where, names, "    ", wrong, caught, "result = "),
                      "    return result"]
        else:
            lines += [f"        {writer.value(fallback, 'fallback')}(ctx, f)", "    else:",
                      *_verb_lines(fn, where, names, "        ", wrong, caught)]
    writer.lines += lines
    return writer.compiled(main, fallbacks[0] if single else _in_order(tuple(fallbacks)))


def _verb_lines(fn: str, where: str, values: list[str], pad: str, wrong: str, caught: str,
                result: str = "") -> list[str]:
    """A verb called with its arguments' values, as compiler.py's `_caller` calls it: a value
    it cannot use is a rule error at the call, and the triggers watch what it wrote."""
    return [f"{pad}try:",
            f"{pad}    {result}{fn}(ctx, {where}{''.join(', ' + v for v in values)})",
            f"{pad}except {caught} as exc:",
            f"{pad}    raise {wrong}({fn}, exc, {where}) from None",
            f"{pad}if ctx.dirty:",
            f"{pad}    ctx.watch(ctx, {where})"]


def constant_argument(node: ast.Node, scope: Scope) -> bool:
    """An argument known when the game loads: a literal, or an id (not a local, not `me`)."""
    return isinstance(node, ast.Literal) or (
        isinstance(node, ast.Name) and node.name not in scope.slots
        and node.name not in CONTEXT_NAMES)


def _in_order(steps: tuple[Run, ...]) -> Run:
    """Statements' closures run one after another (compiler.py's `block`)."""
    def run(ctx: Any, f: list) -> None:
        for step in steps:
            step(ctx, f)
    return run


def _closures(compiler: Compiler, compile_them: Callable[[], Run]) -> tuple[Run, bool]:
    """The part compiled as closures only (the fallback; compiled first, so that its errors
    are reported once, and the source is written only for a part that compiled cleanly), and
    whether it did."""
    errors = len(compiler.errors)
    compiler.source = False
    try:
        fallback = compile_them()
    finally:
        compiler.source = True
    return fallback, len(compiler.errors) == errors


def looking_statements(node: ast.Node, env: Any) -> bool:
    """Whether `node` is a statement that only looks and binds locals: `let`, `if`, `for`
    and `pass`, all the way down, calling nothing that changes anything."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, ast.Let):
            stack.append(item.value)
        elif isinstance(item, ast.If):
            for condition, body in item.branches:
                stack.append(condition)
                stack.extend(body)
            stack.extend(item.orelse)
        elif isinstance(item, ast.For):
            stack += [item.iterable, item.where, *item.body]
        elif isinstance(item, ast.Pass) or item is None:
            continue
        elif type(item) in _STATEMENTS or not only_looks(item, env):
            return False
    return True


_STATEMENTS = (ast.Require, ast.Choose, ast.CallStmt, ast.Repeat, ast.Program)


def only_looks(node: ast.Node, env: Any) -> bool:
    """No call in `node` changes anything (hoisting.pure_call). Walked by hand: this runs for
    every expression compiled, and static_checks.walk's generators cost more than the rest."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, ast.Node):
            if isinstance(item, ast.Call) and not pure_call(item.name, env):
                return False
            stack.extend(item.__dict__.values())
        elif isinstance(item, tuple | list):
            stack.extend(item)
    return True


class _Writer:
    """Writes the source of one expression: its functions and the values they refer to."""

    def __init__(self, compiler: Compiler, shared: dict | None = None,
                 lines: list[str] | None = None, counter: Any = None):
        self.compiler = compiler
        self.env = compiler.env
        self.values: dict[str, Any] = shared if shared is not None else {}
        self.lines: list[str] = lines if lines is not None else []
        self.counter = counter if counter is not None else itertools.count()
        # slots whose value is also in a Python local of the function being written (a loop's
        # item, an inlined function's argument): read from there, the frame is written too
        self.fast_locals: dict[int, str] = {}
        # the markers of a space several tests of one `and`/`or` read, kept in a Python
        # local by the first test: target (as written) -> the local
        self.markers: dict[str, str] = {}
        self.frame_refs = 0  # how many times the source written reads or writes the frame

    def slot(self, slot: int) -> str:
        local = self.fast_locals.get(slot)
        if local is not None:
            return local
        self.frame_refs += 1
        return f"f[{slot}]"

    # -- naming values and places -------------------------------------------------------
    def value(self, value: Any, prefix: str = "v") -> str:
        name = f"_{prefix}{next(self.counter)}"
        self.values[name] = value
        return name

    def where(self, node: ast.Node) -> str:
        return self.value(self.compiler.where(node), "w")

    def closure(self, node: ast.Node, scope: Scope, kind: str | None = None) -> str:
        """A part compiled the usual way, called from the source (its own parts may be
        written out as source again, but not the part itself: that is why it is here)."""
        compiler = self.compiler
        if isinstance(node, ast.Name) or (
                compiler.hoist and loop_invariant(node, scope.slots, self.env)):
            run = compiler.expr(node, scope, kind)
        else:
            run = compiler.stmt(node, scope)
        return f"{self.value(run, 'c')}(ctx, f)"

    # -- the result ---------------------------------------------------------------------
    def finish(self, body: str, fallback: Run) -> Run:
        main = f"_e{next(self.counter)}"
        self.lines += [
            f"def {main}(ctx, f):",
            "    S = ctx.state",
            "    steps = ctx.steps",
            "    try:",
            f"        return {body}",
            "    except Exception as exc:  # not the common path: the closures decide",
            f"        FALLBACKS[({self.compiler.file!r}, {self.compiler.rule!r}, "
            f"type(exc).__name__)] += 1",
            "        ctx.steps = steps",
            "        return _fallback(ctx, f)",
        ]
        return self.compiled(main, fallback)

    def finish_statements(self, lines: list[str], fallback: Run) -> Run:
        main = f"_s{next(self.counter)}"
        lines, load, store = self.locals_for_frame(lines)
        self.lines += [
            f"def {main}(ctx, f):",
            "    S = ctx.state",
            "    steps, frame = ctx.steps, f[:]",
            "    try:",
            *load,
            *lines,
            *store,
            "    except Exception:  # not the common path: the closures decide",
            f"        FALLBACKS[({self.compiler.file!r}, {self.compiler.rule!r}, "
            "'statements')] += 1",
            "        ctx.steps = steps",
            "        f[:] = frame",
            "        _fallback(ctx, f)",
        ]
        return self.compiled(main, fallback)

    def locals_for_frame(self, lines: list[str]) -> tuple[list[str], list[str], list[str]]:
        """Statements that hand the frame to nothing (no closure, no function of their own)
        keep the slots they write in Python locals — `let total = total + row.cu` in a loop
        reads and writes a local, not the frame — loaded before and stored after: the lines
        so rewritten, and the loads and stores. Only when every `f[n]` in the text is one the
        writer wrote (a text literal that reads `f[0]` is left alone: nothing changes)."""
        text = "\n".join(lines)
        found = _FRAME_SLOT.findall(text)
        if not found or len(found) != self.frame_refs or re.search(_HANDS_FRAME, text):
            return lines, [], []
        written = sorted({int(n) for n in _FRAME_WRITE.findall(text)})
        if not written:
            return lines, [], []
        slot = re.compile(rf"\bf\[({'|'.join(map(str, written))})\]")
        return ([slot.sub(r"_f\1", line) for line in lines],
                [f"        _f{n} = f[{n}]" for n in written],
                [f"        f[{n}] = _f{n}" for n in written])

    def compiled(self, main: str, fallback: Run) -> Run:
        """The function `main` of the source written, compiled by Python after
        `WARM_UP_CALLS` calls: most of a game's effects run never or a few times in a
        scenario or a short game, and the closures (`fallback`) do the same work, so loading
        and short runs need not pay for a compile. Where Python cannot compile it (nesting past its
        parser's limits) the closures go on doing it. The function returned is the one
        compiled: its code is put in place, and later calls go straight to it."""
        namespace = {**self.values, **_HELPERS, "_fallback": fallback, "FALLBACKS": FALLBACKS,
                     "_static": self.env.static, "_card_texts": self.env.cards}
        text, filename = "\n".join(self.lines), f"<{self.compiler.file}>"
        start = _first_call if WARM_UP_CALLS > 0 else _second_call
        function = types.FunctionType(start.__code__, namespace, main)

        calls = 0

        def run_once(ctx: Any, f: list) -> Any:
            nonlocal calls
            calls += 1
            if calls >= WARM_UP_CALLS:
                function.__code__ = _second_call.__code__
            return fallback(ctx, f)

        def compile_now(ctx: Any, f: list) -> Any:
            try:
                with warnings.catch_warnings():  # `true[0]` is a rule error in play, no warning
                    warnings.simplefilter("ignore", SyntaxWarning)
                    code = compile(text, filename, "exec")
                exec(code, namespace)  # defines the functions written above, nothing else
                function.__code__ = namespace[main].__code__
            except (SyntaxError, RecursionError, MemoryError, ValueError):
                function.__code__ = _closures_only.__code__
            del namespace["_compile_now"], namespace["_run_once"]  # and with them the text
            return function(ctx, f)
        namespace["_run_once"], namespace["_compile_now"] = run_once, compile_now
        return function

    # -- statements ---------------------------------------------------------------------
    def statements(self, body: tuple[ast.Node, ...], scope: Scope, pad: str) -> list[str]:
        lines: list[str] = []
        for node in body:
            lines += self.statement(node, scope, pad)
        return lines

    def statement(self, node: ast.Node, scope: Scope, pad: str) -> list[str]:
        if isinstance(node, ast.Pass):
            return [f"{pad}pass"]
        if isinstance(node, ast.Let):  # the value first: `let x = x + 1` reads the old x
            value = self.expr(node.value, scope)
            self.frame_refs += 1
            return [f"{pad}f[{scope.bind(node.name)}] = {value}"]
        if isinstance(node, ast.If):
            lines = []
            for number, (condition, body) in enumerate(node.branches):
                word = "if" if number == 0 else "elif"
                lines.append(f"{pad}{word} {self.expr(condition, scope)}:")
                lines += self.statements(body, scope, pad + "    ")
            if node.orelse:
                lines.append(f"{pad}else:")
                lines += self.statements(node.orelse, scope, pad + "    ")
            return lines
        assert isinstance(node, ast.For)  # looking_statements let nothing else in
        compiler, where = self.compiler, self.where(node)
        items = f"_items{next(self.counter)}"
        iterable = self.expr(node.iterable, scope)
        constant = self.values.get(iterable)  # a list known when the game loads, or None
        charge = f"ctx.steps += {len(constant)}" if constant.__class__ is list else \
            f"ctx.steps += len({items}) if {items}.__class__ is list else _sized({items}, {where})"
        lines = [f"{pad}{items} = {iterable}", f"{pad}{charge}",
                 f"{pad}if ctx.steps > ctx.budget: ctx.step({where})"]
        slot = scope.bind(node.name)
        parts, keep = compiler.loop_filter_parts(node, scope)
        if keep is not None:
            kept = self.kept_items(keep, items, constant, pad)
            if constant.__class__ is list and f"({items}, f)" not in kept[0]:
                del lines[0]  # the list is counted by its length, and the kept items replace it
            lines += kept
        item = f"_x{next(self.counter)}"
        rebound = any(isinstance(n, ast.Let | ast.For) and n.name == node.name
                      for n in walk(node.body))
        outer = self.fast_locals
        if not rebound:  # a `let` of the same name would leave the local behind
            self.fast_locals = {**outer, slot: item}
        inner = pad + "    "
        body = []
        if parts:
            body.append(f"{inner}if {' and '.join(self.expr(p, scope) for p in parts)}:")
            inner += "    "
        body += self.statements(node.body, scope, inner)
        self.fast_locals = outer
        self.frame_refs += 1
        if rebound or re.search(rf"\bf\[{slot}\]|{_HANDS_FRAME}", "\n".join(body)):
            return [*lines, f"{pad}for {item} in {items}:", f"{pad}    f[{slot}] = {item}",
                    *body]
        # nothing in the body reads the item from the frame (it reads the Python local):
        # the frame gets the last item, as the loop would have left it, once at the end
        return [*lines, f"{pad}for {item} in {items}:", *body,
                f"{pad}if {items}: f[{slot}] = {items}[-1]"]

    def kept_items(self, keep: Callable, items: str, constant: list | None, pad: str
                   ) -> list[str]:
        """The items a loop's filter worked out at load keeps (fastpaths.py), written in
        place of a call of `keep` where its work is a lookup: a table's rows that pass tests
        against constants, an index of them by a local's value, the passing items of a list
        that never changes."""
        rows, index = getattr(keep, "rows", None), getattr(keep, "index", None)
        if rows is not None:
            return [f"{pad}{items} = {self.value(rows)}"]
        if index is not None:  # a wanted value no row can hold (a list) finds nothing
            return [f"{pad}try:",
                    f"{pad}    {items} = {self.value(index)}.get({self.slot(keep.slot)}, ())",
                    f"{pad}except TypeError:",
                    f"{pad}    {items} = ()"]
        if constant is not None and getattr(keep, "items", None) is constant:
            return [f"{pad}{items} = {self.value(keep.passing)}"]
        return [f"{pad}{items} = {self.value(keep, 'keep')}({items}, f)"]

    # -- expressions --------------------------------------------------------------------
    def expr(self, node: ast.Node, scope: Scope, kind: str | None = None) -> str:
        compiler = self.compiler
        if compiler.hoist and loop_invariant(node, scope.slots, self.env):
            return self.closure(node, scope, kind)  # kept once per card (hoisting.py)
        if isinstance(node, ast.Literal):
            if node.value.__class__ in _SIMPLE_LITERALS:
                return repr(node.value)
            return self.value(node.value)
        if isinstance(node, ast.Name):
            return self.name(node, scope, kind)
        method = getattr(self, f"write_{type(node).__name__.lower()}", None)
        if method is None:
            return self.closure(node, scope, kind)
        return method(node, scope)

    def name(self, node: ast.Name, scope: Scope, kind: str | None) -> str:
        """As compiler.py's `compile_name` resolves it: a local, the context's `me`, an id."""
        name = node.name
        if name in scope.slots:
            return self.slot(scope.slots[name])
        if name in CONTEXT_NAMES and kind not in ENTITY_KINDS[1:]:
            return "ctx.me" if name == "me" else self.closure(node, scope, kind)
        namespaces = self.env.kinds.get(name, ())
        if kind in ENTITY_KINDS:
            if kind in namespaces:
                return repr(name)
            return "ctx.me" if name == "me" else self.closure(node, scope, kind)
        if namespaces:
            return repr(name)
        return self.closure(node, scope, kind)

    def write_boolop(self, node: ast.BoolOp, scope: Scope) -> str:
        """`a and b and c`; when the first test reads a marker of a space (`s.control ==
        p`) and later ones read that space's markers too, the first keeps the space's
        markers in a local for the others: it always runs first."""
        nodes = _flatten(node, node.op)
        first = _leading_marker(nodes[0], self.compiler)
        saved = dict(self.markers)
        parts = [self.expr(nodes[0], scope)]
        if first is not None:
            target = self.marker_target(first, scope)
            shared = f"_m{next(self.counter)}"
            lead = f'S["spaces"][{target}]["markers"]'
            if target is not None and lead in parts[0] and target not in self.markers:
                parts[0] = parts[0].replace(lead, f"({shared} := {lead})", 1)
                self.markers[target] = shared
        parts += [self.expr(p, scope) for p in nodes[1:]]
        self.markers = saved
        return "(" + f" {node.op} ".join(parts) + ")"

    def marker_target(self, node: ast.Attribute, scope: Scope) -> str | None:
        """How the space whose marker `node` reads is written (`f[3]`, `x`,
        `x['space']`), or None when it is not one of those shapes."""
        target = node.target
        if isinstance(target, ast.Name) and target.name in scope.slots:
            return self.slot(scope.slots[target.name])
        if isinstance(target, ast.Attribute) and isinstance(target.target, ast.Name) \
                and target.target.name in scope.slots:
            return f"{self.slot(scope.slots[target.target.name])}[{target.name!r}]"
        return None

    def write_not(self, node: ast.Not, scope: Scope) -> str:
        return f"(not {self.expr(node.operand, scope)})"

    def write_compare(self, node: ast.Compare, scope: Scope) -> str:
        return f"({self.expr(node.left, scope)} {node.op} {self.expr(node.right, scope)})"

    def write_member(self, node: ast.Member, scope: Scope) -> str:
        return f"({self.expr(node.item, scope)} in {self.expr(node.collection, scope)})"

    def write_ternary(self, node: ast.Ternary, scope: Scope) -> str:
        return (f"({self.expr(node.then, scope)} if {self.expr(node.condition, scope)} "
                f"else {self.expr(node.otherwise, scope)})")

    def write_negate(self, node: ast.Negate, scope: Scope) -> str:
        return f"(-{self.expr(node.operand, scope)})"

    def write_index(self, node: ast.Index, scope: Scope) -> str:
        return f"{self.expr(node.target, scope)}[{self.expr(node.key, scope)}]"

    def write_binary(self, node: ast.Binary, scope: Scope) -> str:
        left, right = self.expr(node.left, scope), self.expr(node.right, scope)
        if node.op in ("+", "-"):
            # a whole number within bounds is kept in place, as limits.compute keeps it;
            # anything else (a text, a list, past the bounds) goes through compute itself, and
            # Python's own refusal (a text plus a number) to the closures, which say it
            # (an operand that is a plain read is read again there, not kept on the way); the
            # bounds are tested against a one-digit int first, which Python compares fastest
            n = next(self.counter)
            a, b, result = f"_p{n}", f"_q{n}", f"_r{n}"
            first = left if _PLAIN_READ.fullmatch(left) else f"({a} := {left})"
            second = right if _PLAIN_READ.fullmatch(right) else f"({b} := {right})"
            a, b = (left if first == left else a), (right if second == right else b)
            self.frame_refs += len(_FRAME_SLOT.findall(a + b))  # the slots read again
            return (f"({result} if ({result} := {first} {node.op} {second}).__class__ is int "
                    f"and (-{_ONE_DIGIT} <= {result} <= {_ONE_DIGIT} "
                    f"or -{MAX_NUMBER} <= {result} <= {MAX_NUMBER}) "
                    f"else _compute({node.op!r}, {a}, {b}, ctx, {self.where(node)}))")
        return f"_compute({node.op!r}, {left}, {right}, ctx, {self.where(node)})"

    def write_listexpr(self, node: ast.ListExpr, scope: Scope) -> str:
        items = ", ".join(self.expr(i, scope) for i in node.items)
        return f"_listed([{items}], ctx, {self.where(node)})"

    def write_attribute(self, node: ast.Attribute, scope: Scope) -> str:
        """`local.name` in the order the game's reader looks (gamedef.attribute_reader): a
        table row's cell, a space's marker, a static attribute, a card's; and
        `row.space.marker`."""
        name, target = node.name, node.target
        if isinstance(target, ast.Name) and target.name in scope.slots:
            local = self.slot(scope.slots[target.name])
            entity = self.entity_attribute(local, name)
            if entity == f"{local}[{name!r}]":  # no entity has it: a row's cell, or an error
                return entity
            return f"({local}[{name!r}] if {local}.__class__ is dict else {entity})"
        if isinstance(target, ast.Attribute) and isinstance(target.target, ast.Name) \
                and target.target.name in scope.slots and self.compiler.is_marker(name):
            row = self.slot(scope.slots[target.target.name])  # `row.space.besieged`
            space = f"{row}[{target.name!r}]"
            if space in self.markers:
                return f"{self.markers[space]}[{name!r}]"
            return f'S["spaces"][{space}]["markers"][{name!r}]'
        return self.closure(node, scope)

    def entity_attribute(self, local: str, name: str) -> str:
        env = self.env
        if self.compiler.is_marker(name):
            if local in self.markers:
                return f"{self.markers[local]}[{name!r}]"
            return f'S["spaces"][{local}]["markers"][{name!r}]'
        instance = f'S["cards"][{local}]'
        if name == "zone":
            card = f'{instance}["zone"][0]'
        elif name == "owner":  # nobody's is "" in the state, none in the language
            card = f'({instance}["owner"] or None)'
        elif name == "card":
            card = f'{instance}["card"]'
        elif name in env.card_names:
            card = f'_card_texts[{instance}["card"]][{name!r}]'
        else:
            card = None
        if name in env.static_names:
            static = f"_static[{local}][{name!r}]"
            return static if card is None else f"({static} if {local} in _static else {card})"
        return card if card is not None else f"{local}[{name!r}]"  # nothing has it: an error

    def write_call(self, node: ast.Call, scope: Scope) -> str:
        builtin = REGISTRY.get(node.name)
        if builtin is not None:
            return self.builtin_call(builtin, node, scope)
        compiler = self.compiler
        if node.name in self.env.inlinable and node.name in self.env.functions \
                and compiler.inline_depth < _max_inline_depth() \
                and len(self.env.function_params[node.name]) == len(node.args):
            return self.inline_call(node, scope)
        return self.closure(node, scope)

    def builtin_call(self, builtin: Any, node: ast.Call, scope: Scope) -> str:
        compiler = self.compiler
        sure = self.vouched(builtin, node, scope)
        if builtin.static and all(sure):
            folded = compiler.folded(node, scope)
            if folded is not _NOT_CONSTANT:
                return self.value(folded[0])
        args = self.arguments(builtin, node, scope, sure)
        from .compiler import _paying  # the compiler imports this module

        fn = self.value(_paying(builtin.fn, builtin.params), "b")
        call = f"{fn}(ctx, {self.where(node)}"
        in_place = _IN_PLACE.get((builtin.name, len(args)))
        if in_place is not None:
            return in_place(args, call, [f"_a{next(self.counter)}" for _ in args])
        return call + "".join(", " + a for a in args) + ")"

    def vouched(self, builtin: Any, node: ast.Call, scope: Scope) -> list[bool]:
        """For each argument, whether the compiler vouches for it (no check in play)."""
        return [vouched(a, builtin.kind(i), builtin.nullable(i), scope.slots, self.env)
                for i, a in enumerate(node.args)]

    def arguments(self, builtin: Any, node: ast.Call, scope: Scope,
                  sure: list[bool] | None = None) -> list[str]:
        """A builtin's arguments as source, each checked as the closures check it unless
        the compiler vouches for it (`sure`, when worked out already)."""
        if sure is None:
            sure = self.vouched(builtin, node, scope)
        args = []
        for i, (arg, ok) in enumerate(zip(node.args, sure, strict=True)):
            text = self.expr(arg, scope, builtin.kind(i))
            if not ok:
                text = self.checked_argument(text, builtin, i, self.compiler.where(arg))
            args.append(text)
        return args

    def checked_argument(self, text: str, builtin: Any, index: int, where: Any) -> str:
        """An argument the compiler could not vouch for, checked as the closures check it
        (arguments.py): the usual kinds tested in place — an id in the kind's set, a whole
        number — and anything else, or a value that fails, through the same checker."""
        kind = builtin.kind(index)
        check = self.value(_value_check(checked(_first, builtin, index, where, self.env,
                                                slot=0)), "k")
        value = f"_a{next(self.counter)}"
        if kind in ENTITY_KINDS and kind != "card":
            ids = self.value(self.env.id_set(kind), "ids")
            test = f"({value} := {text}).__class__ is str and {value} in {ids}"
        elif kind in ("int", "count"):
            test = f"({value} := {text}).__class__ is int" + \
                (f" and {value} >= 0" if kind == "count" else "")
        elif kind == "card":
            test = f'({value} := {text}).__class__ is str and {value} in S["cards"]'
        else:
            return f"{check}(ctx, {text})"
        return f"({value} if {test} else {check}(ctx, {value}))"

    def inline_call(self, node: ast.Call, scope: Scope) -> str:
        """A content function that cannot reach itself, as a function of its own written out
        here (compiler.py's `inline_call` does the same with closures): its parameters take
        fresh slots of the caller's frame, and the call counts a step."""
        from .compiler import Compiler, Scope

        tree, file, params = self.env.function_trees[node.name]
        inner = Scope(params, parent=scope)
        callee = Compiler(self.env, file, node.name, fast=True)
        callee.inline_depth = self.compiler.inline_depth + 1
        writer = _Writer(callee, self.values, self.lines, self.counter)
        names = [f"a{i}" for i in range(len(params))]
        writer.fast_locals = {inner.slots[p]: a for p, a in zip(params, names, strict=True)}
        body = writer.expr(tree, inner)
        args = [self.expr(a, scope) for a in node.args]
        name, where = f"_f{next(self.counter)}", self.where(node)
        self.lines += [
            f"def {name}(ctx, f, {', '.join(names)}):",
            "    S = ctx.state",
            "    ctx.steps += 1",
            f"    if ctx.steps > ctx.budget: ctx.step({where})",
            *(f"    f[{inner.slots[p]}] = {a}" for p, a in zip(params, names, strict=True)),
            f"    return {body}",
        ]
        if self.compiler.hoist and pure_call(node.name, self.env):
            # in a card filter, with the card among its arguments (else hoisting kept the
            # whole call): the value for each list of arguments, worked out once per listing
            return f"_remembered(ctx, {self.value(object(), 'key')}, {name}, f, " \
                f"{', '.join(args)})"
        return f"{name}(ctx, f, {', '.join(args)})"

    def write_comprehension(self, node: ast.Comprehension, scope: Scope) -> str:
        """`[item for x in xs where a and b]` as a loop of its own function, with the same
        prefilters as the closures (fastpaths.py's `loop_filter`)."""
        compiler, outer, markers = self.compiler, self.fast_locals, self.markers
        # a function of its own: the caller's Python locals are not here
        self.fast_locals, self.markers = {}, {}
        iterable = self.expr(node.iterable, scope)
        constant = self.values.get(iterable)  # a list known when the game loads, or None
        slot = scope.bind(node.name)
        parts, keep = compiler.loop_filter_parts(node, scope)
        kept = [] if keep is None else self.kept_items(keep, "values", constant, "    ")
        self.fast_locals = {slot: "x"}
        tests = [self.expr(p, scope) for p in parts]
        item, where = self.expr(node.item, scope), self.where(node)
        self.fast_locals, self.markers = outer, markers
        name = f"_l{next(self.counter)}"
        size = len(constant) if constant.__class__ is list else f"_sized(values, {where})"
        lines = [f"def {name}(ctx, f):",
                 "    S = ctx.state",
                 f"    values = {iterable}",
                 f"    ctx.steps += {size}",
                 f"    if ctx.steps > ctx.budget: ctx.step({where})",
                 *kept]
        lines += ["    out = []",
                  "    for x in values:",
                  f"        f[{slot}] = x"]
        if tests:
            lines += [f"        if {' and '.join(tests)}:",
                      f"            out.append({item})"]
        else:
            lines.append(f"        out.append({item})")
        lines.append(f"    return _weigh(out, ctx, {where}) if _holds_lists(out) else out")
        self.lines += lines
        return f"{name}(ctx, f)"


# a local, a frame slot or a whole number, or an item or cell of a local by a constant
# (`_x8['cu']`): read twice at no cost, and nothing that could go wrong the second time
_PLAIN_READ = re.compile(r"-?\d+|(?:_?[A-Za-z]\w*|f\[\d+\])(?:\[(?:'\w*'|\d+)\])*")
_ONE_DIGIT = 2**30 - 1  # the largest int CPython keeps in one digit (its fastest compares)

# source handing the frame to a function (a closure, a comprehension's or an inlined
# function's own function), which may read any slot of it
_HANDS_FRAME = r"\bf[,)]"
_FRAME_SLOT = re.compile(r"\bf\[(\d+)\]")
_FRAME_WRITE = re.compile(r"\bf\[(\d+)\] = ")


def _max_inline_depth() -> int:
    from .compiler import MAX_INLINE_DEPTH

    return MAX_INLINE_DEPTH


def _leading_marker(node: ast.Node, compiler: Compiler) -> ast.Attribute | None:
    """The marker read `node` starts with, when nothing in it runs before that read (`s.x`,
    `not s.x`, `s.x == …`), else None."""
    if isinstance(node, ast.Not):
        node = node.operand
    elif isinstance(node, ast.Compare):
        node = node.left
    if isinstance(node, ast.Attribute) and compiler.is_marker(node.name):
        return node
    return None


def _pieces_in_place(args: list[str], call: str, names: list[str]) -> str:
    """`pieces(kind, power, space)`: the space's count read in place; a power or space that
    is none (the count over all of them) is left to the builtin."""
    kind, power, space = names
    values = f"(({kind} := {args[0]}), ({power} := {args[1]}), ({space} := {args[2]}))"
    return (f"({call}, {kind}, {power}, {space}) if {values}[1] is None or {space} is None "
            f'else S["spaces"][{space}]["pieces"].get({power}, _NO_PIECES).get({kind}, 0))')


def _counter_in_place(args: list[str], call: str, names: list[str]) -> str:
    """`counter(name, power)`: a per-power counter's value read in place; a counter with one
    value, or no power given, is left to the builtin (which says what is wrong)."""
    name, power, values = names[0], names[1], f"{names[0]}v"
    return (f'({values}[{power}] if ({values} := S["counters"][({name} := {args[0]})])'
            f".__class__ is dict and ({power} := {args[1]}) is not None else "
            f"{call}, {name}, {args[1]}))")


# Builtins called at every step of the bundled games' loops, written out in place: the
# builtin's own work in its usual case, the arguments worked out in the closures' order, the
# builtin itself for the rest (and any Python error, as everywhere in the source, runs the
# closures instead).
_IN_PLACE: dict[tuple[str, int], Callable[[list[str], str, list[str]], str]] = {
    ("pieces", 3): _pieces_in_place, ("counter", 2): _counter_in_place}


def _remembered(ctx: Any, key: object, function: Callable, f: list, *args: Any) -> Any:
    """A content function that only looks, called from a card filter while one action's
    options are listed (`ctx.memo`, hoisting.py): its value for the same arguments is the
    same for every card, so it is worked out the first time they are met. Arguments other
    than names and whole numbers (a list, `true`, which equals 1) are not kept."""
    memo = ctx.memo
    if memo is None or not all(a.__class__ is str or a.__class__ is int or a is None
                               for a in args):
        return function(ctx, f, *args)
    value = memo.get((key, *args), memo)  # the memo itself: nothing kept yet
    if value is memo:
        value = memo[(key, *args)] = function(ctx, f, *args)
    return value


def _first_call(ctx: Any, f: list) -> Any:
    """The code of a written-out function during its warm-up calls (`_Writer.compiled`)."""
    return _run_once(ctx, f)  # noqa: F821 - a name of the function's own namespace


def _second_call(ctx: Any, f: list) -> Any:
    """The code of a written-out function once warmed up: its next call compiles it."""
    return _compile_now(ctx, f)  # noqa: F821 - a name of the function's own namespace


def _closures_only(ctx: Any, f: list) -> Any:
    """The code of a written-out function that Python could not compile."""
    return _fallback(ctx, f)  # noqa: F821 - a name of the function's own namespace


def _first(ctx: Any, f: list) -> Any:
    return f[0]


def _value_check(check: Run) -> Callable[[Any, Any], Any]:
    """arguments.checked's test, for a value already worked out."""
    def test(ctx, value):
        return check(ctx, [value])
    return test


def _listed(values: list, ctx: Any, where: Any) -> list:
    return weigh(values, ctx, where) if holds_lists(values) else values


_HELPERS = {"_NO_PIECES": {}, "_remembered": _remembered,
            "_compute": compute, "_listed": _listed, "_charge": charge, "_sized": sized,
            "_weigh": weigh, "_holds_lists": holds_lists}
