"""A script fed to a shell on its standard input as a string: `bash <<< "$CMD"`, `ssh HOST
<<< "CMD"`, `echo "$CMD" | bash`, `printf '%s\\n' "$CMD" | ssh HOST`.

bash(1), Here Strings: "`<<< word` ... The word undergoes tilde expansion, parameter and
variable expansion, command substitution, arithmetic expansion, and quote removal ... The
result is supplied as a single string, with a newline appended, to the command on its
standard input." A pipeline connects the standard output of `echo ARGS` (its arguments joined
by blanks; with `-e`, backslash escapes interpreted: read only when there are none) or of
`printf '%s\\n' ARG` / `printf '%s' ARG` to the next command's standard input. A shell that
reads its commands from standard input (`heredocs.script_reader`: `bash`, `bash -s`, `ssh HOST`
with no remote command, ...) runs that text as a script: read as `bash -c` reads its code,
each word where the file writes it.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from speclint.frontends.shell.expand import Arg
    from speclint.frontends.shell.walking import Walking

_ECHO_OPTIONS = frozenset({"-n", "-e", "-E", "-ne", "-en", "-nE", "-En"})


def stdin_script(walker: Walking, command: Node) -> bool:
    """Walk the text `command` reads on standard input (a here-string, or what `echo` /
    `printf` before it in a pipeline writes) when it is a shell reading its script there;
    True when it was read so."""
    from speclint.frontends.shell.heredocs import script_reader

    redirect = next((c for c in command.children if c.type == "herestring_redirect"), None)
    if redirect is not None and redirect.named_children:
        args = walker.expander().words(redirect.named_children[-1])
    else:
        args = _printed(walker, command.prev_named_sibling if redirect is None else None)
    if not args:
        return False
    reader = script_reader(walker, command)
    if reader is None:
        return False
    inherited, unknown, remote = reader
    name = command.child_by_field_name("name")
    base = walker.tm.node_text(name).rsplit("/", 1)[-1] if name is not None else ""
    walker.parse_nested(
        args if len(args) > 1 else args[0],
        inherited,
        None if remote else walker.image,
        unknown,
        walker.exported_definitions() if base == "bash" else None,
        None if remote else walker.env,
    )
    return True


def _printed(walker: Walking, before: Node | None) -> list[Arg]:
    """The words `echo ARGS` or `printf '%s\\n' ARG` writes, when `before` is such a command
    and the text is written as given; else none."""
    if before is None or before.type != "command":
        return []
    _, args = walker.expander().command_words(before)
    if not args:
        return []
    name, texts = args[0].word.text, [a.word.text for a in args]
    if name == "echo":
        rest = args[1:]
        options = set()
        while rest and rest[0].word.text in _ECHO_OPTIONS:
            options.add(rest[0].word.text)
            rest = rest[1:]
        escapes = any("e" in (o or "") for o in options)
        if escapes and any("\\" in (a.word.text or "\\") for a in rest):
            return []
        return rest
    if name == "printf" and len(args) == 3 and texts[1] in ("%s\\n", "%s"):
        return args[2:]
    return []
