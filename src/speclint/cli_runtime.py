"""`speclint preflight` and `speclint run`: the runtime checks, right before a launch.

Exit codes: 0 clean (for `run`: the command replaced speclint, its own code follows),
1 busy GPUs, too few GPUs, or (`run`) error findings, 2 cannot tell (no driver, no
nvidia-smi, a failing query) or an internal error; `run` gives 127 when the command is
not found.
"""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from typing import TYPE_CHECKING

import click

from speclint.preflight.check import BACKENDS, DEFAULT_MAX_USED_MIB

if TYPE_CHECKING:
    from speclint.lint import LintOptions
    from speclint.preflight.result import PreflightResult

EXIT_CLEAN, EXIT_BUSY, EXIT_UNKNOWN, EXIT_NOT_FOUND = 0, 1, 2, 127
RUN_CHECKED_VAR = "SPECLINT_RUN_CHECKED"
"""Set to speclint's pid before `run` execs the command (the pid does not change): the
SGLang plugin in that process then knows the checks already ran."""

_max_used = click.option("--max-used-mib", type=click.IntRange(min=0), default=DEFAULT_MAX_USED_MIB,
                         show_default=True, envvar="SPECLINT_MAX_USED_MIB",
                         help="A GPU using more memory than this is busy (env SPECLINT_MAX_USED_MIB).")
_wait = click.option("--wait", "wait_s", type=click.FloatRange(min=0), default=0, metavar="SECONDS",
                     help="Poll for up to SECONDS while GPUs are busy (e.g. a killed server "
                          "still releasing memory).")
_backend = click.option("--backend", type=click.Choice(BACKENDS), default=None,
                        envvar="SPECLINT_GPU_BACKEND",
                        help="How GPUs are read: NVML, else nvidia-smi (auto, the default).")


def _progress(result: PreflightResult, seconds_left: float) -> None:
    from speclint.preflight.report import progress_line

    click.echo("speclint: " + progress_line(result, seconds_left), err=True)


@click.command("preflight", short_help="Check that the GPUs are free before a launch.")
@click.option("--gpus", metavar="LIST",
              help="Check these GPUs (nvidia-smi indices or GPU- UUIDs, comma-separated) "
                   "instead of those CUDA_VISIBLE_DEVICES leaves visible.")
@click.option("--needed", type=click.IntRange(min=1), metavar="N",
              help="The launch uses the first N visible GPUs (default: check all visible).")
