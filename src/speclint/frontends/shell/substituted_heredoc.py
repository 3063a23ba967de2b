"""`CMD=$(cat << EOF ... EOF)`: a command kept in a variable from a here-document.

The substitution's output is the here-document's text (an unquoted delimiter: its `$VARS`
expanded first, as bash does), less its trailing newlines, as bash strips them from a
command substitution's output; each character points where the here-document writes it
(`written_chars.WrittenChars`), so `eval "$CMD"`, `bash -c "$CMD"` or an unquoted `$CMD` read
the launch at its words. Only a plain `cat` of one here-document (`<<`, not `<<-`, no other
redirection or pipe) is read; a here-document with a value speclint does not know makes the
value partly known: its known runs read as words, each unknown one any number of words
(`VarValue.runs`), placed at the substitution.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from speclint.core.spans import Span
    from speclint.frontends.shell.expand import Expander
    from speclint.frontends.shell.variables import VarValue

_PARTS = frozenset({"<<", "heredoc_start", "heredoc_body", "heredoc_end"})
"""What a plain `<< EOF` redirection holds (tree-sitter-bash puts a pipe or another
redirection written on its first line inside it)."""


def heredoc_value(expander: Expander, node: Node, origin: Span) -> VarValue | None:
    """The value of `$(cat << EOF ... EOF)` (`node`, a command substitution), or None when the
    substitution is anything else or the here-document holds a value not known."""
    from speclint.frontends.shell.heredocs import heredoc_pieces
    from speclint.frontends.shell.variables import MAX_VALUE_CHARS, VarValue
    from speclint.frontends.shell.written_chars import WrittenChars

    tm = expander.tm
    inner = node.named_children
    if b"<<" not in tm.data[node.start_byte : node.end_byte]:
        return None
    if len(inner) != 1 or inner[0].type != "redirected_statement":
        return None
    command = inner[0].child_by_field_name("body")
    redirects = [c for c in inner[0].named_children if c.type != "command"]
    if command is None or command.type != "command" or len(command.named_children) != 1:
        return None  # (`cat` and nothing else: no file operand, no `-`, no assignment)
    if tm.node_text(command.named_children[0]) != "cat" or len(redirects) != 1:
        return None
    redirect = redirects[0]
    if redirect.type != "heredoc_redirect" or any(c.type not in _PARTS for c in redirect.children):
        return None
    built = heredoc_pieces(lambda: expander, tm, redirect)
    if built is None:
        return None
    if built[1]:
        return _partly_known(*built, origin)
    text_parts: list[str] = []
    begins: list[int] = []
    ends: list[int] = []
    for text, begin, end in built[0]:
        text_parts.append(text)
        begins.extend([begin] * len(text))
        ends.extend([end] * len(text))
    text = "".join(text_parts)
    kept = len(text.rstrip("\n"))
    if kept > MAX_VALUE_CHARS:
        return None
    return VarValue(text=text[:kept], origin=origin, written=WrittenChars(begins[:kept], ends[:kept], tm))


def _partly_known(pieces: list[tuple[str, int, int]], placeholders: dict[str, str], origin: Span) -> VarValue:
    """A here-document holding values not known (`$1`, `$(hostname)`): its known runs and
    an unknown run for each placeholder `heredoc_pieces` put in."""
    from speclint.frontends.shell.variables import VarValue

    runs: list[tuple[str | None, str, Span | None]] = []
    parts: list[str] = []
    for text, _begin, _end in pieces:
        name = text[2:-1] if text.startswith("${__speclint_") else ""
        if name in placeholders:
            runs.append(("".join(parts), "", None))
            runs.append((None, placeholders[name], None))
            parts = []
        else:
            parts.append(text)
    runs.append(("".join(parts).rstrip("\n"), "", None))
    reason = next(run[1] for run in runs if run[0] is None)
    known = tuple(run for run in runs if run[0] != "")
    return VarValue(reason=reason, origin=origin, runs=known if any(run[0] for run in known) else None)
