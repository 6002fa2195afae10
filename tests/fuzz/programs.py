"""Generated effect programs: whatever a designer writes in the effect language, parsing,
compiling and running it gives a result or Ludex diagnostics — never a Python exception, a
hang or a memory blow-up.

Three generators (hypothesis):
* `grammar_programs`: statement blocks drawn from the grammar itself
  (`hypothesis.extra.lark.from_lark`). The indentation post-lexer's `_INDENT`/`_DEDENT`
  tokens are drawn as marker characters and laid out as real indentation afterwards.
* `grammar_expressions`: single expressions from the grammar's `condition` rule.
* `game_programs`: statements and expressions built from the tiny test game's real names
  (its spaces, powers, counters, zones…, the builtins with the kinds of argument they take,
  the game's functions and procedures, locals bound before use), so that most of them get
  past name resolution and actually run, asking and answering their questions.

Each program is compiled twice, with the fused fast paths and without (fastpaths.py), and
both must end the same way. Run briefly by the test suite (derandomised) and at length by
`make fuzz`: `python -m tests.fuzz.programs COUNT [SEED] [WORKERS]` (COUNT programs per
generator).
"""

from __future__ import annotations

import json
import re
import resource
import signal
import sys
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark

from ludex import pysource
from ludex.builtins import REGISTRY
from ludex.compiler import CompileError, Compiler
from ludex.engine import Game, load_definition
from ludex.errors import LudexError
from ludex.parser import GRAMMAR, Origin, parse
from ludex.runtime import looking

pysource.WARM_UP_CALLS = 0  # every program's single run takes the source's own path

TINY = Path(__file__).resolve().parents[1] / "games" / "tiny"
# CPU seconds, far above what any program takes (milliseconds): a hang. CPU time, not the
# clock's: a machine busy with other work must not make a slow program look hung.
SECONDS_PER_PROGRAM = 10
MEMORY_LIMIT = 2 << 30  # bytes of address space for a long run (the bound is 1 GiB
# of memory; the interpreter itself takes some hundreds of MB of address space)
MAX_ANSWERS = 12  # questions a program's run answers before it stops asking
JOB = 2500  # programs per job of a long run

_INDENT, _DEDENT = "\x01", "\x02"


class Hang(Exception):
    """A program ran past SECONDS_PER_PROGRAM."""


class Finding(Exception):
    """A program that broke the property: what happened, and the program."""


# -- the grammar's own programs ------------------------------------------------------------
# from_lark picks among a rule's alternatives uniformly. Ten expression levels that may each
# branch (`or`, `and`, comparisons, sums, products, calls, lists, parentheses…) make uniform
# choices grow trees without bound; hypothesis throws those away only after building them
# (seconds per expression). The grammar generated from is ours with extra leaf alternatives
# at every expression level and for statements: terminals drawn from real values. It
# describes the same language; small programs just become far more likely.
_LEVELS = ("expr", "or_test", "and_test", "not_test", "comparison", "sum", "term", "factor",
           "postfix", "atom")
_LEAVES_PER_LEVEL = 6
_LEAF_STATEMENTS = 8
_LEAF_VALUES = ["me", "red", "blue", "a", "c", "score", "gold", "hand", "soldier", "x", "p",
                "0", "1", "7", "20", '"k"', '""', "true", "false", "none", "[]", "spaces()"]
_STATEMENTS = ["pass", "gain(score, me, 1)", "let x = 1", "let p = red",
               "draw(1, deck, hand, me)", "place(soldier, 1, c, blue)",
               "choose s from spaces()", "set_flag(storm, true)"]


@cache
def _grammar() -> Lark:
    text = GRAMMAR.read_text(encoding="utf-8")
    declared = []
    for level in _LEVELS:
        leaves = [f"FUZZ_{level.upper()}_{i}" for i in range(_LEAVES_PER_LEVEL)]
        text = re.sub(rf"^\?{level}:(.*)$",
                      lambda m, leaves=leaves: m.group(0) + "".join(f"\n    | {t}"
                                                                    for t in leaves),
                      text, count=1, flags=re.MULTILINE)
        declared += leaves
    statements = [f"FUZZ_STMT_{i}" for i in range(_LEAF_STATEMENTS)]
    assert "_stmt: _simple _NL | _compound" in text
    text = text.replace("_stmt: _simple _NL | _compound", "_stmt: _simple _NL | _compound"
                        + "".join(f"\n    | {t} _NL" for t in statements))
    text += "".join(f"\n{t}: /[a-z]+/" for t in [*declared, *statements]) + "\n"
    # Earley: the extra alternatives overlap the real ones (never parsed with, only drawn)
    return Lark(text, parser="earley", start=["start", "condition"])


