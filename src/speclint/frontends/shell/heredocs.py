"""A here-document fed to a shell (or `sbatch`) that reads its script from standard input.

`ssh node01 << 'EOF' ... EOF` (no remote command: ssh(1) runs the remote login shell, which
reads the commands from standard input) and `bash << EOF` / `bash -s << EOF` (bash(1): "If
the -s option is present, or if no arguments remain after option processing, then commands
are read from the standard input") run the here-document's lines as a script: multi-node
launch scripts start each node's server this way.

bash(1), Here Documents: with a quoted delimiter (`'EOF'`, `"EOF"`, `\\EOF`) the lines are
passed as written; otherwise they go through parameter expansion, command substitution and
arithmetic expansion first, `\\<newline>` is removed and `\\` quotes `\\`, `$` and `` ` ``.
"""

from __future__ import annotations

from speclint.core import patterns
from speclint.core.launches import Diagnostic
from speclint.frontends.shell.launch import SHELLS
from speclint.frontends.shell.launcher_words import TEXT_COMMANDS, static_word
from speclint.frontends.shell.nested import put_expansion, put_value
from speclint.frontends.shell.wrappers import SSH_VALUE_LETTERS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from tree_sitter import Node

    from speclint.core.spans import Span
    from speclint.core.words import Word
    from speclint.frontends.shell.expand import Expander
    from speclint.frontends.shell.text import TextMap
    from speclint.frontends.shell.walking import Walking

_ESCAPABLE = "\\$`"
_SPECIAL = patterns.compile(rb"\$([0-9@#?$!*-])")


def _ssh_reads_stdin(words: list[str | None]) -> bool:
    """`ssh [options] HOST` with no remote command, or with a remote shell that reads its
    script from standard input (`ssh HOST bash -s`: ssh(1) runs the command on the remote host
    with ssh's standard input, unless `-n`/`-f`; the words joined by blanks, as ssh sends them)."""
    i = 0
    closed = False  # `-n` (and `-f`, which implies it): standard input from /dev/null
    while i < len(words) and (words[i] or "").startswith("-"):
        letters = (words[i] or "")[1:]
        i += 1
        if letters == "-":
            break
        for k, letter in enumerate(letters):
            closed = closed or letter in "nf"
            if letter in SSH_VALUE_LETTERS:
                i += 1 if k + 1 == len(letters) else 0
                break
    if i == len(words) - 1:
        return True
    rest = words[i + 1 :]
    if closed or not rest or any(word is None for word in rest):
        return False
    remote = " ".join(word or "" for word in rest).split()
    return bool(remote) and remote[0].rsplit("/", 1)[-1] in SHELLS and _shell_reads_stdin(list(remote[1:]))


def _shell_reads_stdin(words: list[str | None]) -> bool:
    """`bash [options]` or `bash [options] -s [args]`, without `-c`."""
    for word in words:
        if word is None or word[:1] not in "-+" or word in ("-", "--"):
            return False
        if word[:1] == "-" and not word.startswith("--") and "s" in word[1:]:
            return "c" not in word[1:]
        if word[:1] == "-" and not word.startswith("--") and "c" in word[1:]:
            return False
    return True


