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
    if not walker.collect or not names_launcher(raw):
        return
    from speclint.core.diagnostics import Diagnostic
    from speclint.frontends.shell.builtin_commands import run_command_name

    name_node = run_command_name(walker.tm, node, name_node)
    name = " ".join(walker.tm.node_text(name_node).split())[:40]
    span = walker.tm.node_span(name_node)
    walker.result.diagnostics.append(
        Diagnostic(
            "launch-unread",
            f"the command `{name}` at line {span.line} names the launcher, and "
            f"speclint reads no launch through `{name}`",
            span,
        )
    )
    from speclint.frontends.shell.launcher_strings import note

    runs = note(walker, node, name)
    if runs is not None:  # what the command runs: reported even beside launches read
        walker.result.diagnostics.append(runs)
