#!/usr/bin/env python3
"""Generate src/speclint/sglang/data/sglang_dependencies.json: what each release's wheel
installs with it, read from its METADATA (`Requires-Dist`), never imported.

    python tools/gen_sglang_dependencies.py              # every release the flag schema stores
    python tools/gen_sglang_dependencies.py --check      # regenerate and compare, write nothing

Per release, name -> index of its reading:

- `flashinfer_required`: `true` when `flashinfer_python` is a requirement with no extra
  marker (installed with `pip install sglang`: 0.5.3+), `false` when only an extra installs
  it (`extra == "srt"`), `null` when the wheel names no such requirement. SGLang picks the
  sampling backend (`"flashinfer" if is_flashinfer_available() else "pytorch"`) from it.
"""

from __future__ import annotations

import os
import re
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from line_array import per_release_generator  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "speclint", "sglang", "data", "sglang_dependencies.json")
_REQUIREMENT = re.compile(r"^Requires-Dist:\s*flashinfer[-_]python\b(?P<rest>.*)$", re.IGNORECASE)


def flashinfer_reading(metadata: str) -> bool | None:
    """Whether `flashinfer_python` is required unconditionally (None: not named at all)."""
    found: bool | None = None
    for line in metadata.splitlines():
        match = _REQUIREMENT.match(line.strip())
        if match is None:
            continue
        marker = match.group("rest").partition(";")[2]
        if "extra" not in marker:
            return True
        found = False
    return found


def read_release(path: str) -> list[tuple[str, object]]:
    with zipfile.ZipFile(path) as archive:
        names = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        metadata = archive.read(names[0]).decode("utf-8") if names else ""
    return [("flashinfer_required", flashinfer_reading(metadata))]


build, dump, main = per_release_generator(__doc__, OUT, read_release)


if __name__ == "__main__":
    sys.exit(main())
