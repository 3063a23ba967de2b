#!/usr/bin/env python3
"""Resolve launch commands with ANY installed SGLang release, on a machine without a GPU.

Runs inside an oracle environment (``tools/oracle/release_env.py`` puts the release's own
``sglang`` package in front of the 0.5.23 virtualenv):

    PYTHONPATH=OVERLAY .cache/oracle/sglang-0.5.23/bin/python tools/oracle/record_release.py CASES.json -o OUT.json

CASES.json is the array ``resolve_cases.py`` reads (``argv``, optional ``env`` and ``gpu``).
What runs is the release's own code, as ``python -m sglang.launch_server`` runs it:

- releases with ``ServerArgs.resolve_once`` (declared resolution, 0.5.2x): exactly
  ``resolve_cases.py``'s case runner (``prepare_server_args`` then ``resolve_once``);
- older releases resolve in ``ServerArgs.__post_init__``: the command line is parsed with
  the release's own parser (``ServerArgs.add_cli_args``) for the values as given, then
  ``prepare_server_args(argv)`` builds the resolved object.

The fake GPU is ``resolve_cases.py``'s (torch.cuda probes, the import-time "no CUDA" rule,
cleared caches), extended to the pre-``platforms`` module ``sglang.srt.utils`` by
``release_compat.py`` (with the shims and stubs older releases need here).

Output: a JSON array, one object per case:

    {"ok": bool, "stage": "parse" | "resolve" | null, "error_type": str | null,
     "error": str | null, "where": "module:function" | null,   # the raising frame in sglang
     "changed": {field: [given, resolved]},   # every field resolution changed
     "effective": {field: value},             # every field after resolution
     "given": [field, ...],                   # fields the command line set (differs from default)
     "logs": [[level, logger, message], ...], "mode": "resolve_once" | "post_init"}
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import io
import json
import logging
import os
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import resolve_cases as rc  # noqa: E402  (the fake GPU and the 0.5.23 case runner)
from release_compat import install_fakes  # noqa: E402  (older releases in this environment)

NOISE_FIELDS = ("random_seed",)
"""Fields resolution fills with a random value: not recorded as changes."""


def _where(exc: BaseException) -> str | None:
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "/sglang/" in f.filename]
    if not frames:
        return None
    f = frames[-1]
    mod = f.filename.split("/sglang/", 1)[1].removesuffix(".py").replace("/", ".")
    return f"sglang.{mod}:{f.name}"


def _fields_of(obj, dests) -> dict:
    if dataclasses.is_dataclass(obj):
        names = [f.name for f in dataclasses.fields(obj)]
    else:
        names = list(dests)
    return {n: rc._jsonable(getattr(obj, n)) for n in names if hasattr(obj, n)}


def _parse(server_args_cls, argv):
    parser = argparse.ArgumentParser()
    server_args_cls.add_cli_args(parser)
    return parser, parser.parse_args(argv)


def _as_given(cls, ns):
    """The ServerArgs the release's own ``from_cli_args`` builds, without running
    ``__post_init__``: the values as given, under the field names (argparse dests such as
    ``tensor_parallel_size`` are mapped by the release itself)."""
    post_init = cls.__dict__.get("__post_init__")
    if post_init is None:
        return cls.from_cli_args(ns)
    cls.__post_init__ = lambda self: None
    try:
        return cls.from_cli_args(ns)
    finally:
        cls.__post_init__ = post_init


def _default_of(cls, name):
    fields = {f.name: f for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else {}
    f = fields.get(name)
    if f is None:
        return None
    if f.default is not dataclasses.MISSING:
        return rc._jsonable(f.default)
    if f.default_factory is not dataclasses.MISSING:
        return rc._jsonable(f.default_factory())
    return None


def _post_init_case(case, server_args_cls, prepare_server_args) -> dict:
    argv = [str(a) for a in case.get("argv", [])]
    env = {str(k): str(v) for k, v in (case.get("env") or {}).items()}
    rc._set_gpu(case.get("gpu") or rc.DEFAULT_GPU)
    out = {
        "ok": False,
        "stage": None,
        "error_type": None,
        "error": None,
        "where": None,
        "changed": {},
        "effective": {},
        "given": [],
        "logs": [],
        "mode": "post_init",
    }
    saved_env = dict(os.environ)
    os.environ.update(env)
    capture = rc._Capture()
    sg_logger = logging.getLogger("sglang")
    sg_logger.addHandler(capture)
    t0 = time.perf_counter()
    try:
        stderr = io.StringIO()
        try:
            with contextlib.redirect_stderr(stderr):
                parser, ns = _parse(server_args_cls, argv)
        except SystemExit as e:
            text = stderr.getvalue().strip()
            _, sep, msg = text.rpartition(": error: ")
            out.update(
                stage="parse",
                error_type="SystemExit",
                error=("error: " + msg.strip()) if sep else (text or f"exit {e.code}"),
            )
            return out
        except BaseException as e:  # noqa: BLE001
            out.update(stage="parse", error_type=type(e).__name__, error=str(e), where=_where(e))
            return out
        given_obj = _as_given(server_args_cls, ns)
        given = _fields_of(given_obj, vars(ns))
        out["given"] = sorted(k for k, v in given.items() if v != _default_of(server_args_cls, k))
        try:
            with contextlib.redirect_stderr(io.StringIO()) as err:
                server_args = prepare_server_args(argv)
        except SystemExit as e:
            text = err.getvalue().strip()
            _, sep, msg = text.rpartition(": error: ")
            out.update(
                stage="resolve",
                error_type="SystemExit",
                error=("error: " + msg.strip()) if sep else (text or str(e.code)),
            )
            return out
        except BaseException as e:  # noqa: BLE001
            out.update(stage="resolve", error_type=type(e).__name__, error=str(e), where=_where(e))
            return out
        eff = _fields_of(server_args, given)
        _check(server_args, out)
        out["effective"] = eff
        out["changed"] = {
            k: [given[k], v] for k, v in eff.items() if k in given and given[k] != v and k not in NOISE_FIELDS
        }
        return out
    finally:
        out["elapsed_ms"] = round((time.perf_counter() - t0) * 1000, 2)
        out["logs"] = capture.records
        sg_logger.removeHandler(capture)
        os.environ.clear()
        os.environ.update(saved_env)


def _check(server_args, out: dict) -> None:
    """``check_server_args()``: what the launch runs right after resolution, before any
    process starts (engine.py ``_launch_subprocesses``). A refusal there is stage "check"."""
    check = getattr(server_args, "check_server_args", None)
    try:
        if check is not None:
            with contextlib.redirect_stderr(io.StringIO()):
                check()
        out["ok"] = True
    except BaseException as e:  # noqa: BLE001
        out.update(ok=False, stage="check", error_type=type(e).__name__, error=str(e), where=_where(e))


def _resolve_once_case(case, prepare_server_args) -> dict:
    made = []

    def prepare(argv):
        made.append(prepare_server_args(argv))
        return made[-1]

    r = rc._resolve_case(case, prepare)
    if r["ok"] and made:
        saved_env = dict(os.environ)
        os.environ.update({str(k): str(v) for k, v in (case.get("env") or {}).items()})
        try:
            _check(made[-1], r)
        finally:
            os.environ.clear()
            os.environ.update(saved_env)
    out = {k: r.get(k) for k in ("ok", "stage", "error_type", "error", "logs", "elapsed_ms")}
    out["mode"] = "resolve_once"
    out["where"] = r.get("where")
    tb = r.get("traceback") or ""
    for line in tb.splitlines():  # the last sglang frame: '  File ".../sglang/x/y.py", line N, in f'
        if "/sglang/" in line and line.strip().startswith("File "):
            path, _, func = line.partition(", in ")
            mod = path.split("/sglang/", 1)[1].split('"')[0].removesuffix(".py").replace("/", ".")
            out["where"] = f"sglang.{mod}:{func.strip()}"
    eff = r.get("effective") or {}
    out["effective"] = eff
    out["changed"] = {k: [v, eff.get(k)] for k, v in (r.get("raw") or {}).items() if k not in NOISE_FIELDS}
    out["declared"] = r.get("declared") or []
    out["given"] = []
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cases")
    ap.add_argument("-o", "--output")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    with open(args.cases) as f:
        cases = json.load(f)
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    t0 = time.perf_counter()
    install_fakes()
    import sglang.srt.server_args as sa_mod

    try:
        from sglang.srt.plugins import load_plugins

        load_plugins()
    except ImportError:
        pass
    if args.quiet:
        logging.getLogger("sglang").propagate = False
    cls = sa_mod.ServerArgs
    resolve_once = hasattr(cls, "resolve_once")
    if resolve_once:  # the given values come from the same parser
        parser = argparse.ArgumentParser()
        cls.add_cli_args(parser)
    t_import = time.perf_counter() - t0
    results = []
    for case in cases:
        if resolve_once:
            r = _resolve_once_case(case, sa_mod.prepare_server_args)
            with contextlib.suppress(SystemExit, Exception), contextlib.redirect_stderr(io.StringIO()):
                ns = parser.parse_args([str(a) for a in case.get("argv", [])])
                r["given"] = sorted(k for k, v in vars(ns).items() if v != parser.get_default(k))
        else:
            r = _post_init_case(case, cls, sa_mod.prepare_server_args)
        results.append(r)
    import sglang

    mode = "resolve_once" if resolve_once else "post_init"
    print(
        f"record_release: sglang {sglang.__version__} ({mode}), import {t_import:.1f}s, "
        f"{len(cases)} cases in "
        f"{time.perf_counter() - t0 - t_import:.1f}s",
        file=sys.stderr,
    )
    payload = {"sglang": sglang.__version__, "mode": mode, "results": results}
    text = json.dumps(payload)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text + "\n")


if __name__ == "__main__":
    main()
