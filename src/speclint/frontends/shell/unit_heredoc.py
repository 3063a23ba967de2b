"""A systemd service unit that a script writes with a here-document.

`cat > /etc/systemd/system/sglang.service << EOF ... EOF` and `sudo tee
/etc/systemd/system/sglang.service > /dev/null <<'EOF' ... EOF` install a unit whose
`ExecStart=` is the launch (deployment scripts do this before `systemctl enable --now`). The
here-document's text is the unit file as it is written: with an unquoted delimiter the
script's `$VARS` are expanded first (bash(1), Here Documents; `heredocs.heredoc_text_map`),
a value the script cannot know standing as unknown text; with a quoted one the `$X` stay for
systemd to expand from the unit's own `Environment=`. The unit is read as a `.service` file
is (`commands.systemd`), its positions those of the here-document's lines in the script.

A YAML file written the same way (`cat > docker-compose.yml << EOF`, `tee sglang.yaml`, then
`docker compose up` or `kubectl apply -f`) is read as that file is (`writes_yaml`: a compose
file, a manifest; the YAML front-end tells which by its content), when it names SGLang.
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


def _written_files(
    tm: TextMap, statement: Node, command: Node, redirect: Node | None = None
) -> list[str | None] | None:
    """The files `cat > FILE` / `[sudo [-u USER]] tee [-a] FILE...` writes the here-document
    to (None for one whose name is not static), or None when the command is neither (`cat <<
    EOF | sudo tee FILE`: `_piped_files`). A redirection written after the here-document's start
    (`cat << EOF > FILE`) is a child of `redirect` in tree-sitter-bash's tree."""
    files = _named_files(tm, command)
    return None if files is None else files + _redirected_files(tm, statement, redirect)


def _named_files(tm: TextMap, command: Node) -> list[str | None] | None:
    """The files tee names for `[sudo [options]] tee [-a] FILE...` (none for `cat`; `$SUDO
    tee`: an unknown word in sudo's place), or None when the command is neither."""
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
    return [w for w in words[start + 1 :] if not (w or "").startswith("-")] if names[start] == "tee" else []


def _redirected_files(tm: TextMap, statement: Node, redirect: Node | None = None) -> list[str | None]:
    """The files a statement's `>`, `>>`, `>|` redirections write (and those inside its
    here-document's `redirect`)."""
    files: list[str | None] = []
    for child in [*statement.children, *(redirect.children if redirect is not None else [])]:
        if child.type == "file_redirect" and any(c.type in (">", ">>", ">|") for c in child.children):
            destination = child.child_by_field_name("destination")
            files.append(static_word(destination, tm) if destination is not None else None)
    return files


def _piped_files(tm: TextMap, redirect: Node) -> list[str | None] | None:
    """The files the command after `|` writes (tree-sitter-bash holds the rest of the
    pipeline in the here-document's redirect), when it is `[sudo] tee FILE` or `cat > FILE`."""
    piped = next((c for c in redirect.children if c.type == "pipeline"), None)
    following = next(iter(piped.named_children), None) if piped is not None else None
    while following is not None and following.type == "list":  # `| sudo tee FILE && ...`
        following = next(iter(following.named_children), None)
    if following is None:
        return None
    inner = following.child_by_field_name("body") if following.type == "redirected_statement" else following
    return _written_files(tm, following, inner) if inner is not None and inner.type == "command" else None


def _unit_written(files: list[str | None], body: str) -> str | None:
    """Where the unit is written: a `.service` file, a drop-in (`x.service.d/*.conf`), a
    Quadlet `.container` (`frontends.unit_file_kind`), or any file whose text has a
    `[Service]` section ("" when its name is not static); None: not a unit."""
    from speclint.frontends.unit_paths import unit_file_kind

    kept = [name for name in files if name != "/dev/null"]
    named = next((name for name in kept if name is not None and unit_file_kind(name) is not None), None)
    if named is not None:
        return named
    if kept and any(line.strip() == "[Service]" for line in body.splitlines()):
        return next((name for name in kept if name is not None), "")
    return None


