"""A launch's `--config FILE.yaml` as read (`speclint.frontends.manifests.sglang_config`):
its entries, and where each key and value is written in that file."""

from __future__ import annotations

from dataclasses import field

from speclint.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span


@dataclass(frozen=True, slots=True)
class ConfigEntry:
    """One `key: value` of an SGLang `--config` YAML file, with where each is written."""

    key: str
    key_span: Span
    value: object
    """The value as `yaml.safe_load` constructs it (what SGLang's merger sees)."""
    value_span: Span
    item_spans: tuple[Span, ...] = ()
    """For a list: where each item is written."""
    problem: str | None = None
    """Why the value cannot be known (too large, a recursive alias)."""


@dataclass(slots=True)
class ConfigFile:
    """An SGLang `--config` file a launch names, as SGLang's merger reads it."""

    path: str
    """The file as shown in findings."""
    entries: list[ConfigEntry] = field(default_factory=list)
    problem: str | None = None
    """Why the file could not be read as SGLang reads it (then no entry is known)."""
    problem_span: Span | None = None
