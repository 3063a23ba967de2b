"""MDX components (Mintlify, Docusaurus) made CommonMark before parsing.

An MDX page (`.mdx`, and the `.md` copy of it a Mintlify site serves) holds JSX components
on lines of their own, `<Tabs>`, `<Tab title="Prefill">`, `<Steps>`, `<Accordion ...>`,
`<TabItem value="x">`, `</Tab>`, with Markdown inside indented to the component's depth.
MDX reads that Markdown as Markdown (it has no indented code blocks). CommonMark reads a
component line as the start of an HTML block that runs on to the next blank line, and a
fence indented by four spaces or more as an indented code block that shows "```bash", so
the launch inside was lost. Here each component tag line is blanked and each line inside a
component loses the indentation of the first line of that component's body: every line
stays where it was and is a suffix of the original line, so positions still map back
exactly (as `admonitions` does for MkDocs). Component names start with a capital letter
(JSX's rule: lower-case tags are HTML, left as they are); fenced code outside components
(JSX shown as an example) is passed over.
"""

from __future__ import annotations

from speclint.core import patterns

from .admonitions import dedent, indent_of

_TAG = patterns.compile(r"[ \t]*<(/?)([A-Z][\w.]*)(?:[ \t][^<\n]*?)?(/?)>[ \t]*\r?")
"""A component's opening, closing or self-closing tag alone on its line (no other tag in it:
`<Warning>text</Warning>` is left to CommonMark)."""
_OPEN_START = patterns.compile(r"[ \t]*<[A-Z][\w.]*[ \t]*\r?")
"""An opening tag whose attributes follow on the next lines (`<Tab` ... `>`)."""
_ANY_TAG = patterns.compile(r"^[ \t]*</?[A-Z][\w.]*", patterns.MULTILINE)
_FENCE = patterns.compile(r"[ \t]*(`{3,}|~{3,})")
_MAX_ATTRIBUTE_LINES = 20


def deindent_components(text: str, path: str) -> str:
    """The text with component tag lines blanked and their bodies de-indented (same lines,
    same order); unchanged for a `.md` file with no component tag line."""
    if "<" not in text or _ANY_TAG.search(text) is None:
        return text
    lines = text.split("\n")
    if not path.endswith(".mdx") and not any(_TAG.fullmatch(line) for line in lines):
        return text
    stack: list[int | None] = []  # indent of each open component's body (None: not seen yet)
    out: list[str] = []
    fence = ""  # the fence a code block outside components opened, until it closes
    attributes = 0  # lines left of a tag whose attributes span lines
    for line in lines:
        if attributes:
            attributes = 0 if line.rstrip().endswith(">") else attributes - 1
            out.append("")
            continue
        if fence:
            if line.strip().startswith(fence):
                fence = ""
            out.append(line)
            continue
        tag = _TAG.fullmatch(line)
        if tag is not None:
            closing, _, self_closing = tag.groups()
            if closing:
                if stack:
                    stack.pop()
            elif not self_closing:
                stack.append(None)
            out.append("")
            continue
        if _OPEN_START.fullmatch(line):
            stack.append(None)
            attributes = _MAX_ATTRIBUTE_LINES
            out.append("")
            continue
        if not stack:
            opened = _FENCE.match(line)
            if opened is not None:
                fence = opened.group(1)
            out.append(line)
            continue
        if not line.strip():
            out.append("")
            continue
        body = stack[-1]
        if body is None:
            body = stack[-1] = indent_of(line)
        out.append(dedent(line, body))
    return "\n".join(out)
