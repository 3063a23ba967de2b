#!/usr/bin/env python3
"""Record what an SGLang release's own argument handling and resolution do with the
launch battery (tools/oracle/battery.py), on a fake H100 and a fake B200.

    .venv/bin/python tools/oracle/record.py 0.5.10.post1 [0.5.11 ...] [--out-dir DIR]

For each release: installs it (release_env.py: its own sglang package over the 0.5.23
oracle environment), runs every launch through record_release.py in one process, and
writes ``tests/data/oracle/<version>.json.gz``. A launch that fails because the HARNESS
lacks a module (ImportError, a stub called) stops the recording: that is not the release's
behaviour; add the package to release_env.COMMON_DEPS or the module to STUBS.
"""

from __future__ import annotations

import argparse
import datetime
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import battery  # noqa: E402
import battery_a2a  # noqa: E402
import battery_values  # noqa: E402
import release_env  # noqa: E402

OUT_DIR = os.path.join(ROOT, "tests", "data", "oracle")
FORMAT = 1

STATE_SOURCE = os.path.join(ROOT, "src", "speclint", "sglang", "resolve", "state.py")
GPU_FIELDS = (
    # what depends on the GPU (or on the memory and CUDA-graph sizing around it)
    "enable_dp_lm_head",
    "chunked_prefill_size",
    "mem_fraction_static",
    "cuda_graph_max_bs",
    "context_length",
    "quantization",
    "kv_cache_dtype",
    "dtype",
    "sampling_backend",
    "disable_cuda_graph",
    "disable_radix_cache",
    "schedule_conservativeness",
    "moe_runner_backend",
)


def modelled_fields(source: str = STATE_SOURCE) -> tuple[str, ...]:
    """speclint's MODELLED_FIELDS, read from its source (this driver does not import speclint:
    the list has one address, state.py)."""
    import ast

    with open(source, encoding="utf-8") as handle:
        tree = ast.parse(handle.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "MODELLED_FIELDS" for target in node.targets
        ):
            return tuple(ast.literal_eval(node.value))
    raise LookupError(f"no MODELLED_FIELDS in {source}")


KEEP_FIELDS = (*modelled_fields(), *GPU_FIELDS)
"""Kept for every launch, with every field the launch sets or resolution changes: what
speclint resolves and what depends on the GPU."""
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _relative(value, prefix: str):
    if isinstance(value, str):
        return _ANSI.sub("", value.replace(prefix, ""))
    if isinstance(value, list):
        return [_relative(v, prefix) for v in value]
    if isinstance(value, dict):
        return {k: _relative(v, prefix) for k, v in value.items()}
    return value


def _absolute(argv: list[str]) -> list[str]:
    return [os.path.join(ROOT, a) if a.startswith(battery.M) else a for a in argv]


def compact(case: dict, result: dict) -> dict:
    prefix = ROOT + "/"
    out = {"argv": case["argv"], "gpu": case["gpu"]}
    if case.get("env"):
        out["env"] = case["env"]
    out["ok"] = bool(result["ok"])
    if not result["ok"]:
        for k in ("stage", "error_type", "error", "where"):
            out[k] = result.get(k)
    changed = result.get("changed") or {}
    effective = result.get("effective") or {}
    keep = set(KEEP_FIELDS) | set(result.get("given") or ()) | set(changed)
    out["changed"] = changed
    out["effective"] = {k: effective[k] for k in sorted(keep) if k in effective}
    if result.get("declared"):
        out["declared"] = result["declared"]
    out["logs"] = result.get("logs") or []
    return _relative(out, prefix)


HARNESS_ERRORS = ("ModuleNotFoundError", "ImportError")


def harness_problems(results: list[dict]) -> list[str]:
    bad = []
    for r in results:
        if (
            r.get("error_type") in HARNESS_ERRORS
            or "oracle stub" in str(r.get("error"))
            or "torch._C" in str(r.get("error"))
        ):
            bad.append(f"{r.get('error_type')}: {r.get('error')} (at {r.get('where')})")
    return sorted(set(bad))


