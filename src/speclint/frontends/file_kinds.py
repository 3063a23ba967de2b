"""File kinds: which front-end reads a file, told by its name, or by its first line (a
shebang) or a section in its text when the name does not say (`file_kind`), and whether a
directory scan reads it at all (`is_lintable_path`)."""

from __future__ import annotations

import os
from functools import cache

from speclint.core import patterns
from speclint.frontends.unread_kinds import unread_kind

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re

_SHELL_SUFFIXES = (".sh", ".bash")
_OTHER_SUFFIXES = {
    ".py": "python",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".md": "markdown",
    ".markdown": "markdown",
    ".mdx": "markdown",
    ".ipynb": "notebook",
    ".rst": "rst",
}


@cache  # compiled on first use: only for a file whose name does not say what it is
def _shell_shebang() -> re.Pattern[str]:
    return patterns.compile(
        r"#!\s*(?:/usr)?(?:/local)?/bin/(?:env\s+(?:-\S+\s+)*)?(?:bash|sh|zsh|dash|ksh)\b"
    )


def _is_shell(path: str, first_line: str | None) -> bool:
    if path == "-" or path.endswith(_SHELL_SUFFIXES):
        return True
    return first_line is not None and _shell_shebang().match(first_line) is not None


def _is_vscode_launch(path: str, text: str | None) -> bool:
    """A VS Code launch configuration: `launch.json`, or a `.json` file holding
    `"configurations"`."""
    name = os.path.basename(path)
    if name == "launch.json":
        return True
    return name.endswith(".json") and text is not None and '"configurations"' in text


def _is_dockerfile(path: str) -> bool:
    name = os.path.basename(path).lower()
    return (
        name in ("dockerfile", "containerfile")
        or name.startswith(("dockerfile.", "containerfile."))
        or name.endswith((".dockerfile", ".containerfile"))
    )


_COMMAND_FILES = {
    "Makefile": "makefile",
    "makefile": "makefile",
    "GNUmakefile": "makefile",
    "justfile": "justfile",
    "Justfile": "justfile",
    ".justfile": "justfile",
    "Procfile": "procfile",
    "supervisord.conf": "supervisord",
    "tox.ini": "tox",
    "pixi.toml": "pixi",
    "pyproject.toml": "pyproject",
    "poe_tasks.toml": "poe",
    "hatch.toml": "hatch",
    "mise.toml": "mise",
    ".mise.toml": "mise",
}
_COMMAND_SUFFIXES = {".mk": "makefile", ".service": "systemd"}


@cache  # compiled on first use: only for a `.container` file
def _quadlet_section() -> re.Pattern[str]:
    return patterns.compile(r"^[ \t]*\[Container\][ \t]*\r?$", patterns.MULTILINE)


@cache  # compiled on first use: only for a `.conf` file
def _supervisord_program() -> re.Pattern[str]:
    return patterns.compile(r"^[ \t]*\[program:[^\]\n]*\][^\[]*?^[ \t]*command[ \t]*[=:]", patterns.MULTILINE)


def _drop_in_kind(path: str) -> str | None:
    """'systemd' or 'quadlet' for a drop-in (`x.service.d/*.conf`, `x.container.d/*.conf`)."""
    from speclint.frontends.unit_paths import drop_in_base  # only for a `.conf` file

    if drop_in_base(path) is not None:
        return "systemd"
    return "quadlet" if drop_in_base(path, ".container") is not None else None


def _command_file(path: str, text: str | None) -> str | None:
    """The kind of a file of commands another program runs (`commands/`), by its name; a
    `.conf` file only in a `x.service.d/` or `x.container.d/` folder (a systemd or Quadlet
    drop-in) or when its text has a
    supervisord `[program:x]` section with `command=`; a `.container` file (Podman Quadlet)
    only when its text has a `[Container]` section."""
    name = os.path.basename(path)
    suffix = os.path.splitext(name)[1]
    kind = _COMMAND_FILES.get(name) or _COMMAND_SUFFIXES.get(suffix)
    if kind is None and name.startswith("Procfile."):
        return "procfile"
    if kind is None and suffix == ".conf":
        kind = _drop_in_kind(path)
    if kind is None and suffix == ".container":
        return "quadlet" if text is not None and _quadlet_section().search(text) else None
    if kind is None and name.endswith(".conf") and text is not None and "[program:" in text:
        return "supervisord" if _supervisord_program().search(text) else None
    return kind


