"""Markdown front-end (markdown-it-py, CommonMark): launches in docs and READMEs.

Read: fenced and indented code blocks (shell, console with `$ ` prompts, Python with
IPython escapes, a shell command in a Python fence), blocks inside list items, block quotes
MkDocs admonitions/tabs and MDX components; launches in inline code spans and on prose lines; flag lists
written without their command. Everything is cut out with its file positions (see
`excerpt`), so findings point into the Markdown file. A doc block never yields an
error-severity syntax finding: a tagged shell or Python block that does not parse is a
warning, untagged text is not complained about.
"""

from __future__ import annotations

from itertools import accumulate

from speclint.core import patterns
from speclint.core.launches import Diagnostic

from .admonitions import deindent_admonitions
from .blocks import PYTHON_TAGS, code_block
from .components import deindent_components
from .excerpt import DocFile, exact
from .flag_lists import ENV_LINE, is_fragment, is_sglang_list, launch_from_parts
from .html_code import html_block, paragraph_html
from .inline import (
    Fragments,
    broken_spans,
    classify_fragment,
    code_span_launch,
    code_spans,
    span_pieces,
)
from .plain_blocks import plain_blocks
from .prose import prose_launches
from .rst_fence import RST_TAGS, rst_block

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from markdown_it import MarkdownIt

    from speclint.core.launches import ExtractResult
    from speclint.frontends.shell.pieces import Piece

    from .inline import CodeSpan
    from .plain_blocks import BlockToken as Token

MAX_NESTING = 50
"""Containers (lists, quotes) markdown-it opens inside each other; deeper, it stops reading."""
_DEEP_LINE = patterns.compile(r"[ \t]*(?:(?:[-*+>]|\d{1,9}[.)])[ \t]+)" + f"{{{MAX_NESTING // 2}}}")
_DEEP_ANY = patterns.compile(
    r"[-*+>.)][ \t]+(?:(?:[-*+>]|\d{1,9}[.)])[ \t]+)" + f"{{{MAX_NESTING // 2 - 1}}}"
)
"""In every line _DEEP_LINE matches (from its first marker, or the `.`/`)` after its first
number): a text without it has no such line, and this search costs less than the split."""
_TOO_DEEP = (
    "Markdown nested too deeply for speclint to follow (lists or quotes in each other); "
    "launches inside are not checked"
)


_TAG_SUFFIX = patterns.compile(r"(?<=\w)(?::\S*|=\d*!?|!)$")


def _tag(info: str) -> str:
    words = info.strip().split()
    if not words:
        return ""
    first = words[0]
    if first.startswith("{") and first.endswith("}") and len(words) > 1 and "." not in first:
        first = words[1]  # {code-block} bash
    # `bash:launch.sh` (Qiita, Zenn: the file's name), `bash=` / `bash=101` / `bash!` (HackMD,
    # CodiMD: line numbers, wrapping)
    return _TAG_SUFFIX.sub("", first.strip("{}").lstrip(".")).lower()


def _line_range(token: Token) -> list[int]:
    """[first line, line after] of a block token (only tokens that have one are read)."""
    assert token.map is not None
    return token.map


def _block_lines(token: Token, lines: list[str], starts: list[int]) -> list[tuple[int, str]]:
    """(file offset, text) of each content line of a code block token: markdown-it strips
    container indentation, so the content line is the end of the original line."""
    block_start, block_stop = _line_range(token)
    first = block_start + (1 if token.type == "fence" else 0)
    content = token.content.split("\n")
    if content and content[-1] == "":
        content.pop()
    count = max(min(len(content), len(lines) - first, block_stop - first), 0)
    if "\r" not in token.content and lines[first : first + count] == content[:count]:
        return list(zip(starts[first : first + count], content[:count]))  # as written: column 1
    out = []
    for number, text in enumerate(content):
        index = first + number
        if index >= len(lines) or index >= block_stop:
            break
        original = lines[index].rstrip("\r")
        text = text.rstrip("\r")
        column = (
            len(original) - len(text) if original.endswith(text) else len(original) - len(original.lstrip())
        )
        out.append((starts[index] + column, original[column:]))
    return out


