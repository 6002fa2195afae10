"""Safe YAML loading that remembers where every value came from.

Content is parsed with libyaml's C parser where present (pure Python otherwise) into a node
graph, checked, and only then built into plain Python data. Building it ourselves lets us:

* keep file:line:col for every value and every mapping key (`Document.pos`, `Document.key_pos`);
* read plain scalars as the YAML 1.2 core schema does — what editors and most tools use — and
  refuse the YAML 1.1 forms whose meaning differs between the two (`no`, `0777`, `1:30`,
  `2001-12-14`, `1_000`, `1e3`), so a file never means one thing in the editor and another
  here;
* count the nodes that aliases would expand to *before* building anything, so an alias bomb is
  refused in microseconds with no memory spent, and a recursive alias never loops;
* report duplicate keys, tabs in indentation, control characters, non-UTF-8 bytes and
  oversized files as errors, each at its own line and column.
"""

from __future__ import annotations

import os
import re
import stat
from bisect import bisect_right
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import Collector

MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_EXPANDED_NODES = 1_000_000
MAX_DEPTH = 64  # nesting of mappings and lists; content needs a handful
MAX_MAGNITUDE = 10**15  # integers in content: game numbers, never astronomical ones

_PLAIN = "!ludex/plain"  # tag given to untagged plain scalars; resolved below, YAML 1.2 style
_STR = "tag:yaml.org,2002:str"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"


class _Resolving:
    """Leaves implicit typing to us: PyYAML's resolver applies YAML 1.1 rules."""

    def resolve(self, kind, value, implicit):
        if kind is yaml.ScalarNode and implicit[0]:
            return _PLAIN
        return super().resolve(kind, value, implicit)

    # No path resolvers are registered: the composer need not tell each node's place to them
    def descend_resolver(self, current_node, current_index):
        pass

    def ascend_resolver(self):
        pass


class _PythonLoader(_Resolving, yaml.SafeLoader):
    pass


# libyaml composes several times faster; both give the same nodes with the same marks (a test
# holds them to it on every file of the bundled games and the corpus)
LOADERS: dict[str, type] = {"python": _PythonLoader}
if getattr(yaml, "CSafeLoader", None) is not None:  # depends on how PyYAML was built
    LOADERS["libyaml"] = type("_LibyamlLoader", (_Resolving, yaml.CSafeLoader), {})
DEFAULT_LOADER = "libyaml" if "libyaml" in LOADERS else "python"


# YAML 1.2 core schema (https://yaml.org/spec/1.2.2/#1033-core-schema).
_NULL = re.compile(r"~|null|Null|NULL|")
_TRUE = re.compile(r"true|True|TRUE")
_FALSE = re.compile(r"false|False|FALSE")
_INT10 = re.compile(r"[-+]?[0-9]+")
_INT16 = re.compile(r"0x[0-9a-fA-F]+")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")
_INF = re.compile(r"[-+]?\.(inf|Inf|INF)")
_NAN = re.compile(r"\.(nan|NaN|NAN)")

# Every pattern here and below matches only a text that starts with one of these characters or
# is one of these words (or is empty): any other plain scalar is a string, told in one test.
_MAY_BE_SPECIAL = frozenset("~+-.0123456789")
_WORDS = frozenset(["null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE",
                    "yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF"])

# A whole number no pattern below refuses or reads otherwise: no sign, no leading zero (`07` is
# octal in YAML 1.1), fewer than 16 digits (within MAX_MAGNITUDE)
_SMALL_INT = re.compile(r"0|[1-9][0-9]{0,14}")

# YAML 1.1 forms that a YAML 1.2 reader takes differently: (pattern, code, what 1.1 makes of it,
# or a function of the text that says so).
_TRAPS = [
    (re.compile(r"yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF"), "yaml/ambiguous-bool",
     "a boolean in YAML 1.1 but a string in YAML 1.2; write true/false, or quote it"),
    (re.compile(r"[-+]?0[0-7]+|0o[0-7]+"), "yaml/ambiguous-octal",
     "an octal number in one YAML version and not the other; write it in decimal, or quote it"),
    # a leading zero that cannot be octal: YAML 1.1's integers have none, so `08` is a text
    # there, and 1.2's decimal digits may have any (a designer's `valor: 08` read as 8)
    (re.compile(r"[-+]?0[0-9]*[89][0-9]*"), "yaml/ambiguous-number",
     lambda text: f"a string in YAML 1.1 but the number {_unpadded(text)} in YAML 1.2; write "
                  f'{_unpadded(text)}, or quote it: "{text}"'),
    (re.compile(r"[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?"), "yaml/ambiguous-sexagesimal",
     "a base-60 number in YAML 1.1 but a string in YAML 1.2; quote it"),
    (re.compile(r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt ].*)?"), "yaml/ambiguous-date",
     "a date in YAML 1.1 but a string in YAML 1.2; quote it"),
    (re.compile(r"[-+]?([0-9][0-9_]*_[0-9_]*)(\.[0-9_]*)?|0b[01_]+"), "yaml/ambiguous-number",
     "a number in YAML 1.1 but a string in YAML 1.2; write plain digits, or quote it"),
    # YAML 1.1 floats need a dot and a signed exponent: `1e3`, `2.5e3` are strings there
    (re.compile(r"[-+]?(\.[0-9]+|[0-9]+\.[0-9]*)[eE][0-9]+|[-+]?[0-9]+[eE][-+]?[0-9]+"),
     "yaml/ambiguous-number",
     "a number in YAML 1.2 but a string in YAML 1.1; write it without the exponent, or quote it"),
]


