"""The `DEFAULT_*` string constants of `sglang/test/test_utils.py`, per release, as
tools/gen_sglang_test_constants.py read them from each wheel (`data/sglang_test_constants.json`).

SGLang's tests launch with them (`popen_launch_server(DEFAULT_MODEL_NAME_FOR_TEST, ...)`). The
Python front-end reads a name imported from `sglang.test.test_utils` before it knows the
release a launch is checked against, so a name gives its value only where every release that
defines it agrees; where they differ, it is an unknown value naming the values."""

from __future__ import annotations

import os
from functools import lru_cache

from speclint.sglang.linedata import LineData

_FILE = LineData(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "sglang_test_constants.json")
)


@lru_cache(maxsize=1)
def _values() -> dict[str, dict[str, list[str]]]:
    """name -> value -> the releases that give it (oldest first)."""
    seen: dict[str, dict[str, list[str]]] = {}
    for version in _FILE.versions():
        row = _FILE.row(version)
        for name, index in (row or {}).items():
            seen.setdefault(name, {}).setdefault(str(_FILE.shared(index)), []).append(version)
    return seen


def sglang_test_constant(name: str) -> tuple[str | None, str] | None:
    """(its value, "") where the releases defining `name` agree; (None, why) where they differ;
    None where no release defines it."""
    values = _values().get(name)
    if not values:
        return None
    if len(values) == 1:
        return next(iter(values)), ""
    ranges = "; ".join(
        f"`{value}` in {releases[0]}" + (f" to {releases[-1]}" if len(releases) > 1 else "")
        for value, releases in values.items()
    )
    return None, f"`{name}` differs between SGLang releases' sglang.test.test_utils ({ranges})"
