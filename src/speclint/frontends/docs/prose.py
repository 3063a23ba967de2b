"""Launches written on the prose lines of a paragraph, outside its code spans.

`command: python3 -m sglang.launch_server --model-path ...`, a reply quoting the command
(`> `), a paste the editor wrapped before a flag: the launcher, then flags and one value
each, up to the first word that reads as prose again (a sentence going on after a switch, a
closing quote or emphasis, full-width punctuation); read as shell, without a model checked
as a partial launch (`with_rest`).
"""

from __future__ import annotations

import re
from bisect import bisect_right

from speclint.core import patterns
from speclint.frontends.recognise import PROSE_LAUNCH

from .excerpt import exact, unknown, virtual
from .inline import with_rest

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.frontends.shell.pieces import Piece

    from .excerpt import DocFile
    from .inline import CodeSpan

_SAFE = patterns.compile(r"[\w./:,=@%+~\-]*")
_TRAILING = ".,;:)"
_WORD = patterns.compile(r"\S+")
_FULLWIDTH = patterns.compile(r"[\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65]")
"""CJK and full-width punctuation (`，` `。` `：` `）`): a sentence written in Chinese or Japanese
going on right after a command's last word, with no space between."""
MAX_PROSE_WORDS = 1000
"""Words read after a launcher on a prose line; a longer run is not a command in prose."""


_WRAPPED_FLAG = patterns.compile(r"--[A-Za-z]")


def _next_line(clean: list[str], index: int) -> int | None:
    """Where the command goes on in line `index + 1` (after its quote markers): the line
    `index` ends with `\\`, or the next one starts with a flag (a long command the paste
    wrapped without its `\\`); None where it ends."""
    if index + 1 >= len(clean):
        return None
    line = clean[index + 1]
    column = len(line) - len(line.lstrip(" \t>"))  # a block quote's `> ` / `> > ` markers
    if clean[index].rstrip().endswith("\\") or _WRAPPED_FLAG.match(clean[index + 1], column):
        return column
    return None


def _words(lines: list[tuple[int, str]], clean: list[str], index: int, column: int) -> Iterator[Piece]:
    """Words from (line `index`, `column`) on, through lines continued with `\\` (or wrapped
    before a flag), a block quote's markers left out."""
    while True:
        offset = lines[index][0]
        for match in _WORD.finditer(clean[index], column):
            if match.group() != "\\":
                yield exact(match.group(), offset + match.start())
        following = _next_line(clean, index)
        if following is None:
            return
        index += 1
        column = following


def _prose_tokens(
    lines: list[tuple[int, str]], clean: list[str], index: int, match: re.Match[str]
) -> list[Piece]:
    """The words of a launch on a prose line: the launcher, then flags and one value each,
    up to the first word that reads as prose again ([] when no flag follows)."""
    launcher_end = lines[index][0] + match.end()
    closer = _closer(lines[index][1], match.start())
    kept: list[Piece] = []
    launcher_words = 0
    previous_flag, flag = False, ""
    quoted_end = -1  # where a quoted value read whole ends: its words are in it
    for word in _words(lines, clean, index, match.start()):
        text = word.text or ""
        if word.begin < launcher_end:
            kept.append(word)
            launcher_words = len(kept)
            continue
        if word.begin < quoted_end:
            continue
        quote = _quote_at(text, previous_flag)
        if quote is not None:
            quoted = _quoted_word(lines, clean, word.begin, quote)
            if quoted is None:  # no closing quote on its line: the value is not known
                reason = "a quoted value whose closing quote is not on its line in the documentation"
                kept.append(unknown(reason, word.begin, word.end))
                break
            kept.append(quoted)
            quoted_end, previous_flag = quoted.end, False
            continue
        if text.endswith("\\"):
            text = text[:-1]
        ends = _sentence_end(text, closer)  # `--tp-size 2，然后报错`, `--tp-size 2?`, `...2"`
        if ends is not None:
            text = text[:ends]
        plain = _strip_placeholders(text)
        if not text or text == "--" or _SAFE.fullmatch(plain.rstrip(_TRAILING)) is None:
            break  # (`--` alone: a dash in the sentence, `--tp-size 2 -- it fails`)
        if text.startswith("-"):
            previous_flag, flag = "=" not in text, text
        elif previous_flag and _PROSE_WORD.fullmatch(text) and _switch(flag):
            break  # `--enable-torch-compile is slower`: the sentence goes on after a switch
        elif previous_flag:
            previous_flag = False
            text = text[:-1] if text.endswith(",") and len(text) > 1 else text  # `--tp-size 2, --dp-size 2`
        else:
            break
        kept.append(exact(text, word.begin))
        if len(kept) > MAX_PROSE_WORDS:
            return []
        if ends is not None:
            break
    else:  # the words ran out at a line's end, not at prose
        if len(kept) > launcher_words and (cut := _cut_flag(lines, clean, kept[-1])) is not None:
            kept[-1] = cut
    if len(kept) <= launcher_words:  # a launcher named without any flag: a mention, not a launch
        return []
    last = kept[-1]
    trimmed = (last.text or "").rstrip(_TRAILING)
    kept[-1] = exact(trimmed, last.begin) if trimmed else last
    pieces: list[Piece] = []
    for word in kept:
        if pieces:
            pieces.append(virtual(" ", word.begin))
        pieces.append(word)
    return pieces


