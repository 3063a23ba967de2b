"""speclint as an SGLang plugin (entry-point group `sglang.srt.plugins`, name `speclint`).

SGLang calls `load_plugins()` early in every process it starts (launcher, engine
subprocesses, workers). `register()` acts only in the launching process: one that no
multiprocessing parent started (`multiprocessing.parent_process() is None`) and that did not
inherit `SPECLINT_PLUGIN_LAUNCHER` from a launcher (set here to the launcher's pid, so every
child, whatever starts it, stays out). There it hooks `prepare_server_args` AFTER: the hook
gets SGLang's own ServerArgs (with `--config` merged) before `run_server` loads anything,
lints that argv with every rule for the installed release and runs the GPU preflight.

`SPECLINT_PLUGIN`: `strict` (default) stops the launch (exit 1) on error findings or busy /
too few GPUs; `warn` only logs; `off` does nothing. A speclint bug is logged and the launch
continues. This module imports only the standard library at load time.
"""

from __future__ import annotations

import logging
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

logger = logging.getLogger("speclint.plugin")

MODE_VAR = "SPECLINT_PLUGIN"
LAUNCHER_VAR = "SPECLINT_PLUGIN_LAUNCHER"
RUN_CHECKED_VAR = "SPECLINT_RUN_CHECKED"  # set by `speclint run` right before it execs
HOOK_TARGET = "sglang.srt.server_args.prepare_server_args"
_MODES = {
    "strict": "strict",
    "on": "strict",
    "1": "strict",
    "true": "strict",
    "error": "strict",
    "": "strict",
    "warn": "warn",
    "warning": "warn",
    "log": "warn",
    "off": "off",
    "0": "off",
    "false": "off",
    "no": "off",
    "disabled": "off",
}
_checked = False


def mode() -> str:
    value = os.environ.get(MODE_VAR, "strict").strip().lower()
    if value not in _MODES:
        logger.warning("speclint plugin: %s=%r is not strict, warn or off; using strict", MODE_VAR, value)
    return _MODES.get(value, "strict")


def is_launching_process() -> bool:
    """True in the process the user started, False in SGLang's subprocesses."""
    import multiprocessing

    if multiprocessing.parent_process() is not None:
        return False
    marker = os.environ.get(LAUNCHER_VAR)
    return marker is None or marker == str(os.getpid())


def register() -> None:
    """The entry point SGLang's `load_plugins()` calls."""
    try:
        if mode() == "off" or not is_launching_process():
            return
        os.environ[LAUNCHER_VAR] = str(os.getpid())
        from sglang.srt.plugins.hook_registry import HookRegistry, HookType

        HookRegistry.register(HOOK_TARGET, after_prepare_server_args, HookType.AFTER)
    except Exception:  # never break SGLang's start because of speclint
        logger.warning("speclint plugin: could not register its hook; launch continues", exc_info=True)


def after_prepare_server_args(
    server_args: object, argv: Sequence[str] | None = None, *args: object, **kwargs: object
) -> None:
    """AFTER hook: check once; stop the process (exit 1) only in strict mode on a real finding."""
    global _checked
    if _checked:
        return None
    _checked = True
    current = mode()
    if current == "off":
        return None
    try:
        stop, report = check_launch(server_args, argv)
    except Exception:
        logger.warning(
            "speclint plugin: internal error, this launch is not checked (please "
            "report it); launch continues",
            exc_info=True,
        )
        return None
    if not report:
        return None
    if stop and current == "strict":
        sys.stderr.write(
            f"speclint: stopping this SGLang launch before it loads the model:\n"
            f"{report}\n(SPECLINT_PLUGIN=warn only logs this; SPECLINT_PLUGIN=off "
            "disables the plugin)\n"
        )
        sys.stderr.flush()
        raise SystemExit(1)
    for line in report.splitlines():
        (logger.warning if stop else logger.info)("speclint: %s", line)
    return None


def _sglang_version() -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("sglang")
    except PackageNotFoundError:
        return None


def _launch_argv(server_args: object, argv: Sequence[str] | None) -> list[str]:
    """The argv SGLang parsed, `--config` file merged (`_launch_command`, 0.5.23)."""
    merged = getattr(server_args, "_launch_command", None)
    if isinstance(merged, (list, tuple)) and all(isinstance(w, str) for w in merged):
        return list(merged)
    return list(argv) if argv is not None else sys.argv[1:]


def _sizes(server_args: object) -> dict[str, object]:
    """SGLang's own parallel sizes, as parsed (they decide how many workers start)."""
    return {name: getattr(server_args, name, None) for name in ("tp_size", "pp_size", "nnodes")}


def check_launch(server_args: object, argv: Sequence[str] | None = None) -> tuple[bool, str]:
    """(stop, report): lint SGLang's argv for the installed release, then the preflight."""
    if os.environ.get(RUN_CHECKED_VAR) == str(os.getpid()):
        logger.info("speclint: `speclint run` already checked this launch")
        return False, ""
    from speclint.frontends.recognise import DEFAULT_ENTRY
    from speclint.gate.launch import lint_argv, needed_ordinals
    from speclint.preflight import check
    from speclint.preflight.profile import visible_profile
    from speclint.preflight.report import progress_line, render_text
    from speclint.report.text import render_findings
    from speclint.settings.options import LintOptions

    options = LintOptions(
        _sglang_version(), read_pyproject=False, gpu=visible_profile(os.environ)
    )  # the GPUs NVML sees
    linted = lint_argv(_launch_argv(server_args, argv), os.environ, options, entry=DEFAULT_ENTRY)
    parts, stop = [], False
    if linted.result.findings:
        parts.append(render_findings([linted.result]).rstrip())
    if linted.errors:
        stop = True
        parts.append(f"{len(linted.errors)} error finding{'s' if len(linted.errors) != 1 else ''}")
    device = getattr(server_args, "device", None)
    if device in (None, "cuda"):
        result = check(
            max_used_mib=int(os.environ.get("SPECLINT_MAX_USED_MIB", "500")),
            env=os.environ,
            needed=needed_ordinals(linted.context, _sizes(server_args)),
            wait_s=float(os.environ.get("SPECLINT_WAIT", "0") or 0),
            on_progress=lambda r, left: logger.warning("speclint: %s", progress_line(r, left)),
        )
        text = render_text(result)
        parts.append("GPU preflight " + (text if result.status != "clean" else text.splitlines()[0]))
        stop = stop or result.status in ("busy", "insufficient")
    return stop, "\n".join(parts)
