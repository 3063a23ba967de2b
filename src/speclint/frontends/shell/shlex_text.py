"""Text that Python's `shlex.split` splits into words (a `subprocess` argv, docker-py's and
pexpect's string commands), handed to the shell front-end, which reads it as shell code: what
shlex reads differently is put in a form the shell reads the same way."""

from __future__ import annotations

from speclint.frontends.shell.pieces import Piece


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
