"""What `check` found over many files (`runner.checking.check_paths`: `explain`, --fix and
--diff): made only there, not for a streamed `check`."""

from __future__ import annotations

from dataclasses import field

from speclint.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.engine import FileResult


@dataclass
class Outcome:
    """What `check` found over many files: results, unreadable files, fixes."""

    results: list[FileResult] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    """One line per file that could not be linted (or fixed)."""
    diffs: list[str] = field(default_factory=list)
    fixed: int = 0
    fixed_codes: dict[str, dict[str, int]] = field(default_factory=dict)
    """path -> code -> findings fixed (`--show-fixes`)."""
    stdin_fixed: str | None = None
    """Standard input after `--fix` (written to standard output, as ruff does)."""
    fail_on: dict[str, str] = field(default_factory=dict)
    """Failure threshold per linted file (its config may set one)."""
