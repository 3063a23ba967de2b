"""Here-documents in a Makefile's recipes: without `.ONESHELL:` make runs each recipe line in a
shell of its own (GNU make manual 5.3, "Recipe Execution"), so a here-document opened on one
line gets none of the lines after it, and those lines are commands of their own. With it, make
drops the blanks and `@`, `-`, `+` that start each recipe line before a POSIX shell gets the
rule's lines (5.3.1, "Using One Shell"; GNU make 4.3 drops the blanks too), so an indented
YAML manifest in a here-document (`kubectl apply -f - <<EOF`) reaches kubectl flattened."""

from __future__ import annotations

import re
from bisect import bisect_right

from speclint.core.launches import Diagnostic
from speclint.frontends.recognise import LAUNCH_TEXT
from speclint.frontends.shell.pieces import span_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.launches import ExtractResult
    from speclint.core.spans import Span
    from speclint.frontends.commands.make import MakeReader
    from speclint.frontends.commands.text import Char

_HEREDOC = re.compile(r"(?<![<])<<(?!<)-?[ \t]*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\1")


def here_documents_cut(makefile: MakeReader, result: ExtractResult) -> list[list[Char]]:
    """The recipe lines each run alone (no `.ONESHELL`), less those of a here-document that
    opens on one line and whose lines follow on the next ones: each of those runs in a shell
    of its own, so the here-document is empty there and its lines are commands of their own.
    One that holds the launcher is reported, never read as if it worked."""
    kept: list[list[Char]] = []
    recipes = makefile.recipes
    index = 0
    while index < len(recipes):
        rule, chars = recipes[index]
        line_text = "".join(c[0] or "" for c in chars)
        opened = _HEREDOC.search(line_text) if "\n" not in line_text else None
        index += 1
        if opened is None:
            kept.append(chars)
            continue
        body: list[list[Char]] = []
        while index < len(recipes) and recipes[index][0] == rule:
            body.append(recipes[index][1])
            index += 1
            if "".join(c[0] or "" for c in body[-1]).strip() == opened.group(2):
                break
        launcher = next((m for line in body if (m := LAUNCH_TEXT.search(_text(line)))), None)
        if launcher is None:
            kept += [chars, *body]
            continue
        line = next(line for line in body if LAUNCH_TEXT.search(_text(line)))
        at = line[launcher.start()][1]
        opening = span_of(makefile.starts, chars[opened.start()][1], chars[opened.end() - 1][2])
        message = (
            'make runs each recipe line in a shell of its own (GNU make manual 5.3, "Recipe '
            f'Execution"), so the here-document opened at line {opening.line} gets none of '
            f"the lines after it: `{launcher.group()}` here is not run as written (add "
            "`.ONESHELL:` to run a rule's lines in one shell); nothing in this launch was checked"
        )
        span = span_of(makefile.starts, at, line[launcher.end() - 1][2])
        for kind in ("launch-unread", "launcher-not-read"):
            found = Diagnostic(kind, message, span)
            if found not in result.diagnostics:  # (once, however many readings of the file)
                result.diagnostics.append(found)
    return kept


def _text(chars: list[Char]) -> str:
    return "".join(c[0] if c[0] is not None and len(c[0]) == 1 else "\0" for c in chars)


_YAML_KEY = re.compile(r"[A-Za-z_][\w.-]*:(?:[ \t]|$)")


def flattened_manifests(makefile: MakeReader, result: ExtractResult) -> set[Span]:
    """With `.ONESHELL:`, a here-document that holds the launcher in YAML (`key: value` lines)
    whose indentation or `- ` list marks make drops: reported at the launcher, never read as
    if kubectl got the manifest as written (it gets the flattened one). The spans reported."""
    text, starts = makefile.text, makefile.starts
    reported: set[Span] = set()
    rules: dict[int, list[list[Char]]] = {}
    for rule, chars in makefile.recipes:
        rules.setdefault(rule, []).append(chars)
    for lines in rules.values():
        index = 0
        while index < len(lines):
            opened = _HEREDOC.search(_text(lines[index]))
            index += 1
            if opened is None:
                continue
            body: list[list[Char]] = []
            while index < len(lines):
                body.append(lines[index])
                index += 1
                if _text(body[-1]).strip() == opened.group(2):
                    break
            launcher = next((m for line in body if (m := LAUNCH_TEXT.search(_text(line)))), None)
            lost = [line for line in body if line and _dropped(text, starts, line[0][1])]
            if launcher is None or not lost or not any(_YAML_KEY.match(_text(line)) for line in body):
                continue
            line = next(line for line in body if LAUNCH_TEXT.search(_text(line)))
            first = span_of(starts, lost[0][0][1], lost[0][0][2]).line
            message = (
                "with `.ONESHELL:` make drops the blanks and `@`, `-`, `+` that start each recipe "
                'line (GNU make manual 5.3.1, "Using One Shell"), so this here-document loses its '
                f"indentation from line {first} on: the YAML the command gets is not the manifest "
                f"written here, and `{launcher.group()}` in it was not checked (put the manifest "
                "in a file and apply that file)"
            )
            span = span_of(starts, line[launcher.start()][1], line[launcher.end() - 1][2])
            reported.add(span)
            for kind in ("launch-unread", "launcher-not-read"):
                found = Diagnostic(kind, message, span)
                if found not in result.diagnostics:
                    result.diagnostics.append(found)
    return reported


def _dropped(text: str, starts: list[int], at: int) -> bool:
    """Whether make dropped blanks or a `-` (a YAML list mark) before the recipe line's text
    at file offset `at` (more than the one recipe prefix character that starts the line)."""
    line_start = starts[bisect_right(starts, at) - 1]
    return at - line_start > 1 and text[line_start:at] != "\t" * (at - line_start)
