"""Calls through an alias: `alias serve='python3 -m sglang.launch_server --host 0.0.0.0'`
then `serve --model-path /models/llama --tp 8`.

bash(1), ALIASES: the first word of a simple command, unquoted, is replaced by the alias's
text, and the result is read as shell code: the call is the alias's text followed by the
rest of the command as written. So a call is read as one buffer (`Walker.walk_nested`,
sharing this shell's variables) made of the text before the name (`X=1 serve`), the alias's
text, each character at the place it is written in the alias, and the rest of the call. A
single-quoted alias keeps its `$X` for the call to expand; a double-quoted one was expanded
where the alias was defined, as bash does. An alias is not expanded again inside its own
text (`alias python='python -u'`).

bash expands aliases only in interactive shells, or after `shopt -s expand_aliases` (or in
POSIX mode, `set -o posix`): a bash script that calls an alias without it runs a command of
that name, which is not found. speclint reads the launch the call spells out (what its author
means, and what an interactive shell or `sh` runs) and warns at the call
(`alias-not-expanded`). An alias no call reads is read as written, at the end of the buffer
with the variables it was defined with.
"""

from __future__ import annotations

import re

from speclint.frontends.recognise import names_launcher
from speclint.frontends.shell.alias_defs import Alias

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from speclint.frontends.shell.expand import Arg
    from speclint.frontends.shell.text import TextMap
    from speclint.frontends.shell.walking import Walking

_EXPANDS_ALIASES = re.compile(rb"shopt\s+(-\w+\s+)*-s\s+(\w+\s+)*expand_aliases|set\s+-o\s+posix|--posix")
_BASH_SHEBANG = re.compile(rb"#![^\n]*\bbash\b")
_INTERACTIVE = re.compile(rb"#![^\n]*\s-\w*i")


def define(walker: Walking, name: str, body: Arg) -> None:
    """`alias NAME=BODY`: keep BODY's text for the calls (bash re-reads it at each call)."""
    from speclint.frontends.shell.nested import nested_text_map

    built = nested_text_map(walker, body)
    if built is None:
        walker.aliases.pop(name, None)  # an alias whose text is unknown: its calls are not expanded
        return
    tm, placeholders = built
    pieces = [(char, tm.file_start(k), tm.file_end(k)) for k, char in enumerate(tm.text)]
    launcher = names_launcher(tm.text.encode("utf-8", "surrogatepass"))
    snapshot = walker.env.copy() if launcher else None
    walker.aliases[name] = Alias(name, pieces, placeholders, body.word.span, walker.tm, snapshot)


def call(walker: Walking, node: Node) -> bool:
    """Read a command whose name is an alias as bash reads it; False when it is not one."""
    name_node = node.child_by_field_name("name")
    word = name_node.named_children[0] if name_node is not None and name_node.named_children else None
    if word is None or word.type != "word":
        return False
    tm = walker.tm
    alias = walker.aliases.get(tm.node_text(word))
    if alias is None:
        return False
    alias.read = True
    pieces = _source(tm, node.start_byte, word.start_byte) + alias.pieces
    pieces += _source(tm, word.end_byte, node.end_byte)
    if walker.collect and walker.depth == 0 and not _bash_expands(tm, node.start_byte, walker.path):
        _warn(walker, alias, word)
    saved = walker.aliases
    walker.aliases = {other: value for other, value in saved.items() if other != alias.name}
    try:
        walker.walk_nested(tm.derive(pieces), alias.placeholders, None, walker.image, "", walker.definitions)
    finally:
        walker.aliases = saved
    return True


def remove(walker: Walking, names: list[str]) -> None:
    """`unalias NAME...`: an alias no call read is read as written first."""
    for name in names:
        alias = walker.aliases.pop(name, None)
        if alias is not None and walker.collect:
            _read_as_written(walker, alias)


def read_uncalled(walker: Walking) -> None:
    """The aliases of this buffer that name the launcher and no call read: their text as written."""
    for alias in list(walker.aliases.values()):
        _read_as_written(walker, alias)


def _read_as_written(walker: Walking, alias: Alias) -> None:
    if not alias.read and alias.tm is walker.tm and alias.snapshot is not None:
        alias.read = True
        saved = walker.env
        walker.env = alias.snapshot
        try:
            walker.walk_nested(walker.tm.derive(alias.pieces), alias.placeholders, None, walker.image, "")
        finally:
            walker.env = saved


def _source(tm: TextMap, start_byte: int, end_byte: int) -> list[tuple[str, int, int]]:
    """The characters of the buffer between two bytes, each at its place in the file."""
    first = tm.char(start_byte)
    text = tm.data[start_byte:end_byte].decode("utf-8", "surrogatepass")
    return [(char, tm.file_start(first + k), tm.file_end(first + k)) for k, char in enumerate(text)]


def _bash_expands(tm: TextMap, before: int, path: str) -> bool:
    """Whether the shell running this file expands the alias: not bash running a script (a
    bash shebang, or none on a `.sh`/`.bash` file) unless it set `expand_aliases` earlier."""
    data = tm.data
    if data.startswith(b"#!"):
        if _BASH_SHEBANG.match(data) is None or _INTERACTIVE.match(data) is not None:
            return True  # `#!/bin/sh` (POSIX shells expand aliases), `#!/bin/bash -i`
    elif not path.endswith((".sh", ".bash")):
        return True  # a README's shell block, a Makefile recipe: typed or run by `sh`
    return _EXPANDS_ALIASES.search(data, 0, before) is not None


def _warn(walker: Walking, alias: Alias, word: Node) -> None:
    from speclint.core.diagnostics import Diagnostic

    span = walker.tm.node_span(word)
    walker.result.diagnostics.append(
        Diagnostic(
            "alias-not-expanded",
            f"bash does not expand the alias `{alias.name}` (defined at line {alias.span.line}) "
            "in a script: aliases are expanded only in interactive shells or after `shopt -s "
            f"expand_aliases`, so `bash {walker.path.rsplit('/', 1)[-1]}` runs a command named "
            f"`{alias.name}`, which is not found, and SGLang does not start; speclint checked "
            "the launch the alias spells out",
            span,
        )
    )