def _unpadded(text: str) -> str:
    """A whole number's digits without their leading zeros (`-08`: `-8`), as text: Python's
    `int` refuses one of thousands of digits."""
    return ("-" if text.startswith("-") else "") + (text.lstrip("+-").lstrip("0") or "0")


@dataclass
class Document:
    """One loaded YAML file: its data plus the position of every value and key."""

    path: Path
    text: str
    data: Any = None
    positions: dict[tuple, tuple[int, int]] = field(default_factory=dict)
    key_positions: dict[tuple, tuple[int, int]] = field(default_factory=dict)
    block_scalars: dict[tuple, int] = field(default_factory=dict)
    # effect trees parsed from its texts (`parser.parse_once`), kept with it in the cache
    trees: dict[tuple, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def lines(self) -> list[str]:
        """The text's lines, split once (a file with many effects is asked for each one)."""
        lines = self.__dict__.get("_lines")
        if lines is None:
            lines = self.__dict__["_lines"] = self.text.splitlines()
        return lines

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state.pop("_lines", None)  # cheap to split again: not worth its room in the cache
        return state

    def pos(self, path: tuple | list) -> tuple[int, int]:
        """(line, col) of the value at `path`, or of its nearest existing ancestor."""
        path = tuple(path)
        while path not in self.positions and path:
            path = path[:-1]
        return self.positions.get(path, (1, 1))

    def key_pos(self, path: tuple | list) -> tuple[int, int]:
        """(line, col) of the mapping key that introduces `path` (falls back to the value)."""
        path = tuple(path)
        return self.key_positions.get(path) or self.pos(path)

    def text_origin(self, path: tuple | list) -> tuple[int, int]:
        """Where character 0 of the string at `path` sits in the file.

        For a block scalar (`|`, `>`) the text starts on the line after the indicator, at the
        block's indentation; for inline scalars it starts at the value itself (after the
        opening quote, if any).
        """
        path = tuple(path)
        line, col = self._value_start(path)
        style = self.block_scalars.get(path)
        if style is None:
            return line, col
        if style in "'\"":
            return line, col + 1
        lines = self.lines
        if style == "|":
            # A `|` text keeps its leading empty lines (its line 1 is the line after the
            # indicator, blank or not) and, with an indentation indicator (`|2`), spaces
            # beyond the block's indentation: measure the indentation on the first line that
            # has something, against that line of the text.
            text = self.value(path)
            if isinstance(text, str) and text[:1] in ("\n", " "):
                for number, content in enumerate(text.split("\n")):
                    if content.strip(" ") and line + number < len(lines):
                        source = lines[line + number]
                        indent = len(source) - len(source.lstrip(" "))
                        return line + 1, indent - (len(content) - len(content.lstrip(" "))) + 1
                return line + 1, 1
        for number in range(line + 1, len(lines) + 1):
            content = lines[number - 1]
            if content.strip(" "):  # (only spaces indent YAML: `\xa0` is text)
                return number, len(content) - len(content.lstrip(" ")) + 1
        return line + 1, 1

    def _value_start(self, path: tuple) -> tuple[int, int]:
        """(line, col) where the value at `path` itself starts: its node starts at its
        properties, if it has any (`&anchor`, `!!str`)."""
        line, col = self.pos(path)
        lines = self.lines
        if line > len(lines) or lines[line - 1][col - 1:col] not in ("!", "&"):
            return line, col
        source = lines[line - 1]
        col = _PROPERTIES.match(source, col - 1).end() + 1
        if source[col - 1:].strip(" ")[:1] in ("", "#"):  # the value starts on a later line
            for number in range(line + 1, len(lines) + 1):
                content = lines[number - 1]
                if content.strip(" "):
                    return number, len(content) - len(content.lstrip(" ")) + 1
        return line, col

    def value(self, path: tuple | list) -> Any:
        """The value at `path` (None where there is none)."""
        value = self.data
        for key in path:
            try:
                value = value[key]
            except (KeyError, IndexError, TypeError):
                return None
        return value

    def text_places(self, path: tuple | list) -> TextPlaces | None:
        """How the characters of the string at `path` map to the file, when shifting lines and
        columns from `text_origin` cannot tell (a `>` block, a scalar folded over several
        lines, an escape); None when it can: a `|` block, whose lines are the file's, or a
        text written as it reads on one line.

        Cheap: the places themselves are found only when one is asked for."""
        path = tuple(path)
        text = self.value(path)
        if not isinstance(text, str):
            return None
        style = self.block_scalars.get(path)
        if style == "|":
            return None
        line, col = self._value_start(path)
        lines = self.lines
        if line > len(lines):
            return None
        if style is None:
            if lines[line - 1].startswith(text, col - 1):
                return None
            return TextPlaces(lines, text, line - 1, col - 1, None)
        if style in "'\"":
            source = lines[line - 1]
            if source.startswith(text, col) and source.startswith(style, col + len(text)):
                return None  # no escape, no line break: as written
            return TextPlaces(lines, text, line - 1, col, style)
        return TextPlaces(lines, text, line, 0, None)  # `>`: from the line after the indicator


_PROPERTIES = re.compile(r"(?:[!&]\S*[ \t]*)+")
_RUN = re.compile(r"\S+")
_BREAK = re.compile("\n")
_INK = re.compile(r"\S")
_ESCAPE_SIZES = {"x": 4, "u": 6, "U": 10}  # `\x41`, `\u00e8`, `\U0001F600`
_SPACE_ESCAPES = frozenset("tnvfr N_LP\t")  # the escapes that give white space


class TextPlaces:
    """Where each character of a folded or escaped scalar sits in the file.

    A `>` block joins its lines with spaces, and so does a plain or quoted scalar written over
    several lines; an escape (`\\"`, `\\u00e8`, `''`) is longer in the file than the character
    it gives. Such a text does not map to the file by shifting lines and columns, so its
    source is scanned: every character that is not white space is found in the file, in
    order (folding and escapes change only white space and escapes), and white space takes
    its place from the nearest such character on its own line of the text. The scan is made
    on the first place asked for: a text whose tree comes from the content cache is never
    scanned.
    """

    __slots__ = ("col", "line", "lines", "places", "quote", "spans", "starts", "text")

    def __init__(self, lines: list[str], text: str, line: int, col: int, quote: str | None):
        # `line` and `col` (0-based) are where the scan starts: the scalar's first character
        # (for a block, the start of the line after the indicator)
        self.lines, self.text, self.line, self.col, self.quote = lines, text, line, col, quote
        self.starts: list[int] | None = None  # offsets in the text of the runs found …
        self.places: list[tuple[int, int, int]] = []  # … and their (line, col, length)
        self.spans: list[tuple[int, int]] = []  # (first, last + 1) offsets of each text line

    def __call__(self, line: int, col: int) -> tuple[int, int]:
        """(line, col) in the file of (line, col) in the text, both 1-based."""
        # called for every node parsed from the text: kept short
        starts = self.starts
        if starts is None:
            starts = self._scan()
        spans = self.spans
        begin, end = spans[line - 1] if line <= len(spans) else (len(self.text) + 1,) * 2
        offset = begin + col - 1
        k = bisect_right(starts, offset) - 1
        if k >= 0 and starts[k] >= begin:  # after a run on its line: counted from the run
            at_line, at_col, _ = self.places[k]
            return at_line, at_col + offset - starts[k]
        if k + 1 < len(starts) and starts[k + 1] < end:  # before the first run on its line
            at_line, at_col, _ = self.places[k + 1]
            return at_line, max(1, at_col - (starts[k + 1] - offset))
        if k >= 0:  # a line of nothing but white space: right after the text before it
            at_line, at_col, length = self.places[k]
            return at_line, at_col + length
        return self.line + 1, self.col + 1

    def _scan(self) -> list[int]:
        text = self.text
        breaks = [found.end() for found in _BREAK.finditer(text)]
        self.spans = list(zip([0, *breaks], [*breaks, len(text) + 1], strict=True))
        self.starts = []
        if self.quote is None:
            self._scan_lines()
        else:
            self._scan_quoted()
        return self.starts

    def _scan_lines(self) -> None:
        """A plain scalar or a `>` block. Folding changes only line breaks and the white
        space around them: each line of the file is in the text as it is, after nothing but
        white space, and one search places it (a word at a time when a line goes on past the
        scalar, as a comment after a plain one does)."""
        lines, text, starts, places = self.lines, self.text, self.starts, self.places
        at, end, col = 0, len(text.rstrip()), self.col
        for li in range(self.line, len(lines)):
            if at >= end:
                return
            source = lines[li]
            ink = _INK.search(source, col)
            col = 0
            if ink is None:
                continue
            begin = ink.start()
            content = source[begin:].rstrip()
            found = text.find(content, at)
            if found >= 0 and not text[at:found].strip():
                starts.append(found)
                places.append((li + 1, begin + 1, len(content)))
                at = found + len(content)
                continue
            for run in _RUN.finditer(source, begin):
                word = run.group()
                found = text.find(word, at)
                ends = found < 0 or bool(text[at:found].strip())
                if ends:  # inside `[…]` or `{…}` the scalar ends at a `,`, `]` or `}`
                    word = word.rstrip(",]}")
                    found = text.find(word, at) if word else -1
                    if found < 0 or text[at:found].strip():
                        return  # the scalar has ended
                starts.append(found)
                places.append((li + 1, run.start() + 1, len(word)))
                at = found + len(word)
                if ends:
                    return

    def _scan_quoted(self) -> None:
        """A quoted scalar: character by character, an escape (`\\"`, `''`) standing for
        the one character it gives; escaped line breaks and escapes that give white space
        are passed over as white space is."""
        lines, li, ci, text, double = self.lines, self.line, self.col, self.text, \
            self.quote == '"'
        starts, places = self.starts, self.places
        for offset, char in enumerate(text):
            if char.isspace():
                continue
            while True:
                if li >= len(lines):
                    return
                source = lines[li]
                if ci >= len(source):
                    li, ci = li + 1, 0
                    continue
                found = source[ci]
                size = 1
                if double and found == "\\":
                    if ci + 1 == len(source):  # an escaped line break: gives nothing
                        li, ci = li + 1, 0
                        continue
                    escape = source[ci + 1]
                    size = _ESCAPE_SIZES.get(escape, 2)
                    if escape in _SPACE_ESCAPES or (size > 2 and _space(source[ci + 2:ci + size])):
                        ci += size
                        continue
                elif found.isspace():
                    ci += 1
                    continue
                elif not double and found == "'":
                    size = 2  # `''`, one quote
                break
            starts.append(offset)
            places.append((li + 1, ci + 1, 1))
            ci += size


def _space(digits: str) -> bool:
    """Whether the hexadecimal escape `digits` (`\\u00a0`'s `00a0`) gives white space."""
    try:
        return chr(int(digits, 16)).isspace()
    except ValueError:
        return False


def source_lines(path: Path | str) -> list[str] | None:
    """A file's lines as diagnostics show them under their headline (read_head's text), or
    None when it cannot be read as one."""
    text = read_head(path)
    return text.splitlines() if text is not None else None


def read_head(path: Path | str, limit: int = MAX_FILE_BYTES) -> str | None:
    """The first `limit` bytes of a regular file as text, or None for anything else (a folder,
    a pipe that would block, a device that never ends) or an unreadable file."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        with Path(path).open("rb") as handle:
            raw = handle.read(limit)
    except OSError:
        return None
    # a UTF-16 or UTF-32 file (refused by load_bytes) is shown as its text, not as bytes
    encoding = next((e for bom, e in _OTHER_BOMS if raw.startswith(bom)), "utf-8")
    return raw.decode(encoding, errors="replace")


def load_file(path: Path | str, errors: Collector, display: str | None = None) -> Document | None:
    """Load one YAML file; problems go to `errors`. Returns None when nothing usable was read."""
    path = Path(path)
    name = display or str(path)
    try:
        mode = os.stat(path).st_mode
        if not stat.S_ISREG(mode):  # a FIFO would block for ever, /dev/zero never end
            errors.error(name, 1, 1, "io/not-a-file",
                         "not a regular file (a folder, pipe or device); content is read "
                         "from regular files only")
            return None
        with path.open("rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)  # the size on disk may lie (/proc, races)
        if len(raw) > MAX_FILE_BYTES:
            errors.error(name, 1, 1, "yaml/file-too-large",
                         f"file is larger than the limit of {MAX_FILE_BYTES:,} bytes")
            return None
    except OSError as exc:
        errors.error(name, 1, 1, "io/unreadable", f"cannot read file: {exc.strerror or exc}"
                     + _broken_link(path))
        return None
    return load_bytes(raw, name, errors, path=path)


def _broken_link(path: Path) -> str:
    """What a link that leads nowhere points to, said after the system's reason."""
    try:
        if path.is_symlink() and not path.exists():
            return f" (a link to {os.readlink(path)}, which is not there)"
    except OSError:
        pass
    return ""


def load_bytes(raw: bytes, name: str, errors: Collector, path: Path | None = None,
               loader: str = DEFAULT_LOADER) -> Document | None:
    """Load YAML from bytes (`loader`: which of LOADERS composes it)."""
    if len(raw) > MAX_FILE_BYTES:
        errors.error(name, 1, 1, "yaml/file-too-large",
                     f"file is {len(raw):,} bytes; the limit is {MAX_FILE_BYTES:,}")
        return None
    text = _decode(raw, name, errors)
    if text is None:
        return None
    doc = Document(path=path or Path(name), text=text)
    before = len(errors)
    _check_tabs(text, name, errors)
    _check_characters(text, name, errors)
    if len(errors) > before:
        return None  # libyaml would report only the first, less clearly (a control
        # character at 1:1 whatever its line)
    try:
        composer = LOADERS[loader](text)
        try:
            root = composer.get_single_node()
        finally:
            composer.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        if "maximum nesting depth" in (exc.problem or ""):
            # libyaml's own limit (1000 levels, far past ours): said as the builder says it,
            # and with no hint, whose re-reading would nest as deep
            line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
            errors.error(name, line, col, "yaml/too-deep",
                         f"nested more than {MAX_DEPTH} levels deep")
            return None
        if _key_without_colon(exc):  # the line the key began on, not where YAML gave up
            mark = exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = exc.problem or "invalid YAML"
        if exc.context:
            problem = f"{exc.context}: {problem}"
        errors.error(name, line, col, "yaml/syntax", problem + _hint(text, exc))
        return None
    except yaml.YAMLError as exc:  # reader errors: control characters and the like
        line, col = _reader_position(exc)
        errors.error(name, line, col, "yaml/syntax", str(getattr(exc, "reason", exc)))
        return None
    except RecursionError:  # the pure-Python composer on absurdly deep nesting
        errors.error(name, 1, 1, "yaml/too-deep",
                     f"nested more than {MAX_DEPTH} levels deep")
        return None
    if root is None:
        return doc
    # An alias names an anchor (`&`) set before it: a text without one has none to expand
    if "&" in text and not _check_expansion(root, name, errors):
        return None
    builder = _Builder(doc, name, errors)
    doc.data = builder.build(root, ())
    if builder.too_deep:
        return None
    return doc


# Byte order marks of the encodings editors offer beside UTF-8 (UTF-32's first: its
# little-endian mark begins with UTF-16's)
_OTHER_BOMS = ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"),
               (b"\xff\xfe", "UTF-16"), (b"\xfe\xff", "UTF-16"))


