#!/usr/bin/env python3
"""Generate src/speclint/sglang/data/sglang_backend_reads.json: where each release's attention
backend and page-size pickers touch the flags speclint lets stand beside that pick, read
statically (`ast`, never imported) from each release's wheel.

    python tools/gen_sglang_backend_reads.py              # every release the flag schema stores
    python tools/gen_sglang_backend_reads.py --check      # regenerate and compare, write nothing

Per release, `reads` -> {field: ["<path under sglang/srt/>::<function>", ...]}
(tools/sglang_backend_reads.py: the pickers, the functions they call, the fields of
hardware_flags.BESIDE they name); `writers` -> {field: {"<path>::<function>": [fields it
names]}} for the sampling backend and the deterministic switch (every function writing them). speclint's hardware_flags.beside_for(release) lets a flag stand
beside the pick only where every function touching it is one hardware_flags.BESIDE_READS names.
"""

from __future__ import annotations

import os
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from gen_sglang_server_checks import _resolution_file  # noqa: E402
from line_array import per_release_generator  # noqa: E402
from sglang_backend_reads import WRITTEN, read_backend_reads, read_writers  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "speclint", "sglang", "data", "sglang_backend_reads.json")


def read_release(path: str) -> list[tuple[str, object]]:
    with zipfile.ZipFile(path) as archive:
        named = [
            (n, archive.read(n).decode("utf-8")) for n in sorted(archive.namelist()) if _resolution_file(n)
        ]
    return [
        ("reads", read_backend_reads(named)),
        ("writers", {field: read_writers(named, field) for field in WRITTEN}),
    ]


build, dump, main = per_release_generator(__doc__, OUT, read_release)


if __name__ == "__main__":
    sys.exit(main())
