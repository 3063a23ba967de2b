"""A command a shell script runs that is not SGLang's launcher but passes one of SGLang's
`--speculative-*` options as its own word: `./serve.sh --speculative-algorithm EAGLE3`,
`bash launch.sh --speculative-num-steps 3`, `python my_server.py --speculative-eagle-topk 4`.
The script it runs starts the server itself, and the file may never name SGLang; no other
engine's speculative options have those names, so the flag says what the command starts, and
speclint did not read it: said not read (`no-launch-found`, info) at the flag, as the Python
front-end says such a command (`python.wrapper_flags`; the names of both: `frontends.wrapper_words`).

Not for a command that prints or edits text (`echo`, `grep`, `sed`), that sets the shell's own
arguments (`set -- ...`: a launch that passes "$@" reads them), or whose words name another
engine; only spellings some SGLang release declares, exactly as written.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from speclint.frontends.shell.walking import Walking

_NOT_RUNNERS = frozenset(
    {"echo", "printf", "cat", "grep", "egrep", "fgrep", "rg", "sed", "awk", "gawk", "logger", "tee"}
    | {"set", "shift", "export", "local", "declare", "typeset", "readonly", "unset", "read", "test", "["}
    | {"[[", "printenv", "jq", "yq", "cut", "tr", "sort", "head", "tail", "less", "more", "wc"}
)
_WORDS = ("word", "string", "raw_string", "concatenation")
_SAID = ("no-launch-found", "launcher-not-read", "launch-unread")


def say_wrapper_command(walker: Walking, node: Node, name_node: Node) -> None:
    """`node`, a command that made no launch and names no launcher, when one of its words is
    an SGLang `--speculative-*` option: said not read at that word. Not a "command" that is
    the rest of a launch cut by a missing `\\` or a comment (its name a flag, or its first
    line just after a launch's last: `broken-continuation` says those)."""
    tm = walker.tm
    words = [
        (child, _unquoted(tm.node_text(child), child.type))
        for child in node.children
        if child.type in _WORDS or child.type == "command_name"
    ]
    if not words or words[0][1].startswith("-") or words[0][1].rsplit("/", 1)[-1] in _NOT_RUNNERS:
        return
    where = tm.node_span(node)  # (in the file: an embedded script's lines are the file's)
    line = where.line
    if _cut_from_a_launch(walker, node, line):
        return
    from speclint.frontends.wrapper_words import OTHER_ENGINE, command_name

    written = " ".join(text for _, text in words)
    if OTHER_ENGINE.search(written) is not None:
        return
    if any(d.kind in _SAID and line <= d.span.line <= where.end_line for d in walker.result.diagnostics):
        return
    from speclint.sglang.flags.release_index import option_entries

    options = option_entries()
    for child, text in words:
        flag = text.split("=", 1)[0]
        if flag.startswith("--speculative-") and flag in options:
            _say(walker, flag, child, command_name(written))
            return


def _cut_from_a_launch(walker: Walking, node: Node, line: int) -> bool:
    """Whether `node` may be the rest of a launch that a missing `\\` (or a comment) cut off:
    a launch ends on one of the two lines before it, and no `&` or `;` ends that launch's
    statement (`python -m sglang.launch_server ... &` then `./serve.sh ...`: two commands)."""
    if not any(line - 2 <= launch.span.end_line < line for launch in walker.result.launches):
        return False
    statement = (
        node.parent if node.parent is not None and node.parent.type == "redirected_statement" else node
    )
    before = statement.prev_sibling
    return before is None or before.type not in ("&", ";", "&&", "||", "|")


def _unquoted(text: str, kind: str) -> str:
    if kind in ("string", "raw_string", "command_name") and len(text) > 1 and text[0] == text[-1]:
        return text[1:-1]
    return text


def _say(walker: Walking, flag: str, word: Node, command: str) -> None:
    from speclint.core.diagnostics import Diagnostic

    message = (
        f"this command (`{command}`) is not SGLang's launcher but passes `{flag}`, an option of "
        "SGLang's server: speclint did not read it as a launch, so nothing in it was checked"
    )
    found = Diagnostic("no-launch-found", message, walker.tm.node_span(word))
    if found not in walker.result.diagnostics:  # (a command walked again: a branch, a call)
        walker.result.diagnostics.append(found)
