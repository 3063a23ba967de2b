"""A Kubernetes manifest applied from a here-document.

`kubectl apply -f - << EOF ... EOF` and `cat << 'YAML' | kubectl apply -f -` (also `create`
and `replace`, `--filename=-`, `-f /dev/stdin`, and OpenShift's `oc`) hand the here-document
to kubectl as the manifest to apply (kubectl's `-f -`: the file is standard input). Its text
(with an unquoted delimiter, the script's `$VARS` expanded first: `heredocs.heredoc_text_map`)
is read by the YAML front-end as a manifest file is, its positions those of the
here-document's lines in the script (or the Markdown file the script is a block of). The
YAML front-end is reached through the walker's `unit_reader` (`manifest_reader.read_unit_or_manifest`,
handed in by the shell file's and the Markdown block's readers, with `MANIFEST_STDIN` as the
destination), so that the shell front-end does not import it: the YAML front-end reads shell
(`run:` blocks) itself. Where the walker's reader is `script.read_unit` (shell inside a YAML
file or a Makefile), the manifest is said not read.

A here-document that reaches `kubectl apply -f -` through another command first
(`cat << EOF | envsubst | kubectl apply -f -`) is not read: when it names SGLang's launcher,
that is said (`launcher-not-read`), never passed over.
"""

from __future__ import annotations

import re
from dataclasses import replace

from speclint.frontends.shell.launcher_words import static_word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from tree_sitter import Node

    from speclint.core.words import Word
    from speclint.frontends.shell.text import TextMap
    from speclint.frontends.shell.walking import Walking

MANIFEST_STDIN = "kubectl apply -f -"
"""The `destination` the walker's `unit_reader` is given for a manifest."""
CLIENTS = frozenset({"kubectl", "oc"})
"""Programs that apply a manifest read from `-f -` (OpenShift's `oc` is kubectl's CLI)."""
_SUBCOMMANDS = frozenset({"apply", "create", "replace"})
_STDIN_FILES = frozenset({"-", "/dev/stdin"})
_PLACEHOLDER = re.compile(r"\$\{(__speclint_\w+)\}")


def _applies(tm: TextMap, command: Node, gap: bytes = b"") -> str | None:
    """`kubectl [options] apply|create|replace ... -f -` as written (None: not that command).
    `gap`: the text between the command and its here-document (tree-sitter-bash leaves a lone
    `-` written just before `<<` out of the command)."""
    name = command.child_by_field_name("name")
    if name is None or not name.named_children:
        return None
    program = (static_word(name.named_children[0], tm) or "").rsplit("/", 1)[-1]
    words = [static_word(c, tm) for c in command.children if c.is_named and c.start_byte >= name.end_byte]
    if gap.strip() == b"-":
        words.append("-")
    subcommand = next((w for w in words if w in _SUBCOMMANDS), None)
    if program not in CLIENTS or subcommand is None:
        return None
    for at, word in enumerate(words):
        if word in ("-f", "--filename") and at + 1 < len(words) and words[at + 1] in _STDIN_FILES:
            return f"{program} {subcommand} -f -"
        for prefix in ("-f=", "--filename=", "-f"):
            if word is not None and word.startswith(prefix) and word[len(prefix) :] in _STDIN_FILES:
                return f"{program} {subcommand} -f -"
    return None


def _piped_to(redirect: Node) -> tuple[Node | None, bool]:
    """(the command the here-document's `cat` output goes to next, whether more commands
    follow it in the pipeline) for `cat << EOF | COMMAND ...`."""
    piped = next((c for c in redirect.children if c.type == "pipeline"), None)
    following = next(iter(piped.named_children), None) if piped is not None else None
    while following is not None and following.type == "list":  # `| kubectl apply -f - && ...`
        following = next(iter(following.named_children), None)
    more = False
    if following is not None and following.type == "pipeline":  # `| envsubst | kubectl ...`
        more = len(following.named_children) > 1
        following = next(iter(following.named_children), None)
    if following is not None and following.type == "redirected_statement":
        following = following.child_by_field_name("body")
    return (following if following is not None and following.type == "command" else None), more


def _later_apply(tm: TextMap, redirect: Node) -> str | None:
    """`cat << EOF | envsubst | kubectl apply -f -`: the apply a command between feeds."""
    piped = next((c for c in redirect.children if c.type == "pipeline"), None)
    stack = list(piped.named_children) if piped is not None else []
    while stack:
        node = stack.pop(0)
        if node.type in ("list", "pipeline"):
            stack[:0] = node.named_children
            continue
        if node.type == "redirected_statement":
            node = node.child_by_field_name("body") or node
        if node.type == "command":
            found = _applies(tm, node)
            if found is not None:
                return found
    return None


