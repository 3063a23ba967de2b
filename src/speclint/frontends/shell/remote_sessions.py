"""Commands another shell runs: `ssh HOST COMMAND...` (the remote host's shell, with none of
this script's variables) and `tmux new-session`/`new-window`/`send-keys` (the tmux server's
shell, with its environment). Moved out of `launch`, which hands them here."""

from __future__ import annotations

from speclint.frontends.shell import wrappers
from speclint.frontends.shell.wrappers import SSH_VALUE_LETTERS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from tree_sitter import Node

    from speclint.core.spans import Span
    from speclint.core.words import Word
    from speclint.frontends.shell.expand import Arg
    from speclint.frontends.shell.walking import Walking

    Dispatch = Callable[..., None]
    """`launch._dispatch`, handed in (this module is imported by `launch`): a command's words
    read from one index on, with an environment and an image."""


def session_command(
    walker: Walking, node: Node, span: Span, base: str, args: list[Arg], i: int, dispatch: Dispatch
) -> None:
    """`ssh ...` or `tmux ...` (`base`), its own words from `args[i]` on."""
    if base == "ssh":
        _ssh(walker, node, span, args, i, dispatch)
    else:
        _tmux(walker, node, span, args, i, dispatch)


def _ssh(walker: Walking, node: Node, span: Span, args: list[Arg], i: int, dispatch: Dispatch) -> None:
    """`ssh [options] HOST COMMAND...`: the remote shell gets none of our variables."""
    while i < len(args):
        text = args[i].word.text
        if text is None or not text.startswith("-"):
            break
        i += 1
        if text == "--":
            break
        letters = text[1:]
        for k, letter in enumerate(letters):
            if letter in SSH_VALUE_LETTERS:
                if k + 1 == len(letters):
                    i += 1
                break
    command = args[i + 1 :]
    if len(command) == 1:
        walker.parse_nested(
            command[0], {}, None, f"${{name}} is not set on the remote host of `ssh` (line {span.line})"
        )
    elif command:
        dispatch(walker, node, span, command, 0, {}, None)


def _tmux(walker: Walking, node: Node, span: Span, args: list[Arg], i: int, dispatch: Dispatch) -> None:
    """`tmux new-session -d 'CODE'` (one word: run by the default shell), `tmux new-window
    python -m ...` (several: run as they are) and `tmux send-keys 'CODE' Enter` (typed into
    the pane's shell). The process gets the tmux server's environment, not this script's."""
    env: dict[str, Word] = {}
    typed, i = wrappers.tmux_command(args, i, env)
    command = args[i:]
    unknown = f"${{name}} is not passed to the shell `tmux` starts (line {span.line})"
    if typed:
        from speclint.frontends.shell.typed_lines import TMUX_HOW, not_read

        for k, keys in enumerate(command):  # each line: one string of keys, then Enter
            ended = k + 1 < len(command) and command[k + 1].word.text in wrappers.TMUX_LINE_ENDS
            if keys.word.text in wrappers.TMUX_LINE_ENDS:
                continue
            if ended and (k == 0 or command[k - 1].word.text in wrappers.TMUX_LINE_ENDS):
                walker.parse_nested(keys, env, None, unknown)
            else:
                not_read(walker, keys, TMUX_HOW)
    elif len(command) == 1:
        walker.parse_nested(command[0], env, None, unknown)
    elif command:
        dispatch(walker, node, span, command, 0, env, None)


def gcloud_ssh(walker: Walking, args: list[Arg], i: int) -> bool:
    """`gcloud [flags] compute [alpha|beta] ssh ... --command 'CODE'` (i: the word after
    `gcloud`): CODE run by the VM's shell over ssh, with none of this script's variables, as
    `ssh HOST 'CODE'` (gcloud's `--command`: "a command to run on the virtual machine");
    False when the command is not that (then it is not read)."""
    texts = [a.word.text for a in args[i:]]
    if "compute" not in texts:
        return False
    at = texts.index("compute") + 1
    while at < len(texts) and texts[at] in ("alpha", "beta"):
        at += 1
    if at >= len(texts) or texts[at] != "ssh":
        return False
    from speclint.frontends.shell.vastai import _after_equals

    code: Arg | None = None
    for k in range(i + at + 1, len(args)):
        text = args[k].word.text or ""
        if text == "--":
            break  # (the words after it go to ssh itself)
        if text == "--command" and k + 1 < len(args):
            code = args[k + 1]
        elif text.startswith("--command="):
            code = _after_equals(walker, args[k], len("--command="))
    if code is None:
        return False
    line = args[i - 1].word.span.line
    walker.parse_nested(
        code,
        {},
        None,
        f"${{name}} is not set on the VM `gcloud compute ssh` (line {line}) runs the command on",
    )
    return True