def heredoc_statement(walker: Walking, node: Node, command: Node) -> None:
    """`ssh host << 'EOF'`, `bash -s << EOF`: the here-document is the script the command
    runs; `python3 - << EOF`: a Python program (`python_heredoc`); `cat > run.sh << EOF`: a
    shell script, read where it is written; `cat > x.service << EOF`:
    a service unit (`unit_heredoc`); else its launcher, if
    it holds one, is reported unread."""
    # (modules, not `from speclint.frontends.shell import ...`: that asks the package for each
    # name through `_handle_fromlist`, a Python call per statement with a here-document)
    import speclint.frontends.shell.python_heredoc as python_heredoc
    import speclint.frontends.shell.unit_heredoc as unit_heredoc

    redirect = next((c for c in node.children if c.type == "heredoc_redirect"), None)
    if redirect is None:
        return
    reader = script_reader(walker, command)
    built = heredoc_text_map(walker, redirect) if reader is not None else None
    if reader is not None and built is not None:
        base = (walker.tm.node_text(command.child_by_field_name("name") or command).rsplit("/", 1))[-1]
        if base == "sbatch":  # the script's `#SBATCH --export` counts too: read with the script
            tabs = any(c.type == "<<-" for c in redirect.children)
            reader = (
                script_reader(walker, command, (*built, tabs, _indented(walker.tm, redirect, tabs))) or reader
            )
        inherited, unknown, remote = reader
        functions = walker.exported_definitions() if base == "bash" else None
        outer = walker.env if base in SHELLS and not remote else None  # (a name never set: the environment's)
        walker.walk_nested(*built, inherited, None if remote else walker.image, unknown, functions, outer)
        return
    if walker.collect and _may_apply_manifest(walker.tm, command, redirect):
        from speclint.frontends.shell.manifest_heredoc import read_applied

        if read_applied(walker, node, command, redirect, heredoc_text_map):  # `kubectl apply -f - << EOF`
            return
    if walker.collect and python_heredoc.reads_stdin(walker, command):
        program = heredoc_text_map(walker, redirect)
        container = python_heredoc.in_container(walker, command)
        if program is not None and python_heredoc.read_python_heredoc(walker, *program, container):
            return
    script = unit_heredoc.writes_script(walker, node, command, redirect) if walker.collect else None
    written = heredoc_text_map(walker, redirect) if script is not None else None
    if written is not None:  # a script the file writes (to run it later): read as one
        count = len(walker.result.launches)
        line = walker.tm.node_span(command).line
        exported = walker.env.exported_words(walker.tm.node_span(command))
        why = f"${{name}} is not exported to the script `{script}` the here-document at line {line} writes"
        walker.walk_nested(*written, exported, walker.image, why)
        if len(walker.result.launches) > count:
            return
    destination = unit_heredoc.writes_unit(walker, node, command, redirect) if walker.collect else None
    if destination is None and walker.collect and unit_heredoc.writes_yaml(walker, node, command, redirect):
        from speclint.frontends.shell.manifest_heredoc import MANIFEST_STDIN

        destination = MANIFEST_STDIN  # (a compose file or manifest: read by its content)
    unit = heredoc_text_map(walker, redirect) if destination is not None else None
    if walker.collect and (unit is None or not unit_heredoc.read_unit(walker, destination or "", *unit)):
        found = unread_launcher(walker.tm, node, command, redirect)
        if found is not None:
            walker.result.diagnostics.append(Diagnostic("launcher-not-read", *found))


def _may_apply_manifest(tm: TextMap, command: Node, redirect: Node) -> bool:
    """Cheap test before `manifest_heredoc` is imported: the command is kubectl (OpenShift's
    `oc`), or `cat` whose here-document is piped on (`cat << EOF | kubectl apply -f -`)."""
    name = command.child_by_field_name("name")
    base = tm.node_text(name).rsplit("/", 1)[-1] if name is not None else ""
    return base in ("kubectl", "oc") or (
        base == "cat" and any(c.type == "pipeline" for c in redirect.children)
    )


def script_reader(
    walker: Walking, command: Node, script: tuple[TextMap, dict[str, str], bool, bool] | None = None
) -> tuple[dict[str, Word], str, bool] | None:
    """(the environment the script starts with, why a variable it lacks is unknown, whether it
    runs on another host) when the command is a shell that reads its script from standard
    input, else None; `script` (the here-document as read, its placeholders, whether `<<-`
    strips its tabs, whether its first line starts with blanks left out of the body) gives
    `sbatch` the script's own `#SBATCH` options."""
    name = command.child_by_field_name("name")
    if name is None:
        return None
    program = (static_word(name.named_children[0], walker.tm) or "") if name.named_children else ""
    base = program.rsplit("/", 1)[-1]
    words = [
        static_word(c, walker.tm)
        for c in command.children
        if c.is_named and c.start_byte >= name.end_byte and not c.type.endswith("_redirect")
    ]
    line = walker.tm.node_span(command).line
    if base == "ssh" and _ssh_reads_stdin(words):
        return {}, f"${{name}} is not set on the remote host of `ssh` (line {line})", True
    if base in SHELLS and _shell_reads_stdin(words):
        exported = walker.env.exported_words(walker.tm.node_span(command))
        return exported, f"${{name}} is not exported to the inner `{base}` shell (line {line})", False
    if base == "sbatch":
        return _sbatch_reader(walker, command, line, script)
    if base in ("docker", "podman", "nerdctl", "docker-compose", "podman-compose"):
        return _container_shell_reader(walker, command, words, line, base.endswith("-compose"))
    if base == "kubectl":
        return _pod_shell_reader(words, line)
    return None


