"""tox environments (tox's "Configuration" documentation, the INI format): what a `commands`
line runs and with which environment.

`setenv` (`set_env`) sets variables for the commands, one `KEY = value` a line (`file|PATH`
loads a dotenv file: what it sets is unknown here); an environment `[testenv:name]` without
its own takes `[testenv]`'s. Substitutions in braces are tox's, worked out before the line is
split into words: `{envpython}` is the environment's Python; `{posargs}` the arguments given
after `--` (any number of words), `{posargs:DEFAULT}` DEFAULT when none are given;
`{env:KEY}` the variable KEY (as `setenv` sets it, else the environment tox runs in: unknown),
`{env:KEY:DEFAULT}` DEFAULT when KEY is not set, read as the shell front-end reads
`${KEY:-default}`; `{toxinidir}` the folder of tox.ini; `{envname}` the environment's name;
`{/}` and `{:}` the path and path-list separators; `{[section]key}` the value of `key` in
`[section]` ("Substitutions", tox's documentation: any section's key), its own substitutions
worked out in the environment that runs it, its characters keeping their places in the file (a
value of several lines in `commands`: a command a line). Any other (`{envdir}`) is unknown. A default's characters keep their positions; a value read through a name points
at the `{...}` that names it. `[testenv]`'s `commands` run in each environment that has none
of its own (or whose own are exactly `{[testenv]commands}`), with that environment's setenv.
"""

from __future__ import annotations

import os
import re

from speclint.core.words import Word
from speclint.frontends.commands.text import IniValue, split_quoted, unclosed_quote, walk_argv, walk_shell
from speclint.frontends.shell.pieces import span_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.launches import ExtractResult, Launch
    from speclint.core.spans import Span
    from speclint.frontends.commands.text import Char
    from speclint.frontends.shell.embedded import Budget

BRACES = re.compile(r"\{([^{}]*)\}")
_REFERENCE = re.compile(r"\[([^\[\]]+)\]\s*([^\s:]+)")
_MAX_DEPTH = 8
"""References followed inside references (tox refuses a cycle; speclint stops)."""
_KEY = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*=")
_INHERIT = "{[testenv]commands}"