def _inline(
    doc: DocFile, token: Token, fragments: Fragments | None, in_list: bool, table: bool = False
) -> None:
    """A paragraph (or heading, or table row): code spans, prose launches, fragments."""
    first, stop = _line_range(token)
    stop = min(stop, len(doc.starts))
    if first >= stop:
        return
    begin = doc.starts[first]
    end = doc.starts[stop] - 1 if stop < len(doc.starts) else len(doc.text)
    region = doc.text[begin:end]
    spans = code_spans(region, begin) if "`" in region else []
    if table:
        for span in spans:
            span.table = True
    skipped: list[CodeSpan] = []  # what prose reading leaves out: elements not read, comments
    if "<" in region and "sglang" in region:
        spans, skipped = paragraph_html(doc, region, begin, spans)
    leading = region.lstrip(" \t>-*+0123456789.)") if spans else ""
    joined = -1  # the last span read as part of the command of one before it
    for index, span in enumerate(spans):
        if index <= joined:
            continue
        more = broken_spans(doc.text, spans, index) if "<" in region else []
        if code_span_launch(doc, span, more):
            joined = index + len(more)
            continue
        kind = classify_fragment(span)
        if kind is None or (kind == "flags" and len(spans) == 1 and not in_list):
            _flag_paragraph(doc, region, begin, span)
            continue
        item = in_list and index == 0 and leading.startswith("`")
        if kind == "flags" and item and fragments is not None:
            fragments.flags.append(span_pieces(span))
        elif kind == "env" and item and fragments is not None:
            fragments.env.append(span_pieces(span))
        # a fragment inside a sentence ("use `--speculative-algorithm EAGLE3` for ...") is a
        # mention of a flag, not a launch: only list items make flag lists
    if "sglang" in region:
        lines = []
        for index in range(first, stop):
            line_end = doc.starts[index + 1] - 1 if index + 1 < len(doc.starts) else len(doc.text)
            lines.append((doc.starts[index], doc.text[doc.starts[index] : line_end].rstrip("\r")))
        prose_launches(doc, lines, sorted([*spans, *skipped], key=lambda s: s.begin) if skipped else spans)


def _flag_paragraph(doc: DocFile, region: str, begin: int, span: CodeSpan) -> None:
    """A paragraph ending in one code span of flags that starts a line (an issue's "**Server
    side**" then `` `--tp 2 ...` `` over lines): a flag list shown without its command, read
    as a list's fragments are (only one naming a `--speculative-*` flag)."""
    before = region[: span.begin - begin].rstrip("`").rstrip(" \t")
    if (before and not before.endswith("\n")) or region[span.end - begin :].strip(" \t\r\n`"):
        return
    if is_fragment(span.text.strip()) and is_sglang_list(span.text):
        pieces = span_pieces(span)
        while pieces and not (pieces[0].text or "").strip():  # (the span's line break)
            pieces.pop(0)
        launch_from_parts(doc, [], [pieces])
    elif "\n" not in span.text and is_fragment(span.text):
        from .flag_fragments import remember  # (other flags: said not read)

        remember(doc, "", [(span.begin, span.text)])


def _env_block(lines: list[tuple[int, str]], fragments: Fragments) -> bool:
    """A block of only env lines right after a flag list (`SGLANG_ENABLE_SPEC_V2=1`): the
    list's environment. Returns whether it was one (then it was added)."""
    found: list[list[Piece]] = []
    for offset, line in lines:
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if not ENV_LINE.fullmatch(stripped) or len(found) >= 50:
            return False
        lead = len(line) - len(line.lstrip())
        if stripped.startswith("export"):
            skip = len(stripped) - len(stripped[6:].lstrip())
            lead, stripped = lead + skip, stripped[skip:]
        found.append([exact(stripped, offset + lead)])
    if not found or not fragments.flags:
        return False
    fragments.env.extend(found)
    return True


def _flush(doc: DocFile, fragments: Fragments | None) -> None:
    if fragments is None or not fragments.flags:
        return
    if is_sglang_list(" ".join(p.text or "" for part in fragments.flags for p in part)):
        launch_from_parts(doc, fragments.env, fragments.flags)


def _bounded(doc: DocFile, text: str) -> str:
    """The text with lines that open dozens of containers at once (`- - - - ...`, on which
    markdown-it takes seconds) blanked, and one finding at the first."""
    if _DEEP_ANY.search(text) is None:  # (the lines below match _DEEP_LINE)
        return text
    lines = text.split("\n")
    for index, line in enumerate(lines):
        if len(line) > MAX_NESTING and _DEEP_LINE.match(line):
            if not any(d.message == _TOO_DEEP for d in doc.result.diagnostics):
                at = doc.starts[index]
                doc.result.diagnostics.append(
                    Diagnostic("unsupported-input", _TOO_DEEP, doc.span(at, at + 1))
                )
            lines[index] = ""
    return "\n".join(lines)


