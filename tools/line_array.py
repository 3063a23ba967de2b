"""The file format of speclint's per-release data (`speclint.sglang.linedata`): one JSON array,
one element per line (a header, each release's row, then elements the rows share), written
or checked against what is stored. Shared by the generators."""

from __future__ import annotations

import json


def compact(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def line_array(header: dict, rows: list[object], shared: list[str]) -> str:
    """`shared`: elements already written as JSON."""
    lines = [compact(header), *(compact(row) for row in rows), *shared]
    return "[\n" + ",\n".join(lines) + "\n]\n"


def check_or_write(path: str, text: str, check: bool) -> int | None:
    """With `check`, the exit code of comparing `text` with the stored file; else writes it
    and returns None (the caller says what it wrote)."""
    if check:
        with open(path, encoding="utf-8") as handle:
            same = handle.read() == text
        print("up to date" if same else f"{path} differs from what the wheels give")
        return 0 if same else 1
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    return None
