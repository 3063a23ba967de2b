"""Docker Compose's interpolation (Compose specification, "Interpolation"): before it runs
anything, Compose replaces `$NAME`, `${NAME}`, `${NAME:-default}`, `${NAME-default}`,
`${NAME:?error}`, `${NAME?error}`, `${NAME:+replacement}` and `${NAME+replacement}` (nested
in a default too) in every value of the file, `command:`/`entrypoint:` list items and
strings, `environment:` values and `image:` alike, with the variables of the shell that runs
`docker compose` and of the project's `.env` file; `$$` is one literal `$`. A `$` that starts
neither a name nor `${` is kept as written.

So the container never sees `${TP:-2}`: speclint reads each expression as Compose fills it in.
The `.env` file next to the compose file (the project folder Compose reads it from) is read
from disk, its documented syntax (`NAME=value`, `export`, `#` comments, single quotes literal,
double quotes with `\\n`-style escapes); a value that interpolates other variables is unknown.
What the calling shell's environment holds is not known (as for a shell script, a name
nothing in the project sets is unset): `${NAME:-default}` is the default unless `.env` sets
NAME, and `${NAME}` that `.env` does not set is an unknown value whose reason says so.
"""

from __future__ import annotations

import os
import re

import yaml

from speclint.core.spans import Span
from speclint.core.words import Word
from speclint.frontends.shell.pieces import Piece, known_text, unknown_reason

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_OPERATOR = re.compile(r":?[-?+]")
_DOTENV_LINE = re.compile(r"\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*?)\s*$")
_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\", '"': '"', "$": "$"}


class DotEnv:
    """The project's `.env` file as Compose reads it for interpolation: `values` are the
    names it sets (None for a value that interpolates other variables: unknown); `path` the
    file (None: not on disk, or the YAML is not a compose file on disk)."""

    def __init__(self, path: str | None, values: dict[str, str | None]) -> None:
        self.path = path
        self.values = values

    def where(self, name: str) -> str:
        if self.path is None:
            return "no `.env` file is next to the compose file"
        return f"`{os.path.basename(self.path)}` next to the compose file does not set {name}"


def project_dotenv(path: str) -> DotEnv:
    """The `.env` in the compose file's folder (Compose's default project folder), noted
    as a dependency of the result so a change to it re-checks the file."""
    if not path.endswith((".yml", ".yaml")) or not os.path.isfile(path):
        return DotEnv(None, {})
    from speclint.runner.depends import note

    full = os.path.join(os.path.dirname(path), ".env")
    note(os.path.abspath(full))
    try:
        with open(full, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError):
        return DotEnv(None, {})
    return DotEnv(full, parse_dotenv(text))


def parse_dotenv(text: str) -> dict[str, str | None]:
    values: dict[str, str | None] = {}
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = _DOTENV_LINE.match(line)
        if match is None:
            continue
        name, raw = match.groups()
        values[name] = _dotenv_value(raw)
    return values


def _dotenv_value(raw: str) -> str | None:
    if raw[:1] == "'":
        end = raw.find("'", 1)
        return raw[1:end] if end != -1 else None
    if raw[:1] == '"':
        out, at = [], 1
        while at < len(raw) and raw[at] != '"':
            if raw[at] == "\\" and at + 1 < len(raw):
                out.append(_ESCAPES.get(raw[at + 1], "\\" + raw[at + 1]))
                at += 2
                continue
            if raw[at] == "$":
                return None
            out.append(raw[at])
            at += 1
        return "".join(out) if at < len(raw) else None
    value = re.split(r"\s#", raw, maxsplit=1)[0].rstrip()
    return None if "$" in value else value


def interpolate(
    pieces: list[Piece], dotenv: DotEnv, said: list[tuple[int, int, str]] | None = None
) -> list[Piece]:
    """The pieces of one YAML value with each Compose expression replaced by what Compose
    puts there: `.env`'s value or the default (the default at its own place), else an
    unknown run whose reason names the expression; `$$` one `$` standing for both. Each
    default used because the environment decides (nothing in `.env`) is added to `said`:
    where the expression is written and what a finding on its value says (`core.said_values`)."""
    if not any(piece.text is not None and "$" in piece.text for piece in pieces):
        return pieces
    out: list[Piece] = []
    for piece in pieces:
        if piece.text is None or "$" not in piece.text:
            out.append(piece)
        else:
            out.extend(_Scanner(piece, dotenv, said).run(0, len(piece.text)))
    return out