@_max_used
@_wait
@_backend
@click.option("--output-format", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
def preflight_command(gpus: str | None, needed: int | None, max_used_mib: int, wait_s: float,
                      backend: str | None, output_format: str) -> None:
    """Check that GPUs are free before a launch: memory used and compute processes.

    Exit 0 clean, 1 busy or too few GPUs, 2 cannot tell (no driver or nvidia-smi).
    Never kills anything; a busy report prints the `kill` command for those pids only.
    """
    from speclint.preflight import check
    from speclint.preflight.report import render_json, render_text

    result = check(gpus=gpus, max_used_mib=max_used_mib, needed=needed, wait_s=wait_s,
                   backend=backend, on_progress=_progress if wait_s else None)
    click.echo(render_json(result) if output_format == "json" else render_text(result))
    sys.exit(result.exit_code)


@click.command("run", short_help="Lint a launch, check its GPUs, then exec it.",
               context_settings={"ignore_unknown_options": True,
                                        "allow_interspersed_args": False})
@_max_used
@_wait
@_backend
@click.option("--sglang-version", metavar="VERSION",
              help="SGLang release to lint against (default: the newest bundled).")
@click.option("--allow-unknown", is_flag=True,
              help="Launch even when the GPUs cannot be read (no driver, no nvidia-smi).")
@click.option("--model-config", "model_configs", multiple=True, metavar="NAME=PATH",
              help="Where the config.json of model NAME is (a folder or a file); repeatable.")
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
def run_command(max_used_mib: int, wait_s: float, backend: str | None, sglang_version: str | None,
                allow_unknown: bool, model_configs: tuple[str, ...], command: tuple[str, ...]
                ) -> None:
    """Lint a launch command, check its GPUs are free, then exec it.

    speclint run [OPTIONS] -- python -m sglang.launch_server --model-path M --tp 8

    Error findings or busy GPUs stop it (exit 1, with the report). A command that is not an
    SGLang launch is not linted and runs after the preflight of every visible GPU. The
    configuration of the current folder applies (rules, models, sglang-version), as for
    `check`.
    """
    from speclint.preflight import check
    from speclint.preflight.launch import lint_argv, needed_ordinals
    from speclint.preflight.report import render_text
    from speclint.report.text import render_findings

    argv = list(command)
    options = _lint_options(sglang_version, model_configs)
    try:
        from speclint.preflight.profile import visible_profile

        options = replace(options, gpu=visible_profile(os.environ))  # the GPUs NVML sees
        linted = lint_argv(argv, os.environ, options)
    except Exception as error:  # a speclint bug: say so, launch nothing
        _say(f"internal error while linting the command ({type(error).__name__}: {error}); "
             "please report it")
        sys.exit(EXIT_UNKNOWN)
    if linted.entry is None:
        _say("note: not an SGLang launch (python -m sglang.launch_server, sglang serve): not "
             "linted; the preflight checks every visible GPU")
    elif linted.result.findings:
        click.echo(render_findings([linted.result]).rstrip(), err=True)
    errors = linted.errors
    if errors:
        _say(f"not launching: {len(errors)} error finding{'s' if len(errors) != 1 else ''} above")
        sys.exit(EXIT_BUSY)

    ordinals = needed_ordinals(linted.context)
    result = check(max_used_mib=max_used_mib, env=linted.env, needed=ordinals, wait_s=wait_s,
                   backend=backend, on_progress=_progress if wait_s else None)
    report = render_text(result)
    if result.status in ("busy", "insufficient") or (result.status == "unknown"
                                                     and not allow_unknown):
        click.echo(report, err=True)
        hint = " (--allow-unknown launches anyway)" if result.status == "unknown" else ""
        _say(f"not launching: GPUs {result.status}{hint}")
        sys.exit(result.exit_code)
    _say("preflight " + report.splitlines()[0])
    _exec(argv)


def _lint_options(sglang_version: str | None, model_configs: tuple[str, ...]) -> LintOptions:
    """What `check` would use for a file in the current folder: its configuration file
    (select, ignore, models, sglang-version) under the command line's options."""
    from speclint.checking import CommandLine, options_for
    from speclint.cli import _parse_model_configs, _validate_version
    from speclint.config import ConfigError, SettingsFinder

    try:
        version = _validate_version(None, None, sglang_version)
        pairs = _parse_model_configs(None, None, model_configs)
    except click.BadParameter as error:
        _say(f"error: {error.message}")
        sys.exit(EXIT_UNKNOWN)
    try:
        settings = SettingsFinder().for_path(os.path.join(os.getcwd(), "command-line"))
    except ConfigError as error:
        _say(f"error: {error}")
        sys.exit(EXIT_UNKNOWN)
    return options_for("<command line>", CommandLine(sglang_version=version, model_configs=pairs),
                       settings)


def _say(message: str) -> None:
    click.echo(f"speclint: {message}", err=True)


def _exec(argv: list[str]) -> None:
    """Replace this process with the command: same pid and environment, so signals sent to
    it reach the server directly."""
    env = dict(os.environ)
    env[RUN_CHECKED_VAR] = str(os.getpid())
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execvpe(argv[0], argv, env)
    except FileNotFoundError:
        _say(f"{argv[0]}: command not found")
        sys.exit(EXIT_NOT_FOUND)
    except OSError as error:
        _say(f"cannot run {argv[0]}: {error.strerror or error}")
        sys.exit(EXIT_NOT_FOUND if error.errno == 2 else 126)
