"""Package data stored as one JSON array with one element per line (the flag schemas, the
release facts): a run splits the file into lines and parses only the header and the lines it
needs, never the whole array."""

from __future__ import annotations

from functools import cached_property

from speclint.core import json_read

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def array_lines(path: str) -> list[bytes]:
    """The array's elements, one per line, unparsed (the brackets and commas dropped)."""
    with open(path, "rb") as handle:  # importlib.resources costs 10 ms of imports
        lines = handle.read().split(b"\n")
    return [line.rstrip(b",") for line in lines[1:] if line not in (b"]", b"")]


def header_of(lines: list[bytes]) -> dict[str, Any]:
    """The first element, with `rank`: release -> its position in `versions`."""
    header: dict[str, Any] = json_read.loads(lines[0])
    header["rank"] = {v: i for i, v in enumerate(header["versions"])}
    return header


class LineData:
    """One such file, split and its header parsed on first use: each release's row (the
    element after the header at the release's rank) and the elements they share after them."""

    def __init__(self, path: str) -> None:
        self.path = path

    @cached_property
    def lines(self) -> list[bytes]:
        return array_lines(self.path)

    @cached_property
    def header(self) -> dict[str, Any]:
        return header_of(self.lines)

    def versions(self) -> tuple[str, ...]:
        """The releases with a row, oldest first."""
        return tuple(self.header["versions"])

    def row(self, version: str) -> Any:
        """`version`'s row, parsed; None when the file has none for it."""
        rank = self.header["rank"].get(version)
        return None if rank is None else json_read.loads(self.lines[1 + rank])

    def shared(self, index: int) -> Any:
        """The `index`th element after the rows, parsed."""
        return json_read.loads(self.lines[1 + len(self.header["versions"]) + index])
