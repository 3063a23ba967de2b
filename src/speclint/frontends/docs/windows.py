"""A launch pasted from a Windows terminal: cmd.exe's `^` and PowerShell's backtick at a
line end continue the command on the next line (cmd.exe: "the escape character at the end
of a line continues the command"; PowerShell: about_Special_Characters, "line
continuation"). In an untagged or shell block such a line is joined to the next as bash
joins a `\\` one, where before the `^` was read as an argument (a false FLG010) and the
backtick as a command substitution. A `cmd`/`bat`/`powershell` block is read only when it
holds nothing but the launch, written in plain words that both shells split alike;
otherwise it stays reported as not read. `%NAME%` (cmd.exe) and `$env:NAME` (PowerShell)
are unknown values, named as such.
"""

from __future__ import annotations

from speclint.core import patterns
from speclint.frontends.recognise import PROSE_LAUNCH
from speclint.frontends.shell.pieces import Piece

from .excerpt import exact, unknown, virtual

CMD_TAGS = {"bat", "batch", "cmd", "dosbatch", "winbatch", "doscon"}
POWERSHELL_TAGS = {"powershell", "pwsh", "ps1", "posh", "pwsh-session", "ps1con"}
_CONTINUED = patterns.compile(r"[ \t]([\^`])[ \t]*$")
"""A line ending in a lone `^` or backtick after a space: the Windows shells' continuation."""
_PROMPT = patterns.compile(r"^[ \t]*(?:\([\w.-]+\)[ \t]+)?(?:PS[ \t]+)?[A-Za-z]:\\[^>\n]*>[ \t]*(?=\S)")
"""`C:\\Users\\me>`, `PS C:\\work> `, `(venv) C:\\>`: a Windows prompt before the command."""
_VARIABLE = patterns.compile(r"%[A-Za-z_]\w*%|\$env:[A-Za-z_]\w*")
_VALUE = r"(?P<value>[\w.,:/@+-]*)"
_SET = patterns.compile(r'[ \t]*(?i:set)[ \t]+(?P<q>"?)(?P<name>[A-Za-z_]\w*)=' + _VALUE + r"(?P=q)")
"""cmd.exe's `set NAME=value` and `set "NAME=value"`, the value plain (no spaces: cmd.exe
would keep a trailing one)."""
_PS_ENV = patterns.compile(
    r"[ \t]*\$env:(?P<name>[A-Za-z_]\w*)[ \t]*=[ \t]*(?P<q>[\"'])" + _VALUE + r"(?P=q)[ \t]*;?[ \t]*"
)
"""PowerShell's `$env:NAME = "value"` (or `'value'`), the value plain."""
_COMMENT = patterns.compile(r"[ \t]*(REM\b|rem\b|::|#)")
"""A comment line: cmd.exe's `REM ...` / `:: ...`, PowerShell's `# ...`."""
_PLAIN = patterns.compile(r'[\w./:,=@+~"\-]+')
"""A word both shells read as written (no `\\`, `$`, `'`, `%` ... but a variable above)."""


def _mark(line: str) -> str | None:
    match = _CONTINUED.search(line)
    if match is None or (match.group(1) == "`" and line.count("`") % 2 == 0):
        return None  # (an even count: a closing backtick of `cmd`)
    return match.group(1)


def continued(lines: list[tuple[int, str]]) -> bool:
    """Whether a line of the block (not its last) ends in a Windows continuation."""
    return any(("^" in line or "`" in line) and _mark(line) for _, line in lines[:-1])


def _variables(text: str, begin: int) -> list[Piece]:
    out: list[Piece] = []
    done = 0
    for match in _VARIABLE.finditer(text):
        out.append(exact(text[done : match.start()], begin + done))
        at, end = begin + match.start(), begin + match.end()
        shell = "cmd.exe" if match.group().startswith("%") else "PowerShell"
        reason = f"a {shell} variable (`{match.group()}`), set outside this block"
        out.extend([virtual('"', at), unknown(reason, at, end), virtual('"', end)])
        done = match.end()
    out.append(exact(text[done:], begin + done))
    return [p for p in out if p.text != ""]


