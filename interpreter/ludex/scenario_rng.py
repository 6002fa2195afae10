"""What a scenario's `state.rng` must be, said as such: 16 hexadecimal digits in quotes, as
`ludex dump` writes it. Without this a malformed one read as a bad *name* ("start with a
letter", which a valid rng need not), and an unquoted one got YAML's general advice to
"write it in decimal", which is wrong for a generator's state."""

from __future__ import annotations

import re
from typing import Any

from .errors import Diagnostic
from .yamlio import Document

FORM = "16 hexadecimal digits (0-9, a-f) in quotes, as `ludex dump` writes it"
_HEX = re.compile(r"[0-9a-f]*")


def rng_message(value: Any) -> str:
    """Why a value is no rng, and the form it takes."""
    shown = f'"{value}"' if isinstance(value, str) else str(value).lower()
    example = "9a0c3e51f2d47b86"
    if isinstance(value, str) and not _HEX.fullmatch(value):
        bad = next(c for c in value if not _HEX.fullmatch(c))
        # A-F are hexadecimal digits: only their case is wrong (the schema's pattern and
        # `ludex dump` write lowercase)
        why = (f"`{bad}` is a capital: an rng writes a-f in lowercase" if bad in "ABCDEF"
               else f"`{bad}` is not a hexadecimal digit")
        if len(value) == 16 and _HEX.fullmatch(value.lower()):
            example = value.lower()
    elif isinstance(value, str):
        why = f"it has {len(value)} digit{'' if len(value) == 1 else 's'}, not 16"
    else:
        why = "it is not in quotes"
    return (f"`{shown}` is not where a random generator stands ({why}): an rng is {FORM} "
            f'(`rng: "{example}"`)')


def unquoted_rng(doc: Document, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """YAML's reading of an unquoted rng (`0000000000000003`, an octal number in YAML 1.1;
    `1234567890123456`, past what a number holds) re-said for this key: quote it, never
    "write it in decimal". Other diagnostics pass unchanged."""
    state = doc.data.get("state") if isinstance(doc.data, dict) else None
    if not isinstance(state, dict) or "rng" not in state:
        return diagnostics
    at = (str(doc.path), *doc.pos(("state", "rng")))
    text = state["rng"]
    return [Diagnostic(d.file, d.line, d.col, d.code,
                       f"`{text}` unquoted is read as a number by YAML: an rng is {FORM} "
                       f'(`rng: "{text}"`)', d.severity)
            if (d.file, d.line, d.col) == at and d.code.startswith("yaml/") else d
            for d in diagnostics]
