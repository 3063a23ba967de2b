"""Text cut out of a document, with where each character is written.

An excerpt is a list of `pieces.Piece`s: exact runs of file characters, virtual text
that stands at one file position (a joining space, an implied `python -m
sglang.launch_server`), and unknown values (doc placeholders). The shell front-end walks
the pieces directly; Python text is parsed on its own and its positions moved back with
`OffsetMap`.
"""

from __future__ import annotations

from bisect import bisect_right

from speclint.core import patterns
from speclint.core.launches import Diagnostic, ExtractResult
from speclint.frontends.shell.embedded import Budget, ShellBuffer
from speclint.frontends.shell.pieces import Piece, line_starts, span_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from speclint.core.launches import Launch
    from speclint.core.spans import Span
    from speclint.frontends.shell.walking import UnitReader


def exact(text: str, begin: int) -> Piece:
    return Piece(text, begin, begin + len(text), exact=True)


def virtual(text: str, at: int) -> Piece:
    return Piece(text, at, at)


def unknown(reason: str, begin: int, end: int) -> Piece:
    return Piece(None, begin, end, reason=reason)


class OffsetMap:
    """Moves spans in the text of an excerpt (that had no unknowns) to the file."""

    def __init__(self, pieces: list[Piece], file_starts: list[int]) -> None:
        self.pieces = [p for p in pieces if p.text]
        self.starts: list[int] = []
        position = 0
        for piece in self.pieces:
            self.starts.append(position)
            position += len(piece.text or "")
        self.text = "".join(p.text or "" for p in self.pieces)
        self.text_starts = line_starts(self.text)
        self.file_starts = file_starts

    def _file(self, offset: int, end: bool) -> int:
        """The file offset of excerpt offset `offset` (an exclusive end when `end`)."""
        if not self.pieces:
            return 0
        at = min(max(offset - 1 if end else offset, 0), len(self.text) - 1)
        index = bisect_right(self.starts, at) - 1
        piece = self.pieces[index]
        if piece.exact:
            return piece.begin + at - self.starts[index] + (1 if end else 0)
        return piece.end if end else piece.begin

    def move(self, span: Span) -> Span:
        last = len(self.text_starts) - 1
        begin = self.text_starts[min(span.line - 1, last)] + span.column - 1
        end = self.text_starts[min(span.end_line - 1, last)] + span.end_column - 1
        file_begin = self._file(begin, False)
        file_end = max(self._file(max(end, begin + 1), True), file_begin)
        return span_of(self.file_starts, file_begin, file_end)


_PLACEHOLDER = patterns.compile(
    r"(?<![\w$])\{\{[ \t]*[A-Za-z_][\w.]*(?:[ \t]*\|[ \t]*[A-Za-z_]\w*)?[ \t]*\}\}(?![\w}])"
    r"|(?<![\w$<>{\[])(?:<(?:[A-Za-z][\w.:/|-]*|\.\.\.)>|\{(?:[A-Za-z_][\w./|-]*|\.\.\.)\}"
    r"|<[A-Za-z][\w./-]*(?: [\w./-]+){1,7}>|\{[A-Za-z][\w./-]*(?: [\w./-]+){1,7}\}"
    r"|\[(?:[A-Za-z_][\w.|-]*|\.\.\.)\])(?![\w>}\]])"
    r"|(?<!\S)(?:\.\.\.|\u2026)(?!\S)"
)
"""What docs write where the reader fills in a value: `<your-model>`, `{model}`, `[MODEL]`
(not alone on a line: an INI section header), alternatives or a path in braces
(`{fa3|flashinfer}`, `{trained/model/path}`: no shell writes a pipe or a path so), a few
words in braces or angle brackets (`{target model}`, `{path to your EAGLE checkpoint}`,
`<path to model>`: to a shell, stray words and redirections no command line means), a
template's variable (`{{ sglang_version }}`: Jinja, MyST substitutions, Hugo), and `...` for
words left out."""


def _placeholder_pieces(piece: Piece, ipython: bool, continued: bool) -> list[Piece]:
    text = piece.text or ""
    out: list[Piece] = []
    done = 0
    for match in _PLACEHOLDER.finditer(text):
        begin, end = match.span()
        written = match.group()
        if written in ("...", "\u2026"):  # words left out: an unknown number of words
            out.append(exact(text[done:begin], piece.begin + done))
            out.append(
                unknown(
                    f"`{written}` in the documentation: words left out",
                    piece.begin + begin,
                    piece.begin + end,
                )
            )
            done = end
            continue
        if written[0] == "[" and not continued and not text[:begin].strip() and not text[end:].strip():
            continue  # a line of its own: a section header (`[Service]` of a unit a here-document writes)
        before, after = text[begin - 1 : begin], text[end : end + 1]
        quoted = before == '"' and after == '"'
        if before == "'" and after == "'":
            begin, end = begin - 1, end + 1
        out.append(exact(text[done:begin], piece.begin + done))
        reason = (
            f"an IPython expression (`{written}`), filled in when the cell runs"
            if ipython and written.startswith("{")
            else f"a placeholder in the documentation (`{written}`): the reader fills in the value"
        )
        if not quoted:
            out.append(virtual('"', piece.begin + begin))
        out.append(unknown(reason, piece.begin + begin, piece.begin + end))
        if not quoted:
            out.append(virtual('"', piece.begin + end))
        done = end
    if not out:
        return [piece]
    out.append(exact(text[done:], piece.begin + done))
    return [p for p in out if p.text != ""]


