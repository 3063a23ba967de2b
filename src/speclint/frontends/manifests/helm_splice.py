"""Whether a chart's templates splice a values block's `command:`/`args:` lists whole.

A chart whose container takes its command from its values writes, in a template,

    command:
      {{- toYaml .Values.server.command | nindent 10 }}
    args:
      {{- toYaml .Values.server.args | nindent 10 }}

`toYaml` renders the list as YAML items and `nindent` indents them under the key: the
container runs exactly the values' words, in order. When that is the only use the chart's
templates make of the block's `command`, `args` and `extraArgs` (each argv key the block has
is spliced once, under the container key of its name, nothing else written under that key,
besides the test of an `{{- if .Values.server.command }}` around it; the block never used
whole or through `with`/`range`), the values' words are the launch and
nothing is left unread. Any other use, a template speclint cannot list or read, or a chart
without `Chart.yaml` and `templates/`, leaves the launch partly read, as before.
"""

from __future__ import annotations

import os
import re

from speclint.frontends.manifests.helm_charts import chart_templates

_KEY = re.compile(r"[A-Za-z_]\w*")
_CONTAINER_KEY = {"command": "command", "args": "args"}
"""The container key a values key must be spliced under (extraArgs has none of its own)."""


def spliced_whole(values_path: str, keys: list[str], argv_keys: list[str]) -> bool:
    """Whether the chart of `values_path` splices the block at `keys` (its path in the values)
    so that its `argv_keys` (`command`, `args` among them; `extraArgs` never) are the
    container's words exactly, as the module's docstring says."""
    if not argv_keys or "command" not in argv_keys or any(k not in _CONTAINER_KEY for k in argv_keys):
        return False
    if not all(_KEY.fullmatch(key) for key in keys):
        return False
    texts = [text for _, text in chart_templates(os.path.dirname(os.path.abspath(values_path)))]
    if not texts:
        return False
    dotted = r"\$?\.Values" + "".join(r"\." + key for key in keys)
    use = re.compile(dotted + r"(?![\w])(\.[A-Za-z_]\w*)?")
    scoped = (
        re.compile(r"\{\{-?\s*(?:with|range)\b[^}]*\.Values\." + re.escape(keys[0]) + r"\b") if keys else None
    )
    spliced: dict[str, int] = {}
    for text in texts:
        if scoped is not None and scoped.search(text):
            return False
        for match in use.finditer(text):
            field = (match.group(1) or "")[1:]
            if not field:
                return False  # the block used whole (`toYaml .Values.server`)
            if field in ("command", "args", "extraArgs") and not _guard(text, match.start(), match.end()):
                if field not in argv_keys or not _splice_line(text, match.start(), match.end(), field):
                    return False
                spliced[field] = spliced.get(field, 0) + 1
    return all(spliced.get(key) == 1 for key in argv_keys)


def _guard(text: str, begin: int, end: int) -> bool:
    """The use is the whole test of an `{{- if USE }}` (the block's list is set: the arm runs)."""
    start = text.rfind("{{", 0, begin)
    stop = text.find("}}", end)
    return (
        start != -1
        and stop != -1
        and re.fullmatch(r"\{\{-?\s*if\s+", text[start:begin]) is not None
        and (re.fullmatch(r"\s*-?", text[end:stop]) is not None)
    )


_INSERT = re.compile(r"[ \t]*\{\{-?\s*toYaml\s+(?P<use>\S+)\s*\|\s*nindent\s+\d+\s*-?\}\}[ \t]*")


def _splice_line(text: str, begin: int, end: int, field: str) -> bool:
    """The use at `begin:end` is a line of its own, `{{- toYaml USE | nindent N }}`, right
    under the container key `field:` (nothing after the colon), and no other line is written
    under that key."""
    start = text.rfind("\n", 0, begin) + 1
    stop = text.find("\n", end)
    stop = len(text) if stop == -1 else stop
    line = text[start:stop]
    insert = _INSERT.fullmatch(line)
    if insert is None or insert.start("use") != begin - start or insert.end("use") != end - start:
        return False
    before = text[:start].rstrip("\n").rsplit("\n", 1)[-1]
    key = re.fullmatch(r"([ \t]*)" + _CONTAINER_KEY[field] + r":[ \t]*", before)
    if key is None:
        return False
    indent = len(key.group(1))
    for after in text[stop + 1 :].split("\n"):
        if not after.strip():
            continue
        depth = len(after) - len(after.lstrip(" "))
        return depth <= indent and not (depth == indent and after.lstrip().startswith("- "))
    return True
