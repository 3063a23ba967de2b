"""The `speclint` command. Exit codes: 0 clean, 1 findings at or above --fail-on, 2 usage,
config or internal error (other files are still linted)."""

from __future__ import annotations

import sys

import click

from speclint import __version__
from speclint.cli.options import (
    FORMATS,
    model_config_option,
    sglang_version_option,
    text_or_json_option,
    validate_version,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.gpu_profiles import GpuProfile

EXIT_CLEAN, EXIT_ERROR = 0, 2


class _DefaultToCheck(click.Group):
    """`speclint launch.sh` means `speclint check launch.sh`, as `ruff x.py` once meant `ruff check`."""

    _LAZY = {
        "preflight": ("cli.runtime", "preflight_command"),
        "run": ("cli.runtime", "run_command"),
        "server": ("lsp.command", "server_command"),
    }
    """Commands imported only when used: the runtime checks cost 5 ms of imports, the
    language server its protocol library."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if (
            args
            and args[0] not in self.commands
            and args[0] not in self._LAZY
            and args[0] not in ("--help", "-h", "--version")
        ):
            args = ["check", *args]
        return super().parse_args(ctx, args)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*self.commands, *self._LAZY])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self._LAZY and name not in self.commands:
            import importlib

            module, attribute = self._LAZY[name]
            self.add_command(getattr(importlib.import_module(f"speclint.{module}"), attribute), name)
        return super().get_command(ctx, name)


def _print_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    """`speclint --version`: speclint's own version and the SGLang releases it bundles (read
    only when asked: the release list is package data)."""
    if not value or ctx.resilient_parsing:
        return
    from speclint.sglang.flags.schema import newest_version, supported_versions

    releases = supported_versions()
    click.echo(
        f"speclint {__version__} (SGLang {releases[0]} to {newest_version()}, {len(releases)} releases)"
    )
    ctx.exit(0)


def _error(message: str) -> None:
    click.echo(f"speclint: error: {message}", err=True)


@click.group(cls=_DefaultToCheck, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_version,
    help="Show speclint's version and the SGLang releases it knows, then exit.",
)
def main() -> None:
    """Lint SGLang launch commands (shell scripts, Python launchers, Kubernetes and compose
    manifests, Markdown) before the server starts.

    Run `speclint PATH...` (same as `speclint check PATH...`).
    """


@main.command(short_help="Lint launch commands in files and folders (the default).")
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "--output-format",
    type=click.Choice(FORMATS),
    default=None,
    envvar="SPECLINT_OUTPUT_FORMAT",
    help="How findings are printed: text (default), "
    + ", ".join(FORMATS[1:])
    + " (env SPECLINT_OUTPUT_FORMAT).",
)
@click.option(
    "-o",
    "--output-file",
    type=click.Path(dir_okay=False, writable=True),
    help="Write the findings to this file instead of standard output.",
)
@click.option(
    "--select",
    multiple=True,
    metavar="CODES",
    help="Only these rules: codes, code prefixes (FLG) or names; comma-separated; ALL for every rule.",
)
@click.option(
    "--extend-select",
    multiple=True,
    metavar="CODES",
    help="These rules on top of the selected ones (e.g. the opt-in FLG003, DRF011).",
)
@click.option(
    "--ignore",
    multiple=True,
    metavar="CODES",
    help="Skip these rules: codes, code prefixes or names; comma-separated.",
)
@sglang_version_option("SGLang release to check against (default: the launch's image tag, else the newest).")
@click.option(
    "--fail-on",
    type=click.Choice(["error", "warning", "info"]),
    default=None,
    help="Lowest severity that makes the exit code 1 (default: warning).",
)
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option(
    "--fix", is_flag=True, help="Apply the safe fixes in place (atomically); with `-`, print the fixed text."
)
@click.option(
    "--unsafe-fixes",
    is_flag=True,
    help="With --fix/--diff, also apply fixes that change what a launch asks for.",
)
@click.option("--show-fixes", is_flag=True, help="Show the edit each fixable finding carries.")
@click.option(
    "--diff", is_flag=True, help="Print the fixes as a unified diff and change nothing (exit 1 if any)."
)
@click.option(
    "--stdin-filename",
    metavar="PATH",
    help="The name of the file standard input (`-`) holds: its kind, configuration "
    "and the name in the findings.",
)
@model_config_option()
@click.option(
    "--config",
    "config_file",
    type=click.Path(dir_okay=False),
    help="Use this configuration file for every linted file.",
)
@click.option("--isolated", is_flag=True, help="Ignore all configuration files.")
@click.option(
    "--exclude",
    multiple=True,
    metavar="PATTERNS",
    help="Paths folder walks skip (replaces the built-in list); comma-separated.",
)
@click.option(
    "--extend-exclude",
    multiple=True,
    metavar="PATTERNS",
    help="Paths folder walks skip, on top of the others; comma-separated.",
)
@click.option(
    "--respect-gitignore/--no-respect-gitignore",
    default=None,
    help="Skip what .gitignore files ignore in folder walks (default: on).",
)
@click.option("--statistics", is_flag=True, help="Print a count per rule instead of the findings.")
@click.option("-q", "--quiet", is_flag=True, help="Print the findings and nothing else.")
@click.option(
    "--show-settings",
    is_flag=True,
    help="Print the settings for the first PATH, where each comes from, and exit.",
)
@click.option(
    "--color",
    type=click.Choice(["auto", "always", "never"]),
    default="auto",
    show_default=True,
    help="Colour the human formats (auto: on a terminal, unless NO_COLOR is set; FORCE_COLOR forces it).",
)
@click.option(
    "--doc-url-base",
    metavar="URL",
    help="Where rule pages are linked (default: the repository's rules/ at this "
    "version; env SPECLINT_DOCS_URL).",
)
@click.option("--no-cache", is_flag=True, help="Lint every file again; read and write no cache.")
@click.option(
    "--cache-dir",
    type=click.Path(file_okay=False),
    envvar="SPECLINT_CACHE_DIR",
    help="Where results are kept for re-runs (default .speclint_cache; env SPECLINT_CACHE_DIR).",
)
def check(**options: object) -> None:
    """Lint launch commands (files or folders; `-` reads standard input)."""
    from speclint.cli.check import run_check

    sys.exit(run_check(options))


@main.command(short_help="Show the configuration SGLang will really run with.")
@click.argument("paths", nargs=-1, required=True)
@text_or_json_option()
@sglang_version_option("SGLang release to resolve for (default: the image tag, else the newest).")
@model_config_option()
@click.option(
    "--compare",
    callback=validate_version,
    metavar="VERSION",
    help="Also resolve for this SGLang release and show every effective value that differs.",
)
@click.option(
    "--gpu",
    metavar="PROFILE",
    help="The GPU SGLang runs on (h100, h200, h20, b200, gb200, a100, l40s, "
    "rtx6000-ada, mi300x, mi355x, ...): predicts the GPU-dependent fields.",
)
@click.option("--gpus", type=click.IntRange(min=1), metavar="N", help="GPUs per node with --gpu (default 8).")
def explain(
    paths: tuple[str, ...],
    output_format: str,
    sglang_version: str | None,
    model_configs: tuple[tuple[str, str], ...],
    compare: str | None,
    gpu: str | None,
    gpus: int | None,
) -> None:
    """Show the configuration SGLang will really run with, and why each value changed."""
    from speclint.engine import explain_facts
    from speclint.report.explain import render_explain_json, render_explain_text
    from speclint.runner.checking import check_paths
    from speclint.settings.errors import ConfigError
    from speclint.settings.files import SettingsFinder
    from speclint.settings.merge import CommandLine

    try:
        finder = SettingsFinder()
    except ConfigError as error:
        _error(str(error))
        sys.exit(EXIT_ERROR)
    profile = _gpu_profile(gpu, gpus)
    # no rule needs to run: explain only reads the resolved launches
    cli = CommandLine(
        select=("NONE",), sglang_version=sglang_version, model_configs=model_configs, gpu=profile
    )
    outcome = check_paths(list(paths), cli, finder)
    for message in outcome.errors:
        _error(message)
    failed = bool(outcome.errors)
    contexts = [ctx for result in outcome.results for ctx in result.contexts]
    if compare:
        from speclint.engine import analyse_launch
        from speclint.report.explain import render_compare_json, render_compare_text
        from speclint.settings.options import LintOptions

        again = LintOptions(
            compare,
            model_configs=model_configs,  # same launches, other release
            gpu=profile,
        )
        pairs = [(ctx, analyse_launch(ctx.path, ctx.launch, again)) for ctx in contexts]
        for _, other in pairs:
            other.version.reason = other.version.reason.replace("from --sglang-version", "from --compare")
        compared = [((a, explain_facts(a)), (b, explain_facts(b))) for a, b in pairs]
        click.echo(
            render_compare_json(compared)
            if output_format == "json"
            else render_compare_text(compared).rstrip()
        )
        sys.exit(EXIT_ERROR if failed else EXIT_CLEAN)
    views = [(ctx, explain_facts(ctx)) for ctx in contexts]
    click.echo(render_explain_json(views) if output_format == "json" else render_explain_text(views).rstrip())
    sys.exit(EXIT_ERROR if failed else EXIT_CLEAN)


def _gpu_profile(gpu: str | None, gpus: int | None) -> GpuProfile | None:
    """The `GpuProfile` of `--gpu`/`--gpus`; exit 2 for a name no profile has."""
    if gpu is None:
        if gpus is not None:
            _error("--gpus needs --gpu PROFILE (which GPU)")
            sys.exit(EXIT_ERROR)
        return None
    from speclint.sglang.resolve.gpu_profiles import parse_gpu_setting, profile_names

    found = parse_gpu_setting(gpu, gpus)
    if found is None:
        _error(f"--gpu {gpu!r} is not a GPU profile; known: {', '.join(profile_names())}")
        sys.exit(EXIT_ERROR)
    return found


@main.command("rule", short_help="Print a rule's documentation page.")
@click.argument("key")
def rule_command(key: str) -> None:
    """Print a rule's documentation page (KEY: a code such as SPD001, or a name)."""
    from speclint.rules import rule_by_key
    from speclint.rules.pages import rule_page

    rule = rule_by_key(key)
    if rule is None:
        _error(f"no rule {key!r}; `speclint rules` lists them")
        sys.exit(EXIT_ERROR)
    click.echo(rule_page(rule).rstrip())


@main.command("rules")
@text_or_json_option()
def rules_command(output_format: str) -> None:
    """List every rule: code, name, severity and what it finds."""
    import json

    from speclint.rules import all_rules
    from speclint.rules.pages import rule_page

    rules = all_rules()
    if output_format == "json":
        click.echo(
            json.dumps(
                [
                    {
                        "code": r.code,
                        "name": r.name,
                        "severity": r.severity.label,
                        "summary": r.summary,
                        "doc": rule_page(r),
                    }
                    for r in rules
                ],
                indent=2,
            )
        )
        return
    width = max(len(r.name) for r in rules)
    for r in rules:
        click.echo(f"{r.code}  {r.name.ljust(width)}  {r.severity.label.ljust(7)}  {r.summary}")


if __name__ == "__main__":
    main()
