"""Where each space of a map is drawn.

A space may carry `position: [x, y]` in the map; the others are placed by a force-directed
layout of the connections (Fruchterman–Reingold), with the given positions pinned. It is our own
few lines of plain float arithmetic rather than a graph library's: no generator and no numpy,
so the same map gives the same drawing, to the last digit, on every machine and in every run.
"""

from __future__ import annotations

import math

ITERATIONS = 300


def layout(space_ids: list[str], connections: list[dict],
           given: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """Space id -> (x, y), x from 0 to 1 and y in proportion (a tall map goes below 1)."""
    if not space_ids:
        return {}
    pinned = _fit({s: given[s] for s in space_ids if s in given})
    free = [s for s in space_ids if s not in pinned]
    places = dict(pinned)
    if free:
        places.update(_force(space_ids, connections, pinned, free))
    return _fit(places)


def _fit(places: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """Shift and scale so that x runs from 0 to 1, keeping the proportions."""
    if not places:
        return {}
    xs = [p[0] for p in places.values()]
    ys = [p[1] for p in places.values()]
    span = (max(xs) - min(xs)) or (max(ys) - min(ys)) or 1.0
    return {s: ((x - min(xs)) / span, (y - min(ys)) / span) for s, (x, y) in places.items()}


def _force(space_ids: list[str], connections: list[dict], pinned: dict, free: list[str]
           ) -> dict[str, tuple[float, float]]:
    count = len(space_ids)
    k = math.sqrt(1.0 / count)  # the ideal distance between neighbours
    # start on a circle in map order (a spiral if some are pinned, to avoid them)
    pos = {}
    for i, s in enumerate(space_ids):
        if s in pinned:
            pos[s] = list(pinned[s])
        else:
            angle = 2 * math.pi * i / count
            pos[s] = [0.5 + 0.45 * math.cos(angle), 0.5 + 0.45 * math.sin(angle)]
    edges = [tuple(c["between"]) for c in connections
             if c["between"][0] in pos and c["between"][1] in pos]
    temperature = 0.1
    cooling = temperature / (ITERATIONS + 1)
    for _ in range(ITERATIONS):
        shift = {s: [0.0, 0.0] for s in free}
        for i, a in enumerate(space_ids):
            for b in space_ids[i + 1:]:
                dx, dy = pos[a][0] - pos[b][0], pos[a][1] - pos[b][1]
                dist = math.hypot(dx, dy) or 1e-6
                push = k * k / dist
                if a in shift:
                    shift[a][0] += dx / dist * push
                    shift[a][1] += dy / dist * push
                if b in shift:
                    shift[b][0] -= dx / dist * push
                    shift[b][1] -= dy / dist * push
        for a, b in edges:
            dx, dy = pos[a][0] - pos[b][0], pos[a][1] - pos[b][1]
            dist = math.hypot(dx, dy) or 1e-6
            pull = dist * dist / k
            if a in shift:
                shift[a][0] -= dx / dist * pull
                shift[a][1] -= dy / dist * pull
            if b in shift:
                shift[b][0] += dx / dist * pull
                shift[b][1] += dy / dist * pull
        for s in free:
            # a little gravity keeps unconnected spaces from drifting away
            shift[s][0] += (0.5 - pos[s][0]) * 0.5 * k
            shift[s][1] += (0.5 - pos[s][1]) * 0.5 * k
            length = math.hypot(*shift[s]) or 1e-6
            step = min(length, temperature)
            pos[s][0] += shift[s][0] / length * step
            pos[s][1] += shift[s][1] / length * step
        temperature -= cooling
    return {s: (pos[s][0], pos[s][1]) for s in free}
