"""A code block of only flags, without the command that takes them: an issue's "decode node:"
then a fence of `--disaggregation-mode decode --tp-size 8 ...`, a review's diff of flag lines,
a code span of flags alone on its paragraph's last line (`markdown._flag_paragraph`).
No launcher, no model: speclint does not make a launch of it (the flag lists of `flag_lists`
are read only when a `--speculative-*` option makes them clearly SGLang's). But a page whose
only SGLang content is such a block was not checked, and "0 launches" must not pass for a
check: the block is said not read (`no-launch-found`, info), at its first flag.

Said only where every flag of the block is an option of some SGLang release, exactly as
written (another engine's block, vLLM's `--gpu-memory-utilization` or TGI's `--num-shard`,
holds one SGLang never had, and is not SGLang's to report), neither the block nor the lines just
above it name another engine ("For vLLM we passed:"), and the page yields no launch at all.
"""

from __future__ import annotations

from speclint.core import patterns

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .excerpt import DocFile

Block = list[tuple[int, str]]
_FLAG = patterns.compile(r"(?<![\w-])--[a-z][a-z0-9-]*[a-z0-9](?=[=\s]|$)")
_OTHER_ENGINE = patterns.compile(
    r"(?i)vllm|text-generation|\btgi\b|trtllm|tensorrt|lmdeploy|ollama|llama\.cpp"
)
_BLOCK_TAGS = {"", "bash", "sh", "shell", "zsh", "console", "text", "txt", "plaintext", "plain", "none"}
_DIFF_TAGS = {"diff", "patch"}
MAX_LINES = 200
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
    """Keep the first flag-only block of the page for `say_unread_fragment`, unless it or the
    lines just above it (its fence, the sentence that introduces it) name another engine."""
    if doc.fragment is not None or not lines or "--" not in "".join(line for _, line in lines[:3]):
        return
    block = flag_block(tag, lines)
    if block is None:
        return
    from bisect import bisect_right

    row = bisect_right(doc.starts, lines[0][0]) - 1
    above = doc.text[doc.starts[max(row - _ABOVE, 0)] : lines[-1][0] + len(lines[-1][1])]
    if _OTHER_ENGINE.search(above) is None:
        doc.fragment = block


def say_unread_fragment(doc: DocFile) -> None:
    """On a page with no launch and nothing else said not read: the kept flag-only block, at
    its first flag, said not read as a launch (see the module)."""
    block = doc.fragment
    if block is None or doc.result.launches:
        return
    if any(
        d.kind in ("no-launch-found", "launcher-not-read", "launch-unread") for d in doc.result.diagnostics
    ):
        return
    from speclint.frontends.launch_mentions import no_launch_found

    if no_launch_found(doc.text, doc.result) is not None:
        return  # (the page names the launcher: said there, which says more)
    from speclint.sglang.flags.release_index import option_entries

    options = option_entries()
    first: tuple[int, str] | None = None
    for offset, line in block:
        for match in _FLAG.finditer(line):
            if match.group() not in options:
                return
            if first is None:
                first = (offset + match.start(), match.group())
    if first is None:
        return
    from speclint.core.launches import Diagnostic

    at, flag = first
    message = (
        f"this code holds only flags (`{flag}`, an option of SGLang's server) without the "
        "command that takes them, and this file holds no launch: speclint did not read them as a "
        "launch, so nothing here was checked"
    )
    doc.result.diagnostics.append(Diagnostic("no-launch-found", message, doc.span(at, at + len(flag))))
