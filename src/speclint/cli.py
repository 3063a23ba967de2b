"""The `speclint` command. Exit codes: 0 clean, 1 findings at or above --fail-on, 2 usage,
config or internal error (other files are still linted)."""

from __future__ import annotations

import sys

import click

from speclint import __version__

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
FORMATS = ["text", "concise", "json", "json-lines", "sarif", "github", "gitlab", "junit"]


class _DefaultToCheck(click.Group):
    """`speclint launch.sh` means `speclint check launch.sh`, as `ruff x.py` once meant `ruff check`."""

    _LAZY = {"preflight": ("cli_runtime", "preflight_command"),
             "run": ("cli_runtime", "run_command"), "server": ("lsp.command", "server_command")}
    """Commands imported only when used: the runtime checks cost 5 ms of imports, the
    language server its protocol library."""

    def parse_args(self, ctx, args):
        if (args and args[0] not in self.commands and args[0] not in self._LAZY
                and args[0] not in ("--help", "-h", "--version")):
            args = ["check", *args]
        return super().parse_args(ctx, args)

    def list_commands(self, ctx):
        return sorted([*self.commands, *self._LAZY])

    def get_command(self, ctx, name):
        if name in self._LAZY and name not in self.commands:
            import importlib

            module, attribute = self._LAZY[name]
            self.add_command(getattr(importlib.import_module(f"speclint.{module}"), attribute),
                             name)
        return super().get_command(ctx, name)


def _print_version(ctx, param, value) -> None:
    """`speclint --version`: speclint's own version and the SGLang releases it bundles (read
    only when asked: the release list is package data)."""
    if not value or ctx.resilient_parsing:
        return
    from speclint.flags.schema import newest_version, supported_versions

    releases = supported_versions()
    click.echo(f"speclint {__version__} (SGLang {releases[0]} to {newest_version()}, "
               f"{len(releases)} releases)")
    ctx.exit(0)


def _split_keys(values: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(key.strip() for value in values for key in value.split(",") if key.strip())


def _validate_version(ctx, param, value):
    if value is None:
        return None
    from speclint.flags.versions import version_key

    if version_key(value)[0] < 0:
        raise click.BadParameter(f"{value!r} is not an SGLang version (expected e.g. 0.5.23)")
    return value.lstrip("v")


def _parse_model_configs(ctx, param, values):
    pairs = []
    for value in values:
        name, sep, path = value.partition("=")
        if not sep or not name or not path:
            raise click.BadParameter(f"{value!r}: expected NAME=PATH")
        pairs.append((name, path))
    return tuple(pairs)


def _error(message: str) -> None:
    click.echo(f"speclint: error: {message}", err=True)


@click.group(cls=_DefaultToCheck, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=_print_version, help="Show speclint's version and the SGLang releases "
                                             "it knows, then exit.")
def main() -> None:
    """Lint SGLang launch commands in shell scripts before the server starts.

    Run `speclint PATH...` (same as `speclint check PATH...`).
    """


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--output-format", type=click.Choice(FORMATS), default=None,
              envvar="SPECLINT_OUTPUT_FORMAT",
              help="How findings are printed: text (default), "
                   + ", ".join(FORMATS[1:]) + " (env SPECLINT_OUTPUT_FORMAT).")
@click.option("-o", "--output-file", type=click.Path(dir_okay=False, writable=True),
              help="Write the findings to this file instead of standard output.")
@click.option("--select", multiple=True, metavar="CODES",
              help="Only these rules: codes, code prefixes (FLG) or names; comma-separated.")
@click.option("--ignore", multiple=True, metavar="CODES",
              help="Skip these rules: codes, code prefixes or names; comma-separated.")
@click.option("--sglang-version", callback=_validate_version, metavar="VERSION",
              help="SGLang release to check against (default: the launch's image tag, else the newest).")
@click.option("--fail-on", type=click.Choice(["error", "warning", "info"]), default=None,
              help="Lowest severity that makes the exit code 1 (default: warning).")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option("--fix", is_flag=True, help="Apply the fixes that are certain, in place (atomically).")
@click.option("--diff", is_flag=True,
              help="Print the fixes as a unified diff and change nothing (exit 1 if any).")
@click.option("--model-config", "model_configs", multiple=True, metavar="NAME=PATH",
              callback=_parse_model_configs,
              help="Where the config.json of model NAME is (a folder or a file); repeatable.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False),
              help="Use this configuration file for every linted file.")
