"""Options the rules refuse for a dead end, noted as a game meets them.

The engine offers an option only if play can go on after it ("no dead ends", trials.py): an
option after which a later `choose` has nothing to choose from (a bid no one after could top),
or after which every answer to the next question breaks a rule, is refused. That is the rule
working, but it is silent: a designer's trial lost a legal-looking bid to it and no one was
told. Each such refusal is noted once per decision (the same option is tried again and again
while options are listed), so that `ludex simulate` can say how often each question lost
options this way, and to which later question (simulate.py, playtest/stats.py).
"""

from __future__ import annotations

from typing import Any

from .runtime import Decision, EmptyChoice, Illegal, answer_text, window_option


class DeadEnds:
    """The options a game refused for a dead end: by (answers taken so far, the option as
    text), the question answered — a window's by the action the option takes (`outbid`, not
    the window), any other by its prompt — and the later question that had no way on."""

    def __init__(self) -> None:
        self.seen: dict[tuple[int, str], tuple[str, str, str]] = {}

    def note(self, moment: int, asked: Decision, option: Any, later: str,
             window: bool) -> None:
        text = answer_text(option)
        question = window_option(text)[1] if window else asked.prompt
        self.seen.setdefault((moment, text), (question, text, later))

    def note_refusal(self, moment: int, asked: Decision, option: Any, refused: Illegal,
                     window: bool) -> None:
        """A refusal met running an option: noted when it is a later `choose` left empty (a
        `require` of the option's own is no dead end, only a rule)."""
        if isinstance(refused, EmptyChoice):
            self.note(moment, asked, option, refused.prompt, window)

    def records(self) -> list[tuple[str, str, str]]:
        """(question answered, option, later question) of each refusal, in the order met."""
        return list(self.seen.values())
