"""What `check` keeps of a linted file (`CheckedFile`) and of each of its launches
(`LaunchSummary`): what workers send back and the result cache stores."""

from __future__ import annotations

from dataclasses import field

from speclint.core.records import dataclass
from speclint.engine import FileResult

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.rules.base import VersionChoice


class LaunchSummary:
    """What `check` keeps of a launch once its rules ran: the release it was checked against
    (all the summary line reads). Keeps memory flat over thousands of files and results cheap
    to send back from worker processes; `explain` keeps the whole LaunchContext."""

    __slots__ = ("version", "counted", "partly_read", "drafter_unchecked")

    def __init__(
        self,
        version: VersionChoice,
        counted: bool = True,
        partly_read: bool = False,
        drafter_unchecked: bool = False,
    ) -> None:
        self.version = version
        self.counted = counted
        """False for the second and later alternatives of one launch (counted once)."""
        self.partly_read = partly_read
        """Some words SGLang would receive are unknown to speclint."""
        self.drafter_unchecked = drafter_unchecked
        """An EAGLE-family launch whose model configs are not on disk (DRF011's case)."""


@dataclass(slots=True)
class CheckedFile(FileResult):
    """What `check` keeps of a file: findings, a LaunchSummary per launch and only the source
    lines findings point at (`text` stays empty): cheap to send back from a worker and to hold."""

    lines: dict[int, str] = field(default_factory=dict)
