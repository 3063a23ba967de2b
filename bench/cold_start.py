"""Issue 19's cold start: one shell launch with a drafter config on disk, against
`python3 -c pass`, run alternately many times (as hyperfine does), then where the time goes
(`python -X importtime`, top-level modules by cumulative import time, median of 5 runs).

    python bench/cold_start.py [--runs 30] [--imports 5]

Target: speclint's median ≤ python's median + 50 ms, for runs with `--no-cache` (cold:
nothing stored) from a fresh folder, as `python -m speclint` (runpy's ~5 ms included; the
console script a pre-commit hook runs is measured too); `.pyc` files are used, as a user's
install does. Also measured: the default (cached) run on a file just edited, a replayed
re-run, and the launch in a project with a pyproject.toml.
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
from collections.abc import Callable

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


def variants(folder: str) -> list[tuple[str, list[str], str, Callable[[int], None] | None]]:
    """(label, command, folder, what to do before each run) of the runs compared with
    `python -c pass`: the target's (`--no-cache`); the default (a cache folder) on a file just
    edited, as a pre-commit hook meets it; a re-run over the unchanged file (replayed); and the
    launch in a project whose pyproject.toml speclint must parse (TOML costs its own imports)."""
    project = os.path.join(folder, "project")
    os.makedirs(project, exist_ok=True)
    shutil.copy(os.path.join(folder, "serve.sh"), project)
    with open(os.path.join(project, "pyproject.toml"), "w") as handle:
        handle.write('[project]\nname = "serving"\nversion = "1.0"\n\n[tool.ruff]\nline-length = 100\n')
    shutil.copy(os.path.join(folder, "serve.sh"), os.path.join(folder, "edited.sh"))

    def edit(number: int) -> None:
        with open(os.path.join(folder, "edited.sh"), "a") as handle:
            handle.write(f"# edit {number}\n")

    script = os.path.join(os.path.dirname(sys.executable), "speclint")  # what pre-commit runs
    console = (
        [
            (
                "console script `speclint --no-cache serve.sh`",
                [script, "--exit-zero", "--no-cache", "serve.sh"],
                folder,
                None,
            )
        ]
        if os.path.exists(script)
        else []
    )
    return [
        ("speclint --no-cache serve.sh", [*SPECLINT, "--no-cache", "serve.sh"], folder, None),
        *console,
        ("speclint edited.sh (cache kept, the file just edited)", [*SPECLINT, "edited.sh"], folder, edit),
        ("speclint serve.sh, re-run (replayed)", [*SPECLINT, "serve.sh"], folder, None),
        (
            "speclint --no-cache serve.sh beside a pyproject.toml",
            [*SPECLINT, "--no-cache", "serve.sh"],
            project,
            None,
        ),
    ]


SPECLINT = [sys.executable, "-m", "speclint", "--exit-zero"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--imports", type=int, default=5)
    args = parser.parse_args()
    folder = launch_folder()
    try:
        python = [sys.executable, "-c", "pass"]
        runs = variants(folder)
        time.sleep(2.1)  # a file changed in the last two seconds is never replayed (racy)
        for _, command, cwd, _ in runs:  # .pyc files (and kept values) written; the re-run's record
            one(command, cwd)
        base: list[tuple[float, float]] = []
        ours: list[list[tuple[float, float]]] = [[] for _ in runs]
        for number in range(args.runs):
            base.append(one(python, folder))
            for samples, (_, command, cwd, before) in zip(ours, runs):
                if before is not None:
                    before(number)
                samples.append(one(command, cwd))
        print(f"python -c pass ({args.runs} runs): {summary(base)}")
        for samples, (label, _, _, _) in zip(ours, runs):
            over = statistics.median(s[0] for s in samples) - statistics.median(s[0] for s in base)
            over_cpu = statistics.median(s[1] for s in samples) - statistics.median(s[1] for s in base)
            print(f"{label}: {summary(samples)}; - python: {over:.1f} ms wall, {over_cpu:.1f} ms CPU")
        target = statistics.median(s[0] for s in ours[0]) - statistics.median(s[0] for s in base)
        print(f"target (--no-cache) ≤ python + 50 ms: {'met' if target <= 50 else 'not met'}")
        rows = import_profile(runs[0][1], folder, args.imports)
        total = sum(row[1] for row in rows)
        print(f"imports (top level, median of {args.imports}, {total:.1f} ms in all):")
        for name, cumulative, own in rows[:15]:
            print(f"  {cumulative:6.1f} ms  {name} (itself {own:.1f} ms)")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"load average: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
