"""Launches in paragraphs: inline code spans (prose lines: `prose`).

markdown-it says which lines are a paragraph (or a heading, a list item's text, a table
row) but gives no columns, so code spans are found again in the original lines with
CommonMark's rule (an opening run of n backticks ends at the next run of exactly n).
A launch in a code span (`` `CUDA_VISIBLE_DEVICES=0,1 python3 -m sglang.launch_server ...` ``)
or after a colon on a prose line (`command: python3 -m sglang.launch_server --model-path
...`) is read as shell; without a model it is checked as a partial launch.
"""

from __future__ import annotations

from bisect import bisect_right

from speclint.core import patterns
from speclint.core.lookalike_chars import DASHES
from speclint.core.records import dataclass
from speclint.frontends.recognise import DOC_LAUNCHER

from .excerpt import exact, unknown, virtual
from .flag_lists import ENV_LINE, REST_REASON, is_fragment

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.shell.pieces import Piece

    from .excerpt import DocFile

_MODEL = patterns.compile(rf"(?<!\S)(?:--|[{DASHES}]-?|-[{DASHES}])model(?:-path)?(?:=|\s|$)")
"""The model flag, also written with a pasted look-alike dash (`–-model-path`, `—model`): the
command then shows its model, and is checked whole (the dash named where argparse stops it),
not as a partial launch whose rest may hold any flags."""


@dataclass(slots=True)
class CodeSpan:
    """An inline code span of a Markdown paragraph (`` `python -m ...` ``)."""

    begin: int
    """File offset of the content (after the opening backticks)."""
    end: int
    text: str
    table: bool = False
    """In a GFM table's cell: `\\|` in it is a `|` (the cell's own `|` escaped)."""


def code_spans(text: str, base: int) -> list[CodeSpan]:
    """The code spans of a paragraph's text (`base`: its file offset), in order."""
    runs: list[tuple[int, int]] = []
    index = text.find("`")
    while index != -1:
        stop = index
        while stop < len(text) and text[stop] == "`":
            stop += 1
        runs.append((index, stop))
        index = text.find("`", stop)
    by_length: dict[int, list[int]] = {}
    for position, (begin, stop) in enumerate(runs):
        by_length.setdefault(stop - begin, []).append(position)
    spans: list[CodeSpan] = []
    position = 0
    while position < len(runs):
        begin, stop = runs[position]
        if begin > 0 and text[begin - 1] == "\\":  # `\`` opens no span (in one, it may close it)
            begin += 1
        same = by_length.get(stop - begin, [])
        after = bisect_right(same, position)
        if stop == begin or after >= len(same):
            position += 1
            continue
        closing = runs[same[after]]
        spans.append(CodeSpan(base + stop, base + closing[0], text[stop : closing[0]]))
        position = same[after] + 1
    return spans


def span_pieces(span: CodeSpan) -> list[Piece]:
    """A code span's content; a line break inside it is a space, as CommonMark reads it."""
    pieces: list[Piece] = []
    offset = span.begin
    for number, segment in enumerate(span.text.split("\n")):
        if number:
            pieces.append(virtual(" ", offset - 1))
        size = len(segment)
        segment = segment.rstrip("\r")
        if span.table and "\\|" in segment:  # (the backslash dropped, the `|` kept in place)
            at = offset
            for cut, part in enumerate(segment.split("\\|")):
                if cut:
                    pieces.append(exact("|", at + 1))
                    at += 2
                pieces.append(exact(part, at))
                at += len(part)
        else:
            pieces.append(exact(segment, offset))
        offset += size + 1
    return [p for p in pieces if p.text]


