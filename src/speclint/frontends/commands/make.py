"""Makefiles: each recipe line as GNU make hands it to the shell.

Read as the GNU make manual says: a recipe line starts with a tab (or the `.RECIPEPREFIX`
character) after a rule line, or follows `;` on it (5.1 "Recipe Syntax"); a backslash-newline
stays in the text the shell gets and the tab that starts the next line is dropped (5.1.1
"Splitting Recipe Lines"); each logical line runs in a shell of its own (5.3 "Recipe
Execution"), so each is read alone, unless `.ONESHELL:` runs a rule's lines in one (5.3.1);
the prefixes `@`, `-`, `+` are make's (5.2, 5.5, 9.3). `$$` is `$` and `$(VAR)`/`${VAR}` the variable's value (6.1): `=` the value last set in the
file, expanded where it is used; `:=`/`::=` expanded where it is set; `?=` its value unless
already set (the environment may set it: read as the shell front-end reads `${X:-default}`);
`+=` appends (6.2, 6.5, 6.6). Unknown, never guessed: a variable the file does not set
(the environment, the command line, an included makefile), a function call (`$(shell ...)`,
`$(or ...)`, 8), an automatic variable (`$@`, 10.5.3), a target-specific value (6.11), one
set with `define` (6.8), `!=`, or inside a conditional (7). Outside recipes a
backslash-newline is one space (3.1.1) and `#` starts a comment, continued by one (3.1).
"""

from __future__ import annotations

import re

from speclint.core.launches import Diagnostic, ExtractResult
from speclint.core.records import dataclass
from speclint.core.words import Word
from speclint.frontends.commands.text import Char, comment_lines, shell_line, unique_comments, walk_shell
from speclint.frontends.shell.embedded import Budget, line_starts, span_of

_ASSIGN = re.compile(r"((?:(?:override|export|private)\s+)*)([^\s:#=?+!$(){}]+)\s*(:::=|::=|:=|\?=|\+=|!=|=)")
_CONDITIONAL = re.compile(r"(ifeq|ifneq|ifdef|ifndef|else|endif)\b")
_NAME = re.compile(r"[^\s:#=$(){},]+")
_AUTOMATIC = "@<^+*?%|"
_MAX_VALUE = 64 * 1024
_LAUNCHER = re.compile(r"sglang(?:_router)?\.launch_server|\bsglang\s+serve\b")


@dataclass
class _Var:
    """A variable set in the makefile: its value's characters (expanded already when it is
    simply expanded), and the line that set it last."""

    chars: list[Char]
    simple: bool
    line: int


