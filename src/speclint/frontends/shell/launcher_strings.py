"""Where a command speclint did not read as a launch runs SGLang's launcher all the same.

Two forms. The launcher's own words as argv words of a command speclint does not follow
(`xargs python3 -m sglang.launch_server ...`, `watch sglang serve ...`: `launcher_words`). Or
the launcher written inside one argument that the command may run as code: `foo --cmd
"python3 -m sglang.launch_server ..."`, `python3 job.py --server-cmd '...'`, `sbatch job.sh
--wrap "..."` (the shell forms speclint knows, `bash -c`, `ssh`, `sbatch --wrap`, `tmux`, are
read as code and never reach here). Either way nothing in that launch was checked, which the
`launcher-not-read` note says at the words, even beside launches speclint read.

A quoted argument is text, not a command, for commands that print, log, match or store their
arguments (`echo`, `grep`, `pkill -f`, `sed`, `git commit -m`: `TEXT_COMMANDS` and
`_TEXT_ARGUMENTS`), for a function this file defines (speclint read its body with the
argument: had it run the string, the launch would be read), and inside `$(...)` (walked as
commands of their own). Only an invocation counts (`python3 -m sglang.launch_server`, `sglang
serve`, a benchmark module: `recognise.module_entry`), never a bare module name.
"""

from __future__ import annotations

import re

from speclint.frontends.shell.launcher_words import (
    TEXT_COMMANDS,
    launcher_end,
    launcher_in_arguments,
    static_word,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Container

    from tree_sitter import Node

    from speclint.core.diagnostics import Diagnostic
    from speclint.core.spans import Span
    from speclint.frontends.shell.text import TextMap
    from speclint.frontends.shell.walking import Walking

_TOKEN = re.compile(rb"[^\s;&|()<>'\"`\\]+")
"""A word of shell or Python code inside a string, as far as finding an invocation needs."""
_NOT_ARGUMENTS = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect", "comment"})
_SUBSTITUTIONS = frozenset({"command_substitution", "process_substitution"})
_TEXT_ARGUMENTS = frozenset(
    {"sed", "awk", "gawk", "mawk", "git", "jq", "yq", "tee", "cat", "wall", "notify-send", "alias", "read"}
    | {"test", "[", "[[", "mail", "sendmail", "write", "zenity", "whiptail", "dialog", "speclint"}
)
"""Commands whose string arguments are text they edit, store, show or define (an alias runs
only where it is called), never code they run; `speclint run` checks the command it runs."""


def note(walker: Walking, node: Node, name: str) -> Diagnostic | None:
    """The `launcher-not-read` note for a command speclint read no launch through (`name`:
    how the command is written), or None when it runs no launcher."""
    from speclint.core.diagnostics import Diagnostic

    if _noted_inside(walker, node):  # (`tmux send-keys '...'` without Enter: `typed_lines`)
        return None
    runs = launcher_in_arguments(node, walker.tm)
    if runs is not None:  # the launcher's words as argv words
        span, words = runs
        message = (
            f"speclint did not read this command, which runs `{words}` through `{name}`: "
            f"speclint reads no launch through `{name}`, so nothing in this launch was checked"
        )
        return Diagnostic("launcher-not-read", message, span)
    inside = launcher_in_strings(node, walker.tm, walker.definitions)
    if inside is None:
        return None
    span, words = inside
    message = (
        f"speclint did not read this command: `{name}` is given `{words}` inside one argument, "
        f"which it may run as a command; speclint does not read what `{name}` runs, so nothing "
        "in this launch was checked"
    )
    return Diagnostic("launcher-not-read", message, span)


def old_dynamo_module(module: str, span: Span) -> Diagnostic:
    """`python -m dynamo.sglang.worker` (ai-dynamo 0.4 and 0.5's SGLang worker modules, whose
    parsers speclint has not read): said not read at the module, even beside launches read."""
    from speclint.core.diagnostics import Diagnostic

    return Diagnostic(
        "launcher-not-read",
        f"speclint did not read this command: `{module}` is one of ai-dynamo's older SGLang "
        "worker modules, whose parser speclint has not read (it reads `python -m dynamo.sglang`), "
        "so nothing in this launch was checked",
        span,
    )


def launcher_in_strings(node: Node, tm: TextMap, functions: Container[str] = ()) -> tuple[Span, str] | None:
    """The span and words of the first launcher invocation inside an argument of the command
    at `node`; None when there is none, or the command treats its arguments as text (see the
    module's docstring; `functions`: the names the file defines as shell functions)."""
    name_node = node.child_by_field_name("name")
    if name_node is None:
        return None
    name = tm.node_text(name_node)
    if name in functions:
        return None
    seen = [name]
    for child in node.children:
        if not child.is_named or child.start_byte < name_node.end_byte or child.type in _NOT_ARGUMENTS:
            continue
        if any(_is_text_command(word) for word in seen):
            return None
        found = launcher_in_text(_text_outside_substitutions(child, tm))
        if found is not None:
            begin, end, words = found
            return tm.span(child.start_byte + begin, child.start_byte + end), words
        seen.append(static_word(child, tm) or "")
    return None


def launcher_in_text(text: bytes) -> tuple[int, int, str] | None:
    """Where the first launcher invocation in `text` starts and ends (byte offsets) and its
    words (`python3 -u -m sglang.launch_server`, `sglang serve`), or None. A token's part after
    its last `=` is what may run (`--cmd=python3`, `CUDA_VISIBLE_DEVICES=0`)."""
    if b"sglang" not in text:
        return None
    matches = list(_TOKEN.finditer(text))
    starts = [match.start() + match.group().rfind(b"=") + 1 for match in matches]
    tokens: list[str | None] = [
        text[start : match.end()].decode("utf-8", "replace") for start, match in zip(starts, matches)
    ]
    for i in range(len(tokens)):
        end = launcher_end(tokens, i)
        if end is not None:
            return starts[i], matches[end - 1].end(), " ".join(token or "" for token in tokens[i:end])
    return None


def _noted_inside(walker: Walking, node: Node) -> bool:
    """Whether a front-end helper already noted a launcher it did not read in this command."""
    span = walker.tm.node_span(node)
    return any(
        said.kind == "launcher-not-read"
        and (span.line, span.column) <= (said.span.line, said.span.column) <= (span.end_line, span.end_column)
        for said in walker.result.diagnostics
    )


def _is_text_command(word: str) -> bool:
    base = word.rsplit("/", 1)[-1]
    return base in TEXT_COMMANDS or base in _TEXT_ARGUMENTS


def _text_outside_substitutions(node: Node, tm: TextMap) -> bytes:
    """The argument's bytes as written, each `$(...)` in it blanked (the commands inside are
    walked, and reported, on their own)."""
    start, end = node.start_byte, node.end_byte
    data = tm.data[start:end]
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type in _SUBSTITUTIONS:
            begin, finish = current.start_byte - start, current.end_byte - start
            data = data[:begin] + b" " * (finish - begin) + data[finish:]
            continue
        stack.extend(current.named_children)
    return data
