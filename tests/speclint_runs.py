"""speclint run in a process of its own, as a user runs it (not a test module): the command
line in a clean environment, or a probe that runs the command on a file and then prints what
the test asks of the process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def clean_environment() -> dict[str, str]:
    """This process's environment without speclint's own variables (`SPECLINT_*`)."""
    return {k: v for k, v in os.environ.items() if not k.startswith("SPECLINT_")}


def run_speclint(
    *args: str,
    cwd: Path = ROOT,
    stdin: str | None = None,
    timeout: float = 120,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """`python -m speclint ARGS` in a clean environment (with the variables in `env` added)."""
    return subprocess.run(
        [sys.executable, "-m", "speclint", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**clean_environment(), **(env or {})},
        timeout=timeout,
        check=False,
    )


_STORE = """from speclint.core.kept import Kept
from speclint.cli import startup
sys.dont_write_bytecode = False
startup._store = lambda: Kept({folder!r}, "imports", 1)
"""
_RUN = """import sys
{store}sys.argv = ["speclint", "--no-cache", {path!r}]
from speclint.__main__ import main
try:
    main()
except SystemExit:
    pass
"""


def run_probe(
    then: str,
    path: Path,
    *,
    store: Path | None = None,
    cwd: Path = ROOT,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """A Python process that runs `speclint --no-cache PATH` (its compiled modules kept in the
    folder `store` when given, as the command keeps them; bytecode written) and then the
    program `then`, which prints its answer as the last line of stderr (`last_line`). `env`:
    the process's whole environment (a clean one by default)."""
    setup = _STORE.format(folder=str(store)) if store is not None else ""
    return subprocess.run(
        [sys.executable, "-c", _RUN.format(store=setup, path=str(path)) + then],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=clean_environment() if env is None else env,
        timeout=120,
        check=False,
    )


def last_line(done: subprocess.CompletedProcess[str]) -> str:
    """The last line a probe wrote to stderr (its answer)."""
    return done.stderr.strip().splitlines()[-1]


def dataclasses_imports() -> set[str]:
    """The top-level modules that making a frozen, slotted dataclass imports on this Python,
    beyond a bare start: what a lint imports where `core.recipes` is not served and
    `dataclasses` makes every class itself (on 3.12 `inspect`, with `ast` and `dis`)."""
    probe = (
        "import sys\nbefore = set(sys.modules)\nimport dataclasses\n"
        "@dataclasses.dataclass(frozen=True, slots=True)\nclass A:\n    x: int = 0\n"
        "print(' '.join(sorted(set(sys.modules) - before)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        env=clean_environment(),
        timeout=60,
        check=True,
    )
    return {name.split(".")[0] for name in done.stdout.split()}
