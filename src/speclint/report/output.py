"""Where a streamed report goes: standard output, or `-o FILE` written atomically."""

from __future__ import annotations

import os
import stat

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NoReturn


class OutputError(Exception):
    """The report could not be written (the message says where and why)."""


class Stdout:
    """Standard output as `click.echo` writes it (`report.echo`), which drops ANSI codes when it is not a terminal,
    as before; whole lines at a time (no code is cut in two), in chunks of about 64 KiB so a big
    report costs few writes and little memory."""

    LIMIT = 1 << 16

    def __init__(self) -> None:
        self.pending: list[str] = []
        self.size = 0
        self.color: bool = False
        """Keep ANSI codes even when not a terminal (`--color always`, FORCE_COLOR)."""

    def write(self, text: str) -> None:
        self.pending.append(text)
        self.size += len(text)
        if self.size >= self.LIMIT:
            self._flush(final=False)

    def _flush(self, final: bool) -> None:
        from speclint.report.echo import echo

        text = "".join(self.pending)
        cut = len(text) if final else text.rfind("\n") + 1
        self.pending = [text[cut:]] if cut < len(text) else []
        self.size = len(text) - cut
        if not cut:
            return
        try:
            echo(text[:cut], nl=False, color=True if self.color else None)
        except BrokenPipeError:
            raise  # the reader went away: click exits quietly
        except OSError as error:
            raise OutputError(f"cannot write the report: {error.strerror or error}") from None

    def commit(self) -> None:
        self._flush(final=True)

    def discard(self) -> None:
        self.pending, self.size = [], 0


class ReportFile:
    """`-o FILE`: written to a temporary file in the same folder and renamed over FILE at the
    end, so a run that fails or is interrupted leaves FILE as it was. FILE is written in place,
    as before, where a temporary file can't be (a device such as /dev/stdout, or a folder
    where only FILE itself is writable)."""

    def __init__(self, path: str) -> None:
        import tempfile

        self.path = path
        self.temp: str | None = None
        try:
            info = os.stat(path)
        except OSError:
            info = None
        fd: int | None = None
        if info is None or stat.S_ISREG(info.st_mode):
            self.target = os.path.realpath(path)  # replace what a symlink points at
            folder, name = os.path.split(self.target)
            try:
                fd, self.temp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
                os.chmod(self.temp, stat.S_IMODE(info.st_mode) if info else 0o666 & ~_umask())
            except OSError:
                if self.temp and fd is not None:
                    os.close(fd)
                    os.unlink(self.temp)
                fd, self.temp = None, None
        try:
            self.handle = open(path if fd is None else fd, "w", encoding="utf-8", errors="surrogateescape")
        except OSError as error:
            self._fail(error)

    def _fail(self, error: OSError) -> NoReturn:
        self.discard()
        raise OutputError(f"cannot write {self.path}: {error.strerror or error}") from None

    def write(self, text: str) -> None:
        try:
            self.handle.write(text)
        except OSError as error:
            self._fail(error)

    def commit(self) -> None:
        try:
            self.handle.close()
            if self.temp:
                os.replace(self.temp, self.target)
                self.temp = None
        except OSError as error:
            self._fail(error)

    def discard(self) -> None:
        handle = getattr(self, "handle", None)
        if handle is not None and not handle.closed:
            try:
                handle.close()
            except OSError:
                pass
        if self.temp:
            try:
                os.unlink(self.temp)
            except OSError:
                pass
            self.temp = None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def open_output(path: str | None) -> Stdout | ReportFile:
    """Where the report goes; raises OutputError when `path` can't be written."""
    return ReportFile(path) if path else Stdout()
