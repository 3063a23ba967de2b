"""What a front-end's first file costs in a process that already linted a shell script (the
main process forks the workers after one: `speclint.runner.pool`), against the next file of
that kind: the source of `runner.pool`'s WARM_UP_MS and FILE_COST_MS.

    python bench/first_file_costs.py SHELL_FILE FILE [FILE ...]

Each FILE is linted in a fresh process, twice (CPU time of each).
"""

from __future__ import annotations

import subprocess
import sys

_PROBE = """
import sys, time
from speclint.engine import lint_path
from speclint.settings.options import LintOptions
options = LintOptions(read_pyproject=False)
lint_path(sys.argv[1], options)
times = []
for _ in range(2):
    start = time.process_time()
    lint_path(sys.argv[2], options)
    times.append(time.process_time() - start)
print(f"{sys.argv[2]}: first {times[0] * 1000:.0f} ms, next {times[1] * 1000:.1f} ms")
"""


def main() -> None:
    shell, *files = sys.argv[1:]
    for path in files:
        subprocess.run([sys.executable, "-c", _PROBE, shell, path], check=True)


if __name__ == "__main__":
    main()