def _explicit() -> dict:
    # the post-lexer's tokens as markers, laid out by `lay_out`; line breaks without the
    # regex's trailing spaces (indentation is ours to lay out); leaves as real values
    names = _grammar().terminals
    return {"_INDENT": st.just(_INDENT), "_DEDENT": st.just(_DEDENT), "_NL": st.just("\n")} \
        | {t.name: st.sampled_from(_LEAF_VALUES) for t in names
           if t.name.startswith("FUZZ_") and "STMT" not in t.name} \
        | {t.name: st.sampled_from(_STATEMENTS) for t in names
           if t.name.startswith("FUZZ_STMT")}


def lay_out(text: str) -> str:
    """Grammar output with indentation markers as an indented program: each `_INDENT` opens
    a level four spaces deeper for the lines after it, each `_DEDENT` closes one."""
    level, lines = 0, []
    for raw in text.split("\n"):
        line = raw.lstrip(" ")
        while line[:1] in (_INDENT, _DEDENT) and line:
            level += 1 if line[0] == _INDENT else -1
            line = line[1:].lstrip(" ")
        lines.append("    " * max(level, 0) + line.replace(_INDENT, "").replace(_DEDENT, ""))
    return "\n".join(lines)


def grammar_programs() -> st.SearchStrategy[str]:
    return from_lark(_grammar(), start="start", explicit=_explicit()).map(lay_out)


def grammar_expressions() -> st.SearchStrategy[str]:
    return from_lark(_grammar(), start="condition", explicit=_explicit())


# -- programs in the tiny game's words -----------------------------------------------------
@cache
def tiny() -> tuple:
    return load_definition(TINY)


@cache
def _vocabulary() -> dict[str, list[str]]:
    definition, _ = tiny()
    words: dict[str, list[str]] = {}
    for name, kinds in definition.kinds.items():
        for kind in kinds:
            words.setdefault(kind, []).append(name)
    words["power"] += ["me", "active"]
    return {kind: sorted(names) for kind, names in words.items()}


_ATTRIBUTES = ["walled", "control", "level", "value", "owner", "zone", "tie_break", "gold",
               "power", "space", "card", "strength", "nothing"]
_TEXTS = ['"k"', '""', '"decided"', '"exhaust"', '"polish"', '"storm_warning"', '"x y"']
_NUMBERS = ["0", "1", "2", "3", "5", "7", "20", "100", "999999999999999", "1000"]


