"""What several commands' options share: the options themselves (`--sglang-version`,
`--model-config`, a text-or-JSON `--output-format`), the output formats, and the checks of
an SGLang version and of `--model-config NAME=PATH` (click callbacks, also called by
`speclint run`)."""

from __future__ import annotations

import click

from speclint.cli.plain import FORMATS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from click.decorators import FC

__all__ = [
    "FORMATS",
    "model_config_option",
    "parse_model_configs",
    "sglang_version_option",
    "text_or_json_option",
    "validate_version",
]


def sglang_version_option(purpose: str, *, checked: bool = True) -> Callable[[FC], FC]:
    """`--sglang-version VERSION` (`purpose`: its help); `checked`: click rejects a value that is
    not a version (`speclint run` checks it itself, after its own options)."""
    return click.option(
        "--sglang-version", callback=validate_version if checked else None, metavar="VERSION", help=purpose
    )


def model_config_option(*, checked: bool = True) -> Callable[[FC], FC]:
    """`--model-config NAME=PATH`, repeatable; `checked`: click parses the pairs."""
    return click.option(
        "--model-config",
        "model_configs",
        multiple=True,
        metavar="NAME=PATH",
        callback=parse_model_configs if checked else None,
        help="Where the config.json of model NAME is (a folder or a file); repeatable.",
    )


def text_or_json_option() -> Callable[[FC], FC]:
    """`--output-format text|json` of the commands that print one report."""
    return click.option(
        "--output-format", type=click.Choice(["text", "json"]), default="text", show_default=True
    )


def validate_version(
    ctx: click.Context | None, param: click.Parameter | None, value: str | None
) -> str | None:
    """`--sglang-version`/`--compare`: an SGLang version, without a leading `v`."""
    if value is None:
        return None
    from speclint.sglang.flags.versions import version_key

    if version_key(value)[0] < 0:
        raise click.BadParameter(f"{value!r} is not an SGLang version (expected e.g. 0.5.23)")
    return value.lstrip("v")


def parse_model_configs(
    ctx: click.Context | None, param: click.Parameter | None, values: Sequence[str]
) -> tuple[tuple[str, str], ...]:
    """`--model-config NAME=PATH`, repeatable: the pairs in order."""
    pairs: list[tuple[str, str]] = []
    for value in values:
        name, sep, path = value.partition("=")
        if not sep or not name or not path:
            raise click.BadParameter(f"{value!r}: expected NAME=PATH")
        pairs.append((name, path))
    return tuple(pairs)
