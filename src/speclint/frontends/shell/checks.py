"""File-level findings of the shell front-end: comments, syntax errors, broken continuations.

A comment inside a `\\`-continued command ends that command (the joined line is a comment up
to its newline), and `\\` followed by blanks is an escaped blank, not a continuation. In both
cases the flags on the next lines run as a command of their own and never reach SGLang;
bash does exactly this and so does tree-sitter, so these checks only explain it.
"""

from __future__ import annotations

from functools import cache

from speclint.core import patterns

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Iterator

    from tree_sitter import Node

    from speclint.core.diagnostics import Diagnostic
    from speclint.core.launches import ExtractResult
    from speclint.frontends.shell.text import TextMap


@cache  # compiled on first use: few scripts have a blank after a `\`
def _trailing_blank_after_backslash() -> re.Pattern[str]:
    return patterns.compile(r"(?<!\\)((?:\\\\)*)(\\[ \t\r]+)(#[^\n]*)?$", patterns.MULTILINE)


def _comment_nodes(root: Node) -> list[Node]:
    """Every comment, in file order, found with a tree cursor: linear in the size of the tree,
    where a `(comment)` query is quadratic on the wide ERROR node of a broken file (100 KB of
    `(` took 8 s)."""
    found: list[Node] = []
    cursor = root.walk()
    while True:
        node = cursor.node
        if node is not None and node.type == "comment":
            found.append(node)
        if cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return found


_FEW_HASHES = 32


def _comments_at_hashes(root: Node, data: bytes) -> list[Node] | None:
    """The comments, found from each `#` (most scripts have a handful: the shebang and a few
    notes) instead of walking the whole tree; None when there are too many `#` to look up."""
    if data.count(b"#") > _FEW_HASHES:
        return None
    found: list[Node] = []
    position = data.find(b"#")
    while position >= 0:
        node = root.descendant_for_byte_range(position, position + 1)
        if node is not None and node.type == "comment" and node.start_byte == position:
            found.append(node)
            position = node.end_byte
        else:
            position += 1
        position = data.find(b"#", position)
    return found


def collect_comments(root: Node, tm: TextMap, result: ExtractResult) -> list[Node]:
    if tm.data.find(b"#") < 0:  # (`find`: see `frontends.recognise.names_launcher`)
        nodes: list[Node] = []
    else:
        at_hashes = _comments_at_hashes(root, tm.data)
        nodes = at_hashes if at_hashes is not None else _comment_nodes(root)
    for node in nodes:
        result.comments.append((tm.node_span(node), tm.node_text(node)))
    return nodes


def first_syntax_error(root: Node, tm: TextMap) -> Diagnostic | None:
    if not root.has_error:
        return None
    cursor = root.walk()
    while True:
        node = cursor.node
        if node is not None and (node.is_missing or node.type == "ERROR"):
            from speclint.frontends.shell.syntax_errors import syntax_diagnostic

            return syntax_diagnostic(node, tm)
        if node is not None and node.has_error and cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return None


def _next_code_line(lines: list[str], index: int) -> int | None:
    """Index of the first line after `index` that is neither blank nor a comment."""
    for k in range(index + 1, len(lines)):
        stripped = lines[k].strip()
        if stripped and not stripped.startswith("#"):
            return k
    return None


@cache  # compiled on first use: most texts have no flag line after a line end
def _next_line_flag() -> re.Pattern[str]:
    """A line end followed by a line of flags (a literal first character: searched fast), or
    by the tail of a wrapped line and flags: a number (`131072 --mem-fraction-static 0.8`, a
    value cut from its flag), a directory (`b1950/ --port 30000`, the end of a cut path) or a
    word starting with a capital letter (`LE3 --port 30000`, the end of a cut model name),
    which no shell runs as a command. Not after a line that one `\\` continues (most lines
    of flags follow one): the lookbehinds refuse it at its line end, before the rest is tried."""
    return patterns.compile(
        r"\n(?:(?<!\\\n)|(?<=\\\\\n))[ \t]*(?:(?:\d+(?:\.\d+)?|[^\s'\"\\#$;&|<>()]*/|[A-Z][^\s'\"\\#$;&|<>()=]*)[ \t]+)?--[A-Za-z]"
    )