class _Makefile:
    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = line_starts(text)
        self.vars: dict[str, _Var | str] = {}
        """Name -> value, or the reason it is unknown."""
        self.exported: set[str] = set()
        self.recipes: list[tuple[int, list[Char]]] = []
        """Each recipe line, prefixes dropped, with the number of the rule it belongs to."""
        self.rules = 0
        self.one_shell = False
        """`.ONESHELL:`: a rule's recipe lines run in one shell (5.3.1 "Using One Shell")."""
        self.expanded: dict[str, list[Char]] = {}
        """A recursively expanded variable's value, worked out once."""
        self.unread: dict[int, tuple[str, int]] = {}
        """Offset of a make function call that names the launcher -> its name, its end."""

    def line(self, number: int) -> tuple[int, str]:
        start = self.starts[number]
        end = self.starts[number + 1] - 1 if number + 1 < len(self.starts) else len(self.text)
        return start, self.text[start:end].rstrip("\r")

    def read(self) -> None:
        prefix, in_rule, depth, number = "\t", False, 0, 0
        while number < len(self.starts):
            first = number + 1
            if in_rule and self.line(number)[1].startswith(prefix):
                number = self._recipe(number, prefix)
                continue
            chars, number = self._logical(number)
            body = "".join(c[0] or "" for c in chars).strip()
            if not body:
                continue
            lead = len(chars) - len("".join(c[0] or "" for c in chars).lstrip())
            conditional = _CONDITIONAL.match(body)
            if conditional:
                depth += {"endif": -1, "else": 0}.get(conditional.group(1), 1)
                depth = max(depth, 0)
                continue
            if body.startswith("define ") or body.startswith(("override define ", "export define ")):
                name = body.split()[-1].rstrip("=:?+!")
                self.vars[name] = f"$({name}) is set with `define` (line {first})"
                while number < len(self.starts) and self.line(number)[1].strip() != "endef":
                    number += 1
                number += 1
                continue
            assign = _ASSIGN.match(body)
            if assign:
                in_rule = False
                self._assign(assign, chars[lead:], first, depth)
                if assign.group(2) == ".RECIPEPREFIX":
                    value = body[assign.end() :].strip()
                    prefix = value[:1] or "\t"
                continue
            if body.split()[0] in ("export", ".EXPORT_ALL_VARIABLES:"):
                words = body.split()[1:]
                self.exported.update(words if words and body.startswith("export") else self.vars)
                continue
            colon = re.search(r":(?!=)", body)
            in_rule = colon is not None and not body.startswith(("include ", "-include ", "vpath "))
            if colon is None:
                continue
            self.rules += 1
            self.one_shell = self.one_shell or body.startswith(".ONESHELL:")
            rest = body[colon.end() :]
            target_assign = _ASSIGN.match(rest.lstrip(": \t"))
            if target_assign:
                name = target_assign.group(2)
                self.vars[name] = f"$({name}) has a target-specific value (line {first})"
                continue
            semicolon = rest.find(";")
            if semicolon >= 0:
                at = lead + colon.end() + semicolon + 1
                self.recipes.append((self.rules, self._strip_prefixes(chars[at:])))

    def _logical(self, number: int) -> tuple[list[Char], int]:
        """A line outside recipes, backslash-newline joined as one space, `#` comments cut."""
        chars: list[Char] = []
        while number < len(self.starts):
            start, line = self.line(number)
            number += 1
            trailing = len(line) - len(line.rstrip("\\"))
            body = line[:-1] if trailing % 2 else line
            escaped = False
            for index, char in enumerate(body):
                if char == "#" and not escaped:  # a comment goes on past a backslash-newline
                    while trailing % 2 and number < len(self.starts):
                        line = self.line(number)[1]
                        trailing = len(line) - len(line.rstrip("\\"))
                        number += 1
                    return chars, number
                if char == "\\" and index + 1 < len(body) and body[index + 1] == "#":
                    escaped = True
                    continue
                escaped = False
                chars.append((char, start + index, start + index + 1, None))
            if not trailing % 2:
                break
            while chars and chars[-1][0] in (" ", "\t"):
                chars.pop()
            chars.append((" ", start + len(body), start + len(body) + 1, None))
        return chars, number

    def _recipe(self, number: int, prefix: str) -> int:
        """One recipe line through its backslash-newlines (kept for the shell)."""
        chars: list[Char] = []
        while number < len(self.starts):
            start, line = self.line(number)
            number += 1
            cut = 1 if line.startswith(prefix) else 0
            chars.extend((line[i], start + i, start + i + 1, None) for i in range(cut, len(line)))
            trailing = len(line) - len(line.rstrip("\\"))
            if not trailing % 2 or number >= len(self.starts):
                break
            chars.append(("\n", start + len(line), start + len(line) + 1, None))
        self.recipes.append((self.rules, self._strip_prefixes(chars)))
        return number

    @staticmethod
    def _strip_prefixes(chars: list[Char]) -> list[Char]:
        """Without make's `@`, `-`, `+` (with a POSIX shell, also on the inner lines of a
        `.ONESHELL` recipe: 5.3.1)."""
        at = 0
        while at < len(chars) and chars[at][0] in (" ", "\t", "@", "-", "+"):
            at += 1
        return chars[at:]

    def shells(self) -> list[list[Char]]:
        """The text each shell runs: one recipe line, or with `.ONESHELL` a rule's lines."""
        if not self.one_shell:
            return [chars for _, chars in self.recipes]
        joined: dict[int, list[Char]] = {}
        for rule, chars in self.recipes:
            if rule in joined and chars:
                joined[rule].append(("\n", chars[0][1], chars[0][1], None))
            joined.setdefault(rule, []).extend(chars)
        return list(joined.values())

    def _assign(self, match: re.Match[str], chars: list[Char], number: int, depth: int) -> None:
        name, operator = match.group(2), match.group(3)
        if "export" in match.group(1):
            self.exported.add(name)
        value = chars[match.end() :]
        while value and value[0][0] in (" ", "\t"):
            value = value[1:]
        while value and value[-1][0] in (" ", "\t"):
            value = value[:-1]
        old = self.vars.get(name)
        if depth:
            self.vars[name] = f"$({name}) is set inside a make conditional (line {number})"
        elif operator == "!=":
            self.vars[name] = f"$({name}) is set by `!=` to a shell command's output (line {number})"
        elif operator == "?=" and old is not None:
            return
        elif operator == "+=" and isinstance(old, _Var):
            added = self.expand(value) if old.simple else value
            self.vars[name] = _Var(
                [*old.chars, (" ", value[0][1], value[0][1], None), *added] if value else old.chars,
                old.simple,
                number,
            )
        elif operator != "+=" or old is None:
            simple = operator in (":=", "::=", ":::=")
            self.vars[name] = _Var(self.expand(value) if simple else value, simple, number)

    def expand(self, chars: list[Char], seen: frozenset[str] = frozenset()) -> list[Char]:
        """`$$`, `$(VAR)`, `${VAR}` and `$X` replaced as make does; what make works out when it
        runs becomes an unknown run."""
        out: list[Char] = []
        index = 0
        while index < len(chars):
            char, begin, end, reason = chars[index]
            if char != "$" or index + 1 >= len(chars):
                out.append(chars[index])
                index += 1
                continue
            following = chars[index + 1]
            if following[0] == "$":
                out.append(("$", following[1], following[2], None))
                index += 2
                continue
            if following[0] in ("(", "{"):
                close = _closing(chars, index + 1)
                stop = chars[close][2] if close < len(chars) else chars[-1][2]
                inner = "".join(c[0] or "" for c in chars[index + 2 : close])
                index = close + 1
                if _NAME.fullmatch(inner):
                    out.extend(self._value(inner, begin, stop, seen))
                else:
                    what = inner.split()[0] if inner.split() else inner
                    why = f"`$({what} ...)` is a make function: make works it out when it runs"
                    if _LAUNCHER.search(inner):
                        self.unread.setdefault(begin, (what, stop))
                    if "$" in inner and " " not in inner and "," not in inner:
                        why = f"`$({inner})` names a variable by another variable's value"
                    out.append((None, begin, stop, why))
                continue
            index += 2
            name = following[0] or ""
            if name in _AUTOMATIC:
                out.append((None, begin, following[2], f"`${name}` is a make automatic variable"))
            else:
                out.extend(self._value(name, begin, following[2], seen))
        return out

    def _value(self, name: str, begin: int, end: int, seen: frozenset[str]) -> list[Char]:
        """The value of `$(name)` written at [begin, end): its characters all point there, as
        the shell front-end points a variable's words at the `$X` that expands it."""
        var = self.vars.get(name)
        if var is None:
            why = f"$({name}) is not set in this makefile (make's command line or the environment sets it)"
            return [(None, begin, end, why)]
        if isinstance(var, str):
            return [(None, begin, end, var)]
        if name in seen or len(seen) > 50:
            return [(None, begin, end, f"$({name}) refers to itself")]
        value = var.chars if var.simple else self.expanded.get(name)
        if value is None:
            value = self.expand(var.chars, seen | {name})
            if len(value) > _MAX_VALUE:  # `A = $(B)$(B)`, `B = $(C)$(C)`...: doubles each level
                value = [(None, begin, end, f"$({name}) is longer than speclint follows")]
            self.expanded[name] = value
        return [(char, begin, end, reason) for char, _, _, reason in value]


