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


_LOG_LINE = re.compile(
    r"\[\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}"  # SGLang's `[2025-04-16 14:22:53 TP0] ...`
    r"|(?:INFO|WARNING|ERROR|DEBUG|CRITICAL):[ \t]+\S"  # uvicorn's `INFO:     Started server process`
    r"|(?:INFO|WARNING|ERROR|DEBUG) \d{2}-\d{2} \d{2}:\d{2}:\d{2} "  # `INFO 03-06 10:05:08 __init__.py:190] ...`
    r"|\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}[,.]\d+ [-|] "  # Python logging's `2025-06-27 18:49:53,611 - ...`
)
"""A server log line at the start of a line: what SGLang (and the uvicorn and logging under it)
prints, pasted under the command in an issue's block. No shell command starts so."""


def without_log_lines(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The lines with each server log line blanked, as output, not commands bash would refuse."""
    return [(offset + len(line), "") if _LOG_LINE.match(line) else (offset, line) for offset, line in lines]
