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

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.launches import ExtractResult

Line = tuple[int, str]
"""(file offset, text) of one line, without its line end."""

_TAB = 8
"""Spec "Whitespace": tabs are converted to spaces, with tab stops every 8th column."""
_DIRECTIVE = re.compile(r"\.\.[ ]+((?:(?!_)\w)+(?:[-._+:](?:(?!_)\w)+)*)[ ]?::(?:[ ]+|$)")
"""docutils' directive marker: `.. ` then the directive type (a "simple reference name"),
`::`, and whitespace or the line end."""
_MARKUP = re.compile(r"\.\.(?:[ ]+|$)")
"""Spec "Explicit Markup Blocks": `..` followed by whitespace starts one."""
_LIST_MARKER = re.compile(
    r"(?:[-+*\u2022\u2023\u2043]|\(?(?:\d+|#|[A-Za-z]|[ivxlcdmIVXLCDM]+)[.)])[ ]+(?=\S)"
)
"""Spec "Bullet Lists" and "Enumerated Lists": a list item's body is indented to the text
after its marker."""
_FIELD_MARKER = re.compile(r":(?![: ])(?:[^:\\]|\\.|:(?!(?:[ `]|$)))*(?<! ):(?:[ ]+|$)")
"""docutils' field marker (`:caption: text`): a directive's options are a field list."""

_PARAGRAPH = "this reStructuredText paragraph (shown as text, not in a code block)"
_FLAG_NEXT = re.compile(r"[ \t]+--?[A-Za-z]")
"""The launcher followed by a flag: a command, not a mention of the launcher's name."""
_INLINE_LITERAL = re.compile(r"(?<![\w`])``(?=\S)(.+?)(?<=\S)``(?![\w`])")
"""Spec "Inline Literals": ``` ``text`` ``` (start-string not before whitespace, end-string
not after it), on one line."""
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


def _quoted_command(body: str) -> bool:
    """A block quote's first line that is a command: `$ ` then the launcher, or the launcher
    followed by a flag, a `\\` or nothing (not a sentence that names it)."""
    from speclint.frontends.recognise import PROSE_LAUNCH

    prompted = body.startswith("$ ")
    text = body[2:].lstrip() if prompted else body
    launcher = PROSE_LAUNCH.match(text)
    if launcher is None:
        return False
    rest = text[launcher.end() :].split()
    if prompted or not rest or rest[0].startswith(("-", "\\")):
        return True
    return launcher.group().endswith("serve") and (len(rest) == 1 or rest[1].startswith(("-", "\\")))


