#!/usr/bin/env python3
"""Generate src/speclint/sglang/data/sglang_test_constants.json: the string constants
`sglang/test/test_utils.py` defines (`DEFAULT_MODEL_NAME_FOR_TEST = "meta-llama/..."`), per
release, read statically (`ast`, never imported) from each wheel.

    python tools/gen_sglang_test_constants.py              # every release the flag schema stores
    python tools/gen_sglang_test_constants.py --check      # regenerate and compare, write nothing

Per release, name -> index of its value: every module-level `NAME = "text"` whose name starts
with `DEFAULT_` and whose value is one string literal (the last assignment of a name wins,
as Python binds it; a name assigned anything else anywhere in the module is left out).
SGLang's own tests (and suites copied from them) launch with these names
(`popen_launch_server(DEFAULT_MODEL_NAME_FOR_TEST, ...)`); speclint reads a name imported
from `sglang.test.test_utils` as its value where every release defining it agrees
(`sglang/test_constants.py`), else as an unknown value saying the releases differ.
"""

from __future__ import annotations

import ast
import os
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from line_array import per_release_generator  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "speclint", "sglang", "data", "sglang_test_constants.json")
TEST_UTILS = "sglang/test/test_utils.py"


def constants(source: str) -> list[tuple[str, object]]:
    """The module's `DEFAULT_*` names bound to one string literal, in the order written."""
    found: dict[str, str | None] = {}
    for node in ast.parse(source).body:
        targets = (
            node.targets
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, ast.AnnAssign) and node.value is not None
            else []
        )
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        for target in targets:
            names = [target] if isinstance(target, ast.Name) else []
            for name in names:
                if not name.id.startswith("DEFAULT_"):
                    continue
                literal = isinstance(value, ast.Constant) and isinstance(value.value, str)
                if name.id in found and found[name.id] is None:
                    continue  # assigned something else before: left out
                found[name.id] = value.value if literal and len(targets) == 1 else None  # type: ignore[union-attr]
    return [(name, text) for name, text in found.items() if text is not None]


def read_release(path: str) -> list[tuple[str, object]]:
    with zipfile.ZipFile(path) as archive:
        if TEST_UTILS not in archive.namelist():
            return []
        return constants(archive.read(TEST_UTILS).decode("utf-8"))


build, dump, main = per_release_generator(__doc__, OUT, read_release)


if __name__ == "__main__":
    sys.exit(main())
