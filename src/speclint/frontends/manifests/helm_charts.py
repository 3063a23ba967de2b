"""A Helm chart's files as speclint reads them: its templates, each by name and text.

A chart is a folder with `Chart.yaml` and `templates/`; its templates are the `*.yaml`,
`*.yml` and `*.tpl` files there. Every read is noted for the kept stores (a change to a
template, or a new one, makes the values file that reads it stale). Used by the splice check
(`helm_splice`) and by the rendering of values (`helm_render`).
"""

from __future__ import annotations

import os

_TEMPLATE_PATTERNS = ("*.yaml", "*.yml", "*.tpl")
MAX_TEMPLATE = 1 << 20
"""A template larger than this (1 MiB) is not read: the chart's templates are then not known."""


def chart_templates(chart: str) -> list[tuple[str, str]]:
    """(name, text) of each of the chart's templates (none without `Chart.yaml` and
    `templates/`, or when one cannot be read)."""
    from speclint.runner.depends import matching_names, note, note_glob

    folder = os.path.join(chart, "templates")
    note(os.path.join(chart, "Chart.yaml"))
    if not os.path.isfile(os.path.join(chart, "Chart.yaml")):
        return []
    texts: list[tuple[str, str]] = []
    for pattern in _TEMPLATE_PATTERNS:
        note_glob(folder, pattern)
        for name in matching_names(folder, pattern):
            path = os.path.join(folder, name)
            note(path)
            try:
                if os.path.getsize(path) > MAX_TEMPLATE:
                    return []
                with open(path, encoding="utf-8", errors="surrogateescape") as handle:
                    texts.append((name, handle.read()))
            except OSError:
                return []
    return texts
