"""What the rules refuse now, and why: `?!` at the terminal prompt (`ludex play --agents human`).

A question lists only the options the rules allow, so a player who expected another — a card
they hold but may not play, since they must follow suit — never read the reason the designer
wrote for it (`require … else ("must_follow", led)`). `?!` lists each option the question has
but the rules refuse, with that reason filled in the player's language, as a refused answer
would be told; a dead end (every way on from it breaks a rule) is said so. The options keep
their numbers: nothing listed here can be picked.
"""

from __future__ import annotations

from typing import Any


def refused_lines(game, text, legal: list[Any]) -> list[str]:
    """The lines answering `?!`: a heading and one line per refused option, or one line
    saying the rules refuse none."""
    refused = []
    for option in game.pending.options:
        if option in legal:
            continue
        why = game.refusal(option)
        if why is not None:
            refused.append((option, why))
    if not refused:
        return [text.message("look_none_refused")]
    return [text.message("look_refused")] + [
        "  " + text.message("look_refused_option", {"option": text.option(option),
                                                     "reason": text.refusal(why)})
        for option, why in refused]