@click.option("--isolated", is_flag=True, help="Ignore all configuration files.")
@click.option("--no-cache", is_flag=True, help="Lint every file again; read and write no cache.")
@click.option("--cache-dir", type=click.Path(file_okay=False), envvar="SPECLINT_CACHE_DIR",
              help="Where results are kept for re-runs (default .speclint_cache; env "
                   "SPECLINT_CACHE_DIR).")
def check(paths, output_format, output_file, select, ignore, sglang_version, fail_on, exit_zero,
          fix, diff, model_configs, config_file, isolated, no_cache, cache_dir) -> None:
    """Lint launch scripts (files or folders; `-` reads standard input)."""
    from speclint.checking import CommandLine, check_paths
    from speclint.config import ConfigError, SettingsFinder

    try:
        finder = SettingsFinder(config_file, isolated)
        here = finder.for_path("-")  # the working folder's configuration
        if output_format is None and not isolated:
            output_format = here.output_format
        if cache_dir is None:
            from speclint.runner.cache import DEFAULT_DIR

            cache_dir = here.cache_dir or DEFAULT_DIR
    except ConfigError as error:
        _error(str(error))
        sys.exit(EXIT_ERROR)
    if output_format not in FORMATS:
        if output_format is not None:
            _error(f"output-format {output_format!r} in the configuration is not one of "
                   + ", ".join(FORMATS))
            sys.exit(EXIT_ERROR)
        output_format = "text"
    cli = CommandLine(_split_keys(select), _split_keys(ignore), sglang_version, fail_on,
                      model_configs, cache_dir=None if no_cache else cache_dir)
    if diff:
        outcome = check_paths(list(paths), cli, finder, fix, diff, keep_contexts=False)
        for message in outcome.errors:
            _error(message)
        click.echo("".join(outcome.diffs), nl=False)
        click.echo(f"{sum(1 for d in outcome.diffs if d)} file(s) would be changed", err=True)
        sys.exit(EXIT_ERROR if outcome.errors else
                 (EXIT_FINDINGS if any(outcome.diffs) else EXIT_CLEAN))
    from speclint.report.output import OutputError, open_output

    try:
        out = open_output(output_file)  # before linting: a bad -o path fails at once
    except OutputError as error:
        _error(str(error))
        sys.exit(EXIT_ERROR)
    try:
        failed, failing = _report(list(paths), cli, finder, fix, output_format, out)
        out.commit()
    except OutputError as error:
        out.discard()
        _error(str(error))
        sys.exit(EXIT_ERROR)
    except (BrokenPipeError, KeyboardInterrupt):
        out.discard()  # the reader of the pipe left, or Ctrl-C: click exits; no half report
        raise
    except Exception as exc:  # a bug outside any one file: a message, never a traceback
        out.discard()
        _error(f"internal error ({type(exc).__name__}: {exc}); please report it")
        sys.exit(EXIT_ERROR)
    if failed:
        sys.exit(EXIT_ERROR)
    sys.exit(EXIT_FINDINGS if failing and not exit_zero else EXIT_CLEAN)


def _report(paths, cli, finder, fix: bool, output_format: str, out) -> tuple[int, bool]:
    """Lint and write the report as results arrive; (files not linted, any finding at or above
    its file's --fail-on). Errors go to standard error as they come."""
    from speclint.checking import check_paths, stream_paths
    from speclint.report.stream import reporter_for
    from speclint.rules.base import Severity

    if fix:  # fixing needs each file's whole result: collected first, as before
        outcome = check_paths(paths, cli, finder, fix=True, keep_contexts=False)
        for message in outcome.errors:
            _error(message)
        if outcome.fixed:
            click.echo(f"Fixed {outcome.fixed} finding(s).", err=True)
        items = [(result, outcome.fail_on[result.path]) for result in outcome.results]
        failed = len(outcome.errors)
    else:
        items, failed = stream_paths(paths, cli, finder), 0
    reporter = reporter_for(output_format, out)
    reporter.start()
    failing = False
    try:
        for item in items:
            if isinstance(item, str):
                _error(item)
                failed += 1
                continue
            result, fail_on = item
            reporter.file(result)
            if not failing and result.findings:
                least = Severity.parse(fail_on)
                failing = any(f.severity >= least for f in result.findings)
    finally:
        if not isinstance(items, list):
            items.close()  # on an early stop, the worker processes stop now
    reporter.finish(failed)
    return failed, failing


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--output-format", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@click.option("--sglang-version", callback=_validate_version, metavar="VERSION",
              help="SGLang release to resolve for (default: the image tag, else the newest).")
