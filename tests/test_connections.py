"""The map's connections indexed at load (connections.py): by space, by pair and by kind."""

from __future__ import annotations

from ludex.connections import index_connections

MAP = [
    {"between": ["a", "b"], "kind": "road", "one_way": False},
    {"between": ["b", "c"], "kind": "river", "one_way": False},
    {"between": ["c", "d"], "kind": "road", "one_way": True},
    {"between": ["a", "c"], "kind": None, "one_way": False},
]


def test_a_two_way_connection_has_its_kind_both_ways_and_a_one_way_one_only_forwards():
    kinds = index_connections(MAP).kinds
    assert kinds["b"]["c"] == kinds["c"]["b"] == "river"
    assert kinds["c"]["d"] == "road" and "c" not in kinds.get("d", {})


def test_a_connection_without_a_kind_reads_none_and_is_in_no_kind_list():
    index = index_connections(MAP)
    assert index.kinds["a"]["c"] is None and "c" in index.neighbours["a"]
    assert all("c" not in spaces for (start, _), spaces in index.by_kind.items() if start == "a")


def test_neighbours_by_kind_keep_the_order_of_the_file():
    index = index_connections(MAP)
    assert index.neighbours["c"] == ("b", "d", "a")
    assert index.by_kind[("c", "road")] == ("d",) and index.by_kind[("c", "river")] == ("b",)
    assert ("d", "road") not in index.by_kind  # the one-way road leads into d, not out