class _Writer:
    """Draws one program's text: statements with indentation, expressions of a wanted kind,
    locals only after they are bound."""

    def __init__(self, draw, depth: int = 4):
        self.draw, self.depth = draw, depth
        self.locals: list[str] = []

    def pick(self, options):
        return self.draw(st.sampled_from(options))

    def chance(self) -> bool:
        return self.draw(st.booleans())

    # expressions
    def expr(self, kind: str = "any", depth: int = 3) -> str:
        words = _vocabulary()
        if kind in words and self.draw(st.integers(0, 9)) < 8:
            return self.pick(words[kind])
        if kind == "int" and depth > 0 and self.chance():
            return self.pick(_NUMBERS)
        leaves = ["number", "text", "name", "local", "bool", "none", "context"]
        shapes = ["binary", "compare", "bool", "not", "negate", "call", "list",
                  "comprehension", "ternary", "attribute", "index", "member", "function"]
        choice = self.pick(leaves + (shapes if depth > 0 else []))
        sub = depth - 1
        if choice == "number":
            return self.pick(_NUMBERS)
        if choice == "text":
            return self.pick(_TEXTS)
        if choice == "name":
            return self.pick(self.pick(sorted(words.values())))
        if choice == "local":
            return self.pick(self.locals) if self.locals else "me"
        if choice == "bool":
            return self.pick(["true", "false"])
        if choice == "none":
            return "none"
        if choice == "context":
            return self.pick(["me", "active", "players", "turn", "round", "phase"])
        if choice == "binary":
            return f"({self.expr('int', sub)} {self.pick(['+', '-', '*', '/', '%'])} " \
                   f"{self.expr('int', sub)})"
        if choice == "compare":
            return f"({self.expr('any', sub)} {self.pick(['==', '!=', '<', '<=', '>', '>='])} " \
                   f"{self.expr('any', sub)})"
        if choice == "bool":
            return f"({self.expr('bool', sub)} {self.pick(['and', 'or'])} " \
                   f"{self.expr('bool', sub)})"
        if choice == "not":
            return f"(not {self.expr('bool', sub)})"
        if choice == "negate":
            return f"-{self.expr('int', sub)}"
        if choice == "call":
            return self.call(sub, verbs=False)
        if choice == "list":
            items = self.draw(st.integers(0, 3))
            return "[" + ", ".join(self.expr("any", sub) for _ in range(items)) + "]"
        if choice == "comprehension":
            name = self.fresh()
            source = self.expr("list", sub)
            self.locals.append(name)
            item = self.expr("any", sub)
            where = f" where {self.expr('bool', sub)}" if self.chance() else ""
            self.locals.remove(name)
            return f"[{item} for {name} in {source}{where}]"
        if choice == "ternary":
            return f"({self.expr('any', sub)} if {self.expr('bool', sub)} else " \
                   f"{self.expr('any', sub)})"
        if choice == "attribute":
            return f"{self.expr('any', sub)}.{self.pick(_ATTRIBUTES)}"
        if choice == "index":
            return f"{self.expr('list', sub)}[{self.expr('int', sub)}]"
        if choice == "member":
            negated = " not" if self.chance() else ""
            return f"({self.expr('any', sub)}{negated} in {self.expr('list', sub)})"
        definition, _ = tiny()
        name = self.pick(sorted(definition.function_params))
        return f"{name}(" + ", ".join(self.expr("any", sub)
                                      for _ in definition.function_params[name]) + ")"

    def call(self, depth: int, verbs: bool) -> str:
        names = sorted(n for n, b in REGISTRY.items() if b.verb == verbs)
        if verbs:
            definition, _ = tiny()
            names += sorted(definition.procedure_params)
        name = self.pick(names)
        builtin = REGISTRY.get(name)
        if builtin is None:  # a procedure of the game
            params = tiny()[0].procedure_params[name]
            return f"{name}(" + ", ".join(self.expr("power", depth) for _ in params) + ")"
        wanted = builtin.required + self.draw(st.integers(0, len(builtin.params)
                                                          - builtin.required))
        if self.draw(st.integers(0, 19)) == 0:  # now and then, the wrong number of arguments
            wanted = self.draw(st.integers(0, 5))
        return f"{name}(" + ", ".join(
            self.expr(builtin.kind(i) if builtin.params else "any", depth)
            for i in range(wanted)) + ")"

    def fresh(self) -> str:
        return self.pick(["x", "y", "n", "s", "c", "p", "row"]) + str(len(self.locals))

    # statements
    def block(self, indent: int, depth: int) -> list[str]:
        lines: list[str] = []
        bound = len(self.locals)
        for _ in range(self.draw(st.integers(1, 4))):
            lines += self.statement(indent, depth)
        del self.locals[bound:]  # a block's locals are not read after it (kept simple)
        return lines

    def message(self, word: str, key: str) -> str:
        """A `require`'s reason or a question's prompt: none, a key, or a key with arguments."""
        form = self.pick(["none", "key", "args"])
        if form == "none":
            return ""
        if form == "key":
            return f'{word} "{key}"'
        args = [self.expr("any", 1) for _ in range(self.draw(st.integers(0, 2)))]
        return f'{word} ("{key}"' + "".join(f", {a}" for a in args) + ")"

    def statement(self, indent: int, depth: int) -> list[str]:
        pad = "    " * indent
        kinds = ["let", "verb", "require", "choose", "pass"]
        if depth > 0:
            kinds += ["if", "for", "repeat"]
        kind = self.pick(kinds)
        if kind == "let":
            name = self.pick(self.locals) if self.locals and self.chance() else self.fresh()
            line = f"{pad}let {name} = {self.expr()}"
            self.locals.append(name)
            return [line]
        if kind == "verb":
            return [pad + self.call(2, verbs=True)]
        if kind == "require":
            condition = self.expr("bool")
            return [f"{pad}require {condition}{self.message(' else', 'not_enough_gold')}"]
        if kind == "choose":
            name = self.fresh()
            count = self.pick(["", f" exactly {self.expr('int', 1)}",
                               f" up to {self.expr('int', 1)}"])
            chooser = f" by {self.expr('power', 1)}" if self.chance() else ""
            prompt = self.message(" prompt", "pick_space")
            line = f"{pad}choose {name} from {self.expr('list')}{count}{chooser}{prompt}"
            self.locals.append(name)
            return [line]
        if kind == "pass":
            return [pad + "pass"]
        if kind == "if":
            lines = [f"{pad}if {self.expr('bool')}:", *self.block(indent + 1, depth - 1)]
            if self.chance():
                lines += [f"{pad}elif {self.expr('bool')}:", *self.block(indent + 1, depth - 1)]
            if self.chance():
                lines += [f"{pad}else:", *self.block(indent + 1, depth - 1)]
            return lines
        if kind == "for":
            name = self.fresh()
            source = self.expr("list")
            self.locals.append(name)
            where = f" where {self.expr('bool')}" if self.chance() else ""
            return [f"{pad}for {name} in {source}{where}:", *self.block(indent + 1, depth - 1)]
        return [f"{pad}repeat {self.expr('int', 1)}:", *self.block(indent + 1, depth - 1)]


