#!/usr/bin/env python3
"""Resolve SGLang launch commands with the REAL SGLang, on a machine without a GPU.

Runs inside the oracle virtualenv made by ``tools/oracle/setup_env.py``:

    .cache/oracle/sglang-0.5.23/bin/python tools/oracle/resolve_cases.py CASES.json [-o OUT.json]

CASES.json is a JSON array of objects:

    {"argv": ["--model-path", "fixtures/models/llama-3.1-8b-instruct", ...],
     "env": {"SGLANG_...": "1"},          # optional, applied for this case only
     "gpu": "H100",                       # optional, default H100 (see GPUS)
     "check": true}                       # optional: then run check_server_args() too

or, for a keyword launch (`sgl.Engine(**kwargs)`, `ServerArgs(**kwargs)`), ``"kwargs":
{"model_path": ..., "tp_size": 2}`` instead of ``argv``: the settings are made by
``ServerArgs(**kwargs)`` (what Engine.__init__ does with its keywords; no argparse), then
resolved the same way.

``argv`` is what follows ``python -m sglang.launch_server``.  For each case the script
runs what ``sglang.launch_server`` runs before it spawns a process:
``prepare_server_args(argv)`` and then ``server_args.resolve_once()`` (the body of
``run_server`` up to the resolution), with one fake NVIDIA GPU of the given model.

Output: a JSON array, one object per case, in order:

    {"ok": bool,
     "stage": "parse" | "resolve" | null,   # where it failed
     "error_type": "SystemExit" | "AssertionError" | ... | null,
     "error": str | null,                   # argparse's stderr message for SystemExit
     "effective": {field: value},           # ServerArgs.resolved_dict() (JSON-safe)
     "raw": {field: value},                 # the parsed input, only fields that differ
                                            #   from "effective" (what resolution changed)
     "declared": [[handler, {field: value}], ...],   # server_args._resolved_overrides
     "logs": [[level, logger, message], ...],        # SGLang log records, INFO and up
     "elapsed_ms": float}

All cases run in one process: importing SGLang takes seconds, a resolution ~20 ms.
``os.environ`` is restored after every case (resolution exports NCCL_*/SGLANG_*).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import logging
import math
import os
import sys
import time
import traceback
import types  # noqa: F401

from fake_gpu import (  # noqa: F401  (record_release.py uses _set_gpu and DEFAULT_GPU through here)
    DEFAULT_GPU,
    GPUS,
    _install_import_hook,
    _install_sglang_fakes,
    _install_torch_fakes,
    _set_gpu,
)


# --------------------------------------------------------------------------------------
# JSON helpers
# --------------------------------------------------------------------------------------
def _jsonable(v):
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return v if math.isfinite(v) else str(v)
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple, set, frozenset)):
        return [_jsonable(x) for x in v]
    if hasattr(v, "value") and type(v).__module__ != "builtins" and isinstance(v.value, (str, int)):  # enums
        return _jsonable(v.value)
    return str(v)


class _Capture(logging.Handler):
    def __init__(self):
        super().__init__(logging.INFO)
        self.records = []

    def emit(self, record):
        try:
            msg = record.getMessage()
        except Exception:  # pragma: no cover - a bad format string in SGLang
            msg = str(record.msg)
        self.records.append([record.levelname, record.name, msg])


# --------------------------------------------------------------------------------------
# One case
# --------------------------------------------------------------------------------------
def _resolve_case(case, prepare_server_args):
    from sglang.srt.arg_groups.overrides import resolution_result  # noqa: F401

    argv = [str(a) for a in case.get("argv", [])]
    env = {str(k): str(v) for k, v in (case.get("env") or {}).items()}
    _set_gpu(case.get("gpu") or DEFAULT_GPU)

    out = {
        "ok": False,
        "stage": None,
        "error_type": None,
        "error": None,
        "effective": {},
        "raw": {},
        "declared": [],
        "logs": [],
        "elapsed_ms": None,
    }
    saved_env = dict(os.environ)
    os.environ.update(env)
    capture = _Capture()
    sg_logger = logging.getLogger("sglang")
    sg_logger.addHandler(capture)
    t0 = time.perf_counter()
    server_args = None
    try:
        stderr = io.StringIO()
        try:
            with contextlib.redirect_stderr(stderr):
                if "kwargs" in case:  # `sgl.Engine(**kwargs)`: `ServerArgs(**kwargs)`, no argparse
                    from sglang.srt.server_args import ServerArgs

                    server_args = ServerArgs(**case["kwargs"])
                else:
                    server_args = prepare_server_args(argv)
        except SystemExit as e:
            text = stderr.getvalue().strip()
            # argparse prints the usage, then "<prog>: error: <message>"; keep the message.
            _, sep, msg = text.rpartition(": error: ")
            out.update(
                stage="parse",
                error_type="SystemExit",
                error=("error: " + msg.strip()) if sep else (text or f"exit {e.code}"),
            )
            out["stderr"] = text
            return out
        except BaseException as e:  # noqa: BLE001
            out.update(
                stage="parse", error_type=type(e).__name__, error=(str(e) or stderr.getvalue().strip())
            )
            out["traceback"] = traceback.format_exc(limit=-6)
            return out
        if stderr.getvalue().strip():
            out["parse_stderr"] = stderr.getvalue().strip()
        try:
            # What sglang.launch_server.run_server does before resolve_once().
            if (server_args.smg_grpc_mode or server_args.grpc_mode) and server_args.tokenizer_path is None:
                server_args.tokenizer_path = server_args.model_path
            server_args.resolve_once()
            out["ok"] = True
            if case.get("check"):  # optional: what launch runs next, check_server_args()
                try:
                    server_args.check_server_args()
                except BaseException as e:  # noqa: BLE001
                    out.update(ok=False, stage="check", error_type=type(e).__name__, error=str(e))
        except SystemExit as e:
            out.update(stage="resolve", error_type="SystemExit", error=str(e.code))
        except BaseException as e:  # noqa: BLE001
            out.update(stage="resolve", error_type=type(e).__name__, error=str(e))
            out["traceback"] = traceback.format_exc(limit=-6)
        # Declarations and effective values, also after a failed resolution (they show
        # how far it got).
        declared = getattr(server_args, "_resolved_overrides", None) or []
        out["declared"] = [[str(src), _jsonable(dict(fields))] for src, fields in declared]
        try:
            eff = server_args.resolved_dict()
        except BaseException as e:  # noqa: BLE001
            eff = {}
            out["effective_error"] = f"{type(e).__name__}: {e}"
        out["effective"] = {k: _jsonable(v) for k, v in eff.items()}
        raw = getattr(server_args, "_raw_input", None)
        if raw is not None:
            for k, v in raw.items():
                jv = _jsonable(v)
                if k in out["effective"] and out["effective"][k] != jv:
                    out["raw"][k] = jv
        return out
    finally:
        out["elapsed_ms"] = round((time.perf_counter() - t0) * 1000, 2)
        out["logs"] = capture.records
        sg_logger.removeHandler(capture)
        os.environ.clear()
        os.environ.update(saved_env)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cases", help="JSON file with an array of cases ('-' for stdin)")
    ap.add_argument("-o", "--output", help="write the JSON result here (default stdout)")
    ap.add_argument("--quiet", action="store_true", help="silence SGLang's log output")
    args = ap.parse_args(argv)

    with sys.stdin if args.cases == "-" else open(args.cases) as f:
        cases = json.load(f)
    if not isinstance(cases, list):
        raise SystemExit("cases file must hold a JSON array")

    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

    t0 = time.perf_counter()
    _install_torch_fakes()
    _install_import_hook()
    _install_sglang_fakes()
    from sglang.srt.plugins import load_plugins
    from sglang.srt.server_args import prepare_server_args

    load_plugins()  # as sglang.launch_server does, once, before parsing
    if args.quiet:  # records are still captured per case by a handler on "sglang"
        logging.getLogger("sglang").propagate = False
    t_import = time.perf_counter() - t0
    results = []
    for case in cases:
        results.append(_resolve_case(case, prepare_server_args))
    print(
        f"resolve_cases: import {t_import:.2f}s, {len(cases)} cases "
        f"{', '.join(str(r['elapsed_ms']) for r in results[:50])} ms",
        file=sys.stderr,
    )
    text = json.dumps(results, indent=1)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text + "\n")


if __name__ == "__main__":
    main()
