"""Package data stored as one JSON array with one element per line (the flag schemas, the
release facts): a run finds where the file's lines start and parses only the header and the
lines it needs, never the whole array."""

from __future__ import annotations

from functools import cached_property

from speclint.core import json_read

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def element_bounds(data: bytes) -> list[tuple[int, int]]:
    """Where each element of the array is in `data` (start, end; a line after the first that
    is neither empty nor "]", its trailing comma still there): the lines found with
    `bytes.find` (memchr), none copied. Splitting a whole file took ~4 instructions a byte, 5 M
    of a one-file run for the ~1 MB of data files it reads a few lines of."""
    bounds = []
    find = data.find
    start = find(b"\n") + 1  # (the first line, "[", is not an element)
    if start == 0:
        return []
    size = len(data)
    while start <= size:
        end = find(b"\n", start)
        if end < 0:
            end = size
        if end - start > 1 or (end - start == 1 and data[start] != 0x5D):  # not "" nor "]"
            bounds.append((start, end))
        start = end + 1
    return bounds


def header_of(lines: list[bytes]) -> dict[str, Any]:
    """The first element, with `rank`: release -> its position in `versions`."""
    header: dict[str, Any] = json_read.loads(lines[0])
    header["rank"] = {v: i for i, v in enumerate(header["versions"])}
    return header


class LineData:
    """One such file, its lines found and its header parsed on first use: each release's row
    (the element after the header at the release's rank) and the elements they share after them."""

    def __init__(self, path: str) -> None:
        self.path = path

    @cached_property
    def _data(self) -> tuple[bytes, list[tuple[int, int]]]:
        with open(self.path, "rb") as handle:  # importlib.resources costs 10 ms of imports
            data = handle.read()
        return data, element_bounds(data)

    def line(self, index: int) -> bytes:
        """`lines[index]`, cut from the file alone (the trailing comma dropped)."""
        data, bounds = self._data
        start, end = bounds[index]
        return data[start:end].rstrip(b",")

    @cached_property
    def lines(self) -> list[bytes]:
        """Every element (for a reader of the whole array)."""
        data, bounds = self._data
        return [data[start:end].rstrip(b",") for start, end in bounds]

    @cached_property
    def header(self) -> dict[str, Any]:
        return header_of([self.line(0)])

    def versions(self) -> tuple[str, ...]:
        """The releases with a row, oldest first."""
        return tuple(self.header["versions"])

    def row(self, version: str) -> Any:
        """`version`'s row, parsed; None when the file has none for it."""
        rank = self.header["rank"].get(version)
        return None if rank is None else json_read.loads(self.line(1 + rank))

    def shared(self, index: int) -> Any:
        """The `index`th element after the rows, parsed."""
        return json_read.loads(self.line(1 + len(self.header["versions"]) + index))