def _decode(raw: bytes, name: str, errors: Collector) -> str | None:
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    for bom, encoding in _OTHER_BOMS:
        if raw.startswith(bom):  # "byte 0xff is not valid UTF-8" told nothing of why
            errors.error(name, 1, 1, "yaml/not-utf8",
                         f"this file is {encoding} (it starts with {encoding}'s byte order "
                         "mark); save it as UTF-8")
            return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        head = raw[: exc.start]
        line = head.count(b"\n") + 1
        col = len(head[head.rfind(b"\n") + 1:].decode("utf-8", "replace")) + 1
        errors.error(name, line, col, "yaml/not-utf8",
                     f"byte 0x{raw[exc.start]:02x} is not valid UTF-8; save the file as UTF-8")
        return None


def _check_tabs(text: str, name: str, errors: Collector) -> None:
    if "\t" not in text:
        return  # the common case, told without splitting the text
    for number, line in enumerate(text.splitlines(), 1):
        indent = line[: len(line) - len(line.lstrip(" \t"))]
        if "\t" in indent and line.strip():
            errors.error(name, number, indent.index("\t") + 1, "yaml/tab-indent",
                         "tab in indentation; YAML indents with spaces only")


# What YAML does not allow in a stream (its c-printable set, negated): NUL, the C0 and C1
# control characters other than tab, line breaks and NEL, and the non-characters.
_UNPRINTABLE = re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _check_characters(text: str, name: str, errors: Collector) -> None:
    """Every line holding a character YAML refuses, at the character's own line and column."""
    if _UNPRINTABLE.search(text) is None:
        return  # the common case, told by one search of the whole text
    for number, line in enumerate(text.split("\n"), 1):
        found = _UNPRINTABLE.search(line)
        if found:
            code = ord(found.group())
            errors.error(name, number, found.start() + 1, "yaml/control-character",
                         f"character U+{code:04X} is not allowed in YAML; remove it, or write "
                         f"it as the escape `\\u{code:04x}` in a double-quoted string")


