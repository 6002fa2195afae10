"""The board as SVG, drawn from data: the map (spaces where the layout puts them, connections
by kind, control shown by colour, other markers as words, pieces as chips in their power's
colour) and a strip per power with its counters and what its zones hold that everyone may see.
Only public information is drawn, so the same picture serves every seat, `ludex render` and
bug reports. Elements carry `data-` attributes (space, control, power, piece) that tests and
scripts can read. Words run in their language's direction (Arabic's right to left) in the
same places: the drawing itself is not mirrored.
"""

from __future__ import annotations

import re
from html import escape

from ..map_words import holder_marker, marker_words, piece_words
from .direction import RTL, text_direction
from .layout import layout

WIDTH = 960
MARGIN = 70  # room for labels and piece chips beyond the outermost spaces
RADIUS = 15
LINE = 15  # height of a line of small text
CHARS_PER_LINE = 125  # of 11-pixel text in the strip right of the power's name
PALETTE = ("#c0392b", "#2e86c1", "#d4ac0d", "#229954", "#8e44ad", "#ca6f1e", "#5d6d7e",
           "#17a589", "#a93226", "#7d3c98")
DASHES = ("", "7 4", "2 4", "10 3 2 3")  # connection kinds in the order the manifest lists them


def power_colours(definition) -> dict[str, str]:
    """Power id -> a CSS colour: the manifest's `colour` (dark_blue → darkblue, or #rgb), else
    one from a fixed palette by the power's place in the manifest."""
    colours = {}
    for i, power in enumerate(definition.manifest.get("powers") or []):
        named = str(power.get("colour") or "").replace("_", "").lower()
        if re.fullmatch(r"[a-z]{3,20}|#[0-9a-f]{3}|#[0-9a-f]{6}", named):
            colours[power["id"]] = named
        else:
            colours[power["id"]] = PALETTE[i % len(PALETTE)]
    return colours