def windows_pieces(lines: list[tuple[int, str]], env: dict[int, list[Piece]] | None = None) -> list[Piece]:
    """The block's lines as shell pieces, a line-end `^`/backtick standing as bash's `\\`,
    `%NAME%` and `$env:NAME` unknown; other lines as written, but the lines `env` holds
    `export` pieces for."""
    pieces: list[Piece] = []
    for number, (offset, line) in enumerate(lines):
        if env and number in env:
            pieces.extend(env[number])
            continue
        mark = _mark(line) if number + 1 < len(lines) else None
        text = line[: line.rindex(mark)].rstrip() if mark else line
        if "%" in text or "$env:" in text:
            pieces.extend(_variables(text, offset))
        elif text:
            pieces.append(exact(text, offset))
        end = offset + len(text)
        if mark:
            pieces.append(virtual(" \\", offset + line.rindex(mark)))
        pieces.append(virtual("\n", end if not mark else offset + len(line)))
    return pieces


def prompted(lines: list[tuple[int, str]]) -> bool:
    """Whether a line of the block starts with a Windows prompt (`PS C:\\work> `)."""
    return any(":\\" in line and _PROMPT.match(line) for _, line in lines)


def session(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """A pasted Windows terminal session: the commands after its prompts and the lines they
    continue on (`^`, backtick); output lines blanked."""
    kept: list[tuple[int, str]] = []
    going = False
    for offset, line in lines:
        prompt = None if going else _PROMPT.match(line)
        if prompt is None and not going:
            kept.append((offset + len(line), ""))
            continue
        skip = prompt.end() if prompt else 0
        kept.append((offset + skip, line[skip:]))
        going = _mark(line) is not None
    return kept


def _setting(cmd: bool, offset: int, text: str) -> list[Piece] | None:
    """`export NAME='value'` pieces for cmd.exe's `set NAME=value` (`set "NAME=value"`) or
    PowerShell's `$env:NAME = "value"`, with a plain value; None for other lines."""
    match = (_SET if cmd else _PS_ENV).fullmatch(text)
    if match is None:
        return None
    name_at, value_at = offset + match.start("name"), offset + match.start("value")
    end = offset + match.end("value")
    return [
        virtual("export ", name_at),
        exact(match.group("name"), name_at),
        virtual("='", value_at),
        *([exact(match.group("value"), value_at)] if match.group("value") else []),
        virtual("'", end),
        virtual("\n", end),
    ]


def launch_lines(
    tag: str, lines: list[tuple[int, str]]
) -> tuple[list[tuple[int, str]], dict[int, list[Piece]]] | None:
    """A `cmd`/`powershell` block's lines, prompts cut off, when the block holds only a
    launch written in plain words (continued with its shell's own mark), comments and
    variables set with plain values (their `export` pieces, by line); else None."""
    mark = "^" if tag in CMD_TAGS else "`"
    kept: list[tuple[int, str]] = []
    env: dict[int, list[Piece]] = {}
    going = False  # the line before ends with the continuation mark
    for offset, line in lines:
        prompt = _PROMPT.match(line)
        skip = prompt.end() if prompt and not going else 0
        text = line[skip:]
        comment = _COMMENT.match(text) if not going else None
        if not text.strip() or (comment and (mark == "^") == (comment.group(1) != "#")):
            kept.append((offset + len(line), ""))
            going = False
            continue
        setting = None if going else _setting(mark == "^", offset + skip, text)
        if setting is not None:
            env[len(kept)] = setting
            kept.append((offset + len(line), ""))
            continue
        if not going and PROSE_LAUNCH.match(text.lstrip()) is None:
            return None  # another command: this shell's other words are not read
        ends = _mark(text)
        if ends is not None and ends != mark:
            return None
        words = text[: text.rindex(ends)] if ends else text
        if not all(_PLAIN.fullmatch(_VARIABLE.sub("x", word)) for word in words.split()):
            return None
        kept.append((offset + skip, text))
        going = ends is not None
    return (kept, env) if any(text for _, text in kept) else None