_VALUE = re.compile(r"^\s*(?:- )?[^\s:#'\"][^:#]*:\s+(\S.*)$")


def _hint(text: str, exc: yaml.MarkedYAMLError) -> str:
    """What usually causes the two errors designers meet most: text that YAML reads as
    structure. `key: {a0} plays` starts a mapping; `key: Turn: {a0}` has a second `: `."""
    lines = text.splitlines()
    for mark in (exc.problem_mark, exc.context_mark):
        if mark is None or mark.line >= len(lines):
            continue
        value = _VALUE.match(lines[mark.line])
        if value and value.group(1)[0] in "{[" and not _whole_collection(value.group(1)):
            return (f" (the value starts with `{value.group(1)[0]}`, which YAML reads as a "
                    "mapping or list: put the whole text in quotes)")
    column = _item_indented_too_far(lines, exc)
    if column is not None:
        return (f" (this list item's `-` is further in than the `-` of the items above it, at "
                f"column {column}: line it up with theirs)")
    if _key_without_colon(exc):
        if _left_of_its_text(lines, exc.context_mark.line):
            return (" (YAML read this line as a key, left of the text above it: a line of a "
                    "`|` or `>` text must be indented at least as far as the text's first "
                    "line)")
        return " (YAML read this line as a key, and it has no `:`)"
    column = _key_short_of_its_mapping(lines, exc.problem_mark)
    if column is not None:
        return (f" (this key starts left of the keys above it, at column {column}, and right "
                "of their list item's `-`: line it up with them)")
    if exc.problem_mark is not None and _left_of_its_text(lines, exc.problem_mark.line):
        return (" (this line is set left of the lines of the `|` or `>` text above it, so "
                "YAML read the text as ended there: a line of the text must be indented at "
                "least as far as the text's first line)")
    found = _key_at_its_lists_dash(lines, exc.problem_mark)
    if found is not None:
        line, column = found
        return (f" (this key is at the column of the `-` of the list item on line {line}: a "
                f"key of that item lines up with its first key, at column {column}; a new item "
                "starts with `- `)")
    if _indented_too_far(lines, exc.problem_mark):
        # the line's own key is what YAML cannot take: it reads the line as part of the one
        # above
        return (" (this line is indented further than the keys above it, so YAML reads it "
                "as the rest of the value before: line it up with them)")
    if exc.problem and "mapping values are not allowed" in exc.problem:
        return " (a value holding `: ` must be put in quotes)"
    return ""


