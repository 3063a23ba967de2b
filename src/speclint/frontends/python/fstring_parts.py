"""One f-string literal split into its text runs and `{...}` fields, each with where it is
written, by scanning the literal's characters.

Why: CPython's `ast` (3.10, 3.11) gives no positions inside an f-string, and a finding
must point at the exact character of a string (`f"--tp {tp} --speculative-num-steps 3"`:
the `3`). The parts and ranges are libcst's (`FormattedStringText`,
`FormattedStringExpression` and its `expression`), which the tests compare on every
f-string of the tests' and the fixtures' sources (and, run by hand, of SGLang's wheels:
`tests/test_fstring_parts.py WHEEL...`). The syntax read is 3.12's
(PEP 701: the literal's own quote inside a field, comments and line breaks in fields) and
3.14's `t"..."`; each part is found in one pass over the characters (a field nested in a
format spec or a string inside a field is read by a nested call: as deep as the nesting
written, which Python bounds).
"""

from __future__ import annotations

import gc
import re
from typing import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeAlias


class Text(NamedTuple):
    """A run of the body as written (`{{`, `}}` and escapes not decoded:
    `positions.decode_body(..., fstring=True)` decodes it); offsets into the literal."""

    start: int
    end: int


class Field(NamedTuple):
    """A `{...}` field: `start`/`end` cover the braces; `expression_start`/`expression_end`
    the expression without the whitespace, comments and parentheses around it (as libcst's
    `expression` node: `{(x for x in y)}` gives `x for x in y`; `"(" + text + ")"` always
    parses); `debug`: the `=` of `{x = }` with the whitespace (and comments) around it;
    `conversion`: `r`, `s`, `a` or None; `spec`: the parts after a top-level `:` (None
    when there is no `:`), offsets into the literal too."""

    start: int
    end: int
    expression_start: int
    expression_end: int
    debug: str | None
    conversion: str | None
    spec: list[Text | Field] | None


Part: TypeAlias = "Text | Field"

_PREFIXES = frozenset({"f", "rf", "fr", "t", "rt", "tr"})
"""An f-string's (or a 3.14 template string's) prefixes, lower-cased."""
_STRING_PREFIXES = frozenset({"", "r", "u", "b", "br", "rb"}) | _PREFIXES
_OPENING = re.compile(r"([A-Za-z]{0,3})('''|\"\"\"|'|\")")
_EXPRESSION = re.compile(r"['\"()\[\]{}:!=#\\]")
"""The next bracket, string, comment or possible end in an expression."""
_PLAIN_STRING = {quote: re.compile(r"[\\\n\r" + quote + "]") for quote in "'\""}
_WORD = re.compile(r"\w")
_LINE_END = re.compile(r"[\n\r]")
_NAME_END = re.compile(r"[^}\n\r'\"]*\}")
"""The rest of a `\\N{NAME}` escape, through its `}`."""
_BLANK = " \t\f\n\r"
_new = tuple.__new__
"""`Field(...)` without the Python frame of its `__new__` (half the time) in the commonest case."""
_QUOTED = r"""(?<!\w)(?:'[^'\\\n\r]*'|"[^"\\\n\r]*")(?!['"])"""
"""A plain string without escapes (no prefix, no third quote: those are read in full)."""
_BRACKETED = r"""[^'"()\[\]{}\\#\n\r]|""" + _QUOTED
_ATOM = r"""[^\s'"()\[\]{}:!=#\\]|""" + _QUOTED + rf"|\((?:{_BRACKETED})*\)|\[(?:{_BRACKETED})*\]"
_COMMON = rf"(?!\()(?:{_ATOM})+(?:[ \t\f]+(?:{_ATOM})+)*"
"""A common expression: names, attributes, operators, numbers, plain strings, one level of
brackets (`{args.tp}`, `{d['k']}`, `{f(x, y=1)}`; not in parentheses: libcst's expression
is what is inside them)."""
_RUN = re.compile(
    r"[^{}\\\n\r'\"]*"
    r"(?:(\{)[ \t\f]*(" + _COMMON + r")[ \t\f]*"
    r"(?:!([rsa]))?(?::([^{}\\\n\r'\"]*))?\})?"
).match
"""A text run (to the next character that means something in it, or may end it: either
quote: one pattern for both, compiled once, about 1 ms, is cheaper than two), then the
common field if one is there, read at once: a name, attribute, call-less expression, its
conversion, a format spec without fields or escapes (`{tp}`, `{port!r}`, `{x:>10}`)."""
_FIELD_HEAD = r"\{[ \t\f]*(" + _COMMON + r")(?:((?<![<>])[ \t\f]*=[ \t\f]*)|[ \t\f]*)(?:!([rsa]))?(?=[:}])"
"""A field's `{`, common expression, debug `=` and conversion, up to its spec or `}`
(compiled at its first use, through `re`'s cache: about 1 ms, paid only by a file with
such a field)."""
_CLOSING = {"(": ")", "[": "]", "{": "}"}
_LARGE = 65_536
"""A literal's length past which the cyclic garbage collector is paused while it is split
(a third of the time of 350,000 fields; the parts hold no cycle)."""
_DEEPEST = 300
"""Nesting past which the literal is refused (two steps a level: a field, then the spec or
string in it): 150 levels, CPython 3.12's own bound on nested f-strings; a RecursionError
before that (a caller already deep) refuses it too."""


