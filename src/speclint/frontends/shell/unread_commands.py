"""A command that names SGLang's launcher but is not a launch speclint reads (`xargs python -m
sglang.launch_server`, `foo --cmd "python -m ..."`, `echo ...`): said, with why, for the
no-launch-found finding (moved out of `walk`)."""

from __future__ import annotations

from speclint.frontends.recognise import names_launcher

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from speclint.frontends.shell.walking import Walking


def unread_command(walker: Walking, node: Node, name_node: Node) -> None:
    """Say why the command `node` (named at `name_node`) that names the launcher was not read."""
    raw = walker.tm.data[node.start_byte : node.end_byte]
    if not walker.collect:
        return
    if not names_launcher(raw):
        if raw.find(b"--speculative-") >= 0:  # a wrapper run with SGLang's flags (`wrapper_flags`)
            from speclint.frontends.shell.wrapper_flags import say_wrapper_command

            say_wrapper_command(walker, node, name_node)
        return
    from speclint.core.diagnostics import Diagnostic
    from speclint.frontends.shell.builtin_commands import run_command_name

    name_node = run_command_name(walker.tm, node, name_node)
    written = walker.tm.node_text(name_node)
    name = " ".join(written.split())[:40]
    span = walker.tm.node_span(name_node)
    walker.result.diagnostics.append(
        Diagnostic(
            "launch-unread",
            f"the command `{name}` at line {span.line} names the launcher, and "
            f"speclint reads no launch through `{name}`{_pasted_space(written[:40])}",
            span,
        )
    )
    from speclint.frontends.shell.launcher_strings import note

    runs = note(walker, node, name)
    if runs is not None:  # what the command runs: reported even beside launches read
        walker.result.diagnostics.append(runs)


def _pasted_space(name: str) -> str:
    """Why a command name holding a space-like character is no program (`python\u00a0-m`, a
    no-break space pasted from a web page): bash splits words only at spaces, tabs and line ends,
    so it looks for one program of that whole name."""
    from speclint.core.lookalike_chars import SPACES

    found = next((char for char in name if char in SPACES), None)
    if found is None:
        return ""
    import unicodedata

    named = f"U+{ord(found):04X} {unicodedata.name(found, 'CHARACTER')}"
    shown = "".join(f"\\u{ord(c):04x}" if c in SPACES else c for c in name)
    return (
        f": it holds {named}, not a space, so bash looks for one program named `{shown}` "
        "and fails with 'command not found'; type a plain space"
    )