def _indent(line: str) -> int:
    """Columns of the line's leading whitespace, tabs expanded (spec "Whitespace")."""
    column = 0
    for char in line:
        if char == "\t":
            column = (column // _TAB + 1) * _TAB
        elif char in " \v\f":
            column += 1
        else:
            break
    return column


def _cut(offset: int, line: str, width: int) -> Line:
    """The line without its first `width` columns of indentation (a tab that straddles the
    cut is removed whole)."""
    column = 0
    for index, char in enumerate(line):
        if column >= width or char not in " \t\v\f":
            return offset + index, line[index:]
        column = (column // _TAB + 1) * _TAB if char == "\t" else column + 1
    return offset + len(line), ""


def _announces_literal(line: str) -> bool:
    """docutils' `Body.paragraph`: a paragraph ending in `::` not escaped by a backslash
    (`(?<!\\)(\\\\)*::$`, counted here without a regex) announces a literal block."""
    text = line.rstrip()
    if not text.endswith("::"):
        return False
    before = text[:-2]
    return (len(before) - len(before.rstrip("\\"))) % 2 == 0


def _block_end(lines: list[Line], first: int, edge: int) -> int:
    """Spec "Indentation": the block from `first` holds blank lines and lines indented past
    column `edge`; it ends before the first non-blank line that is not. Returns the index
    after its last non-blank line."""
    end = first
    for index in range(first, len(lines)):
        text = lines[index][1]
        if not text.strip():
            continue
        if _indent(text) <= edge:
            break
        end = index + 1
    return end


def _dedented(lines: list[Line]) -> list[Line]:
    """A block's lines without their common indentation (docutils strips the block's
    smallest indentation); blank lines stay, empty, where they are."""
    widths = [_indent(text) for _, text in lines if text.strip()]
    width = min(widths, default=0)
    return [_cut(offset, text, width) if text.strip() else (offset + len(text), "") for offset, text in lines]


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
            indent = _indent(line)
            if blank and indent > above and _quoted_command(line.lstrip(" \t\v\f")):
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
                marker = _LIST_MARKER.match(body)
                continues = indent + (marker.end() if marker else 0)
            following = lines[index + 1][1] if index + 1 < len(lines) else "x"
            if _announces_literal(line) and not following.strip():
                index = self._literal(index + 1, continues)
                continues = None
                continue
            if "``" in line and "sglang" in line:
                self._inline_literals(offset, line)
            if offset > self.prose_done and "sglang" in line:
                self._prose(index)
            index += 1

    def _inline_literals(self, offset: int, line: str) -> None:
        """Spec "Inline Literals": ``` ``python -m sglang.launch_server ...`` ``` on a paragraph
        line, read as a Markdown code span holding a launch is."""
        from .inline import CodeSpan, code_span_launch

        for match in _INLINE_LITERAL.finditer(line):
            begin = offset + match.start(1)
            code_span_launch(self.doc, CodeSpan(begin, begin + len(match.group(1)), match.group(1)))

    def _prose(self, first: int) -> None:
        """A launch written on a paragraph's line, outside inline literals (`On the first node
        run python3 -m sglang.launch_server --model-path ...`): shown as text, not as a code
        block, so not checked, but said not read (the paragraph read to its end)."""
        from speclint.frontends.recognise import PROSE_LAUNCH

        from .unread import said_not_read

        end = first
        while end + 1 < len(self.lines) and self.lines[end + 1][1].strip():
            end += 1
        paragraph = self.lines[first : end + 1]
        self.prose_done = paragraph[-1][0]
        for offset, line in paragraph:
            text = _INLINE_LITERAL.sub(lambda m: " " * len(m.group()), line)
            match = PROSE_LAUNCH.search(text)
            if match is not None and _FLAG_NEXT.match(text, match.end()):
                named, where = " ".join(match.group().split()), _PARAGRAPH
                said_not_read(self.doc, offset + match.start(), offset + match.end(), named, where)
                return

    def _block_quote(self, first: int) -> int:
        """Spec "Block Quotes": a paragraph indented past the text above it, with no `::` to
        make it a literal block, that holds a command (`$ python -m sglang.launch_server ...`
        with its prompt, or the launcher and its flags): read as a shell block, as docs show
        commands this way (Sphinx renders it as quoted text). It ends at a blank line."""
        end = next(
            (i for i in range(first, len(self.lines)) if not self.lines[i][1].strip()), len(self.lines)
        )
        code_block(self.doc, "", _dedented(self.lines[first:end]))
        return end

    def _doctest_block(self, first: int) -> int:
        """Spec "Doctest Blocks": a paragraph that begins with `>>> ` is a pasted interpreter
        session; it ends at a blank line."""
        end = next(
            (i for i in range(first, len(self.lines)) if not self.lines[i][1].strip()), len(self.lines)
        )
        code_block(self.doc, "python", _dedented(self.lines[first:end]))
        return end

    def _literal(self, first: int, edge: int) -> int:
        """Spec "Literal Blocks": the indented block after a `::` paragraph, read in the
        `.. highlight::` language (untagged without one). An unindented ("quoted") literal
        block is not read."""
        end = _block_end(self.lines, first, edge)
        if end > first:
            code_block(self.doc, self.highlight, _dedented(self.lines[first:end]))
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
        end = max(_block_end(self.lines, index + 1, indent), index + 1)
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
        option_at = next((i for i, (_, t) in enumerate(head) if _FIELD_MARKER.match(t.lstrip())), len(head))
        arguments = " ".join(text for _, text in head[:option_at]).split()
        options, broken = _options(head[option_at:])
        if name == "highlight":
            self.highlight = "" if not arguments or arguments[0] == "default" else arguments[0].lower()
            return
        if name in _TESTS:
            code_block(self.doc, "python", _dedented(content))
            return
        if broken is not None or len(arguments) > _CODE[name]:
            self._refused(name, block, head, broken)
            return
        lines = _dedented(content)
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
            lines = _statements(lines, [p for p in prompts if p])
        code_block(self.doc, language.lower(), lines)


def _options(lines: list[Line]) -> tuple[dict[str, str], Line | None]:
    """A directive's field list of options, and the first line that breaks it (a line
    neither a field nor indented under one: docutils' "invalid option block")."""
    options: dict[str, str] = {}
    edge = _indent(lines[0][1]) if lines else 0
    key = ""
    for line in lines:
        text = line[1].lstrip()
        marker = _FIELD_MARKER.match(text)
        if marker is not None and _indent(line[1]) == edge:
            key = marker.group().strip()[1:-1].lower()
            options[key] = text[marker.end() :].strip()
        elif _indent(line[1]) > edge and key:
            options[key] = f"{options[key]} {text.strip()}".strip()
        else:
            return options, line
    return options, None


def _statements(lines: list[Line], prompts: list[str]) -> list[Line]:
    """The statements of a prompt block with the `auto` modifier (see `_prompt`)."""
    kept: list[Line] = []
    continuing = False
    for offset, text in lines:
        prompt = next((p for p in prompts if text.startswith(p)), None)
        if prompt is not None:
            cut = min(len(prompt) + 1, len(text))
            kept.append((offset + cut, text[cut:]))
        elif continuing:
            kept.append((offset, text))
        else:
            kept.append((offset + len(text), ""))
            continue
        continuing = text.rstrip().endswith("\\")
    return kept


def extract_rst(text: str, path: str) -> ExtractResult:
    page = _Page(text, path)
    page.read()
    return page.doc.result
