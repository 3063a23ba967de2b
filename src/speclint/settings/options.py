"""The options one lint runs with: rule selection, SGLang version, model mapping, GPU, and what
folder walks skip. Built once (`speclint.settings.merge`) from configuration files and the
command line; the pipeline (`speclint.engine`) and the runner only receive them."""

from __future__ import annotations

import fnmatch
from functools import cache

from speclint.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from speclint.rules.base import Rule
    from speclint.sglang.resolve.gpu_profiles import GpuProfile


@dataclass(frozen=True, slots=True)
class Selection:
    """Which rules run: `select` and `ignore` entries are codes, code prefixes or names."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()

    @staticmethod
    def _matches(rule: Rule, key: str) -> bool:
        key = key.strip()
        return key.lower() == rule.name or rule.code.upper().startswith(key.upper()) or key.upper() == "ALL"

    def _any(self, rule: Rule, keys: tuple[str, ...]) -> bool:
        # a rule's own code among the keys (the default selection is every default code) is
        # the common case: a tuple lookup instead of matching each key
        return rule.code in keys or any(self._matches(rule, key) for key in keys)

    def enabled(self, rule: Rule) -> bool:
        if self.select and not self._any(rule, self.select):
            return False
        return not (self.ignore and self._any(rule, self.ignore))


@dataclass(frozen=True, slots=True)
class LintOptions:
    """Everything one lint runs with, built once from configuration and command line."""

    sglang_version: str | None = None
    selection: Selection = Selection()
    model_configs: tuple[tuple[str, str], ...] = ()
    """`--model-config NAME=PATH` pairs: where to find the config.json of a model the
    launch names (a folder or a config.json)."""
    configured_version: str | None = None
    """`sglang-version` from a configuration file (below --sglang-version, above image tags)."""
    stdin_filename: str | None = None
    """`--stdin-filename`: standard input is read with this file's front-end and reported
    under its name."""
    flag_prefixes: tuple[tuple[str, str], ...] | None = None
    """`[tool.speclint] flag-prefixes`: (framework, prefix) pairs over the defaults
    (`speclint.frontends.manifests.prefixed`); an empty prefix turns one off."""
    read_pyproject: bool = True
    """Read `[tool.speclint] models` from the configuration closest to the file (the API
    default; only read when a launch names a model). The CLI applies configuration files
    itself and turns this off."""
    gpu: GpuProfile | None = None
    """The GPU SGLang runs on (`--gpu`, `[tool.speclint] gpu`, NVML for `run`);
    None: every GPU-dependent field is unknown."""

    def model_mapping_for(self, path: str) -> dict[str, str]:
        """Where the user says models live for the file at `path`: with `read_pyproject` (the
        API default), the closest configuration file's `models`, then `--model-config` over
        it. Raises `ConfigError` for a broken configuration file."""
        if not self.read_pyproject:
            return dict(self.model_configs)
        from speclint.settings.files import SettingsFinder

        return {**dict(SettingsFinder().for_path(path).models), **dict(self.model_configs)}


DEFAULT_EXCLUDE = ("node_modules", "__pycache__", "venv", ".venv", "build", "dist", "site-packages")
"""Folders no launch script lives in (hidden folders are skipped too)."""


@dataclass(frozen=True)
class WalkOptions:
    """What folder walks skip: exclude patterns and `.gitignore`."""

    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: tuple[str, ...] = ()
    respect_gitignore: bool = True

    def excluded(self, relative: str, name: str) -> bool:
        """`relative`: the path from the walked root, with `/`; patterns match it, its base
        name, or (for patterns with a `/`) any trailing part of it."""
        by_name, by_path = _exclusion(self.exclude + self.extend_exclude)
        return by_name(name) is not None or by_path(relative) is not None


@cache
def _exclusion(patterns: tuple[str, ...]) -> tuple[Callable[[str], object], Callable[[str], object]]:
    """The patterns as two regular expressions, for a name and for a relative path: the
    `fnmatch.fnmatchcase` of each pattern, joined (a walk asks this of every entry)."""
    import re

    stripped = [pattern.rstrip("/") for pattern in patterns]
    on_path = stripped + ["*/" + pattern for pattern in stripped if "/" in pattern]

    def joined(globs: list[str]) -> Callable[[str], object]:
        if not globs:
            return lambda _: None
        return re.compile("|".join(f"(?:{fnmatch.translate(glob)})" for glob in globs)).match

    return joined(stripped), joined(on_path)
