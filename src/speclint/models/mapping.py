"""Where the user says a model's config lives: `[tool.speclint.models]` in the nearest
pyproject.toml above the linted file (`"/models/llama" = "fixtures/llama"`), relative paths
taken from the pyproject's folder. `--model-config NAME=PATH` on the command line wins."""

from __future__ import annotations

import os
from functools import lru_cache

MAX_PYPROJECT_BYTES = 2 * 1024 * 1024


class ProjectConfigError(Exception):
    """pyproject.toml exists but cannot be used: a clear error, not a silent default."""


def find_pyproject(linted_path: str) -> str | None:
    """The nearest pyproject.toml in the linted file's folder or above (cwd for stdin)."""
    start = os.getcwd() if linted_path in ("-", "") else os.path.dirname(os.path.abspath(linted_path))
    folder = start
    while True:
        candidate = os.path.join(folder, "pyproject.toml")
        if os.path.isfile(candidate):
            return candidate
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def _load_toml(data: bytes):
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    return tomllib.loads(data.decode("utf-8"))


@lru_cache(maxsize=32)
def _read_mapping(path: str, stamp: tuple[int, int]) -> tuple[tuple[str, str], ...]:
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_PYPROJECT_BYTES + 1)
    except OSError as error:
        raise ProjectConfigError(f"{path}: cannot read ({error.strerror or error})") from None
    if len(data) > MAX_PYPROJECT_BYTES:
        raise ProjectConfigError(f"{path}: larger than {MAX_PYPROJECT_BYTES // (1024 * 1024)} MiB")
    try:
        document = _load_toml(data)
    except UnicodeDecodeError as error:
        raise ProjectConfigError(f"{path}: not UTF-8 ({error})") from None
    except ValueError as error:  # tomllib.TOMLDecodeError is a ValueError
        raise ProjectConfigError(f"{path}: invalid TOML ({error})") from None
    tool = document.get("tool", {})
    speclint = tool.get("speclint", {}) if isinstance(tool, dict) else {}
    models = speclint.get("models", {}) if isinstance(speclint, dict) else {}
    if not isinstance(models, dict):
        raise ProjectConfigError(f"{path}: [tool.speclint.models] must be a table of "
                                 "NAME = \"PATH\" entries")
    base = os.path.dirname(path)
    pairs = []
    for name, value in models.items():
        if not isinstance(value, str) or not value:
            raise ProjectConfigError(f"{path}: [tool.speclint.models] {name!r} must be a path "
                                     f"string, not {type(value).__name__}")
        value = os.path.expanduser(value)
        pairs.append((name, value if os.path.isabs(value) else os.path.join(base, value)))
    return tuple(pairs)


def project_mapping(linted_path: str) -> dict[str, str]:
    """`[tool.speclint.models]` of the nearest pyproject.toml; raises ProjectConfigError."""
    path = find_pyproject(linted_path)
    if path is None:
        return {}
    try:
        info = os.stat(path)
    except OSError as error:
        raise ProjectConfigError(f"{path}: cannot read ({error.strerror or error})") from None
    return dict(_read_mapping(path, (info.st_mtime_ns, info.st_size)))
