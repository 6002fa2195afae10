"""Compile the effect AST into Python closures, once, at load time.

Every node becomes a function `run(ctx, frame)`; local variables live in numbered slots of the
frame, fixed at compile time, so nothing is looked up by name while a game runs. Names of
spaces, powers, counters and the rest are resolved here: a misspelling is a compile error with
"did you mean", never a surprise in play. No `eval` of content, no `getattr` on names from
content: the only Python compiled while a game loads is what pysource.py writes from the syntax
tree, with every content value in it a `repr` literal.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Iterator
from typing import Any

from . import ast
from .arguments import checked, vouched
from .builtins import ENTITY_KINDS, REGISTRY
from .errors import Diagnostic, did_you_mean
from .fastpaths import _NOT_CONSTANT, FastPaths, _flatten
from .hoisting import kept, loop_invariant
from .limits import MAX_NUMBER, charge, compute, holds_lists, sized, weigh
from .plain_words import kind_of, missing_item, plain
from .pysource import ROOTS as SOURCE_ROOTS
from .pysource import (
    constant_argument,
    looking_statements,
    source_expression,
    source_statements,
    source_verb_call,
    source_verb_calls,
)
from .registry import suggest_builtin
from .replays import replayed, worth_keeping
from .runtime import CONTEXT_NAMES, Context, Decision, EmptyChoice, Illegal, RuleError, Where
from .static_checks import walk

Run = Callable[[Context, list], Any]

_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
            ">": operator.gt, ">=": operator.ge}
MAX_REPEAT = 1000
MAX_CALL_DEPTH = 60  # content calls nest a few Python frames each; stay clear of Python's limit
MAX_INLINE_DEPTH = 6  # functions inlined into inlined functions…: beyond this, a plain call


def _none_hint(builtin, given: int) -> str:
    """For a call one argument short whose missing one may be `none` (the power of a draw
    between two shared zones): say so, since leaving it out is the usual way to get there."""
    missing = builtin.params[given] if given < len(builtin.params) else ""
    if given == builtin.required - 1 and missing in builtin.none_for:
        return f" (where there is no {missing}, pass `none` for it)"
    return ""


def _caller(fn: Callable, where: Where, args: tuple[Run, ...], verb: bool,
            constants: tuple | None = None) -> Run:
    """A closure calling a builtin with its evaluated arguments. Arguments all known at
    compile time (`set_counter(coins, red, 0)`: `constants`) are passed as they are; the usual
    arities get their own closure, with the arguments in place (no tuple built and unpacked on
    every call). A value of the wrong kind met at run time (a number where a list belongs, a
    name that is not a power) becomes a rule error naming the place, never a Python crash.
    After a verb that wrote what a state trigger reads (`ctx.dirty`), the engine's triggers
    get their look (`ctx.watch`): they fire the moment they become true, mid-effect.

    The closures below differ only in how they pass the arguments. Each repeats the error and
    trigger handling on purpose: a shared helper would cost one more call per builtin call,
    the very cost these variants exist to save (measured in benchmarks/engine.py)."""
    if constants is not None and len(constants) == 3:
        a, b, c = constants

        def call_constants3(ctx, f):
            try:
                result = fn(ctx, where, a, b, c)
            except _WRONG_VALUE as exc:
                raise _wrong_value(fn, exc, where) from None
            if verb and ctx.dirty:
                ctx.watch(ctx, where)
            return result
        return call_constants3
    if constants is not None:
        def call_constants(ctx, f):
            try:
                result = fn(ctx, where, *constants)
            except _WRONG_VALUE as exc:
                raise _wrong_value(fn, exc, where) from None
            if verb and ctx.dirty:
                ctx.watch(ctx, where)
            return result
        return call_constants
    if len(args) == 1:
        (a,) = args

        def call1(ctx, f):
            try:
                result = fn(ctx, where, a(ctx, f))
            except _WRONG_VALUE as exc:
                raise _wrong_value(fn, exc, where) from None
            if verb and ctx.dirty:
                ctx.watch(ctx, where)
            return result
        return call1
    if len(args) == 2:
        a, b = args

        def call2(ctx, f):
            try:
                result = fn(ctx, where, a(ctx, f), b(ctx, f))
            except _WRONG_VALUE as exc:
                raise _wrong_value(fn, exc, where) from None
            if verb and ctx.dirty:
                ctx.watch(ctx, where)
            return result
        return call2
    if len(args) == 3:
        a, b, c = args

        def call3(ctx, f):
            try:
                result = fn(ctx, where, a(ctx, f), b(ctx, f), c(ctx, f))
            except _WRONG_VALUE as exc:
                raise _wrong_value(fn, exc, where) from None
            if verb and ctx.dirty:
                ctx.watch(ctx, where)
            return result
        return call3

    def call_n(ctx, f):
        try:
            result = fn(ctx, where, *[a(ctx, f) for a in args])
        except _WRONG_VALUE as exc:
            raise _wrong_value(fn, exc, where) from None
        if verb and ctx.dirty:
            ctx.watch(ctx, where)
        return result
    return call_n


_WRONG_VALUE = (TypeError, KeyError, ValueError, IndexError, AttributeError)
_NOT_YET = object()  # an index's list or key not worked out when its error was raised


def _wrong_value(fn: Callable, exc: Exception, where: Where) -> RuleError:
    fn = getattr(fn, "__wrapped__", fn)  # a builtin paying for its lists (_paying)
    name = next((b.name for b in REGISTRY.values() if b.fn is fn), "a builtin")
    detail = f"no `{exc.args[0]}` here" if isinstance(exc, KeyError) else plain(exc)
    return RuleError("effect/type-error", f"`{name}` was given a value it cannot use: {detail}",
                     where)


def _paying(fn: Callable, params: tuple[str, ...]) -> Callable:
    """A builtin taking lists, made to pay a step for every item of the lists it is given
    (`sum(xs)` over a long list is long work, limits.py)."""
    positions = tuple(i for i, kind in enumerate(params) if kind.rstrip("?") == "list")
    if not positions:
        return fn

    @functools.wraps(fn)
    def paying(ctx, where, *args):
        for i in positions:
            if i < len(args) and args[i].__class__ is list:
                charge(ctx, len(args[i]), where)
        return fn(ctx, where, *args)
    return paying


def _by_words(name: str, kinds: dict[str, tuple[str, ...]]) -> str:
    """' (did you mean `gain(vp, …)`?)' for `add_vp`: a builtin found by the words of the name
    (registry.suggest_builtin), when no name is spelt closely enough for did_you_mean."""
    found = suggest_builtin(name, lambda word: kinds.get(word, ()))
    return " (did you mean " + ", ".join(f"`{f}`" for f in found[:3]) + "?)" if found else ""


class CompileError(Exception):
    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics


class Scope:
    """Compile-time map of local names to frame slots; nested blocks share one frame. An
    inlined function gets a scope of its own names whose slots are fresh ones of the same
    frame (`parent`): it sees none of its caller's locals."""

    def __init__(self, params: tuple[str, ...] = (), parent: Scope | None = None):
        self.slots: dict[str, int] = {}
        # the frame's own scope; None: this one (not a reference to itself: a cycle would
        # leave every scope of a lazily compiled guard to the garbage collector)
        self._frame = parent.frame if parent is not None else None
        self.size = 0  # on the frame's own scope: how many slots the frame needs
        for name in params:
            self.bind(name)

    @property
    def frame(self) -> Scope:
        return self if self._frame is None else self._frame

    def bind(self, name: str) -> int:
        if name not in self.slots:
            self.slots[name] = self.frame.size
            self.frame.size += 1
        return self.slots[name]


