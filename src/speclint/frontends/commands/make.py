"""Makefiles: each recipe line as GNU make hands it to the shell.

Read as the GNU make manual says: a recipe line starts with a tab (or the `.RECIPEPREFIX`
character) after a rule line, or follows `;` on it (5.1 "Recipe Syntax"); a backslash-newline
stays in the text the shell gets and the tab that starts the next line is dropped (5.1.1
"Splitting Recipe Lines"); each logical line runs in a shell of its own (5.3 "Recipe
Execution"), so each is read alone, unless `.ONESHELL:` runs a rule's lines in one (5.3.1);
the prefixes `@`, `-`, `+` are make's (5.2, 5.5, 9.3). `$$` is `$` and `$(VAR)`/`${VAR}`
the variable's value (6.1): `=` the value last set in the file, expanded where it is used;
`:=`/`::=` expanded where it is set; `?=` its value unless already set (the environment may
set it: read as the shell front-end reads `${X:-default}`); `+=` appends (6.2, 6.5, 6.6).
Conditionals (7) are decided where their values are known, else read per branch
(`make_conditionals`); included makefiles are read from disk (`make_include`). Unknown, never
guessed: a variable the file does not set (the environment, the command line, an included
makefile not on disk), a function call (`$(shell ...)`, `$(or ...)`, 8), an automatic variable
(`$@`, 10.5.3), a target-specific value (6.11), one set with `define` (6.8) or `!=`. A make
function, or a `define` value, whose text names the launcher is said to be unread. Outside
recipes a backslash-newline is one space (3.1.1) and `#` starts a comment, continued by one.
"""

from __future__ import annotations

import re

from speclint.frontends.commands.make_conditionals import (
    DIRECTIVE,
    Frame,
    conditional,
)
from speclint.frontends.commands.make_include import read_include
from speclint.frontends.commands.make_values import MakeValues, MakeVar
from speclint.frontends.commands.text import Char
from speclint.frontends.recognise import LAUNCH_TEXT

_ASSIGN = re.compile(r"((?:(?:override|export|private)\s+)*)([^\s:#=?+!$(){}]+)\s*(:::=|::=|:=|\?=|\+=|!=|=)")
_INCLUDE = re.compile(r"(?:-|s)?include\s+")


