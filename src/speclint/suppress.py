"""Suppression comments: `# speclint: disable=CODE[,NAME...]` and `# speclint: disable-file=...`.

- On its own line, a comment covers the command that starts on the next code line
  (all of it, through `\\` continuations) — as ShellCheck's `# shellcheck disable=` — or,
  inside a command (a YAML `args:` list, a Python argv list), the next code line.
- Trailing code on a line, it covers that line.
- `disable-file` covers the whole file.
Codes or kebab-case names are accepted; `all` covers every rule. A suppression that
suppresses nothing is reported (unused-suppression), as ruff's RUF100 does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from speclint.source import Span

_DIRECTIVE = re.compile(r"#\s*speclint:\s*(disable-file|disable)\s*=\s*([A-Za-z0-9_,\s-]+)")


@dataclass(slots=True)
class Suppression:
    scope: str
    """'file', 'line' (trailing comment) or 'command' (own line, covers the next command)."""
    keys: tuple[str, ...]
    span: Span
    target_line: int = 0
    used: set = field(default_factory=set)

    def matches(self, finding) -> str | None:
        """The key that covers `finding`, if any."""
        for key in self.keys:
            if key.lower() in ("all", finding.code.lower(), finding.name):
                return key
        return None


def parse_suppressions(comments, lines: list[str]) -> list[Suppression]:
    found = []
    for span, text in comments:
        match = _DIRECTIVE.search(text)
        if not match:
            continue
        keys = tuple(k.strip() for k in match.group(2).split(",") if k.strip())
        if match.group(1) == "disable-file":
            found.append(Suppression("file", keys, span))
            continue
        line_text = lines[span.line - 1] if 0 < span.line <= len(lines) else ""
        own_line = not line_text[: max(span.column - 1, 0)].strip()
        if not own_line:
            found.append(Suppression("line", keys, span, span.line))
            continue
        target = span.line + 1
        while target <= len(lines) and (not lines[target - 1].strip()
                                        or lines[target - 1].lstrip().startswith("#")):
            target += 1
        found.append(Suppression("command", keys, span, target))
    return found


def apply_suppressions(findings, suppressions: list[Suppression]):
    """The findings no suppression covers; records which suppressions were used."""
    kept = []
    for finding in findings:
        covering = None
        for suppression in suppressions:
            if suppression.scope == "line" and finding.span.line != suppression.target_line:
                continue
            if suppression.scope == "command" and not _in_command(finding, suppression.target_line):
                continue
            key = suppression.matches(finding)
            if key:
                covering = suppression
                suppression.used.add(key)
                break
        if covering is None:
            kept.append(finding)
    return kept


def _in_command(finding, first_line: int) -> bool:
    """The comment is above the command (covers all of it), or above one of its lines inside
    a YAML or Python list (covers that line)."""
    launch = finding.launch_span
    return (launch is not None and launch.line == first_line) or finding.span.line == first_line