@click.option("--model-config", "model_configs", multiple=True, metavar="NAME=PATH",
              callback=_parse_model_configs,
              help="Where the config.json of model NAME is (a folder or a file); repeatable.")
@click.option("--compare", callback=_validate_version, metavar="VERSION",
              help="Also resolve for this SGLang release and show every effective value "
                   "that differs.")
@click.option("--gpu", metavar="PROFILE",
              help="The GPU SGLang runs on (h100, h200, h20, b200, gb200, a100, l40s, "
                   "rtx6000-ada, mi300x, mi355x, ...): predicts the GPU-dependent fields.")
@click.option("--gpus", type=click.IntRange(min=1), metavar="N",
              help="GPUs per node with --gpu (default 8).")
def explain(paths, output_format, sglang_version, model_configs, compare, gpu, gpus) -> None:
    """Show the configuration SGLang will really run with, and why each value changed."""
    from speclint.checking import CommandLine, check_paths
    from speclint.config import ConfigError, SettingsFinder
    from speclint.report.explain import render_explain_json, render_explain_text

    try:
        finder = SettingsFinder()
    except ConfigError as error:
        _error(str(error))
        sys.exit(EXIT_ERROR)
    profile = _gpu_profile(gpu, gpus)
    # no rule needs to run: explain only reads the resolved launches
    cli = CommandLine(select=("NONE",), sglang_version=sglang_version, model_configs=model_configs,
                      gpu=profile)
    outcome = check_paths(list(paths), cli, finder)
    for message in outcome.errors:
        _error(message)
    failed = bool(outcome.errors)
    contexts = [ctx for result in outcome.results for ctx in result.contexts]
    if compare:
        from speclint.report.explain import render_compare_json, render_compare_text

        from speclint.lint import LintOptions, analyse_launch

        again = LintOptions(compare, model_configs=model_configs,  # same launches, other release
                            gpu=profile)
        pairs = [(ctx, analyse_launch(ctx.path, ctx.launch, again)) for ctx in contexts]
        click.echo(render_compare_json(pairs) if output_format == "json"
                   else render_compare_text(pairs).rstrip())
        sys.exit(EXIT_ERROR if failed else EXIT_CLEAN)
    click.echo(render_explain_json(contexts) if output_format == "json"
               else render_explain_text(contexts).rstrip())
    sys.exit(EXIT_ERROR if failed else EXIT_CLEAN)


def _gpu_profile(gpu: str | None, gpus: int | None):
    """The `GpuProfile` of `--gpu`/`--gpus`; exit 2 for a name no profile has."""
    if gpu is None:
        if gpus is not None:
            _error("--gpus needs --gpu PROFILE (which GPU)")
            sys.exit(EXIT_ERROR)
        return None
    from speclint.resolve.gpu_profiles import parse_gpu_setting, profile_names

    found = parse_gpu_setting(gpu, gpus)
    if found is None:
        _error(f"--gpu {gpu!r} is not a GPU profile; known: {', '.join(profile_names())}")
        sys.exit(EXIT_ERROR)
    return found


@main.command("rule")
@click.argument("key")
def rule_command(key) -> None:
    """Print a rule's documentation (by code, e.g. SPD001, or name)."""
    from speclint.rules import rule_by_key
    from speclint.rules.base import rule_page

    rule = rule_by_key(key)
    if rule is None:
        _error(f"no rule {key!r}; `speclint rules` lists them")
        sys.exit(EXIT_ERROR)
    click.echo(rule_page(rule).rstrip())


@main.command("rules")
@click.option("--output-format", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
def rules_command(output_format) -> None:
    """List every rule: code, name, severity and what it finds."""
    import json

    from speclint.rules import all_rules
    from speclint.rules.base import rule_page

    rules = all_rules()
    if output_format == "json":
        click.echo(json.dumps([{"code": r.code, "name": r.name, "severity": r.severity.label,
                                "summary": r.summary, "doc": rule_page(r)} for r in rules],
                              indent=2))
        return
    width = max(len(r.name) for r in rules)
    for r in rules:
        click.echo(f"{r.code}  {r.name.ljust(width)}  {r.severity.label.ljust(7)}  {r.summary}")


if __name__ == "__main__":
    main()
