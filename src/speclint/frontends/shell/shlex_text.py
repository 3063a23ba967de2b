"""Text that Python's `shlex.split` splits into words (a `subprocess` argv, docker-py's and
pexpect's string commands), handed to the shell front-end, which reads it as shell code: what
shlex reads differently is put in a form the shell reads the same way."""

from __future__ import annotations

from speclint.frontends.shell.pieces import Piece


def escaped_newlines(pieces: list[Piece]) -> list[Piece]:
    """Text `shlex.split` splits (POSIX mode): a `\\` before a line end escapes it, so the
    line end is a character of the word (`Q \\` then a line end, then `--tp 2`: the words
    `Q`, a line end, `--tp`, `2`; CPython's `shlex.read_token`), where a shell removes both
    (a line continuation). In double quotes shlex keeps both characters (the line end is not
    one it escapes there), where a shell removes both too. Each is put in the form the shell
    front-end reads as shlex does: outside quotes the `\\` becomes a `"` and a `"` follows
    the line end (a quoted line end); in double quotes a `\\` is put before it (an escaped
    backslash), at no file width. A raw string holds such text; in
    other strings Python has already removed a `\\` before a line end."""
    if not any(p.text and "\\\n" in p.text for p in pieces):
        return pieces
    out: list[Piece] = []
    quote, escaped = "", False
    for piece in pieces:
        text = piece.text
        if text is None:
            out.append(piece)
            escaped = False
            continue
        start = 0
        for at, char in enumerate(text):
            if escaped:
                escaped = False
                continue
            if char == "\\" and quote != "'":
                if at + 1 < len(text) and text[at + 1] == "\n":
                    where = piece.begin + at if piece.exact else piece.begin
                    after = piece.begin + at + 2 if piece.exact else piece.end
                    if at > start:
                        out.append(_part(piece, start, at))
                    if quote:  # `"...\\` line end`: both kept
                        out.append(Piece("\\", where, where))
                        out.append(_part(piece, at, at + 2))
                    else:  # the line end on its own, quoted
                        out.append(Piece('"', where, where + 1 if piece.exact else piece.end))
                        out.append(_part(piece, at + 1, at + 2))
                        out.append(Piece('"', after, after))
                    start = at + 2
                escaped = True
            elif char in "'\"" and quote in ("", char):
                quote = "" if quote else char
        if start < len(text):
            out.append(_part(piece, start, len(text)) if start else piece)
    return out


def _part(piece: Piece, start: int, end: int) -> Piece:
    assert piece.text is not None
    place = (piece.begin + start, piece.begin + end) if piece.exact else (piece.begin, piece.end)
    return Piece(piece.text[start:end], *place, exact=piece.exact)


def literal_hashes(pieces: list[Piece]) -> list[Piece]:
    """Text `shlex.split` splits (its `comments` off by default): a `#` that starts a word
    outside quotes is a character of the word, not a comment as a shell reads it; a `\\` is
    put before it (at no file width) so the shell front-end reads it so too."""
    if not any(p.text and "#" in p.text for p in pieces):
        return pieces
    out: list[Piece] = []
    quote, escaped, blank = "", False, True
    for piece in pieces:
        text = piece.text
        if text is None:
            out.append(piece)
            blank = escaped = False
            continue
        start = 0
        for at, char in enumerate(text):
            if char == "#" and blank and not quote and not escaped:
                where = piece.begin + at if piece.exact else piece.begin
                if at > start:
                    out.append(
                        Piece(
                            text[start:at],
                            piece.begin + start if piece.exact else piece.begin,
                            where if piece.exact else piece.end,
                            exact=piece.exact,
                        )
                    )
                out.append(Piece("\\", where, where))
                start = at
            if escaped:
                escaped = False
            elif char == "\\" and quote != "'":
                escaped = True
            elif char in "'\"" and quote in ("", char):
                quote = "" if quote else char
            blank = char.isspace() and not quote
        out.append(
            Piece(
                text[start:],
                piece.begin + start if piece.exact else piece.begin,
                piece.end,
                exact=piece.exact,
            )
            if start
            else piece
        )
    return out
