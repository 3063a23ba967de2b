"""Characters pasted into a doc command that look like the `-` or the space a command needs but
are not (blog and chat text: a word processor turns `--` into an en dash, a web page puts a
no-break space between words): recorded on the words that hold them (`Word.lookalikes`), at
their position in the file, for the rules that report the word to say why.

bash splits words only at spaces, tabs and line ends, and argparse reads a word as a flag only
when it starts with `-`: either character leaves the command's text as it was typed, so the
rules' findings stand; only the reason would be invisible without the note.
"""

from __future__ import annotations

from speclint.core import patterns
from speclint.core.lookalike_chars import DASHES, SPACES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from speclint.core.launches import Launch
    from speclint.core.spans import Span

_LOOKALIKE = patterns.compile(f"[{DASHES}{SPACES}]")


def mark_lookalikes(
    launches: list[Launch], text: str, starts: list[int], span: Callable[[int, int], Span]
) -> None:
    """Record on each argument word of `launches` the look-alike characters written in `text`
    (the document; `starts`: its line starts) within the word's span, when the word's text
    holds them too (a word read as written, not one made from a variable elsewhere)."""
    import dataclasses

    for launch in launches:
        for index, word in enumerate(launch.args):
            if word.text is None or word.text.isascii() or word.span.file is not None:
                continue
            where = word.span
            if where.line > len(starts) or where.end_line > len(starts):
                continue
            begin = starts[where.line - 1] + where.column - 1
            end = starts[where.end_line - 1] + where.end_column - 1
            found = tuple(
                (span(m.start(), m.end()), m.group())
                for m in _LOOKALIKE.finditer(text, begin, end)
                if m.group() in word.text
            )
            if found:
                launch.args[index] = dataclasses.replace(word, lookalikes=found)