@st.composite
def game_programs(draw) -> str:
    writer = _Writer(draw)
    return "\n".join(writer.block(0, 2)) + "\n"


@st.composite
def game_expressions(draw) -> str:
    return _Writer(draw).expr("any", 4)


# -- running one program ---------------------------------------------------------------
def outcome(text: str, *, expression: bool = False) -> tuple[str, str]:
    """How a program ends in the tiny game, parsed by the hand-written parser and by Lark (the
same tree, or a diagnostic from both), compiled with the fast paths and without:
    `syntax <code>`, `compile <code>`, `value …`, `ran …` (the state it left) or
    `stopped <code>`. Anything else raises."""
    try:
        tree = parse(text, Origin("fuzz.yaml", 1, 1), expression=expression)
    except LudexError as exc:
        return (f"syntax {exc.diagnostics[0].code}",) * 2
    by_lark = parse(text, Origin("fuzz.yaml", 1, 1), expression=expression, fast=False)
    if tree != by_lark:  # the hand-written parser must give Lark's tree, or leave it to Lark
        raise AssertionError(f"fast_parser and Lark differ:\n  {tree}\n  {by_lark}")
    return _ending(tree, expression, True), _ending(tree, expression, False)


def _ending(tree, expression: bool, fast: bool) -> str:
    definition, start = tiny()
    compiler = Compiler(definition, "fuzz.yaml", "fuzz", fast=fast)
    try:
        run, size = compiler.expression(tree) if expression else compiler.program(tree)
    except CompileError as exc:
        return f"compile {exc.diagnostics[0].code}"
    game = Game(definition, start, seed=7, autostart=False)
    try:
        if expression:
            value = run(looking(definition, game.view, me="red"), [None] * size)
            return f"value {json.dumps(value, sort_keys=True, default=repr)}"
        game.run("fuzz", lambda ctx: run(ctx, [None] * size), me="red")
        for _ in range(MAX_ANSWERS):
            if game.pending is None:
                break
            decision = game.pending
            options = list(decision.options)
            answer = options[0] if decision.mode == "one" else options[:decision.count]
            game.apply(answer)
    except LudexError as exc:
        return f"stopped {exc.diagnostics[0].code}"
    return f"ran {json.dumps(game.view, sort_keys=True, default=repr)}"


