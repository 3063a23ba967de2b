"""reStructuredText front-end: launches in Sphinx doc pages and other .rst files.

Blocks are found by reStructuredText's own rules, read from docutils' "reStructuredText
Markup Specification" (https://docutils.sourceforge.io/docs/ref/rst/restructuredtext.html)
and docutils' parser (`parsers/rst/states.py`), without docutils:

- "Directives": `.. code-block:: LANG`, `.. sourcecode::` (Sphinx), `.. code:: LANG`
  (docutils), `.. prompt:: LANG PROMPTS MODIFIERS` (sphinx-prompt), with their options
  (`:caption:`, `:linenos:`; for prompt `:language:`, `:prompts:`, `:modifiers:`);
  `.. highlight:: LANG` (Sphinx) sets the language of later `::` blocks.
- "Literal Blocks": a paragraph ending in `::`, a blank line, then an indented block.
- "Block Quotes": an indented paragraph with no `::` before it that holds a command (`$ python
  -m sglang.launch_server ...`, or the launcher and its flags): read as a shell block.

Each block goes to the same reader as a Markdown fence of that language (`blocks.code_block`;
an untagged `::` block is read as an untagged fence), cut out with its file positions, so a
finding's line and column are the .rst file's own, the block's indentation included. Other
directives' content is scanned for literal blocks (`.. note::`, tabs), except directives
whose content is not reStructuredText (`raw`, `math`, ...), and comments.
"""

from __future__ import annotations

import re

from speclint.core.launches import Diagnostic

from .blocks import code_block
from .excerpt import DocFile
from .rst_lines import (
    FIELD_MARKER,
    LIST_MARKER,
    Line,
    announces_literal,
    block_end,
    dedented,
    indent_of,
    options_of,
    statements,
)
from .rst_prose import inline_literals, paragraph, quoted_command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.launches import ExtractResult

_DIRECTIVE = re.compile(r"\.\.[ ]+((?:(?!_)\w)+(?:[-._+:](?:(?!_)\w)+)*)[ ]?::(?:[ ]+|$)")
"""docutils' directive marker: `.. ` then the directive type (a "simple reference name"),
`::`, and whitespace or the line end."""
_MARKUP = re.compile(r"\.\.(?:[ ]+|$)")
"""Spec "Explicit Markup Blocks": `..` followed by whitespace starts one."""

_CODE = {"code-block": 1, "sourcecode": 1, "code": 1, "prompt": 3}
"""Directives read as code, and how many arguments each takes (Sphinx's CodeBlock and
docutils' CodeBlock: the language; sphinx-prompt: language, prompts, modifiers)."""
_NOT_RST = {
    "raw", "math", "csv-table", "parsed-literal", "literalinclude", "include", "ipython",
    "jupyter-execute", "code-cell", "testoutput", "testsetup", "testcleanup", "graphviz", "digraph", "graph", "mermaid", "plantuml", "productionlist",
}  # fmt: skip
"""Directives whose content is not reStructuredText: not scanned for literal blocks."""
_TESTS = {"doctest", "testcode"}
"""sphinx.ext.doctest's directives holding Python: a pasted `>>> ` session (`doctest`) or code
(`testcode`); their one optional argument is a group name, not a language."""
_PROMPTS = {"bash": "$", "batch": "C:\\>", "powershell": "PS C:\\>"}
"""sphinx-prompt's default prompt per language (`PROMPTS` in its source)."""
_REFUSED = (
    "{why}: Sphinx reports an error and shows nothing of this `.. {name}::` block; speclint did not read it"
)


