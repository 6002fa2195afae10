"""Rows keyed by ranges: a data table's column of type `range` holds, in each row, the numbers
that row stands for — `6`, `1-2`, `7+` (7 or more), `0-` (0 or less) — so that a die-roll
table reads as printed ("1-2: retreat, 3-5: hold, 6: rout") and `row_for(table, n)` finds the
row whose range holds `n`.

Here: reading a range cell, the index a lookup searches, and the table checks (one range
column a table, well-formed cells, no two rows holding the same number, and, where the table
declares the whole range it `covers`, no number left out and no row outside it), each reported
at its place in tables.yaml.
"""

from __future__ import annotations

import bisect
import itertools
import re
from dataclasses import dataclass

from .content import LoadedGame
from .errors import Collector

_RANGE = re.compile(r"(-?\d+)(?:\s*-\s*(-?\d+)|(\+)|(-))?")
_DIGITS = 18  # past what a die, a modifier or a score can be; and short of what a counter holds

Bounds = tuple[int | None, int | None]  # (low, high); None: open at that end


def parse(cell: object) -> Bounds | None:
    """The bounds of a range cell, or None when it is not one: a whole number (that number),
    `a-b` (a to b, both held, a <= b), `a+` (a or more), `a-` (a or less)."""
    if isinstance(cell, bool):
        return None
    if isinstance(cell, int):
        return (cell, cell) if abs(cell) < 10 ** _DIGITS else None
    if not isinstance(cell, str):
        return None
    found = _RANGE.fullmatch(cell.strip())
    if found is None or any(len(g.lstrip("-")) > _DIGITS for g in found.groups("")[:2]):
        return None
    low, high, more, less = found.groups()
    first = int(low)
    if more:
        return first, None
    if less:
        return None, first
    last = first if high is None else int(high)
    return (first, last) if first <= last else None


def shown(bounds: Bounds) -> int | str:
    """A range as a cell writes it: `6`, `1-2`, `7+`, `0-`."""
    low, high = bounds
    if low is None:
        return f"{high}-"
    if high is None:
        return f"{low}+"
    return low if low == high else f"{low}-{high}"


def _overlap(a: Bounds, b: Bounds) -> Bounds | None:
    low = b[0] if a[0] is None else a[0] if b[0] is None else max(a[0], b[0])
    high = b[1] if a[1] is None else a[1] if b[1] is None else min(a[1], b[1])
    if low is not None and high is not None and low > high:
        return None
    return low, high


def range_column(columns: dict) -> str | None:
    """The column a table's rows are found by: its first of type `range` (a table has one at
    most: the checks below)."""
    return next((c for c, kind in columns.items() if kind == "range"), None)


@dataclass(frozen=True)
class RangeIndex:
    """A range table's rows by their ranges, for `row_for`: sorted by where each begins."""

    column: str
    lows: tuple[float, ...]  # each range's low end (-inf when open), ascending
    entries: tuple[tuple[Bounds, dict], ...]

    @classmethod
    def of(cls, column: str, rows: list[dict]) -> RangeIndex:
        entries = []
        for row in rows:
            bounds = parse(row.get(column)) if isinstance(row, dict) else None
            if bounds is not None:
                entries.append((bounds, row))
        entries.sort(key=lambda e: -float("inf") if e[0][0] is None else e[0][0])
        return cls(column, tuple(-float("inf") if b[0] is None else b[0] for b, _ in entries),
                   tuple(entries))

    def find(self, value: int) -> dict | None:
        """The row whose range holds `value`, or None. Ranges do not overlap (checked at
        load), so the one beginning last at or before `value` is the only candidate."""
        at = bisect.bisect_right(self.lows, value) - 1
        if at < 0:
            return None
        (_, high), row = self.entries[at]
        return row if high is None or value <= high else None

    def described(self) -> str:
        """The ranges the rows hold, in order: `1-2, 3-5, 6`."""
        return ", ".join(str(shown(bounds)) for bounds, _ in self.entries)


def misread_bounds(cells: list) -> list[tuple[int, int | str, int, int | str]]:
    """The bound between each two neighbouring ranges (`2-3`, `4-5`) moved by one either way
    (`2-4`, `5` and `2`, `3-5`), a classic misreading of a printed table, as (row, its new
    cell, next row, its new cell) by the rows' indices in `cells`. Moves that would empty a
    row are left out; so are single cells moved alone (two rows would overlap, or leave a
    number to none: content validation refuses both)."""
    ranges = sorted(((b, i) for i, cell in enumerate(cells) if (b := parse(cell)) is not None),
                    key=lambda e: -float("inf") if e[0][0] is None else e[0][0])
    moves = []
    for (lower, i), (upper, j) in itertools.pairwise(ranges):
        if lower[1] is None or upper[0] != lower[1] + 1:
            continue  # not neighbours: no shared bound to misread
        for step in (1, -1):
            moved_lower, moved_upper = (lower[0], lower[1] + step), (upper[0] + step, upper[1])
            if all(low is None or high is None or low <= high
                   for low, high in (moved_lower, moved_upper)):
                moves.append((i, shown(moved_lower), j, shown(moved_upper)))
    return moves


