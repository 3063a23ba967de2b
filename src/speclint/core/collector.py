"""Python's garbage collector while the command starts: paused until the first file is linted.

Why: everything a cold `speclint FILE` makes before it lints (~150 modules, their classes,
functions and tables) lives until the process ends, yet the collector walks it again and
again as it grows (~27 collections, and a full one as the process ends: 5-15 ms of a cold
run). The command pauses the collector first thing (`pause`, `cli.startup`); once the first
file is linted or its result replayed (`resume`, from the engine and from the run's results)
what exists is frozen (`gc.freeze`: never walked again, as Python's documentation advises
before forking, and the workers are forked after the first file) and the collector runs as
usual for the rest of the run. A one-file run never collects at all.
"""

from __future__ import annotations

import gc

_paused = False


def pause() -> None:
    """No collection until `resume` (nothing changes when the collector is already off)."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume() -> None:
    """Freeze what exists and collect as usual from now on, if `pause` stopped the collector."""
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.enable()
