"""The kept store (`core.kept`): an index, then each value read only when asked for; a store
that is cut short, damaged or written for another source gives nothing it cannot vouch for."""

from __future__ import annotations

import sys

import pytest

from speclint.core.kept import Kept


@pytest.fixture(autouse=True)
def writes_bytecode(monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", False)


def saved(folder, values, source=("test", 1)):
    store = Kept(str(folder), "demo", source)
    for key, value in values.items():
        store.put(key, value)
    store.save()
    return Kept(str(folder), "demo", source)  # as the next process reads it


def test_values_are_read_back_by_the_next_process(tmp_path):
    values = {"a": b"x" * 100_000, ("release", "0.5.6"): (1, [2, 3], {"k": None}), 7: "seven"}
    again = saved(tmp_path, values)
    assert {key: again.get(key) for key in values} == values
    assert again.get("missing") is None
    assert sorted(map(repr, again.keys())) == sorted(map(repr, values))


def test_a_store_for_another_source_is_empty(tmp_path):
    saved(tmp_path, {"a": 1})
    assert Kept(str(tmp_path), "demo", ("another data file",)).get("a") is None


def test_adding_keeps_the_values_already_kept(tmp_path):
    store = saved(tmp_path, {"a": 1, "b": "two"})
    store.put("c", 3.0)
    store.save()
    again = Kept(str(tmp_path), "demo", ("test", 1))
    assert [again.get(key) for key in "abc"] == [1, "two", 3.0]


def test_a_store_cut_short_serves_only_what_is_whole(tmp_path):
    saved(tmp_path, {"first": b"1" * 1000, "last": b"2" * 1000})
    (path,) = (tmp_path / "__pycache__").glob("demo.*.kept")
    data = path.read_bytes()
    path.write_bytes(data[:-10])
    store = Kept(str(tmp_path), "demo", ("test", 1))
    assert store.get("first") == b"1" * 1000
    assert store.get("last") is None
    store.put("new", 1)
    store.save()  # the damaged value is not copied on
    again = Kept(str(tmp_path), "demo", ("test", 1))
    assert again.get("last") is None and again.get("first") == b"1" * 1000 and again.get("new") == 1


@pytest.mark.parametrize("cut", [3, 12, 20])
def test_a_store_cut_in_its_index_is_empty(tmp_path, cut):
    saved(tmp_path, {"a": 1})
    (path,) = (tmp_path / "__pycache__").glob("demo.*.kept")
    path.write_bytes(path.read_bytes()[:cut])
    assert Kept(str(tmp_path), "demo", ("test", 1)).get("a") is None


def test_a_value_damaged_inside_is_not_served(tmp_path):
    saved(tmp_path, {"a": (1, 2, 3), "b": "bee"})
    (path,) = (tmp_path / "__pycache__").glob("demo.*.kept")
    data = path.read_bytes()
    value = __import__("marshal").dumps("bee")
    assert data.endswith(value)
    path.write_bytes(data[: -len(value)] + b"\xff" * len(value))  # no marshal type code
    store = Kept(str(tmp_path), "demo", ("test", 1))
    assert store.get("b") is None and store.get("a") == (1, 2, 3)


def test_a_big_index_is_read_past_the_first_block(tmp_path):
    values = {f"key-{n:06d}" * 4: n for n in range(5000)}
    again = saved(tmp_path, values)
    assert again.get("key-004999" * 4) == 4999 and again.get("key-000000" * 4) == 0


def test_the_file_replaced_while_open_still_reads_as_it_was(tmp_path):
    """Another run may write the store while this one reads it (a rename over the file)."""
    saved(tmp_path, {"a": "old", "b": "old b"})
    reader = Kept(str(tmp_path), "demo", ("test", 1))
    assert reader.get("a") == "old"
    saved(tmp_path, {"a": "new", "b": "new b"})
    assert reader.get("b") == "old b"
