"""VS Code debug configurations that start SGLang (`.vscode/launch.json`, a ```json fence).

A configuration `{"type": "debugpy", "request": "launch", "module": "sglang.launch_server",
"args": [...], "env": {...}}` runs `python -m MODULE ARGS...` with `env` added to the
environment (VS Code's "Python debugger" documentation, debugpy's launch schema). The file
is JSON with comments and trailing commas (VS Code's JSONC), so it is read by a small parser of
our own that keeps every string's place: each word points where the file writes it. VS Code
substitutes `${workspaceFolder}`, `${env:NAME}`, `${input:x}` and its other variables when the
configuration runs: each is an unknown value, never its text. `args` written as one string
(VS Code hands it to the terminal's shell) is unknown as a whole.
"""

from __future__ import annotations

import json
import re

from speclint.core.launches import ExtractResult
from speclint.core.words import Word
from speclint.frontends.recognise import module_entry
from speclint.frontends.shell.embedded import ArgvItem, ShellBuffer
from speclint.frontends.shell.pieces import Piece, line_starts, span_of

_SPACE = re.compile(r"(?:\s+|//[^\n]*|/\*.*?\*/)*", re.S)
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"', re.S)
_SCALAR = re.compile(r"-?[0-9][0-9.eE+-]*|true|false|null")
_ESCAPE = re.compile(r"\\(?:u[0-9a-fA-F]{4}|.)", re.S)
_VARIABLE = re.compile(r"\$\{[^}]*\}")


class _String:
    """A JSON string token: its decoded value and where the token stands (quotes included)."""

    def __init__(self, value: str, begin: int, end: int) -> None:
        self.value, self.begin, self.end = value, begin, end


class _Scalar(_String):
    """A number, `true`, `false` or `null` (its text)."""


class _Object(list[tuple[_String, object]]):
    """A JSON object as its (key, value) pairs in file order."""

    def get(self, key: str) -> object:
        return next((value for name, value in self if name.value == key), None)


class _Parser:
    """JSONC (comments, trailing commas) into `_Object`, lists, `_String` and other scalars
    (their text); ValueError where the text is not JSONC."""

    def __init__(self, text: str) -> None:
        self.text, self.at = text, 0

    def space(self) -> None:
        self.at = _SPACE.match(self.text, self.at).end()  # type: ignore[union-attr]  # (always matches)

    def value(self, depth: int = 0) -> object:
        if depth > 100:
            raise ValueError("nested too deep")
        self.space()
        char = self.text[self.at : self.at + 1]
        if char in ("{", "["):
            closing = "}" if char == "{" else "]"
            self.at += 1
            items: list[object] = []
            pairs = _Object()
            while True:
                self.space()
                if self.text.startswith(closing, self.at):
                    self.at += 1
                    return pairs if char == "{" else items
                if char == "{":
                    key = self.value(depth + 1)
                    self.space()
                    if not isinstance(key, _String) or not self.text.startswith(":", self.at):
                        raise ValueError(f"expected a key at {self.at}")
                    self.at += 1
                    pairs.append((key, self.value(depth + 1)))
                else:
                    items.append(self.value(depth + 1))
                self.space()
                if self.text.startswith(",", self.at):
                    self.at += 1
                elif not self.text.startswith(closing, self.at):
                    raise ValueError(f"expected ',' or {closing!r} at {self.at}")
        match = _STRING.match(self.text, self.at) or _SCALAR.match(self.text, self.at)
        if match is None:
            raise ValueError(f"unexpected text at {self.at}")
        self.at = match.end()
        token = match.group()
        if token.startswith('"'):
            return _String(json.loads(token), match.start(), match.end())
        return _Scalar(token, match.start(), match.end())


