"""justfiles and Procfiles: their command lines are shell code.

justfile, as the just manual says ("Recipes", "Recipe Parameters", "Multi-line
Constructs", "Variables and Substitution", "Strings", "Quiet Recipes", "Ignoring Errors",
"Shebang Recipes", "Exporting just Variables"): a recipe is a header at column 0
(`name params: deps`) and its indented body; without a shebang each line runs in a shell of
its own, a line ending in `\\` joined with the next (the backslash and the next line's
indentation dropped); `@` and `-` before a line are just's; `{{expr}}` is the value of
`expr` (`{{{{` is `{{`): a variable set to a string literal (`name := "..."` or `'...'`)
is known, anything else (a recipe parameter, a backtick, a function call, `+`) is given or
worked out when just runs: unknown. A shebang recipe is one shell script when its shebang
names a shell. `export name := ...` (or `set export`) puts the value in the environment.

Procfile, as Heroku's "The Procfile" describes it (foreman and honcho read it the same):
one `process-type: command` per line, the command run by a shell.
"""

from __future__ import annotations

import re

from speclint.core.launches import ExtractResult
from speclint.core.words import Word
from speclint.frontends.commands.text import Char, comment_lines, shell_line, unique_comments, walk_shell
from speclint.frontends.shell.embedded import Budget
from speclint.frontends.shell.pieces import line_starts, span_of

_PROCESS = re.compile(r"([A-Za-z0-9_-]+):[ \t]*")
_ASSIGN = re.compile(r"(export[ \t]+)?([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:=[ \t]*")
_STRING = re.compile(r"\"((?:[^\"\\]|\\.)*)\"[ \t]*(?:#.*)?$|'([^']*)'[ \t]*(?:#.*)?$")
_RECIPE = re.compile(r"@?([A-Za-z_][A-Za-z0-9_-]*)((?:\"[^\"]*\"|'[^']*'|[^:\"'])*):(?!=)")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}
_SHELLS = re.compile(r"#![^\n]*\b(?:bash|sh|zsh|dash|ksh)\b")


def _lines(text: str, starts: list[int]) -> list[tuple[int, str]]:
    ends = [s - 1 for s in starts[1:]] + [len(text)]
    return [(start, text[start:end].rstrip("\r")) for start, end in zip(starts, ends, strict=True)]


def extract_procfile(text: str, path: str) -> ExtractResult:
    """Each process type's command, read as shell code."""
    starts = line_starts(text)
    result = ExtractResult(comments=comment_lines(text, starts))
    budget = Budget()
    for start, line in _lines(text, starts):
        match = _PROCESS.match(line)
        if match is None or "sglang" not in line:
            continue
        chars: list[Char] = [(line[i], start + i, start + i + 1, None) for i in range(match.end(), len(line))]
        walk_shell(result, path, shell_line(text, starts, budget, chars), {})
    unique_comments(result)
    return result


