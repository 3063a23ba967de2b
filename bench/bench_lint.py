"""Lint N generated launch scripts and report files/s (and the cold start of one file).

    python bench/bench_lint.py [--files 1000] [--keep DIR] [--memory 10000]

Scripts are written to a temporary folder: varied, realistic launches (variables, arrays,
continuations, docker, nohup, speculative flags), some with mistakes. Speed targets live
here, not in unit tests; record results in bench/README.md.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time

TEMPLATES = [
    """#!/bin/bash
MODEL={model}
export CUDA_VISIBLE_DEVICES={gpus}
nohup python3 -m sglang.launch_server \\
  --model-path "$MODEL" \\
  --tp {tp} --port {port} \\
  --speculative-algorithm {algo} --speculative-draft-model-path /models/draft-{i} \\
  --speculative-eagle-topk {topk} --speculative-num-steps {steps} --speculative-num-draft-tokens {draft} \\
  --mem-fraction-static 0.8{extra} > /tmp/server-{i}.log 2>&1 &
""",
    """#!/usr/bin/env bash
set -euo pipefail
ARGS=(--model-path {model} --tp-size {tp} --host 0.0.0.0 --port {port})
ARGS+=(--max-running-requests {mrr}{extra})
docker run --gpus all --ipc=host -p {port}:{port} -e HF_TOKEN=x lmsysorg/sglang:v0.5.6.post2 \\
  python3 -m sglang.launch_server "${{ARGS[@]}}"
""",
    """#!/bin/sh
for port in 30000 30001; do
  python -m sglang.launch_server --model {model} --port $port --tp {tp} --context-length 32768{extra} &
done
wait
""",
]
EXTRAS = [
    "",
    " --cuda-graph-max-bs 64",
    " --speculative-eagle-top-k 2",
    " --enable-mixed-chunk",
    " --tp-size 2",
    " --chunked-prefill-size 8192",
    " --trust-remote-code",
]


def write_scripts(folder: str, count: int, seed: int = 0) -> list[str]:
    rng = random.Random(seed)
    paths = []
    for i in range(count):
        text = rng.choice(TEMPLATES).format(
            i=i,
            model=rng.choice(["/models/llama", "meta-llama/Llama-3.1-8B-Instruct", "/models/Kimi-K2.5"]),
            gpus=rng.choice(["0,1", "0,1,2,3", "0,1,2,3,4,5,6,7"]),
            tp=rng.choice([1, 2, 4, 8]),
            port=30000 + i,
            algo=rng.choice(["EAGLE", "EAGLE3", "NEXTN"]),
            topk=rng.choice([1, 4]),
            steps=rng.choice([1, 3, 5]),
            draft=rng.choice([4, 8, 16]),
            mrr=rng.choice([32, 64, 128]),
            extra=rng.choice(EXTRAS),
        )
        path = os.path.join(folder, f"launch_{i:05d}.sh")
        with open(path, "w") as handle:
            handle.write(text)
        paths.append(path)
    return paths


def timed(command: list[str], env: dict | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return time.perf_counter() - start


def cpu_ms(command: list[str], runs: int = 11) -> float:
    """Median user+system CPU of a command: steadier than wall time on a shared machine."""
    samples = []
    for _ in range(runs):
        child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, _, usage = os.wait4(child.pid, 0)
        samples.append((usage.ru_utime + usage.ru_stime) * 1000)
    return sorted(samples)[len(samples) // 2]


_HIGH_WATER = """
import atexit, os, runpy, sys
def _report():
    with open("/proc/self/status") as status:
        peak = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
    with open(os.environ["SPECLINT_BENCH_RSS"], "w") as out:
        out.write(peak)