class MakeReader(MakeValues):
    """Reads a makefile line by line as make does (the module's docstring)."""

    def child(self, text: str) -> MakeReader:
        return MakeReader(text, self.path, self.choices, self)

    def line(self, number: int) -> tuple[int, str]:
        start = self.starts[number]
        end = self.starts[number + 1] - 1 if number + 1 < len(self.starts) else len(self.text)
        return start, self.text[start:end].rstrip("\r")

    def read(self) -> None:
        prefix, in_rule, number = "\t", False, 0
        frames: list[Frame] = []
        while number < len(self.starts):
            first = number + 1
            active = all(frame.active for frame in frames)
            if in_rule and self.line(number)[1].startswith(prefix):
                number = self._recipe(number, prefix, active)
                continue
            chars, number = self._logical(number)
            body = "".join(c[0] or "" for c in chars).strip()
            if not body:
                continue
            lead = len(chars) - len("".join(c[0] or "" for c in chars).lstrip())
            directive = DIRECTIVE.match(body)
            if directive:
                conditional(self, frames, directive.group(1), body, chars[lead:], first)
                continue
            if body.startswith("define ") or body.startswith(("override define ", "export define ")):
                name = body.split()[-1].rstrip("=:?+!")
                defined = []
                while number < len(self.starts) and self.line(number)[1].strip() != "endef":
                    defined.append(self.line(number)[1])
                    number += 1
                number += 1
                if active:
                    self.vars[name] = f"$({name}) is set with `define` (line {first}{self.where})"
                    self.expanded.clear()
                    if LAUNCH_TEXT.search("\n".join(defined)):
                        self.launching.add(name)
                continue
            if not active:
                continue
            uncertain = next((frame.uncertain for frame in frames if frame.uncertain), None)
            assign = _ASSIGN.match(body)
            if assign:
                in_rule = False
                self._assign(assign, chars[lead:], first, uncertain)
                if assign.group(2) == ".RECIPEPREFIX":
                    value = body[assign.end() :].strip()
                    prefix = value[:1] or "\t"
                continue
            include = _INCLUDE.match(body)
            if include:
                in_rule = False
                read_include(self, include, body, chars[lead:], first)
                continue
            if body.split()[0] in ("export", ".EXPORT_ALL_VARIABLES:"):
                words = body.split()[1:]
                self.exported.update(words if words and body.startswith("export") else self.vars)
                continue
            colon = re.search(r":(?!=)", body)
            in_rule = colon is not None and not body.startswith("vpath ")
            if colon is None:
                continue
            self.rules += 1
            self.one_shell = self.one_shell or body.startswith(".ONESHELL:")
            rest = body[colon.end() :]
            target_assign = _ASSIGN.match(rest.lstrip(": \t"))
            if target_assign:
                name = target_assign.group(2)
                if name in ("SHELL", ".SHELLFLAGS"):  # that target's shell (`make_shell`)
                    value = rest.lstrip(": \t")[target_assign.end() :]
                    self.target_shells.append((name, value, first))
                    continue
                self.vars[name] = f"$({name}) has a target-specific value (line {first}{self.where})"
                self.expanded.clear()
                continue
            semicolon = rest.find(";")
            if semicolon >= 0:
                at = lead + colon.end() + semicolon + 1
                self._add_recipe(self._strip_prefixes(chars[at:]), first)

    def _logical(self, number: int) -> tuple[list[Char], int]:
        """A line outside recipes, backslash-newline joined as one space, `#` comments cut."""
        chars: list[Char] = []
        while number < len(self.starts):
            start, line = self.line(number)
            number += 1
            trailing = len(line) - len(line.rstrip("\\"))
            body = line[:-1] if trailing % 2 else line
            escaped = comment = False
            for index, char in enumerate(body):
                if char == "#" and not escaped:  # a comment goes on past a backslash-newline
                    while trailing % 2 and number < len(self.starts):
                        line = self.line(number)[1]
                        trailing = len(line) - len(line.rstrip("\\"))
                        number += 1
                    comment = True
                    break
                if char == "\\" and index + 1 < len(body) and body[index + 1] == "#":
                    escaped = True
                    continue
                escaped = False
                chars.append((char, start + index, start + index + 1, None))
            if comment or not trailing % 2:
                break
            while chars and chars[-1][0] in (" ", "\t"):
                chars.pop()
            chars.append((" ", start + len(body), start + len(body) + 1, None))
        if self.origin is not None:  # an included file's text points at the `include`
            begin, end = self.origin
            return [(c[0], begin, end, c[3]) for c in chars], number
        return chars, number

    def _recipe(self, number: int, prefix: str, active: bool) -> int:
        """One recipe line through its backslash-newlines (kept for the shell); skipped in a
        conditional branch make does not take."""
        first = number + 1
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
        if active:
            self._add_recipe(self._strip_prefixes(chars), first)
        return number

    def _add_recipe(self, chars: list[Char], line: int) -> None:
        """A recipe line of the linted file; one of an included file is that file's (speclint
        reads it when it lints that file), said at the `include` when it names the launcher."""
        if self.origin is None:
            self.recipes.append((self.rules, chars))
        elif LAUNCH_TEXT.search("".join(c[0] or "" for c in chars)):
            self.included.setdefault((self.where[4:], self.origin), []).append(line)

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

    def _assign(self, match: re.Match[str], chars: list[Char], number: int, uncertain: str | None) -> None:
        name, operator = match.group(2), match.group(3)
        if "export" in match.group(1):
            self.exported.add(name)
        value = chars[match.end() :]
        while value and value[0][0] in (" ", "\t"):
            value = value[1:]
        while value and value[-1][0] in (" ", "\t"):
            value = value[:-1]
        old = self.vars.get(name)
        line = f"line {number}{self.where}"
        self.expanded.clear()  # a value worked out before may have used the old one
        if uncertain:
            self.vars[name] = f"$({name}) is set inside a make conditional ({line}): {uncertain}"
        elif operator == "!=":
            self.vars[name] = f"$({name}) is set by `!=` to a shell command's output ({line})"
        elif operator == "?=" and (old is not None or name in ("SHELL", ".SHELLFLAGS")):
            return  # (make defines SHELL and .SHELLFLAGS itself: `?=` leaves them)
        elif operator == "?=" and self.missing:
            self.vars[name] = f"$({name}) is set with `?=` ({line}), and {self.missing[-1]}, may set it first"
        elif operator == "+=" and isinstance(old, MakeVar):
            added = self.expand(value) if old.simple else value
            self.vars[name] = MakeVar(
                [*old.chars, (" ", value[0][1], value[0][1], None), *added] if value else old.chars,
                old.simple,
                number,
            )
        elif operator != "+=" or old is None:
            simple = operator in (":=", "::=", ":::=")
            self.vars[name] = MakeVar(self.expand(value) if simple else value, simple, number)
