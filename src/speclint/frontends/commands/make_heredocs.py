"""Here-documents in a Makefile's recipes: without `.ONESHELL:` make runs each recipe line in a
shell of its own (GNU make manual 5.3, "Recipe Execution"), so a here-document opened on one
line gets none of the lines after it, and those lines are commands of their own."""

from __future__ import annotations

import re

from speclint.core.launches import Diagnostic
from speclint.frontends.recognise import LAUNCH_TEXT
from speclint.frontends.shell.pieces import span_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.launches import ExtractResult
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
