"""supervisord programs and tox environments: INI files whose values are argv, split as
Python's `shlex.split` splits them, with no shell and no `$VAR` expansion.

Both are read by Python's configparser (its documentation, "Supported INI File
Structure"): `[section]` headers, `key = value` or `key: value`, a line indented under a
value continues it, whole-line `#`/`;` comments; inline comments after whitespace (`;` or
`#` in supervisord, which sets `inline_comment_prefixes`; `#` in tox 4, `\\#` is `#`).

supervisord (its "Configuration File" documentation, `[program:x]` section values):
`command=` is split with shlex and run without a shell; `%(name)s` expressions
(`%(ENV_X)s`, `%(program_name)s`, `%(process_num)02d`) are expanded when supervisord starts:
unknown, and a whole word of one may be several words; `%%` is `%`. `environment=` is
`KEY="val",KEY2=val2`.

tox (its "Configuration" documentation, `commands` of `[testenv]` and `[testenv:name]`):
one command a line, a line ending in `\\` continued on the next; each split with shlex;
a leading `-` (ignore the exit code) or `!` (invert it) is tox's; substitutions in braces
and `setenv` are tox's (`commands.tox`).
"""

from __future__ import annotations

import re

from speclint.core.launches import ExtractResult
from speclint.core.words import Word
from speclint.frontends.commands.text import (
    Char,
    IniValue,
    comment_lines,
    split_quoted,
    unclosed_quote,
    unique_comments,
    walk_argv,
    walk_shell,
)
from speclint.frontends.shell.embedded import Budget
from speclint.frontends.shell.pieces import line_starts, span_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

_KEY = re.compile(r"([^=:\s][^=:]*?)\s*[=:]\s*")
_PERCENT = re.compile(r"%%|%\(([^)]*)\)[-#0 +]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]")
_PAIR = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^,]*))\s*(?:,|$)")


def _values(text: str, starts: list[int], inline: str) -> list[IniValue]:
    found: list[IniValue] = []
    section = ""
    current: tuple[str, list[Char], int, int] | None = None
    for number, start in enumerate(starts):
        end = starts[number + 1] - 1 if number + 1 < len(starts) else len(text)
        line = text[start:end].rstrip("\r")
        stripped = line.strip()
        if not stripped or stripped[0] in "#;":
            continue
        indent = len(line) - len(line.lstrip())
        body = _cut_comment(line, inline)
        if current is not None and indent > current[3]:
            current[1].append(("\n", start, start, None))
            current[1].extend(
                (body[i], start + i, start + i + 1, None) for i in range(indent, len(body.rstrip()))
            )
            continue
        if current is not None:
            found.append((section, current[0], current[1], current[2]))
            current = None
        if stripped.startswith("[") and "]" in stripped:
            section = stripped[1 : stripped.index("]")]
            continue
        key = _KEY.match(body, indent)
        if key is not None:
            value: list[Char] = [
                (body[i], start + i, start + i + 1, None) for i in range(key.end(), len(body.rstrip()))
            ]
            current = (key.group(1), value, number + 1, indent)
    if current is not None:
        found.append((section, current[0], current[1], current[2]))
    return found


def _cut_comment(line: str, prefixes: str) -> str:
    """The line without an inline comment: a prefix character after whitespace."""
    for index in range(1, len(line)):
        if line[index] in prefixes and line[index - 1] in " \t" and line[index - 2 : index] != "\\#":
            return line[:index]
    return line


def _substitute(
    chars: list[Char], pattern: re.Pattern[str], why: Callable[[re.Match[str], int, int], list[Char]]
) -> list[Char]:
    """`chars` with each match of `pattern` replaced by what `why` makes of it."""
    text = "".join(c[0] or "\0" for c in chars)
    out: list[Char] = []
    at = 0
    for match in pattern.finditer(text):
        out.extend(chars[at : match.start()])
        begin, end = chars[match.start()][1], chars[match.end() - 1][2]
        out.extend(why(match, begin, end))
        at = match.end()
    out.extend(chars[at:])
    return out


def _supervisord_expr(match: re.Match[str], begin: int, end: int) -> list[Char]:
    name = match.group(1)
    if name is None:  # `%%`
        return [("%", end - 1, end, None)]
    if name.startswith("ENV_"):
        why = f"`{match.group()}` is supervisord's environment variable {name[4:]}, known when it starts"
    else:
        why = f"`{match.group()}` is expanded by supervisord when it starts"
    return [(None, begin, end, why)]


def extract_ini(kind: str, text: str, path: str) -> ExtractResult:
    """supervisord's `[program:x]` commands (`kind` 'supervisord') or tox's testenv
    commands (`kind` 'tox')."""
    starts = line_starts(text)
    result = ExtractResult(comments=comment_lines(text, starts))
    budget = Budget()
    values = _values(text, starts, ";#" if kind == "supervisord" else "#")
    for section, key, value, _ in values:
        if "sglang" not in "".join(c[0] or "" for c in value):
            continue
        if kind == "supervisord" and section.startswith("program:") and key == "command":
            env = _supervisord_env(
                text, starts, [v for s, k, v, _ in values if s == section and k == "environment"]
            )
            unclosed: list[int] = []
            words = split_quoted(_substitute(value, _PERCENT, _supervisord_expr), False, unclosed)
            if unclosed:
                unclosed_quote(result, starts, unclosed[0], "supervisord cannot parse the command")
                continue
            walk_shell(result, path, walk_argv(text, starts, budget, words), env)
    if kind == "tox":
        from speclint.frontends.commands.tox import read_tox

        read_tox(result, path, text, starts, budget, values)
    unique_comments(result)
    return result


def _supervisord_env(text: str, starts: list[int], values: list[list[Char]]) -> dict[str, Word]:
    """`environment=KEY="val",KEY2=val2`; a value with a `%(...)` expression is unknown."""
    env: dict[str, Word] = {}
    for value in values:
        raw = "".join(c[0] or "\0" for c in value)
        for match in _PAIR.finditer(raw):
            group = next(g for g in (2, 3, 4) if match.group(g) is not None)
            begin, end = match.start(group), match.end(group)
            where = value[begin:end] or value[match.start() : match.end()]
            span = span_of(starts, where[0][1], where[-1][2]) if where else span_of(starts, 0, 0)
            known = match.group(group).strip() if group == 4 else match.group(group)
            reason = None
            if "%(" in known:
                known, reason = None, f"{match.group(1)} holds a supervisord `%(...)` expression"
            env[match.group(1)] = Word(known, span, span, dynamic_reason=reason)
    return env
