"""`speclint [check] [options] FILE...` read without click, for the lint path's start-up time
(click and what it imports cost about 15 ms of a ~60 ms cold run: a pre-commit hook or an
editor pays that on every save).

Only command lines whose meaning is plain are read here: the options below, written as
`--name value`, `--name=value` or `-q`, and paths. Anything else (another command, `--help`,
an unknown or misspelt option, a value that click must check, such as a path type, a
version, `NAME=PATH`, or an option given through the environment) returns None and goes to
click, which parses it (and reports any mistake) as always. `tests/test_plain_cli.py` holds
the two to the same options on many command lines.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

FORMATS = ("text", "concise", "json", "json-lines", "sarif", "github", "gitlab", "junit")
"""`--output-format`'s choices (click's `check` and `explain --compare` use this list too)."""

_FLAGS = {
    "--exit-zero": "exit_zero",
    "--fix": "fix",
    "--unsafe-fixes": "unsafe_fixes",
    "--show-fixes": "show_fixes",
    "--diff": "diff",
    "--isolated": "isolated",
    "--statistics": "statistics",
    "-q": "quiet",
    "--quiet": "quiet",
    "--show-settings": "show_settings",
    "--no-cache": "no_cache",
}
_SWITCHES = {
    "--respect-gitignore": ("respect_gitignore", True),
    "--no-respect-gitignore": ("respect_gitignore", False),
}
_REPEATED = {
    "--select": "select",
    "--extend-select": "extend_select",
    "--ignore": "ignore",
    "--exclude": "exclude",
    "--extend-exclude": "extend_exclude",
}
_CHOICES: dict[str, tuple[str, tuple[str, ...]]] = {
    "--output-format": ("output_format", FORMATS),
    "--fail-on": ("fail_on", ("error", "warning", "info")),
    "--color": ("color", ("auto", "always", "never")),
}
_TEXT = {"--doc-url-base": "doc_url_base", "--stdin-filename": "stdin_filename"}
_ENVIRONMENT = ("SPECLINT_OUTPUT_FORMAT", "SPECLINT_CACHE_DIR")
"""Variables click reads for `check`'s options: a command line under them goes to click."""
_OTHER_COMMANDS = frozenset({"explain", "rule", "rules", "preflight", "run", "server"})


def defaults() -> dict[str, Any]:
    """`check`'s options as click gives them when none is written."""
    options: dict[str, Any] = dict.fromkeys(_FLAGS.values(), False)
    options.update(dict.fromkeys(_REPEATED.values(), ()))
    options.update(dict.fromkeys(_TEXT.values()))
    options.update(
        paths=(),
        output_format=None,
        fail_on=None,
        color="auto",
        respect_gitignore=None,
        output_file=None,
        sglang_version=None,
        model_configs=(),
        config_file=None,
        cache_dir=None,
    )
    return options


def check_options(argv: Sequence[str], environ: Mapping[str, str]) -> dict[str, Any] | None:
    """The options click would give `check` for `speclint ARGV`, or None when the command line
    is not plain (click then reads it)."""
    if any(name in environ for name in _ENVIRONMENT):
        return None
    args = list(argv)
    if args and args[0] == "check":
        args = args[1:]
    elif args and args[0] in _OTHER_COMMANDS:
        return None
    options = defaults()
    paths: list[str] = []
    repeated: dict[str, list[str]] = {}
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if arg == "--":
            paths.extend(args[index:])
            break
        if not arg.startswith("-") or arg == "-":
            paths.append(arg)
            continue
        name, equals, value = arg.partition("=")
        if name in _FLAGS or name in _SWITCHES:
            if equals:
                return None
            key, setting = _SWITCHES.get(name, (_FLAGS.get(name, ""), True))
            options[key] = setting
            continue
        if not equals:
            if index >= len(args) or args[index].startswith("-"):
                return None
            value = args[index]
            index += 1
        if name in _REPEATED:
            repeated.setdefault(_REPEATED[name], []).append(value)
        elif name in _CHOICES:
            key, allowed = _CHOICES[name]
            if value not in allowed:
                return None
            options[key] = value
        elif name in _TEXT:
            options[_TEXT[name]] = value
        else:
            return None
    if not paths:
        return None
    options["paths"] = tuple(paths)
    for key, values in repeated.items():
        options[key] = tuple(values)
    return options
