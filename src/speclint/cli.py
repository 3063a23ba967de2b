"""The `speclint` command. Exit codes: 0 clean, 1 findings at or above --fail-on, 2 usage,
config or internal error (other files are still linted)."""

from __future__ import annotations

import sys

import click

from speclint import __version__

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
FORMATS = ["text", "concise", "json", "json-lines", "sarif", "github", "gitlab", "junit"]


def _render(output_format: str, results, unreadable: int = 0) -> str:
    if output_format == "text":
        from speclint.report.text import render_findings, render_summary

        body = render_findings(results)
        return (body + "\n" if body else "") + render_summary(results, unreadable)
    if output_format == "json":
        from speclint.report.json_format import render_json

        return render_json(results)
    from speclint.report import formats

    return getattr(formats, "render_" + output_format.replace("-", "_"))(results)


class _DefaultToCheck(click.Group):
    """`speclint launch.sh` means `speclint check launch.sh`, as `ruff x.py` once meant `ruff check`."""

    def parse_args(self, ctx, args):
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h", "--version"):
            args = ["check", *args]
        return super().parse_args(ctx, args)


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
@click.version_option(__version__, prog_name="speclint")
def main() -> None:
    """Lint SGLang launch commands in shell scripts before the server starts.

    Run `speclint PATH...` (same as `speclint check PATH...`).
    """


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--output-format", type=click.Choice(FORMATS), default="text",
              show_default=True, envvar="SPECLINT_OUTPUT_FORMAT",
              help="How findings are printed (env SPECLINT_OUTPUT_FORMAT).")
@click.option("-o", "--output-file", type=click.Path(dir_okay=False, writable=True),
              help="Write the findings to this file instead of standard output.")
@click.option("--select", multiple=True, metavar="CODES",
              help="Only these rules: codes, code prefixes (FLG) or names; comma-separated.")
@click.option("--ignore", multiple=True, metavar="CODES",
              help="Skip these rules: codes, code prefixes or names; comma-separated.")
@click.option("--sglang-version", callback=_validate_version, metavar="VERSION",
              help="SGLang release to check against (default: the launch's image tag, else the newest).")
@click.option("--fail-on", type=click.Choice(["error", "warning", "info"]), default="warning",
              show_default=True, help="Lowest severity that makes the exit code 1.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option("--fix", is_flag=True, help="Apply the fixes that are certain, in place (atomically).")
@click.option("--diff", is_flag=True,
              help="Print the fixes as a unified diff and change nothing (exit 1 if any).")
@click.option("--model-config", "model_configs", multiple=True, metavar="NAME=PATH",
              callback=_parse_model_configs,
              help="Where the config.json of model NAME is (a folder or a file); repeatable.")
def check(paths, output_format, output_file, select, ignore, sglang_version, fail_on, exit_zero,
          fix, diff, model_configs) -> None:
    """Lint launch scripts (files or folders; `-` reads standard input)."""
    from speclint.lint import LintOptions, Selection, iter_lint_paths, lint_path
    from speclint.rules.base import Severity

    options = LintOptions(sglang_version, Selection(_split_keys(select), _split_keys(ignore)),
                          model_configs)
    results, failed, diffs, fixed_count = [], 0, [], 0
    for path, problem in iter_lint_paths(list(paths)):
        if problem:
            _error(f"{path}: {problem}")
            failed += 1
            continue
        if (fix or diff) and path != "-":
            from speclint.fix import fix_path

            result, file_diff, applied, fix_problem = fix_path(path, options, list(paths),
                                                               write=fix and not diff)
            if fix_problem:
                _error(f"{path}: {fix_problem}")
                failed += 1
            if result is None:
                continue
            diffs.append(file_diff)
            fixed_count += applied
            results.append(result)
            continue
        try:
            result = lint_path(path, options)
        except Exception as exc:  # a bug must not stop the other files
            _error(f"{path}: internal error while linting ({type(exc).__name__}: {exc}); "
                   "please report it")
            failed += 1
            continue
        if result.error:
            _error(f"{path}: {result.error}")
            failed += 1
            continue
        results.append(result)

    if diff:
        click.echo("".join(diffs), nl=False)
        click.echo(f"{sum(1 for d in diffs if d)} file(s) would be changed", err=True)
        sys.exit(EXIT_ERROR if failed else (EXIT_FINDINGS if any(diffs) else EXIT_CLEAN))
    if fix and fixed_count:
        click.echo(f"Fixed {fixed_count} finding(s).", err=True)
    text = _render(output_format, results, failed)
    if output_file:
        try:
            with open(output_file, "w", encoding="utf-8") as handle:
                handle.write(text + ("\n" if text else ""))
        except OSError as error:
            _error(f"cannot write {output_file}: {error.strerror or error}")
            sys.exit(EXIT_ERROR)
    elif text:
        click.echo(text)

    threshold = Severity.parse(fail_on)
    has_findings = any(f.severity >= threshold for r in results for f in r.findings)
    if failed:
        sys.exit(EXIT_ERROR)
    sys.exit(EXIT_FINDINGS if has_findings and not exit_zero else EXIT_CLEAN)


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--output-format", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@click.option("--sglang-version", callback=_validate_version, metavar="VERSION",
              help="SGLang release to resolve for (default: the image tag, else the newest).")
@click.option("--model-config", "model_configs", multiple=True, metavar="NAME=PATH",
              callback=_parse_model_configs,
              help="Where the config.json of model NAME is (a folder or a file); repeatable.")
def explain(paths, output_format, sglang_version, model_configs) -> None:
    """Show the configuration SGLang will really run with, and why each value changed."""
    from speclint.lint import LintOptions, Selection, iter_lint_paths, lint_path
    from speclint.report.explain import render_explain_json, render_explain_text

    options = LintOptions(sglang_version, Selection(select=("NONE",)), model_configs)
    contexts, failed = [], False
    for path, problem in iter_lint_paths(list(paths)):
        result = None if problem else lint_path(path, options)
        if problem or result.error:
            _error(f"{path}: {problem or result.error}")
            failed = True
            continue
        contexts.extend(result.contexts)
    click.echo(render_explain_json(contexts) if output_format == "json"
               else render_explain_text(contexts).rstrip())
    sys.exit(EXIT_ERROR if failed else EXIT_CLEAN)


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
