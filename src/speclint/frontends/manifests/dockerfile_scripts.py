"""A script a Dockerfile writes and then starts: `RUN cat > /start.sh <<EOF ... EOF`,
`COPY <<EOF /start.sh`, `RUN echo '...' > /start.sh` / `printf '...\\n' >> /start.sh`, then
`CMD ["bash", "/start.sh"]` or `ENTRYPOINT ["/start.sh"]`.

The script's text is kept with every character at its place in the Dockerfile, so the launch
inside it is read as the shell code the container runs and findings point into the
Dockerfile. Docker's reference (Here-Documents): a here-document with an unquoted delimiter
has its variables expanded at build time (`RUN`: by the shell, which has the `ARG`/`ENV`
values; `COPY`: by BuildKit, from the same), `\\$X` leaving `$X` to the script; a quoted one
is written as it stands. Expansions speclint does not follow there (`$(...)`, backquotes,
`${X:-...}`) make the written text unknown: such a script is reported, never guessed.
"""

from __future__ import annotations

import re

from speclint.core.records import dataclass
from speclint.frontends.manifests.dockerfile_text import split_words
from speclint.frontends.recognise import names_launcher
from speclint.frontends.shell.pieces import Piece, known_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.words import Word
    from speclint.frontends.manifests.dockerfile_text import Instruction
    from speclint.frontends.shell.embedded import ArgvItem

_HEREDOC = re.compile(r"<<(-?)(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\2")
_SEPARATOR = re.compile(r"&&|\|\||;|\|")
_EXPANSION = re.compile(r"\\[\\$`\n]|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)|\$\(|\$\{|`")
_SHELLS = frozenset({"sh", "bash", "dash", "/bin/sh", "/bin/bash", "/usr/bin/bash", "/usr/bin/env"})
_PLAIN = re.compile(r"[\w./=:-]+")
_RUN_OPTION = re.compile(r"-[a-z]*c[a-z]*")
"""`-c`, `-lc`, `-ec`, `-xc`: a shell's options ending its own with the code to run."""
_PRINTF_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\"}


@dataclass
class WrittenScript:
    """A file some instruction wrote: its text (None when not known) and why not."""

    pieces: list[Piece] | None
    unread: str = ""
    """Why the text is not known (when `pieces` is None)."""
    launcher: bool = False
    """Whether the unknown text names SGLang's launcher."""
    source: str | None = None
    """For a file `COPY SRC DEST` puts there from the build context: SRC (read from disk
    next to the Dockerfile by `dockerfile_copied`)."""


def record_writes(
    instruction: Instruction,
    text: str,
    starts: list[int],
    known: dict[str, Word],
    into: dict[str, WrittenScript],
) -> None:
    """Add the files a `RUN` or `COPY` instruction writes (path -> script) to `into`."""
    bodies = _bodies(instruction, text, starts)
    if instruction.keyword == "COPY":
        words = [instruction.text[b:e] for b, e in split_words(instruction.text)]
        words = [w for w in words if not w.startswith("--")]
        if len(words) == 2 and bodies and words[0] == bodies[0][0] and not words[1].endswith("/"):
            into[words[1]] = _script(*bodies[0][1:], known)
        elif len(words) == 2 and not bodies and "--from" not in instruction.text:
            _copied(words[0], words[1], into)
        return
    command = instruction.text
    heredocs = iter(bodies)
    start = 0
    for separator in [*_SEPARATOR.finditer(command), None]:
        end = separator.start() if separator is not None else len(command)
        _command(instruction, start, end, heredocs, known, into)
        start = separator.end() if separator is not None else end


def _copied(source: str, target: str, into: dict[str, WrittenScript]) -> None:
    """`COPY start.sh /start.sh` (or `COPY start.sh /` / `.`: the file keeps its name) of one
    plain file of the build context; a pattern, a variable or a URL is not followed."""
    if not _PLAIN.fullmatch(source) or not _PLAIN.fullmatch(target) or source.endswith(("/", ".")):
        return
    if target == "." or target.endswith("/"):
        target = target.rstrip("/") + "/" + source.rsplit("/", 1)[-1]
    into[target] = WrittenScript(None, source=source)
    if target.startswith("./"):  # relative to the WORKDIR, as a relative CMD path is
        into[target[2:]] = into[target]