def _pod_shell_reader(words: list[str | None], line: int) -> tuple[dict[str, Word], str, bool] | None:
    """`kubectl exec -i POD [-c C] -- bash [-s] << EOF`: the pod container's shell reads the
    here-document, with the container's environment (kubectl exec sets none; the image not
    known)."""
    from speclint.frontends.shell.docker import kubectl_stdin_command

    at = kubectl_stdin_command(words)
    if (
        at is None
        or (words[at] or "").rsplit("/", 1)[-1] not in SHELLS
        or not _shell_reads_stdin(words[at + 1 :])
    ):
        return None
    return (
        {},
        f"${{name}} comes from the environment of the pod's container `kubectl exec` runs in (line {line})",
        True,
    )


def _container_shell_reader(
    walker: Walking, command: Node, words: list[str | None], line: int, compose: bool
) -> tuple[dict[str, Word], str, bool] | None:
    """`docker exec -i CONTAINER bash [-s] << EOF` (`docker compose exec SERVICE bash`): the
    container's shell reads the here-document, with the container's environment (its `-e`
    values; its image not known)."""
    from speclint.frontends.shell.docker import docker_command, exec_stdin_command

    at = exec_stdin_command(words, compose)
    if (
        at is None
        or (words[at] or "").rsplit("/", 1)[-1] not in SHELLS
        or not _shell_reads_stdin(words[at + 1 :])
    ):
        return None
    _, args = walker.expander().command_words(command)
    found = docker_command(
        args, 1, walker.env.exported_words(walker.tm.node_span(command)), compose, walker.path
    )
    container_env = found[1] if found is not None else {}
    unknown = getattr(container_env, "unread", None) or (
        f"${{name}} comes from the environment of the container `docker exec` runs in (line {line})"
    )
    return container_env, unknown, True


def _sbatch_reader(
    walker: Walking, command: Node, line: int, script: tuple[TextMap, dict[str, str], bool, bool] | None
) -> tuple[dict[str, Word], str, bool] | None:
    """`sbatch [options] << EOF`: the here-document is the batch script (`sbatch`)."""
    from speclint.frontends.shell.sbatch import stdin_script_env

    prefix, args = walker.expander().command_words(command)
    env = walker.env.exported_words(walker.tm.node_span(command))
    env.update(prefix)
    found = stdin_script_env(args, env, script)
    if found is None:
        return None
    return found, f"${{name}} is not passed to the batch script of `sbatch` (line {line})", False


def _indented(tm: TextMap, redirect: Node, tabs: bool) -> bool:
    """Whether the here-document's first line that is not blank starts with blanks (`<<-`:
    other than tabs), which tree-sitter-bash leaves out of the body node."""
    body = next((c for c in redirect.children if c.type == "heredoc_body"), None)
    if body is None:
        return False
    data = tm.data
    lead = data[data.rfind(b"\n", 0, body.start_byte) + 1 : body.start_byte]
    return bool(lead.lstrip(b"\t") if tabs else lead)


def heredoc_text_map(walker: Walking, redirect: Node) -> tuple[TextMap, dict[str, str]] | None:
    """The here-document's lines as a buffer of their own (its expansions done as bash does
    them, each mapped to where it is written), and the placeholder variables standing for the
    expansions whose value is unknown; None when there is no body."""
    built = heredoc_pieces(walker.expander, walker.tm, redirect)
    return (walker.tm.derive(built[0]), built[1]) if built is not None else None


def heredoc_pieces(
    expander_of: Callable[[], Expander], tm: TextMap, redirect: Node
) -> tuple[list[tuple[str, int, int]], dict[str, str]] | None:
    """`heredoc_text_map`'s characters, each with its file range, and its placeholders."""
    start = redirect.child_by_field_name("start") or next(
        (c for c in redirect.children if c.type == "heredoc_start"), None
    )
    body = next((c for c in redirect.children if c.type == "heredoc_body"), None)
    if start is None or body is None:
        return None
    quoted = any(q in tm.node_text(start) for q in "'\"\\")
    pieces: list[tuple[str, int, int]] = []
    placeholders: dict[str, str] = {}
    pos = body.start_byte
    if not quoted:
        expander = expander_of()
        for child in body.named_children:
            if child.type == "heredoc_content" or tm.data[child.start_byte - 1 : child.start_byte] == b"\\":
                continue  # text, or an escaped `\$X`: literal
            _text(expander, tm, pos, child.start_byte, pieces, placeholders)
            put_expansion(expander, tm, child, child.start_byte, pieces, placeholders)
            pos = child.end_byte
        _text(expander, tm, pos, body.end_byte, pieces, placeholders)
    else:
        first = tm.char(body.start_byte)
        text = tm.data[body.start_byte : body.end_byte].decode("utf-8", "surrogatepass")
        pieces += [(c, tm.file_start(first + k), tm.file_end(first + k)) for k, c in enumerate(text)]
    return (pieces, placeholders) if pieces else None


