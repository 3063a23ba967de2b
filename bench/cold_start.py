"""Issue 19's cold start: one shell launch with a drafter config on disk, against
`python3 -c pass`, run alternately many times (as hyperfine does), then where the time goes
(`python -X importtime`, top-level modules by cumulative import time, median of 5 runs).

    python bench/cold_start.py [--runs 30] [--imports 5]

Target: speclint's median ≤ python's median + 50 ms. Runs are `--no-cache` (cold: nothing
stored) from a fresh folder; `.pyc` files are used, as a user's install does.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def launch_folder() -> str:
    """A folder with a target and an EAGLE-3 drafter config and a script launching them."""
    folder = tempfile.mkdtemp(prefix="speclint-cold-")
    for name in ("llama-3.1-8b-instruct", "eagle3-llama-3.1-8b-instruct"):
        shutil.copytree(os.path.join(ROOT, "fixtures", "models", name), os.path.join(folder, name))
    with open(os.path.join(folder, "serve.sh"), "w") as handle:
        handle.write(f"""#!/bin/bash
MODEL={folder}/llama-3.1-8b-instruct
DRAFT={folder}/eagle3-llama-3.1-8b-instruct
python3 -m sglang.launch_server --model-path "$MODEL" --tp 2 \\
  --speculative-algorithm EAGLE3 --speculative-draft-model-path "$DRAFT" \\
  --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4
""")
    return folder


def one(command: list[str], cwd: str) -> tuple[float, float]:
    start = time.perf_counter()
    child = subprocess.Popen(command, cwd=cwd, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(child.pid, 0)
    return (time.perf_counter() - start) * 1000, (usage.ru_utime + usage.ru_stime) * 1000


def summary(samples: list[tuple[float, float]]) -> str:
    walls = [s[0] for s in samples]
    cpus = [s[1] for s in samples]
    return (
        f"wall median {statistics.median(walls):.1f} ms (min {min(walls):.1f}, mean "
        f"{statistics.mean(walls):.1f} ± {statistics.pstdev(walls):.1f}), CPU median "
        f"{statistics.median(cpus):.1f} ms"
    )


_LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")


def import_profile(command: list[str], cwd: str, runs: int) -> list[tuple[str, float, float]]:
    """(module, cumulative ms, self ms) of the top-level imports (median over `runs`)."""
    seen: dict[str, list[tuple[float, float]]] = {}
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, "-X", "importtime", *command[1:]],
            cwd=cwd,
            env=ENV,
            capture_output=True,
            text=True,
            check=False,
        )
        for match in _LINE.finditer(done.stderr):
            own, total, indent, name = match.groups()
            if len(indent) == 1:  # imported by the program itself, not by another module
                seen.setdefault(name, []).append((int(total) / 1000, int(own) / 1000))
    rows = [
        (name, statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples))
        for name, samples in seen.items()
    ]
    return sorted(rows, key=lambda row: -row[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--imports", type=int, default=5)
    args = parser.parse_args()
    folder = launch_folder()
    try:
        python = [sys.executable, "-c", "pass"]
        speclint = [sys.executable, "-m", "speclint", "--no-cache", "--exit-zero", "serve.sh"]
        one(speclint, folder)  # .pyc files written
        base: list[tuple[float, float]] = []
        ours: list[tuple[float, float]] = []
        for _ in range(args.runs):
            base.append(one(python, folder))
            ours.append(one(speclint, folder))
        print(f"python -c pass ({args.runs} runs): {summary(base)}")
        print(f"speclint --no-cache serve.sh ({args.runs} runs): {summary(ours)}")
        over = statistics.median(s[0] for s in ours) - statistics.median(s[0] for s in base)
        over_cpu = statistics.median(s[1] for s in ours) - statistics.median(s[1] for s in base)
        print(
            f"speclint - python: {over:.1f} ms wall, {over_cpu:.1f} ms CPU (target ≤ 50 ms: "
            f"{'met' if over <= 50 else 'not met'})"
        )
        rows = import_profile(speclint, folder, args.imports)
        total = sum(row[1] for row in rows)
        print(f"imports (top level, median of {args.imports}, {total:.1f} ms in all):")
        for name, cumulative, own in rows[:15]:
            print(f"  {cumulative:6.1f} ms  {name} (itself {own:.1f} ms)")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"load average: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