_KEY_FIRST = re.compile(r"^\s*(?:- )?[A-Za-z_][\w-]*:(\s|$)")


def _whole_collection(value: str) -> bool:
    """Whether a value that starts with `{` or `[` is a whole mapping or list on its own
    (`[]`, `{a: 1}`): then it is not what YAML stumbled on."""
    try:
        node = yaml.compose(value, Loader=LOADERS[DEFAULT_LOADER])
        return isinstance(node, yaml.SequenceNode | yaml.MappingNode)
    except (yaml.YAMLError, RecursionError):
        # RecursionError: an unclosed `[[[…` hundreds deep, which the pure-Python parser
        # reads by recursion (libyaml reported the error in the file itself): not whole
        return False


def _indented_too_far(lines: list[str], mark) -> bool:
    """Whether the line YAML stopped at starts with a key set further in than the keys of
    the line above it, which holds a value of its own (not a `key:` opening a block)."""
    if mark is None or mark.line >= len(lines) or not _KEY_FIRST.match(lines[mark.line]):
        return False
    above = next((line for line in reversed(lines[:mark.line])
                  if line.strip() and not line.lstrip().startswith("#")), None)
    if above is None or above.rstrip().endswith(":") or not _KEY_FIRST.match(above):
        return False
    return _key_column(lines[mark.line]) > _key_column(above)