class ToxEnv:
    """One tox environment's substitutions and `setenv`."""

    def __init__(
        self,
        path: str,
        section: str,
        setenv: list[Char] | None,
        sections: dict[tuple[str, str], list[Char]] | None = None,
    ) -> None:
        self.sections = sections or {}
        """(section, key) -> its value, for `{[section]key}`."""
        self.depth = 0
        real = path not in ("-", "<stdin>", "")
        self.toxinidir = os.path.dirname(os.path.abspath(path)) if real else None
        self.envname = section.split(":", 1)[1].strip() if ":" in section else None
        self.setenv: dict[str, list[Char]] = {}
        """Name -> its value's characters, substitutions worked out."""
        self.where: dict[str, tuple[int, int]] = {}
        """Name -> the file range of its `setenv` line."""
        self.loaded: str | None = None
        """A `file|PATH` line: what the file sets is not known."""
        for line in _lines(setenv or []):
            text = "".join(c[0] or "\0" for c in line)
            if text.lstrip().startswith("file|"):
                self.loaded = text.strip()
                continue
            key = _KEY.match(text)
            if key is None:
                continue
            value = line[key.end() :]
            while value and value[0][0] in (" ", "\t"):
                value = value[1:]
            while value and value[-1][0] in (" ", "\t"):
                value = value[:-1]
            self.setenv[key.group(1)] = self.substitute(value)
            self.where[key.group(1)] = line[0][1], line[-1][2]

    def substitute(self, chars: list[Char]) -> list[Char]:
        """`chars` with each `{...}` replaced as tox replaces it."""
        text = "".join(c[0] or "\0" for c in chars)
        out: list[Char] = []
        at = 0
        for match in BRACES.finditer(text):
            out.extend(chars[at : match.start()])
            inner = chars[match.start() + 1 : match.end() - 1]
            out.extend(
                self._replace(match.group(1), inner, chars[match.start()][1], chars[match.end() - 1][2])
            )
            at = match.end()
        out.extend(chars[at:])
        return out

    def _replace(self, name: str, inner: list[Char], begin: int, end: int) -> list[Char]:
        head, _, rest = name.partition(":")
        if name == "envpython":
            return [("python", begin, end, None)]
        if head == "posargs":
            if not _:
                return [(None, begin, end, "`{posargs}` is the arguments given to tox after `--`")]
            return inner[len("posargs:") :]  # none given: the default, as written
        if head == "env" and rest:
            key, has_default, _default = rest.partition(":")
            value = self.setenv.get(key)
            if value is not None:
                return [(c, begin, end, reason) for c, _b, _e, reason in value]
            if self.loaded is not None:
                why = f"`{{env:{key}}}` may be set by `{self.loaded}` in setenv, which speclint does not read"
                return [(None, begin, end, why)]
            if has_default:
                return inner[len("env:") + len(key) + 1 :]
            why = f"`{{env:{key}}}` is the environment variable {key} where tox runs (setenv does not set it)"
            return [(None, begin, end, why)]
        reference = _REFERENCE.fullmatch(name.strip())
        if reference is not None:
            return self._reference(name, reference.group(1).strip(), reference.group(2), begin, end)
        known = {"toxinidir": self.toxinidir, "envname": self.envname, "/": os.sep, ":": os.pathsep}.get(name)
        if known is not None:
            return [(char, begin, end, None) for char in known]
        return [(None, begin, end, f"`{{{name}}}` is a tox substitution: known when tox runs")]

    def _reference(self, name: str, section: str, key: str, begin: int, end: int) -> list[Char]:
        """`{[section]key}`: that value, substituted here, each character at its own place."""
        value = self.sections.get((section, key))
        if value is None:
            return [(None, begin, end, f"`{{{name}}}` names a key speclint did not find in this file")]
        if self.depth >= _MAX_DEPTH:
            return [(None, begin, end, f"`{{{name}}}` refers to itself through other references")]
        first = next((k for k, c in enumerate(value) if c[0] not in (" ", "\t", "\n")), len(value))
        last = next((k for k in range(len(value), 0, -1) if value[k - 1][0] not in (" ", "\t", "\n")), 0)
        self.depth += 1
        try:
            return self.substitute(value[first:last])
        finally:
            self.depth -= 1

    def words(self, starts: list[int]) -> dict[str, Word]:
        """The environment `setenv` gives the commands, each value pointing at its text."""
        env: dict[str, Word] = {}
        for name, value in self.setenv.items():
            reason = next((c[3] for c in value if c[0] is None), None)
            known = None if reason is not None else "".join(c[0] or "" for c in value)
            begin, end = (min(c[1] for c in value), max(c[2] for c in value)) if value else self.where[name]
            span = span_of(starts, begin, end)
            env[name] = Word(known, span, span, dynamic_reason=reason)
        return env


def _lines(value: list[Char]) -> list[list[Char]]:
    lines: list[list[Char]] = [[]]
    for char in value:
        if char[0] == "\n":
            lines.append([])
        else:
            lines[-1].append(char)
    return [line for line in lines if line]


