"""Problems a front-end met while reading a file (`core.launches.ExtractResult.diagnostics`):
made only when a file has one."""

from __future__ import annotations

from speclint.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A problem a front-end met while reading a file (not a finding about SGLang).

    `kind` is one of: 'syntax-error', 'doc-syntax-error' (in a documentation code block: a
    warning), 'unreadable-file', 'file-too-large', 'unsupported-input',
    'broken-continuation' (a comment or a `\\ ` with trailing blanks cut a continued command
    short, so the flags on the following lines never reach the program).
    """

    kind: str
    message: str
    span: Span