def _pieces(text: str, token: _String) -> list[Piece]:
    """The string's characters, each mapped to where it is written (an escape to the whole
    escape), VS Code's `${...}` variables as unknown runs."""
    pieces: list[Piece] = []
    position, end = token.begin + 1, token.end - 1
    for match in _VARIABLE.finditer(text, position, end):
        pieces.extend(_literal(text, position, match.start()))
        reason = f"`{match.group()}` is filled in by VS Code when the configuration runs"
        pieces.append(Piece(None, match.start(), match.end(), reason=reason))
        position = match.end()
    pieces.extend(_literal(text, position, end))
    return pieces or [Piece("", token.begin, token.end)]


def _literal(text: str, begin: int, end: int) -> list[Piece]:
    pieces: list[Piece] = []
    position = begin
    for match in _ESCAPE.finditer(text, begin, end):
        if match.start() > position:
            pieces.append(Piece(text[position : match.start()], position, match.start(), exact=True))
        pieces.append(Piece(json.loads('"' + match.group() + '"'), match.start(), match.end()))
        position = match.end()
    if end > position:
        pieces.append(Piece(text[position:end], position, end, exact=True))
    return pieces


def _configurations(node: object, depth: int = 0) -> list[_Object]:
    """Every object with `"request": "launch"` and a `module`, wherever it is nested
    (launch.json's `configurations`, a workspace file's `launch`)."""
    found: list[_Object] = []
    if depth > 100:
        return found
    if isinstance(node, _Object):
        request, module = node.get("request"), node.get("module")
        if isinstance(request, _String) and request.value == "launch" and isinstance(module, _String):
            found.append(node)
        for _, value in node:
            found.extend(_configurations(value, depth + 1))
    elif isinstance(node, list):
        for item in node:
            found.extend(_configurations(item, depth + 1))
    return found


def extract_vscode_launch(text: str, path: str) -> ExtractResult:
    """The launches of the debug configurations in a VS Code launch file."""
    result = ExtractResult()
    try:
        root = _Parser(text).value()
    except (ValueError, RecursionError):
        return result  # not JSONC: a file naming the launcher is then reported (no launch found)
    starts = line_starts(text)
    for configuration in _configurations(root):
        module = configuration.get("module")
        assert isinstance(module, _String)
        if module_entry(module.value) is None:
            continue
        buffer = ShellBuffer(text, starts)
        for word in ("python", "-m"):
            buffer.add_word(ArgvItem([Piece(word, module.begin + 1, module.end - 1)]))
        buffer.add_word(ArgvItem(_pieces(text, module)))
        args = configuration.get("args")
        if isinstance(args, list):
            args_key = next(key for key, value in configuration if value is args)
            for item in args:
                if isinstance(item, _Scalar) or not isinstance(item, _String):
                    begin, end = (
                        (item.begin, item.end)
                        if isinstance(item, _String)
                        else (args_key.begin, args_key.end)
                    )
                    reason = "an `args` item that is not a string (VS Code takes strings)"
                    buffer.add_word(ArgvItem([Piece(None, begin, end, reason=reason)]))
                else:
                    buffer.add_word(ArgvItem(_pieces(text, item)))
        elif isinstance(args, _String):
            reason = "`args` written as one string, which VS Code hands to the terminal's shell"
            buffer.add_word(ArgvItem([Piece(None, args.begin, args.end, reason=reason)], splat=True))
        buffer.walk(path, result, _env(text, starts, configuration.get("env")))
    return result


def _env(text: str, starts: list[int], node: object) -> dict[str, Word]:
    """The configuration's `env` (added to VS Code's environment)."""
    env: dict[str, Word] = {}
    if not isinstance(node, _Object):
        return env
    for key, value in node:
        if not isinstance(value, _String):
            continue
        span = span_of(starts, value.begin, value.end)
        variable = _VARIABLE.search(value.value)
        if variable is None:
            env[key.value] = Word(value.value, span, span)
        else:
            reason = f"`{variable.group()}` is filled in by VS Code when the configuration runs"
            env[key.value] = Word(None, span, span, dynamic_reason=reason)
    return env
