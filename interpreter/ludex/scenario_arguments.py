"""The questions a scenario's decisions name and the values it says a question, a refusal or
an ending is filled with, against the game's effects, for the static checks of scenarios.

A decision's `question: key` is the prompt of a question the game may ask — a `choose`'s
prompt (`choose` when it names none), an action window's name, or the engine's `pay` — and
`question_args`, `reason_args` and `ended_args` list as many values as some use of that key
passes: `prompt ("offer", lot, price)` fills `offer` with two, so `question_args: [lot]`
could only fail when run (a misspelt key, the same). A key whose uses pass none takes no
arguments.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import ast
from .errors import did_you_mean
from .gamedef import GameDef
from .static_checks import walk
from .yamlio import Document

# the questions the engine asks by itself: how to pay (verbs.py), with no arguments
ENGINE_PROMPTS = {"pay": 0}
# what each kind of message a scenario fills is: its key's field, its arguments' field, what
# asks or gives it, where in the scenario
_FILLED = (("decisions", "question", "question_args", "question"),
           ("expect", "reason", "reason_args", "refusal"),
           ("expect", "ended", "ended_args", "ending"))


class Arities:
    """By kind (question, refusal, ending): message key -> how many arguments its uses pass
    -> where the first of them is written (file, line)."""

    def __init__(self, d: GameDef):
        self.by_kind: dict[str, dict[str, dict[int, tuple[str, int]]]] = {
            "question": {}, "refusal": {}, "ending": {}}
        for window, (file, line, _) in d.window_sources.items():
            self._add("question", window, 0, (file, line))
        for prompt, count in ENGINE_PROMPTS.items():
            self._add("question", prompt, count, ("<engine>", 1))
        self.any_ending = False  # an `end_game` given a reason worked out in play
        for source in d.sources:
            for node in walk(source.tree):
                self._note(node, source.file)

    def _note(self, node: ast.Node, file: str) -> None:
        if isinstance(node, ast.Choose):
            prompt = node.prompt
            key, count = (prompt.key, len(prompt.args)) if prompt else ("choose", 0)
            self._add("question", key, count, (file, (prompt or node).line))
        elif isinstance(node, ast.Require) and node.message is not None:
            message = node.message
            self._add("refusal", message.key, len(message.args), (file, message.line))
        elif isinstance(node, ast.Call) and node.name == "end_game" and node.args:
            reason = node.args[0]
            if isinstance(reason, ast.Literal) and isinstance(reason.value, str):
                self._add("ending", reason.value, len(node.args) - 1, (file, node.line))
            else:
                self.any_ending = True

    def _add(self, kind: str, key: str, count: int, where: tuple[str, int]) -> None:
        self.by_kind[kind].setdefault(key, {}).setdefault(count, where)


def arities(d: GameDef) -> Arities:
    """Worked out once per definition (a command checks many scenarios of one game)."""
    found = d.analysis_memo.get("scenario arities")
    if found is None:
        found = d.analysis_memo["scenario arities"] = Arities(d)
    return found


def question_mistakes(doc: Document, d: GameDef) -> Iterator[tuple[tuple, str]]:
    """(path, message) for each decision's `question` that no question of the game is asked
    with."""
    asked = arities(d).by_kind["question"]
    for i, step in enumerate(doc.data.get("decisions") or []):
        key = step.get("question") if isinstance(step, dict) else None
        if isinstance(key, str) and key not in asked:
            yield (("decisions", i, "question"),
                   f"no question of `{d.game_id}` is asked with `{key}`: a question's key is "
                   "its `choose`'s prompt, its action window's name, or `pay`"
                   + did_you_mean(key, sorted(asked)))


def argument_mistakes(doc: Document, d: GameDef) -> Iterator[tuple[tuple, str]]:
    """(path, message) for each `question_args`, `reason_args` or `ended_args` that lists
    another number of values than every use of its key passes."""
    found = arities(d)
    for section, key_field, args_field, kind in _FILLED:
        for i, entry in enumerate(doc.data.get(section) or []):
            if not isinstance(entry, dict):
                continue
            key, values = entry.get(key_field), entry.get(args_field)
            uses = found.by_kind[kind].get(key) if isinstance(key, str) else None
            if not isinstance(values, list) or uses is None or len(values) in uses:
                continue
            if kind == "ending" and found.any_ending:
                continue  # some `end_game` is given a reason worked out in play: any count
            counts = sorted(uses)
            file, line = uses[counts[-1]]
            place = "the engine" if file == "<engine>" else f"{file}:{line}"
            if counts == [0]:
                said = (f"is filled with no values: its {_WRITTEN[kind]} at {place} passes "
                        f"none; leave `{args_field}` out")
            else:
                said = (f"is filled with {_counted(counts)}, not {len(values)}: list one "
                        f"value for each argument its {_WRITTEN[kind]} at {place} passes, "
                        "in order")
            yield (section, i, args_field), f"`{key}` {said}"


_WRITTEN = {"question": "prompt", "refusal": "`require … else`", "ending": "`end_game`"}


def _counted(counts: list[int]) -> str:
    """`1 value`, `no values`, `0 or 2 values`."""
    if counts == [0]:
        return "no values"
    said = " or ".join(str(n) for n in counts)
    return f"{said} value" + ("" if counts == [1] else "s")
