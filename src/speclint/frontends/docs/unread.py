"""A block that runs the launcher but yielded no launch: said not read, at the launcher."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.diagnostics import Diagnostic

    from .excerpt import DocFile


def unread_launcher(
    doc: DocFile,
    lines: list[tuple[int, str]],
    said: list[Diagnostic],
    why: str = "it is not a shell command speclint could parse",
    by_name: bool = False,
) -> None:
    """A block that yielded no launch but runs the launcher on one of its lines (a paste that
    does not parse as shell, a prompt speclint does not know): `launcher-not-read` at the
    launcher, so a file whose other blocks are read still says what it did not check. Not
    when the walk already said why (a command that only prints it, a wrapper not followed).
    `by_name`: a YAML/Dockerfile block, said at the module's name (list items) if need be."""
    if any(d.kind in ("launch-unread", "launcher-not-read") for d in said):
        return
    from speclint.core.diagnostics import Diagnostic
    from speclint.frontends.recognise import DOC_LAUNCHER, PROSE_LAUNCH
    from speclint.frontends.shell.pieces import span_of

    code = [(offset, line) for offset, line in lines if not line.lstrip().startswith("#")]
    pattern = DOC_LAUNCHER if by_name and not any(PROSE_LAUNCH.search(t) for _, t in code) else PROSE_LAUNCH
    for offset, line in code:
        match = pattern.search(line)
        if match is not None:
            named = " ".join(match.group().split())
            doc.result.diagnostics.append(
                Diagnostic(
                    "launcher-not-read",
                    f"speclint did not read the command that runs `{named}` in this code block "
                    f"({why}), so nothing in this launch was checked",
                    span_of(doc.starts, offset + match.start(), offset + match.end()),
                )
            )
            return


def said_not_read(doc: DocFile, begin: int, end: int, named: str, where: str) -> None:
    """`launcher-not-read` for the launcher at file offsets [begin, end): "speclint did not
    read the command that runs `named` in `where`"."""
    from speclint.core.diagnostics import Diagnostic
    from speclint.frontends.shell.pieces import span_of

    message = f"speclint did not read the command that runs `{named}` in {where}, so nothing in this launch was checked"
    doc.result.diagnostics.append(Diagnostic("launcher-not-read", message, span_of(doc.starts, begin, end)))
