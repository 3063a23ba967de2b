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
    escapes = ""  # `echo -e` / `printf FORMAT`: escapes to interpret (`printed_escapes`)
    if redirect is not None and redirect.named_children:
        args = walker.expander().words(redirect.named_children[-1])
    else:
        args, escapes = _printed(walker, command.prev_named_sibling if redirect is None else None)
    if not args:
        return False
    reader = script_reader(walker, command)
    if reader is None:
        return False
    inherited, unknown, remote = reader
    name = command.child_by_field_name("name")
    base = walker.tm.node_text(name).rsplit("/", 1)[-1] if name is not None else ""
    if escapes and command.prev_named_sibling is not None:
        from speclint.frontends.shell.printed_escapes import walk_printed

        walk_printed(walker, command.prev_named_sibling, args, escapes == "printf", reader, base == "bash")
        return True
    walker.parse_nested(
        args if len(args) > 1 else args[0],
        inherited,
        None if remote else walker.image,
        unknown,
        walker.exported_definitions() if base == "bash" else None,
        None if remote else walker.env,
    )
    return True


def _printed(walker: Walking, before: Node | None) -> tuple[list[Arg], str]:
    """The words `echo ARGS` or `printf '%s\\n' ARG` writes, when `before` is such a command,
    and whose escapes are to be interpreted: "echo" (`echo -e` with a backslash), "printf"
    (`printf FORMAT` alone), "" (the text is written as given); else no words."""
    if before is None or before.type != "command":
        return [], ""
    _, args = walker.expander().command_words(before)
    if not args:
        return [], ""
    name, texts = args[0].word.text, [a.word.text for a in args]
    if name == "echo":
        rest = args[1:]
        escapes = False
        while rest and rest[0].word.text in _ECHO_OPTIONS:
            escapes = "e" in (rest[0].word.text or "") or (escapes and "E" not in (rest[0].word.text or ""))
            rest = rest[1:]
        if escapes and any("\\" in (a.word.text or "\\") for a in rest):
            return rest, "echo"
        return rest, ""
    if name == "printf" and len(args) == 3 and texts[1] in ("%s\\n", "%s"):
        return args[2:], ""
    if name == "printf" and len(args) > 1 and texts[1] is not None and texts[1][:1] != "-":
        return args[1:2], "printf"  # (the format; a directive in it: said not read)
    return [], ""
