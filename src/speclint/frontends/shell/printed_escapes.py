"""A script a shell reads on standard input from `echo -e "...\\n..."` or `printf "...\\n..."`
(`herestrings`): the text the shell gets is what echo or printf prints, backslash escapes
interpreted, so it is read after the escapes are.

bash(1), `echo`: "If -e is given, the interpretation of the following backslash-escaped
characters is enabled": `\\a \\b \\c \\e \\E \\f \\n \\r \\t \\v \\\\ \\0nnn \\xHH \\uHHHH
\\UHHHHHHHH`; `printf`: its format is printed with the same escapes (and `\\"`, `\\?`, `\\'`,
`\\NNN`), each `%` directive replaced (`%%` prints `%`). Here `\\n`, `\\t` and `\\\\` are
interpreted, each written as the two characters of its escape; a backslash before a character
that starts no escape is printed as written. Any other escape, a `%` directive, or a backslash
in an expansion's value, and the launch is said not read (SLM005) rather than guessed.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from speclint.core.spans import Span
    from speclint.core.words import Word
    from speclint.frontends.shell.expand import Arg
    from speclint.frontends.shell.walking import Walking

    Pieces = list[tuple[str, int, int]]

_READ = {"n": "\n", "t": "\t", "\\": "\\"}
_ECHO_ESCAPES = frozenset("abceEfnrtv\\0xuU")
_PRINTF_ESCAPES = _ECHO_ESCAPES | frozenset("\"?'1234567")


def interpreted(pieces: Pieces, printf: bool) -> Pieces | None:
    """The characters echo -e (or printf's format, `printf`) prints for `pieces`, each at the
    file range it is written at; None for what is not interpreted here."""
    out: Pieces = []
    escapes = _PRINTF_ESCAPES if printf else _ECHO_ESCAPES
    i = 0
    while i < len(pieces):
        text, begin, end = pieces[i]
        following = pieces[i + 1] if i + 1 < len(pieces) else None
        if len(text) != 1:  # an expansion's value, at the expansion
            if "\\" in text or (printf and "%" in text):
                return None
            out.append(pieces[i])
        elif printf and text == "%":
            if following is None or following[0] != "%":
                return None  # a directive: printed from an argument
            out.append(("%", begin, following[2]))
            i += 1
        elif text == "\\" and following is not None:
            if len(following[0]) != 1:
                return None
            if following[0] in _READ:
                out.append((_READ[following[0]], begin, following[2]))
                i += 1
            elif following[0] in escapes:
                return None
            else:
                out.append(pieces[i])  # `\\$`: printed as written
        else:
            out.append(pieces[i])
        i += 1
    return out


def walk_printed(
    walker: Walking,
    printer: Node,
    args: list[Arg],
    printf: bool,
    reader: tuple[dict[str, Word] | None, str, bool],
    bash: bool,
) -> None:
    """Walk what `printer` (echo -e / printf) prints as the script its pipe's shell reads, or
    say the launcher it names not read."""
    from speclint.frontends.shell.nested import nested_pieces

    built = nested_pieces(walker, args)
    pieces = interpreted(built[0], printf) if built is not None else None
    if built is None or pieces is None:
        _not_read(walker, printer, args, "printf" if printf else "echo -e")
        return
    if walker.depth >= 5:  # (`walk._MAX_NESTING`)
        return
    inherited, unknown, remote = reader
    walker.walk_nested(
        walker.tm.derive(pieces),
        built[1],
        inherited,
        None if remote else walker.image,
        unknown,
        walker.exported_definitions() if bash else None,
        None if remote else walker.env,
    )


def _not_read(walker: Walking, printer: Node, args: list[Arg], name: str) -> None:
    """The launcher `printer` prints said not read, at its words where the file writes them
    (else at the word whose value holds them)."""
    from speclint.core.diagnostics import Diagnostic
    from speclint.frontends.shell.launcher_strings import launcher_in_text

    if not walker.collect:
        return
    tm = walker.tm
    found: tuple[Span, str] | None = None
    for child in printer.named_children[1:]:
        written = launcher_in_text(tm.data[child.start_byte : child.end_byte])
        if written is not None:
            found = tm.span(child.start_byte + written[0], child.start_byte + written[1]), written[2]
            break
    for arg in args if found is None else ():
        held = launcher_in_text((arg.word.text or "").encode())
        if held is not None:
            found = arg.word.span, held[2]
            break
    if found is not None:
        message = (
            f"speclint did not read this command: `{found[1]}` is in the text `{name}` prints for a "
            "shell to run, with escapes or directives speclint does not interpret, so nothing in this "
            "launch was checked"
        )
        walker.result.diagnostics.append(Diagnostic("launcher-not-read", message, found[0]))
