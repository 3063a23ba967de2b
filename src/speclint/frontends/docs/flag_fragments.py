"""A code block of only flags, without the command that takes them: an issue's "decode node:"
then a fence of `--disaggregation-mode decode --tp-size 8 ...`, a review's diff of flag lines,
a code span of flags alone on its paragraph's last line (`markdown._flag_paragraph`).
No launcher, no model: speclint does not make a launch of it (the flag lists of `flag_lists`
are read only when a `--speculative-*` option makes them clearly SGLang's). But such a block
was not checked, and "0 launches" (or a clean run over the page's one launch) must not pass
for a check of it: each block is said not read (`no-launch-found`, info), at its first flag,
unless a launch read its flags.

Said only where every flag of the block is an option of some SGLang release, exactly as
written (another engine's block, vLLM's `--gpu-memory-utilization` or TGI's `--num-shard`,
holds one SGLang never had, and is not SGLang's to report), and neither the block nor the lines
just above it name another engine ("For vLLM we passed:").

A command in a shell block that is not SGLang's launcher (`python -m some_wrapper ...`, a
script of the page's project) but passes a `--speculative-*` option of some SGLang release,
exactly as written, is said the same way at that flag: the page may never name SGLang, but no
other engine's speculative flags have those names (vLLM's is `--speculative-config`), so the
flag says what the command starts, and speclint did not read it.
"""

from __future__ import annotations

from speclint.core import patterns

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span
    from speclint.frontends.shell.pieces import Piece

    from .excerpt import DocFile

Block = list[tuple[int, str]]
_FLAG = patterns.compile(r"(?<![\w-])--[a-z][a-z0-9-]*[a-z0-9](?=[=\s]|$)")
_OTHER_ENGINE = patterns.compile(
    r"(?i)vllm|text-generation|\btgi\b|trtllm|tensorrt|lmdeploy|ollama|llama\.cpp"
)
_BLOCK_TAGS = {"", "bash", "sh", "shell", "zsh", "console", "text", "txt", "plaintext", "plain", "none"}
_DIFF_TAGS = {"diff", "patch"}
MAX_LINES = 200
MAX_KEPT = 50
"""Blocks kept per page (the last one said names the cap when there are more)."""
_SPAN_LINES = 200
_SAID = ("no-launch-found", "launcher-not-read", "launch-unread")
"""Diagnostics that already say a launch was not read."""
_SPECULATIVE = patterns.compile(r"(?<![\w-])--speculative-[a-z0-9-]*[a-z0-9](?=[=\s]|$)")
_ASSIGNMENT = patterns.compile(r"[A-Za-z_][A-Za-z0-9_]*=\S*")
_ABOVE = 3
"""Lines above a block read for another engine's name ("For vLLM we passed:", its fence)."""


def flag_block(tag: str, lines: Block) -> Block | None:
    """The lines of a block that holds only flag lines (`--x v`, `--x=v`, a trailing `\\`),
    comments and blanks: a diff's added and context lines, its marker column dropped, its
    removed lines left out. None for any other block."""
    if tag not in _BLOCK_TAGS and tag not in _DIFF_TAGS or len(lines) > MAX_LINES:
        return None
    kept: Block = []
    for offset, line in lines:
        if tag in _DIFF_TAGS and line[:1] in ("+", "-", " "):
            if line.startswith(("-", "+++", "---")) and not line.startswith("--", 1):
                continue  # (a removed line, a file header)
            offset, line = offset + 1, line[1:]
        body = line.strip()
        if not body or body.startswith("#") or body.startswith("@@"):
            continue
        if not body.startswith("--") or body.startswith("---"):
            return None
        kept.append((offset, line))
    return kept or None


def remember(doc: DocFile, tag: str, lines: Block) -> None:
    """Keep a flag-only block of the page (or a shell block whose command, not SGLang's
    launcher, passes a `--speculative-*` flag) for `say_unread_fragments`, unless it or the
    lines just above it (its fence, the sentence that introduces it) name another engine."""
    if not lines or (doc.fragments and doc.fragments[-1][0] == "more"):
        return
    kind = "flags"
    block = flag_block(tag, lines) if "--" in "".join(line for _, line in lines[:3]) else None
    if block is None:
        if tag not in _BLOCK_TAGS or len(lines) > MAX_LINES or not _passes_speculative(lines):
            return
        kind, block = "command", lines
    from bisect import bisect_right

    row = bisect_right(doc.starts, lines[0][0]) - 1
    above = doc.text[doc.starts[max(row - _ABOVE, 0)] : lines[-1][0] + len(lines[-1][1])]
    if _OTHER_ENGINE.search(above) is None:
        doc.fragments.append((kind, block) if len(doc.fragments) < MAX_KEPT else ("more", []))


def remember_commands(doc: DocFile, commands: list[list[Piece]]) -> None:
    """A notebook's shell commands (`!cmd`, a `%%bash` cell), each kept as `remember` keeps a
    shell block, by the lines written in the file."""
    for pieces in commands:
        lines = [
            (p.begin, p.text)
            for p in pieces
            if p.exact and p.text and p.text.strip() and p.text.lstrip()[:1] != "#"
        ]
        if lines and any("--speculative-" in text for _, text in lines):
            remember(doc, "bash", lines)