_OPENERS = {
    "*": "*",
    "_": "_",
    '"': '"',
    "'": "'",
    "\u2018": "\u2019",
    "\u201c": "\u201d",
    "[": "]",
    "(": ")",
}
_DASH = patterns.compile("[\u2013\u2014]")
_ENDS_SENTENCE = "?!\u2026"


def _closer(line: str, start: int) -> str:
    """What closes a launch the prose opened right before it (the launcher at `start`), after
    a space or at the line's start: emphasis (`**`, `_`), a quote (`"`, `\u201c`), a bracket;
    "" for none."""
    begin = start
    while begin > 0 and start - begin < 3 and line[begin - 1] in _OPENERS:
        begin -= 1
    if begin == start or (begin > 0 and not line[begin - 1].isspace()):
        return ""
    return "".join(_OPENERS[c] for c in reversed(line[begin:start]))


_PROSE_WORD = patterns.compile(r"[a-z]+")


def _switch(flag: str) -> bool:
    """The option (or every option it abbreviates) takes no value in every SGLang release that
    declares it (`--trust-remote-code`), so a word after it in prose is not its value; False
    for one some release gives a value, or no release declares."""
    from speclint.sglang.flags.release_index import option_entries
    from speclint.sglang.flags.schema import spec_at

    options = option_entries()
    entries = options.get(flag) or tuple(  # (an abbreviation, `--trust-remote`: what it may stand for)
        index for option, indexes in options.items() if option.startswith(flag) for index in indexes
    )
    return bool(entries) and not any(spec_at(index).takes_value for index in entries)


def _sentence_end(text: str, closer: str) -> int | None:
    """Where a word's command text ends when the sentence goes on inside it: full-width
    punctuation (`2，然后`), the closing emphasis, quote or bracket the prose opened before the
    launcher (`2**`, `2"`, `2]`), or a `?`/`!` ending the sentence (`2?`); None for a whole word."""
    fullwidth = _FULLWIDTH.search(text)
    if fullwidth is not None:
        return fullwidth.start()
    dash = _DASH.search(text, 1)  # `--tp-size 2—it fails` (at its start: a flag typed with one)
    if dash is not None:
        return dash.start()
    core = text.rstrip(_TRAILING)
    if closer and core.endswith(closer) and len(core) > len(closer):
        return len(core) - len(closer)
    bare = core.rstrip(_ENDS_SENTENCE)
    if bare != core and bare:
        return len(bare)
    return None


