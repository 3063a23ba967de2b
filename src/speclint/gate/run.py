"""`speclint run`: lint a launch command, check its GPUs are free, then exec it in place.

Exit codes: the command's own once it replaced speclint; 1 error findings, busy or too few
GPUs; 2 cannot tell (no driver, no nvidia-smi, a failing query) or an internal error; 127
the command is not found.
"""

from __future__ import annotations

import os
import sys
from dataclasses import replace

import click

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from speclint.preflight.result import PreflightResult
    from speclint.settings.options import LintOptions

EXIT_BUSY, EXIT_UNKNOWN, EXIT_NOT_FOUND = 1, 2, 127
RUN_CHECKED_VAR = "SPECLINT_RUN_CHECKED"
"""Set to speclint's pid before `run` execs the command (the pid does not change): the
SGLang plugin in that process then knows the checks already ran."""


def run_checked(
    argv: list[str],
    options: LintOptions,
    max_used_mib: int,
    wait_s: float,
    backend: str | None,
    allow_unknown: bool,
    on_progress: Callable[[PreflightResult, float], None] | None,
) -> None:
    """Lint `argv` with `options` (the current folder's settings), run the GPU preflight for
    the GPUs it opens, then exec it; exits instead when either says no."""
    from speclint.gate.launch import lint_argv, needed_ordinals
    from speclint.preflight import check
    from speclint.preflight.report import render_text
    from speclint.report.text import render_findings

    try:
        from speclint.preflight.profile import visible_profile

        options = replace(options, gpu=visible_profile(os.environ))  # the GPUs NVML sees
        linted = lint_argv(argv, os.environ, options)
    except Exception as error:  # a speclint bug: say so, launch nothing
        say(f"internal error while linting the command ({type(error).__name__}: {error}); please report it")
        sys.exit(EXIT_UNKNOWN)
    if linted.entry is None:
        say(
            "note: not an SGLang launch (python -m sglang.launch_server, sglang serve): not "
            "linted; the preflight checks every visible GPU"
        )
    elif linted.result.findings:
        click.echo(render_findings([linted.result]).rstrip(), err=True)
    errors = linted.errors
    if errors:
        say(f"not launching: {len(errors)} error finding{'s' if len(errors) != 1 else ''} above")
        sys.exit(EXIT_BUSY)

    ordinals = needed_ordinals(linted.context)
    result = check(
        max_used_mib=max_used_mib,
        env=linted.env,
        needed=ordinals,
        wait_s=wait_s,
        backend=backend,
        on_progress=on_progress,
    )
    report = render_text(result)
    if result.status in ("busy", "insufficient") or (result.status == "unknown" and not allow_unknown):
        click.echo(report, err=True)
        hint = " (--allow-unknown launches anyway)" if result.status == "unknown" else ""
        say(f"not launching: GPUs {result.status}{hint}")
        sys.exit(result.exit_code)
    say("preflight " + report.splitlines()[0])
    exec_command(argv)


def say(message: str) -> None:
    click.echo(f"speclint: {message}", err=True)


def exec_command(argv: list[str]) -> None:
    """Replace this process with the command: same pid and environment, so signals sent to
    it reach the server directly."""
    env = dict(os.environ)
    env[RUN_CHECKED_VAR] = str(os.getpid())
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execvpe(argv[0], argv, env)
    except FileNotFoundError:
        say(f"{argv[0]}: command not found")
        sys.exit(EXIT_NOT_FOUND)
    except OSError as error:
        say(f"cannot run {argv[0]}: {error.strerror or error}")
        sys.exit(EXIT_NOT_FOUND if error.errno == 2 else 126)
