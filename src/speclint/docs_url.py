"""Where a rule's documentation page is on the web: text output, JSON `url`, SARIF `helpUri`.

The default is the rule pages (`rules/<name>.md`) in speclint's repository at the tag of the
installed version, so a link always describes the rules that produced the finding. A mirror
or a fork sets another base: `--doc-url-base`, `doc-url-base` in the configuration, or env
`SPECLINT_DOC_URL_BASE` (the page name `<name>.md` is appended).
"""

from __future__ import annotations

import os

from speclint import __version__

REPOSITORY = "https://github.com/speclint/speclint"
DEFAULT_BASE = f"{REPOSITORY}/blob/v{__version__}/rules/"

_base: str | None = None


def set_base(base: str | None) -> None:
    """The base chosen on the command line or in the configuration (None: env, then default)."""
    global _base
    _base = base


def base() -> str:
    chosen = _base or os.environ.get("SPECLINT_DOC_URL_BASE") or DEFAULT_BASE
    return chosen if chosen.endswith("/") else chosen + "/"


def rule_url(name: str) -> str:
    return f"{base()}{name}.md"
