"""Configuration files: `.speclint.toml`, `speclint.toml`, or `[tool.speclint]` in pyproject.toml.

As in ruff, the closest configuration to each linted file wins (in one folder: .speclint.toml,
then speclint.toml, then a pyproject.toml that has `[tool.speclint]`), there is no merging
between files, `--config FILE` applies one file to everything, `--isolated` ignores them
all, and command-line options override what a file says. A broken file is an error with
the reason, never silently ignored.

    [tool.speclint]                      # or, in speclint.toml, the same keys at the top
    select = ["FLG", "SPD"]
    ignore = ["abbreviated-flag"]
    fail-on = "warning"
    sglang-version = "0.5.23"
    [tool.speclint.per-file-ignores]
    "legacy/*.sh" = ["FLG009"]
    [tool.speclint.models]               # where launches' model configs are on disk
    "/models/llama" = "model-configs/llama"
    [tool.speclint.flag-prefixes]        # frameworks forwarding SGLang flags under a prefix
    "myrl" = "--engine-"                 # (slime's "--sglang-" is built in; "" turns one off)
"""

from __future__ import annotations

import os
import sys
from dataclasses import field

from speclint.core.records import dataclass
from speclint.settings.config_names import CONFIG_NAMES, may_configure_speclint
from speclint.settings.errors import ConfigError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MAX_CONFIG_BYTES = 2 * 1024 * 1024
_KEYS = {
    "select",
    "extend-select",
    "ignore",
    "fail-on",
    "sglang-version",
    "per-file-ignores",
    "models",
    "output-format",
    "cache-dir",
    "flag-prefixes",
    "gpu",
    "exclude",
    "extend-exclude",
    "respect-gitignore",
    "doc-url-base",
}


@dataclass(frozen=True)
class Settings:
    """`[tool.speclint]` (or `speclint.toml`) as read from one configuration file."""

    path: str | None = None
    """The file these came from (None: defaults)."""
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    fail_on: str | None = None
    sglang_version: str | None = None
    output_format: str | None = None
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    extend_select: tuple[str, ...] = ()
    exclude: tuple[str, ...] | None = None
    """Path patterns folder walks skip (None: the built-in list, `DEFAULT_EXCLUDE`)."""
    extend_exclude: tuple[str, ...] = ()
    respect_gitignore: bool | None = None
    doc_url_base: str | None = None
    gpu: str | None = None
    """`gpu = "h100"` or `"8xh100"`: the GPU profile the GPU-dependent resolution uses."""
    models: tuple[tuple[str, str], ...] = ()
    """NAME → PATH, PATH absolute (relative ones are taken from the config file's folder)."""
    cache_dir: str | None = None
    """`cache-dir`, absolute (relative to the config file's folder)."""
    flag_prefixes: tuple[tuple[str, str], ...] = ()
    """FRAMEWORK → PREFIX of frameworks forwarding SGLang flags under a prefix (over the
    built-in ones; "" turns one off)."""
    base: str = field(default_factory=os.getcwd)

    def ignores_for(self, linted_path: str) -> tuple[str, ...]:
        if not self.per_file_ignores:
            return ()
        import fnmatch  # here: most settings have no per-file-ignores

        relative = os.path.relpath(os.path.abspath(linted_path), self.base).replace(os.sep, "/")
        found: list[str] = []
        for pattern, keys in self.per_file_ignores:
            if fnmatch.fnmatch(relative, pattern) or fnmatch.fnmatch(os.path.basename(relative), pattern):
                found.extend(keys)
        return tuple(found)


