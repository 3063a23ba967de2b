"""Where a shell command that speclint did not read as a launch still runs SGLang's launcher.

`seq 0 3 | xargs -I{} python3 -m sglang.launch_server --port 300{}`, `watch -n 60 sglang
serve ...` or `with_retry 3 python -m sglang.launch_server ...` hand the launcher's own words
(`python3` `-m` `sglang.launch_server`, `sglang` `serve`) to a command speclint does not
follow. Those words, standing as separate argv words after the command's name, are what
the command runs; the launcher named inside one quoted word (`pkill -f "sglang.launch_server"`,
`echo "python -m sglang.launch_server ..."`) is text, not a command. Commands that only print
or match their arguments (`echo`, `grep`, `pkill`) never run them, so they are left out too.
"""

from __future__ import annotations

from speclint.core import patterns
from speclint.frontends.recognise import command_entry, module_entry

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from speclint.core.spans import Span
    from speclint.frontends.shell.text import TextMap

_PYTHON = patterns.compile(r"(python|pypy)(\d+(\.\d+)*t?)?")
_VALUE_OPTIONS = frozenset({"-W", "-X", "-Q"})
"""CPython's interpreter options that take the next word as their value (`python -W ignore -m`)."""
TEXT_COMMANDS = frozenset(
    {"echo", "printf", "print", ":", "grep", "egrep", "fgrep", "rg", "pgrep", "pkill", "ps", "logger"}
)
"""Commands that print, log or match their arguments and never run them."""


def static_word(node: Node, tm: TextMap) -> str | None:
    """The text of one argv word written without expansions, or None."""
    if node.type == "word":
        return tm.node_text(node)
    if node.type == "raw_string":
        return tm.node_text(node)[1:-1]
    if node.type == "string" and all(c.type in ('"', "string_content") for c in node.children):
        return tm.node_text(node)[1:-1]
    return None


def launcher_end(words: list[str | None], i: int) -> int | None:
    """The index after the launcher's words when they start at `i`, else None."""
    first = words[i]
    if first is None:
        return None
    base = first.rsplit("/", 1)[-1]
    if command_entry(base, words[i + 1] if i + 1 < len(words) else None) is not None:
        return i + 2
    if _PYTHON.fullmatch(base) is None:
        return None
    j = i + 1
    while j < len(words) and (words[j] or "").startswith("-") and words[j] != "-m":
        j += 2 if words[j] in _VALUE_OPTIONS else 1
    if j + 1 < len(words) and words[j] == "-m" and module_entry(words[j + 1]) is not None:
        return j + 2
    return None


def launcher_in_arguments(node: Node, tm: TextMap) -> tuple[Span, str] | None:
    """The span and text of the launcher's words among a command's arguments (after its
    name), or None when they are not there as separate words or the command never runs its
    arguments."""
    name_node = node.child_by_field_name("name")
    if name_node is None or tm.node_text(name_node).rsplit("/", 1)[-1] in TEXT_COMMANDS:
        return None
    nodes = [c for c in node.children if c.is_named and c.start_byte >= name_node.end_byte]
    nodes = [c for c in nodes if c.type not in ("file_redirect", "heredoc_redirect", "herestring_redirect")]
    words = [static_word(c, tm) for c in nodes]
    if tm.node_text(name_node).rsplit("/", 1)[-1] == "speclint" and words[:1] == ["run"]:
        return None  # `speclint run -- COMMAND`: speclint checks the command when it runs it
    for i in range(len(words)):
        end = launcher_end(words, i)
        if end is not None:
            first, last = nodes[i], nodes[end - 1]
            return tm.span(first.start_byte, last.end_byte), " ".join(w or "" for w in words[i:end])
    return None