_CONTAINER_JSON = {"devcontainer.json": "devcontainer", ".devcontainer.json": "devcontainer"}
"""JSON files of a container's commands (`manifests.json_containers`) known by name; an ECS
task definition is a `.json` file with `containerDefinitions`."""


def file_kind(path: str, text: str | None = None) -> str | None:
    """'shell', 'python', 'yaml', 'markdown', 'notebook', 'rst', 'dockerfile', 'vscode',
    'vscode-tasks', 'makefile', 'justfile', 'procfile', 'systemd', 'quadlet', 'supervisord',
    'tox', 'pixi', 'pyproject', 'poe', 'hatch', 'mise', 'devcontainer', 'ecs-task' or
    'json-commands', or None when no
    front-end reads it."""
    if path.endswith(_SHELL_SUFFIXES):  # most files linted: the tests below, but for the names
        # that two of them take with any suffix (`Procfile.x`, `Dockerfile.x`), all say no
        name = os.path.basename(path)
        if not name.startswith("Procfile.") and not name.lower().startswith(
            ("dockerfile.", "containerfile.")
        ):
            return "shell"
    first_line = text.split("\n", 1)[0] if text is not None else None
    kind = _OTHER_SUFFIXES.get(os.path.splitext(path)[1].lower())
    if kind is not None:
        return kind
    if _is_dockerfile(path):
        return "dockerfile"
    if os.path.basename(path) == "tasks.json":
        return "vscode-tasks"
    if path.endswith(".code-workspace"):
        return "vscode-workspace"
    if _is_vscode_launch(path, text):
        return "vscode"
    if os.path.basename(path) in _CONTAINER_JSON or (
        path.endswith(".json") and text is not None and '"containerDefinitions"' in text
    ):
        return _CONTAINER_JSON.get(os.path.basename(path), "ecs-task")
    command_kind = _command_file(path, text)
    if command_kind is not None:
        return command_kind
    if _is_shell(path, first_line):
        return "shell"
    if path.endswith(".json") and text is not None and "sglang" in text:
        return "json-commands"  # a template or package.json naming sglang: its command strings
    return None


def _first_line(path: str) -> str | None:
    try:
        with open(path, "rb") as handle:
            return handle.readline(256).decode("utf-8", "replace")
    except OSError:
        return None


def _head(path: str) -> str | None:
    """The start of a `.conf`, `.container` or `pyproject.toml` file (enough for its
    `[program:x]` or `[Container]` sections, or to see it names sglang)."""
    try:
        with open(path, "rb") as handle:
            return handle.read(64 * 1024).decode("utf-8", "replace")
    except OSError:
        return None


def is_lintable_path(path: str) -> bool:
    """Whether a directory scan should read this file (by name, or by shebang if no suffix)."""
    if path.endswith(_SHELL_SUFFIXES) or os.path.splitext(path)[1].lower() in _OTHER_SUFFIXES:
        return True
    if _is_dockerfile(path) or os.path.basename(path) == "launch.json" or path.endswith(".code-workspace"):
        return True
    if os.path.basename(path) == "tasks.json":
        return os.path.basename(os.path.dirname(os.path.abspath(path))) == ".vscode"
    if path.endswith(".conf") and os.path.basename(path) != "supervisord.conf":
        return _drop_in_kind(path) is not None or _command_file(path, _head(path)) is not None
    if path.endswith(".container"):
        return _command_file(path, _head(path)) is not None
    if os.path.basename(path) in ("pyproject.toml", *_CONTAINER_JSON) or unread_kind(path):  # (naming sglang)
        head = _head(path)
        return head is not None and "sglang" in head
    if _command_file(path, None) is not None:
        return True
    if os.path.basename(path) == "package.json":  # its scripts, when one names sglang
        head = _head(path)
        return head is not None and "sglang" in head
    if path.endswith(".json"):  # an ECS task definition, by its shape
        from speclint.frontends.json_shapes import is_ecs_task

        return is_ecs_task(path)
    name = os.path.basename(path)
    if "." in name:
        return False
    return _is_shell(path, _first_line(path))
