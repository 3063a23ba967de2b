"""A TOML document with the place of every string in it (TOML v1.0.0, "Spec"): tables,
arrays of tables, dotted keys, inline tables, arrays, and the four kinds of string, each
character of a string's value mapped to where the file writes it (an escape to the whole
escape). The document is first read with Python's `tomllib` (`tomli` on Python 3.10; a file
it refuses is not TOML: nothing is read); this reader only adds the places, so it may be
lenient."""

from __future__ import annotations

import re
import sys

from speclint.frontends.commands.text import Char

_SPACE = re.compile(r"[ \t]*")
_BLANK = re.compile(r"(?:[ \t\r\n]+|#[^\n]*)*")
_BARE = re.compile(r"[A-Za-z0-9_-]+")
_SCALAR = re.compile(r"[^\s,\]\}#]+(?:[ T][0-9:.+Z-]+)?")
_ESCAPES = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", '"': '"', "\\": "\\", "e": "\x1b"}


class TomlString:
    """A string's value, each character with the file range it is written at, and where the
    string token stands (quotes included)."""

    def __init__(self, chars: list[Char], begin: int, end: int) -> None:
        self.chars, self.begin, self.end = chars, begin, end
        self.value = "".join(c[0] or "" for c in chars)


class TomlTable(dict[str, object]):
    """A table: key -> a TomlString, a list, a TomlTable or another value's text."""

    def table(self, *keys: str) -> TomlTable | None:
        node: object = self
        for key in keys:
            node = node.get(key) if isinstance(node, TomlTable) else None
        return node if isinstance(node, TomlTable) else None


