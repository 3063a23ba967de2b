"""Reading a Dockerfile's text as Docker does: instructions with continuation lines joined
(`\\` or the `# escape=` directive), comment lines inside them and heredocs skipped, every
character's file position kept; words split as Docker splits them; `$VAR`/`${VAR:-x}`
substituted where Docker substitutes (`FROM`, `ENV`, `ARG`). `dockerfile` turns the
instructions into a launch."""

from __future__ import annotations

import re

from speclint.core.launches import Diagnostic
from speclint.core.records import dataclass
from speclint.frontends.shell.pieces import Piece, line_starts, span_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span
    from speclint.core.words import Word

_KEYWORD = re.compile(r"[ \t]*([A-Za-z]+)(?=[ \t]|$)")
_DIRECTIVE = re.compile(r"#\s*(escape|syntax|check)\s*=\s*(\S+)\s*$", re.I)
_HEREDOC = re.compile(r"<<(-?)(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\2")
_VAR = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)(?::([-+])((?:[^}\\]|\\.)*))?\}|([A-Za-z_][A-Za-z0-9_]*))")


@dataclass
class Instruction:
    """One Dockerfile instruction, continuation lines joined."""

    keyword: str
    keyword_at: int
    """File offset of the keyword."""
    text: str
    """The arguments, continuation lines joined (Docker removes escape + newline)."""
    offsets: list[int]
    """File offset of each character of `text`."""

    def span(self, starts: list[int], begin: int = 0, end: int | None = None) -> Span:
        end = len(self.text) if end is None else end
        if not self.offsets or begin >= end:
            return span_of(starts, self.keyword_at, self.keyword_at + len(self.keyword))
        return span_of(starts, self.offsets[begin], self.offsets[end - 1] + 1)

    def pieces(self, begin: int = 0, end: int | None = None) -> list[Piece]:
        """Exact pieces for text[begin:end]: one per run of adjacent file characters."""
        end = len(self.text) if end is None else end
        pieces: list[Piece] = []
        run = begin
        for index in range(begin + 1, end + 1):
            if index == end or self.offsets[index] != self.offsets[index - 1] + 1:
                pieces.append(
                    Piece(self.text[run:index], self.offsets[run], self.offsets[index - 1] + 1, exact=True)
                )
                run = index
        return pieces


def instructions(text: str) -> tuple[list[Instruction], list[Diagnostic], list[tuple[int, str]]]:
    """The file's instructions, and its comments as (offset, text)."""
    starts = line_starts(text)
    lines = text.split("\n")
    escape = "\\"
    found: list[Instruction] = []
    comments: list[tuple[int, str]] = []
    diagnostics: list[Diagnostic] = []
    index, directives = 0, True
    while index < len(lines):
        line = lines[index].rstrip("\r")
        at = starts[index]
        stripped = line.lstrip(" \t")
        if not stripped or stripped.startswith("#"):
            if stripped.startswith("#"):
                directive = _DIRECTIVE.match(stripped) if directives else None
                if directive and directive.group(1).lower() == "escape" and directive.group(2) in ("`", "\\"):
                    escape = directive.group(2)
                comments.append((at + len(line) - len(stripped), stripped))
            if stripped and not (directives and _DIRECTIVE.match(stripped)):
                directives = False
            index += 1
            continue
        directives = False
        match = _KEYWORD.match(line)
        if match is None:
            diagnostics.append(
                Diagnostic(
                    "syntax-error",
                    "Dockerfile: a line that does not start with an instruction",
                    span_of(starts, at, at + max(1, len(line))),
                )
            )
            index += 1
            continue
        keyword = match.group(1).upper()
        keyword_at = at + match.start(1)
        chars: list[str] = []
        offsets: list[int] = []
        begin = match.end()
        while True:
            body = line[begin:]
            cont = re.search(re.escape(escape) + r"[ \t]*$", body)
            keep = body[: cont.start()] if cont else body
            chars.extend(keep)
            offsets.extend(range(at + begin, at + begin + len(keep)))
            index += 1
            if not cont:
                break
            while index < len(lines):  # comment and empty lines inside a continuation are dropped
                following = lines[index].rstrip("\r").lstrip(" \t")
                if following and not following.startswith("#"):
                    break
                if following:
                    comments.append(
                        (
                            starts[index] + len(lines[index]) - len(lines[index].lstrip(" \t")),
                            following.rstrip("\r"),
                        )
                    )
                index += 1
            if index >= len(lines):
                break
            line, at, begin = lines[index].rstrip("\r"), starts[index], 0
        joined = "".join(chars)
        leading = len(joined) - len(joined.lstrip(" \t"))
        instruction = Instruction(keyword, keyword_at, joined[leading:], offsets[leading:])
        instruction.text = instruction.text.rstrip(" \t")
        del instruction.offsets[len(instruction.text) :]
        found.append(instruction)
        if keyword in ("RUN", "COPY", "ADD"):
            index = _skip_heredocs(instruction.text, lines, index)
    return found, diagnostics, comments


