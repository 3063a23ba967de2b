"""Suppression comments: `# speclint: disable=CODE[,NAME...]` and `# speclint: disable-file=...`.

- On its own line, a comment covers the command that starts on the next code line
  (all of it, through `\\` continuations) — as ShellCheck's `# shellcheck disable=` — or,
  inside a command (a YAML `args:` list, a Python argv list), the next code line.
- Trailing code on a line, it covers that line; on the last line of a command continued
  with `\\`, the whole command (every line of it).
- `disable-file` covers the whole file.
Codes or kebab-case names are accepted; `all` covers every rule. A suppression that
suppresses nothing is reported (unused-suppression), as ruff's RUF100 does.
"""

from __future__ import annotations

import re
from dataclasses import field
from functools import cache

from speclint.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from speclint.core.findings import Finding
    from speclint.core.spans import Span


@cache
def _directive() -> re.Pattern[str]:
    """A suppression comment (compiled for the first comment that says `speclint:`)."""
    return re.compile(r"#\s*speclint:\s*(disable-file|disable)\s*=\s*([A-Za-z0-9_,\s-]+)")


@dataclass(slots=True)
class Suppression:
    """A `# speclint: disable=...` comment and what it covers."""

    scope: str
    """'file', 'line' (trailing comment) or 'command' (own line, covers the next command)."""
    keys: tuple[str, ...]
    span: Span
    target_line: int = 0
    used: set[str] = field(default_factory=set)
    lines: tuple[int, ...] = ()
    """Every line a trailing comment covers (more than its own on a continued command)."""

    def matches(self, finding: Finding) -> str | None:
        """The key that covers `finding`, if any."""
        for key in self.keys:
            if key.lower() in ("all", finding.code.lower(), finding.name):
                return key
        return None


def _next_code_lines(lines: list[str]) -> list[int]:
    """For each line (1-based index), the first line at or after it that holds code (not
    blank, not a comment); one backward pass, so a run of comment lines stays linear."""
    following = [len(lines) + 1] * (len(lines) + 2)
    for number in range(len(lines), 0, -1):
        stripped = lines[number - 1].strip()
        following[number] = following[number + 1] if not stripped or stripped.startswith("#") else number
    return following


def parse_suppressions(comments: Iterable[tuple[Span, str]], lines: list[str]) -> list[Suppression]:
    found: list[Suppression] = []
    next_code = None
    for span, text in comments:
        match = _directive().search(text) if "speclint:" in text else None
        if not match:
            continue
        keys = tuple(k.strip() for k in match.group(2).split(",") if k.strip())
        if match.group(1) == "disable-file":
            found.append(Suppression("file", keys, span))
            continue
        line_text = lines[span.line - 1] if 0 < span.line <= len(lines) else ""
        own_line = not line_text[: max(span.column - 1, 0)].strip()
        if not own_line:
            first = span.line
            while first > 1 and lines[first - 2].rstrip("\r").endswith("\\"):
                first -= 1  # the line before continues into this one: same command
            found.append(Suppression("line", keys, span, span.line, lines=tuple(range(first, span.line + 1))))
            continue
        if next_code is None:
            next_code = _next_code_lines(lines)
        target = next_code[min(span.line + 1, len(lines) + 1)]
        found.append(Suppression("command", keys, span, target))
    return found


def apply_suppressions(findings: Iterable[Finding], suppressions: list[Suppression]) -> list[Finding]:
    """The findings no suppression covers; records which suppressions were used."""
    by_line: dict[int, list[Suppression]] = {}
    whole_file = []
    for suppression in suppressions:
        if suppression.scope == "file":
            whole_file.append(suppression)
        else:
            for line in suppression.lines or (suppression.target_line,):
                by_line.setdefault(line, []).append(suppression)
    kept = []
    for finding in findings:
        candidates = list(by_line.get(finding.span.line, ())) if finding.span.file is None else []
        launch = finding.launch_span
        if launch is not None and launch.line != finding.span.line:
            candidates += [s for s in by_line.get(launch.line, ()) if s.scope == "command"]
        covering = None
        for suppression in candidates + whole_file:
            key = suppression.matches(finding)
            if key:
                covering = suppression
                suppression.used.add(key)
                break
        if covering is None:
            kept.append(finding)
    return kept
