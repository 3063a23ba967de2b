"""Inline HTML code elements of a Markdown paragraph: `<code>`, `<kbd>`, `<tt>`, `<samp>`.

Issue threads and model cards write a command as `<code>python3 -m sglang.launch_server
...</code>` (also in a table cell, its lines split with `<br>`). What a reader sees and
copies is the element's text: it is read as a code span holding it, each `<br>` a line break
(the parts after the first that start with a flag go on with its command, as code spans
joined by `<br>` in a table cell do). Its end tag is not part of the command, so the last
flag's value is not mistaken for a `<` redirection. An element whose text is not shown as
written (another tag, an `&` entity, a backslash escape or emphasis that Markdown would
rewrite inside it) is said not read when it runs the launcher, never checked as written.
"""

from __future__ import annotations

import re

from speclint.core import patterns
from speclint.frontends.recognise import DOC_LAUNCHER

from .blocks import code_block
from .inline import CodeSpan, broken_spans, code_span_launch
from .unread import unread_launcher as _unread_launcher

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .excerpt import DocFile

_ELEMENT = patterns.compile(
    r"<(code|kbd|tt|samp)(?:\s[^<>]*)?>(.*?)</\1\s*>", patterns.IGNORECASE | re.DOTALL
)
_BREAK = patterns.compile(r"<br\s*/?>", patterns.IGNORECASE)
_COMMENT = patterns.compile(r"<!--.*?-->", re.DOTALL)


def paragraph_html(
    doc: DocFile, region: str, base: int, spans: list[CodeSpan]
) -> tuple[list[CodeSpan], list[CodeSpan]]:
    """A paragraph's code spans with its inline code elements added, and what its prose
    reading skips: the elements not read (said so here) and its HTML comments (`<!-- -->`,
    not shown: a command in one is not read)."""
    hidden = [CodeSpan(base + m.start(), base + m.end(), m.group()) for m in _COMMENT.finditer(region)]

    def shown(span: CodeSpan) -> bool:
        return not any(h.begin <= span.begin < h.end for h in hidden)

    elements, unread = html_code_spans(region, base, spans)
    unread = [s for s in unread if shown(s)]
    for element in unread:
        unread_element(doc, element)
    kept = sorted([s for s in [*spans, *elements] if shown(s)], key=lambda s: s.begin)
    return kept, [*unread, *hidden]