def _text(
    expander: Expander,
    tm: TextMap,
    start_byte: int,
    end_byte: int,
    out: list[tuple[str, int, int]],
    placeholders: dict[str, str],
) -> None:
    """Text of an unquoted here-document with the special parameters tree-sitter-bash leaves
    in it (`$1`, `$@`, `$#`, `$$`; `$10` is `$1` then `0`) expanded, the rest `_literal`."""
    data = tm.data
    pos = start_byte
    for match in _SPECIAL.finditer(data, start_byte, end_byte):
        at = match.start()
        escapes = len(data[start_byte:at]) - len(data[start_byte:at].rstrip(b"\\"))
        if escapes % 2:
            continue  # `\$1`: literal
        _literal(tm, pos, at, out)
        name = match.group(1).decode()
        begin, finish = tm.file_range(at, match.end())
        value = expander.special_value(name, tm.span(at, match.end()))
        put_value(value, begin, finish, out, placeholders)
        pos = match.end()
    _literal(tm, pos, end_byte, out)


def _literal(tm: TextMap, start_byte: int, end_byte: int, out: list[tuple[str, int, int]]) -> None:
    """Characters of an unquoted here-document's text, `\\x` escapes removed as bash removes them."""
    first = tm.char(start_byte)
    chars = tm.data[start_byte:end_byte].decode("utf-8", "surrogatepass")
    index = 0
    while index < len(chars):
        at = first + index
        if chars[index] == "\\" and index + 1 < len(chars) and chars[index + 1] in _ESCAPABLE + "\n":
            if chars[index + 1] != "\n":
                out.append((chars[index + 1], tm.file_start(at), tm.file_end(at + 1)))
            index += 2
            continue
        out.append((chars[index], tm.file_start(at), tm.file_end(at)))
        index += 1


def unread_launcher(tm: TextMap, statement: Node, command: Node, redirect: Node) -> tuple[str, Span] | None:
    """(why, where) when a here-document that speclint does not read as a script holds a
    launcher command (`docker exec -i c bash << EOF`, `kubectl exec -i pod -- sh << EOF`,
    `cat > run.sh << EOF`): reported, never passed over. A here-document that `cat` or another
    printing command only shows (no output redirection) is text, not a launch."""
    from speclint.frontends.recognise import PROSE_LAUNCH

    body = next((c for c in redirect.children if c.type == "heredoc_body"), None)
    name_node = command.child_by_field_name("name")
    if body is None or name_node is None:
        return None
    program = (static_word(name_node.named_children[0], tm) or "") if name_node.named_children else ""
    base = program.rsplit("/", 1)[-1] or "the command"
    writes = any(c.type == "file_redirect" for c in [*statement.children, *redirect.children])
    if base in TEXT_COMMANDS | {"cat"} and not writes:
        return None
    text = tm.data[body.start_byte : body.end_byte].decode("utf-8", "surrogatepass")
    match = next((m for m in PROSE_LAUNCH.finditer(text) if not _commented_line(text, m.start())), None)
    if match is None:
        return None
    start = body.start_byte + len(text[: match.start()].encode("utf-8", "surrogatepass"))
    end = body.start_byte + len(text[: match.end()].encode("utf-8", "surrogatepass"))
    launcher = " ".join(match.group().split())
    where = "written to a file" if writes else f"given to `{base}`"
    why = (
        "speclint reads a here-document only as the script of a shell, `ssh` or `sbatch` that reads "
        "standard input, so nothing in this launch was checked"
    )
    words = [
        static_word(c, tm) for c in command.children if c.is_named and c.start_byte >= name_node.end_byte
    ]
    if base in ("kubectl", "docker", "podman", "nerdctl") and "exec" in words and not writes:
        why = (  # (with -i it is read: `script_reader`, `python_heredoc`)
            f"`{base} exec` without `-i` passes no standard input, so the program it starts in the "
            "container never gets it; nothing in this launch was checked"
        )
    return (
        f"speclint did not read this here-document, {where}, which holds `{launcher}`: {why}",
        tm.span(start, end),
    )


def _commented_line(text: str, at: int) -> bool:
    line_start = text.rfind("\n", 0, at) + 1
    return text[line_start:at].lstrip().startswith("#")