@cache  # compiled on first use: only where a line of flags follows one without a `\`
def _break_patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """A line of flags; a line that is one unknown value; `launch_server --help` (the lines
    after it are the help it prints, pasted)."""
    return (
        patterns.compile(r"[ \t]*--[A-Za-z]"),
        patterns.compile(r"[ \t]*\$\{__speclint_\d+\}[ \t]*"),
        patterns.compile(r"(?<!\S)(?:--help|-h)(?!\S)"),
    )


def _missing_continuations(root: Node, tm: TextMap) -> list[Diagnostic]:
    """A line of a launch that ends without `\\` while the next line holds its flags
    (`--speculative-algorithm EAGLE`): bash ends the launch at that line end and runs the
    flags as a command of their own (`--speculative-algorithm: command not found`), so they
    never reach SGLang. Reported once per break, at the last character of the line."""
    text = tm.text
    if "\n" not in text or "--" not in text:
        return []
    lines: list[str] = []
    found: list[Diagnostic] = []
    after = 0  # the first row a break may be reported at (past the flag lines of the last one)
    for row, written in _lines_before_flag_lines(text):
        line = written.rstrip("\r")
        if row < after or _ends_with_continuation(line.rstrip(" \t")) or not line.strip():
            continue
        flag_line, unknown_line, help_flag = _break_patterns()
        lines = lines or text.split("\n")
        start = row
        while start > 0 and _ends_with_continuation(lines[start - 1].rstrip("\r")):
            start -= 1
        command = "\n".join(lines[start : row + 1])
        # a doc's `...` line (words left out, an unknown value in the buffer): the command goes on
        elided = line.rstrip().endswith(("...", "\u2026")) or unknown_line.fullmatch(line) is not None
        if elided or line.lstrip().startswith("#") or not _launch_text(command) or help_flag.search(command):
            continue
        if not _starts_command(root, tm, row + 1, lines):
            continue
        first = lines[row + 1].split()[0]
        last = len(line.rstrip()) - 1
        at = len("\n".join(lines[:row]).encode()) + (1 if row else 0) + len(line[:last].encode())
        from speclint.core.diagnostics import Diagnostic

        if first.startswith("-"):
            message = (
                f"this line ends the command without a `\\`: `{first}` and the flags after it on the "
                "following lines are not passed to SGLang (bash runs them as a separate command); end "
                "this line with ` \\` to continue the command"
            )
        else:  # the tail of a wrapped line: a value or the rest of a path, then flags
            message = (
                f"this line ends the command: `{first}` (the rest of a wrapped line?) and the flags "
                "after it on the next line are not passed to SGLang (bash runs them as a separate "
                "command); join the two lines, or end this one with ` \\` if the word stands alone"
            )
        found.append(Diagnostic("broken-continuation", message, tm.span(at, at + len(line[last].encode()))))
        after = row + 1
        while after < len(lines) and (flag_line.match(lines[after]) or not lines[after].strip()):
            after += 1
    return found


def _lines_before_flag_lines(text: str) -> Iterator[tuple[int, str]]:
    """Each line whose next line starts with a `--flag`, with its row, in order (but for those
    ending in one `\\`: continued): one search of the text, not a match per line."""
    row = position = 0
    for match in _next_line_flag().finditer(text):  # (not after a line one `\` continues)
        end = match.start()
        row += text.count("\n", position, end)
        position = end
        yield row, text[text.rfind("\n", 0, end) + 1 : end]


def _launch_text(command: str) -> bool:
    found = _LAUNCH_TEXT or _load_launch_text()
    return found.search(command) is not None


_LAUNCH_TEXT: re.Pattern[str] | None = None
"""`recognise.LAUNCH_TEXT`, kept here once asked for: `from recognise import LAUNCH_TEXT` in
`_launch_text` asked the module (whose `__getattr__` compiles its patterns) for a `__path__`
on each call, an AttributeError raised and caught each time (~720 calls on 647 scripts)."""


def _load_launch_text() -> re.Pattern[str]:
    global _LAUNCH_TEXT
    import speclint.frontends.recognise as recognise  # (compiled when first asked for)

    _LAUNCH_TEXT = recognise.LAUNCH_TEXT
    return _LAUNCH_TEXT


def _receiver(lines: list[str], row: int) -> str:
    """Who the lines cut off were meant for: SGLang when the `\\`-continued command that ends
    at `row` is a launch, else the command itself (a wrapper's own flags are not SGLang's)."""
    start = row
    while start > 0 and _ends_with_continuation(lines[start - 1].rstrip("\r \t")):
        start -= 1
    return "SGLang" if _launch_text("\n".join(lines[start : row + 1])) else "the command"