# -- the checks ----------------------------------------------------------------------------------
_SYNTAX = ("write a number (`6`), two numbers with a hyphen between (`1-2`: both held), or a "
           "number with `+` (`7+`: 7 or more) or `-` (`0-`: 0 or less)")


def check_ranges(game: LoadedGame, errors: Collector) -> None:
    """Range columns and the rows they key: one range column a table; every cell a range
    (none left empty); no number held by two rows; with `covers`, every number of it held by
    a row, and no row holding none of it. `covers` on a table without a range column would
    check nothing, and is an error too."""
    doc = game.docs.get("tables")
    if doc is None:
        return
    for t, table in enumerate(game.data("tables").get("tables") or []):
        columns = table.get("columns") or {}
        ranged = [c for c, kind in columns.items() if kind == "range"]
        name = table.get("id")
        for extra in ranged[1:]:
            line, col = doc.key_pos(("tables", t, "columns", extra))
            errors.error(str(doc.path), line, col, "content/range-columns",
                         f"table `{name}` has two range columns, `{ranged[0]}` and `{extra}`: "
                         "its rows are found by one (`row_for`); make the other an integer "
                         "or a string")
        covers = _covers(doc, t, table, ranged, errors)
        if not ranged:
            continue
        column, held = ranged[0], []
        every, malformed = [], False  # what the rows hold, overlaps included, for the gaps
        for r, row in enumerate(table.get("rows") or []):
            cell = row.get(column)
            path = ("tables", t, "rows", r, column)
            line, col = doc.pos(path) if column in row else doc.pos(("tables", t, "rows", r))
            bounds = parse(cell)
            if bounds is None:
                errors.error(str(doc.path), line, col, "content/bad-range",
                             _malformed(cell, column, name))
                malformed = True
                continue
            every.append(bounds)
            for earlier, earlier_line in held:
                common = _overlap(bounds, earlier)
                if common is not None:
                    errors.error(str(doc.path), line, col, "content/overlapping-ranges",
                                 f"`{shown(bounds)}` overlaps `{shown(earlier)}` (line "
                                 f"{earlier_line}): both rows hold `{shown(common)}`; a number "
                                 f"finds one row of table `{name}`")
                    break
            else:
                held.append((bounds, line))
            if covers is not None and _overlap(bounds, covers) is None:
                errors.error(str(doc.path), line, col, "content/range-outside",
                             f"`{shown(bounds)}` lies outside `{shown(covers)}`, the whole "
                             f"range table `{name}` covers: no number it covers finds this row")
        # a row written wrong may well be the one meant to fill a gap: its error says enough
        if covers is not None and not malformed:
            gaps = _gaps(covers, every)
            if gaps:
                line, col = doc.pos(("tables", t, "covers"))
                errors.error(str(doc.path), line, col, "content/range-gap",
                             f"table `{name}` covers `{shown(covers)}`, but no row holds "
                             + ", ".join(f"`{shown(g)}`" for g in gaps))


def _covers(doc, t: int, table: dict, ranged: list[str], errors: Collector) -> Bounds | None:
    """The table's declared whole range, when it has a well-formed one that means something."""
    if "covers" not in table:
        return None
    line, col = doc.pos(("tables", t, "covers"))
    if not ranged:
        errors.error(str(doc.path), line, col, "content/ignored-field",
                     f"`covers` checks the rows of a range column, and table "
                     f"`{table.get('id')}` has none (a column of type `range`)")
        return None
    bounds = parse(table["covers"])
    if bounds is None or None in bounds:
        errors.error(str(doc.path), line, col, "content/bad-range",
                     f"`covers: {table['covers']}` is not the whole range of a table: two "
                     "numbers with a hyphen between (`1-6`, `2-12`)")
        return None
    return bounds


def _malformed(cell: object, column: str, table: str) -> str:
    if cell is None:
        return (f"every row of table `{table}` holds a range in `{column}`, and this one is "
                f"empty: {_SYNTAX}")
    if isinstance(cell, str) and any(dash in cell for dash in "–—−"):
        fixed = re.sub("[–—−]", "-", cell)
        return f"`{cell}` has a dash that is not a hyphen: write `{fixed}`"
    if isinstance(cell, str):
        found = _RANGE.fullmatch(cell.strip())
        if found is not None and found.group(2) is not None:
            low, high = found.group(1), found.group(2)
            if len(low.lstrip("-")) <= _DIGITS and len(high.lstrip("-")) <= _DIGITS:
                return f"`{cell}` runs backwards: write `{high}-{low}`"
    written = ("true" if cell else "false") if isinstance(cell, bool) else cell
    return f"`{written}` is not a range: {_SYNTAX}"


def _gaps(covers: Bounds, held: list[Bounds]) -> list[Bounds]:
    """The parts of `covers` (closed) that no range of `held` holds, in order."""
    low, high = covers
    spans = sorted(((b[0] if b[0] is not None else low, b[1] if b[1] is not None else high)
                    for b in held), key=lambda s: s[0])
    gaps, at = [], low
    for start, end in spans:
        if end < at:
            continue
        if start > at:
            gaps.append((at, min(start - 1, high)))
        at = max(at, end + 1)
        if at > high:
            break
    if at <= high:
        gaps.append((at, high))
    return [g for g in gaps if g[0] <= g[1] and g[0] <= high]