def read_tox(
    result: ExtractResult, path: str, text: str, starts: list[int], budget: Budget, values: list[IniValue]
) -> None:
    """The `commands` of each `[testenv]`/`[testenv:name]` section, with the environment's
    `setenv` and substitutions. `[testenv]`'s commands run in every environment without its
    own (or whose own are `{[testenv]commands}`): where environments give them different text or environment, each is one
    alternative, its note naming the sections."""
    setenvs = {s: v for s, k, v, _ in values if k in ("setenv", "set_env")}
    deps = {s: v for s, k, v, _ in values if k == "deps"}
    sections = {(s, k): v for s, k, v, _ in values}
    own = {  # (`commands = {[testenv]commands}` runs [testenv]'s, as having none does)
        s for s, k, v, _ in values if k == "commands" and "".join(c[0] or "" for c in v).strip() != _INHERIT
    }
    lines = {s: line for s, _, _, line in reversed(values)}
    for section, key, value, _ in values:
        if key != "commands" or not (section == "testenv" or section.startswith("testenv:")):
            continue
        written = "".join(c[0] or "" for c in value)
        if "sglang" not in written and "{[" not in written or written.strip() == _INHERIT:
            continue  # (`{[testenv]commands}` alone: [testenv]'s, read with them)
        runs = [section]
        if section == "testenv":  # each environment without commands of its own runs these
            runs += [s for s in lines if s.startswith("testenv:") and s not in own]
        for line in _tox_lines(value):
            # (a command of several lines substituted in: one command a line, each its variants)
            variants: dict[
                int,
                dict[
                    tuple[object, ...],
                    tuple[list[list[Char]], dict[str, Word], list[str], tuple[str, Span] | None],
                ],
            ] = {}
            split = True
            for name in runs:
                if not split:
                    break
                env = ToxEnv(path, name, setenvs.get(name, setenvs.get("testenv")), sections)
                env_words = env.words(starts)
                pin = _deps_pin(deps.get(name, deps.get("testenv")), starts)
                for number, command in enumerate(_tox_lines(env.substitute(line))):
                    unclosed: list[int] = []
                    words = split_quoted(command, False, unclosed)
                    if unclosed:
                        unclosed_quote(result, starts, unclosed[0], "tox cannot split the command")
                        split = False
                        break
                    if words and words[0] and words[0][0][0] in ("-", "!"):
                        words[0] = words[0][1:]
                        words = [w for w in words if w]
                    signature = (
                        tuple(tuple(w) for w in words),
                        tuple((n, w.text, w.dynamic_reason) for n, w in env_words.items()),
                        pin,
                    )
                    variants.setdefault(number, {}).setdefault(signature, (words, env_words, [], pin))[
                        2
                    ].append(name)
            for per_command in variants.values():
                for index, (words, env_words, names, pin) in enumerate(per_command.values()):
                    count = len(result.launches)
                    walk_shell(result, path, walk_argv(text, starts, budget, words), env_words)
                    if pin is not None:
                        for launch in result.launches[count:]:
                            if launch.image is None:  # (a `docker run IMAGE` launch keeps its image)
                                launch.image, launch.image_span = pin
                    if len(per_command) > 1:
                        where = [(_header(text, starts, lines[n], n), n) for n in names]
                        _mark(result.launches[count:], where, starts, index, len(per_command))


def _deps_pin(value: list[Char] | None, starts: list[int]) -> tuple[str, Span] | None:
    """The requirement of an environment's `deps` (one a line) that pins SGLang exactly
    (`sglang[all]==0.5.4`), and its span: tox installs `deps` into the environment before its
    commands run, so they run that release (a range, `-r FILE` or an option pins nothing)."""
    if value is None:
        return None
    from speclint.sglang.flags.versions import package_pin

    found = None
    for line in _lines(value):
        chars = [c for c in line if c[0] is not None and not c[0].isspace()]
        requirement = "".join(c[0] or "" for c in chars)
        if chars and package_pin(requirement):
            found = (requirement, span_of(starts, chars[0][1], chars[-1][2]))
    return found


def _header(text: str, starts: list[int], line: int, section: str) -> int:
    """The offset of `[section]`'s header, looked for above its first key (at `line`)."""
    for number in range(line - 1, -1, -1):
        start = starts[number]
        end = starts[number + 1] if number + 1 < len(starts) else len(text)
        at = text.find(f"[{section}]", start, end)
        if at >= 0:
            return at
    return starts[line - 1]


def _mark(
    launches: list[Launch], where: list[tuple[int, str]], starts: list[int], index: int, count: int
) -> None:
    """The launches of `[testenv]`'s commands as the environments of the sections `where`
    (header offset, name) run them: one alternative of `count`."""
    from speclint.core.conditions import Alternative, Condition

    named = " or ".join(f"`[{name}]` (line {span_of(starts, at, at).line})" for at, name in where)
    first = where[0][0]
    span = span_of(starts, first, first + len(where[0][1]) + 2)
    condition = Condition(span, f"tox runs the environment of {named}")
    for launch in launches:
        launch.alternative = Alternative((condition,), index, count)


def _tox_lines(value: list[Char]) -> list[list[Char]]:
    """The commands of a `commands` value: one a line, `\\` at a line's end continuing it."""
    lines: list[list[Char]] = [[]]
    for char in value:
        if char[0] == "\n":
            if lines[-1] and lines[-1][-1][0] == "\\":
                lines[-1][-1] = (" ", lines[-1][-1][1], lines[-1][-1][2], None)
            else:
                lines.append([])
            continue
        lines[-1].append(char)
    return [line for line in lines if line]
