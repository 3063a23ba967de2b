"""Dockerfile front-end: the command an image starts with, read without building anything.

A stage's `ENTRYPOINT` and `CMD` (exec form: a JSON array, no shell and no variable
expansion; shell form: `/bin/sh -c TEXT`, read by the shell front-end) become the launch,
combined as Docker combines them. `ENV` (both syntaxes) is the launch's environment; `ARG`
defaults and `ENV` values fill `${VAR}` where Docker substitutes them (`FROM`, `ENV`); the
`FROM` image tag picks the SGLang version as a `docker run` image does. Continuation lines
(`\\`, or the `# escape=` directive), comment lines inside them and heredocs are followed
with every character's file position kept.
"""

from __future__ import annotations

import json
import re
from dataclasses import field

from speclint.core.launches import Diagnostic, ExtractResult
from speclint.core.records import dataclass
from speclint.core.spans import Span
from speclint.core.words import Word
from speclint.frontends.shell.embedded import ArgvItem, Budget, Piece, ShellBuffer, line_starts, span_of

_KEYWORD = re.compile(r"[ \t]*([A-Za-z]+)(?=[ \t]|$)")
_DIRECTIVE = re.compile(r"#\s*(escape|syntax|check)\s*=\s*(\S+)\s*$", re.I)
_HEREDOC = re.compile(r"<<(-?)(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\2")
_VAR = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)(?::([-+])((?:[^}\\]|\\.)*))?\}|([A-Za-z_][A-Za-z0-9_]*))")
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


@dataclass
class Instruction:
    """One Dockerfile instruction, continuation lines joined."""

    keyword: str
    keyword_at: int
    """File offset of the keyword."""
    text: str
    """The arguments, continuation lines joined (Docker removes escape + newline)."""
    offsets: list[int]
    """File offset of each character of `text`."""

    def span(self, starts: list[int], begin: int = 0, end: int | None = None) -> Span:
        end = len(self.text) if end is None else end
        if not self.offsets or begin >= end:
            return span_of(starts, self.keyword_at, self.keyword_at + len(self.keyword))
        return span_of(starts, self.offsets[begin], self.offsets[end - 1] + 1)

    def pieces(self, begin: int = 0, end: int | None = None) -> list[Piece]:
        """Exact pieces for text[begin:end]: one per run of adjacent file characters."""
        end = len(self.text) if end is None else end
        pieces: list[Piece] = []
        run = begin
        for index in range(begin + 1, end + 1):
            if index == end or self.offsets[index] != self.offsets[index - 1] + 1:
                pieces.append(
                    Piece(self.text[run:index], self.offsets[run], self.offsets[index - 1] + 1, exact=True)
                )
                run = index
        return pieces


def instructions(text: str) -> tuple[list[Instruction], list[Diagnostic], list[tuple[int, str]]]:
    """The file's instructions, and its comments as (offset, text)."""
    starts = line_starts(text)
    lines = text.split("\n")
    escape = "\\"
    found: list[Instruction] = []
    comments: list[tuple[int, str]] = []
    diagnostics: list[Diagnostic] = []
    index, directives = 0, True
    while index < len(lines):
        line = lines[index].rstrip("\r")
        at = starts[index]
        stripped = line.lstrip(" \t")
        if not stripped or stripped.startswith("#"):
            if stripped.startswith("#"):
                directive = _DIRECTIVE.match(stripped) if directives else None
                if directive and directive.group(1).lower() == "escape" and directive.group(2) in ("`", "\\"):
                    escape = directive.group(2)
                comments.append((at + len(line) - len(stripped), stripped))
            if stripped and not (directives and _DIRECTIVE.match(stripped)):
                directives = False
            index += 1
            continue
        directives = False
        match = _KEYWORD.match(line)
        if match is None:
            diagnostics.append(
                Diagnostic(
                    "syntax-error",
                    "Dockerfile: a line that does not start with an instruction",
                    span_of(starts, at, at + max(1, len(line))),
                )
            )
            index += 1
            continue
        keyword = match.group(1).upper()
        keyword_at = at + match.start(1)
        chars: list[str] = []
        offsets: list[int] = []
        begin = match.end()
        while True:
            body = line[begin:]
            cont = re.search(re.escape(escape) + r"[ \t]*$", body)
            keep = body[: cont.start()] if cont else body
            chars.extend(keep)
            offsets.extend(range(at + begin, at + begin + len(keep)))
            index += 1
            if not cont:
                break
            while index < len(lines):  # comment and empty lines inside a continuation are dropped
                following = lines[index].rstrip("\r").lstrip(" \t")
                if following and not following.startswith("#"):
                    break
                if following:
                    comments.append(
                        (
                            starts[index] + len(lines[index]) - len(lines[index].lstrip(" \t")),
                            following.rstrip("\r"),
                        )
                    )
                index += 1
            if index >= len(lines):
                break
            line, at, begin = lines[index].rstrip("\r"), starts[index], 0
        joined = "".join(chars)
        leading = len(joined) - len(joined.lstrip(" \t"))
        instruction = Instruction(keyword, keyword_at, joined[leading:], offsets[leading:])
        instruction.text = instruction.text.rstrip(" \t")
        del instruction.offsets[len(instruction.text) :]
        found.append(instruction)
        if keyword in ("RUN", "COPY", "ADD"):
            index = _skip_heredocs(instruction.text, lines, index)
    return found, diagnostics, comments


