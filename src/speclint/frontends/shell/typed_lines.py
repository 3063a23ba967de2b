"""Command lines typed into the shell of a running GNU screen session: `screen -S NAME -X
stuff 'python -m sglang.launch_server ...\\n'`.

screen(1): `-X` sends the rest of the command line as a command to a running session;
`stuff string` "stuffs the string in the input buffer of the current window", as if typed.
screen reads the string's escapes as it reads its own commands: `\\n`, `\\r`, `\\ooo` octal
and `^M` / `^J` (control characters) end a line; so does a newline or carriage return put
there by the script (`$'...\\n'`). The window's shell then runs each line ended so; text
after the last line end is typed but not yet run, and is not read. The shell is the
session's, with its own environment: none of this script's variables are known to be set
there (as for `tmux send-keys`).
"""

from __future__ import annotations

import re

from speclint.core.launches import Diagnostic

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span
    from speclint.frontends.shell.expand import Arg
    from speclint.frontends.shell.walking import Walking

# screen's options that take a value (screen(1), "COMMAND-LINE OPTIONS"; `wrappers`)
_VALUE_LETTERS = frozenset("cehpsStT")
_OPTIONAL_VALUE_LETTERS = frozenset("dDrRx")
"""Options whose session name is optional (`-r [session]`, `-d -r NAME`)."""
_LINE_END = re.compile(r"\\[nr]|\\01[25]|\^[MJ]|[\n\r]|\$\{(__speclint_unknown_\d+)\}")
_PRINTED_END = re.compile(
    r"output of command substitution `\$\((?:printf|echo -e|echo -ne) ['\"]?\\{1,2}[rn]['\"]?\)`"
)
"""`"...$(printf \\r)"`: a carriage return the script prints into the string."""


def stuffed(args: list[Arg], i: int) -> Arg | None:
    """The string of `screen [options] -X stuff STRING` (i: the word after `screen`), else None."""
    while i < len(args):
        text = args[i].word.text
        if text is None or not text.startswith("-") or text == "-":
            return None
        i += 1
        if text == "-Logfile":
            i += 1
            continue
        letters = text[1:]
        for k, letter in enumerate(letters):
            if letter == "X":  # the rest of the line is a command for the session
                words = args[i : i + 2]
                sent = len(words) == 2 and k + 1 == len(letters) and words[0].word.text == "stuff"
                return words[1] if sent else None
            if letter in _VALUE_LETTERS:
                i += 1 if k + 1 == len(letters) else 0  # the value is the next word
                break
            if letter in _OPTIONAL_VALUE_LETTERS and k + 1 == len(letters) and i < len(args):
                i += 0 if (args[i].word.text or "-").startswith("-") else 1
    return None


def type_into_screen(walker: Walking, typed: Arg, span: Span) -> bool:
    """Read the lines `stuff` ends in the session's shell; False when it ends none."""
    from speclint.frontends.shell.nested import nested_text_map

    built = nested_text_map(walker, typed)
    if built is None:
        not_read(walker, typed)
        return False
    tm, placeholders = built
    pieces: list[tuple[str, int, int]] = []
    done = 0
    for match in _LINE_END.finditer(tm.text):
        if match.group(1) is not None and not _PRINTED_END.fullmatch(placeholders.get(match.group(1), "")):
            continue  # an unknown value, not a line end
        pieces += [(tm.text[k], tm.file_start(k), tm.file_end(k)) for k in range(done, match.start())]
        pieces.append(("\n", tm.file_start(match.start()), tm.file_end(match.end() - 1)))
        done = match.end()
    if not done:
        not_read(walker, typed)
        return False
    unknown = f"${{name}} is not known in the shell of the `screen` session (line {span.line})"
    walker.walk_nested(walker.tm.derive(pieces), placeholders, {}, None, unknown)
    return True


_SCREEN_HOW = "typed into a `screen` session by `stuff`", "the lines that `stuff` ends (`\\n`, `\\r`, `^M`)"
TMUX_HOW = (
    "typed into a tmux pane by `send-keys`",
    "each string of keys that `send-keys` ends with `Enter` or `C-m`",
)


def not_read(walker: Walking, typed: Arg, how: tuple[str, str] = _SCREEN_HOW) -> None:
    """The launcher typed without a line end (or in text not known): reported, not passed
    over. `how`: how it is typed, and what speclint reads of such keys."""
    from speclint.frontends.recognise import PROSE_LAUNCH

    text = walker.tm.node_text(typed.node) if typed.node is not None else typed.word.text or ""
    match = PROSE_LAUNCH.search(text)
    if match is None or not walker.collect:
        return
    launcher = " ".join(match.group().split())
    walker.result.diagnostics.append(
        Diagnostic(
            "launcher-not-read",
            f"speclint did not read this command, {how[0]}, which holds `{launcher}`: speclint "
            f"reads {how[1]}, so nothing in this launch was checked",
            typed.word.span,
        )
    )