def _cut_flag(lines: list[tuple[int, str]], clean: list[str], last: Piece) -> Piece | None:
    """The launch's last word when it may be cut: a flag that ends its line while the
    paragraph goes on in the next line at its first column with a word that is no flag
    (`... --por` then `t 8998`: a terminal's wrap pasted as text, or a paragraph hard-wrapped
    between a flag and its value). Its value, and the flag itself, are not known; None when
    the word is whole."""
    text = last.text or ""
    index = bisect_right([offset for offset, _ in lines], last.begin) - 1
    if not text.startswith("-") or "=" in text or index + 1 >= len(lines):
        return None
    line, following = clean[index], clean[index + 1]
    if last.end != lines[index][0] + len(line.rstrip()) or not following[:1].strip() or following[:1] == "-":
        return None
    rest = following.split(None, 2)[:2]
    reason = f"`{text}` ends its line and the paragraph goes on with `{' '.join(rest)}`: the line may have been wrapped inside the command"
    return unknown(reason, last.begin, last.end)


def _quote_at(text: str, after_flag: bool) -> int | None:
    """Where a quoted value starts in a word: the word itself after a flag (`"my model"`), or
    after a flag's `=` (`--x='{"a": 1}'`); None for other words."""
    if after_flag and text[:1] in ("'", '"'):
        return 0
    if text.startswith("--") and "=" in text:
        at = text.index("=") + 1
        if text[at : at + 1] in ("'", '"'):
            return at
    return None


_QUOTED = {q: patterns.compile(q + "[^" + q + "\n]*" + q + r"[^\s'\"]*") for q in ("'", '"')}


def _quoted_word(lines: list[tuple[int, str]], clean: list[str], begin: int, quote: int) -> Piece | None:
    """The word at file offset `begin` through the closing quote of the value that starts
    `quote` characters into it (on the same line), as written; None without one."""
    index = bisect_right([offset for offset, _ in lines], begin) - 1
    offset, line = lines[index][0], clean[index]
    start = begin - offset + quote
    found = _QUOTED[line[start]].match(line, start)
    if found is None:
        return None
    return exact(line[begin - offset : found.end()], begin)


def _strip_placeholders(text: str) -> str:
    return re.sub(r"<[^<>\s]*>|\{[^{}\s]*\}|\[[^\[\]\s]*\]|\$\{?\w+\}?|\u2026", "x", text)


_EMPHASIS_OPEN = patterns.compile(r"(?<![\w\\])_{1,3}(?=[A-Za-z])")


def _unemphasised(line: str) -> str:
    """The line with the `_` that open Markdown emphasis right before a launcher (`_python3
    -m ..._`) blanked, so that launcher is found (its column kept)."""
    if "_" not in line:
        return line
    blanked = _EMPHASIS_OPEN.sub(lambda m: " " * len(m.group()), line)
    keep = [m for m in _EMPHASIS_OPEN.finditer(line) if PROSE_LAUNCH.match(blanked, m.end())]
    if not keep:
        return line
    parts, done = [], 0
    for opening in keep:
        parts.extend([line[done : opening.start()], " " * len(opening.group())])
        done = opening.end()
    return "".join([*parts, line[done:]])


def prose_launches(doc: DocFile, lines: list[tuple[int, str]], spans: list[CodeSpan]) -> int:
    """Launches written on the prose lines of a paragraph (outside its code spans)."""
    found = 0
    inside = [s.begin - 1 for s in spans]
    clean = [_unemphasised(line).replace("`", " ") for _, line in lines]
    for index, (offset, line) in enumerate(lines):
        for match in PROSE_LAUNCH.finditer(_unemphasised(line) if "_" in line else line):
            where = offset + match.start()
            at = bisect_right(inside, where) - 1
            if at >= 0 and where <= spans[at].end:
                continue
            pieces = _prose_tokens(lines, clean, index, match)
            if not pieces:
                continue
            pieces.append(virtual("\n", pieces[-1].end))
            found += doc.shell(with_rest(pieces), "drop")
    return found
