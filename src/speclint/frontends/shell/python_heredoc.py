"""A here-document fed to a Python interpreter that reads its program from standard input.

`python3 - << EOF ... EOF` and `python << 'PY' ... PY` run the here-document's lines as a
Python program (python(1): with `-` as the script name, "read commands from standard input";
with no script name either, the program is read from standard input when it is not a
terminal). Its text (its `$VARS` expanded first when the delimiter is not quoted:
`heredocs.heredoc_text_map`) is read by the Python front-end, its positions those of the
here-document's lines in the script. A value the script cannot know stays unknown, with the
script's reason; one it knows is read as written there. The Python front-end is reached
through the walker's `unit_reader` (`script.read_unit`), as a unit a here-document writes is:
where the walker has none (shell text inside a Python string), the here-document is reported
unread, never passed over.
"""

from __future__ import annotations

from dataclasses import replace

from speclint.core import patterns
from speclint.frontends.shell.launcher_words import static_word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from speclint.core.words import Word
    from speclint.frontends.shell.text import TextMap
    from speclint.frontends.shell.walking import Walking

_VALUE_LETTERS = "WX"
"""Interpreter options whose value is the next word when it is not attached (`-W error`)."""
PYTHON_STDIN = "-"
"""The `destination` the walker's `unit_reader` (`script.read_unit`) is given for a Python
program: it is handed in by the walker's caller, so that the shell front-end does not import
the Python one, which imports it."""
CONTAINER_TOOLS = frozenset({"docker", "podman", "nerdctl", "docker-compose", "podman-compose"})
"""Whose `exec -i CONTAINER python3 -` (compose: `exec SERVICE`) runs the here-document in the
container."""
_PLACEHOLDER = patterns.compile(r"\$\{(__speclint_\w+)\}")


def reads_stdin(walker: Walking, command: Node) -> bool:
    """`python [options] [-] [args]`: the interpreter runs the program on its standard input
    (no `-c`, no `-m`, no script file named before `-`, no help or version asked for); also
    when `docker exec -i CONTAINER` (podman, nerdctl), `docker compose exec SERVICE` or
    `kubectl exec -i POD --` runs it (`in_container`)."""
    from speclint.frontends.shell.launch import _is_python

    name = command.child_by_field_name("name")
    if name is None or not name.named_children:
        return False
    program = static_word(name.named_children[0], walker.tm) or ""
    words = [
        static_word(c, walker.tm) for c in command.children if c.is_named and c.start_byte >= name.end_byte
    ]
    tool = program.rsplit("/", 1)[-1]
    if tool in CONTAINER_TOOLS:
        from speclint.frontends.shell.docker import exec_stdin_command

        at = exec_stdin_command(words, tool.endswith("-compose"))
        if at is None:
            return False
        program, words = words[at] or "", words[at + 1 :]
    elif tool == "kubectl":  # `kubectl exec -i POD -- python3 - << EOF`
        from speclint.frontends.shell.docker import kubectl_stdin_command

        at = kubectl_stdin_command(words)
        if at is None:
            return False
        program, words = words[at] or "", words[at + 1 :]
    if not _is_python(program.rsplit("/", 1)[-1]):
        return False
    index = 0
    while index < len(words):
        word = words[index]
        if word is None:
            return False
        if word == "-":
            return True
        if not word.startswith("-"):
            return False  # a script file
        if word in ("--version", "--help", "--help-all", "--help-env", "--help-xoptions"):
            return False  # prints and exits
        if not word.startswith("--"):
            for at, letter in enumerate(word[1:]):
                if letter in "cmhV?":  # a command, a module, or help / version printed
                    return False
                if letter in _VALUE_LETTERS:
                    index += 1 if at + 2 == len(word) else 0
                    break
        index += 1
    return True


def in_container(walker: Walking, command: Node) -> bool:
    """Whether the command is `docker exec` (or podman's, nerdctl's, `kubectl exec`): its
    program runs in a container whose image is not known here, not in this script's."""
    name = command.child_by_field_name("name")
    program = (
        static_word(name.named_children[0], walker.tm) if name is not None and name.named_children else None
    )
    return (program or "").rsplit("/", 1)[-1] in CONTAINER_TOOLS | {"kubectl"}


def read_python_heredoc(
    walker: Walking, body: TextMap, placeholders: dict[str, str], container: bool = False
) -> bool:
    """Read the here-document (`body`, as `heredocs.heredoc_text_map` reads it, with the
    names standing for what the script cannot know) as the interpreter's program; False
    when it starts no launch speclint reads (the caller then says so). `container`: run by
    `docker exec`, in an image not known here (not the script's own)."""
    from speclint.frontends.shell.unit_heredoc import moved_to_script

    reader = walker.unit_reader
    if reader is None or "sgl" not in body.text:
        return False
    reasons = {
        name: value.reason
        for name, value in walker.env.vars.items()
        if name.startswith("__speclint_") and value.reason is not None
    }
    reasons.update(placeholders)
    found = reader(body.text, walker.path, reasons, moved_to_script(body), PYTHON_STDIN)
    if not found.launches:
        return False
    image = walker.image
    pinned = walker.env.vars.get("__speclint_pip_pin")  # (python_runners.PIN_VARIABLE)
    if pinned is not None:  # this path's `pip install sglang==X`; unknown: some paths only
        image = (pinned.text, pinned.origin) if pinned.text is not None else None
        if pinned.text is None and not container:
            from speclint.frontends.shell.python_runners import uncertain_pin

            uncertain_pin(walker, found.launches[0].span, pinned)
    for launch in found.launches:
        launch.args = [_unknown_placeholder(word, reasons) for word in launch.args]
        launch.kwargs = [
            (_unknown_placeholder(key, reasons), _unknown_placeholder(value, reasons))
            for key, value in launch.kwargs
        ]
        launch.env = {name: _unknown_placeholder(word, reasons) for name, word in launch.env.items()}
        if launch.image is None and image is not None and not container:
            launch.image, launch.image_span = image
        walker.add_launch(launch)
    walker.result.diagnostics.extend(found.diagnostics)
    walker.result.comments.extend(found.comments)
    return True


def _unknown_placeholder(word: Word, reasons: dict[str, str]) -> Word:
    """A word holding an expansion the script cannot know (`"$MODEL"` in an unquoted
    here-document, `MODEL` given at run time): unknown, with the script's reason."""
    match = _PLACEHOLDER.search(word.text) if word.text is not None else None
    if match is None:
        return word
    reason = reasons.get(match.group(1), "a value the script cannot know")
    return replace(word, text=None, dynamic_reason=reason)