class TomlDocument:
    def __init__(self, text: str) -> None:
        self.text, self.at = text, 0
        self.root = TomlTable()
        self.strings: list[TomlString] = []
        """Every string value, in file order."""
        self.comments: list[tuple[int, int]] = []

    def blank(self) -> None:
        """Spaces, newlines and comments (kept)."""
        match = _BLANK.match(self.text, self.at)
        assert match is not None  # (always matches)
        for comment in re.finditer(r"#[^\n]*", match.group()):
            self.comments.append((self.at + comment.start(), self.at + comment.end()))
        self.at = match.end()

    def parse(self) -> TomlTable:
        current = self.root
        while True:
            self.blank()
            if self.at >= len(self.text):
                return self.root
            if self.text.startswith("[", self.at):
                many = self.text.startswith("[[", self.at)
                self.at += 2 if many else 1
                keys = self.keys()
                self.at = self.text.index("]]" if many else "]", self.at) + (2 if many else 1)
                current = self._header(keys, many)
                continue
            keys = self.keys()
            if not self.text.startswith("=", self.at):
                raise ValueError(f"expected '=' at {self.at}")
            self.at += 1
            self._put(current, keys, self.value(0))

    def _header(self, keys: list[str], many: bool) -> TomlTable:
        node = self.root
        for key in keys[:-1]:
            child = node.setdefault(key, TomlTable())
            if isinstance(child, list) and child and isinstance(child[-1], TomlTable):
                child = child[-1]
            if not isinstance(child, TomlTable):
                raise ValueError(f"{key!r} is not a table")
            node = child
        if many:
            tables = node.setdefault(keys[-1], [])
            if not isinstance(tables, list):
                raise ValueError(f"{keys[-1]!r} is not an array of tables")
            tables.append(TomlTable())
            last = tables[-1]
            assert isinstance(last, TomlTable)
            return last
        table = node.setdefault(keys[-1], TomlTable())
        if not isinstance(table, TomlTable):
            raise ValueError(f"{keys[-1]!r} is not a table")
        return table

    def _put(self, table: TomlTable, keys: list[str], value: object) -> None:
        for key in keys[:-1]:
            child = table.setdefault(key, TomlTable())
            if not isinstance(child, TomlTable):
                raise ValueError(f"{key!r} is not a table")
            table = child
        table[keys[-1]] = value

    def keys(self) -> list[str]:
        """A (dotted) key: bare, or quoted."""
        keys: list[str] = []
        while True:
            self.at = _SPACE.match(self.text, self.at).end()  # type: ignore[union-attr]
            if self.text.startswith(('"', "'"), self.at):
                keys.append(self.string().value)
                self.strings.pop()  # (a key is not a value)
            else:
                match = _BARE.match(self.text, self.at)
                if match is None:
                    raise ValueError(f"expected a key at {self.at}")
                keys.append(match.group())
                self.at = match.end()
            self.at = _SPACE.match(self.text, self.at).end()  # type: ignore[union-attr]
            if not self.text.startswith(".", self.at):
                return keys
            self.at += 1

    def value(self, depth: int) -> object:
        if depth > 100:
            raise ValueError("nested too deep")
        self.at = _SPACE.match(self.text, self.at).end()  # type: ignore[union-attr]
        char = self.text[self.at : self.at + 1]
        if char in ('"', "'"):
            return self.string()
        if char == "[":
            self.at += 1
            items: list[object] = []
            while True:
                self.blank()
                if self.text.startswith("]", self.at):
                    self.at += 1
                    return items
                items.append(self.value(depth + 1))
                self.blank()
                if self.text.startswith(",", self.at):
                    self.at += 1
        if char == "{":
            self.at += 1
            table = TomlTable()
            while True:
                self.blank()
                if self.text.startswith("}", self.at):
                    self.at += 1
                    return table
                keys = self.keys()
                if not self.text.startswith("=", self.at):
                    raise ValueError(f"expected '=' at {self.at}")
                self.at += 1
                self._put(table, keys, self.value(depth + 1))
                self.blank()
                if self.text.startswith(",", self.at):
                    self.at += 1
        match = _SCALAR.match(self.text, self.at)
        if match is None:
            raise ValueError(f"unexpected text at {self.at}")
        self.at = match.end()
        return match.group()

    def string(self) -> TomlString:
        begin, text = self.at, self.text
        quote = text[begin]
        multi = text.startswith(quote * 3, begin)
        at = begin + (3 if multi else 1)
        if multi and text.startswith("\n", at):
            at += 1
        elif multi and text.startswith("\r\n", at):
            at += 2
        chars: list[Char] = []
        while True:
            if at >= len(text) or (not multi and text[at] == "\n"):
                raise ValueError(f"string at {begin} not closed")
            if text.startswith(quote * 3 if multi else quote, at):
                run = _RUNS[quote].match(text, at).end() - at if multi else 1  # type: ignore[union-attr]
                extra = min(run - 3, 2) if multi else 0
                chars.extend((quote, at + i, at + i + 1, None) for i in range(extra))
                self.at = at + extra + (3 if multi else 1)
                break
            char = text[at]
            if char == "\\" and quote == '"':
                following = text[at + 1 : at + 2]
                if multi and _LINE_END.match(text, at + 1):
                    at = _BLANK_ONLY.match(text, at + 1).end()  # type: ignore[union-attr]  # line-ending backslash
                    continue
                width = {"u": 4, "U": 8}.get(following)
                if width is not None:
                    decoded = chr(int(text[at + 2 : at + 2 + width], 16))
                    chars.append((decoded, at, at + 2 + width, None))
                    at += 2 + width
                    continue
                chars.append((_ESCAPES.get(following, following), at, at + 2, None))
                at += 2
                continue
            if char == "\r" and text.startswith("\r\n", at):
                at += 1
                continue
            chars.append((char, at, at + 1, None))
            at += 1
        string = TomlString(chars, begin, self.at)
        self.strings.append(string)
        return string


_BLANK_ONLY = re.compile(r"[ \t\r\n]*")
_LINE_END = re.compile(r"[ \t\r]*\n")
"""After a backslash in a multi-line basic string: it ends its line (the line break and
the blanks after it are dropped)."""
_RUNS = {'"': re.compile('"+'), "'": re.compile("'+")}


_AT = re.compile(r"\(at line (\d+), column (\d+)\)$")


def read_toml(text: str) -> TomlDocument | tuple[str, int, int]:
    """The document, or what `tomllib` says when it refuses the text (not TOML): its
    message and the line and column it names (1, 1 when it names none)."""
    if sys.version_info >= (3, 11):  # only for a TOML file that mentions sglang
        import tomllib
    else:  # Python 3.10
        import tomli as tomllib
    try:
        tomllib.loads(text)
    except ValueError as error:  # tomllib.TOMLDecodeError
        message = str(error)
        at = _AT.search(message)
        if at is None:
            return message, 1, 1
        return message[: at.start()].rstrip(), int(at.group(1)), int(at.group(2))
    except RecursionError:
        return "nested too deep", 1, 1
    document = TomlDocument(text)
    try:
        document.parse()
    except (ValueError, IndexError, RecursionError) as error:
        return f"speclint could not place its strings ({error})", 1, 1
    return document