def _skip_heredocs(text: str, lines: list[str], index: int) -> int:
    """The line after the heredoc bodies an instruction opens (`RUN <<EOF ... EOF`)."""
    for match in _HEREDOC.finditer(text):
        strip, word = match.group(1) == "-", match.group(3)
        while index < len(lines):
            body = lines[index].rstrip("\r")
            index += 1
            if (body.lstrip("\t") if strip else body) == word:
                break
    return index


def _split_words(text: str) -> list[tuple[int, int]]:
    """[begin, end) of each whitespace-separated word, quotes and escapes kept together."""
    words, index, length = [], 0, len(text)
    while index < length:
        while index < length and text[index] in " \t":
            index += 1
        if index >= length:
            break
        begin, quote = index, None
        while index < length and (quote or text[index] not in " \t"):
            char = text[index]
            if char == "\\" and quote != "'" and index + 1 < length:
                index += 2
                continue
            if quote is None and char in "'\"":
                quote = char
            elif char == quote:
                quote = None
            index += 1
        words.append((begin, index))
    return words


def _process(raw: str, known: dict[str, Word]) -> tuple[str | None, str | None, bool]:
    """(value, unknown reason, changed) of a word as Docker reads it in FROM/ENV/ARG:
    quotes removed, backslash escapes, `$VAR`/`${VAR}`/`${VAR:-x}`/`${VAR:+x}` replaced
    from the ARG/ENV values known so far. `changed`: the value is not the text as written."""
    out: list[str] = []
    index, quote, changed = 0, None, False
    while index < len(raw):
        char = raw[index]
        if char == "\\" and quote != "'" and index + 1 < len(raw):
            out.append(raw[index + 1])
            index, changed = index + 2, True
            continue
        if quote is None and char in "'\"":
            quote, index, changed = char, index + 1, True
            continue
        if char == quote:
            quote, index = None, index + 1
            continue
        if char == "$" and quote != "'":
            match = _VAR.match(raw, index)
            if match:
                name = match.group(1) or match.group(4)
                word = known.get(name)
                if match.group(2) == "-" and (word is None or word.text == ""):
                    value, reason, _ = _process(match.group(3), known)
                elif match.group(2) == "+":
                    if word is not None and word.text is None:
                        return None, word.dynamic_reason, True
                    value, reason, _ = (
                        _process(match.group(3), known) if word and word.text else ("", None, True)
                    )
                elif word is None:
                    return (
                        None,
                        f"${name} is not set by an ARG or ENV before this line (a build argument?)",
                        True,
                    )
                else:
                    value, reason = word.text, word.dynamic_reason
                if value is None:
                    return None, reason, True
                out.append(value)
                index, changed = match.end(), True
                continue
        out.append(char)
        index += 1
    return "".join(out), None, changed