class _Malformed(Exception):
    """Not a well-formed f-string: the caller falls back to another reader."""


def split_fstring(source: str) -> list[Part] | None:
    """The parts of the f-string literal `source` (prefix and quotes included), in order,
    offsets into `source`; None when `source` is not one well-formed f-string literal."""
    opening = _OPENING.match(source)
    if opening is None or opening.group(1).lower() not in _PREFIXES:
        return None
    scanner = _Scanner(source)
    collecting = len(source) > _LARGE and gc.isenabled()
    if collecting:  # a part is a new tuple: the collector would walk them all, again and again
        gc.disable()
    try:
        parts, end = scanner.body(opening.end(), opening.group(2), "r" in opening.group(1).lower(), False, 0)
    except (_Malformed, RecursionError):
        return None
    finally:
        if collecting:
            gc.enable()
    return parts if end == len(source) else None


class _Scanner:
    """Reads the parts of one literal (`body`), and skips strings inside its fields."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.length = len(source)

    def body(self, pos: int, quote: str, raw: bool, spec: bool, depth: int) -> tuple[list[Part], int]:
        """The parts from `pos` to the closing `quote` (the position after it returned), or,
        in a format spec (`spec` True), to the `}` closing the field (its position)."""
        if depth > _DEEPEST:
            raise _Malformed
        source = self.source
        run = _RUN
        triple = len(quote) == 3
        parts: list[Part] = []
        text_start = pos
        while True:
            # text characters, then a common field if one is there (one call for both: the
            # commonest case); its groups' (start, end) at once
            found = run(source, pos)
            if found is None:  # (never: each part of the pattern may match nothing)
                raise _Malformed
            (
                (_, pos),
                (field_start, _),
                (expression_start, expression_end),
                (conversion, _),
                (spec_start, spec_end),
            ) = found.regs
            if field_start >= 0:
                if field_start > text_start:
                    parts.append(_new(Text, (text_start, field_start)))
                conversion_char = None if conversion < 0 else source[conversion]
                spec_parts: list[Part] | None = None
                if spec_start >= 0:
                    spec_parts = [_new(Text, (spec_start, spec_end))] if spec_end > spec_start else []
                field = _new(
                    Field,
                    (field_start, pos, expression_start, expression_end, None, conversion_char, spec_parts),
                )
                parts.append(field)
                text_start = pos
                continue
            char = source[pos : pos + 1]
            if char == "{":
                if not spec and source.startswith("{", pos + 1):
                    pos += 2
                    continue
                if pos > text_start:
                    parts.append(Text(text_start, pos))
                field, pos = self.field(pos, quote, raw, depth + 1)
                parts.append(field)
                text_start = pos
            elif char == "}":
                if spec:
                    if pos > text_start:
                        parts.append(Text(text_start, pos))
                    return parts, pos
                if not source.startswith("}", pos + 1):
                    raise _Malformed
                pos += 2
            elif char == "\\":
                pos = self.escape(pos, raw)
            elif char in ("\n", "\r"):
                if not triple:
                    raise _Malformed
                pos += 1
            elif not char:
                raise _Malformed
            elif source.startswith(quote, pos):
                if spec:
                    raise _Malformed
                if pos > text_start:
                    parts.append(Text(text_start, pos))
                return parts, pos + len(quote)
            else:  # the other quote, or one quote character in a triple-quoted literal
                pos += 1

    def escape(self, pos: int, raw: bool) -> int:
        """After the backslash at `pos` in text: `\\{` is a backslash then a field, `\\N{...}`
        one escape (not in a raw literal), any other backslash keeps the next character in
        the text (a quote, a line break: CR LF both)."""
        source = self.source
        following = source[pos + 1 : pos + 2]
        if following in ("{", "}"):
            return pos + 1
        if following == "N" and not raw and source.startswith("{", pos + 2):
            name = _NAME_END.match(source, pos + 3)
            if name is None:
                raise _Malformed
            return name.end()
        if following == "\r" and source.startswith("\n", pos + 2):
            return pos + 3
        if not following:
            raise _Malformed
        return pos + 2

    def field(self, start: int, quote: str, raw: bool, depth: int) -> tuple[Field, int]:
        """The field whose `{` is at `start`, and the position after its `}`."""
        source = self.source
        head = re.compile(_FIELD_HEAD).match(source, start)
        if head is None:
            expression_start, expression_end, debug, conversion, pos = self.head(start, depth)
        else:  # a common expression, before a spec with fields or after a debug `=`
            (_, pos), (expression_start, expression_end), (debug_start, debug_end), (conversion_at, _) = (
                head.regs
            )
            debug = None if debug_start < 0 else source[debug_start:debug_end]
            conversion = None if conversion_at < 0 else source[conversion_at]
        spec = None
        if source.startswith(":", pos):
            spec, pos = self.body(pos + 1, quote, raw, True, depth + 1)
        if not source.startswith("}", pos):
            raise _Malformed
        pos += 1
        return Field(start, pos, expression_start, expression_end, debug, conversion, spec), pos

    def head(self, start: int, depth: int) -> tuple[int, int, str | None, str | None, int]:
        """A field's expression (start, end), debug `=`, conversion, and where its spec or
        its `}` is (any expression: strings, brackets, comments, line breaks in it)."""
        source = self.source
        stop, comments, closes = self.expression(start + 1, depth)
        comment_starts = {end: begin for begin, end in comments.items()} if comments else None
        expression_start = self.after_blank(start + 1, stop, comments)
        expression_end = self.before_blank(expression_start, stop, comment_starts)
        if expression_start >= expression_end:
            raise _Malformed  # CPython: "empty expression not allowed"
        written_end = expression_end
        while (
            closes and source[expression_start] == "(" and closes.get(expression_start) == expression_end - 1
        ):
            expression_start = self.after_blank(expression_start + 1, expression_end - 1, comments)
            expression_end = self.before_blank(expression_start, expression_end - 1, comment_starts)
        pos = stop
        debug = None
        if source.startswith("=", pos):
            pos = self.after_blank(pos + 1, self.length, None)
            debug = source[written_end:pos]
        conversion = None
        if source.startswith("!", pos):
            conversion = source[pos + 1 : pos + 2]
            if conversion not in ("r", "s", "a") or _WORD.match(source, pos + 2):
                raise _Malformed
            pos = self.after_blank(pos + 2, self.length, None)
        return expression_start, expression_end, debug, conversion, pos

    def expression(self, pos: int, depth: int) -> tuple[int, dict[int, int], dict[int, int]]:
        """Where the expression starting at `pos` stops (at its top-level `}`, `:`, `!`
        that is no `!=`, `=` that is no `==`, `<=`, `>=`); the comments in it; where each
        of its `(` is closed."""
        source = self.source
        find = _EXPRESSION.search
        open_brackets: list[tuple[str, int]] = []
        comments: dict[int, int] = {}
        closes: dict[int, int] = {}
        while True:
            found = find(source, pos)
            if found is None:
                raise _Malformed
            pos = found.start()
            char = source[pos]
            if char in "([{":
                open_brackets.append((char, pos))
                pos += 1
            elif char in ")]}":
                if not open_brackets:
                    if char == "}":
                        return pos, comments, closes
                    raise _Malformed
                opening, at = open_brackets.pop()
                if _CLOSING[opening] != char:
                    raise _Malformed
                if opening == "(":
                    closes[at] = pos
                pos += 1
            elif char in "'\"":
                pos = self.string(pos, depth)
            elif char == "#":
                line_end = _LINE_END.search(source, pos)
                if line_end is None:
                    raise _Malformed
                comments[pos] = line_end.start()
                pos = line_end.start()
            elif char == "\\":  # a line continuation (3.12)
                pos = pos + 3 if source.startswith("\r\n", pos + 1) else pos + 2
            elif open_brackets:
                pos += 1
            elif char == ":":
                return pos, comments, closes
            elif char == "!":
                if not source.startswith("=", pos + 1):
                    return pos, comments, closes
                pos += 2
            elif source.startswith("=", pos + 1):  # `==`
                pos += 2
            elif source[pos - 1] in "<>":  # `<=`, `>=`
                pos += 1
            else:
                return pos, comments, closes

    def string(self, pos: int, depth: int) -> int:
        """The position after the string whose quote is at `pos`, inside a field (its prefix
        is the word before the quote, if that word is one: `else"x"` has none)."""
        source = self.source
        word_start = pos
        while word_start > 0 and (source[word_start - 1].isalnum() or source[word_start - 1] == "_"):
            word_start -= 1
        prefix = source[word_start:pos].lower()
        if prefix not in _STRING_PREFIXES:
            prefix = ""
        quote = source[pos : pos + 3] if source.startswith(source[pos] * 3, pos) else source[pos]
        raw = "r" in prefix
        if "f" in prefix or "t" in prefix:
            return self.body(pos + len(quote), quote, raw, False, depth + 1)[1]
        find = _PLAIN_STRING[quote[0]].search
        pos += len(quote)
        while True:
            found = find(source, pos)
            if found is None:
                raise _Malformed
            pos = found.start()
            char = source[pos]
            if char == "\\":
                pos = pos + 3 if source.startswith("\r\n", pos + 1) else pos + 2
            elif char != quote[0]:  # a line break
                if len(quote) == 1:
                    raise _Malformed
                pos += 1
            elif source.startswith(quote, pos):
                return pos + len(quote)
            else:
                pos += 1

    def after_blank(self, pos: int, stop: int, comments: dict[int, int] | None) -> int:
        """The first position from `pos` (before `stop`) that is not whitespace, a line
        continuation or a comment (`comments`: where each ends, by where it starts)."""
        source = self.source
        while pos < stop:
            char = source[pos]
            if char in _BLANK:
                pos += 1
            elif char == "\\" and source[pos + 1 : pos + 2] in ("\n", "\r"):
                pos += 2
            elif char == "#" and comments and pos in comments:
                pos = comments[pos]
            else:
                break
        return pos

    def before_blank(self, start: int, pos: int, comment_starts: dict[int, int] | None) -> int:
        """The position after the last character before `pos` (from `start`) that is not
        whitespace, a line continuation or a comment (`comment_starts`: where each starts, by
        where it ends)."""
        source = self.source
        while pos > start:
            char = source[pos - 1]
            if char not in _BLANK:
                break
            pos -= 1
            if char in "\n\r":
                if comment_starts and pos in comment_starts:  # the end of a comment's line
                    pos = comment_starts[pos]
                elif pos > start and source[pos - 1] == "\\":
                    pos -= 1
        return pos
