"""The names of the calls that hand a runner to another API (`handed`): their own module, so
that `launch.LAUNCH_NAMES` holds them without importing the reading of them."""

from __future__ import annotations

STARTERS = frozenset({"Thread", "Process"})
"""Classes whose `target=` is called with `args=` and `kwargs=` (threading, multiprocessing)."""
SPREAD = frozenset({"submit", "to_thread"})
"""`X(F, *args, **kwargs)`."""
EXECUTOR = "run_in_executor"
"""`loop.run_in_executor(EXECUTOR, F, *args)`."""
POOL = frozenset({"apply_async", "apply"})
"""`pool.apply_async(F, args=(), kwds={})`."""
MAP = "map"
"""`map(F, [cmd1, cmd2])`, `executor.map(F, cmds)`: `F(cmd)` per element."""
HANDED_NAMES = STARTERS | SPREAD | POOL | {EXECUTOR, MAP}
"""Their last parts: in `launch.LAUNCH_NAMES` (a statement calling one is kept in a big file's
selection, `select`)."""
