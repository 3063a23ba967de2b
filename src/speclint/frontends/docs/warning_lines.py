"""A Python warning pasted in a code block with the command that printed it (server logs in an
issue, a notebook cell's output): output, not commands.

Python's `warnings` module prints `FILE:LINE: CATEGORY: MESSAGE` and then the source line,
indented; a message of several lines keeps its own indentation. SGLang's launcher prints one
such warning on every `python -m sglang.launch_server` run (from 0.5.x): "'python -m
sglang.launch_server' is still supported, but 'sglang serve' is the recommended entrypoint.",
then "  Example: sglang serve --model-path <model> [options]" and "  warnings.warn(".
"""

from __future__ import annotations

import re

_WARNING = re.compile(r"([ \t]*)\S+:\d+: [A-Z]\w*Warning: ")
"""`/path/launch_server.py:51: UserWarning: ...`, `<frozen importlib._bootstrap>:1: FutureWarning: ...`."""


def without_warnings(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The lines with each warning blanked: its first line and the lines after it indented
    deeper than it (the message's further lines, the source line)."""
    kept = []
    indent: int | None = None
    for offset, line in lines:
        match = _WARNING.match(line)
        if match is not None:
            indent = len(match.group(1))
        elif indent is None or not line.strip() or len(line) - len(line.lstrip(" \t")) <= indent:
            indent = None
            kept.append((offset, line))
            continue
        kept.append((offset + len(line), ""))
    return kept
