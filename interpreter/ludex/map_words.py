"""A space of the map in words — who holds it, its markers off their start, the pieces on it —
as the table's board labels it and the terminal lists it."""

from __future__ import annotations

from typing import Any


def holder_marker(definition: Any) -> str | None:
    """The marker that says who holds a space: the first one whose values are powers."""
    return next((m for m, spec in definition.markers.items() if spec.get("type") == "power"),
                None)


def marker_words(definition: Any, markers: dict, text: Any, skip: str | None = None) -> str:
    """Markers (but `skip`) where they differ from their starting value: `Loyalty 2 · Besieged`."""
    words = []
    for marker, spec in definition.markers.items():
        value = markers.get(marker)
        if marker == skip or value in (None, False, spec.get("initial")):
            continue
        label = text.name(marker)
        words.append(str(label) if value is True else f"{label} {text.name(value)}")
    return " · ".join(words)


def piece_words(definition: Any, kinds: dict, text: Any) -> str:
    """One power's pieces on a space: `4 CU, Camillus` (a unique piece by its name alone)."""
    return text.separator().join(
        str(text.name(kind)) if n == 1 and definition.pieces.get(kind, {}).get("unique")
        else text.counted(kind, n) for kind, n in kinds.items() if n)
