"""A map's connections indexed once, at load, for the queries that read them (`adjacent`,
`neighbours`, `connection_kind`): which spaces a connection leads to from each space, by which
kind, so that a movement rule asking "is this a river crossing?" in a loop is one dict lookup,
never a scan of the connections."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class ConnectionIndex:
    # space -> the spaces a connection leads to from it, in the order of the file
    neighbours: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # space -> space it leads to -> that connection's kind (None: it has none)
    kinds: dict[str, dict[str, str | None]] = field(default_factory=dict)
    # (space, kind) -> the spaces a connection of that kind leads to from it, in file order
    by_kind: dict[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)


def index_connections(connections: list[dict]) -> ConnectionIndex:
    """`connections` as gamedef keeps them (`between`, `kind`, `one_way`), both ways unless
    one-way. Checks have refused two connections between the same spaces
    (`content/duplicate-connection`), so each pair has one kind."""
    links: dict[str, list[str]] = {}
    kinds: dict[str, dict[str, str | None]] = {}
    by_kind: dict[tuple[str, str], list[str]] = {}
    for c in connections:
        a, b = c["between"]
        leads = [(a, b)] if c.get("one_way") else [(a, b), (b, a)]
        for start, end in leads:
            links.setdefault(start, []).append(end)
            kinds.setdefault(start, {}).setdefault(end, c.get("kind"))
            if c.get("kind") is not None:
                by_kind.setdefault((start, c["kind"]), []).append(end)
    return ConnectionIndex({k: tuple(v) for k, v in links.items()}, kinds,
                           {k: tuple(v) for k, v in by_kind.items()})