def _ends_with_continuation(line: str) -> bool:
    stripped_len = len(line) - len(line.rstrip("\\"))
    return stripped_len % 2 == 1


def _starts_command(root: Node, tm: TextMap, line_index: int, lines: list[str]) -> bool:
    """Whether the first word on this line is the name of a command of its own."""
    column = len(lines[line_index]) - len(lines[line_index].lstrip())
    byte = (
        len("\n".join(lines[:line_index]).encode())
        + (1 if line_index else 0)
        + len(lines[line_index][:column].encode())
    )
    node = root.descendant_for_byte_range(byte, byte + 1)
    while node is not None and node.type not in ("command_name", "command", "program"):
        node = node.parent
    return node is not None and node.type == "command_name"


def broken_continuations(
    root: Node, tm: TextMap, comments: list[Node], lines_end_commands: bool = True
) -> list[Diagnostic]:
    """`lines_end_commands`: the text is run by a shell (a line end ends a command), so a
    launch line without `\\` before a line of its flags is broken too."""
    text = tm.text
    missing = _missing_continuations(root, tm) if lines_end_commands else []
    if "\\" not in text:  # no backslash: nothing continues
        return missing
    blanks_after_backslash = "\\ " in text or "\\\t" in text or "\\\r" in text
    if not blanks_after_backslash and all(comment.start_point.row == 0 for comment in comments):
        return missing  # (most scripts: no comment but a `#!` line, nothing to split the text for)
    lines = text.split("\n")
    found: list[Diagnostic] = []
    for comment in comments:
        row = comment.start_point.row
        if row == 0 or not _ends_with_continuation(lines[row - 1]):
            continue
        previous_line = lines[row - 1]
        backslash_at = len(previous_line.encode()) - 1
        line_start_byte = len("\n".join(lines[: row - 1]).encode()) + (1 if row > 1 else 0)
        holder = root.descendant_for_byte_range(
            line_start_byte + backslash_at, line_start_byte + backslash_at + 1
        )
        if holder is not None and holder.type in ("comment", "raw_string", "string_content", "heredoc_body"):
            continue
        target = _next_code_line(lines, comment.end_point.row)
        if target is None or not lines[target].lstrip().startswith("-"):
            continue
        if not _starts_command(root, tm, target, lines):
            continue
        first = lines[target].split()[0]
        message = (
            f"this comment ends the `\\`-continued command above it: `{first}` and the "
            f"flags after it on the following lines are not passed to {_receiver(lines, row - 1)} "
            "(bash runs them as a separate command)"
        )
        from speclint.core.diagnostics import Diagnostic

        found.append(Diagnostic("broken-continuation", message, tm.node_span(comment)))
    for match in _trailing_blank_after_backslash().finditer(text) if blanks_after_backslash else ():
        start_char = match.start(2)
        row = tm.text.count("\n", 0, start_char)
        start_byte = len(tm.text[:start_char].encode())
        holder = root.descendant_for_byte_range(start_byte, start_byte + 1)
        if holder is not None and holder.type in ("comment", "raw_string", "string_content", "heredoc_body"):
            continue
        target = _next_code_line(lines, row)
        if target is None or target != row + 1 or not lines[target].lstrip().startswith("-"):
            continue
        first = lines[target].split()[0]
        span = tm.span(start_byte, start_byte + len(match.group(2).encode()))
        receiver = _receiver(lines, row)
        if match.group(2) == "\\\r":  # a CRLF line end: bash reads `\` + CR, then LF ends it
            span = tm.span(start_byte, start_byte + 1)
            message = (
                f"`\\` before a CRLF line end is not a line continuation in bash (the `\\` "
                f"escapes the carriage return): the command ends here and `{first}` on the "
                f"next line is not passed to {receiver}; save the file with LF line ends "
                "(`dos2unix`)"
            )
        else:
            message = (
                f"`\\` followed by trailing whitespace is not a line continuation: the "
                f"command ends here and `{first}` on the next line is not passed to {receiver}"
            )
        from speclint.core.diagnostics import Diagnostic

        found.append(Diagnostic("broken-continuation", message, span))
    said = {d.span.line for d in found}  # a comment that ends the line is said once, there
    found.extend(d for d in missing if d.span.line not in said)
    found.sort(key=lambda d: (d.span.line, d.span.column))
    return found
