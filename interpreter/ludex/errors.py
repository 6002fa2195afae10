"""Diagnostics: one error type for everything content can get wrong, compiler-style.

Every problem Ludex finds in content is a `Diagnostic` with a file, a 1-based line and column,
a stable code (`yaml/duplicate-key`, `schema/unknown-key`, `content/unknown-name`, …) and a
message. Checks collect diagnostics instead of raising, so one run reports everything; code
that must stop raises `LudexError`, which carries the diagnostics gathered so far.

A diagnostic is an error or a warning. Warnings (a partial translation, say) are shown but do not
fail validation or stop a game; `ludex validate --strict` promotes them to errors.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from operator import attrgetter


@dataclass(frozen=True, order=True)
class Diagnostic:
    file: str
    line: int
    col: int
    code: str
    message: str
    severity: str = field(default="error", compare=False)

    def as_dict(self) -> dict:
        return {
            "file": self.file,
            "line": self.line,
            "col": self.col,
            "code": self.code,
            "message": self.message,
            "severity": self.severity,
        }

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def promoted(self) -> Diagnostic:
        """This diagnostic as an error (for --strict)."""
        return Diagnostic(self.file, self.line, self.col, self.code, self.message)

    def headline(self) -> str:
        return f"{self.file}:{self.line}:{self.col}: {self.severity}[{self.code}]: {self.message}"

    def github(self) -> str:
        """A GitHub Actions workflow command: the diagnostic as an annotation on its line."""
        def escape(text: str, properties: bool = False) -> str:
            text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
            return text.replace(":", "%3A").replace(",", "%2C") if properties else text

        level = "warning" if self.severity == "warning" else "error"
        return (f"::{level} file={escape(self.file, True)},line={self.line},col={self.col},"
                f"title={escape(self.code, True)}::{escape(self.message)}")

    def render(self, source_lines: list[str] | None = None) -> str:
        """The headline, then the offending source line with a caret under the column."""
        text = self.headline()
        if source_lines and 1 <= self.line <= len(source_lines):
            src, offset = _window(source_lines[self.line - 1].rstrip("\n"), self.col - 1)
            src = src.replace("\t", " ")  # a tab's width is the terminal's guess: one column
            gutter = f"{self.line:>4} | "
            caret = " " * (len(gutter) + display_width(src[:max(offset, 0)])) + "^"
            text += f"\n{gutter}{src}\n{caret}"
        return text


_ORDER = attrgetter("file", "line", "col", "code", "message")


def sorted_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """`sorted(diagnostics)` — by file, line, column, code and message, as Diagnostic orders
    itself — with one key per diagnostic instead of a comparison method per comparison (a
    run may have 100,000)."""
    return sorted(diagnostics, key=_ORDER)


def errors_first(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """The errors, then the warnings, each kind in the order given (file order): what a run
    prints. A warning that only follows from an error elsewhere (a translation stale because
    its primary text was just broken) read before the error it follows from (a designer's
    trial); an error is what stops the game, so it is read first."""
    return sorted(diagnostics, key=lambda d: not d.is_error)


SHOWN_WIDTH = 100  # characters of a long source line shown around the caret


def display_width(text: str) -> int:
    """The columns `text` takes in a terminal: a combining mark (Arabic vowel signs, accents
    written apart) none, a wide character (CJK) two; the column numbers of diagnostics count
    characters, as editors do, but a caret drawn under the text must count what is seen."""
    width = 0
    for char in text:
        if char.isascii():
            width += 1
        elif unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
            continue
        else:
            width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def _window(line: str, col: int) -> tuple[str, int]:
    """A long line cut to SHOWN_WIDTH characters around column `col` (0-based), with `…` where
    it was cut; returns the text and the caret's offset in it."""
    if len(line) <= SHOWN_WIDTH:
        return line, col
    start = max(0, min(col - SHOWN_WIDTH // 3, len(line) - SHOWN_WIDTH))
    shown = line[start:start + SHOWN_WIDTH]
    offset = col - start
    if start > 0:
        shown, offset = "…" + shown, offset + 1
    if start + SHOWN_WIDTH < len(line):
        shown += "…"
    return shown, offset


class LudexError(Exception):
    """Raised when work cannot go on; carries every error found so far (warnings stay out)."""

    def __init__(self, diagnostics: Diagnostic | Iterable[Diagnostic]):
        if isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics = sorted_diagnostics(d for d in diagnostics if d.is_error)
        super().__init__("\n".join(d.headline() for d in self.diagnostics))

    @property
    def code(self) -> str:
        return self.diagnostics[0].code if self.diagnostics else ""

    def __reduce__(self) -> tuple:
        # rebuilt from its attributes, whatever its class's __init__ takes: a worker process
        # (`simulate`, the fuzzers) sends its errors back pickled
        return _rebuilt, (self.__class__, str(self), self.__dict__)


def _rebuilt(cls: type, text: str, attributes: dict) -> LudexError:
    error = cls.__new__(cls)
    Exception.__init__(error, text)
    error.__dict__.update(attributes)
    return error


class Collector:
    """Gathers diagnostics for one run; `error(...)` and `warning(...)` never raise. A collector
    is true when it holds an error (warnings alone do not stop anything)."""

    def __init__(self) -> None:
        self.diagnostics: list[Diagnostic] = []

    def error(self, file: str, line: int, col: int, code: str, message: str) -> None:
        self.diagnostics.append(Diagnostic(str(file), line, col, code, message))

    def warning(self, file: str, line: int, col: int, code: str, message: str) -> None:
        self.diagnostics.append(Diagnostic(str(file), line, col, code, message, "warning"))

    def extend(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.diagnostics.extend(diagnostics)

    def sorted(self) -> list[Diagnostic]:
        return sorted_diagnostics(set(self.diagnostics))

    def __bool__(self) -> bool:
        return any(d.is_error for d in self.diagnostics)

    def __len__(self) -> int:
        return len(self.diagnostics)


def unread(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """The errors of files that did not read at all (YAML or the file system): whatever they
    define is unknown, not merely wrong."""
    return [d for d in diagnostics if d.is_error and d.code.startswith(("yaml/", "io/"))]


# Warnings a partial translation gives one per key it lacks (and a game that copied the
# engine's lines, one per copy): a terminal shows the first few of each file and a line for
# the rest (`--json`, `--format github` and editors get them all).
FOLDED_WARNINGS = {"locale/missing-translation":
                   "`ludex locale status` lists every key a language lacks",
                   "locale/engine-line-copy":
                   "`ludex locale status` lists every copy of the engine's lines"}
SHOWN_OF_FOLDED = 3


def folded_for_text(diagnostics: Iterable[Diagnostic]) -> Iterator[Diagnostic | str]:
    """The diagnostics as a terminal shows them: after the first SHOWN_OF_FOLDED warnings of
    one FOLDED_WARNINGS code in one file, one line saying how many more there are."""
    diagnostics = list(diagnostics)
    counts: dict[tuple[str, str], int] = {}
    for d in diagnostics:
        if not d.is_error and d.code in FOLDED_WARNINGS:
            counts[d.file, d.code] = counts.get((d.file, d.code), 0) + 1
    seen: dict[tuple[str, str], int] = {}
    for d in diagnostics:
        key = (d.file, d.code)
        if d.is_error or d.code not in FOLDED_WARNINGS or counts[key] <= SHOWN_OF_FOLDED + 1:
            yield d
            continue
        seen[key] = seen.get(key, 0) + 1
        if seen[key] <= SHOWN_OF_FOLDED:
            yield d
        elif seen[key] == SHOWN_OF_FOLDED + 1:
            more = counts[key] - SHOWN_OF_FOLDED
            yield (f"{d.file}: warning[{d.code}]: {more} more like these "
                   f"({FOLDED_WARNINGS[d.code]}; --json lists every warning)")


def distinct(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Each diagnostic once, in the order first met (a game may note the same warning at
    every decision that meets it)."""
    return list(dict.fromkeys(diagnostics))


def did_you_mean(name: str, known: Iterable[str], limit: int = 3) -> str:
    """' (did you mean `a`, `b`?)' for the closest known names, or '' when none is close. A
    name differing only in letter case comes first: difflib scores `BAZA-3-c` as close to
    `BAZA-3-B` as `BAZA-3-b`, and put it first."""
    known = sorted(set(known))
    name = str(name)
    same_letters = [k for k in known if k.lower() == name.lower() and k != name]
    close = same_letters + [k for k in difflib.get_close_matches(name, known, n=limit,
                                                                 cutoff=0.6)
                            if k not in same_letters]
    close = close[:limit]
    if not close:
        return ""
    return " (did you mean " + ", ".join(f"`{c}`" for c in close) + "?)"


def first_foreign(text: str) -> int | None:
    """Where the first character of `text` outside ASCII stands, or None: ids and the names of
    the effect language are ASCII, and a Greek `ο` or Cyrillic `а` looks just like a Latin one
    on screen."""
    return next((i for i, char in enumerate(text) if not char.isascii()), None)


def character_named(char: str) -> str:
    """"`ο` is U+03BF GREEK SMALL LETTER OMICRON": which character it is, where a lookalike
    cannot be told apart by its look."""
    return f"`{char}` is U+{ord(char):04X} {unicodedata.name(char, 'a character with no name')}"
