"""Files of commands or container specs no front-end reads (their languages' quoting,
variables and arrays are not bash's): one that names the launcher is said not read
(`no-launch-found`, at the mention) rather than refused, and folder walks read those that
name sglang for that."""

from __future__ import annotations

import os

_BY_SUFFIX = {
    ".ps1": "PowerShell scripts",
    ".psm1": "PowerShell scripts",
    ".bat": "Windows batch files",
    ".cmd": "Windows batch files",
    ".fish": "fish scripts",
    ".zsh": "zsh scripts",
    ".csh": "csh scripts",
    ".tcsh": "csh scripts",
    ".tf": "Terraform files",
    ".hcl": "HCL files",
    ".nomad": "Nomad job files",
    ".groovy": "Groovy scripts",
}

_BY_NAME = {
    "Jenkinsfile": "Jenkins pipelines",
    "fly.toml": "Fly.io app configs",
    "railway.toml": "Railway configs",
}
"""The same, known by their names (the message shows the name)."""


def unread_kind(path: str) -> tuple[str, str] | None:
    """(the language or file kind, the suffix or name the message shows) of such a file."""
    name = os.path.basename(path)
    if name.startswith("Jenkinsfile."):  # (`Jenkinsfile.gpu`)
        return _BY_NAME["Jenkinsfile"], name
    if name in _BY_NAME:
        return _BY_NAME[name], name
    suffix = os.path.splitext(path)[1]
    language = _BY_SUFFIX.get(suffix.lower())
    return (language, suffix) if language is not None else None
