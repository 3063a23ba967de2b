"""Code actions: a finding's fix as a quick fix, and "disable CODE for this command"."""

from __future__ import annotations

from lsprotocol import types

from speclint.frontends import COMMAND_KINDS
from speclint.lsp.convert import Lines

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from speclint.core.findings import Finding

_COMMENT_KINDS = ("shell", "python", "yaml", "dockerfile", *COMMAND_KINDS)
"""File kinds where a `#` line above the command is a comment speclint reads."""


def _position(text: str, offset: int, lines: Lines) -> types.Position:
    line = text.count("\n", 0, offset)
    column = offset - (text.rfind("\n", 0, offset) + 1)
    return types.Position(line, lines.to_unit(line, column))


def _overlaps(a: types.Range, b: types.Range) -> bool:
    return not (
        (a.end.line, a.end.character) < (b.start.line, b.start.character)
        or (b.end.line, b.end.character) < (a.start.line, a.start.character)
    )


def _fix_action(
    uri: str, text: str, finding: Finding, lines: Lines, diagnostic: types.Diagnostic
) -> types.CodeAction | None:
    from speclint.runner.fix import applicability, collect_edits, edit_offsets

    edits = []
    for edit in collect_edits([finding], unsafe=True):  # offered; unsafe ones say so
        where = edit_offsets(text, edit)
        if where is None:
            return None  # the document moved on since it was linted
        edits.append(
            types.TextEdit(
                types.Range(_position(text, where[0], lines), _position(text, where[1], lines)),
                edit.replacement,
            )
        )
    if not edits:
        return None
    unsafe = applicability(finding) == "unsafe"
    descriptions = "; ".join(e.description for e in collect_edits([finding], unsafe=True) if e.description)
    title = f"{'(unsafe) ' if unsafe else ''}Fix {finding.code}: {descriptions or finding.name}"
    return types.CodeAction(
        title=title,
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        is_preferred=not unsafe,
        edit=types.WorkspaceEdit(changes={uri: edits}),
    )


def _disable_action(uri: str, text: str, finding: Finding, diagnostic: types.Diagnostic) -> types.CodeAction:
    span = finding.launch_span or finding.span
    line_text = text.split("\n")[span.line - 1] if span.line - 1 < text.count("\n") + 1 else ""
    indent = line_text[: len(line_text) - len(line_text.lstrip())]
    insert = types.Position(span.line - 1, 0)
    edit = types.TextEdit(types.Range(insert, insert), f"{indent}# speclint: disable={finding.code}\n")
    return types.CodeAction(
        title=f"Disable {finding.code} ({finding.name}) for this command",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        edit=types.WorkspaceEdit(changes={uri: [edit]}),
    )


def code_actions(
    uri: str,
    text: str,
    kind: str | None,
    findings: Iterable[Finding],
    wanted: types.Range,
    encoding: str = "utf-16",
) -> list[types.CodeAction]:
    """The actions for the findings whose token overlaps `wanted`."""
    from speclint.lsp.convert import diagnostic

    lines = Lines(text, encoding)
    actions: list[types.CodeAction] = []
    for finding in findings:
        found = diagnostic(finding, lines)
        if not _overlaps(found.range, wanted):
            continue
        fix = _fix_action(uri, text, finding, lines, found)
        if fix is not None:
            actions.append(fix)
        if kind in _COMMENT_KINDS and finding.code != "SLM003":
            actions.append(_disable_action(uri, text, finding, found))
    return actions
