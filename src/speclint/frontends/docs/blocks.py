"""A documentation code block read by its language tag, the same for every doc format
(Markdown fences, reStructuredText directives and literal blocks): shell, console with `$ `
prompts, Python (with IPython escapes), YAML, flag lists written without their command;
text (but a pasted session with prompts) and other languages are not read as commands.
"""

from __future__ import annotations

from speclint.core import patterns
from speclint.frontends.recognise import DOC_LAUNCHER
from speclint.frontends.shell.pieces import Piece

from .cells import PYTHON_SESSION, python_block, python_worth_reading
from .dockerfile_fence import DOCKERFILE_TAGS, dockerfile_block
from .flag_lists import block_flag_list, block_prefixed_list
from .json_fence import JSON_TAGS, json_block
from .unread import unread_launcher as _unread_launcher
from .windows import CMD_TAGS, POWERSHELL_TAGS, continued, launch_lines, session, windows_pieces
from .windows import prompted as windows_prompted
from .yaml_fence import YAML_TAGS, worth_reading, yaml_block

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .excerpt import DocFile

SHELL_TAGS = {
    "bash",
    "sh",
    "shell",
    "zsh",
    "ksh",
    "console",
    "shell-session",
    "shellsession",
    "sh-session",
    "bash-session",
    "terminal",
    "shellscript",
    "shell-script",
}
CONSOLE_TAGS = {"console", "shell-session", "shellsession", "sh-session", "bash-session", "terminal"}
PYTHON_TAGS = {"python", "py", "python3", "ipython", "ipython3", "jupyter", "pycon", "python-console"}
"""`pycon` and `python-console`: Pygments' names for a pasted interpreter session."""
TEXT_TAGS = {"text", "txt", "plaintext", "plain", "none", "log"}
_PROMPT = patterns.compile(
    r"^(\s*)(?:\([\w.-]+\)[ \t]+)?"  # a conda or virtualenv name: `(sglang) `
    r"(?:[\w.-]+@[\w.-]+(?::[^\s$#]*)?[ \t]?(?=[$#] )[$#]"  # `user@host:~/dir$ `, `root@ctr:/w# `
    r"|\[[\w.-]+@[\w.-]+[^\]\n]*\][$#]"  # `[user@host dir]$ `
    r"|[\w.-]+@[\w.-]+ [^\s%]+ %"  # zsh's default: `me@mac sglang % `
    r"|[$%\u276f]) "  # `$ `, zsh's `% `, `\u276f ` (starship, pure)
)
"""A shell prompt copied with its command: `$ `, zsh's `% ` and `\u276f `, or one naming its
user and host (`#` for root: issue threads paste `root@<container>:/sgl-workspace# python3
-m ...`)."""
_DOCKERFILE_LINE = patterns.compile(
    r"^\s*(?:FROM|RUN|CMD|ENTRYPOINT|ENV|ARG|COPY|ADD|WORKDIR|EXPOSE|LABEL|USER|SHELL)\s", patterns.IGNORECASE
)
"""A Dockerfile instruction: a `docker` block holding one is a Dockerfile, not a command."""
_ROOT_PROMPT = patterns.compile(r"^(\s*)# (?=\S)")
"""A root shell's bare `# ` prompt: only in a block tagged as a console session (in a script,
`#` starts a comment)."""
_CONTINUATION_PROMPT = patterns.compile(r"^\s*> ?")
"""bash's PS2 (`> `) at the start of a line that continues a command in a copied session."""
_PS2_FLAGS = patterns.compile(r">[ \t]+-")
"""bash's PS2 at a line's very start before a flag: `> --port 30000` under a `\\`-ended line
(a redirection continuing a command, `  > server.log`, is indented or names a file)."""
_FLAG_LINE = patterns.compile(
    r"[ \t]*(?:(?:\d+(?:\.\d+)?|[^\s'\"\\#$;&|<>()]*/|[A-Z][^\s'\"\\#$;&|<>()=]*)[ \t]+)?--[A-Za-z]"
)
"""A line of flags, or a wrapped line's tail (a number, a directory) and flags (as in
`shell.checks`)."""
_HELP = patterns.compile(r"(?<!\S)(?:--help|-h)(?!\S)")
_IPYTHON = patterns.compile(r"^(\s*)(?:!(?=[\w/$.~\"'])|%(?=\w))")
"""`!cmd` and `%magic` lines pasted from a notebook into a shell block."""