def _closing(chars: list[Char], opening: int) -> int:
    """Index of the bracket closing the one at `opening` (len(chars) when none)."""
    open_char = chars[opening][0]
    close_char = ")" if open_char == "(" else "}"
    depth = 0
    for index in range(opening, len(chars)):
        if chars[index][0] == open_char:
            depth += 1
        elif chars[index][0] == close_char:
            depth -= 1
            if depth == 0:
                return index
    return len(chars)


def extract_makefile(text: str, path: str) -> ExtractResult:
    """The launches in a Makefile's recipes, one shell per recipe line."""
    makefile = _Makefile(text)
    makefile.read()
    result = ExtractResult(comments=comment_lines(text, makefile.starts))
    env: dict[str, Word] = {}
    for name in sorted(makefile.exported):
        var = makefile.vars.get(name)
        if not isinstance(var, _Var) or not var.chars:
            continue
        value = makefile.expand(var.chars)
        reason = next((c[3] for c in value if c[0] is None), None)
        known = None if reason is not None else "".join(c[0] or "" for c in value)
        span = span_of(makefile.starts, min(c[1] for c in var.chars), max(c[2] for c in var.chars))
        env[name] = Word(known, span, span, dynamic_reason=reason)
    from speclint.frontends.shell.script import read_unit  # a unit a here-document writes

    budget = Budget()
    shells = makefile.shells()
    if not makefile.one_shell:
        shells = _here_documents_cut(makefile, result)
    for chars in shells:
        expanded = makefile.expand(chars)
        if "sglang" in "".join(c[0] or "" for c in expanded):
            buffer = shell_line(text, makefile.starts, budget, expanded)
            walk_shell(result, path, buffer, env, read_unit)
    for begin, (what, end) in sorted(makefile.unread.items()):
        message = (
            f"`$({what} ...)` is a make function that names the launcher: speclint does not "
            "evaluate make functions, so the launch it makes was not checked"
        )
        result.diagnostics.append(
            Diagnostic("no-launch-found", message, span_of(makefile.starts, begin, end))
        )
    unique_comments(result)
    return result