def record(
    version: str,
    out_dir: str = OUT_DIR,
    timeout: float = 3000,
    seed: int = battery.SEED,
    n: int = battery.N_DRAWN,
    generator: str = "battery",
) -> str:
    t0 = time.time()
    python, env_add = release_env.ensure(version)
    t_install = time.time() - t0
    generate = {
        "wide": battery.wide,
        "quantization": battery.quantization,
        "moe": battery.moe,
        "a2a": battery_a2a.a2a,
        "a2a_cp": battery_a2a.a2a_cp,
        "prefill_cp": battery_a2a.prefill_cp,
        "mha_cp": battery_a2a.mha_cp,
        "value_types": battery_values.value_types,
    }.get(generator, battery.battery)
    cases = generate(version, seed, n)
    run_cases = [dict(c, argv=_absolute(c["argv"])) for c in cases]
    env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", **env_add)
    with tempfile.TemporaryDirectory(prefix="speclint-record-") as tmp:
        src, dst = os.path.join(tmp, "cases.json"), os.path.join(tmp, "out.json")
        with open(src, "w") as f:
            json.dump(run_cases, f)
        proc = subprocess.run(
            [python, os.path.join(HERE, "record_release.py"), src, "-o", dst, "--quiet"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if proc.returncode != 0 or not os.path.exists(dst):
            raise RuntimeError(f"record_release.py failed for {version}:\n{proc.stderr[-5000:]}")
        with open(dst) as f:
            payload = json.load(f)
    results = payload["results"]
    if payload["sglang"] != version:
        raise RuntimeError(f"asked for {version}, the environment imported {payload['sglang']}")
    problems = harness_problems(results)
    if problems:
        raise RuntimeError(f"{version}: the harness lacks something:\n  " + "\n  ".join(problems))
    launches = [compact(c, r) for c, r in zip(cases, results)]
    doc = {
        "format": FORMAT,
        "release": version,
        "mode": payload["mode"],
        "made": {
            "tool": "tools/oracle/record.py",
            "battery_seed": seed,
            "battery_drawn": n,
            "generator": generator,
            "gpus": sorted({c["gpu"] for c in cases}),
            "stubs": list(release_env.stubs_for(version)),
            "date": datetime.date.today().isoformat(),
            "seconds": round(time.time() - t0),
            "install_seconds": round(t_install),
        },
        "launches": launches,
    }
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, f"{version}.json.gz")
    data = json.dumps(doc, separators=(",", ":"), sort_keys=False).encode()
    with gzip.GzipFile(path + ".tmp", "wb", mtime=0) as f:
        f.write(data)
    os.replace(path + ".tmp", path)
    ok = sum(1 for x in launches if x["ok"])
    print(
        f"{version}: {len(launches)} launches ({ok} accepted, {len(launches) - ok} rejected), "
        f"{time.time() - t0:.0f}s (install {t_install:.0f}s), overlay "
        f"{release_env.disk_usage(version) / 1e6:.0f} MB, {os.path.getsize(path) / 1e3:.0f} KB "
        f"-> {os.path.relpath(path, ROOT)}",
        flush=True,
    )
    return path


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("versions", nargs="+")
    ap.add_argument("--out-dir", default=OUT_DIR)
    ap.add_argument("--seed", type=int, default=battery.SEED, help="battery seed (new draws: a new seed)")
    ap.add_argument(
        "--generator",
        choices=(
            "battery",
            "wide",
            "quantization",
            "moe",
            "a2a",
            "a2a_cp",
            "prefill_cp",
            "mha_cp",
            "value_types",
        ),
        default="battery",
        help="wide: tests/oracle_wide.py's launches; quantization: battery.quantization; "
        "moe: battery.moe (those with --moe-runner-backend); a2a: battery.a2a (MoE all-to-all "
        "backends, MegaMoE's attention DP and token budget); a2a_cp: battery.a2a_cp (MegaMoE with "
        "context-parallel prefill, the decode token budget, small budgets); prefill_cp: "
        "battery_a2a.prefill_cp (--enable-prefill-cp on DeepSeek-V3 and Kimi-K2.5); mha_cp: "
        "battery_a2a.mha_cp (trtllm_mha prefill beside attention CP, MHA targets); value_types: "
        "battery_values.value_types (--cuda-graph-config JSON, --cuda-graph-backend-*, "
        "--quantization-param-path)",
    )
    ap.add_argument("--n", type=int, default=battery.N_DRAWN, help="drawn launches (besides the fixed ones)")
    ap.add_argument("--keep-going", action="store_true", help="continue after a failure")
    ap.add_argument(
        "--missing", action="store_true", help="skip releases that already have a recording in --out-dir"
    )
    args = ap.parse_args(argv)
    failed = []
    for v in args.versions:
        if args.missing and os.path.exists(os.path.join(args.out_dir, f"{v}.json.gz")):
            continue
        try:
            record(v, args.out_dir, seed=args.seed, n=args.n, generator=args.generator)
        except Exception as e:  # noqa: BLE001
            print(f"{v}: FAILED: {e}", file=sys.stderr, flush=True)
            failed.append(v)
            if not args.keep_going:
                break
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