class Board:
    """Draws one game's board; the layout is worked out once per game."""

    def __init__(self, definition):
        self.definition = definition
        self.colours = power_colours(definition)
        self.places = layout(definition.space_ids, definition.connections,
                             definition.space_positions)
        # a map drawn by the automatic layout gets room by its number of spaces, so that a
        # small map is not blown up to the whole width
        placed = len(definition.space_positions) == len(self.places)
        self.inner = WIDTH - 2 * MARGIN if placed else \
            min(WIDTH - 2 * MARGIN, 150 * len(self.places) ** 0.5)
        kinds = definition.manifest.get("connection_kinds") or []
        self.dashes = {kind: DASHES[i % len(DASHES)] for i, kind in enumerate(kinds)}
        self.holder = holder_marker(definition)  # the marker that says who holds a space

    def svg(self, state: dict, text) -> str:
        parts: list[str] = []
        height = 0
        direction = text_direction(text.lang)
        if self.places:
            map_parts, height = self._map(state, text, direction)
            parts += map_parts
        strip, strip_height = self._strip(state, text, height + 10, direction)
        parts += strip
        height += strip_height + 20
        title = escape(self.definition.game_id)
        return (f'<svg xmlns="http://www.w3.org/2000/svg" class="board" '
                f'viewBox="0 0 {WIDTH} {height:.0f}" width="{WIDTH}" height="{height:.0f}" '
                f'font-family="DejaVu Sans, Arial, sans-serif" direction="{direction}" '
                f'data-game="{title}">'
                '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" '
                'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
                '<path d="M 0 0 L 10 5 L 0 10 z" fill="#555"/></marker></defs>'
                f'<rect width="{WIDTH}" height="{height:.0f}" fill="#fbf8f0"/>'
                + "".join(parts) + "</svg>")

    # -- the map ---------------------------------------------------------------------------
    def _xy(self, space: str) -> tuple[float, float]:
        x, y = self.places[space]
        return MARGIN + x * self.inner, MARGIN + y * self.inner

    def _map(self, state: dict, text, direction: str) -> tuple[list[str], float]:
        parts = ['<g class="connections">']
        for c in self.definition.connections:
            (x1, y1), (x2, y2) = self._xy(c["between"][0]), self._xy(c["between"][1])
            dash = self.dashes.get(c.get("kind"), "")
            extra = f' stroke-dasharray="{dash}"' if dash else ""
            if c.get("one_way"):  # stop the line at the circle so the arrow head shows
                length = ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5 or 1
                x2 -= (x2 - x1) / length * RADIUS
                y2 -= (y2 - y1) / length * RADIUS
                extra += ' marker-end="url(#arrow)"'
            parts.append(f'<line class="connection" data-kind="{escape(str(c.get("kind")))}" '
                         f'x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                         f'stroke="#777" stroke-width="2"{extra}/>')
        parts.append("</g>")
        bottom = 0.0
        for space in self.definition.space_ids:
            drawn, low = self._space(space, state["spaces"].get(space) or {}, text, direction)
            parts.append(drawn)
            bottom = max(bottom, low)
        return parts, bottom + 10

    def _space(self, space: str, held: dict, text, direction: str) -> tuple[str, float]:
        x, y = self._xy(space)
        markers = held.get("markers") or {}
        holder = markers.get(self.holder) if self.holder else None
        fill = self.colours.get(holder, "#f4f1e8") if holder else "#f4f1e8"
        home = next((v for v in (self.definition.spaces.get(space) or {}).values()
                     if isinstance(v, str) and v in self.colours), None)
        stroke = self.colours[home] if home else "#444"
        name = escape(str(text.name(space)))
        attrs = f' data-control="{escape(str(holder))}"' if holder else ""
        out = [f'<g class="space" id="space-{space}" data-space="{space}"{attrs}>',
               f'<title>{name}</title>',
               f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{RADIUS}" fill="{fill}" '
               f'stroke="{stroke}" stroke-width="3"/>',
               _label(x, y + RADIUS + 12, name, 11, "middle", bold=True)]
        low = y + RADIUS + 14
        words = marker_words(self.definition, markers, text, skip=self.holder)
        if words:
            out.append(_label(x, low + 10, escape(words), 9, "middle", cls="markers"))
            low += 12
        chip_y = y - RADIUS
        for power, kinds in (held.get("pieces") or {}).items():
            words = piece_words(self.definition, kinds, text)
            if not words:
                continue
            width = 8 + 5.6 * len(words)
            left = x + RADIUS + 3
            if left + width > WIDTH - 4:  # no room on the right: the chip goes on the left
                left = x - RADIUS - 3 - width
            colour = self.colours.get(power, "#999")
            out.append(f'<g class="pieces" data-power="{escape(power)}" '
                       f'data-pieces="{escape(words)}">'
                       f'<rect x="{left:.1f}" y="{chip_y:.1f}" width="{width:.1f}" '
                       f'height="13" rx="3" fill="{colour}" stroke="#222" stroke-width="0.5"/>'
                       + _label(left + 4, chip_y + 10, escape(words), 9, "start", direction)
                       + "</g>")
            chip_y += 15
        out.append("</g>")
        return "".join(out), max(low, chip_y)

    # -- the powers' strip -----------------------------------------------------------------
    def _strip(self, state: dict, text, top: float, direction: str
               ) -> tuple[list[str], float]:
        parts, y = ['<g class="tableau">'], top + 10
        powers = [p for seat in state["seats"] for p in seat]
        rows = [(p, self._power_lines(state, text, p)) for p in powers]
        shared = self._shared_lines(state, text)
        if shared:
            rows.append((None, shared))
        for power, lines in rows:
            colour = self.colours.get(power, "#bbb") if power else "#bbb"
            name = escape(str(text.name(power))) if power else "—"
            parts.append(f'<g class="power-row" data-power="{escape(power or "")}">'
                         f'<rect x="10" y="{y:.1f}" width="14" height="14" fill="{colour}" '
                         f'stroke="#222" stroke-width="0.5"/>'
                         + _label(30, y + 12, name, 12, "start", direction, bold=True))
            for line in lines:
                parts.append(_label(170, y + 12, escape(line), 11, "start", direction))
                y += LINE
            parts.append("</g>")
            y += 6
        parts.append("</g>")
        return parts, y - top

    def _power_lines(self, state: dict, text, power: str) -> list[str]:
        counters = [f"{text.name(c)} {values[power]}" for c, values in state["counters"].items()
                    if isinstance(values, dict) and power in values
                    and c not in self.definition.secret_counters]  # the board is public
        zones = [self._zone_words(state, text, zone, power)
                 for zone in self.definition.zones if power in state["zones"].get(zone, {})]
        return _wrap([" · ".join(counters)] if counters else [], zones)

    def _shared_lines(self, state: dict, text) -> list[str]:
        counters = [f"{text.name(c)} {value}" for c, value in state["counters"].items()
                    if not isinstance(value, dict)]
        zones = [self._zone_words(state, text, zone, "") for zone in self.definition.zones
                 if "" in state["zones"].get(zone, {})]
        return _wrap([" · ".join(counters)] if counters else [], zones)

    def _zone_words(self, state: dict, text, zone: str, holder: str) -> str:
        cards = state["zones"][zone][holder]
        name = text.name(zone)
        if self.definition.zones[zone].get("visibility", "public") != "public" or not cards:
            return f"{name} ({len(cards)})"
        return f"{name}: " + text.separator().join(str(text.name(card)) for card in cards)


def _wrap(first: list[str], items: list[str]) -> list[str]:
    """Items joined by ` · ` into lines that fit; a long item (a zone with many cards) breaks
    between its cards."""
    lines, line = list(first), ""
    for item in items:
        if line and len(line) + len(item) + 3 > CHARS_PER_LINE:
            lines.append(line)
            line = ""
        line = f"{line} · {item}" if line else item
        while len(line) > CHARS_PER_LINE and ", " in line[:CHARS_PER_LINE]:
            cut = line.rindex(", ", 0, CHARS_PER_LINE)
            lines.append(line[:cut + 1])
            line = "    " + line[cut + 2:]
    if line:
        lines.append(line)
    return lines or [""]


def _label(x: float, y: float, words: str, size: int, anchor: str, direction: str = "ltr",
           *, bold: bool = False, cls: str = "") -> str:
    """Words at (x, y); `start`: beginning at x on its left, whichever way the words run (the
    end of right-to-left words is their left side)."""
    if direction == RTL and anchor == "start":
        anchor = "end"
    weight = ' font-weight="bold"' if bold else ""
    klass = f' class="{cls}"' if cls else ""
    # a white halo keeps words readable on any fill
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}"{weight}'
            f'{klass} fill="#111" stroke="#fff" stroke-width="2.5" paint-order="stroke">'
            f"{words}</text>")


def render(definition, state: dict, text) -> str:
    """The board of `state` as an SVG document."""
    return Board(definition).svg(state, text)
