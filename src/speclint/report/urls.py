"""Where a rule's documentation page is (text output, JSON `url`, SARIF `helpUri`, editors)."""

from __future__ import annotations

import os

DEFAULT_DOCS_BASE = "https://github.com/speclint/speclint/blob/v{version}/rules/"
"""The rule pages (`rules/<name>.md`) in the project repository, at the installed version."""


def docs_base() -> str:
    from speclint import __version__

    base = os.environ.get("SPECLINT_DOCS_URL") or DEFAULT_DOCS_BASE
    return base.replace("{version}", __version__)


def rule_url(code: str, name: str) -> str:
    base = docs_base()
    return base + ("" if base.endswith("/") else "/") + f"{name}.md"
