"""`speclint.core.records.dataclass`: the standard library's dataclasses, with the code they
generate compiled once and kept beside the `.pyc` files (a cold run's biggest cost before)."""

from __future__ import annotations

import ast
import dataclasses
import marshal
import re
import sys
from pathlib import Path

import pytest

from speclint.core import records

SRC = Path(__file__).resolve().parent.parent / "src" / "speclint"


def fresh_codes(path: Path) -> records._Codes:
    """The compiled texts as a new process starts with them, kept at `path`."""
    codes = records._Codes()
    codes.kept.path = str(path)
    return codes


@pytest.fixture
def store(monkeypatch, tmp_path):
    """A fresh store of compiled texts in tmp_path, as a new process would start."""
    path = tmp_path / "records.kept"
    monkeypatch.setattr(records, "_codes", fresh_codes(path))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    return path


def make(decorator):
    @decorator(frozen=True, slots=True, order=True)
    class Point:
        """A point."""

        x: int
        y: int = 0
        tags: tuple[str, ...] = dataclasses.field(default=())

    return Point


def test_a_record_is_a_standard_dataclass(store):
    ours, theirs = make(records.dataclass), make(dataclasses.dataclass)
    a, b = ours(1, 2, ("t",)), theirs(1, 2, ("t",))
    assert dataclasses.is_dataclass(ours)
    assert [f.name for f in dataclasses.fields(ours)] == [f.name for f in dataclasses.fields(theirs)]
    assert repr(a).split("Point", 1)[1] == repr(b).split("Point", 1)[1]
    assert a == ours(1, 2, ("t",)) and hash(a) == hash(ours(1, 2, ("t",))) and a < ours(2)
    assert dataclasses.replace(a, y=5) == ours(1, 5, ("t",)) and dataclasses.asdict(a) == dataclasses.asdict(
        b
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.x = 3
    assert not hasattr(a, "__dict__")


def test_mutable_records_with_factories(store):
    @records.dataclass
    class Bag:
        """Things."""

        items: list[int] = dataclasses.field(default_factory=list)

    first, second = Bag(), Bag()
    first.items.append(1)
    assert second.items == [] and Bag([1]) == first


def test_the_compiled_code_is_kept_and_used_by_the_next_process(store):
    make(records.dataclass)
    assert records._codes.fresh > 0
    records._codes.kept.save()
    assert store.is_file()
    records._codes = fresh_codes(store)  # the next process
    Point = make(records.dataclass)
    assert records._codes.fresh == 0  # nothing compiled again
    assert Point(3).x == 3


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"not marshal data",
        marshal.dumps(("speclint-records", 1, "another python")),
        marshal.dumps([1, 2]),
    ],
    ids=["empty", "garbage", "foreign", "wrong shape"],
)
def test_a_damaged_or_foreign_store_is_ignored(store, content):
    store.write_bytes(content)
    Point = make(records.dataclass)
    assert records._codes.fresh > 0  # compiled as dataclasses does
    assert Point(1, 2) == Point(1, 2) and Point(1).y == 0


def test_kept_values_that_are_not_code_are_not_trusted(store):
    """A key kept with anything but its recipe or compiled code is worked out again."""
    make(records.dataclass)
    texts = records._codes.kept.keys()
    untrusted = fresh_codes(store).kept
    for text in texts:
        untrusted.put(text, "print('no')")
    untrusted.save()
    records._codes = fresh_codes(store)
    Point = make(records.dataclass)
    assert records._codes.fresh == len(texts) and Point(1) == Point(1)


def test_nothing_is_written_when_python_writes_no_bytecode(store, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    make(records.dataclass)
    records._codes.kept.save()
    assert not store.exists()


def test_every_record_class_has_a_docstring():
    """Without one, dataclasses works out a signature for the class when it is made (inspect,
    at every start): each of speclint's records says what it holds instead."""
    missing = []
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef) and ast.get_docstring(node) is None:
                for decorator in node.decorator_list:
                    target = decorator.func if isinstance(decorator, ast.Call) else decorator
                    if isinstance(target, ast.Name) and target.id == "dataclass":
                        missing.append(f"{path.relative_to(SRC)}:{node.lineno} {node.name}")
    assert missing == []