@dataclass
class _Stage:
    """One `FROM` stage of a Dockerfile: its image and what it sets for the launch."""

    name: str | None
    image: tuple[str | None, Span | None] | None
    env: dict[str, Word] = field(default_factory=dict)
    args: dict[str, Word] = field(default_factory=dict)
    entrypoint: Instruction | None = None
    cmd: Instruction | None = None
    own_command: bool = False
    own_cmd: bool = False


def extract_dockerfile(text: str, path: str) -> ExtractResult:
    """The launch each stage starts with (`ENTRYPOINT` + `CMD`), with its ENV and image."""
    result = ExtractResult()
    starts = line_starts(text)
    found, diagnostics, comments = instructions(text)
    result.diagnostics.extend(diagnostics)
    for offset, comment in comments:
        span = span_of(starts, offset, offset + len(comment))
        result.comments.append((span, comment))
    global_args: dict[str, Word] = {}
    stages: list[_Stage] = []
    named: dict[str, _Stage] = {}
    for instruction in found:
        keyword = instruction.keyword
        stage = stages[-1] if stages else None
        if keyword == "FROM":
            stages.append(_from(instruction, starts, global_args, named))
            if stages[-1].name:
                named[stages[-1].name] = stages[-1]
        elif keyword == "ARG":
            _arg(
                instruction,
                starts,
                stage.args if stage else global_args,
                {**global_args, **(stage.args if stage else {}), **(stage.env if stage else {})},
                global_args,
            )
        elif keyword == "ENV" and stage is not None:
            _env(instruction, starts, stage)
        elif keyword in ("CMD", "ENTRYPOINT") and stage is not None:
            if keyword == "ENTRYPOINT" and not stage.own_cmd:
                stage.cmd = None  # ENTRYPOINT resets the CMD a base stage set
            setattr(stage, keyword.lower(), instruction)
            stage.own_cmd = stage.own_cmd or keyword == "CMD"
            stage.own_command = True
    budget = Budget()
    for stage in stages:
        if not stage.own_command:
            continue
        try:
            _launch(stage, text, starts, path, result, budget)
        except RecursionError:  # a CMD nested thousands deep: report it, keep the rest
            command = stage.cmd or stage.entrypoint
            result.diagnostics.append(
                Diagnostic(
                    "unsupported-input",
                    "nested too deeply for speclint to follow; launches inside are not checked",
                    command.span(starts, 0, 1) if command else Span.point(1, 1),
                )
            )
    result.launches.sort(key=lambda launch: (launch.span.line, launch.span.column))
    return result


def _from(
    instruction: Instruction, starts: list[int], global_args: dict[str, Word], named: dict[str, _Stage]
) -> _Stage:
    words = [(b, e) for b, e in _split_words(instruction.text) if not instruction.text[b:e].startswith("--")]
    if not words:
        return _Stage(None, None)
    begin, end = words[0]
    name = None
    if len(words) >= 3 and instruction.text[words[1][0] : words[1][1]].upper() == "AS":
        name = instruction.text[words[2][0] : words[2][1]].lower()
    value, _reason, _ = _process(instruction.text[begin:end], global_args)
    span = instruction.span(starts, begin, end)
    base = named.get(value.lower()) if value is not None else None
    if base is not None:  # `FROM builder`: the stage's image, environment and command
        return _Stage(name, base.image, dict(base.env), dict(base.args), base.entrypoint, base.cmd)
    return _Stage(name, (value, span))


def _arg(
    instruction: Instruction,
    starts: list[int],
    into: dict[str, Word],
    known: dict[str, Word],
    global_args: dict[str, Word],
) -> None:
    for begin, end in _split_words(instruction.text):
        raw = instruction.text[begin:end]
        name, equals, default = raw.partition("=")
        span = instruction.span(starts, begin, end)
        if not equals:
            if name in global_args and into is not global_args:  # re-declared in a stage: the global default
                into[name] = global_args[name]
            else:
                into[name] = Word(
                    None,
                    span,
                    span,
                    dynamic_reason=f"${name} is a build argument "
                    "with no default (set by `docker build --build-arg`)",
                )
            continue
        value, reason, _ = _process(default, known)
        value_span = instruction.span(starts, begin + len(name) + 1, end) if default else span
        into[name] = Word(value, value_span, value_span, dynamic_reason=reason if value is None else None)


