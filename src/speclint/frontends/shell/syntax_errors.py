"""The syntax error a shell script's tree holds, said at the token that explains it (an
unclosed quote or keyword, a missing closer), or the parser gap tree-sitter-bash has where bash
accepts the text (`${x:$1}`). Moved out of `checks`, which asks only for a tree with an error."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from speclint.core.diagnostics import Diagnostic
    from speclint.frontends.shell.text import TextMap

_OPENERS = {
    "if": "fi",
    "case": "esac",
    "for": "done",
    "while": "done",
    "until": "done",
    "{": "}",
    "(": ")",
    "$(": ")",
    "do": "done",
    "then": "fi",
}
_QUOTES = {'"': "double-quoted string", "'": "single-quoted string", "`": "backtick command substitution"}


def syntax_diagnostic(node: Node, tm: TextMap) -> Diagnostic:
    """Point at the token that explains the error: an unclosed quote or keyword if there is one."""
    from speclint.core.diagnostics import Diagnostic

    suffix = " (bash would refuse to run this script)"
    gap = _offset_expansion_gap(node, tm)
    if gap is not None:
        return gap
    if node.is_missing:
        opener = node.parent
        where = (
            f" to close the `{opener.type.split('_')[0]}` at line {tm.node_span(opener).line}"
            if opener is not None and opener.type != "program"
            else ""
        )
        anchor = opener.children[0] if where and opener is not None and opener.children else node
        return Diagnostic(
            "syntax-error", f"syntax error: missing `{node.type}`{where}{suffix}", tm.node_span(anchor)
        )
    children = node.children
    for child in children:
        if not child.is_named and child.type in _QUOTES:
            message = f"syntax error: unterminated {_QUOTES[child.type]} (opened here){suffix}"
            return Diagnostic("syntax-error", message, tm.node_span(child))
    unclosed: list[Node] = []
    for child in children:
        if child.is_named:
            continue
        if unclosed and child.type == _OPENERS[unclosed[-1].type]:
            unclosed.pop()
        elif child.type in _OPENERS and child.type not in ("do", "then"):
            unclosed.append(child)
    if unclosed:
        opener = unclosed[0]
        closer = _OPENERS[opener.type]
        message = f"syntax error: `{opener.type}` is never closed (no matching `{closer}`){suffix}"
        return Diagnostic("syntax-error", message, tm.node_span(opener))
    culprit = next((c for c in children if not c.is_named or c.type == "ERROR"), node)
    lines = tm.node_text(culprit).strip().splitlines()
    snippet = lines[0][:40] if lines else ""
    span = tm.node_span(culprit)
    if snippet[:1] in _QUOTES:
        return Diagnostic(
            "syntax-error",
            f"syntax error: unterminated {_QUOTES[snippet[0]]} (opened here){suffix}",
            type(span)(span.line, span.column, span.line, span.column + 1),
        )
    if span.line != span.end_line:
        span = type(span)(span.line, span.column, span.line, span.column + 1)
    near = f"near `{snippet}`" if snippet.strip() else "at end of input"
    return Diagnostic("syntax-error", f"syntax error {near}{suffix}", span)


def _offset_expansion_gap(node: Node, tm: TextMap) -> Diagnostic | None:
    """tree-sitter-bash cannot read a `$NAME` as the offset of `${x:offset}` (`${@:$#}`,
    `${x:$1}`; a variable's, `${GPUS:$i:1}`, is read anyway: `offsets`), which bash accepts:
    it reports a missing `}` after the colon. That is
    speclint's parser failing, not bash refusing: a `parser-gap` (a warning), not a syntax error."""
    parent = node.parent
    if not node.is_missing or node.type != "}" or parent is None or parent.type != "expansion":
        return None
    if [child.type for child in parent.children][-2:] != [":", "}"]:
        return None
    data = tm.data
    start = node.start_byte
    while start < len(data) and data[start] in b" \t":
        start += 1
    if data[start : start + 1] != b"$":
        return None
    end = start + 1
    while end < len(data) and (data[end : end + 1].isalnum() or data[end] in b"_#@*?$!-"):
        end += 1
        if data[start + 1 : end][:1] in (b"#", b"@", b"*", b"?", b"$", b"!", b"-"):
            break  # a special parameter is one character
    from speclint.core.diagnostics import Diagnostic

    written = tm.node_text(parent) + tm.data[node.start_byte : end].decode("utf-8", "surrogatepass")
    name = data[start + 1 : end].decode("utf-8", "surrogatepass")
    return Diagnostic(
        "parser-gap",
        f"speclint's shell parser (tree-sitter-bash) cannot read `${name}` as the offset in "
        f"`{written}...`, which bash accepts: this command may be misread from here on; "
        f"`${{{name}}}` in its place means the same and parses",
        tm.span(start, end),
    )