def _passes_speculative(lines: Block) -> bool:
    """A `--speculative-*` flag in a block that does not name SGLang's launcher (a block that
    does is the launch readers' to read or say)."""
    joined = "\n".join(line for _, line in lines)
    if "--speculative-" not in joined:
        return False
    from speclint.frontends.recognise import DOC_LAUNCHER

    return DOC_LAUNCHER.search(joined) is None


def say_unread_fragments(doc: DocFile) -> None:
    """Each kept block that no launch read, at its first flag (see the module); on a page with
    no launch, none where the page already says it was not read (which says more)."""
    if not doc.fragments:
        return
    launches = bool(doc.result.launches)
    if not launches:
        if any(d.kind in _SAID for d in doc.result.diagnostics):
            return
        from speclint.frontends.launch_mentions import no_launch_found

        if no_launch_found(doc.text, doc.result) is not None:
            return  # (the page names the launcher: said there, which says more)
    from speclint.core.launches import Diagnostic

    read = _read_spans(doc)
    said = 0
    for kind, block in doc.fragments:
        if kind == "more":
            if said:  # (on the last one said)
                last = doc.result.diagnostics[-1]
                note = f" (this file has more such code; speclint says the first {MAX_KEPT} only)"
                doc.result.diagnostics[-1] = Diagnostic(last.kind, last.message + note, last.span)
            break
        found = _unread_flags(doc, block, read) if kind == "flags" else _unread_command(doc, block, read)
        if found is None:
            continue
        at, flag = found
        if kind == "command":
            message = (
                f"this command (`{_command_name(block)}`) is not SGLang's launcher but passes "
                f"`{flag}`, an option of SGLang's server: speclint did not read it as a launch, so "
                "nothing in it was checked"
            )
        elif launches:
            message = (
                f"this code holds only flags (`{flag}`, an option of SGLang's server) without the "
                "command that takes them: speclint did not read them as part of any launch in this "
                "file, so they were not checked"
            )
        else:
            message = (
                f"this code holds only flags (`{flag}`, an option of SGLang's server) without the "
                "command that takes them, and this file holds no launch: speclint did not read them "
                "as a launch, so nothing here was checked"
            )
        doc.result.diagnostics.append(Diagnostic("no-launch-found", message, doc.span(at, at + len(flag))))
        said += 1


def _read_spans(doc: DocFile) -> dict[int, list[Span]]:
    """Where the page's launches' words are written, and what it already said not read, by
    the lines they cover (a span over many lines is kept for its first `_SPAN_LINES`)."""
    spans = [
        where
        for launch in doc.result.launches
        for word in launch.args
        for where in (word.span, word.origin)
        if where is not None
    ]
    spans.extend(d.span for d in doc.result.diagnostics if d.kind in _SAID)
    by_line: dict[int, list[Span]] = {}
    for span in spans:
        for line in range(span.line, min(span.end_line, span.line + _SPAN_LINES) + 1):
            by_line.setdefault(line, []).append(span)
    return by_line


def _inside(span: Span, read: dict[int, list[Span]]) -> bool:
    return any(
        (s.line, s.column) <= (span.line, span.column) < (s.end_line, s.end_column)
        for s in read.get(span.line, ())
    )


def _unread_flags(doc: DocFile, block: Block, read: dict[int, list[Span]]) -> tuple[int, str] | None:
    """The first flag of a flag-only block, when every flag is an option of SGLang's server
    and no launch read any of them."""
    from speclint.sglang.flags.release_index import option_entries

    options = option_entries()
    first: tuple[int, str] | None = None
    for offset, line in block:
        for match in _FLAG.finditer(line):
            if match.group() not in options:
                return None
            at = offset + match.start()
            if read and _inside(doc.span(at, at + 1), read):
                return None  # (read as part of a launch: a flag list `flag_lists` walked)
            if first is None:
                first = (at, match.group())
    return first


def _unread_command(doc: DocFile, block: Block, read: dict[int, list[Span]]) -> tuple[int, str] | None:
    """The first `--speculative-*` option of SGLang's server that a block's command passes
    outside comments, unless a launch read it."""
    from speclint.sglang.flags.release_index import option_entries

    options = option_entries()
    for offset, line in block:
        code = line.split(" #", 1)[0]
        if code.lstrip().startswith("#"):
            continue
        for match in _SPECULATIVE.finditer(code):
            at = offset + match.start()
            if match.group() in options and not (read and _inside(doc.span(at, at + 1), read)):
                return at, match.group()
    return None


def _command_name(block: Block) -> str:
    """The command a block runs, as its first line writes it: its program (and `-m MODULE`),
    a prompt and `VAR=value` prefixes left out."""
    for _, line in block:
        words = line.split()
        while words and (words[0] in ("$", "#", ">", "%", "!") or _ASSIGNMENT.fullmatch(words[0])):
            words = words[1:]
        if not words or words[0].startswith("#"):
            continue
        if len(words) > 2 and words[1] == "-m":
            return " ".join(words[:3])
        if len(words) > 1 and words[0].startswith("python") and not words[1].startswith("-"):
            return " ".join(words[:2])  # (`python bench.py`)
        return words[0].lstrip("!$")
    return ""