def with_placeholders(pieces: list[Piece], ipython: bool = False) -> list[Piece]:
    """Doc placeholders in exact runs become unknown values (one word each); in an IPython
    `!` line, `{name}` is a Python expression IPython fills in."""
    out: list[Piece] = []
    search = _PLACEHOLDER.search
    continued = False  # the line before ends with `\`: a line here is not a line of its own
    for piece in pieces:
        if piece.exact and piece.text and search(piece.text):  # (else it would stay one piece)
            out.extend(_placeholder_pieces(piece, ipython, continued))
        else:
            out.append(piece)
        if piece.text and piece.text != "\n":
            continued = piece.text.rstrip(" \t").endswith("\\")
    return out


MAX_SNIPPETS = 5000
"""Shell snippets (blocks, code spans, prose lines) walked per document; past it (or past
MAX_LAUNCHES) the rest gets one located finding."""
MAX_LAUNCHES = 1000
"""As many launches as lint checks per file (lint.MAX_LAUNCHES): reading more is wasted."""


_SURROGATE = patterns.compile("[\ud800-\udfff]")


def _no_surrogates(piece: Piece) -> Piece:
    """A lone surrogate (from a `\\ud800` JSON escape, a mis-decoded file) becomes U+FFFD,
    one character for one, as the shell front-end does: tree-sitter needs UTF-8."""
    if piece.text is None or piece.text.isascii() or not _SURROGATE.search(piece.text):
        return piece
    return Piece(
        _SURROGATE.sub("\ufffd", piece.text), piece.begin, piece.end, piece.exact, piece.reason, piece.origin
    )


class DocFile:
    """One document being read: its text, line starts and shell budget, and the result."""

    def __init__(self, text: str, path: str, starts: list[int] | None = None) -> None:
        self.text = text
        self.path = path
        self.starts = starts if starts is not None else line_starts(text)
        self.budget = Budget()
        self.result = ExtractResult()
        self.snippets = 0
        self.full = False
        self.fragments: list[tuple[str, list[tuple[int, str]]]] = []
        """The page's code blocks of only flags, and its commands that are not SGLang's
        launcher but pass its `--speculative-*` options (`flag_fragments`)."""
        self.unit_reader: UnitReader | None = None
        """What reads a here-document's unit, program or manifest (`script.read_unit` when
        None; the Markdown, rst and notebook readers hand in `manifest_reader.read_unit_or_manifest`)."""

    def _over(self, pieces: list[Piece]) -> bool:
        self.snippets += 1
        if self.snippets <= MAX_SNIPPETS and len(self.result.launches) <= MAX_LAUNCHES:
            return False
        if not self.full:
            self.full = True
            at = next((p.begin for p in pieces), 0)
            self.result.diagnostics.append(
                Diagnostic(
                    "file-too-large",
                    f"more than {MAX_SNIPPETS} command snippets or {MAX_LAUNCHES} launches "
                    "in one document; the ones from here are not checked",
                    self.span(at, at + 1),
                )
            )
        return True

    def shell(self, pieces: list[Piece], syntax: str, ipython: bool = False) -> int:
        """Walk shell pieces; `syntax` is 'warn' (a syntax error becomes a warning, as in a
        tagged doc fence) or 'drop' (prose, untagged blocks). Returns launches found."""
        if self._over(pieces):
            return 0
        plain = all(p.text is None or p.text.isascii() for p in pieces)
        if not plain:
            pieces = [_no_surrogates(p) for p in pieces]
        buffer = ShellBuffer(self.text, self.starts, self.budget)
        buffer.add_code(with_placeholders(pieces, ipython))
        found = ExtractResult()
        from speclint.frontends.shell.script import read_unit  # a unit a here-document writes

        reader = self.unit_reader or read_unit
        buffer.walk(self.path, found, report_errors=syntax != "drop", unit_reader=reader)
        if not found.launches:
            found.launches = self._prefixed_fragment(pieces)
        if not plain and found.launches:  # an en dash typed for `-`, a no-break space
            from .typed_chars import mark_lookalikes

            mark_lookalikes(found.launches, self.text, self.starts, self.span)
        # `launch_server --help` stays a launch: the engine sees argparse reach the help
        # (`flags.argparse_stop`) and checks nothing else on it
        self.result.launches.extend(found.launches)
        self.result.comments.extend(found.comments)
        for diagnostic in found.diagnostics:
            if diagnostic.kind == "syntax-error":
                if syntax == "drop":
                    continue
                diagnostic = Diagnostic("doc-syntax-error", diagnostic.message, diagnostic.span)
            self.result.diagnostics.append(diagnostic)
        return len(found.launches)

    def _prefixed_fragment(self, pieces: list[Piece]) -> list[Launch]:
        """A block holding only an array of a framework's prefixed flags (slime's
        `SGLANG_ARGS=(--sglang-... )` in a README): read as the shell front-end reads it."""
        from ..manifests.prefixed import mentions

        if any(p.text is None for p in pieces) or not mentions(
            "".join(p.text or "" for p in pieces).encode()
        ):
            return []
        from speclint.frontends.moved_spans import map_spans
        from speclint.frontends.shell.script import extract_shell

        mapping = OffsetMap(pieces, self.starts)
        fragment = extract_shell(mapping.text, self.path)
        return map_spans(ExtractResult(fragment.launches), mapping.move).launches

    def add_moved(self, moved: ExtractResult, diagnostics: Iterable[Diagnostic] | None = None) -> int:
        """Add what another front-end read in a fence, its spans already moved into this file
        (`diagnostics`: those to keep, when not all); returns how many launches."""
        self.result.launches.extend(moved.launches)
        self.result.comments.extend(moved.comments)
        self.result.diagnostics.extend(moved.diagnostics if diagnostics is None else diagnostics)
        return len(moved.launches)

    def span(self, begin: int, end: int) -> Span:
        return span_of(self.starts, begin, end)