def writes_unit(walker: Walking, statement: Node, command: Node, redirect: Node) -> str | None:
    """Where the command writes the here-document when that is a unit speclint reads (a
    service unit, a drop-in, a Quadlet file), else None."""
    body = next((c for c in redirect.children if c.type == "heredoc_body"), None)
    if body is None or walker.unit_reader is None:
        return None
    tm = walker.tm
    files = _written_files(tm, statement, command, redirect)
    if files == []:  # `cat << EOF | sudo tee FILE`: the next command of the pipeline writes it
        files = _piped_files(tm, redirect)
    raw = tm.data[body.start_byte : body.end_byte].decode("utf-8", "surrogatepass")
    return _unit_written(files, raw) if files is not None and "Exec" in raw else None


def read_unit(walker: Walking, destination: str, unit_tm: TextMap, placeholders: dict[str, str]) -> bool:
    """Read the unit written to `destination` (`writes_unit`), its text the here-document as
    written (`heredocs.heredoc_text_map`); False when it starts no launch speclint reads (the
    caller reports it)."""
    reader = walker.unit_reader
    if reader is None:
        return False
    unknown = {  # a doc's placeholder (`<your-model>`) in a quoted here-document: still one
        name: value.reason
        for name, value in walker.env.vars.items()
        if name.startswith("__speclint_") and value.reason is not None and name in unit_tm.text
    }
    found = reader(
        unit_tm.text, walker.path, {**unknown, **placeholders}, moved_to_script(unit_tm), destination
    )
    if not found.launches:
        return False
    for launch in found.launches:
        walker.add_launch(launch)
    if walker.collect:
        walker.result.diagnostics.extend(found.diagnostics)
        walker.result.comments.extend(found.comments)
    return True


def moved_to_script(unit_tm: TextMap) -> Callable[[Span], Span]:
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


_SCRIPT_SUFFIXES = (".sh", ".bash")


def writes_script(walker: Walking, statement: Node, command: Node, redirect: Node) -> str | None:
    """Where `cat > FILE << EOF` / `tee FILE << EOF` writes a shell script (a `.sh`/`.bash`
    file, or a body starting with a bash/sh shebang) that names SGLang's launcher; None else."""
    body = next((c for c in redirect.children if c.type == "heredoc_body"), None)
    if body is None:
        return None
    tm = walker.tm
    files = _written_files(tm, statement, command, redirect)
    if files == []:
        files = _piped_files(tm, redirect)
    raw = tm.data[body.start_byte : body.end_byte].decode("utf-8", "surrogatepass")
    if not files or "sglang" not in raw:
        return None
    named = [name for name in files if name is not None and name != "/dev/null"]
    script = next((name for name in named if name.endswith(_SCRIPT_SUFFIXES)), None)
    first = raw.lstrip().split("\n", 1)[0]
    if script is None and named and first.startswith("#!") and first.rstrip().endswith(("bash", "/sh")):
        script = named[0]
    return script


_YAML_SUFFIXES = (".yml", ".yaml")


def writes_yaml(walker: Walking, statement: Node, command: Node, redirect: Node) -> str | None:
    """Where `cat > FILE << EOF` / `tee FILE << EOF` writes a YAML file (`.yml`, `.yaml`)
    whose text names SGLang and is a compose file or a manifest (`services:`, `apiVersion:`);
    None else."""
    body = next((c for c in redirect.children if c.type == "heredoc_body"), None)
    if body is None or walker.unit_reader is None:
        return None
    tm = walker.tm
    raw = tm.data[body.start_byte : body.end_byte]
    if b"sglang" not in raw or (b"services:" not in raw and b"apiVersion:" not in raw):
        return None  # (a compose file or a Kubernetes manifest; a `--config` file is not a launch)
    files = _written_files(tm, statement, command, redirect)
    if files == []:
        files = _piped_files(tm, redirect)
    return next((name for name in files or [] if name is not None and name.endswith(_YAML_SUFFIXES)), None)