class _Page:
    """One .rst file being read: its lines, the `.. highlight::` language, the result."""

    def __init__(self, text: str, path: str) -> None:
        self.doc = DocFile(text, path)
        if "-f" in text and ("kubectl" in text or "oc " in text):  # a manifest a here-document applies
            from speclint.frontends.manifest_reader import read_unit_or_manifest

            self.doc.unit_reader = read_unit_or_manifest
        ends = self.doc.starts[1:] + [len(text) + 1]
        self.lines = [
            (start, text[start : end - 1].rstrip("\r")) for start, end in zip(self.doc.starts, ends)
        ]
        self.highlight = ""
        self.prose_done = -1  # the last paragraph line whose prose launches were read

    def read(self) -> None:
        lines = self.lines
        index = 0
        continues: int | None = None  # the indentation of the open paragraph's next line
        above = 0  # the indentation of the last line before a blank one
        blank = True
        while index < len(lines):
            offset, line = lines[index]
            if not line.strip():
                continues = None
                blank = True
                index += 1
                continue
            indent = indent_of(line)
            if blank and indent > above and quoted_command(line.lstrip(" \t\v\f")):
                index = self._block_quote(index)
                continue
            above, blank = indent, False
            if continues is not None and indent != continues:
                continues = None  # the paragraph ended where the indentation changed
            body = line.lstrip(" \t\v\f")
            if continues is None and _MARKUP.match(body):
                index = self._explicit(index, indent, body)
                continue
            if continues is None and (body.startswith(">>> ") or body.rstrip() == ">>>"):
                index = self._doctest_block(index)
                continue
            if continues is None:
                marker = LIST_MARKER.match(body)
                continues = indent + (marker.end() if marker else 0)
            following = lines[index + 1][1] if index + 1 < len(lines) else "x"
            if announces_literal(line) and not following.strip():
                index = self._literal(index + 1, continues)
                continues = None
                continue
            if "``" in line and "sglang" in line:
                inline_literals(self.doc, offset, line)
            if offset > self.prose_done and "sglang" in line:
                self.prose_done = paragraph(self.doc, self.lines, index)
            index += 1

    def _block_quote(self, first: int) -> int:
        """Spec "Block Quotes": a paragraph indented past the text above it, with no `::` to
        make it a literal block, that holds a command (`$ python -m sglang.launch_server ...`
        with its prompt, or the launcher and its flags): read as a shell block, as docs show
        commands this way (Sphinx renders it as quoted text). It ends at a blank line."""
        end = next(
            (i for i in range(first, len(self.lines)) if not self.lines[i][1].strip()), len(self.lines)
        )
        code_block(self.doc, "", dedented(self.lines[first:end]))
        return end

    def _doctest_block(self, first: int) -> int:
        """Spec "Doctest Blocks": a paragraph that begins with `>>> ` is a pasted interpreter
        session; it ends at a blank line."""
        end = next(
            (i for i in range(first, len(self.lines)) if not self.lines[i][1].strip()), len(self.lines)
        )
        code_block(self.doc, "python", dedented(self.lines[first:end]))
        return end

    def _literal(self, first: int, edge: int) -> int:
        """Spec "Literal Blocks": the indented block after a `::` paragraph, read in the
        `.. highlight::` language (untagged without one). An unindented ("quoted") literal
        block is not read."""
        end = block_end(self.lines, first, edge)
        if end > first:
            code_block(self.doc, self.highlight, dedented(self.lines[first:end]))
        return max(end, first)

    def _explicit(self, index: int, indent: int, body: str) -> int:
        """Spec "Explicit Markup Blocks": a directive or a comment (its indented block
        follows). Returns where reading goes on."""
        following = self.lines[index + 1][1] if index + 1 < len(self.lines) else ""
        if not body.strip(" .") and not following.strip():
            return index + 1  # an "empty comment": it takes no indented text
        directive = _DIRECTIVE.match(body)
        name = directive.group(1).lower() if directive is not None else ""
        code = name in _CODE or name in _TESTS
        if directive is not None and not code and name not in _NOT_RST and name != "highlight":
            return index + 1  # `.. note::`, `.. tab::`: its content is scanned
        end = max(block_end(self.lines, index + 1, indent), index + 1)
        if directive is None:
            return end  # a comment, a target, a substitution definition, a footnote
        if code or name == "highlight":
            start = self.lines[index][0] + len(self.lines[index][1]) - len(body)
            first = (start + directive.end(), body[directive.end() :])
            self._directive(name, [first, *self.lines[index + 1 : end]])
        return end

    def _directive(self, name: str, block: list[Line]) -> None:
        """docutils' `parse_directive_block`: the arguments and options run to the first
        blank line (from the directive's line, or the next when it is empty), the content
        follows it."""
        if not block[0][1].strip():
            block = block[1:]
        split = next((i for i, (_, text) in enumerate(block) if not text.strip()), len(block))
        head, content = block[:split], block[split + 1 :]
        option_at = next((i for i, (_, t) in enumerate(head) if FIELD_MARKER.match(t.lstrip())), len(head))
        arguments = " ".join(text for _, text in head[:option_at]).split()
        options, broken = options_of(head[option_at:])
        if name == "highlight":
            self.highlight = "" if not arguments or arguments[0] == "default" else arguments[0].lower()
            return
        if name in _TESTS:
            code_block(self.doc, "python", dedented(content))
            return
        if broken is not None or len(arguments) > _CODE[name]:
            self._refused(name, block, head, broken)
            return
        lines = dedented(content)
        if name == "prompt":
            self._prompt(arguments, options, lines)
            return
        language = arguments[0].lower() if arguments else "default"
        code_block(self.doc, self.highlight if language == "default" else language, lines)

    def _refused(self, name: str, block: list[Line], head: list[Line], broken: Line | None) -> None:
        """A code directive docutils refuses (an option block broken by a line that is not
        an option, more arguments than the directive takes): reported when it names SGLang."""
        text = "\n".join(line for _, line in block)
        if "sglang" not in text and "--speculative-" not in text:
            return
        if broken is not None:
            why, at = (
                "a line among the directive's options that is not an option (no blank line before the content?)",
                broken,
            )
        elif len(head) > 1:
            why, at = (
                "no blank line between the directive and its content: reStructuredText reads the lines as its arguments",
                head[1],
            )
        else:
            why, at = f"more than {_CODE[name]} argument(s) after the directive", head[0]
        begin = at[0] + len(at[1]) - len(at[1].lstrip())
        self.doc.result.diagnostics.append(
            Diagnostic(
                "doc-syntax-error",
                _REFUSED.format(why=why, name=name),
                self.doc.span(begin, at[0] + len(at[1])),
            )
        )

    def _prompt(self, arguments: list[str], options: dict[str, str], lines: list[Line]) -> None:
        """sphinx-prompt: positional arguments fill language, prompts and modifiers unless
        given as options. With the `auto` modifier, lines that start with a prompt are
        statements (the prompt and one character after it removed) and the others output or
        a `\\` continuation; without it every line is a statement."""
        for position, key in enumerate(("language", "prompts", "modifiers")):
            if position < len(arguments):
                if options.get(key):
                    break
                options[key] = arguments[position]
        language = options.get("language") or "text"
        if "auto" in options.get("modifiers", "").split(","):
            prompts = (options.get("prompts") or _PROMPTS.get(language, "")).split(",")
            lines = statements(lines, [p for p in prompts if p])
        code_block(self.doc, language.lower(), lines)


def extract_rst(text: str, path: str) -> ExtractResult:
    page = _Page(text, path)
    page.read()
    if page.doc.fragments:
        from .flag_fragments import say_unread_fragments

        say_unread_fragments(page.doc)
    return page.doc.result