def _key_without_colon(exc: yaml.MarkedYAMLError) -> bool:
    """A line YAML began to read as a key (a line of a block text set too far left ends the
    text) and found no `:` for, on a later line."""
    context, problem = exc.context_mark, exc.problem_mark
    return (exc.context == "while scanning a simple key" and context is not None
            and problem is not None and "expected ':'" in (exc.problem or "")
            and problem.line > context.line)


_BLOCK_TEXT = re.compile(r":\s*[|>][-+0-9]*\s*(#.*)?$")


def _left_of_its_text(lines: list[str], index: int) -> bool:
    """Whether line `index` (0-based) comes right after the lines of a `|` or `>` text,
    set left of them, but not left of the key that opened the text: meant as its next line."""
    if index >= len(lines):
        return False
    indent = len(lines[index]) - len(lines[index].lstrip(" "))
    for above in reversed(lines[:index]):
        if not above.strip():
            continue
        above_indent = len(above) - len(above.lstrip(" "))
        if _BLOCK_TEXT.search(above):
            return above_indent <= indent
        if above_indent <= indent:
            return False
    return False


def _key_short_of_its_mapping(lines: list[str], mark) -> int | None:
    """The column (1-based) of the keys of the list item above when the line YAML stopped at
    starts with a key set left of them but right of the item's `-` (`   window:` under
    `  - id:`); None otherwise."""
    if mark is None or mark.line >= len(lines) or not _KEY_FIRST.match(lines[mark.line]) \
            or lines[mark.line].lstrip().startswith("- "):
        return None
    column = _key_column(lines[mark.line])
    for above in reversed(lines[:mark.line]):
        if not above.strip() or above.lstrip().startswith("#"):
            continue
        if not _KEY_FIRST.match(above):
            return None
        keys = _key_column(above)
        dash = len(above) - len(above.lstrip(" ")) if above.lstrip().startswith("- ") else None
        if keys > column and (dash is not None and dash < column):
            return keys + 1
        if keys <= column or dash is not None:
            return None
    return None