_HEREDOC = re.compile(r"(?<![<])<<(?!<)-?[ \t]*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\1")


def _here_documents_cut(makefile: _Makefile, result: ExtractResult) -> list[list[Char]]:
    """The recipe lines each run alone (no `.ONESHELL`), less those of a here-document that
    opens on one line and whose lines follow on the next ones: each of those runs in a shell
    of its own, so the here-document is empty there and its lines are commands of their own
    (5.3). One that holds the launcher is reported, never read as if it worked."""
    kept: list[list[Char]] = []
    recipes = makefile.recipes
    index = 0
    while index < len(recipes):
        rule, chars = recipes[index]
        line_text = "".join(c[0] or "" for c in chars)
        opened = _HEREDOC.search(line_text) if "\n" not in line_text else None
        index += 1
        if opened is None:
            kept.append(chars)
            continue
        body: list[list[Char]] = []
        while index < len(recipes) and recipes[index][0] == rule:
            body.append(recipes[index][1])
            index += 1
            if "".join(c[0] or "" for c in body[-1]).strip() == opened.group(2):
                break
        launcher = next((m for line in body if (m := _LAUNCHER.search(_text(line)))), None)
        if launcher is None:
            kept += [chars, *body]
            continue
        line = next(line for line in body if _LAUNCHER.search(_text(line)))
        at = line[launcher.start()][1]
        opening = span_of(makefile.starts, chars[opened.start()][1], chars[opened.end() - 1][2])
        message = (
            'make runs each recipe line in a shell of its own (GNU make manual 5.3, "Recipe '
            f'Execution"), so the here-document opened at line {opening.line} gets none of '
            f"the lines after it: `{launcher.group()}` here is not run as written (add "
            "`.ONESHELL:` to run a rule's lines in one shell); nothing in this launch was checked"
        )
        span = span_of(makefile.starts, at, line[launcher.end() - 1][2])
        result.diagnostics.append(Diagnostic("launch-unread", message, span))
        result.diagnostics.append(Diagnostic("launcher-not-read", message, span))
    return kept


def _text(chars: list[Char]) -> str:
    return "".join(c[0] if c[0] is not None and len(c[0]) == 1 else "\0" for c in chars)
