"""Dockerfile front-end: the command an image starts with, read without building anything.

A stage's `ENTRYPOINT` and `CMD` (exec form: a JSON array, no shell and no variable
expansion; shell form: `/bin/sh -c TEXT`, read by the shell front-end) become the launch,
combined as Docker combines them. `ENV` (both syntaxes) is the launch's environment; `ARG`
defaults and `ENV` values fill `${VAR}` where Docker substitutes them (`FROM`, `ENV`); the
`FROM` image tag picks the SGLang version as a `docker run` image does, unless a later RUN of
the stage pip-installs an exact SGLang release (`pip install "sglang[all]==0.4.6"`), which
does. Continuation lines (`\\`, or the `# escape=` directive), comment lines inside them and
heredocs are followed with every character's file position kept.
"""

from __future__ import annotations

import json
import re
from dataclasses import field

from speclint.core.launches import Diagnostic, ExtractResult
from speclint.core.records import dataclass
from speclint.core.spans import Span
from speclint.core.words import Word
from speclint.frontends.manifests.dockerfile_scripts import WrittenScript, record_writes, script_run
from speclint.frontends.manifests.dockerfile_text import Instruction, instructions, split_words, substitute
from speclint.frontends.shell.embedded import ArgvItem, Budget, ShellBuffer
from speclint.frontends.shell.pieces import Piece, line_starts, span_of

_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_PLAIN = re.compile(r"[\w./=:-]+")


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
    scripts: dict[str, WrittenScript] = field(default_factory=dict)
    """Files the stage's RUN and COPY instructions write (`dockerfile_scripts`)."""
    uncertain: Span | None = None
    """A `pip install sglang==X` the stage's last pinning RUN runs on some paths only
    (after `||`, inside `if`/`case`): where; the release its launch runs is not known."""


def extract_dockerfile(text: str, path: str, built: bool = True) -> ExtractResult:
    """The launch each stage starts with (`ENTRYPOINT` + `CMD`), with its ENV and image.
    `built`: the file is built from its folder (not a Dockerfile shown in a document), so a
    script it copies from the build context is read from there."""
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
        if keyword == "RUN" and stage is not None and "sglang" in instruction.text:
            pin = _installed_pin(instruction.text)  # the stage's SGLang is then that release
            if pin is not None and _branches(instruction.text):
                stage.uncertain = instruction.span(starts, pin[1], pin[2])
            elif pin is not None:
                stage.image = (pin[0], instruction.span(starts, pin[1], pin[2]))
                stage.uncertain = None
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
        elif (
            keyword in ("RUN", "COPY")
            and stage is not None
            and (keyword == "COPY" or "<<" in instruction.text or ">" in instruction.text)
        ):
            record_writes(instruction, text, starts, {**stage.args, **stage.env}, stage.scripts)
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
            _launch(stage, text, starts, path, result, budget, path if built else None)
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


def _installed_pin(text: str) -> tuple[str, int, int] | None:
    """The last requirement pinning SGLang exactly (`versions.package_pin`) that a `pip
    install` (`pip3`, `python -m pip`, `uv pip`) of a RUN line installs: its text, begin, end."""
    from speclint.sglang.flags.versions import package_pin

    found = None
    installing = False
    previous = ""
    for begin, end in split_words(text):
        raw = text[begin:end].rstrip(";")
        quoted = raw[:1] in ("'", '"') and raw[-1:] == raw[:1] and len(raw) > 1
        word = raw[1:-1] if quoted else raw
        if word == "install" and previous.rsplit("/", 1)[-1] in ("pip", "pip3"):
            installing = True
        elif installing and package_pin(word):
            found = (word, begin + quoted, begin + quoted + len(word))
        if word in ("&&", "||", "|", ";") or text[begin:end].endswith(";"):
            installing = False
        previous = word
    return found


def _from(
    instruction: Instruction, starts: list[int], global_args: dict[str, Word], named: dict[str, _Stage]
) -> _Stage:
    words = [(b, e) for b, e in split_words(instruction.text) if not instruction.text[b:e].startswith("--")]
    if not words:
        return _Stage(None, None)
    begin, end = words[0]
    name = None
    if len(words) >= 3 and instruction.text[words[1][0] : words[1][1]].upper() == "AS":
        name = instruction.text[words[2][0] : words[2][1]].lower()
    value, _reason, _ = substitute(instruction.text[begin:end], global_args)
    span = instruction.span(starts, begin, end)
    base = named.get(value.lower()) if value is not None else None
    if base is not None:  # `FROM builder`: the stage's image, environment and command
        stage = _Stage(name, base.image, dict(base.env), dict(base.args), base.entrypoint, base.cmd)
        stage.scripts, stage.uncertain = dict(base.scripts), base.uncertain
        return stage
    return _Stage(name, (value, span))


def _arg(
    instruction: Instruction,
    starts: list[int],
    into: dict[str, Word],
    known: dict[str, Word],
    global_args: dict[str, Word],
) -> None:
    for begin, end in split_words(instruction.text):
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
        value, reason, _ = substitute(default, known)
        value_span = instruction.span(starts, begin + len(name) + 1, end) if default else span
        into[name] = Word(value, value_span, value_span, dynamic_reason=reason if value is None else None)