class _Scanner:
    def __init__(self, piece: Piece, dotenv: DotEnv, said: list[tuple[int, int, str]] | None) -> None:
        assert piece.text is not None
        self.piece = piece
        self.text = piece.text
        self.dotenv = dotenv
        self.said = said

    def place(self, start: int, end: int) -> tuple[int, int]:
        if self.piece.exact:
            return self.piece.begin + start, self.piece.begin + end
        return self.piece.begin, self.piece.end

    def literal(self, start: int, end: int) -> Piece:
        begin, stop = self.place(start, end)
        return Piece(self.text[start:end], begin, stop, exact=self.piece.exact)

    def run(self, start: int, end: int) -> list[Piece]:
        out: list[Piece] = []
        kept = at = start
        while (at := self.text.find("$", at, end)) != -1:
            following = self.text[at + 1 : at + 2] if at + 1 < end else ""
            if following == "$":
                stop = at + 2
                made = [Piece("$", *self.place(at, stop))]
            elif following == "{":
                close = _closing_brace(self.text, at + 2, end)
                name = _NAME.match(self.text, at + 2, close) if close != -1 else None
                if close == -1 or name is None:
                    at += 1
                    continue
                stop = close + 1
                made = self.braced(at, name.group(), name.end(), close)
            else:
                name = _NAME.match(self.text, at + 1, end)
                if name is None:
                    at += 1
                    continue
                stop = name.end()
                made = self.value(name.group(), at, stop)
            if at > kept:
                out.append(self.literal(kept, at))
            out.extend(made)
            kept = at = stop
        if end > kept:
            out.append(self.literal(kept, end))
        return out

    def braced(self, start: int, name: str, after: int, close: int) -> list[Piece]:
        """`${NAME}` or `${NAME<op>word}` from `start` to the brace at `close`."""
        if after == close:
            return self.value(name, start, close + 1)
        operator = _OPERATOR.match(self.text, after, close)
        if operator is None:  # `${NAME/a/b}`: not Compose syntax; Compose refuses the file
            return [self.unknown(start, close + 1, "is not an interpolation Compose supports")]
        op, word = operator.group(), operator.end()
        values = self.dotenv.values
        if name in values and values[name] is None:  # `.env` interpolates: unknown
            return self.value(name, start, close + 1)
        is_set = name in values and (values[name] != "" or not op.startswith(":"))
        if op in (":-", "-"):
            if is_set:
                return self.value(name, start, close + 1)
            if self.said is not None and word < close and self.piece.exact:
                from speclint.core.said_values import said_default

                written = self.text[start : close + 1]
                self.said.append((*self.place(start, close + 1), said_default(written, name, op)))
            return self.run(word, close)
        if op in (":?", "?"):
            return self.value(name, start, close + 1, required=True)
        if is_set:  # `:+` / `+`: the replacement when NAME is set
            return self.run(word, close)
        if name in values:  # set but empty, for `:+`
            return []
        return [self.unknown(start, close + 1, self._unset(name))]

    def value(self, name: str, start: int, stop: int, required: bool = False) -> list[Piece]:
        if name in self.dotenv.values:
            text = self.dotenv.values[name]
            if text is None:
                return [
                    self.unknown(start, stop, f"its value in `.env` interpolates other variables ({name})")
                ]
            return [Piece(text, *self.place(start, stop))]
        reason = self._unset(name)
        if required:
            reason += " (Compose stops with an error when it is not set)"
        return [self.unknown(start, stop, reason)]

    def _unset(self, name: str) -> str:
        return (
            f"set by Docker Compose from the environment `docker compose` runs in; {self.dotenv.where(name)}"
        )

    def unknown(self, start: int, stop: int, why: str) -> Piece:
        written = self.text[start:stop]
        return Piece(None, *self.place(start, stop), reason=f"`{written}` is {why}")


def _closing_brace(text: str, at: int, end: int) -> int:
    """The `}` closing a `${` whose body starts at `at` (nested `${...}` in a default)."""
    depth = 0
    while at < end:
        char = text[at]
        if char == "{" and text[at - 1 : at] == "$":
            depth += 1
        elif char == "}":
            if depth == 0:
                return at
            depth -= 1
        at += 1
    return -1


def env_word(pieces: list[Piece], span: Span) -> Word:
    """A compose `environment:` value once interpolated: its text, or unknown and why."""
    text = known_text(pieces)
    return Word(text, span, span, dynamic_reason=None if text is not None else unknown_reason(pieces))


def after_equals(pieces: list[Piece]) -> list[Piece]:
    """The pieces of a `NAME=value` list item after its first `=`."""
    for number, piece in enumerate(pieces):
        if piece.text is not None and "=" in piece.text:
            cut = piece.text.index("=") + 1
            begin = piece.begin + cut if piece.exact else piece.begin
            rest = Piece(piece.text[cut:], begin, piece.end, exact=piece.exact)
            return [rest, *pieces[number + 1 :]]
    return pieces


def interpolated_image(node: yaml.ScalarNode, pieces: list[Piece]) -> yaml.ScalarNode:
    """The service's `image:` as Compose fills it in (`lmsysorg/sglang:${TAG:-v0.5.4}`): a
    node holding the filled-in name where it is known, the node as written where not."""
    text = known_text(pieces)
    if text is None or text == node.value:
        return node
    return yaml.ScalarNode(node.tag, text, node.start_mark, node.end_mark, node.style)


def newlines_as_blanks(pieces: list[Piece]) -> list[Piece]:
    """A string `command:` is split into words, not run by a shell: a line end of a `|`
    block (outside quotes, not after a `\\`) separates two words as a blank does, so the
    flags on the next line are the same command's. Each such line end becomes a blank at its
    place; one inside quotes stays (a `bash -c "..."` script keeps its lines)."""
    out: list[Piece] = []
    quote = ""  # the quote open here: a line end inside quotes is part of the word
    for piece in pieces:
        text = piece.text
        if text is None:
            out.append(piece)
            continue
        start = 0
        escaped = False
        for at, char in enumerate(text):
            if escaped:
                escaped = False
                continue
            if char == "\\" and quote != "'":
                escaped = True
                continue
            if char in "'\"" and quote in ("", char):
                quote = "" if quote else char
                continue
            if char != "\n" or quote:
                continue
            if at > start:
                out.append(_part(piece, start, at))
            out.append(Piece(" ", *(_place(piece, at, at + 1))))
            start = at + 1
        if start < len(text):
            out.append(_part(piece, start, len(text)))
    return out


def _place(piece: Piece, start: int, end: int) -> tuple[int, int]:
    return (piece.begin + start, piece.begin + end) if piece.exact else (piece.begin, piece.end)


def _part(piece: Piece, start: int, end: int) -> Piece:
    assert piece.text is not None
    return Piece(piece.text[start:end], *_place(piece, start, end), exact=piece.exact)
