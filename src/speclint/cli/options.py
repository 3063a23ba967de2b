"""What several commands' options share: the output formats, and the checks of an SGLang
version and of `--model-config NAME=PATH` (click callbacks, also called by `speclint run`)."""

from __future__ import annotations

import click

from speclint.cli.plain import FORMATS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["FORMATS", "parse_model_configs", "validate_version"]


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
