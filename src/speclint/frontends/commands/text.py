"""What every command-file reader shares: text joined across continuation lines with each
character's file offset, the file's `#` comment lines, and quoted words split with the
position of every character (for argv that no shell reads: systemd, supervisord, tox)."""

from __future__ import annotations

from speclint.core.launches import Diagnostic
from speclint.frontends.shell.embedded import ArgvItem, ShellBuffer
from speclint.frontends.shell.pieces import Piece, span_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.launches import ExtractResult
    from speclint.core.spans import Span
    from speclint.core.words import Word
    from speclint.frontends.shell.embedded import Budget
    from speclint.frontends.shell.walking import UnitReader

Char = tuple[str | None, int, int, str | None]
"""One character of a command: its text (None: an unknown run), the file range it stands
for, and why it is unknown."""
IniValue = tuple[str, str, list[Char], int]
"""A value of an INI file (supervisord, tox): section, key, its characters (continuation lines
joined by a newline), line."""


def pieces_of(chars: list[Char]) -> list[Piece]:
    """Exact pieces for runs of adjacent file characters; a decoded escape or a value read
    through a name maps to its whole range; an unknown run keeps its reason."""
    pieces: list[Piece] = []
    for char, begin, end, reason in chars:
        last = pieces[-1] if pieces else None
        if char is None:
            pieces.append(Piece(None, begin, end, reason=reason))
        elif len(char) == 1 and end == begin + 1 and last is not None and last.exact and last.end == begin:
            pieces[-1] = Piece((last.text or "") + char, last.begin, end, exact=True)
        else:
            pieces.append(Piece(char, begin, end, exact=len(char) == 1 and end == begin + 1))
    return pieces


def comment_lines(text: str, starts: list[int], markers: str = "#") -> list[tuple[Span, str]]:
    """Each line whose first non-blank character is one of `markers`, as a comment."""
    found = []
    for number, start in enumerate(starts):
        end = starts[number + 1] - 1 if number + 1 < len(starts) else len(text)
        line = text[start:end].rstrip("\r")
        stripped = line.lstrip(" \t")
        if stripped[:1] and stripped[0] in markers:
            at = start + len(line) - len(stripped)
            found.append((span_of(starts, at, at + len(stripped)), stripped))
    return found


_C_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "s": " "}


def split_quoted(chars: list[Char], c_escapes: bool, unclosed: list[int] | None = None) -> list[list[Char]]:
    """Words as Python's `shlex.split` (posix) splits them (`c_escapes` False: supervisord,
    tox) or as systemd unquotes a command line (systemd.syntax(7), "Quoting": quotes wrap
    an item, C-style escapes `\\n`, `\\s`, `\\xNN`... everywhere). An unknown run stays in
    its word. A quote never closed: its offset goes into `unclosed`."""
    words: list[list[Char]] = []
    word: list[Char] | None = None
    quote, quote_at = "", 0
    index = 0
    while index < len(chars):
        char, begin, end, reason = chars[index]
        index += 1
        if char is None:
            word = word if word is not None else []
            word.append((None, begin, end, reason))
            continue
        if not quote and char in " \t\n\r":
            if word is not None:
                words.append(word)
            word = None
            continue
        word = word if word is not None else []
        if char == quote:
            quote = ""
        elif not quote and char in "'\"":
            quote, quote_at = char, begin
        elif char == "\\" and quote != "'" and index < len(chars) and chars[index][0] is not None:
            following, _, stop, _ = chars[index]
            index += 1
            assert following is not None
            if c_escapes and following in _C_ESCAPES:
                word.append((_C_ESCAPES[following], begin, stop, None))
            elif c_escapes and following in "xuU01234567":
                width = {"x": 2, "u": 4, "U": 8}.get(following, 3)
                start = index if following in "xuU" else index - 1  # octal: `following` is a digit
                run = chars[start : start + width]
                digits = "".join(c[0] or "" for c in run)
                try:
                    decoded = chr(int(digits, 8 if following.isdigit() else 16)) if len(run) == width else ""
                except ValueError:
                    decoded = ""
                if decoded:
                    word.append((decoded, begin, run[-1][2], None))
                    index = start + width
                else:
                    word.append((following, begin, stop, None))
            elif not c_escapes and quote == '"' and following not in '"\\':
                word.extend([(char, begin, begin + 1, None), chars[index - 1]])
            else:
                word.append((following, begin, stop, None))
        else:
            word.append((char, begin, end, None))
    if word is not None:
        words.append(word)
    if quote and unclosed is not None:
        unclosed.append(quote_at)
    return words


def argv_item(word: list[Char], origin: Span | None = None, splits: bool = False) -> ArgvItem:
    """One word for `ShellBuffer.add_word`: a word holding an unknown run is one unknown
    word, or any number of words when the run is all of it and `splits` (a value substituted
    before the line is split into words)."""
    unknown = [c for c in word if c[0] is None]
    if unknown:
        piece = Piece(None, word[0][1], word[-1][2], reason=unknown[0][3])
        return ArgvItem([piece], splat=splits and len(word) == 1, origin=origin)
    return ArgvItem(pieces_of(word), origin=origin)


def walk_shell(
    result: ExtractResult,
    path: str,
    buffer: ShellBuffer,
    env: dict[str, Word],
    unit_reader: UnitReader | None = None,
    unknown: str | None = None,
) -> None:
    """Walk `buffer` with the shell front-end; the file's environment (`Environment=`,
    `export`) is each launch's too. `unit_reader`, `unknown`: see `ShellBuffer.walk`."""
    count = len(result.launches)
    buffer.walk(path, result, env, unit_reader=unit_reader, unknown=unknown)
    for launch in result.launches[count:]:
        for name, word in env.items():
            launch.env.setdefault(name, word)


def shell_line(text: str, starts: list[int], budget: Budget, chars: list[Char]) -> ShellBuffer:
    """A buffer holding one line of shell code (`chars`), newline-ended."""
    buffer = ShellBuffer(text, starts, budget)
    buffer.add_code(pieces_of(chars))
    end = chars[-1][2] if chars else 0
    buffer.add_code([Piece("\n", end, end)])
    return buffer


def unique_comments(result: ExtractResult) -> None:
    """The file's comment lines and those the shell found in its commands, once each."""
    seen: set[Span] = set()
    kept = []
    for span, comment in sorted(result.comments, key=lambda c: (c[0].line, c[0].column)):
        if span not in seen:
            seen.add(span)
            kept.append((span, comment))
    result.comments = kept


def unclosed_quote(result: ExtractResult, starts: list[int], at: int, consequence: str) -> None:
    """A `syntax-error` at a quote that is never closed."""
    message = f"the quote opened here is never closed: {consequence}"
    result.diagnostics.append(Diagnostic("syntax-error", message, span_of(starts, at, at + 1)))


def walk_argv(text: str, starts: list[int], budget: Budget, words: list[list[Char]]) -> ShellBuffer:
    """A buffer of argv words that no shell splits (systemd-less INI commands: supervisord,
    tox); a word that is all one unknown run may be any number of words."""
    buffer = ShellBuffer(text, starts, budget)
    for word in words:
        buffer.add_word(argv_item(word, splits=True))
    return buffer
