"""`read -r -d '' CMD << 'EOF' ... EOF`: a command kept in a variable from a here-document,
then run (`eval "$CMD"`, `bash -c "$CMD"`). `-d ''` reads up to a NUL byte, so the whole
here-document, which `read` puts in its one variable less the blanks and newlines at both ends
(IFS's whitespace; `IFS= read` strips nothing); each character points where the here-document
writes it (`substituted_heredoc.redirect_value`). Only `-r` (no backslash processing) or a
text without a backslash is read, with one variable and no other option; else the variable
stays unknown and the here-document is said not read, as before.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from speclint.frontends.shell.walking import Walking


def read_into_variable(walker: Walking, command: Node, redirect: Node) -> bool:
    """Assign the here-document to `read -d '' NAME`'s variable; False when the command is
    not such a `read` (or its value cannot be made)."""
    from speclint.frontends.shell.launcher_words import static_word

    tm = walker.tm
    name_node = command.child_by_field_name("name")
    if name_node is None or tm.node_text(name_node) != "read":
        return False
    prefix = [c for c in command.named_children if c.type == "variable_assignment"]
    ifs_empty = False
    for assignment in prefix:
        if tm.node_text(assignment) != "IFS=":
            return False  # another IFS, or another variable: not modelled
        ifs_empty = True
    words = [static_word(c, tm) for c in command.named_children if c.start_byte >= name_node.end_byte]
    raw = False
    delimiter_empty = False
    names: list[str] = []
    skip_next = False
    for index, word in enumerate(words):
        if skip_next:
            skip_next = False
            continue
        if word is None:
            return False
        if word in ("-r", "-rd", "-d"):
            raw = raw or word != "-d"
            if word != "-r":
                following = words[index + 1] if index + 1 < len(words) else None
                if following != "":
                    return False
                delimiter_empty, skip_next = True, True
        elif word.startswith("-"):
            return False
        else:
            names.append(word)
    if not delimiter_empty or len(names) != 1 or not names[0].isidentifier():
        return False
    body = next((c for c in redirect.children if c.type == "heredoc_body"), None)
    if not raw and (body is None or b"\\" in tm.data[body.start_byte : body.end_byte]):
        return False
    extra = [c for c in redirect.children if c.type in ("||", "command")]
    if extra and not (  # `read -r -d '' CMD << 'EOF' || true` (read returns 1 at the end: `set -e`)
        [c.type for c in extra] == ["||", "command"] and tm.node_text(extra[1]) in ("true", ":")
    ):
        return False
    from speclint.frontends.shell.substituted_heredoc import redirect_value

    origin = tm.node_span(body) if body is not None else tm.node_span(redirect)
    also = frozenset({"||", "command"}) if extra else frozenset()
    value = redirect_value(walker.expander(), redirect, origin, "" if ifs_empty else "read", also)
    if value is None:
        return False
    walker.env.assign(names[0], value)
    return True
