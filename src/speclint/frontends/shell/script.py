"""Shell front-end: SGLang launches in bash scripts, found without running anything.

The script is parsed with tree-sitter-bash and walked statically; no part of it is executed,
sourced or evaluated. See `walk` (control flow and variables), `expand` (words),
`fields` (word splitting), `launch` (wrappers, docker, ssh, `bash -c`),
`nested` (code inside strings) and `checks` (comments, errors).
"""

from __future__ import annotations

from functools import cache

from speclint.core import patterns
from speclint.core.launches import ExtractResult
from speclint.frontends.shell.checks import broken_continuations, collect_comments, first_syntax_error
from speclint.frontends.shell.text import TextMap, drop_final_continuation, line_starts_of, parse_bytes
from speclint.frontends.shell.variables import Env
from speclint.frontends.shell.walk import Walker

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Callable

    from tree_sitter import Node

    from speclint.core.diagnostics import Diagnostic
    from speclint.core.spans import Span
    from speclint.frontends.shell.walking import UnitReader


@cache  # compiled on first use: a script that is not ASCII
def _lone_surrogate() -> re.Pattern[str]:
    return patterns.compile("[\ud800-\udfff]")


def extract_shell(text: str, path: str, unit_reader: UnitReader | None = None) -> ExtractResult:
    """Every SGLang launch in a shell script, with exact positions, plus comments and
    diagnostics (syntax errors, continuations cut short by a comment or trailing blanks).
    `unit_reader`: what reads a here-document's unit, program or manifest (default
    `read_unit`; `manifest_reader.read_unit_or_manifest` reads manifests too)."""
    result = ExtractResult()
    if not text.isascii():  # a lone surrogate would let tree-sitter split a character
        text = _lone_surrogate().sub("\ufffd", text)
    tm = drop_final_continuation(TextMap(text, line_starts_of(text)))
    tree = parse_bytes(tm.data)
    root = tree.root_node
    comments = collect_comments(root, tm, result)
    error = first_syntax_error(root, tm)
    if error is not None:
        result.diagnostics.append(error)
    result.diagnostics.extend(broken_continuations(root, tm, comments))
    env = Env()
    exported = None
    if "#SBATCH" in text:  # a Slurm batch script: its `#SBATCH --export` values
        from speclint.frontends.shell.sbatch import batch_script_env

        exported = batch_script_env(tm, env)
    walker = Walker(result, path, tm, env)
    walker.unit_reader = unit_reader or read_unit
    try:
        walker.run(root)
    except RecursionError:  # thousands of nested `$(`, `(`, `if`: report it, keep the rest
        result.diagnostics.append(_too_deep(root, tm))
    if not result.launches:  # a doc fragment: only an array of prefixed flags (slime)
        from speclint.frontends.manifests.prefixed import array_launches, mentions

        if mentions(tm.data):
            result.launches.extend(array_launches(walker.env.vars, path))
    if exported is not None:
        from speclint.frontends.shell.sbatch import mark_assumed

        mark_assumed(result.launches, *exported)
    result.launches.sort(key=lambda launch: (launch.span.line, launch.span.column))
    result.comments.sort(key=lambda item: (item[0].line, item[0].column))
    return result


def read_unit(
    text: str, path: str, written: dict[str, str], move: Callable[[Span], Span], destination: str
) -> ExtractResult:
    """A systemd unit, drop-in or Quadlet file a script writes to `destination` with a
    here-document (`unit_heredoc`), or the Python program a here-document feeds an
    interpreter (`destination` is `python_heredoc.PYTHON_STDIN`), read by the systemd (or Quadlet) front-end, which walks
    its commands with this walker (handed to the walker from here and from
    `embedded.ShellBuffer.walk`, so that the walker's modules do not import it back),
    positions passed through `move` to the script's (and so to the file's, for shell code
    cut out of a Markdown block, a YAML `run:` or a Makefile recipe)."""
    from speclint.frontends.moved_spans import map_spans
    from speclint.frontends.shell.manifest_heredoc import MANIFEST_STDIN
    from speclint.frontends.shell.python_heredoc import PYTHON_STDIN
    from speclint.frontends.unit_paths import drop_in_base, unit_file_kind

    if destination == MANIFEST_STDIN:  # `kubectl apply -f - << EOF`: `manifest_reader` reads it
        from speclint.core.diagnostics import Diagnostic
        from speclint.core.spans import Span

        return ExtractResult(diagnostics=[Diagnostic("unsupported-input", "not read here", Span.point(1, 1))])
    if destination == PYTHON_STDIN:  # `python3 - << EOF`: a program, read by the Python front-end
        from speclint.frontends.python.extract import extract_python

        return map_spans(extract_python(text + "\n", path), move)
    if unit_file_kind(destination) == "quadlet":
        from speclint.frontends.commands.quadlet import extract_quadlet

        return map_spans(extract_quadlet(text, path, written, drop_in_base(destination, ".container")), move)
    from speclint.frontends.commands.systemd import extract_unit

    return map_spans(extract_unit(text, path, written, base=drop_in_base(destination)), move)


def _too_deep(root: Node, tm: TextMap) -> Diagnostic:
    """Where the nesting is deepest (found without recursion), as an unsupported-input finding."""
    from speclint.core.diagnostics import Diagnostic

    cursor, depth, deepest, where = root.walk(), 0, -1, root
    while True:
        if depth > deepest and cursor.node is not None:  # a cursor is always on a node
            deepest, where = depth, cursor.node
        if cursor.goto_first_child():
            depth += 1
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                span = tm.node_span(where)
                return Diagnostic(
                    "unsupported-input",
                    "nested too deeply for speclint to follow; launches inside are not checked",
                    span.sub(0, 1) if span.line == span.end_line else span,
                )
            depth -= 1