def _command(
    instruction: Instruction,
    start: int,
    end: int,
    heredocs: Iterator[tuple[str, str, int, bool]],
    known: dict[str, Word],
    into: dict[str, WrittenScript],
) -> None:
    """One simple command of a RUN line: `cat > F <<EOF`, `tee F <<EOF`, `echo S > F`,
    `printf S >> F`."""
    words = [(start + b, start + e) for b, e in split_words(instruction.text[start:end])]
    texts = [instruction.text[b:e] for b, e in words]
    body = None
    for _ in range(sum(len(_HEREDOC.findall(t)) for t in texts)):
        body = next(heredocs, None)  # each opens its own body; the last one is the stdin
    # a redirection may stand anywhere in a command: `<<EOT cat > /start.sh` runs `cat`
    kept = [k for k, t in enumerate(texts) if not _HEREDOC.match(t)]
    words, texts = [words[k] for k in kept], [texts[k] for k in kept]
    if not texts:
        return
    target, append = _redirect_target(texts)
    program = texts[0]
    if program == "tee" and body is not None:
        paths = [t for t in texts[1:] if not t.startswith(("-", "<", ">"))]
        target, append = (paths[0] if paths else None), "-a" in texts
    if target is None:
        return
    if program in ("cat", "tee") and body is not None:
        written = _script(*body[1:], known)
    elif program in ("echo", "printf") and body is None:
        written = _printed(instruction, program, words, texts)
    else:
        return
    previous = into.get(target)
    if append and previous is not None:
        pieces = (
            previous.pieces + written.pieces
            if previous.pieces is not None and written.pieces is not None
            else None
        )
        written = WrittenScript(
            pieces, previous.unread or written.unread, previous.launcher or written.launcher
        )
    into[target] = written


def _redirect_target(texts: list[str]) -> tuple[str | None, bool]:
    """The file an output redirection writes (`> F`, `>F`, `>> F`) and whether it appends."""
    for index, word in enumerate(texts):
        for operator in (">>", ">"):
            if word.startswith(operator) and not word.startswith(">&"):
                rest = word[len(operator) :] or (texts[index + 1] if index + 1 < len(texts) else "")
                return (rest or None), operator == ">>"
    return None, False


def _bodies(instruction: Instruction, text: str, starts: list[int]) -> list[tuple[str, str, int, bool]]:
    """(`<<EOF` as written, body, its file offset, quoted) of each here-document the instruction opens,
    in order: the bodies follow its last line, each ended by its delimiter line."""
    from bisect import bisect_right

    last = instruction.offsets[-1] if instruction.offsets else instruction.keyword_at
    line = bisect_right(starts, last)  # the index of the line after the instruction's last
    found = []
    for match in _HEREDOC.finditer(instruction.text):
        strip, quoted, word = match.group(1) == "-", bool(match.group(2)), match.group(3)
        begin = starts[line] if line < len(starts) else len(text)
        end = begin
        while line < len(starts):
            line_end = starts[line + 1] if line + 1 < len(starts) else len(text)
            current = text[starts[line] : line_end].rstrip("\n").rstrip("\r")
            line += 1
            if (current.lstrip("\t") if strip else current) == word:
                break
            end = line_end
        found.append((match.group(0), text[begin:end], begin, quoted))
    return found


def _script(body: str, begin: int, quoted: bool, known: dict[str, Word]) -> WrittenScript:
    """The text a here-document writes, expanded at build time unless its delimiter is quoted."""
    if quoted or not body:
        return WrittenScript([Piece(body, begin, begin + len(body), exact=True)] if body else [])
    pieces: list[Piece] = []
    position = 0
    for match in _EXPANSION.finditer(body):
        at, after = match.start(), match.end()
        if at > position:
            pieces.append(Piece(body[position:at], begin + position, begin + at, exact=True))
        position = after
        token = match.group()
        name = match.group(1) or match.group(2)
        if token.startswith("\\"):
            if token[1] != "\n":  # `\<newline>` is removed; `\$` is `$` in the script
                pieces.append(Piece(token[1], begin + at, begin + after))
        elif name is not None:
            word = known.get(name)
            if word is None:
                reason = (
                    f"${name} is expanded when the image is built and no ARG or ENV before this line sets it"
                )
                pieces.append(Piece(None, begin + at, begin + after, reason=reason))
            else:
                pieces.append(Piece(word.text, begin + at, begin + after, reason=word.dynamic_reason))
        else:
            why = f"the build expands `{token}` in its unquoted here-document: the text written is not known"
            return WrittenScript(None, why, names_launcher(body.encode()))
    if position < len(body):
        pieces.append(Piece(body[position:], begin + position, begin + len(body), exact=True))
    return WrittenScript(pieces)


