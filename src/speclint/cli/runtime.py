"""`speclint preflight` and `speclint run`: the runtime checks, right before a launch.

Exit codes: 0 clean (for `run`: the command replaced speclint, its own code follows),
1 busy GPUs, too few GPUs, or (`run`) error findings, 2 cannot tell (no driver, no
nvidia-smi, a failing query) or an internal error; `run` gives 127 when the command is
not found.
"""

from __future__ import annotations

import os
import sys

import click

from speclint.cli.options import model_config_option, sglang_version_option, text_or_json_option
from speclint.preflight.check import BACKENDS, DEFAULT_MAX_USED_MIB

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.preflight.result import PreflightResult
    from speclint.settings.options import LintOptions

EXIT_UNKNOWN = 2

_max_used = click.option(
    "--max-used-mib",
    type=click.IntRange(min=0),
    default=DEFAULT_MAX_USED_MIB,
    show_default=True,
    envvar="SPECLINT_MAX_USED_MIB",
    help="A GPU using more memory than this is busy (env SPECLINT_MAX_USED_MIB).",
)
_wait = click.option(
    "--wait",
    "wait_s",
    type=click.FloatRange(min=0),
    default=0,
    metavar="SECONDS",
    help="Poll for up to SECONDS while GPUs are busy (e.g. a killed server still releasing memory).",
)
_backend = click.option(
    "--backend",
    type=click.Choice(BACKENDS),
    default=None,
    envvar="SPECLINT_GPU_BACKEND",
    help="How GPUs are read: NVML, else nvidia-smi (auto, the default).",
)


def _progress(result: PreflightResult, seconds_left: float) -> None:
    from speclint.preflight.report import progress_line

    click.echo("speclint: " + progress_line(result, seconds_left), err=True)


@click.command("preflight", short_help="Check that the GPUs are free before a launch.")
@click.option(
    "--gpus",
    metavar="LIST",
    help="Check these GPUs (nvidia-smi indices or GPU- UUIDs, comma-separated) "
    "instead of those CUDA_VISIBLE_DEVICES leaves visible.",
)
@click.option(
    "--needed",
    type=click.IntRange(min=1),
    metavar="N",
    help="The launch uses the first N visible GPUs (default: check all visible).",
)
@_max_used
@_wait
@_backend
@text_or_json_option()
def preflight_command(
    gpus: str | None,
    needed: int | None,
    max_used_mib: int,
    wait_s: float,
    backend: str | None,
    output_format: str,
) -> None:
    """Check that GPUs are free before a launch: memory used and compute processes.

    Exit 0 clean, 1 busy or too few GPUs, 2 cannot tell (no driver or nvidia-smi).
    Never kills anything; a busy report prints the `kill` command for those pids only.
    """
    from speclint.preflight import check
    from speclint.preflight.report import render_json, render_text

    result = check(
        gpus=gpus,
        max_used_mib=max_used_mib,
        needed=needed,
        wait_s=wait_s,
        backend=backend,
        on_progress=_progress if wait_s else None,
    )
    click.echo(render_json(result) if output_format == "json" else render_text(result))
    sys.exit(result.exit_code)


@click.command(
    "run",
    short_help="Lint a launch, check its GPUs, then exec it.",
    context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False},
)
@_max_used
@_wait
@_backend
@sglang_version_option("SGLang release to lint against (default: the newest bundled).", checked=False)
@click.option(
    "--allow-unknown",
    is_flag=True,
    help="Launch even when the GPUs cannot be read (no driver, no nvidia-smi).",
)
@model_config_option(checked=False)
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
def run_command(
    max_used_mib: int,
    wait_s: float,
    backend: str | None,
    sglang_version: str | None,
    allow_unknown: bool,
    model_configs: tuple[str, ...],
    command: tuple[str, ...],
) -> None:
    """Lint a launch command, check its GPUs are free, then exec it.

    speclint run [OPTIONS] -- python -m sglang.launch_server --model-path M --tp 8

    Error findings or busy GPUs stop it (exit 1, with the report). A command that is not an
    SGLang launch is not linted and runs after the preflight of every visible GPU. The
    configuration of the current folder applies (rules, models, sglang-version), as for
    `check`.
    """
    from speclint.gate.run import run_checked

    argv = list(command)
    options = _lint_options(sglang_version, model_configs)
    run_checked(argv, options, max_used_mib, wait_s, backend, allow_unknown, _progress if wait_s else None)


def _lint_options(sglang_version: str | None, model_configs: tuple[str, ...]) -> LintOptions:
    """What `check` would use for a file in the current folder: its configuration file
    (select, ignore, models, sglang-version) under the command line's options."""
    from speclint.cli.options import parse_model_configs, validate_version
    from speclint.settings.errors import ConfigError
    from speclint.settings.files import SettingsFinder
    from speclint.settings.merge import CommandLine, options_for

    try:
        version = validate_version(None, None, sglang_version)
        pairs = parse_model_configs(None, None, model_configs)
    except click.BadParameter as error:
        _say(f"error: {error.message}")
        sys.exit(EXIT_UNKNOWN)
    try:
        settings = SettingsFinder().for_path(os.path.join(os.getcwd(), "command-line"))
    except ConfigError as error:
        _say(f"error: {error}")
        sys.exit(EXIT_UNKNOWN)
    return options_for("<command line>", CommandLine(sglang_version=version, model_configs=pairs), settings)


def _say(message: str) -> None:
    click.echo(f"speclint: {message}", err=True)