def _key_at_its_lists_dash(lines: list[str], mark) -> tuple[int, int] | None:
    """(line, column), both 1-based, of the list item above and of its keys when the line
    YAML stopped at starts with a key set exactly at the column of that item's `-`
    (`  pass: false` under `  - id: turn`); None otherwise."""
    if mark is None or mark.line >= len(lines) or not _KEY_FIRST.match(lines[mark.line]) \
            or lines[mark.line].lstrip().startswith("- "):
        return None
    column = _key_column(lines[mark.line])
    for number in range(mark.line - 1, -1, -1):
        above = lines[number]
        if not above.strip() or above.lstrip().startswith("#"):
            continue
        indent = len(above) - len(above.lstrip(" "))
        if indent < column:
            return None  # out of the list: the key belongs further out
        if indent == column:
            if above.lstrip().startswith("- ") and _KEY_FIRST.match(above):
                return number + 1, _key_column(above) + 1
            return None
    return None


def _item_indented_too_far(lines: list[str], exc: yaml.MarkedYAMLError) -> int | None:
    """The column (1-based) of the `-` of a list whose next item YAML could not take because
    its `-` is further in than theirs; None for any other error."""
    problem, context = exc.problem_mark, exc.context_mark
    # libyaml: "did not find expected '-' indicator"; PyYAML: "expected <block end>, but
    # found '<block sequence start>'"; both "while parsing a block collection", marked at
    # its first `-`
    if (problem is None or context is None or "block collection" not in (exc.context or "")
            or problem.line >= len(lines)):
        return None
    line = lines[problem.line]
    stripped = line.lstrip(" ")
    if not (stripped == "-" or stripped.startswith("- ")):
        return None
    return context.column + 1 if len(line) - len(stripped) > context.column else None


def _key_column(line: str) -> int:
    """Where a line's key starts (after a list item's `- `)."""
    stripped = line.lstrip(" ")
    return len(line) - len(stripped) + (2 if stripped.startswith("- ") else 0)


def _reader_position(exc: yaml.YAMLError) -> tuple[int, int]:
    mark = getattr(exc, "problem_mark", None)
    if mark is not None:
        return mark.line + 1, mark.column + 1
    return 1, 1


def _check_expansion(root: yaml.Node, name: str, errors: Collector) -> bool:
    """Refuse alias bombs and recursive aliases before building any Python object.

    Aliases share node objects in the composed graph, so the graph stays small while the data it
    stands for can be astronomically large. Sizes are memoised per node, making this linear in
    the graph; a node met again while still being measured is a cycle.
    """
    sizes: dict[int, int] = {}
    in_progress: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        key = id(node)
        if key in sizes:
            continue
        if isinstance(node, yaml.ScalarNode):
            sizes[key] = 1
            continue
        children = _children(node)
        if not children_done:
            if key in in_progress:
                continue
            in_progress.add(key)
            stack.append((node, True))
            for child in children:
                if id(child) in in_progress and id(child) not in sizes:
                    mark = child.start_mark
                    errors.error(name, mark.line + 1, mark.column + 1, "yaml/recursive-alias",
                                 "an alias refers to a node that contains it")
                    return False
                if id(child) not in sizes:
                    stack.append((child, False))
            continue
        total = 1 + sum(sizes[id(child)] for child in children)
        if total > MAX_EXPANDED_NODES:
            mark = node.start_mark
            errors.error(name, mark.line + 1, mark.column + 1, "yaml/alias-bomb",
                         f"aliases expand this to more than {MAX_EXPANDED_NODES:,} values")
            return False
        sizes[key] = total
        in_progress.discard(key)
    return True


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return [part for pair in node.value for part in pair]