def _skip_heredocs(text: str, lines: list[str], index: int) -> int:
    """The line after the heredoc bodies an instruction opens (`RUN <<EOF ... EOF`)."""
    for match in _HEREDOC.finditer(text):
        strip, word = match.group(1) == "-", match.group(3)
        while index < len(lines):
            body = lines[index].rstrip("\r")
            index += 1
            if (body.lstrip("\t") if strip else body) == word:
                break
    return index


def split_words(text: str) -> list[tuple[int, int]]:
    """[begin, end) of each whitespace-separated word, quotes and escapes kept together."""
    words, index, length = [], 0, len(text)
    while index < length:
        while index < length and text[index] in " \t":
            index += 1
        if index >= length:
            break
        begin, quote = index, None
        while index < length and (quote or text[index] not in " \t"):
            char = text[index]
            if char == "\\" and quote != "'" and index + 1 < length:
                index += 2
                continue
            if quote is None and char in "'\"":
                quote = char
            elif char == quote:
                quote = None
            index += 1
        words.append((begin, index))
    return words


def substitute(raw: str, known: dict[str, Word]) -> tuple[str | None, str | None, bool]:
    """(value, unknown reason, changed) of a word as Docker reads it in FROM/ENV/ARG:
    quotes removed, backslash escapes, `$VAR`/`${VAR}`/`${VAR:-x}`/`${VAR:+x}` replaced
    from the ARG/ENV values known so far. `changed`: the value is not the text as written."""
    out: list[str] = []
    index, quote, changed = 0, None, False
    while index < len(raw):
        char = raw[index]
        if char == "\\" and quote != "'" and index + 1 < len(raw):
            out.append(raw[index + 1])
            index, changed = index + 2, True
            continue
        if quote is None and char in "'\"":
            quote, index, changed = char, index + 1, True
            continue
        if char == quote:
            quote, index = None, index + 1
            continue
        if char == "$" and quote != "'":
            match = _VAR.match(raw, index)
            if match:
                name = match.group(1) or match.group(4)
                word = known.get(name)
                if match.group(2) == "-" and (word is None or word.text == ""):
                    value, reason, _ = substitute(match.group(3), known)
                elif match.group(2) == "+":
                    if word is not None and word.text is None:
                        return None, word.dynamic_reason, True
                    value, reason, _ = (
                        substitute(match.group(3), known) if word and word.text else ("", None, True)
                    )
                elif word is None:
                    return (
                        None,
                        f"${name} is not set by an ARG or ENV before this line (a build argument?)",
                        True,
                    )
                else:
                    value, reason = word.text, word.dynamic_reason
                if value is None:
                    return None, reason, True
                out.append(value)
                index, changed = match.end(), True
                continue
        out.append(char)
        index += 1
    return "".join(out), None, changed