def read_applied(
    walker: Walking,
    statement: Node,
    command: Node,
    redirect: Node,
    text_map: Callable[[Walking, Node], tuple[TextMap, dict[str, str]] | None],
) -> bool:
    """Read the here-document as the manifest kubectl applies; True when it is one (its
    launches added, or what was not read said), False when the command applies no manifest
    from standard input."""
    tm = walker.tm
    applies = _applies(tm, command, tm.data[command.end_byte : redirect.start_byte])
    later = None
    if applies is None and (walker.tm.node_text(command.child_by_field_name("name") or command)) == "cat":
        if any(c.type == "file_redirect" for c in [*statement.children, *redirect.children]):
            return False
        following, more = _piped_to(redirect)
        applies = _applies(tm, following) if following is not None and not more else None
        later = _later_apply(tm, redirect) if applies is None else None
    if applies is None and later is None:
        return False
    body = next((c for c in redirect.children if c.type == "heredoc_body"), None)
    if body is None:
        return True
    built = text_map(walker, redirect) if applies is not None else None
    problem = _read(walker, *built) if built is not None else "found no text in it"
    if problem is not None:
        _unread(walker, body, applies or later or MANIFEST_STDIN, problem if applies is not None else None)
    return True


def _read(walker: Walking, manifest: TextMap, placeholders: dict[str, str]) -> str | None:
    """The manifest's launches added to the walker's; else why none was read."""
    from speclint.frontends.shell.unit_heredoc import moved_to_script

    reader = walker.unit_reader
    if reader is None:
        return "could not read it here (shell code held in a string of another program)"
    if "sglang" not in manifest.text:
        return "found no container that starts it"
    reasons = {
        name: value.reason
        for name, value in walker.env.vars.items()
        if name.startswith("__speclint_") and value.reason is not None and name in manifest.text
    }
    reasons.update(placeholders)
    found = reader(manifest.text, walker.path, reasons, moved_to_script(manifest), MANIFEST_STDIN)
    if not found.launches and any(d.kind == "unsupported-input" for d in found.diagnostics):
        return "could not read it here (a here-document inside a YAML file's or a Makefile's shell)"
    if not found.launches:
        error = next((d for d in found.diagnostics if d.kind == "syntax-error"), None)
        where = f" ({error.message}, line {error.span.line})" if error is not None else ""
        return f"found no container that starts it{where}"
    for launch in found.launches:
        launch.args = [_unknown(word, reasons) for word in launch.args]
        launch.env = {name: _unknown(word, reasons) for name, word in launch.env.items()}
        walker.add_launch(launch)
    walker.result.diagnostics.extend(found.diagnostics)
    walker.result.comments.extend(found.comments)
    return None


def _unknown(word: Word, reasons: dict[str, str]) -> Word:
    """A word holding an expansion the script cannot know (`$MODEL` in an unquoted
    here-document): unknown, with the script's reason."""
    match = _PLACEHOLDER.search(word.text) if word.text is not None else None
    if match is None:
        return word
    return replace(
        word, text=None, dynamic_reason=reasons.get(match.group(1), "a value the script cannot know")
    )


def _unread(walker: Walking, body: Node, applies: str, problem: str | None) -> None:
    """The here-document names SGLang's launcher but no launch was read from it: said."""
    from speclint.core.launches import Diagnostic
    from speclint.frontends.recognise import MENTIONS

    tm = walker.tm
    text = tm.data[body.start_byte : body.end_byte].decode("utf-8", "surrogatepass")
    match = next((m for mention in MENTIONS for m in mention.finditer(text)), None)
    if match is None:
        return
    part = "named" if "named" in match.re.groupindex and match.group("named") else 0
    start = body.start_byte + len(text[: match.start(part)].encode("utf-8", "surrogatepass"))
    end = body.start_byte + len(text[: match.end(part)].encode("utf-8", "surrogatepass"))
    why = (
        f"it reaches `{applies}` through another command first, whose output speclint does not know"
        if problem is None
        else f"speclint read it as the manifest `{applies}` applies and {problem}"
    )
    walker.result.diagnostics.append(
        Diagnostic(
            "launcher-not-read",
            f"speclint did not read the launch in this here-document, which names `{match.group(part)}`: "
            f"{why}; nothing in this launch was checked",
            tm.span(start, end),
        )
    )