def with_rest(pieces: list[Piece]) -> list[Piece]:
    """A launch without `--model-path`: an unknown rest after the launcher, so that it is
    checked as the partial launch a doc shows, not as one missing its model. Words typed with
    a pasted look-alike dash for `--` (`—tp 2`) right after the launcher come before the rest:
    no flag shown precedes them, so argparse takes them as plain words (each named)."""
    text = "".join(p.text or "" for p in pieces)
    match = DOC_LAUNCHER.search(text)
    if match is None or _MODEL.search(text[match.end() :]):
        return pieces
    if _PASTED_FLAG.search(text, match.end()):
        flag = _FLAG.search(text, match.end())
        where = flag.start() - 1 if flag is not None else len(text.rstrip())
        inserted = _rest_at(pieces, where)
        if inserted is not None:
            return inserted
    return _rest_at(pieces, match.end()) or pieces


_PASTED_FLAG = patterns.compile(rf"(?<!\S)[{DASHES}]-?[A-Za-z]")
_FLAG = patterns.compile(r"(?<!\S)-")


def _rest_at(pieces: list[Piece], where: int) -> list[Piece] | None:
    """`pieces` with the unknown rest put at offset `where` of their text; None where that
    offset is not inside a piece written in the file."""
    out: list[Piece] = []
    position = 0
    done = False
    for piece in pieces:
        size = len(piece.text or "")
        cut = where - position
        if not done and piece.exact and piece.text is not None and 0 < cut <= size:
            at = piece.begin + cut
            out.append(exact(piece.text[:cut], piece.begin))
            out.extend([virtual(" ", at), unknown(REST_REASON, at, at), virtual(" ", at)])
            if piece.text[cut:]:
                out.append(exact(piece.text[cut:], at))
            done = True
        else:
            out.append(piece)
        position += size
    return out if done else None


_BREAKS = patterns.compile(r"`*[ \t]*(?:<br[ \t]*/?>[ \t]*)+`*", patterns.IGNORECASE)


def broken_spans(text: str, spans: list[CodeSpan], index: int) -> list[CodeSpan]:
    """The code spans after `spans[index]` that go on with its command over `<br>` line
    breaks (a table cell cannot hold a line end): each starts with a flag and has only
    `<br>` between it and the one before."""
    out: list[CodeSpan] = []
    for after in spans[index + 1 :]:
        before = out[-1] if out else spans[index]
        if not after.text.lstrip().startswith("-") or not _BREAKS.fullmatch(text[before.end : after.begin]):
            break
        out.append(after)
    return out


def _joined(spans: list[CodeSpan]) -> list[Piece]:
    pieces: list[Piece] = []
    for span in spans:
        if pieces:
            last = pieces[-1]
            if (last.text or "").rstrip().endswith("\\"):  # `... \`<br>`--next`
                kept = (last.text or "").rstrip()[:-1]
                pieces[-1:] = [exact(kept, last.begin)] if kept else []
            pieces.append(virtual(" ", span.begin))
        pieces.extend(span_pieces(span))
    return pieces


def code_span_launch(doc: DocFile, span: CodeSpan, more: list[CodeSpan] | None = None) -> bool:
    """A code span holding a launch (and `more`, the spans its command goes on in): walked
    as shell. Returns whether one was read."""
    match = DOC_LAUNCHER.search(span.text)
    if match is None or not span.text[match.end() :].strip():  # `python -m sglang.launch_server`: a name
        return False
    return doc.shell(with_rest(_joined([span, *(more or [])])), "drop") > 0


@dataclass(slots=True)
class Fragments:
    """Flag fragments and env lines of one list (or one paragraph)."""

    flags: list[list[Piece]]
    env: list[list[Piece]]


def classify_fragment(span: CodeSpan) -> str | None:
    """'flags', 'env' or None for a code span that is not part of a flag list."""
    text = span.text.strip()
    if ENV_LINE.fullmatch(text):
        return "env"
    if is_fragment(text) and "\n" not in text:
        return "flags"
    return None


def flags_and_values(words: list[str]) -> bool:
    """The words after the launcher are flags, each followed by at most one value: two plain
    words in a row are a sentence going on (`--model-path m starts the server`)."""
    after_flag = False
    for word in words:
        if word.startswith("-"):
            after_flag = True
        elif after_flag:
            after_flag = False
        else:
            return False
    return True
