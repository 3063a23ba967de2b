"""`--output-format github`: one workflow command (`::error file=...::message`) per finding,
which GitHub Actions shows as an annotation on the line."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.findings import Finding

_GITHUB_LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def _github_escape(text: str, property_value: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if property_value:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def github_line(f: Finding) -> str:
    s = f.span
    props = (
        f"file={_github_escape(f.path, True)},line={s.line},col={s.column},"
        f"endLine={s.end_line},endColumn={s.end_column},"
        f"title={_github_escape(f'speclint ({f.code} {f.name})', True)}"
    )
    body = f"{f.message}" + (f" Fix: {f.fix_hint}" if f.fix_hint else "")
    return f"::{_GITHUB_LEVEL[f.severity.label]} {props}::{_github_escape(body)}"
