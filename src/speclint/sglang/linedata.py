"""Package data stored as one JSON array with one element per line (the flag schemas, the
release facts): a run splits the file into lines and parses only the header and the lines it
needs, never the whole array."""

from __future__ import annotations

import json

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
    header: dict[str, Any] = json.loads(lines[0])
    header["rank"] = {v: i for i, v in enumerate(header["versions"])}
    return header
