"""A finding on a word whose value holds only when the environment leaves a variable unset
(the default of `${SPEC_ALGO:-EAGLE}`, `frontends.shell.said_defaults`; compose's
`${TP:-2}`): its message says so, "(the default of ${SPEC_ALGO:-EAGLE}, used when SPEC_ALGO
is unset or empty)", unless a note of the finding already says it at the word's origin."""

from __future__ import annotations

DEFAULT_OF = "the default of "
"""How such a word's `made_by` begins (other front-ends' `made_by`, what sbatch or torchrun
passes, are said as notes by the rules that point at them, and are left as they are)."""

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from speclint.core.findings import Finding
    from speclint.core.spans import Span
    from speclint.core.words import Word


def said_default(written: str, name: str, operator: str) -> str:
    """What a finding on the default of `${NAME:-default}` (bash, Compose) says of it: the
    value holds only when the environment leaves NAME unset (or, with the colon, empty)."""
    if len(written) > 60 or "\n" in written:
        written = "${" + name + operator + "...}"
    empty = " or empty" if operator.startswith(":") else ""
    return f"{DEFAULT_OF}{written}, used when {name} is unset{empty}"


def said_on(words: list[Word], said: list[tuple[Span, str]]) -> list[Word]:
    """`words`, each known word pointing inside one default said (`said`: where each
    `${NAME:-default}` is written and what it says) saying so."""
    out: list[Word] = []
    for word in words:
        if word.text is not None and word.made_by is None:
            found = [(at, made) for at, made in said if _inside(word.span, at) or _inside(at, word.span)]
            if found:  # (nested, `${DP:-${FALLBACK_DP:-1}}`: the innermost first, each said)
                found.sort(key=lambda entry: (entry[0].end_line - entry[0].line, _width(entry[0])))
                word = word.said_made_by("; ".join(dict.fromkeys(made for _, made in found)))
        out.append(word)
    return out


def _width(span: Span) -> int:
    return span.end_column - span.column if span.line == span.end_line else 1 << 20


def _inside(inner: Span, outer: Span) -> bool:
    return (
        inner.file == outer.file
        and (inner.line, inner.column) >= (outer.line, outer.column)
        and (inner.end_line, inner.end_column) <= (outer.end_line, outer.end_column)
    )


def said_defaults(words: Iterable[Word], findings: list[Finding]) -> None:
    """Each finding pointing inside a word made of such a default says it in its message."""
    said = [w for w in words if w.made_by is not None and w.made_by.startswith(DEFAULT_OF)]
    if not said:
        return
    for finding in findings:
        for word in said:
            made = word.made_by or ""
            if not _inside(finding.span, word.span) or any(n.message == made for n in finding.notes):
                continue
            text = word.text or ""
            if text.startswith("-") and "=" in text and f"`{text.split('=', 1)[1]}`" not in finding.message:
                break  # (`--flag=${X:-v}`: a finding on the flag, not on its value)
            if made not in finding.message:
                finding.message = f"{finding.message} ({made})"
            break