_REWRITTEN = patterns.compile(r"[<>&\\*`]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
"""What Markdown or HTML shows otherwise than as written in an inline element's text."""
_REWRITTEN_RAW = patterns.compile(r"[<>&]")
"""The same in an HTML block, whose text Markdown leaves alone."""


def html_code_spans(
    region: str, base: int, spans: list[CodeSpan], markdown: bool = True
) -> tuple[list[CodeSpan], list[CodeSpan]]:
    """The inline code elements of a paragraph's text (`base`: its file offset) outside its
    backtick code spans: their text as code spans (one per `<br>`-separated part), and the
    text of those that run the launcher but are not shown as written (not read). `markdown`
    False: the text of an HTML block, which Markdown does not rewrite."""
    rewritten = _REWRITTEN if markdown else _REWRITTEN_RAW
    found: list[CodeSpan] = []
    unread: list[CodeSpan] = []
    taken = [(s.begin - base, s.end - base) for s in spans]
    for match in _ELEMENT.finditer(region):
        if any(begin <= match.start() < end for begin, end in taken):
            continue
        start = match.start(2)
        parts: list[CodeSpan] = []
        previous = start
        for separator in [*_BREAK.finditer(region, start, match.end(2)), None]:
            stop = separator.start() if separator is not None else match.end(2)
            parts.append(CodeSpan(base + previous, base + stop, region[previous:stop]))
            if separator is not None:
                previous = separator.end()
        if any(rewritten.search(part.text) for part in parts):
            if DOC_LAUNCHER.search(match.group(2)):
                unread.append(CodeSpan(base + start, base + match.end(2), match.group(2)))
            continue
        found.extend(part for part in parts if part.text.strip())
    return found, unread


_PRE_OPEN = patterns.compile(r"<pre(?:\s[^<>]*)?>(?:<code(?:\s[^<>]*)?>)?", patterns.IGNORECASE)
_PRE_CLOSE = patterns.compile(r"(?:</code>)?</pre>", patterns.IGNORECASE)


def _pre_lines(lines: list[tuple[int, str]]) -> list[tuple[int, str]] | None:
    """The text of an HTML block's `<pre>` (`<pre><code>`) elements, other lines blanked,
    when that is all the block runs the launcher in and the text is as a browser shows it
    (no tag or `&` entity inside); else None."""
    kept: list[tuple[int, str]] = []
    inside = False
    for offset, line in lines:
        begin, end = 0, len(line)
        if not inside and (opening := _PRE_OPEN.search(line)):
            inside, begin = True, opening.end()
        if inside and (closing := _PRE_CLOSE.search(line, begin)):
            inside, end = False, closing.start()
            text, other = line[begin:end], line[:begin] + line[closing.end() :]
        elif inside:
            text, other = line[begin:], line[:begin]
        else:
            text, other = "", line
        if DOC_LAUNCHER.search(other) or "<" in text or "&" in text:
            return None
        kept.append((offset + begin, text) if text else (offset + len(line), ""))
    return kept


def html_block(doc: DocFile, lines: list[tuple[int, str]]) -> None:
    """An HTML block: the command in a `<pre>` (`<details>` ... `<pre>`) read as an untagged
    block when it is plain text; one that runs the launcher elsewhere outside an HTML comment
    (or with markup in the `<pre>`) is reported, not passed over."""
    joined = "\n".join(line for _, line in lines)
    if "<!--" in joined or not DOC_LAUNCHER.search(joined):
        return
    pre = _pre_lines(lines) if "<pre" in joined.lower() else None
    if pre is not None:
        code_block(doc, "", pre)
        return
    if "``" in joined or "~~" in joined:
        fences = _fences(lines)
        if fences is not None:
            for tag, block in fences:
                code_block(doc, tag, block)
            return
    if not _block_elements(doc, lines):
        _unread_launcher(doc, lines, [], "it is inside an HTML block")


_FENCE = patterns.compile(r" {0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*")


def _fences(lines: list[tuple[int, str]]) -> list[tuple[str, list[tuple[int, str]]]] | None:
    """The fences written inside an HTML block with no blank line before them (`<details>`,
    `<summary>...</summary>`, then a ```` ```bash ```` fence): CommonMark keeps them in the
    block, and the page shows their lines as text. Each fence's tag and lines, when the block
    runs the launcher only inside them and their text is shown as written (no tag or `&`
    entity in it); else None."""
    out: list[tuple[str, list[tuple[int, str]]]] = []
    opened: tuple[str, str, list[tuple[int, str]]] | None = None
    for offset, line in lines:
        if opened is None:
            if (match := _FENCE.fullmatch(line)) is not None:
                opened = (match.group(1), match.group(2).strip("{}").lstrip(".").lower(), [])
            elif DOC_LAUNCHER.search(line):
                return None
            continue
        marker, tag, block = opened
        stripped = line.strip()
        if stripped.startswith(marker) and not stripped.strip(marker[0]):
            out.append((tag, block))
            opened = None
        elif "<" in line or "&" in line:
            return None
        else:
            block.append((offset, line))
    if opened is not None or not any(DOC_LAUNCHER.search(t) for _, b in out for _, t in b):
        return None
    return out


def _block_elements(doc: DocFile, lines: list[tuple[int, str]]) -> bool:
    """An HTML block (a table, a `<p>`) whose launches are all in code elements of one line
    each (`<td><code>python3 -m sglang.launch_server ...</code></td>`): each read as a code
    span. False (nothing said) where the launcher is also elsewhere in the block."""
    spans: list[CodeSpan] = []
    unread: list[CodeSpan] = []
    for offset, line in lines:
        found, not_shown = html_code_spans(line, offset, [], markdown=False)
        outside = _ELEMENT.sub(" ", line)
        if DOC_LAUNCHER.search(outside):
            return False
        spans.extend(found)
        unread.extend(not_shown)
    for element in unread:
        unread_element(doc, element)
    joined = -1
    for index, span in enumerate(spans):
        if index > joined:
            more = broken_spans(doc.text, spans, index)
            if code_span_launch(doc, span, more):
                joined = index + len(more)
    return True


def unread_element(doc: DocFile, element: CodeSpan) -> None:
    """An inline HTML code element running the launcher whose text a browser shows otherwise
    than as written (markup, an entity): said not read, at the launcher."""
    from speclint.core.diagnostics import Diagnostic
    from speclint.frontends.recognise import PROSE_LAUNCH
    from speclint.frontends.shell.pieces import span_of

    match = PROSE_LAUNCH.search(element.text) or DOC_LAUNCHER.search(element.text)
    if match is None:
        return
    at = element.begin + match.start()
    doc.result.diagnostics.append(
        Diagnostic(
            "launcher-not-read",
            f"speclint did not read the command that runs `{' '.join(match.group().split())}` in this "
            "inline HTML element (its text holds markup or an entity, not shown as written), so "
            "nothing in this launch was checked",
            span_of(doc.starts, at, element.begin + match.end()),
        )
    )