class _Justfile:
    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = line_starts(text)
        self.lines = _lines(text, self.starts)
        self.values: dict[str, list[Char] | str] = {}
        """Variable -> its value's characters, or why it is unknown."""
        self.exported: set[str] = set()
        self.export_all = False

    def assignments(self) -> None:
        for start, line in self.lines:
            match = _ASSIGN.match(line)
            if line.startswith("set export") and ":= false" not in line:
                self.export_all = True
            if match is None:
                continue
            name = match.group(2)
            rest = line[match.end() :]
            string = _STRING.match(rest)
            if string is None or rest.startswith(('"""', "'''")):
                self.values[name] = f"`{name}` is worked out when just runs"
            else:
                group = 1 if string.group(1) is not None else 2
                at = start + match.end() + string.start(group)
                body = string.group(group)
                chars: list[Char] = []
                index = 0
                while index < len(body):  # "..." decodes its escapes; '...' is raw
                    if group == 1 and body[index] == "\\" and index + 1 < len(body):
                        char = _ESCAPES.get(body[index + 1], body[index : index + 2])
                        chars.append((char, at + index, at + index + 2, None))
                        index += 2
                    else:
                        chars.append((body[index], at + index, at + index + 1, None))
                        index += 1
                self.values[name] = chars
            if match.group(1):
                self.exported.add(name)

    def env(self) -> dict[str, Word]:
        env = {}
        for name, value in self.values.items():
            if (self.export_all or name in self.exported) and (value or isinstance(value, str)):
                begin, end = (value[0][1], value[-1][2]) if not isinstance(value, str) else (0, 0)
                span = span_of(self.starts, begin, end)
                known = None if isinstance(value, str) else "".join(c[0] or "" for c in value)
                env[name] = Word(known, span, span, dynamic_reason=value if isinstance(value, str) else None)
        return env

    def recipes(self) -> list[list[list[Char]]]:
        """Each recipe's commands: one per logical line, or the whole body (shebang recipe)."""
        found: list[list[list[Char]]] = []
        index = 0
        while index < len(self.lines):
            start, line = self.lines[index]
            index += 1
            header = _RECIPE.match(line)
            if header is None or line[:1] in (" ", "\t", "#", "["):
                continue
            params = set(re.findall(r"[$+*]?([A-Za-z_][A-Za-z0-9_-]*)", header.group(2).split("=")[0]))
            params |= set(re.findall(r"(?:^|\s)[$+*]?([A-Za-z_][A-Za-z0-9_-]*)(?==)", header.group(2)))
            body: list[tuple[int, str]] = []
            while index < len(self.lines) and (
                self.lines[index][1][:1] in (" ", "\t") or not self.lines[index][1].strip()
            ):
                body.append(self.lines[index])
                index += 1
            found.append(self._commands(body, params))
        return found

    def _commands(self, body: list[tuple[int, str]], params: set[str]) -> list[list[Char]]:
        code = [(start, line) for start, line in body if line.strip()]
        if not code:
            return []
        if code[0][1].lstrip().startswith("#!"):
            if not _SHELLS.match(code[0][1].lstrip()):
                return []
            script: list[Char] = []
            for start, line in body:
                script.extend(self._interpolate(start, line, params))
                script.append(("\n", start + len(line), start + len(line), None))
            return [script]
        commands: list[list[Char]] = []
        current: list[Char] = []
        for start, line in code:
            lead = len(line) - len(line.lstrip())
            if not current:
                while lead < len(line) and line[lead] in "@-":
                    lead += 1
            continued = line.endswith("\\")
            current.extend(self._interpolate(start + lead, line[lead : len(line) - continued], params))
            if not continued:
                commands.append(current)
                current = []
        if current:
            commands.append(current)
        return commands

    def _interpolate(self, start: int, line: str, params: set[str]) -> list[Char]:
        out: list[Char] = []
        index = 0
        while index < len(line):
            if line.startswith("{{{{", index):
                out.extend(("{", start + index + i, start + index + i + 1, None) for i in (2, 3))
                index += 4
                continue
            close = line.find("}}", index + 2) if line.startswith("{{", index) else -1
            if close < 0:
                out.append((line[index], start + index, start + index + 1, None))
                index += 1
                continue
            expr = line[index + 2 : close].strip()
            begin, end = start + index, start + close + 2
            index = close + 2
            value = self.values.get(expr)
            if expr in params:
                out.append(
                    (None, begin, end, f"`{{{{{expr}}}}}` is a recipe parameter: given when just runs")
                )
            elif value is not None and not isinstance(value, str):
                out.extend((char, begin, end, None) for char, _, _, _ in value)  # at `{{name}}`
            else:
                out.append((None, begin, end, f"`{{{{{expr}}}}}` is worked out when just runs"))
        return out


def extract_justfile(text: str, path: str) -> ExtractResult:
    """Each recipe line (or shebang recipe) read as shell code."""
    just = _Justfile(text)
    just.assignments()
    result = ExtractResult(comments=comment_lines(text, just.starts))
    env = just.env()
    budget = Budget()
    for commands in just.recipes():
        for chars in commands:
            if chars and "sglang" in "".join(c[0] or "" for c in chars):
                walk_shell(result, path, shell_line(text, just.starts, budget, chars), env)
    unique_comments(result)
    return result