def test_speclint_makes_its_records_through_this_module():
    """A plain `dataclasses.dataclass` in speclint would be compiled at every start again."""
    direct = [
        str(path.relative_to(SRC))
        for path in sorted(SRC.rglob("*.py"))
        if path.name != "records.py"
        and re.search(r"^from dataclasses import .*\bdataclass\b", path.read_text(), re.M)
    ]
    assert direct == []


def test_a_release_table_read_from_the_store_is_the_one_decoded_from_json(tmp_path, monkeypatch):
    """The flag tables kept between runs (`sglang.flags.schema`) give the same FlagSpecs as
    the package data decoded afresh."""
    from speclint.core.kept import Kept
    from speclint.sglang.flags import schema

    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    store = Kept(str(tmp_path), "flag_tables", ("test",))
    monkeypatch.setattr(schema, "_kept", lambda: store)
    schema.spec_at.cache_clear()
    schema.load_schema.cache_clear()
    try:
        decoded = schema.load_schema("0.5.6")
        store.save()
        reread = Kept(str(tmp_path), "flag_tables", ("test",))
        assert reread.get(("release", "0.5.6")) is not None
        monkeypatch.setattr(schema, "_kept", lambda: reread)
        schema.spec_at.cache_clear()
        schema.load_schema.cache_clear()
        monkeypatch.setattr(schema, "raw_entry", lambda index: pytest.fail("decoded JSON again"))
        kept = schema.load_schema("0.5.6")
        assert kept == decoded and kept.by_option == decoded.by_option
        assert Kept(str(tmp_path), "flag_tables", ("another data file",)).get(("release", "0.5.6")) is None
    finally:
        schema.spec_at.cache_clear()
        schema.load_schema.cache_clear()


def test_a_package_imported_with_its_dataclasses_code_kept(tmp_path, monkeypatch):
    """`import_with_kept_code` (libcst's ~250 node classes): the package's dataclasses are the
    standard library's, their code kept in a store of the package's own, used next time."""
    package = tmp_path / "kept_demo_nodes"
    package.mkdir()
    (package / "__init__.py").write_text(
        "import dataclasses\n\n@dataclasses.dataclass(frozen=True)\nclass Node:\n"
        "    '''A node.'''\n\n    x: int\n    y: str = 'a'\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(records, "_STORE_FOLDER", str(tmp_path))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    monkeypatch.delitem(sys.modules, "kept_demo_nodes", raising=False)
    module = records.import_with_kept_code("kept_demo_nodes")
    assert module.Node(1) == module.Node(1, "a") and dataclasses.is_dataclass(module.Node)
    assert "exec" not in vars(dataclasses)  # the standard exec again once imported
    (store,) = (tmp_path / "__pycache__").glob("records-kept_demo_nodes.*.kept")
    written = store.stat().st_mtime_ns
    del sys.modules["kept_demo_nodes"]
    again = records.import_with_kept_code("kept_demo_nodes")
    assert again.Node(2).y == "a" and store.stat().st_mtime_ns == written  # nothing compiled anew
    assert records.import_with_kept_code("kept_demo_nodes") is again


def test_the_texts_dataclasses_compiles_are_kept_apart_from_the_recipes(tmp_path, monkeypatch):
    """The command's records come from their recipes: the texts `dataclasses` compiles for any
    other class are kept in a store of their own, whose index a run making only records never
    reads."""
    monkeypatch.setattr(records, "_STORE_FOLDER", str(tmp_path))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    codes = records._Codes("recipes-demo", "texts-demo")
    namespace: dict[str, object] = {}
    codes.exec("def answer():\n    return 42\n", {}, namespace)
    assert namespace["answer"]() == 42  # type: ignore[operator]
    assert codes.kept.keys() == [] and codes.texts.keys() == ["def answer():\n    return 42\n"]
    codes.texts.save()
    assert [path.name.split(".")[0] for path in (tmp_path / "__pycache__").glob("*.kept")] == ["texts-demo"]
    again = records._Codes("recipes-demo", "texts-demo")
    again.exec("def answer():\n    return 42\n", {}, {})
    assert again.fresh == 0  # read from the texts' store