def _env(instruction: Instruction, starts: list[int], stage: _Stage) -> None:
    words = split_words(instruction.text)
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
    value, reason, _ = substitute(raw, known)
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


def _run_arguments(entry: Instruction) -> ArgvItem:
    """An exec-form ENTRYPOINT with no CMD is an image run as `docker run IMAGE ARGS...`: the
    words given there (the model, most often) are appended, unknown here, at the ENTRYPOINT."""
    at = entry.keyword_at
    reason = "the arguments given to `docker run` after the image (the Dockerfile has no CMD)"
    return ArgvItem([Piece(None, at, at + len(entry.keyword), reason=reason)], splat=True)


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
    stage: _Stage,
    text: str,
    starts: list[int],
    path: str,
    result: ExtractResult,
    budget: Budget,
    context: str | None,
) -> None:
    buffer = ShellBuffer(text, starts, budget)
    entry, cmd = stage.entrypoint, stage.cmd
    entry_words = _exec_form(entry) if entry is not None else None
    if entry is not None and entry_words is None:
        _not_json(entry, starts, result)
        _shell_form(entry, stage, starts, buffer, result, context)  # shell-form ENTRYPOINT: CMD is ignored
    else:
        words = list(entry_words or [])
        if cmd is not None:
            cmd_words = _exec_form(cmd)
            if cmd_words is None:
                _not_json(cmd, starts, result)
                if not words:
                    _shell_form(cmd, stage, starts, buffer, result, context)
                else:
                    words += _shell_words(cmd, starts)
            else:
                words += cmd_words
        elif entry is not None and entry_words:
            words.append(_run_arguments(entry))
        script = script_run(words, stage.scripts) if stage.scripts else None
        if script is not None:  # the script a RUN or COPY wrote, read as the code it holds
            _written_script(script, entry or cmd, starts, buffer, result, stage, context)
        else:
            for item in words:
                buffer.add_word(item)
    count = len(result.launches)
    buffer.walk(path, result, stage.env, stage.image)
    for launch in result.launches[count:]:
        for name, word in stage.env.items():
            launch.env.setdefault(name, word)
    if stage.uncertain is not None and len(result.launches) > count:
        result.diagnostics.append(
            Diagnostic(
                "release-uncertain",
                "this `pip install` of an SGLang release runs on some paths of the RUN only (after "
                "`||`, or in an `if`/`case`): the release the stage's launch runs is not known, so "
                "its flags are checked against the release the summary names, unverified for this one",
                stage.uncertain,
            )
        )


def _branches(text: str) -> bool:
    """Whether a RUN's shell code has a path that skips a command: `||`, or an `if`/`case`."""
    words = [text[b:e].rstrip(";") for b, e in split_words(text)]
    return "||" in words or any(w in ("if", "case", "elif", "else") for w in words)


def _shell_form(
    instruction: Instruction,
    stage: _Stage,
    starts: list[int],
    buffer: ShellBuffer,
    result: ExtractResult,
    context: str | None,
) -> None:
    """`/bin/sh -c TEXT`: the written script when TEXT only runs it (`/start.sh`, `bash
    /start.sh`), else TEXT as shell code."""
    words = split_words(instruction.text) if stage.scripts else []
    plain = [ArgvItem(instruction.pieces(b, e)) for b, e in words if _PLAIN.fullmatch(instruction.text[b:e])]
    script = script_run(plain, stage.scripts) if plain and len(plain) == len(words) else None
    if script is not None:
        _written_script(script, instruction, starts, buffer, result, stage, context)
    else:
        buffer.add_code(instruction.pieces())


def _written_script(
    script: WrittenScript,
    instruction: Instruction | None,
    starts: list[int],
    buffer: ShellBuffer,
    result: ExtractResult,
    stage: _Stage,
    context: str | None,
) -> None:
    """Its code into the buffer (a file copied from the build context: read from disk next
    to the Dockerfile at `context`, `dockerfile_copied`; not for one a document shows); a script whose text is not known and names the launcher is
    reported at the instruction that runs it."""
    if script.pieces is not None:
        buffer.add_code(script.pieces)
        return
    if script.source is not None:
        if context is None:
            return
        from speclint.frontends.manifests.dockerfile_copied import read_copied

        script = read_copied(script.source, context, stage.env, stage.image, buffer.budget, result)
        if script.launcher and instruction is not None:  # not on disk: said at once, launches or not
            message = (
                f"speclint did not read the script {instruction.keyword} runs: {script.unread}, "
                "so nothing in it was checked"
            )
            result.diagnostics.append(Diagnostic("no-launch-found", message, instruction.span(starts)))
        return
    if not script.launcher or instruction is None:
        return
    span = instruction.span(starts)
    why = f"the script {instruction.keyword} runs was written by the Dockerfile, and {script.unread}"
    result.diagnostics.append(Diagnostic("launch-unread", why, span))
    result.diagnostics.append(
        Diagnostic(
            "launcher-not-read",
            f"speclint did not read this launch: {why}, so nothing in it was checked",
            span,
        )
    )


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
