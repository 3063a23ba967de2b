"""The check each generated data file has: what its generator in tools/ writes from the
cached release wheels is the file as stored (skipped on a machine without every wheel)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SGLANG_WHEELS = ROOT / ".cache" / "sglang-wheels"
TOOLS = str(ROOT / "tools")


def use_tools() -> None:
    """The generators in tools/ importable (they are scripts, not a package)."""
    if TOOLS not in sys.path:
        sys.path.insert(0, TOOLS)


def assert_regenerates(
    data: str | Path,
    versions: Iterable[str],
    regenerate: Callable[[], str],
    wheels: Path = SGLANG_WHEELS,
    wheel_name: str = "sglang-{}-*.whl",
) -> None:
    """`regenerate()` (the generator's text, from the wheels in `wheels`) equals the stored
    `data` file; skipped unless the wheel of every release in `versions` is cached."""
    missing = [v for v in versions if not wheels.is_dir() or not list(wheels.glob(wheel_name.format(v)))]
    if missing:
        pytest.skip(f"not every release's wheel is cached in {wheels} (missing: {', '.join(missing[:3])})")
    with open(data, encoding="utf-8") as handle:
        assert regenerate() == handle.read()
