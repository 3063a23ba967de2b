"""An argv word written partly with known text, for the shell buffer of a YAML or Python launch.

A Helm template's `{{ .Values.model }}` inside the script a container runs with `bash -c`
leaves that word partly known. Made one unknown variable, the whole script would be lost;
double-quoted with each unknown run an unknown variable, an inner shell reads the known code
at its own positions and only the unknown runs stay unknown (bash expands `"...${X}..."` before
the inner shell parses it, as `nested` rebuilds it).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.shell.embedded import Piece, ShellBuffer


def add_partly_known(buffer: ShellBuffer, pieces: list[Piece]) -> None:
    """Write `pieces` (some known, some not) into `buffer` as one double-quoted word."""
    buffer._emit('"', pieces[0].begin, pieces[0].begin)
    for piece in pieces:
        if piece.text is None:
            name = buffer._variable(None, piece.reason or "value not known statically", piece.origin)
            buffer._emit("${" + name + "}", piece.begin, piece.end)
        else:
            buffer._quoted_text([piece], single=False)
    buffer._emit('"', pieces[-1].end, pieces[-1].end)
