"""Flag lists written without their command: read as a `sglang.launch_server` launch.

Bug reports and docs list a launch's flags without the command ("Key Launch Parameters:"
as a block of `--flag value` lines, a bullet list of inline-code fragments, then env lines
like `SGLANG_ENABLE_SPEC_V2=1`). Such a list is checked as `python -m
sglang.launch_server <rest not shown> FLAGS`: the unknown rest stands for the model and
anything else left out, so no rule invents a missing flag. Only lists that are clearly
SGLang's are read: one flag must be a `--speculative-*` option of some SGLang release.
"""

from __future__ import annotations

from functools import lru_cache

from speclint.core import patterns
from speclint.frontends.recognise import DEFAULT_ENTRY

from .excerpt import unknown, virtual

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.frontends.shell.pieces import Piece

    from .excerpt import DocFile

ENV_LINE = patterns.compile(r"(?:export\s+)?[A-Z][A-Z0-9_]*=\S*(?:\s+[A-Z][A-Z0-9_]*=\S*)*")
_FLAG = patterns.compile(r"(?<!\S)--[a-z][\w-]*")
MAX_PARTS = 500
"""Flag lines or fragments in one list: a longer "list" is data, not a launch someone wrote."""
REST_REASON = "the rest of the launch (its model, other flags) is not shown in the documentation"


@lru_cache(maxsize=1)
def _speculative_options() -> tuple[str, ...]:
    from ...sglang.flags.release_index import option_entries  # the flags of every supported SGLang release

    return tuple(sorted(o for o in option_entries() if o.startswith("--speculative-")))


def is_sglang_list(text: str) -> bool:
    """The text names a `--speculative-*` option of some SGLang release (or a prefix of
    exactly the options starting with it, as argparse accepts)."""
    options = _speculative_options()
    for flag in _FLAG.findall(text):
        name = flag.split("=", 1)[0]
        if name.startswith("--speculative-") and any(o.startswith(name) for o in options):
            return True
    return False


_OTHER_ENGINE_ENV = patterns.compile(r"(?:export\s+)?(?:VLLM|TRTLLM|TLLM|LMDEPLOY|OLLAMA|TGI)_")


def other_engine(env_parts: list[list[Piece]]) -> bool:
    """Env lines of another engine (`VLLM_...=0`) in the list: its flags are not SGLang's."""
    return any(_OTHER_ENGINE_ENV.match(p.text or "") for part in env_parts for p in part)


def is_fragment(text: str) -> bool:
    """A flag fragment that carries a value (`--x 3`, `--x=3`, several flags): a bare flag
    name (`--speculative-num-steps` in a table of parameters) is a mention, not a launch."""
    words = text.split()
    return bool(words) and words[0].startswith("--") and (len(words) >= 2 or "=" in words[0])


def launch_from_parts(doc: DocFile, env_parts: list[list[Piece]], flag_parts: list[list[Piece]]) -> int:
    """Walk `ENV... python -m sglang.launch_server <rest> FLAGS...` built from the parts."""
    if (
        not flag_parts
        or not flag_parts[0]
        or len(flag_parts) + len(env_parts) > MAX_PARTS
        or other_engine(env_parts)
    ):
        return 0
    at = flag_parts[0][0].begin
    pieces: list[Piece] = []
    for part in env_parts:
        pieces.extend(part)
        pieces.append(virtual(" ", part[-1].end if part else at))
    pieces.append(virtual(DEFAULT_ENTRY + " ", at))
    pieces.append(unknown(REST_REASON, at, at))
    for part in flag_parts:
        pieces.append(virtual(" ", part[0].begin if part else at))
        pieces.extend(part)
    pieces.append(virtual("\n", flag_parts[-1][-1].end if flag_parts[-1] else at))
    return doc.shell(pieces, "drop")


def block_flag_list(doc: DocFile, lines: list[tuple[int, str]]) -> bool:
    """A code block of only `--flag value` lines, env lines, comments and blanks, with a
    known speculative flag: checked as one launch. Returns whether it was one."""
    from .excerpt import exact

    env_parts: list[list[Piece]] = []
    flag_parts: list[list[Piece]] = []
    for offset, lead, body in _content_lines(lines):
        if body.startswith("--"):
            flag_parts.append([exact(body, offset + lead)])
        elif ENV_LINE.fullmatch(body):
            if body.startswith("export"):
                skip = len(body) - len(body[6:].lstrip())
                lead, body = lead + skip, body[skip:]
            env_parts.append([exact(body, offset + lead)])
        else:
            return False
        if len(flag_parts) + len(env_parts) > MAX_PARTS:
            return False
    text = " ".join(p[0].text or "" for p in flag_parts)
    if not flag_parts or not is_sglang_list(text):
        return False
    launch_from_parts(doc, env_parts, flag_parts)
    return True


def _content_lines(lines: list[tuple[int, str]]) -> Iterator[tuple[int, int, str]]:
    """(offset, indent, text) of a block's lines that are not blank or comments, a trailing
    continuation `\\` dropped from the text."""
    for offset, line in lines:
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        lead = len(line) - len(line.lstrip())
        yield offset, lead, stripped[:-1].rstrip() if stripped.endswith("\\") else stripped


def block_prefixed_list(doc: DocFile, lines: list[tuple[int, str]]) -> bool:
    """A code block of only flag lines (comments and blanks aside) where a framework's
    prefixed flags appear (slime docs: one `--sglang-speculative-*` per line, no command):
    the lines are one command's flags, so they are walked as one line and make one launch
    (relations between them, such as steps/topk/draft tokens, are checked). Returns whether
    it was one."""
    from ..manifests.prefixed import mentions
    from .excerpt import exact

    parts: list[Piece] = []
    for offset, lead, body in _content_lines(lines):
        if not body.startswith("--") or len(parts) >= MAX_PARTS:
            return False
        parts.append(exact(body, offset + lead))
    if len(parts) < 2 or not mentions(" ".join(p.text or "" for p in parts).encode()):
        return False
    pieces: list[Piece] = []
    for part in parts:
        pieces.extend([part, virtual(" ", part.end)])
    pieces[-1] = virtual("\n", parts[-1].end)
    doc.shell(pieces, "drop")
    return True
