"""How the `speclint` command's process ends: at once, with `os._exit`, when Python's own exit
would only free memory (~3 ms, tearing down modules). Its own small module: a replayed run
(`runner.replay`) ends here without reading `cli.startup`."""

from __future__ import annotations

import os
import sys


def leave(code: object) -> None:
    """End the process now with `sys.exit(code)`'s status when Python's exit would only free
    memory (~3 ms, tearing down modules). Returns, for Python to exit as usual, when anything
    runs at exit (`atexit`: coverage, multiprocessing, logging), another thread runs, `code`
    is a message, Python was asked to stay (`-i`), or the output cannot be flushed."""
    if code is None:
        code = 0
    if not isinstance(code, int):
        return
    import atexit

    counted = getattr(atexit, "_ncallbacks", None)
    threading = sys.modules.get("threading")
    if counted is None or counted() or sys.flags.inspect:
        return
    if threading is not None and threading.active_count() > 1:
        return
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except Exception:
        return
    os._exit(int(code))