def _env(instruction: Instruction, starts: list[int], stage: _Stage) -> None:
    words = _split_words(instruction.text)
    known = {**stage.args, **stage.env}
    if words and "=" not in instruction.text[words[0][0] : words[0][1]]:
        # legacy `ENV NAME value with blanks`: the rest of the line is the value
        name = instruction.text[words[0][0] : words[0][1]]
        if len(words) > 1:
            begin = words[1][0]
            _set_env(stage, name, instruction.text[begin:], instruction.span(starts, begin), known)
        return
    for begin, end in words:
        raw = instruction.text[begin:end]
        name, equals, value = raw.partition("=")
        if not equals:
            continue
        _set_env(
            stage,
            name,
            value,
            instruction.span(starts, begin + len(name) + 1, end)
            if value
            else instruction.span(starts, begin, end),
            known,
        )


def _set_env(stage: _Stage, name: str, raw: str, span: Span, known: dict[str, Word]) -> None:
    value, reason, _ = _process(raw, known)
    stage.env[name] = Word(value, span, span, dynamic_reason=reason if value is None else None)
    known[name] = stage.env[name]


def _exec_form(instruction: Instruction) -> list[ArgvItem] | None:
    """The words of `["a", "b"]`, or None when the text is not a JSON array of strings
    (Docker then runs it as shell form)."""
    text = instruction.text
    try:
        value = json.loads(text)
    except ValueError:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return None
    items = []
    for match in _STRING.finditer(text):
        body_begin, body_end = match.start(1), match.end(1)
        decoded = json.loads(match.group(0))
        if "\\" in match.group(1) or body_begin == body_end:
            begin = instruction.offsets[match.start()]
            items.append(ArgvItem([Piece(decoded, begin, instruction.offsets[match.end() - 1] + 1)]))
        else:
            items.append(ArgvItem(instruction.pieces(body_begin, body_end)))
    return items if len(items) == len(value) else None


def _shell_words(instruction: Instruction, starts: list[int]) -> list[ArgvItem]:
    """`/bin/sh -c TEXT`, the two synthetic words placed on the keyword."""
    at = instruction.keyword_at
    where = [Piece(None, at, at + len(instruction.keyword))]
    return [
        ArgvItem([Piece("/bin/sh", where[0].begin, where[0].end)]),
        ArgvItem([Piece("-c", where[0].begin, where[0].end)]),
        ArgvItem(instruction.pieces()),
    ]


def _launch(
    stage: _Stage, text: str, starts: list[int], path: str, result: ExtractResult, budget: Budget
) -> None:
    buffer = ShellBuffer(text, starts, budget)
    entry, cmd = stage.entrypoint, stage.cmd
    entry_words = _exec_form(entry) if entry is not None else None
    if entry is not None and entry_words is None:
        _not_json(entry, starts, result)
        buffer.add_code(entry.pieces())  # shell-form ENTRYPOINT: CMD is ignored
    else:
        words = list(entry_words or [])
        if cmd is not None:
            cmd_words = _exec_form(cmd)
            if cmd_words is None:
                _not_json(cmd, starts, result)
                if not words:
                    buffer.add_code(cmd.pieces())
                else:
                    words += _shell_words(cmd, starts)
            else:
                words += cmd_words
        for item in words:
            buffer.add_word(item)
    count = len(result.launches)
    buffer.walk(path, result, stage.env, stage.image)
    for launch in result.launches[count:]:
        for name, word in stage.env.items():
            launch.env.setdefault(name, word)


def _not_json(instruction: Instruction, starts: list[int], result: ExtractResult) -> None:
    """`CMD ['python', ...]` is not JSON: Docker runs the text with /bin/sh, brackets and all."""
    stripped = instruction.text.lstrip()
    if stripped.startswith("[") and "sglang" in instruction.text:
        result.diagnostics.append(
            Diagnostic(
                "syntax-error",
                f"{instruction.keyword} looks like exec form but is not a JSON array of "
                "double-quoted strings: Docker runs it as shell form (`/bin/sh -c` with the brackets)",
                instruction.span(starts, 0, 1),
            )
        )