def _printed(
    instruction: Instruction, program: str, words: list[tuple[int, int]], texts: list[str]
) -> WrittenScript:
    """What `echo 'TEXT'` (TEXT and a newline) or `printf 'TEXT'` (its `\\n`, `\\t`, `\\\\`
    escapes decoded) writes; a form speclint does not decode (options, several words,
    expansions, other escapes or `%` directives) is reported as not read."""
    ends = next((k for k, t in enumerate(texts) if t.startswith(">")), len(texts))
    raw_command = " ".join(texts).encode()
    unread = WrittenScript(
        None, f"speclint reads `{program}` writing one quoted string only", names_launcher(raw_command)
    )
    if ends != 2:
        return unread
    begin, end = words[1]
    raw = texts[1]
    if (
        len(raw) < 2
        or raw[0] not in "'\""
        or raw[-1] != raw[0]
        or (raw[0] == '"' and re.search(r"[$`]", raw))
    ):
        return unread
    inner_begin, inner_end = begin + 1, end - 1
    inner = instruction.text[inner_begin:inner_end]
    if program == "echo":
        if "\\" in inner:  # `sh`'s echo (dash) decodes escapes, bash's does not
            return unread
        newline_at = instruction.offsets[end - 1] + 1
        return WrittenScript(
            [*instruction.pieces(inner_begin, inner_end), Piece("\n", newline_at, newline_at)]
        )
    if "%" in inner.replace("%%", ""):
        return unread
    pieces: list[Piece] = []
    position = 0
    for match in re.finditer(r"\\(.)|%%", inner):
        escape = match.group(1)
        decoded = "%" if escape is None else _PRINTF_ESCAPES.get(escape)
        if decoded is None:
            return unread
        if match.start() > position:
            pieces += instruction.pieces(inner_begin + position, inner_begin + match.start())
        at, after = (
            instruction.offsets[inner_begin + match.start()],
            instruction.offsets[inner_begin + match.end() - 1],
        )
        pieces.append(Piece(decoded, at, after + 1))
        position = match.end()
    if position < len(inner):
        pieces += instruction.pieces(inner_begin + position, inner_end)
    return WrittenScript(pieces)


def script_run(words: list[ArgvItem], scripts: dict[str, WrittenScript]) -> WrittenScript | None:
    """The written script the container's command runs, if it is one the Dockerfile wrote or
    copied: `/start.sh ARGS`, `bash /start.sh`, `exec /start.sh`, and a shell given the code
    that runs it (`bash -c /start.sh`, `sh -c "exec /start.sh --port 30000"`), that code
    written in plain words."""
    texts = [known_text(item.pieces) for item in words[:3]]
    if len(texts) == 3 and texts[0] in _SHELLS and _RUN_OPTION.fullmatch(texts[1] or "") and texts[2]:
        code = texts[2]
        spans = split_words(code)
        if not spans or not all(_PLAIN.fullmatch(code[b:e]) for b, e in spans):
            return None
        texts = [code[b:e] for b, e in spans[:3]]
    return run_by(texts, scripts)


def run_by(texts: list[str | None], scripts: dict[str, WrittenScript]) -> WrittenScript | None:
    """The script of `scripts` that a command of these words runs (`exec` dropped)."""
    if texts and texts[0] == "exec":
        texts = texts[1:]
    if texts and texts[0] in scripts:
        return scripts[texts[0] or ""]
    if len(texts) >= 2 and texts[0] in _SHELLS and texts[1] in scripts:
        return scripts[texts[1] or ""]
    return None