def _console(lines: list[tuple[int, str]], root_prompt: bool = False) -> list[tuple[int, str]]:
    """Commands of a console block: prompts (`$ `, `user@host:dir$ `, a console session's `# `
    when `root_prompt`, and `> ` on the lines a command continues on) removed, output lines
    blanked. Lines of flags right after a prompted launch line (`--tp 2` under `$ python -m
    sglang.launch_server ...` with no `\\`: a lost continuation or a wrap before a flag) are
    kept, as the shell would read them, so the break is said (SLM002), not taken for output
    (the lines `--help` prints are output)."""
    kept = []
    continuing = flags_may_follow = False
    for i, (offset, line) in enumerate(lines):
        match = _PROMPT.match(line) or (_ROOT_PROMPT.match(line) if root_prompt else None)
        if match or (not continuing and _ps2_opened(lines, i)):
            start = match.end() if match else 0
            kept.append((offset + start, line[start:]))
            continuing = line.rstrip().endswith("\\")
            flags_may_follow = DOC_LAUNCHER.search(line) is not None and _HELP.search(line) is None
        elif continuing or (flags_may_follow and _FLAG_LINE.match(line)):
            ps2 = _CONTINUATION_PROMPT.match(line) if continuing else None
            skip = ps2.end() if ps2 else 0
            kept.append((offset + skip, line[skip:]))
            continuing = line.rstrip().endswith("\\")
        else:
            kept.append((offset + len(line), ""))
            flags_may_follow = False
    return kept


def _ps2_opened(lines: list[tuple[int, str]], i: int) -> bool:
    """Line `i` opens the launcher and is continued on a `> --flag` line: a session pasted
    without its first prompt but with bash's PS2 (`> `) on the lines the command goes on."""
    line = lines[i][1]
    return (
        i + 1 < len(lines)
        and line.rstrip().endswith("\\")
        and _PS2_FLAGS.match(lines[i + 1][1]) is not None
        and _starts_launch(line)
    )


