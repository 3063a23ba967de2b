"""Quote removal as bash does it: backslash escapes outside quotes, inside double quotes, and
the C escapes of `$'...'` strings (kept apart from expansion, which only calls these)."""

from __future__ import annotations

from functools import cache

from speclint.core import patterns

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re


@cache  # compiled on first use, as the two below: most words hold no escape
def _dq_escape() -> re.Pattern[str]:
    return patterns.compile(r'\\([\\"$`\n])')


@cache
def _any_escape() -> re.Pattern[str]:
    return patterns.compile(r"\\(.)", patterns.DOTALL)


@cache
def _ansi_c() -> re.Pattern[str]:
    return patterns.compile(r"\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|u[0-9a-fA-F]{1,4}|.)", patterns.DOTALL)


_ANSI_C_SIMPLE = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "?": "?",
}


def unescape_unquoted(raw: str) -> str:
    """An unquoted word's text: a backslash quotes the next character (a newline: both go)."""
    if "\\" not in raw:
        return raw
    return _any_escape().sub(lambda m: "" if m.group(1) == "\n" else m.group(1), raw)


def unescape_double_quoted(raw: str) -> str:
    """The text of a double-quoted part: only `\\ \" \\$ \\` \\<newline>` are escapes there."""
    if "\\" not in raw:
        return raw
    return _dq_escape().sub(lambda m: "" if m.group(1) == "\n" else m.group(1), raw)


def decode_ansi_c(body: str) -> str:
    """The text of `$'BODY'`: `\\n`, `\\x41`, `\\101`, `\\u00e9` and the like decoded."""

    def one(match: re.Match[str]) -> str:
        code = match.group(1)
        if code in _ANSI_C_SIMPLE:
            return _ANSI_C_SIMPLE[code]
        if code[0] == "x" and len(code) > 1:
            return chr(int(code[1:], 16))
        if code[0] == "u" and len(code) > 1:
            return chr(int(code[1:], 16))
        if code.isdigit():
            return chr(int(code, 8) & 0xFF)
        return "\\" + code

    return _ansi_c().sub(one, body)
