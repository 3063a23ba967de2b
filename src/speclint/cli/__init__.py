"""The `speclint` command line: the click commands (`commands`: the group, `check`, `explain`,
`rule`, `rules`), `check`'s conventions (`check`), `preflight` and `run` (`runtime`).

`speclint.cli:main` is the console script: loaded on first use, so importing this package
costs nothing (the lint path may parse its arguments without click)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def __getattr__(name: str) -> Any:
    if name == "main":
        from speclint.cli.commands import main

        return main
    raise AttributeError(f"module 'speclint.cli' has no attribute {name!r}")
