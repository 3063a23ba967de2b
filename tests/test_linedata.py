"""`sglang.linedata.LineData`: the package's one-element-a-line JSON arrays, each line cut from
the file when asked for, the same elements as splitting the whole file."""

from __future__ import annotations

from pathlib import Path

import pytest

from speclint.sglang.linedata import LineData

DATA = Path(__file__).resolve().parent.parent / "src" / "speclint" / "sglang" / "data"


def split_whole(data: bytes) -> list[bytes]:
    """The elements as splitting the whole file gives them: every line after the first ("["),
    but the empty ones and "]", its trailing comma dropped."""
    return [line.rstrip(b",") for line in data.split(b"\n")[1:] if line not in (b"]", b"")]


@pytest.mark.parametrize("path", sorted(DATA.glob("*.json")), ids=lambda path: path.name)
def test_every_data_file_reads_as_splitting_it_whole(path):
    data = LineData(str(path))
    expected = split_whole(path.read_bytes())
    assert data.lines == expected
    assert [data.line(i) for i in range(len(expected))] == expected
    assert data.versions() and data.row(data.versions()[-1]) is not None


@pytest.mark.parametrize(
    "text",
    [
        b"",
        b"[",
        b"[\n",
        b"[\n]",
        b"[\n]\n",
        b"[\n1,\n2\n]\n",
        b"[\n1,\n\n2\n]",
        b"[\n1,\n2",
        b"[\n]]\n",
        b"\n\n",
    ],
)
def test_odd_files_read_as_splitting_them_whole(tmp_path, text):
    path = tmp_path / "data.json"
    path.write_bytes(text)
    assert LineData(str(path)).lines == split_whole(text)


def test_a_row_and_a_shared_element_are_parsed_from_their_lines(tmp_path):
    path = tmp_path / "data.json"
    path.write_bytes(b'[\n{"versions": ["0.1", "0.2"]},\n{"a": 0},\n{"a": 1},\n"shared",\n]\n')
    data = LineData(str(path))
    assert data.versions() == ("0.1", "0.2")
    assert data.row("0.2") == {"a": 1} and data.row("0.3") is None
    assert data.shared(0) == "shared"
