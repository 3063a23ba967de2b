"""Issue 19's batch figures on a mixed corpus (`mixed_corpus.py`): speclint against ShellCheck,
the result cache (cold, filled, re-run), and memory from 1,000 to 10,000 files.

    python bench/bench_mixed.py [--files 1000] [--runs 3] [--memory 10000] [--keep DIR]

Each figure is printed per run (three by default) as wall time and CPU time (user + system,
worker processes included): on a shared machine the CPU time is the steadier one. Speed
targets live here and in bench/README.md, never in unit tests.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_lint import peak_rss_mib
from mixed_corpus import write_corpus

SHELLCHECK = shutil.which("shellcheck")
REPLAYS = 5
"""Re-runs over unchanged files measured per cache figure (their median is reported)."""


def measure(command: list[str], cwd: str | None = None, env: dict | None = None) -> tuple[float, float]:
    """(wall s, CPU s) of one run, its children included."""
    start = time.perf_counter()
    child = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(child.pid, 0)
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime


def _fmt(sample: tuple[float, float]) -> str:
    return f"{sample[0]:.2f} s wall / {sample[1]:.2f} s CPU"


def compare_shellcheck(folder: str, paths: list[str], runs: int, label: str) -> None:
    speclint = [sys.executable, "-m", "speclint", "--no-cache", "--exit-zero", *paths]
    # one run of each first, not measured (hyperfine's --warmup): the files into the page
    # cache for both, and speclint's kept stores (`core.kept`) learning the corpus's forms
    measure(speclint, cwd=folder)
    if SHELLCHECK:
        measure([SHELLCHECK, "-s", "bash", *paths], cwd=folder)
    for number in range(runs):
        ours = measure(speclint, cwd=folder)
        line = f"{label} run {number + 1}: speclint {_fmt(ours)}"
        if SHELLCHECK:
            theirs = measure([SHELLCHECK, "-s", "bash", *paths], cwd=folder)
            line += (
                f"; ShellCheck {_fmt(theirs)}: speclint {theirs[0] / ours[0]:.1f}x faster "
                f"(wall), {theirs[1] / ours[1]:.1f}x less CPU"
            )
        print(line, flush=True)


def cache_figures(folder: str, paths: list[str], runs: int) -> None:
    """Cold (--no-cache) against a re-run over unchanged files: replayed whole (nothing
    changed), and answered file by file from the index (one file changed). Both as
    `python -m speclint` and as the console script (`speclint`, what pre-commit and a
    user's shell run: no runpy), each against its own cold run."""
    cache_dir = tempfile.mkdtemp(prefix="speclint-bench-cache-")
    script = os.path.join(os.path.dirname(sys.executable), "speclint")
    starts = {"python -m": [sys.executable, "-m", "speclint"]}
    if os.path.exists(script):
        starts["console script"] = [script]
    serial = dict(os.environ, SPECLINT_WORKERS="1")
    try:
        time.sleep(2.1)  # the corpus was just written: files changed within 2 s are not trusted by stat
        for start in starts.values():
            cached = [*start, "--cache-dir", cache_dir, "--exit-zero", "."]
            measure(cached, cwd=folder)  # fills the index
            measure(cached, cwd=folder)  # records the run (the first run's own writes were too recent)
        for number in range(runs):
            for label, start in starts.items():
                cached = [*start, "--cache-dir", cache_dir, "--exit-zero", "."]
                cold_command = [*start, "--no-cache", "--exit-zero", "."]
                cold = measure(cold_command, cwd=folder)
                cold_serial = measure(cold_command, cwd=folder, env=serial)
                # a re-run takes ~20 ms, where one sample is mostly the machine's noise: the
                # median of REPLAYS, as hyperfine reports (the extremes printed beside it)
                replays = sorted(measure(cached, cwd=folder) for _ in range(REPLAYS))
                replayed = replays[len(replays) // 2]
                print(
                    f"cache run {number + 1} ({label}): cold {_fmt(cold)} (one process: "
                    f"{_fmt(cold_serial)}); re-run, nothing changed {replayed[0] * 1000:.0f} ms wall / "
                    f"{replayed[1] * 1000:.0f} ms CPU (median of {REPLAYS}: "
                    f"{replays[0][0] * 1000:.0f}-{replays[-1][0] * 1000:.0f} ms) = "
                    f"{cold[0] / replayed[0]:.0f}x (wall), "
                    f"{cold_serial[1] / replayed[1]:.0f}x less CPU than one process cold",
                    flush=True,
                )
            cached = [*starts["python -m"], "--cache-dir", cache_dir, "--exit-zero", "."]
            cold_serial = measure(
                [*starts["python -m"], "--no-cache", "--exit-zero", "."], cwd=folder, env=serial
            )
            with open(os.path.join(folder, paths[number % len(paths)]), "a") as handle:
                handle.write("\n")  # one file changed: the other files come from the index
            per_file = measure(cached, cwd=folder)
            print(
                f"cache run {number + 1}: re-run, one file changed {_fmt(per_file)} = "
                f"{cold_serial[1] / per_file[1]:.1f}x less CPU than one process cold",
                flush=True,
            )
            time.sleep(2.1)  # let the changed file become quiet again
            for start in starts.values():
                measure([*start, "--cache-dir", cache_dir, "--exit-zero", "."], cwd=folder)
    finally:
        shutil.rmtree(cache_dir, ignore_errors=True)


def memory_figures(count: int) -> None:
    small, big = (tempfile.mkdtemp(prefix="speclint-bench-rss-") for _ in range(2))
    try:
        write_corpus(small, max(count // 10, 1))
        write_corpus(big, count)
        for how, env in (
            ("workers", dict(os.environ)),
            ("one process", dict(os.environ, SPECLINT_WORKERS="1")),
        ):
            low = peak_rss_mib(["--no-cache", "--exit-zero", "."], env, small)
            high = peak_rss_mib(["--no-cache", "--exit-zero", "."], env, big)
            print(
                f"peak RSS of the main process ({how}): {low:.0f} MiB at {count // 10:,} files, "
                f"{high:.0f} MiB at {count:,} (+{high - low:.1f} MiB)",
                flush=True,
            )
    finally:
        shutil.rmtree(small, ignore_errors=True)
        shutil.rmtree(big, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--memory",
        type=int,
        default=0,
        metavar="N",
        help="also the main process's peak RSS at N/10 and N files",
    )
    parser.add_argument("--keep", help="write the corpus here instead of a temporary folder")
    parser.add_argument("--skip", nargs="*", default=(), choices=["shellcheck", "cache"])
    args = parser.parse_args()
    folder = args.keep or tempfile.mkdtemp(prefix="speclint-bench-mixed-")
    os.makedirs(folder, exist_ok=True)
    paths = [os.path.relpath(p, folder) for p in write_corpus(folder, args.files)]
    shell = [p for p in paths if p.endswith(".sh")]
    print(
        f"corpus: {len(paths)} files in {folder} ({len(shell)} shell scripts, "
        f"{sum(p.endswith('.py') for p in paths)} Python, {sum(p.endswith('.md') for p in paths)} "
        f"Markdown); {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}, "
        f"Python {sys.version.split()[0]}; ShellCheck: {SHELLCHECK or 'not installed'}",
        flush=True,
    )
    if "shellcheck" not in args.skip:
        compare_shellcheck(folder, paths, args.runs, "all files")
        compare_shellcheck(folder, shell, args.runs, "shell scripts only")
    if "cache" not in args.skip:
        cache_figures(folder, paths, args.runs)
    if args.memory:
        memory_figures(args.memory)
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