def _without_tracebacks(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """A command pasted with the Python traceback it ended in: the traceback's lines (from
    `Traceback (most recent call last):` through its indented lines to the exception line)
    blanked, as output, not commands bash would refuse."""
    kept = []
    inside = False
    for offset, line in lines:
        if line.strip() == "Traceback (most recent call last):":
            inside = True
        elif inside and line.strip() and not line[:1].isspace():
            inside = line.startswith("During handling") or line.startswith("The above exception")
            kept.append((offset + len(line), ""))  # the exception line ends it
            continue
        kept.append((offset + len(line), "") if inside else (offset, line))
    return kept


def _unescape(offset: int, line: str) -> tuple[int, str]:
    """A notebook line in a shell block: `!cmd` is the command, `%magic` is not shell."""
    match = _IPYTHON.match(line)
    if match is None:
        return offset, line
    if line[match.end(1)] == "%":
        return offset + len(line), ""
    return offset + match.end(), line[match.end() :]


def _pieces(lines: list[tuple[int, str]]) -> list[Piece]:
    """Each line as written (`exact`), then a newline standing where it ends (`virtual`)."""
    pieces: list[Piece] = []
    append = pieces.append
    for offset, line in lines:
        end = offset + len(line)
        if line:
            append(Piece(line, offset, end, True))
        append(Piece("\n", end, end))
    return pieces


UNIT_TAGS = {"ini", "dosini", "systemd", "service", "cfg", "conf", "properties"}
"""Tags a systemd service unit shown in a doc is written under (Pygments' `ini`/`systemd`)."""


def _unit_block(doc: DocFile, lines: list[tuple[int, str]], kind: str = "systemd") -> None:
    """A systemd service unit (`kind` 'systemd'), a Podman Quadlet `.container` file
    ('quadlet') or a supervisord `[program:x]` section ('supervisord') in a doc, read as the
    front-end for that file reads it, its findings moved to where the block's text is in the
    doc."""
    from speclint.frontends.commands.ini import extract_ini
    from speclint.frontends.commands.quadlet import extract_quadlet
    from speclint.frontends.commands.systemd import extract_unit
    from speclint.frontends.moved_spans import map_spans

    from .excerpt import OffsetMap

    mapping = OffsetMap(_pieces(lines), doc.starts)
    text = mapping.text + "\n"
    if kind == "supervisord":
        found = map_spans(extract_ini(kind, text, doc.path), mapping.move)
    else:
        found = map_spans(
            (extract_quadlet if kind == "quadlet" else extract_unit)(text, doc.path), mapping.move
        )
    doc.result.launches.extend(found.launches)
    doc.result.comments.extend(found.comments)
    doc.result.diagnostics.extend(found.diagnostics)


def _elided_unit(doc: DocFile, lines: list[tuple[int, str]]) -> None:
    """A unit-like block whose command leaves words out (`ExecStart=python -m
    sglang.launch_server ...`): not read (its flags are not all there), said at the launcher."""
    from speclint.core.diagnostics import Diagnostic
    from speclint.frontends.shell.pieces import span_of

    for offset, line in lines:
        match = DOC_LAUNCHER.search(line) if not line.lstrip().startswith(("#", ";")) else None
        if match is not None:
            message = (
                f"speclint did not read the command that runs `{match.group()}` in this code block "
                "(words are left out of it, `...`), so nothing in this launch was checked"
            )
            span = span_of(doc.starts, offset + match.start(), offset + match.end())
            doc.result.diagnostics.append(Diagnostic("launcher-not-read", message, span))
            return


def _unit_kind(joined: str) -> str | None:
    """What a unit-like block that runs sglang is: a systemd service ('systemd'), a Quadlet
    container ('quadlet'), a supervisord program ('supervisord'); None for another."""
    if "sglang" not in joined:
        return None
    if "[Service]" in joined and "ExecStart" in joined:
        return "systemd"
    if "[Container]" in joined and "Image=" in joined and "Exec" in joined:
        return "quadlet"
    return "supervisord" if "[program:" in joined and "command" in joined else None


def _python_session(joined: str, lines: list[tuple[int, str]]) -> bool:
    """An untagged block holding a pasted `>>> ` / `In [1]: ` session and no shell prompt."""
    return PYTHON_SESSION.search(joined) is not None and not any(_PROMPT.match(line) for _, line in lines)


def code_block(doc: DocFile, tag: str, lines: list[tuple[int, str]]) -> None:
    """A code block read by its language tag (lowercase; "" for an untagged block): its
    (file offset, text) lines are a Markdown fence's or a reStructuredText directive's."""
    joined = "\n".join(line for _, line in lines)
    if "--" in joined:  # (said where no launch reads them)
        from .flag_fragments import remember

        remember(doc, tag, lines)
    if tag in ("diff", "patch") and DOC_LAUNCHER.search(joined):  # (a pull request's thread)
        lines, tag = _after_side(lines), ""
        joined = "\n".join(line for _, line in lines)
    if tag in PYTHON_TAGS or ((tag == "" or tag in TEXT_TAGS) and _python_session(joined, lines)):
        if python_worth_reading(doc, joined):  # `sgl.Runtime(...)` without its import
            python_block(doc, lines)
        return
    if tag in YAML_TAGS:
        if worth_reading(joined) and not yaml_block(doc, _pieces(lines)):
            # (an abridged manifest, `...` for the parts left out, does not parse)
            _unread_launcher(doc, lines, [], "it is not YAML speclint could read as a manifest", True)
        return
    if tag in DOCKERFILE_TAGS:
        if "sglang" not in joined or dockerfile_block(doc, _pieces(lines)):
            return
        if any(_DOCKERFILE_LINE.match(line) for _, line in lines):
            _unread_launcher(doc, lines, [], "it is not a Dockerfile speclint could read", True)
            return
        tag = "bash"  # a `docker run ...` command shown under the `docker` tag: read as shell
    if tag in JSON_TAGS and "sglang" in joined and json_block(doc, _pieces(lines)):
        return
    if tag in UNIT_TAGS or (tag == "" and joined.lstrip().startswith(("[Unit]", "[Service]", "[Container]"))):
        kind = _unit_kind(joined)
        if kind is not None:
            if any(word in ("...", "\u2026") for _, line in lines for word in line.split()):
                _elided_unit(doc, lines)
            else:
                _unit_block(doc, lines, kind)
            return
        if tag:
            return
    if (tag in CMD_TAGS or tag in POWERSHELL_TAGS) and DOC_LAUNCHER.search(joined):
        kept = launch_lines(tag, lines)
        if kept is None or not doc.shell(windows_pieces(*kept), "warn"):
            why = f"a `{tag}` block is read only when it holds just the launch, in plain words"
            _unread_launcher(doc, lines, [], why)
        return
    if tag not in SHELL_TAGS and tag not in TEXT_TAGS and tag != "":
        if DOC_LAUNCHER.search(joined):  # (`powershell`, `diff`, `json`, `toml` ...)
            _unread_launcher(doc, lines, [], f"speclint does not read `{tag}` code blocks")
        return
    if "--speculative-" in joined and not DOC_LAUNCHER.search(joined) and block_flag_list(doc, lines):
        return
    if "sglang" not in joined:
        return
    prompted = (
        any(p in joined for p in ("$ ", "# ", "% ", "\u276f "))
        and any(_PROMPT.match(line) for _, line in lines)
    ) or ("\n>" in joined and any(_ps2_opened(lines, i) for i in range(len(lines))))
    windows = tag not in SHELL_TAGS - CONSOLE_TAGS and ":\\" in joined and windows_prompted(lines)
    if tag in TEXT_TAGS and not prompted and not windows:  # (a `text` block with prompts is a pasted session)
        if any(_starts_launch(line) for _, line in lines):  # shown, not run: said, not silent
            _unread_launcher(doc, lines, [], f"a `{tag}` block is shown as text, not read as a command")
        return
    if joined.lstrip().startswith("--") and block_prefixed_list(doc, lines):
        return
    if windows:  # `PS C:\work> python -m ...`, `C:\Users\me>python -m ...`
        lines = session(lines)
    elif tag in CONSOLE_TAGS or prompted:
        lines = _console(lines, root_prompt=tag in CONSOLE_TAGS)
    elif "Traceback (most recent call last):" in joined:
        lines = _without_tracebacks(lines)
    if "Warning: " in joined:  # (a Python warning printed with the command: output)
        from .warning_lines import without_warnings

        lines = without_warnings(lines)
    if "INFO" in joined or "] " in joined or " - " in joined:  # (a server log pasted under it)
        from .warning_lines import without_log_lines

        lines = without_log_lines(lines)
    if "!" in joined or "%" in joined:  # (no other line is changed)
        lines = [_unescape(offset, line) for offset, line in lines]
    # a tagged shell block that does not parse is a warning; an untagged block may be output
    before = len(doc.result.diagnostics)
    pieces = windows_pieces(lines) if continued(lines) else _pieces(lines)  # `^`, backtick
    if not doc.shell(pieces, "warn" if tag else "drop"):
        _unread_launcher(doc, lines, doc.result.diagnostics[before:])


def _after_side(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The text a unified diff leaves (its added and context lines, their marker column
    dropped), read as an untagged block: a removed line is left out, so a `\\`-continued
    command joins its next kept line, as in the changed file; headers (`diff --git`, `---`,
    `+++`, `@@`, `index`, `\\ No newline`) and the fence lines of a diffed Markdown file are
    blank."""
    kept = []
    for offset, line in lines:
        if line.startswith("-") and not line.startswith("--- "):
            continue
        if line.startswith(("+++ ", "--- ", "@@", "diff ", "index ", "\\")):
            kept.append((offset + len(line), ""))
            continue
        if line[:1] in ("+", " "):
            offset, line = offset + 1, line[1:]
        kept.append((offset + len(line), "") if line.lstrip().startswith("```") else (offset, line))
    return kept


def _starts_launch(line: str) -> bool:
    """A line that opens with the launcher (`VAR=x python -m sglang.launch_server`, `sglang
    serve`): a command pasted as text, not a log line that quotes one."""
    from speclint.frontends.recognise import PROSE_LAUNCH

    return PROSE_LAUNCH.match(line.lstrip()) is not None