def _too_deep(doc: DocFile, tokens: Sequence[Token]) -> None:
    deep = next((t for t in tokens if t.level >= MAX_NESTING - 1 and t.map), None)
    if deep is not None and not any(d.message == _TOO_DEEP for d in doc.result.diagnostics):
        at = doc.starts[min(_line_range(deep)[0], len(doc.starts) - 1)]
        doc.result.diagnostics.append(Diagnostic("unsupported-input", _TOO_DEEP, doc.span(at, at + 1)))


_parser: MarkdownIt | None = None


def _block_parser() -> MarkdownIt:
    """One parser per process: building it (rule chains, the preset) cost more than parsing
    a README; `parse` keeps no state between documents."""
    global _parser
    if _parser is None:
        from markdown_it import MarkdownIt  # loaded only for a Markdown file that mentions sglang

        # block structure only: code spans are found in the original lines (inline.py), and
        # markdown-it's inline rules take seconds on hostile brackets and emphasis
        _parser = MarkdownIt("commonmark", {"maxNesting": MAX_NESTING}).enable("table").disable("inline")
    return _parser


def _line_starts(lines: list[str]) -> list[int]:
    """Where each of `text.split("\n")` begins in text (`pieces.line_starts`), summed in C."""
    return list(accumulate(map((1).__add__, map(len, lines[:-1])), initial=0))


def _cell_output(token: Token, previous: Token | None) -> bool:
    """An indented block right after a Python fence at the margin: a notebook cell's output
    as nbconvert writes a notebook in Markdown (the cell a fence, its printed text and
    warnings indented, `Example: sglang serve ...` in SGLang's own); output is not run, as a
    notebook's outputs are not read."""
    return (
        token.type == "code_block"
        and token.level == 0
        and previous is not None
        and previous.type == "fence"
        and _tag(previous.info) in PYTHON_TAGS
    )


def extract_markdown(text: str, path: str) -> ExtractResult:
    lines = text.split("\n")
    doc = DocFile(text, path, _line_starts(lines))
    if "-f" in text and ("kubectl" in text or "oc " in text):  # a manifest a here-document applies
        from speclint.frontends.manifest_reader import read_unit_or_manifest

        doc.unit_reader = read_unit_or_manifest
    source = _bounded(doc, deindent_admonitions(deindent_components(text, path)))
    tokens: Sequence[Token] | None = plain_blocks(source)  # markdown-it only for other blocks
    if tokens is None:
        tokens = _block_parser().parse(source)
    _too_deep(doc, tokens)
    depth = 0
    fragments: Fragments | None = None
    pending: Fragments | None = None  # a list just closed: env lines in the next block join it
    seen: set[tuple[int, ...]] = set()
    previous: Token | None = None
    table = False  # inside a GFM table: `\|` in a cell's code span is `|`
    for token in tokens:
        if _cell_output(token, previous):
            continue
        previous = token
        if token.type in ("table_open", "table_close"):
            table = token.type == "table_open"
        if pending is not None and token.level == 0 and token.type not in ("fence", "code_block"):
            _flush(doc, pending)
            pending = None
        if token.type in ("bullet_list_open", "ordered_list_open"):
            if depth == 0:
                fragments = Fragments([], [])
            depth += 1
        elif token.type in ("bullet_list_close", "ordered_list_close"):
            depth -= 1
            if depth == 0:
                pending, fragments = fragments, None
        elif token.type in ("fence", "code_block") and token.map:
            block = _block_lines(token, lines, doc.starts)
            if pending is not None and _env_block(block, pending):
                continue
            tag = _tag(token.info) if token.type == "fence" else ""
            if tag in RST_TAGS:  # MyST's {eval-rst}: reStructuredText
                rst_block(doc, block)
            else:
                code_block(doc, tag, block)
        elif token.type == "html_block" and token.map:
            html_block(doc, _block_lines(token, lines, doc.starts))
        elif token.type == "inline" and token.map and tuple(token.map) not in seen:
            seen.add(tuple(token.map))
            _inline(doc, token, fragments, depth > 0, table)
    _flush(doc, pending)
    _flush(doc, fragments)
    if doc.fragments:
        from .flag_fragments import say_unread_fragments

        say_unread_fragments(doc)
    if doc.result.launches:
        from .stated_version import state_launches

        state_launches(doc.result.launches, text)
    return doc.result
