"""`CMD=$(cat << EOF ... EOF)`: a command kept in a variable from a here-document.

The substitution's output is the here-document's text (an unquoted delimiter: its `$VARS`
expanded first, as bash does), less its trailing newlines, as bash strips them from a
command substitution's output; each character points where the here-document writes it
(`written_chars.WrittenChars`), so `eval "$CMD"`, `bash -c "$CMD"` or an unquoted `$CMD` read
the launch at its words. Only a plain `cat` of one here-document (`<<`, or `<<-`, whose tabs
that start a line bash removes; no other redirection or pipe) is read; a here-document with a value speclint does not know makes the
value partly known: its known runs read as words, each unknown one any number of words
(`VarValue.runs`), each known run where the here-document writes it.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from speclint.core.spans import Span
    from speclint.frontends.shell.expand import Expander
    from speclint.frontends.shell.text import TextMap
    from speclint.frontends.shell.variables import VarValue

_PARTS = frozenset({"<<", "<<-", "heredoc_start", "heredoc_body", "heredoc_end"})
"""What a plain `<< EOF` redirection holds (tree-sitter-bash puts a pipe or another
redirection written on its first line inside it)."""


def heredoc_value(expander: Expander, node: Node, origin: Span) -> VarValue | None:
    """The value of `$(cat << EOF ... EOF)` (`node`, a command substitution; `$(printf ...)`:
    `printf_value`), or None when the substitution is anything else or the here-document
    holds a value not known."""
    tm = expander.tm
    inner = node.named_children
    if len(inner) == 1 and inner[0].type == "command" and tm.data.startswith(b"printf ", inner[0].start_byte):
        from speclint.frontends.shell.printf_value import printf_value  # `$(printf '... %s' "$X")`

        return printf_value(expander, inner[0], origin)
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
    return redirect_value(expander, redirects[0], origin)


def redirect_value(
    expander: Expander, redirect: Node, origin: Span, read_by: str = "", also: frozenset[str] = frozenset()
) -> VarValue | None:
    """The text of the here-document `redirect` as a value: as a command substitution of
    `cat` gives it (trailing newlines removed), or, `read_by` "read", as `read -r -d ''` puts it
    in one variable (blanks and newlines at both ends removed: IFS's whitespace); None when it
    is no plain here-document or too big. `also`: other parts the redirection may hold (`||`
    and the command after it, on the first line: `read ... << 'EOF' || true`)."""
    from speclint.frontends.shell.heredocs import heredoc_pieces
    from speclint.frontends.shell.variables import MAX_VALUE_CHARS, VarValue
    from speclint.frontends.shell.written_chars import WrittenChars

    tm = expander.tm
    if redirect.type != "heredoc_redirect" or any(c.type not in _PARTS | also for c in redirect.children):
        return None
    built = heredoc_pieces(lambda: expander, tm, redirect)
    if built is None:
        return None
    tabs = any(c.type == "<<-" for c in redirect.children)
    chars: list[tuple[str, int, int]] = []  # (a character, or a placeholder of `built[1]`)
    for text, begin, end in built[0]:
        if text.startswith("${__speclint_") and text[2:-1] in built[1]:
            chars.append((text, begin, end))
            continue
        for char in text:
            if not (tabs and char == "\t" and (not chars or chars[-1][0] == "\n")):
                chars.append((char, begin, end))  # (`<<-`: a tab that starts a line, removed)
    strip = " \t\n" if read_by else "\n"
    if read_by:
        while chars and chars[0][0] in strip:
            chars.pop(0)
    if built[1]:
        return _partly_known(chars, built[1], origin, tm, strip)
    text = "".join(char for char, _, _ in chars)
    kept = len(text.rstrip(strip))
    if kept > MAX_VALUE_CHARS:
        return None
    begins = [begin for _, begin, _ in chars[:kept]]
    ends = [end for _, _, end in chars[:kept]]
    return VarValue(text=text[:kept], origin=origin, written=WrittenChars(begins, ends, tm))


def _partly_known(
    chars: list[tuple[str, int, int]], placeholders: dict[str, str], origin: Span, tm: TextMap, strip: str
) -> VarValue:
    """A here-document holding values not known (`$1`, `$(hostname)`): its known runs, each
    where it is written, and an unknown run for each placeholder `heredoc_pieces` put in."""
    from speclint.frontends.shell.variables import VarValue
    from speclint.frontends.shell.written_chars import WrittenChars

    runs: list[tuple[str | None, str, Span | None]] = []
    written: list[WrittenChars | None] = []
    part: list[tuple[str, int, int]] = []

    def known(last: bool) -> None:
        text = "".join(char for char, _, _ in part)
        kept = len(text.rstrip(strip)) if last else len(text)
        if kept:
            runs.append((text[:kept], "", None))
            written.append(WrittenChars([b for _, b, _ in part[:kept]], [e for _, _, e in part[:kept]], tm))
        part.clear()

    for char, begin, end in chars:
        name = char[2:-1] if char.startswith("${__speclint_") else ""
        if name in placeholders:
            known(last=False)
            runs.append((None, placeholders[name], None))
            written.append(None)
        else:
            part.append((char, begin, end))
    known(last=True)
    reason = next(run[1] for run in runs if run[0] is None)
    if not any(run[0] for run in runs):
        return VarValue(reason=reason, origin=origin)
    return VarValue(reason=reason, origin=origin, runs=tuple(runs), runs_written=tuple(written))
