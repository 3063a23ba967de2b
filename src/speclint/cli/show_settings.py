"""`speclint check --show-settings PATH`: the settings that apply to PATH, each with where it
came from (the command line, a configuration file, or the default), as ruff's
`--show-settings` does."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.settings.files import SettingsFinder
    from speclint.settings.merge import CommandLine


def settings_lines(path: str, cli: CommandLine, finder: SettingsFinder) -> list[str]:
    """The report's lines; raises ConfigError when PATH's configuration cannot be read."""
    from speclint.settings.merge import options_for, walk_options

    named = cli.stdin_filename if path == "-" and cli.stdin_filename else path
    settings = finder.for_path(named)
    source = settings.path or "defaults (no configuration file)"
    options = options_for(named, cli, settings)
    walk = walk_options(cli, settings)

    def origin(cli_value: object, file_value: object) -> str | None:
        return (
            "command line" if cli_value else settings.path if file_value not in (None, (), "") else "default"
        )

    lines = [f"Settings for {path}", f"  configuration file: {source}"]
    rows = [
        (
            "select",
            ", ".join(options.selection.select),
            "command line"
            if cli.select
            else settings.path
            if settings.select
            else "default rule set (opt-in rules left out)",
        ),
        (
            "extend-select",
            ", ".join(settings.extend_select + cli.extend_select) or "-",
            origin(cli.extend_select, settings.extend_select),
        ),
        (
            "ignore",
            ", ".join(options.selection.ignore) or "-",
            origin(cli.ignore, settings.ignore + settings.ignores_for(named)),
        ),
        ("fail-on", cli.fail_on or settings.fail_on or "warning", origin(cli.fail_on, settings.fail_on)),
        (
            "sglang-version",
            cli.sglang_version
            or settings.sglang_version
            or "per launch: image tag, pin, installed sglang, else the newest",
            origin(cli.sglang_version, settings.sglang_version),
        ),
        (
            "models",
            ", ".join(f"{n} = {p}" for n, p in options.model_configs) or "-",
            origin(cli.model_configs, settings.models),
        ),
        ("exclude", ", ".join(walk.exclude), origin(cli.exclude, settings.exclude)),
        (
            "extend-exclude",
            ", ".join(walk.extend_exclude) or "-",
            origin(cli.extend_exclude, settings.extend_exclude),
        ),
        (
            "respect-gitignore",
            str(walk.respect_gitignore).lower(),
            origin(cli.respect_gitignore is not None, settings.respect_gitignore),
        ),
        ("output-format", settings.output_format or "text", origin(None, settings.output_format)),
    ]
    width = max(len(name) for name, _, _ in rows)
    for name, value, where in rows:
        lines.append(f"  {name.ljust(width)}  {value}  [{where}]")
    return lines
