"""Which files configure speclint, and which pyproject.toml may: here, without the settings'
classes, because a replayed run (`speclint.runner.replay`) looks for the configuration that
sets its cache folder before anything else is imported."""

from __future__ import annotations

CONFIG_NAMES = (".speclint.toml", "speclint.toml", "pyproject.toml")


def may_configure_speclint(data: bytes) -> bool:
    """Whether a pyproject.toml's bytes can hold a `[tool.speclint]` table: a TOML key says
    `speclint` as written, or through an escape (`\\u`) in a quoted key. One that cannot is
    not parsed (TOML costs a tenth of a one-file run in imports), valid or not: it is another
    tool's configuration."""
    return b"speclint" in data or b"\\u" in data or b"\\U" in data