def check(text: str, *, expression: bool = False) -> str:
    """The property: both compilations end the same way, in a result or a diagnostic, within
    SECONDS_PER_PROGRAM; a Finding otherwise."""
    def alarm(signum, frame):
        raise Hang(f"more than {SECONDS_PER_PROGRAM} s")

    previous = signal.signal(signal.SIGPROF, alarm)
    # then again every second: a Hang raised where Python ignores exceptions (a garbage
    # collector callback) is raised once more
    signal.setitimer(signal.ITIMER_PROF, SECONDS_PER_PROGRAM, 1)
    try:
        fast, general = outcome(text, expression=expression)
    except Exception as exc:  # the finding: anything but a Ludex diagnostic
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        raise Finding(f"{type(exc).__name__} at {Path(frame.filename).name}:{frame.lineno}: "
                      f"{str(exc)[:200]}\n--- program ---\n{text}") from exc
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
    if fast != general:
        raise Finding(f"fast and general paths differ:\n  {fast[:300]}\n  {general[:300]}"
                      f"\n--- program ---\n{text}")
    return fast


GENERATORS = {
    "grammar programs": (grammar_programs, False),
    "grammar expressions": (grammar_expressions, True),
    "game programs": (game_programs, False),
    "game expressions": (game_expressions, True),
}


def run_generator(name: str, count: int, seed: int, tally: Counter | None = None) -> int:
    """Check `count` programs of one generator (fails on the first finding, which hypothesis
    shrinks); returns how many it checked. Deterministic for a given seed."""
    strategy, expression = GENERATORS[name]
    checked = [0]

    @hypothesis_seed(seed)
    @settings(max_examples=count, database=None, deadline=None, derandomize=False,
              suppress_health_check=list(HealthCheck), print_blob=False)
    @given(strategy())
    def prop(text):
        result = check(text, expression=expression)
        checked[0] += 1
        if tally is not None:
            tally[result.split(" ")[0] + " " + (result.split(" ")[1]
                                                 if not result.startswith(("ran", "value"))
                                                 else "")] += 1

    prop()
    return checked[0]


def _job(name: str, count: int, seed: int) -> tuple[str, int, Counter, str | None]:
    """One generator's share of a long run, in a worker process: (generator, programs
    checked, how they ended, the finding if any)."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    tally: Counter = Counter()
    try:
        return name, run_generator(name, count, seed, tally), tally, None
    except Finding as finding:
        return name, sum(tally.values()), tally, str(finding)


def main(argv: list[str]) -> int:
    """`COUNT [SEED] [WORKERS]`: COUNT programs of each generator, shared among WORKERS
    processes (each with its own seed)."""
    count = int(argv[0]) if argv else 1000
    seed = int(argv[1]) if len(argv) > 1 else 0
    workers = int(argv[2]) if len(argv) > 2 else 1
    began = time.monotonic()
    # jobs of at most JOB programs, each with its own seed: progress shows as they finish
    # the generators interleaved: a run stopped early has covered each of them
    jobs = [(name, min(JOB, count - done), seed * 1000 + done // JOB)
            for done in range(0, count, JOB) for name in GENERATORS]
    results = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for result in pool.map(_job, *zip(*jobs, strict=True)):
            results.append(result)
            print(f"  {sum(r[1] for r in results):,} programs, "
                  f"{sum(1 for r in results if r[3])} failure(s), "
                  f"{time.monotonic() - began:.0f} s", file=sys.stderr, flush=True)
    total, failures = 0, 0
    for name in GENERATORS:
        mine = [r for r in results if r[0] == name]
        checked = sum(r[1] for r in mine)
        tally = sum((r[2] for r in mine), Counter())
        for finding in (r[3] for r in mine if r[3]):
            failures += 1
            print(f"FAILED {name}: {finding}", file=sys.stderr)
        total += checked
        ends = ", ".join(f"{k.strip()} {v:,}" for k, v in tally.most_common(5))
        print(f"{name}: {checked:,} programs ({ends})")
    print(f"programs: {total:,} checked, {failures} failure(s), "
          f"{time.monotonic() - began:.0f} s, seed {seed}, {workers} worker(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