class Compiler(FastPaths):
    """Turns one effect's AST into a closure, collecting every error instead of stopping."""

    def __init__(self, env: Any, file: str, rule: str, fast: bool | None = None,
                 source: bool = True):
        self.env = env  # gamedef.GameDef: names, kinds, tables, procedures
        self.file, self.rule = file, rule
        # False: no fused shapes (fastpaths.py); the tests compile both ways and compare
        self.fast = env.fast_paths if fast is None else fast
        self.inline_depth = 0
        self.errors: list[Diagnostic] = []
        self.asking: str | None = None  # the name a `choose` binds, while its prompt compiles
        # compiling a card filter: keep its parts that do not depend on the card (hoisting.py)
        self.hoist = False
        # False: the definition is only checked, never played (GameDef.play): nothing is
        # done that only makes play faster and changes no diagnostic
        self.play = getattr(env, "play", True)
        # expressions that only look are compiled to Python source (pysource.py), unless the
        # definition is only checked or the code runs once (`source=False`: a scenario's
        # expectations, where writing the source would cost more than it saves)
        self.source = self.fast and source and self.play
        # each local of the program compiling, at its first `let` or `choose`: a name read
        # before it is unknown there, and the error says where it is set
        self.set_at: dict[str, ast.Node] = {}

    # -- entry points ------------------------------------------------------------------
    def program(self, node: ast.Program, params: tuple[str, ...] = (),
                extra: tuple[str, ...] = ()) -> tuple[Run, int]:
        scope = Scope(params + extra)
        self.set_at = {}
        for each in walk(node):
            if isinstance(each, ast.Let | ast.Choose):
                self.set_at.setdefault(each.name, each)
        body = self.block(node.body, scope)
        if self.errors:
            raise CompileError(self.errors)
        return body, scope.size

    def expression(self, node: ast.Node, extra: tuple[str, ...] = ()) -> tuple[Run, int]:
        scope = Scope(extra)
        run = self.expr(node, scope)
        if self.errors:
            raise CompileError(self.errors)
        return run, scope.size

    # -- helpers -----------------------------------------------------------------------
    def where(self, node: ast.Node) -> Where:
        return Where(self.file, node.line, node.col, self.rule)

    def error(self, node: ast.Node, code: str, message: str) -> Run:
        self.errors.append(Diagnostic(self.file, node.line, node.col, code, message))
        return lambda ctx, f: None

    def block(self, body: tuple[ast.Node, ...], scope: Scope) -> Run:
        steps = tuple(self.statements(body, scope))
        if len(steps) == 1:
            return steps[0]
        if len(steps) == 2:
            first, second = steps

            def run_two(ctx, f):
                first(ctx, f)
                second(ctx, f)
            return run_two
        if len(steps) == 3:
            first, second, third = steps

            def run_three(ctx, f):
                first(ctx, f)
                second(ctx, f)
                third(ctx, f)
            return run_three

        def run(ctx, f):
            for step in steps:
                step(ctx, f)
        return run

    def statements(self, body: tuple[ast.Node, ...], scope: Scope) -> Iterator[Run]:
        """Each statement's closure, in order; a run of statements that only look and bind
        locals, with a loop among them, is written out as one function (pysource.py)."""
        start = 0
        while start < len(body):
            end = start
            while self.source and end < len(body) and self.verb_statement(body[end]):
                end += 1
            if end - start > 1:  # verbs called one after another: one function
                yield source_verb_calls(self, tuple(n.call for n in body[start:end]), scope)
                start = end
                continue
            while self.source and end < len(body) and looking_statements(body[end], self.env):
                end += 1
            if any(isinstance(n, ast.For) for n in body[start:end]):
                yield source_statements(self, body[start:end], scope)
                start = end
                continue
            for node in body[start:max(end, start + 1)]:
                yield self.stmt(node, scope)
            start = max(end, start + 1)

    def verb_statement(self, node: ast.Node) -> bool:
        """A statement calling a verb with as many arguments as it takes (else
        `compile_callstmt` says what is wrong)."""
        if not isinstance(node, ast.CallStmt) or node.call.name in self.env.function_params:
            return False
        builtin = REGISTRY.get(node.call.name)
        return builtin is not None and builtin.verb \
            and builtin.required <= len(node.call.args) <= len(builtin.params)

    def stmt(self, node: ast.Node, scope: Scope) -> Run:
        method = getattr(self, f"compile_{type(node).__name__.lower()}")
        return method(node, scope)

    def expr(self, node: ast.Node, scope: Scope, kind: str | None = None) -> Run:
        if self.hoist and loop_invariant(node, scope.slots, self.env):
            self.hoist = False  # the largest such part is kept; nothing inside it again
            try:
                return kept(self.expr(node, scope, kind))
            finally:
                self.hoist = True
        if isinstance(node, ast.Name):
            return self.compile_name(node, scope, kind)
        if self.source and isinstance(node, SOURCE_ROOTS):
            written = source_expression(self, node, scope)
            if written is not None:
                return written
        return self.stmt(node, scope)

    # -- statements --------------------------------------------------------------------
    def compile_let(self, node: ast.Let, scope: Scope) -> Run:
        accumulate = self.fast and self.accumulate(node, scope)
        if accumulate:
            return accumulate
        value = self.expr(node.value, scope)
        if self.play and worth_keeping(node.value, self.env):
            value = replayed(value)
        slot = scope.bind(node.name)

        def run(ctx, f):
            f[slot] = value(ctx, f)
        return run

    def compile_require(self, node: ast.Require, scope: Scope) -> Run:
        condition, message, where, args = self._require_parts(node, scope)

        def run(ctx, f):
            if not condition(ctx, f):
                # the reason's arguments, worked out as the rule is broken
                raise Illegal("rules/illegal-action", message, where,
                              args(ctx, f) if args else None)
        return run

    def require_refusal(self, node: ast.Require, scope: Scope) -> Run:
        """A `require` as a test that gives the `Illegal` it would raise, or None when it
        holds: an action's guard (action_guards.py) asks it without raising, and most of
        what it tests is refused. A reason with no arguments is the same refusal every time:
        made once."""
        condition, message, where, args = self._require_parts(node, scope)
        if args is None:
            refusal = Illegal("rules/illegal-action", message, where, None)

            def constant(ctx, f):
                return None if condition(ctx, f) else refusal
            return constant

        def test(ctx, f):
            if condition(ctx, f):
                return None
            return Illegal("rules/illegal-action", message, where, args(ctx, f))
        return test

    def _require_parts(self, node: ast.Require, scope: Scope) -> tuple:
        """A `require`'s condition, reason key, place and reason's arguments (None: none)."""
        condition = self.expr(node.condition, scope)
        where = self.where(node)
        message = node.message.key if node.message else "requirement not met"
        args = self.compile_message(node.message, scope) if node.message else None
        return condition, message, where, args

    def compile_message(self, node: ast.Message, scope: Scope) -> Run | None:
        """A message's arguments as the template reads them, `{"a0": …, "a1": …}` (as `log`
        passes them), worked out when the message is shown; None for a key alone."""
        if not node.args:
            return None
        values = tuple(self.expr(arg, scope) for arg in node.args)
        names = tuple(f"a{i}" for i in range(len(values)))

        def run(ctx, f):
            return {name: value(ctx, f) for name, value in zip(names, values, strict=True)}
        return run

    def compile_choose(self, node: ast.Choose, scope: Scope) -> Run:
        options = self.expr(node.options, scope)
        if self.play and worth_keeping(node.options, self.env):
            options = replayed(options)
        count = self.expr(node.count, scope) if node.count else None
        chooser = self.expr(node.chooser, scope, "power") if node.chooser else None
        # the prompt is read before the answer is bound, as the options are
        self.asking = node.name  # named in its own prompt: said so (compile_name)
        try:
            prompt_args = self.compile_message(node.prompt, scope) if node.prompt else None
        finally:
            self.asking = None
        slot = scope.bind(node.name)
        where, mode = self.where(node), node.mode
        prompt = node.prompt.key if node.prompt else "choose"

        def run(ctx, f):
            ctx.step(where)
            choices = options(ctx, f)
            charge(ctx, sized(choices, where), where)
            choices = list(choices)
            amount = count(ctx, f) if count else 1
            if amount.__class__ is not int:
                raise RuleError("effect/type-error", f"choose needs a number of choices, not "
                                f"{kind_of(amount)}", where)
            if amount < 0:  # a count worked out in play (`count(…) - 1`) that came out below 0
                raise RuleError("effect/bad-count", f"choose needs 0 or more choices, not "
                                f"{amount}", where)
            who = chooser(ctx, f) if chooser else ctx.me
            if mode == "exactly" and amount > len(choices):
                raise Illegal("rules/illegal-action",
                              f"needs {amount} choices, only {len(choices)} possible", where)
            if mode == "one" and not choices:  # the question it would ask is said (EmptyChoice)
                raise EmptyChoice(where, who, prompt, _said_args(prompt_args, ctx, f))
            if mode == "one" and len(choices) == 1:  # nothing to decide
                f[slot] = choices[0]
                return
            decision = Decision(who, prompt, choices, mode, amount, ctx.asker(where),
                                prompt_args(ctx, f) if prompt_args else {})
            answer = ctx.ask(decision, where)
            f[slot] = decision.check(answer, where)
        return run

    def compile_callstmt(self, node: ast.CallStmt, scope: Scope) -> Run:
        call = node.call
        builtin = REGISTRY.get(call.name)
        if call.name in self.env.function_params or (builtin is not None and not builtin.verb):
            return self.error(call, "effect/not-a-statement",
                              f"`{call.name}` computes a value; use it in an expression "
                              "(e.g. `let x = …`)")
        if self.source and builtin is not None \
                and builtin.required <= len(call.args) <= len(builtin.params) \
                and not all(constant_argument(a, scope) for a in call.args):
            # a verb with arguments known only in play (locals, `me`, expressions): written
            # out as source; one with constant arguments has a closure as fast
            return source_verb_call(self, call, scope)
        return self.compile_call(call, scope)

    def compile_pass(self, node: ast.Pass, scope: Scope) -> Run:
        return lambda ctx, f: None

    def compile_if(self, node: ast.If, scope: Scope) -> Run:
        if self.fast and len(node.branches) == 1 and not node.orelse:
            condition, body = node.branches[0]
            if isinstance(condition, ast.BoolOp) and condition.op == "and":
                # `if a and b and c:` tests its parts in one closure: only truth matters here
                parts = tuple(self.expr(p, scope) for p in _flatten(condition, "and"))
                return self.if_all(parts, self.block(body, scope))
        branches = tuple((self.expr(cond, scope), self.block(body, scope))
                         for cond, body in node.branches)
        orelse = self.block(node.orelse, scope) if node.orelse else None
        if len(branches) == 1:
            (condition, body), = branches
            if orelse is None:
                def run_if(ctx, f):
                    if condition(ctx, f):
                        body(ctx, f)
                return run_if

            def run_if_else(ctx, f):
                if condition(ctx, f):
                    body(ctx, f)
                else:
                    orelse(ctx, f)
            return run_if_else

        def run(ctx, f):
            for condition, body in branches:
                if condition(ctx, f):
                    return body(ctx, f)
            if orelse is not None:
                orelse(ctx, f)
        return run

    def compile_for(self, node: ast.For, scope: Scope) -> Run:
        iterable = self.expr(node.iterable, scope)
        if self.play and worth_keeping(node.iterable, self.env):
            iterable = replayed(iterable)
        slot = scope.bind(node.name)
        tests, keep = self.loop_filter(node, scope)
        body_nodes = node.body
        lone_if = body_nodes[0] if len(body_nodes) == 1 else None
        if self.fast and isinstance(lone_if, ast.If) and len(lone_if.branches) == 1 \
                and not lone_if.orelse:
            # `for x in xs where a: if b and c: …` is `for x in xs where a and b and c: …`
            condition, body_nodes = lone_if.branches[0]
            tests += tuple(self.expr(p, scope) for p in _flatten(condition, "and"))
        body = self.block(body_nodes, scope)
        where = self.where(node)

        def run(ctx, f):
            # Every list an expression yields is either static game data or built afresh for
            # the caller (cards(), under()…), and the language cannot change a list: no copy.
            items = iterable(ctx, f)
            ctx.steps += sized(items, where)
            if ctx.steps > ctx.budget:
                ctx.step(where)  # raises, naming the rule
            if keep is not None:
                items = keep(items, f)
            if not tests:
                for item in items:
                    f[slot] = item
                    body(ctx, f)
                return
            if len(tests) == 1:
                test = tests[0]
                for item in items:
                    f[slot] = item
                    if test(ctx, f):
                        body(ctx, f)
                return
            for item in items:
                f[slot] = item
                for test in tests:
                    if not test(ctx, f):
                        break
                else:
                    body(ctx, f)
        return run

    def compile_repeat(self, node: ast.Repeat, scope: Scope) -> Run:
        count, body, where = self.expr(node.count, scope), self.block(node.body, scope), \
            self.where(node)

        def run(ctx, f):
            times = count(ctx, f)
            if times.__class__ is not int:
                said = times if times.__class__ is float else kind_of(times)  # `7 / 2`: 3.5
                raise RuleError("effect/type-error", f"repeat needs a whole number, not {said}",
                                where)
            if not 0 <= times <= MAX_REPEAT:
                raise RuleError("effect/bad-repeat", f"repeat {times} is outside 0–{MAX_REPEAT}",
                                where)
            ctx.steps += times
            if ctx.steps > ctx.budget:
                ctx.step(where)  # raises, naming the rule
            for _ in range(times):
                body(ctx, f)
        return run

    # -- expressions -------------------------------------------------------------------
    def compile_boolop(self, node: ast.BoolOp, scope: Scope) -> Run:
        # `a and b and c` is one closure over (a, b, c), not a chain of nested calls.
        parts = tuple(self.expr(p, scope) for p in _flatten(node, node.op))
        if node.op == "and":
            if len(parts) == 2:
                a, b = parts
                return lambda ctx, f: a(ctx, f) and b(ctx, f)

            def run_and(ctx, f):  # like Python's `and`: the first falsy value, else the last
                value = True
                for part in parts:
                    value = part(ctx, f)
                    if not value:
                        return value
                return value
            return run_and
        if len(parts) == 2:
            a, b = parts
            return lambda ctx, f: a(ctx, f) or b(ctx, f)

        def run_or(ctx, f):  # like Python's `or`: the first truthy value, else the last
            value = False
            for part in parts:
                value = part(ctx, f)
                if value:
                    return value
            return value
        return run_or

    def compile_not(self, node: ast.Not, scope: Scope) -> Run:
        if self.fast and isinstance(node.operand, ast.Attribute):
            return self.compile_attribute(node.operand, scope, negate=True)
        operand = self.expr(node.operand, scope)
        return lambda ctx, f: not operand(ctx, f)

    def compile_compare(self, node: ast.Compare, scope: Scope) -> Run:
        left, right, op = self.expr(node.left, scope), self.expr(node.right, scope), \
            _COMPARE[node.op]
        where = self.where(node)
        if node.op in ("==", "!="):  # never a TypeError: no guard needed
            fused = self.fast and self.fused_equality(node, scope)
            if fused:
                return fused
            constant = self.constant(node.right)
            if constant is not _NOT_CONSTANT:
                c = constant[0]
                if node.op == "==":
                    return lambda ctx, f: left(ctx, f) == c
                return lambda ctx, f: left(ctx, f) != c
            slot = self.slot_of(node.right, scope)
            if slot is not None:
                if node.op == "==":
                    return lambda ctx, f: left(ctx, f) == f[slot]
                return lambda ctx, f: left(ctx, f) != f[slot]
            if node.op == "==":
                return lambda ctx, f: left(ctx, f) == right(ctx, f)
            return lambda ctx, f: left(ctx, f) != right(ctx, f)

        def run(ctx, f):
            try:
                return op(left(ctx, f), right(ctx, f))
            except TypeError as exc:
                raise RuleError("effect/type-error", plain(exc), where) from None
        return run

    def compile_member(self, node: ast.Member, scope: Scope) -> Run:
        item, collection = self.expr(node.item, scope), self.expr(node.collection, scope)
        where = self.where(node)

        def run(ctx, f):
            value, within = item(ctx, f), collection(ctx, f)
            try:
                return value in within
            except TypeError:  # `1 in 5`, a list looked for in a text…
                raise RuleError("effect/type-error", f"cannot look for {kind_of(value)} in "
                                f"{kind_of(within)}", where) from None
        return run

    def compile_binary(self, node: ast.Binary, scope: Scope) -> Run:
        left, right, symbol = self.expr(node.left, scope), self.expr(node.right, scope), node.op
        where = self.where(node)
        if symbol in ("+", "-"):  # whole numbers within bounds: no call to limits.compute
            op = operator.add if symbol == "+" else operator.sub

            def run_sum(ctx, f):
                a, b = left(ctx, f), right(ctx, f)
                if a.__class__ is int and b.__class__ is int:
                    value = op(a, b)
                    if -MAX_NUMBER <= value <= MAX_NUMBER:
                        return value
                return compute(symbol, a, b, ctx, where)
            return run_sum
        return lambda ctx, f: compute(symbol, left(ctx, f), right(ctx, f), ctx, where)

    def compile_negate(self, node: ast.Negate, scope: Scope) -> Run:
        operand, where = self.expr(node.operand, scope), self.where(node)

        def run(ctx, f):
            try:
                return -operand(ctx, f)
            except TypeError as exc:
                raise RuleError("effect/type-error", plain(exc), where) from None
        return run

    def compile_attribute(self, node: ast.Attribute, scope: Scope,
                          negate: bool = False) -> Run:
        target, name, where = self.expr(node.target, scope), node.name, self.where(node)
        read = self.env.attribute_reader

        def general(ctx, f):  # the game definition's one reader: cells, markers, attributes
            return read(ctx, target(ctx, f), name, where)
        fast = self.fast and self.attribute_fast(node, scope, general, negate)
        if fast:
            return fast
        if negate:
            return lambda ctx, f: not general(ctx, f)
        return general

    def compile_call(self, node: ast.Call, scope: Scope) -> Run:
        builtin = REGISTRY.get(node.name)
        if builtin is not None:
            n = len(node.args)
            if not builtin.required <= n <= len(builtin.params):
                most = len(builtin.params)
                wanted = builtin.required if builtin.required == most else \
                    f"{builtin.required}–{most}"
                return self.error(node, "effect/arity",
                                  f"`{node.name}` takes {_arguments(wanted)}, not {n}: "
                                  f"`{node.name}({', '.join(builtin.params)})`"
                                  + _none_hint(builtin, n))
            args = tuple(self.expr(a, scope, builtin.kind(i)) for i, a in enumerate(node.args))
            sure = [vouched(a, builtin.kind(i), builtin.nullable(i), scope.slots, self.env)
                    for i, a in enumerate(node.args)]
            if not all(sure):  # values known only in play are checked in play (arguments.py)
                args = tuple(run if ok else checked(
                    run, builtin, i, self.where(a), self.env, self.slot_of(a, scope),
                    me=isinstance(a, ast.Name) and a.name == "me" and "me" not in scope.slots)
                    for i, (run, a, ok) in enumerate(zip(args, node.args, sure, strict=True)))
            if builtin.static and self.fast and self.play and all(sure):
                folded = self.folded(node, scope)
                if folded is not _NOT_CONSTANT:
                    value = folded[0]  # type: ignore[index]
                    return lambda ctx, f: value
            known = [self.constant(a, scope) for a in node.args]
            constants = tuple(k[0] for k in known) \
                if self.fast and args and _NOT_CONSTANT not in known and all(sure) else None
            return _caller(_paying(builtin.fn, builtin.params), self.where(node), args,
                           builtin.verb, constants)
        fn_params = self.env.function_params.get(node.name)
        if fn_params is not None:
            if len(fn_params) != len(node.args):
                return self.error(node, "effect/arity",
                                  f"function `{node.name}` takes {_arguments(len(fn_params))} "
                                  f"({', '.join(fn_params) or 'none'}), not {len(node.args)}")
            args = tuple(self.expr(a, scope) for a in node.args)
            # inlined only for play: an inlined body compiled cleanly already, as the function
            if self.fast and self.play and node.name in self.env.inlinable \
                    and node.name in self.env.functions and self.inline_depth < MAX_INLINE_DEPTH:
                return self.inline_call(node.name, args, self.where(node), scope)
            return self.user_call(self.env.functions, "function", node.name, args,
                                  self.where(node))
        params = self.env.procedure_params.get(node.name)
        if params is None:
            known = [*REGISTRY, *self.env.procedure_params, *self.env.function_params]
            hint = _by_words(node.name, self.env.kinds)
            if "(" not in hint:  # a builtin with one of the name's words as an argument first
                hint = did_you_mean(node.name, known) or hint
            for argument in node.args:  # their own mistakes too, in the same run
                self.expr(argument, scope)
            return self.error(node, "effect/unknown-function",
                              f"unknown function or procedure `{node.name}`{hint}")
        if len(params) != len(node.args):
            return self.error(node, "effect/arity",
                              f"procedure `{node.name}` takes {_arguments(len(params))} "
                              f"({', '.join(params) or 'none'}), not {len(node.args)}")
        args = tuple(self.expr(a, scope) for a in node.args)
        return self.user_call(self.env.procedures, "procedure", node.name, args,
                              self.where(node))

    def inline_call(self, name: str, args: tuple[Run, ...], where: Where, scope: Scope) -> Run:
        """A call of a content function that cannot reach itself (inlining.py), compiled into
        the caller: its parameters take fresh slots of the caller's frame, its expression is
        compiled here (with its own file and rule, for messages). It still counts a step."""
        tree, file, params = self.env.function_trees[name]
        inner = Scope(params, parent=scope)
        slots = [inner.slots[p] for p in params]
        compiler = Compiler(self.env, file, name, fast=True)
        compiler.inline_depth = self.inline_depth + 1
        compiler.source = self.source  # a fallback's inlined bodies are closures too
        body = compiler.expr(tree, inner)
        if compiler.errors:  # cannot happen (it compiled cleanly into env.functions): be safe
            return self.user_call(self.env.functions, "function", name, args, where)
        if len(args) == 1:
            (a,), (s,) = args, slots

            def run_inline_one(ctx, f):
                ctx.steps += 1
                if ctx.steps > ctx.budget:
                    ctx.step(where)
                f[s] = a(ctx, f)
                return body(ctx, f)
            return run_inline_one
        if len(args) == 2:
            (a, b), (s, t) = args, slots

            def run_inline_two(ctx, f):
                ctx.steps += 1
                if ctx.steps > ctx.budget:
                    ctx.step(where)
                f[s] = a(ctx, f)
                f[t] = b(ctx, f)
                return body(ctx, f)
            return run_inline_two
        bindings = tuple(zip(slots, args, strict=True))

        def run_inline(ctx, f):
            ctx.steps += 1
            if ctx.steps > ctx.budget:
                ctx.step(where)
            for slot, arg in bindings:
                f[slot] = arg(ctx, f)
            return body(ctx, f)
        return run_inline

    @staticmethod
    def user_call(table: dict, what: str, name: str, args: tuple[Run, ...], where: Where
                  ) -> Run:
        """A call of a procedure or function declared in content. The callee may be compiled
        after its caller, so it is looked up on the first call and kept."""
        found: list = []

        def run(ctx, f):
            ctx.steps += 1  # calls count against the step budget: recursion always ends
            if ctx.steps > ctx.budget:
                ctx.step(where)
            if not found:
                if name not in table:
                    raise RuleError("effect/unknown-function",
                                    f"{what} `{name}` did not compile", where)
                found.append(table[name])
            callee = found[0]
            frame = [a(ctx, f) for a in args]
            if callee.size > len(frame):
                frame += [None] * (callee.size - len(frame))
            ctx.depth += 1
            if ctx.depth > MAX_CALL_DEPTH:
                raise RuleError("rules/step-budget",
                                f"calls nested more than {MAX_CALL_DEPTH} deep (`{name}`): a "
                                "procedure or function calls itself without end", where)
            try:
                return callee.run(ctx, frame)
            finally:
                ctx.depth -= 1
        return run

    def compile_name(self, node: ast.Name, scope: Scope, kind: str | None = None) -> Run:
        name = node.name
        if name in scope.slots:
            slot = scope.slots[name]
            return lambda ctx, f: f[slot]
        if name in CONTEXT_NAMES and kind not in ENTITY_KINDS[1:]:
            getter = CONTEXT_NAMES[name]
            return lambda ctx, f: getter(ctx)
        namespaces = self.env.kinds.get(name, ())
        if kind in ENTITY_KINDS:
            if kind in namespaces:
                return lambda ctx, f: name
            if name == "me" or name == "active":  # powers held in the context
                getter = CONTEXT_NAMES[name]
                return lambda ctx, f: getter(ctx)
            what = f" (it is a {', '.join(namespaces)})" if namespaces else ""
            # ids of the kind first: a local (which may hold one) only when none is close
            hint = did_you_mean(name, list(self.env.ids(kind))) or did_you_mean(
                name, list(scope.slots))
            return self.error(node, "effect/unknown-name",
                              f"unknown {kind} `{name}`{what}" + hint)
        if namespaces:
            return lambda ctx, f: name
        known = [*scope.slots, *CONTEXT_NAMES, *self.env.kinds]
        if name == self.asking:
            return self.error(node, "effect/unknown-name",
                              f"`{name}` is the answer to this very `choose`: its prompt is "
                              "shown before anything is chosen, so it cannot show the answer "
                              "(log it after the question instead)")
        later = self.set_at.get(name)
        if later is not None and (later.line, later.col) > (node.line, node.col):
            return self.error(node, "effect/unknown-name",
                              f"unknown name `{name}` here: it is set only later, at line "
                              f"{later.line} (a local has a value from its `let` on: set it "
                              "before this line)")
        if name in self.env.card_defaults:  # an attribute of cards, read without its card
            how = f"did you mean `card.{name}`?" if "card" in scope.slots else \
                f"read it from a card: `c.{name}` for a card `c`"
            return self.error(node, "effect/unknown-name",
                              f"unknown name `{name}`: it is an attribute of cards ({how})")
        if name in self.env.connection_kinds:  # kinds are texts, as card `enum` values are
            return self.error(node, "effect/unknown-name",
                              f"unknown name `{name}`: it is a connection kind, a text: write "
                              f"\"{name}\" (`connection_kind(a, b) == \"{name}\"`)")
        return self.error(node, "effect/unknown-name",
                          f"unknown name `{name}`" + did_you_mean(name, known))

    def compile_literal(self, node: ast.Literal, scope: Scope) -> Run:
        value = node.value
        return lambda ctx, f: value

    def compile_listexpr(self, node: ast.ListExpr, scope: Scope) -> Run:
        items, where = tuple(self.expr(i, scope) for i in node.items), self.where(node)

        def run(ctx, f):
            values = [i(ctx, f) for i in items]
            return weigh(values, ctx, where) if holds_lists(values) else values
        return run

    def compile_index(self, node: ast.Index, scope: Scope) -> Run:
        target, key, where = self.expr(node.target, scope), self.expr(node.key, scope), \
            self.where(node)

        def run(ctx, f):
            items = at = _NOT_YET
            try:
                items = target(ctx, f)
                at = key(ctx, f)
                return items[at]
            except (IndexError, KeyError, TypeError) as exc:
                # which index of how many items: "no item at that index" left it to guess
                said = missing_item(items, at) \
                    if isinstance(exc, IndexError) and at is not _NOT_YET else plain(exc)
                raise RuleError("effect/bad-index", f"cannot index: {said}", where) from None
        return run

    def compile_ternary(self, node: ast.Ternary, scope: Scope) -> Run:
        then, condition, otherwise = (self.expr(node.then, scope),
                                      self.expr(node.condition, scope),
                                      self.expr(node.otherwise, scope))
        return lambda ctx, f: then(ctx, f) if condition(ctx, f) else otherwise(ctx, f)

    def compile_comprehension(self, node: ast.Comprehension, scope: Scope) -> Run:
        iterable = self.expr(node.iterable, scope)
        slot = scope.bind(node.name)
        tests, keep = self.loop_filter(node, scope)
        item, where = self.expr(node.item, scope), self.where(node)

        def run(ctx, f):
            out = []
            values = iterable(ctx, f)
            charge(ctx, sized(values, where), where)
            if keep is not None:
                values = keep(values, f)
            for value in values:
                f[slot] = value
                for test in tests:
                    if not test(ctx, f):
                        break
                else:
                    out.append(item(ctx, f))
            return weigh(out, ctx, where) if holds_lists(out) else out
        return run

    def compile_program(self, node: ast.Program, scope: Scope) -> Run:
        return self.block(node.body, scope)


def _said_args(prompt_args: Run | None, ctx: Context, f: list) -> dict:
    """The arguments of the question an empty `choose` would have asked, for its refusal's
    words; none when they cannot be worked out — they often read the very options that came
    up empty (`prompt ("pick", cs[0])`), and the refusal must stay a refusal."""
    if prompt_args is None:
        return {}
    try:
        return prompt_args(ctx, f)
    except RuleError:
        return {}


def _arguments(count: int | str) -> str:
    return "1 argument" if count == 1 else f"{count} arguments"