atexit.register(_report)
sys.argv[0] = "speclint"
runpy.run_module("speclint", run_name="__main__")
"""
"""Runs speclint and, at exit, writes the main process's own peak RSS (VmHWM, Linux): the
rusage of a child also counts its worker processes."""


def peak_rss_mib(args: list[str], env: dict, cwd: str | None = None) -> float:
    """Peak RSS (VmHWM) of the main speclint process, in MiB (a child's rusage would count
    its worker processes too)."""
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as record:
        env = dict(env, SPECLINT_BENCH_RSS=record.name)
        subprocess.run(
            [sys.executable, "-c", _HIGH_WATER, *args],
            env=env,
            cwd=cwd,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )
        return int(record.read() or 0) / 1024


def report_memory(count: int) -> None:
    """Peak RSS for count/10 and count files, with worker processes and in one process:
    flat means the second number is within a few MiB of the first."""
    import shutil

    small_count = max(count // 10, 1)
    small = tempfile.mkdtemp(prefix="speclint-bench-rss-")
    big = tempfile.mkdtemp(prefix="speclint-bench-rss-")
    try:
        write_scripts(small, small_count)
        write_scripts(big, count)
        serial_env = dict(os.environ, SPECLINT_WORKERS="1")
        for env, how in ((dict(os.environ), "workers"), (serial_env, "one process")):
            low = peak_rss_mib(["--exit-zero", small], env)
            high = peak_rss_mib(["--exit-zero", big], env)
            print(
                f"peak RSS of the main process ({how}): {low:.0f} MiB at {small_count:,} "
                f"files, {high:.0f} MiB at {count:,} (+{high - low:.1f} MiB)"
            )
    finally:
        shutil.rmtree(small, ignore_errors=True)
        shutil.rmtree(big, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--keep", help="write the scripts here instead of a temporary folder")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--memory",
        type=int,
        default=0,
        metavar="N",
        help="also report the main process's peak RSS for N/10 and N files (e.g. 10000)",
    )
    args = parser.parse_args()
    folder = args.keep or tempfile.mkdtemp(prefix="speclint-bench-")
    os.makedirs(folder, exist_ok=True)
    paths = write_scripts(folder, args.files)
    speclint = [sys.executable, "-m", "speclint", "--no-cache"]  # cold runs; the cache below
    serial_env = dict(os.environ, SPECLINT_WORKERS="1")

    batch = min(timed([*speclint, "--exit-zero", folder]) for _ in range(args.repeat))
    serial = min(timed([*speclint, "--exit-zero", folder], serial_env) for _ in range(args.repeat))
    print(
        f"batch: {args.files} files in {batch:.2f} s = {args.files / batch:.0f} files/s "
        f"(one process: {serial:.2f} s; worker processes save {serial / batch:.2f}x)"
    )

    cache_dir = tempfile.mkdtemp(prefix="speclint-bench-cache-")
    cached = [sys.executable, "-m", "speclint", "--cache-dir", cache_dir, "--exit-zero", folder]
    filling = timed(cached)
    warm = min(timed(cached) for _ in range(args.repeat))
    print(
        f"cache: first run {filling:.2f} s (fills it), re-run over unchanged files "
        f"{warm:.3f} s: {batch / warm:.1f}x faster than the cold run (target 20x)"
    )

    python_start = min(timed([sys.executable, "-c", "pass"]) for _ in range(11))
    one = min(timed([*speclint, "--exit-zero", paths[0]]) for _ in range(11))
    print(
        f"cold start, one file: {one * 1000:.0f} ms wall "
        f"(python -c pass: {python_start * 1000:.0f} ms; overhead {(one - python_start) * 1000:.0f} ms; "
        f"target python + 50 = {python_start * 1000 + 50:.0f} ms; bench/cold_start.py "
        f"measures it properly); median CPU "
        f"{cpu_ms([*speclint, '--exit-zero', paths[0]]):.0f} ms vs "
        f"{cpu_ms([sys.executable, '-c', 'pass']):.0f} ms"
    )

    shellcheck = "/usr/bin/shellcheck"
    if os.path.exists(shellcheck):
        sc = min(timed([shellcheck, *paths]) for _ in range(1))
        print(
            f"shellcheck on the same files: {sc:.2f} s = {args.files / sc:.0f} files/s "
            f"(speclint is {sc / batch:.1f}x faster)"
        )
    if args.memory:
        report_memory(args.memory)
    print(f"machine: {os.cpu_count()} cores, python {sys.version.split()[0]}; scripts in {folder}")


if __name__ == "__main__":
    main()