def _load_toml(path: str) -> dict[str, Any]:
    from speclint.sglang.checkpoints.model_config import (
        open_regular,  # a FIFO named speclint.toml never blocks
    )

    try:
        with open_regular(path) as handle:
            data = handle.read(MAX_CONFIG_BYTES + 1)
    except OSError as error:
        raise ConfigError(f"{path}: cannot read ({error.strerror or error})") from None
    if len(data) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{path}: larger than {MAX_CONFIG_BYTES // (1024 * 1024)} MiB")
    if os.path.basename(path) == "pyproject.toml" and not may_configure_speclint(data):
        return {}
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # Python 3.10
        import tomli as tomllib
    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise ConfigError(f"{path}: not UTF-8 ({error})") from None
    except ValueError as error:  # tomllib.TOMLDecodeError
        raise ConfigError(f"{path}: invalid TOML ({error})") from None


def _section(path: str) -> dict[str, Any] | None:
    """The speclint table of a config file, or None for a pyproject.toml without one."""
    document = _load_toml(path)
    if os.path.basename(path) != "pyproject.toml":
        return document
    tool = document.get("tool")
    if not isinstance(tool, dict) or "speclint" not in tool:
        return None
    if not isinstance(tool["speclint"], dict):
        raise ConfigError(f"{path}: [tool.speclint] must be a table")
    return tool["speclint"]


def _strings(path: str, key: str, value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{path}: `{key}` must be a list of strings")
    return tuple(value)


def _selectors(path: str, key: str, value: object) -> tuple[str, ...]:
    """Rule selectors; one that selects no rule stops the run (exit 2), as in ruff."""
    keys = _strings(path, key, value)
    from speclint.rules import selector_problem

    for selector in keys:
        problem = selector_problem(selector)
        if problem:
            raise ConfigError(f"{path}: `{key}`: {problem}")
    return keys


def parse_settings(path: str, table: dict[str, Any]) -> Settings:
    where = f"{path} [tool.speclint]" if os.path.basename(path) == "pyproject.toml" else path
    unknown = sorted(set(table) - _KEYS)
    if unknown == ["tool"] and isinstance(table["tool"], dict) and "speclint" in table["tool"]:
        raise ConfigError(
            f"{where}: unknown key `tool`: in {os.path.basename(path)} the "
            "settings go at the top level; `[tool.speclint]` is the table for "
            "pyproject.toml (drop the `[tool.speclint]` line)"
        )
    if unknown:
        raise ConfigError(f"{where}: unknown key `{unknown[0]}` (known: {', '.join(sorted(_KEYS))})")
    base = os.path.dirname(os.path.abspath(path))
    fail_on = table.get("fail-on")
    if fail_on is not None and fail_on not in ("error", "warning", "info"):
        raise ConfigError(f'{where}: `fail-on` must be "error", "warning" or "info"')
    version = table.get("sglang-version")
    if version is not None:
        from speclint.sglang.flags.versions import version_key

        if not isinstance(version, str) or version_key(version.lstrip("v"))[0] < 0:
            raise ConfigError(f"{where}: `sglang-version` {version!r} is not an SGLang version")
        version = version.lstrip("v")
    output_format = table.get("output-format")
    if output_format is not None and not isinstance(output_format, str):
        raise ConfigError(f"{where}: `output-format` must be a string")
    gpu = table.get("gpu")
    if gpu is not None:
        from speclint.sglang.resolve.gpu_profiles import parse_gpu_setting, profile_names

        if not isinstance(gpu, str) or parse_gpu_setting(gpu) is None:
            raise ConfigError(
                f"{where}: `gpu` {gpu!r} is not a GPU profile (known: "
                f"{', '.join(profile_names())}; `8xh100` for a count)"
            )
    per_file = table.get("per-file-ignores", {})
    if not isinstance(per_file, dict):
        raise ConfigError(f"{where}: `per-file-ignores` must be a table of PATTERN = [CODES]")
    models = table.get("models", {})
    if not isinstance(models, dict):
        raise ConfigError(f'{where}: `models` must be a table of NAME = "PATH"')
    for name, value in models.items():
        if not isinstance(value, str) or not value:
            raise ConfigError(f"{where}: models {name!r} must be a path string, not {type(value).__name__}")
    respect = table.get("respect-gitignore")
    if respect is not None and not isinstance(respect, bool):
        raise ConfigError(f"{where}: `respect-gitignore` must be true or false")
    exclude = table.get("exclude")
    doc_url_base = table.get("doc-url-base")
    if doc_url_base is not None and not isinstance(doc_url_base, str):
        raise ConfigError(f"{where}: `doc-url-base` must be a string (a URL)")
    cache_dir = table.get("cache-dir")
    if cache_dir is not None and (not isinstance(cache_dir, str) or not cache_dir):
        raise ConfigError(f"{where}: `cache-dir` must be a path string")
    prefixes = table.get("flag-prefixes", {})
    if not isinstance(prefixes, dict) or not all(
        isinstance(v, str) and (v == "" or (v.startswith("--") and len(v) > 2)) for v in prefixes.values()
    ):
        raise ConfigError(
            f'{where}: `flag-prefixes` must be a table of FRAMEWORK = "--prefix-" '
            '("" turns a built-in one off)'
        )
    return Settings(
        path=path,
        cache_dir=None if cache_dir is None else os.path.join(base, os.path.expanduser(cache_dir)),
        flag_prefixes=tuple(sorted(prefixes.items())),
        doc_url_base=doc_url_base,
        select=_selectors(where, "select", table.get("select", [])),
        extend_select=_selectors(where, "extend-select", table.get("extend-select", [])),
        ignore=_selectors(where, "ignore", table.get("ignore", [])),
        exclude=None if exclude is None else _strings(where, "exclude", exclude),
        extend_exclude=_strings(where, "extend-exclude", table.get("extend-exclude", [])),
        respect_gitignore=respect,
        fail_on=fail_on,
        sglang_version=version,
        output_format=output_format,
        gpu=gpu,
        per_file_ignores=tuple(
            (pattern, _selectors(where, f"per-file-ignores.{pattern}", keys))
            for pattern, keys in per_file.items()
        ),
        models=tuple((name, os.path.join(base, os.path.expanduser(p))) for name, p in models.items()),
        base=base,
    )


class SettingsFinder:
    """Finds and caches the settings for each linted file's folder."""

    def __init__(self, explicit: str | None = None, isolated: bool = False):
        self.isolated = isolated
        self._by_folder: dict[str, Settings] = {}
        self._by_written: dict[tuple[str, str], Settings] = {}
        """(working folder, a linted path's folder as written) -> its settings (`for_path`)."""
        self._explicit = None
        if explicit is not None:
            table = _section(explicit)
            if table is None:
                raise ConfigError(f"{explicit}: has no [tool.speclint] table")
            self._explicit = parse_settings(explicit, table)

    def for_path(self, linted_path: str) -> Settings:
        if self.isolated:
            return Settings()
        if self._explicit is not None:
            return self._explicit
        if linted_path == "-":
            return self._for_folder(os.getcwd())
        # The folder `abspath` gives is the written folder's, made absolute, when the last part
        # is a name (not `.`, `..` or empty): kept by that, `abspath`'s work is done once a
        # folder (a run lints hundreds of files of a few folders)
        written, name = os.path.split(linted_path)
        if name in ("", ".", ".."):
            return self._for_folder(os.path.dirname(os.path.abspath(linted_path)))
        key = (os.getcwd(), written)
        found = self._by_written.get(key)
        if found is None:
            found = self._by_written[key] = self._for_folder(os.path.dirname(os.path.abspath(linted_path)))
        return found

    def for_folder(self, folder: str) -> Settings:
        """The settings of a walked folder (its `exclude` applies to the walk)."""
        if self.isolated:
            return Settings()
        if self._explicit is not None:
            return self._explicit
        return self._for_folder(os.path.abspath(folder))

    def _for_folder(self, folder: str) -> Settings:
        cached = self._by_folder.get(folder)
        if cached is not None:
            return cached
        found = None
        from speclint.runner.depends import note

        for name in CONFIG_NAMES:
            candidate = os.path.join(folder, name)
            note(candidate)  # a replayed run re-checks each (its absence included)
            if os.path.exists(candidate) and not os.path.isdir(candidate):
                table = _section(candidate)
                if table is not None:
                    found = parse_settings(candidate, table)
                    break
        if found is None:
            parent = os.path.dirname(folder)
            found = Settings() if parent == folder else self._for_folder(parent)
        self._by_folder[folder] = found
        return found
