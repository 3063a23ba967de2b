"""A systemd service unit that a script writes with a here-document.

`cat > /etc/systemd/system/sglang.service << EOF ... EOF` and `sudo tee
/etc/systemd/system/sglang.service > /dev/null <<'EOF' ... EOF` install a unit whose
`ExecStart=` is the launch (deployment scripts do this before `systemctl enable --now`). The
here-document's text is the unit file as it is written: with an unquoted delimiter the
script's `$VARS` are expanded first (bash(1), Here Documents; `heredocs.heredoc_text_map`),
a value the script cannot know standing as unknown text; with a quoted one the `$X` stay for
systemd to expand from the unit's own `Environment=`. The unit is read as a `.service` file
is (`commands.systemd`), its positions those of the here-document's lines in the script.
"""

from __future__ import annotations

from speclint.frontends.shell.env_command import SUDO
from speclint.frontends.shell.launcher_words import static_word
from speclint.frontends.shell.text import line_starts_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from tree_sitter import Node

    from speclint.core.spans import Span
    from speclint.frontends.shell.text import TextMap
    from speclint.frontends.shell.walking import Walking

_WRITERS = ("cat", "tee")


def _written_files(tm: TextMap, statement: Node, command: Node) -> list[str | None] | None:
    """The files `cat > FILE` / `[sudo [-u USER]] tee [-a] FILE...` / `cat << EOF | sudo tee
    FILE` writes the here-document to (None for one whose name is not static), or None when
    the command is none of these."""
    written = _writer(tm, command)
    if written is None:
        return None
    writer, files = written
    files += _redirected_files(tm, statement)
    if writer == "cat":  # `cat << EOF | sudo tee FILE > /dev/null`: tee writes what cat prints
        redirect = next((c for c in statement.children if c.type == "heredoc_redirect"), None)
        pipe = next((c for c in redirect.children if c.type == "pipeline"), None) if redirect else None
        first = next((c for c in pipe.named_children), None) if pipe is not None else None
        tee = first.child_by_field_name("body") if first and first.type == "redirected_statement" else first
        piped = _writer(tm, tee) if tee is not None and tee.type == "command" else None
        if first is not None and piped is not None and piped[0] == "tee":
            files += piped[1] + _redirected_files(tm, first)
    return files


def _writer(tm: TextMap, command: Node) -> tuple[str, list[str | None]] | None:
    """(`cat` or `tee`, the files tee names) for `[sudo [options]] cat|tee [-a] FILE...`
    (`$SUDO tee`: an unknown word in sudo's place), else None."""
    words = [
        static_word(c.named_children[0] if c.type == "command_name" and c.named_children else c, tm)
        for c in command.children
        if c.is_named and c.type != "variable_assignment"
    ]
    names = [(w or "").rsplit("/", 1)[-1] for w in words]
    start = 0
    if names[:1] == ["sudo"] or (words[:1] == [None] and names[1:2] in (["tee"], ["cat"])):
        start = 1
        while start < len(words) and (words[start] or "").startswith("-") and words[start] != "--":
            start += 2 if words[start] in SUDO.value else 1
        start += 1 if start < len(words) and words[start] == "--" else 0
    if start >= len(names) or names[start] not in _WRITERS:
        return None
    files = [w for w in words[start + 1 :] if not (w or "").startswith("-")] if names[start] == "tee" else []
    return names[start], files


def _redirected_files(tm: TextMap, statement: Node) -> list[str | None]:
    """The files a statement's `>`, `>>`, `>|` redirections write."""
    files: list[str | None] = []
    for child in statement.children:
        if child.type == "file_redirect" and any(c.type in (">", ">>", ">|") for c in child.children):
            destination = child.child_by_field_name("destination")
            files.append(static_word(destination, tm) if destination is not None else None)
    return files


def _is_unit(files: list[str | None], body: str) -> bool:
    """A `.service` file, or a file whose text has a `[Service]` section."""
    if any(name is not None and name.endswith(".service") and name != "/dev/null" for name in files):
        return True
    kept = [name for name in files if name != "/dev/null"]
    return bool(kept) and any(line.strip() == "[Service]" for line in body.splitlines())


def writes_unit(walker: Walking, statement: Node, command: Node, redirect: Node) -> bool:
    """Whether the command writes the here-document to a service unit speclint can read."""
    body = next((c for c in redirect.children if c.type == "heredoc_body"), None)
    if body is None or walker.unit_reader is None:
        return False
    tm = walker.tm
    files = _written_files(tm, statement, command)
    raw = tm.data[body.start_byte : body.end_byte].decode("utf-8", "surrogatepass")
    return files is not None and "ExecStart" in raw and _is_unit(files, raw)


def read_unit(walker: Walking, unit_tm: TextMap, placeholders: dict[str, str]) -> bool:
    """Read the unit's text (the here-document as written: `heredocs.heredoc_text_map`);
    False when it starts no launch speclint reads (the caller reports it)."""
    reader = walker.unit_reader
    if reader is None:
        return False
    found = reader(unit_tm.text, walker.path, placeholders, _mover(unit_tm))
    if not found.launches:
        return False
    for launch in found.launches:
        walker.add_launch(launch)
    if walker.collect:
        walker.result.diagnostics.extend(found.diagnostics)
        walker.result.comments.extend(found.comments)
    return True


def _mover(unit_tm: TextMap) -> Callable[[Span], Span]:
    """Where a position in the unit's text is written in the script."""
    starts = line_starts_of(unit_tm.text)
    last = len(unit_tm.text)

    def move(span: Span) -> Span:
        begin = min(starts[min(span.line, len(starts)) - 1] + span.column - 1, last)
        end = min(starts[min(span.end_line, len(starts)) - 1] + span.end_column - 1, last)
        file_begin = unit_tm.file_start(begin)
        file_end = max(unit_tm.file_end(end - 1) if end > begin else file_begin, file_begin)
        return unit_tm.span_of_file_range(file_begin, file_end)

    return move
