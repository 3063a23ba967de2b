"""Reading a source file: bounded in size, never blocking on a FIFO, never raising.

Every file speclint reads goes through here: the files it lints, the `--config` YAML a launch
names, the file `--fix` rewrites.
"""

from __future__ import annotations

import os
import stat

MAX_FILE_BYTES = 1024 * 1024
"""A bigger file is not linted: it gets one file-too-large finding (SLM001) at 1:1 and the
other files are linted as usual. Launch scripts are a few KB; a hostile megabyte of shell
already costs seconds and hundreds of MB to parse."""


def read_bytes(path: str) -> tuple[bytes | None, str | None, int]:
    """(data, error, size). Never raises and never blocks: a FIFO, device or folder gives an
    error without being read; a file over MAX_FILE_BYTES gives (None, None, its size)."""
    try:
        if path == "-":
            import sys

            data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
        else:
            # O_NONBLOCK: opening a FIFO must not wait for a writer (regular files ignore it)
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
            try:
                info = os.fstat(fd)
                if not stat.S_ISREG(info.st_mode):
                    return None, "not a regular file", 0
                if info.st_size > MAX_FILE_BYTES:
                    return None, None, info.st_size
                data = _read_fd(fd, info.st_size)
            finally:
                os.close(fd)
    except FileNotFoundError:
        return None, "no such file or directory", 0
    except PermissionError:
        return None, "permission denied", 0
    except IsADirectoryError:
        return None, "not a regular file", 0
    except OSError as error:
        return None, error.strerror or str(error), 0
    if len(data) > MAX_FILE_BYTES:
        return None, None, len(data)
    return data, None, len(data)


def _read_fd(fd: int, size: int) -> bytes:
    """Up to MAX_FILE_BYTES + 1 bytes, asking first for the `size` fstat gave plus one (a file
    object and a 1 MiB buffer cost more than reading a script), then on to the end or the
    bound if the file is longer (it grew, or a read came back short)."""
    chunks = [os.read(fd, size + 1)]
    total = len(chunks[0])
    while chunks[-1] and total <= MAX_FILE_BYTES:
        chunks.append(os.read(fd, MAX_FILE_BYTES + 1 - total))
        total += len(chunks[-1])
    return chunks[0] if len(chunks) == 2 and not chunks[1] else b"".join(chunks)


def read_source(path: str) -> tuple[str | None, str | None, int]:
    """(text, error, size), as `read_bytes`; invalid UTF-8 is replaced, a BOM dropped."""
    data, error, size = read_bytes(path)
    return (None if data is None else decode_source(data)), error, size


def read_named_file(referrer: str, name: str) -> tuple[str | None, str, str]:
    """(text, full path, why not) of the file `name` that the file `referrer` names (a relative
    name is looked up in `referrer`'s folder; standard input's in the current one), noted as a
    dependency of the result so a change to it, or its appearing, re-checks `referrer`. Text
    None when it cannot be read: why is "not on disk", or the read error (or its size, when too
    big)."""
    from speclint.runner.depends import note

    folder = os.path.dirname(referrer) if referrer not in ("-", "<stdin>") else ""
    full = name if os.path.isabs(name) else os.path.join(folder, name)
    note(os.path.abspath(full))  # the result cache re-checks the file (or its absence)
    if not os.path.isfile(full):
        return None, full, "not on disk"
    text, error, size = read_source(full)
    return text, full, "" if text is not None else (error or f"{size} bytes")


def decode_source(data: bytes) -> str:
    """`data.decode("utf-8-sig", errors="replace")`, which is the BOM dropped and the rest
    decoded as UTF-8 (the "utf-8-sig" codec is looked up and imported on each start: ~1% of
    a cold run; UTF-8 itself is built in)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return data.decode("utf-8", errors="replace")
