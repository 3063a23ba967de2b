"""data/sglang_server_checks.json (tools/gen_sglang_server_checks.py): what each release's own
resolution code checks and copies, one reading per name, read without importing the resolver."""

from __future__ import annotations

import os
from functools import lru_cache

from speclint.sglang.linedata import LineData

SERVER_CHECKS = LineData(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "sglang_server_checks.json")
)


@lru_cache(maxsize=64)
def server_check(version: str, name: str) -> object:
    """The release's reading `name` of data/sglang_server_checks.json (None: not stored)."""
    row = SERVER_CHECKS.row(version)
    if not isinstance(row, dict) or name not in row:
        return None
    return SERVER_CHECKS.shared(row[name])


@lru_cache(maxsize=32)
def cli_copies(version: str) -> dict[str, str]:
    """What the release's `ServerArgs.from_cli_args` copies into a field from another parsed
    name, field -> name (reading `cli_copies`: 0.5.6.post2 parses `--tp-size` into
    `tensor_parallel_size` and copies it to `tp_size`, 0.5.9-0.5.13 `--attn-cp-size` into
    `attention_context_parallel_size`; later releases parse straight into the field)."""
    read = server_check(version, "cli_copies")
    return read if isinstance(read, dict) else {}