class _Builder:
    """Turns the checked node graph into dicts, lists and scalars, recording positions."""

    def __init__(self, doc: Document, name: str, errors: Collector):
        self.doc, self.name, self.errors = doc, name, errors
        self.too_deep = False

    def error(self, node: yaml.Node, code: str, message: str) -> None:
        self.errors.error(self.name, node.start_mark.line + 1, node.start_mark.column + 1,
                          code, message)

    def build(self, node: yaml.Node, path: tuple) -> Any:
        # run once per value of every file: the node's class is read once, names kept local
        if len(path) > MAX_DEPTH:
            if not self.too_deep:
                self.error(node, "yaml/too-deep", f"nested more than {MAX_DEPTH} levels deep")
            self.too_deep = True
            return None
        mark = node.start_mark
        self.doc.positions[path] = (mark.line + 1, mark.column + 1)
        kind = node.__class__
        if kind is yaml.ScalarNode:
            if node.style:
                self.doc.block_scalars[path] = node.style
            return self.scalar(node)
        if kind is yaml.SequenceNode:
            if node.tag != _SEQ:
                self.error(node, "yaml/unsupported-tag", f"tag `{node.tag}` is not supported")
            build = self.build
            return [build(item, (*path, i)) for i, item in enumerate(node.value)]
        if node.tag != _MAP:
            self.error(node, "yaml/unsupported-tag", f"tag `{node.tag}` is not supported")
        result: dict[str, Any] = {}
        positions, key_positions = self.doc.positions, self.doc.key_positions
        shallow = len(path) < MAX_DEPTH  # its values may be recorded here, without `build`
        for key_node, value_node in node.value:
            # The common key and value — a plain scalar that is a name — are read here, in
            # the loop: the calls `key`, `build`, `scalar` and `plain` would make are most of
            # the time spent on a file of cards
            text = key_node.value
            if (key_node.__class__ is yaml.ScalarNode and key_node.tag == _PLAIN and text
                    and text[0] not in _MAY_BE_SPECIAL and text not in _WORDS
                    and text != "<<"):
                key = text
            else:
                key = self.key(key_node)
                if key is None:
                    continue
            key_mark = key_node.start_mark
            child = (*path, key)
            if key in result:
                self.error(key_node, "yaml/duplicate-key",
                           f"duplicate key `{key}` (first defined on line "
                           f"{key_positions[child][0]})")
                continue
            key_positions[child] = (key_mark.line + 1, key_mark.column + 1)
            text = value_node.value
            if (shallow and value_node.__class__ is yaml.ScalarNode and not value_node.style
                    and value_node.tag == _PLAIN and text):
                if text[0] not in _MAY_BE_SPECIAL and text not in _WORDS:
                    value: Any = text
                elif _SMALL_INT.fullmatch(text):
                    value = int(text)
                else:
                    result[key] = self.build(value_node, child)
                    continue
                mark = value_node.start_mark
                positions[child] = (mark.line + 1, mark.column + 1)
                result[key] = value
            else:
                result[key] = self.build(value_node, child)
        return result

    def key(self, node: yaml.Node) -> str | None:
        if not isinstance(node, yaml.ScalarNode):
            self.error(node, "yaml/complex-key", "mapping keys must be plain names or numbers")
            return None
        if node.tag == _PLAIN and node.value == "<<":
            self.error(node, "yaml/merge-key",
                       "`<<` merge keys are YAML 1.1 only; repeat the values or use a procedure")
            return None
        value = self.scalar(node)
        if isinstance(value, bool) or value is None or isinstance(value, float):
            self.error(node, "yaml/non-string-key",
                       f"key `{node.value}` is not a name; quote it if it is meant as text")
            return None
        return str(value)

    def too_large(self, node: yaml.ScalarNode, text: str) -> str:
        shown = text if len(text) <= 24 else f"{text[:12]}…{text[-6:]} ({len(text)} characters)"
        self.error(node, "yaml/number-too-large",
                   f"`{shown}` is out of range; numbers in content lie within ±10^15")
        return text

    def scalar(self, node: yaml.ScalarNode) -> Any:
        if node.tag == _STR:
            return node.value
        if node.tag != _PLAIN:
            self.error(node, "yaml/unsupported-tag", f"tag `{node.tag}` is not supported")
            return node.value
        return self.plain(node)

    def plain(self, node: yaml.ScalarNode) -> Any:
        text = node.value
        if text and text[0] not in _MAY_BE_SPECIAL and text not in _WORDS:
            return text  # a name: none of the patterns below can match it
        if _NULL.fullmatch(text):
            return None
        if _TRUE.fullmatch(text):
            return True
        if _FALSE.fullmatch(text):
            return False
        for pattern, code, meaning in _TRAPS:
            if pattern.fullmatch(text):
                said = meaning(text) if callable(meaning) else meaning
                self.error(node, code, f"`{text}` is {said}")
                return text
        if _INT10.fullmatch(text) or _INT16.fullmatch(text):
            digits = text.lstrip("+-")
            if len(digits) > 20:  # decided before conversion: Python refuses 4,300+ digits
                return self.too_large(node, text)
            value = int(text, 16) if text.startswith("0x") else int(text)
            return value if abs(value) <= MAX_MAGNITUDE else self.too_large(node, text)
        if _FLOAT.fullmatch(text):
            return float(text)
        if _INF.fullmatch(text):
            return float("-inf") if text.startswith("-") else float("inf")
        if _NAN.fullmatch(text):
            return float("nan")
        return text
