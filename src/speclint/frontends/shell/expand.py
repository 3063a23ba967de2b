"""Turning tree-sitter argument nodes into the words a command receives, as bash would.

Quote removal, parameter expansion from the known variables, word splitting of unquoted
expansions and bash arrays are done statically; anything that would need running something
(command substitution, arithmetic, globbing, unknown variables) yields a dynamic word.
"""

from __future__ import annotations

import re
from functools import cache

from speclint.core.records import dataclass
from speclint.core.spans import Span
from speclint.core.words import Word
from speclint.frontends.shell.fields import assemble, has_unescaped
from speclint.frontends.shell.variables import MAX_ELEMENTS, MAX_VALUE_CHARS, VarValue

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from tree_sitter import Node

    from speclint.frontends.shell.fields import Piece
    from speclint.frontends.shell.text import TextMap
    from speclint.frontends.shell.variables import Env

_NEEDS_EXPANSION = re.compile(rb"[\\*?\[{~]")


@cache  # compiled on first use, as the two below: most words hold no escape
def _dq_escape() -> re.Pattern[str]:
    return re.compile(r'\\([\\"$`\n])')


@cache
def _any_escape() -> re.Pattern[str]:
    return re.compile(r"\\(.)", re.S)


@cache
def _ansi_c() -> re.Pattern[str]:
    return re.compile(r"\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|u[0-9a-fA-F]{1,4}|.)", re.S)


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
_SPECIAL_NOT_SPLIT = {"#": "$#", "?": "$?", "$": "$$", "!": "$!", "-": "$-", "0": "$0", "_": "$_"}


@dataclass(slots=True)
class Arg:
    """An argv word plus the node it was written as, when it is that whole node (needed to
    re-parse the content of a `bash -c '...'` string with exact positions)."""

    word: Word
    node: Node | None


def _unescape_unquoted(raw: str) -> str:
    if "\\" not in raw:
        return raw
    return _any_escape().sub(lambda m: "" if m.group(1) == "\n" else m.group(1), raw)


def unescape_double_quoted(raw: str) -> str:
    if "\\" not in raw:
        return raw
    return _dq_escape().sub(lambda m: "" if m.group(1) == "\n" else m.group(1), raw)


def _decode_ansi_c(body: str) -> str:
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


_TOO_BIG = f"expands to more than {MAX_VALUE_CHARS // 1024} KiB or {MAX_ELEMENTS} words; not tracked"


def _too_big(pieces: list[Piece]) -> bool:
    """Whether the expanded text would pass the bound (checked before anything is joined)."""
    chars = words = 0
    for piece in pieces:
        if piece[0] in ("lit", "val"):
            chars += len(piece[1])
        elif piece[0] == "arr":
            words += len(piece[1])
            chars += sum(len(w.text or "") for w in piece[1])
    return chars > MAX_VALUE_CHARS or words > MAX_ELEMENTS


class Expander:
    """Expands nodes of one buffer against one `Env`."""

    def __init__(self, tm: TextMap, env: Env, on_substitution: Callable[[Node], None] | None = None):
        self.tm = tm
        self.env = env
        self.on_substitution = on_substitution
        self._argument_mode = True

    # ---- public entry points -------------------------------------------------------------

    def words(self, node: Node) -> list[Arg]:
        """The words an argument node becomes (zero, one or several)."""
        tm = self.tm
        kind = node.type
        if kind in ("word", "number"):
            raw = tm.data[node.start_byte : node.end_byte]
            if _NEEDS_EXPANSION.search(raw) is None:
                return [Arg(Word(raw.decode("utf-8", "surrogatepass"), tm.node_span(node)), node)]
        elif kind == "raw_string":
            return [Arg(Word(tm.node_text(node)[1:-1], tm.node_span(node)), node)]
        elif kind == "string" and node.named_child_count == 1:
            quoted = self._quoted_variable(node)
            if quoted is not None:
                return [quoted]
        pieces: list[Piece] = []
        self._argument_mode = True
        self._pieces(node, False, pieces, True)
        span = tm.node_span(node)
        if _too_big(pieces):
            return [Arg(Word(None, span, dynamic_reason=_TOO_BIG, splat=True), None)]
        fields = assemble(pieces)
        words = [field.word(span, span) for field in fields]
        if len(words) == 1 and (words[0].span is span or words[0].span == span):
            return [Arg(words[0], node)]
        return [Arg(word, None) for word in words]

    def _quoted_variable(self, node: Node) -> Arg | None:
        """`"$NAME"` of a variable with a known text: the word the general path would build
        from its pieces (the text, from where it was assigned), without them; else None."""
        child = node.named_children[0]
        if (
            child.type != "simple_expansion"
            or child.start_byte != node.start_byte + 1
            or child.end_byte != node.end_byte - 1
            or not child.named_child_count
        ):
            return None
        name = self.tm.node_text(child.named_children[-1])
        if name in ("@", "*") or name.isdigit() or name in _SPECIAL_NOT_SPLIT:
            return None
        value = self.env.get(name)
        if value is None or value.reason is not None or value.elements is not None:
            return None
        text = value.text or ""
        if len(text) > MAX_VALUE_CHARS:
            return None
        self._argument_mode = True
        return Arg(Word(text, self.tm.node_span(node), value.origin), node)

    def value(self, node: Node | None, origin: Span) -> VarValue:
        """An assignment's right-hand side (no word splitting, no globbing)."""
        if node is None:
            return VarValue(text="", origin=origin)
        if node.type == "array":
            return VarValue(elements=self.array_elements(node), origin=origin)
        pieces: list[Piece] = []
        self._argument_mode = False
        try:
            self._pieces(node, True, pieces, True)
        finally:
            self._argument_mode = True
        if _too_big(pieces):
            return VarValue(reason=_TOO_BIG, origin=origin)
        parts: list[str] = []
        for piece in pieces:
            if piece[0] == "lit" or piece[0] == "val":
                parts.append(piece[1])
            elif piece[0] == "dyn":
                return VarValue(reason=piece[1], origin=origin)
            else:
                payload = piece[1]
                texts = [w.text for w in payload]
                if None in texts:
                    reason = next(w.dynamic_reason for w in payload if w.text is None)
                    return VarValue(reason=reason or "unknown array element", origin=origin)
                parts.append(" ".join(t or "" for t in texts))
        return VarValue(text="".join(parts), origin=origin)

    def array_elements(self, node: Node) -> tuple[Word, ...]:
        elements: list[Word] = []
        for child in node.named_children:
            if child.type != "comment":
                elements.extend(arg.word for arg in self.words(child))
        return tuple(elements)

    # ---- pieces ------------------------------------------------------------------------------

    def _pieces(self, node: Node, quoted: bool, out: list[Piece], first: bool) -> None:
        kind = node.type
        tm = self.tm
        if kind in ("word", "number"):
            raw = tm.node_text(node)
            if first and raw.startswith("~") and not quoted:
                out.append(("dyn", "home directory `~` (depends on the user running it)", False, None, False))
                return
            if self._argument_mode and not quoted:
                if has_unescaped(raw, "*?["):
                    out.append(
                        ("dyn", f"glob pattern `{raw}` (depends on the files present)", False, None, True)
                    )
                    return
                if has_unescaped(raw, "{") and (has_unescaped(raw, ",") or ".." in raw):
                    out.append(("dyn", f"brace expansion `{raw}`", False, None, True))
                    return
            out.append(("lit", _unescape_unquoted(raw), quoted, None, None))
        elif kind == "raw_string":
            out.append(("lit", tm.node_text(node)[1:-1], True, None, None))
        elif kind == "string":
            self._string_pieces(node, out)
        elif kind == "ansi_c_string":
            out.append(("lit", _decode_ansi_c(tm.node_text(node)[2:-1]), True, None, None))
        elif kind == "translated_string":
            text = tm.node_text(node)
            out.append(("lit", unescape_double_quoted(text[2:-1]), True, None, None))
        elif kind == "concatenation":
            self._concatenation_pieces(node, quoted, out, first)
        elif kind == "simple_expansion":
            name_node = node.named_children[-1] if node.named_child_count else None
            name = tm.node_text(name_node) if name_node is not None else ""
            self._variable(name, quoted, out)
        elif kind == "expansion":
            self._expansion(node, quoted, out)
        elif kind == "command_substitution":
            if self.on_substitution is not None:
                self.on_substitution(node)
            text = " ".join(tm.node_text(node).split())
            snippet = text if len(text) <= 40 else text[:37] + "..."
            out.append(("dyn", f"output of command substitution `{snippet}`", False, None, not quoted))
        elif kind == "arithmetic_expansion":
            out.append(("dyn", f"arithmetic expansion `{tm.node_text(node)}`", False, None, False))
        elif kind == "process_substitution":
            out.append(("dyn", "process substitution (a /dev/fd path)", False, None, False))
        elif kind == "brace_expression":
            out.append(("dyn", f"brace expansion `{tm.node_text(node)}`", False, None, True))
        elif not node.is_named:
            out.append(("lit", tm.node_text(node), quoted, None, None))
        else:
            out.append(("dyn", f"shell syntax not analysed ({kind})", False, None, not quoted))

    def _string_pieces(self, node: Node, out: list[Piece]) -> None:
        tm = self.tm
        start = len(out)
        pos, end = node.start_byte + 1, node.end_byte - 1
        for child in node.children:
            if not child.is_named and child.type == '"':
                continue
            if child.start_byte > pos:
                out.append(
                    (
                        "lit",
                        unescape_double_quoted(tm.data[pos : child.start_byte].decode()),
                        True,
                        None,
                        None,
                    )
                )
            if child.type == "string_content" or not child.is_named:
                out.append(("lit", unescape_double_quoted(tm.node_text(child)), True, None, None))
            else:
                self._pieces(child, True, out, False)
            pos = max(pos, child.end_byte)
        if end > pos:
            out.append(("lit", unescape_double_quoted(tm.data[pos:end].decode()), True, None, None))
        if not any(piece[0] == "arr" for piece in out[start:]):
            out.append(("lit", "", True, None, None))  # "" is still a word; "${EMPTY[@]}" is none

    def _concatenation_pieces(self, node: Node, quoted: bool, out: list[Piece], first: bool) -> None:
        children = node.children
        texts = [self.tm.node_text(c) if c.type == "word" else "" for c in children]
        if self._argument_mode and not quoted and "{" in texts and "}" in texts:
            out.append(("dyn", f"brace expansion `{self.tm.node_text(node)}`", False, None, True))
            return
        for index, child in enumerate(children):
            self._pieces(child, quoted, out, first and index == 0)

    # ---- variables ---------------------------------------------------------------------------

    def _variable(self, name: str, quoted: bool, out: list[Piece]) -> None:
        env = self.env
        if name in ("@", "*"):
            out.append(("dyn", env.positional_reason, False, None, name == "@" or not quoted))
        elif name.isdigit():
            out.append(("dyn", env.positional_reason, False, None, not quoted))
        elif name in _SPECIAL_NOT_SPLIT:
            out.append(("dyn", f"special parameter {_SPECIAL_NOT_SPLIT[name]}", False, None, False))
        else:
            value = env.get(name)
            if value is None:
                out.append(("dyn", env.unknown_reason(name), False, None, not quoted))
            else:
                self._emit_scalar(value, quoted, out)

    def _emit_scalar(self, value: VarValue, quoted: bool, out: list[Piece]) -> None:
        if value.reason is not None:
            out.append(("dyn", value.reason, False, value.origin, not quoted))
        elif value.elements is not None:
            if value.elements:
                head = value.elements[0]
                self._emit_array((head,), quoted, False, value.origin, out)
        else:
            out.append(("val", value.text or "", quoted, value.origin, None))

    def _emit_array(
        self, elements: tuple[Word, ...], quoted: bool, star: bool, origin: Span | None, out: list[Piece]
    ) -> None:
        if quoted and star:
            texts = [w.text for w in elements]
            if None in texts:
                out.append(("dyn", "array with an unknown element", False, origin, False))
            else:
                out.append(("val", " ".join(t or "" for t in texts), True, origin, None))
        else:
            out.append(("arr", elements, quoted, origin, None))

    def _expansion(self, node: Node, quoted: bool, out: list[Piece]) -> None:
        tm = self.tm
        env = self.env
        prefix = None
        target: Node | None = None
        operator: str | None = None
        operands: list[Node] = []
        for child in node.children:
            if target is None:
                if child.type in ("variable_name", "special_variable_name", "subscript"):
                    target = child
                elif not child.is_named and child.type in ("#", "!"):
                    prefix = child.type
            elif operator is None and not child.is_named and child.type != "}":
                operator = child.type
            elif operator is not None and child.type != "}":
                operands.append(child)
        text = tm.node_text(node)
        if target is None or prefix == "!":
            out.append(("dyn", f"parameter expansion `{text}`", False, None, not quoted))
            return
        index: str | None = None
        if target.type == "subscript":
            name_node = target.child_by_field_name("name")
            index_node = target.child_by_field_name("index")
            name = tm.node_text(name_node) if name_node is not None else ""
            index = tm.node_text(index_node) if index_node is not None else ""
        else:
            name = tm.node_text(target)
        value = (
            env.get(name)
            if not (name.isdigit() or name in ("@", "*") or name in _SPECIAL_NOT_SPLIT)
            else None
        )
        if prefix == "#":
            self._length(value, index, text, out)
            return
        if operator is None:
            if value is None or index is None:
                if value is None and index in ("@", "*") and not name.isdigit():
                    # "${UNKNOWN[@]}": any number of words, each may be a flag
                    out.append(("dyn", env.unknown_reason(name), False, None, index == "@" or not quoted))
                elif value is None:
                    self._variable(name, quoted, out)
                else:
                    self._emit_scalar(value, quoted, out)
                return
            self._subscript(value, name, index, quoted, out)
            return
        if operator in (":-", "-", ":=", "=", ":+", "+", ":?", "?") and index is None:
            self._default_operator(name, value, operator, operands, quoted, node, out)
            return
        out.append(("dyn", f"parameter expansion `{text}` is not evaluated", False, None, not quoted))

    def _subscript(self, value: VarValue, name: str, index: str, quoted: bool, out: list[Piece]) -> None:
        if value.reason is not None:
            splat = index == "@" or (index == "*" and not quoted) or not quoted
            out.append(("dyn", value.reason, False, value.origin, splat))
            return
        elements = value.elements
        if elements is None:  # a scalar is an array of one element
            elements = (
                (Word(value.text or "", value.origin or Span(1, 1, 1, 1), value.origin),)
                if value.is_set
                else ()
            )
        if index in ("@", "*"):
            self._emit_array(elements, quoted, index == "*", value.origin, out)
        elif index.isdigit():
            position = int(index)
            if position < len(elements):
                self._emit_array((elements[position],), quoted, False, value.origin, out)
        else:
            out.append(("dyn", f"array index `{index}` of ${name} is not static", False, None, not quoted))

    def _length(self, value: VarValue | None, index: str | None, text: str, out: list[Piece]) -> None:
        if value is not None and value.reason is None:
            if index in ("@", "*"):
                count = len(value.elements) if value.elements is not None else int(value.is_set)
                out.append(("val", str(count), True, None, None))
                return
            if index is None and value.elements is None:
                out.append(("val", str(len(value.text or "")), True, None, None))
                return
        out.append(("dyn", f"length expansion `{text}`", False, None, False))

    def _default_operator(
        self,
        name: str,
        value: VarValue | None,
        operator: str,
        operands: list[Node],
        quoted: bool,
        node: Node,
        out: list[Piece],
    ) -> None:
        env = self.env
        never_assigned = (
            value is None and env.poison is None and not name.isdigit() and name not in ("@", "*")
        )
        if value is not None and value.reason is not None or value is None and not never_assigned:
            reason = (
                value.reason
                if value is not None and value.reason
                else (
                    env.positional_reason
                    if (name.isdigit() or name in ("@", "*"))
                    else env.unknown_reason(name)
                )
            )
            out.append(("dyn", reason, False, value.origin if value else None, not quoted))
            return
        if value is None:
            is_set, is_empty = False, True
        else:
            is_set = value.is_set
            is_empty = not (value.elements[0].text if value.elements else value.text)
        check_empty = operator.startswith(":")
        missing = (not is_set) or (check_empty and is_empty)
        base = operator.lstrip(":")
        if base in ("-", "="):
            if not missing:
                self._emit_scalar(value, quoted, out)  # type: ignore[arg-type]
                return
            start = len(out)
            self._operand_pieces(operands, quoted, node, out)
            if base == "=" and operands:
                origin = self.tm.span(operands[0].start_byte, operands[-1].end_byte)
                saved = self._argument_mode
                pieces = out[start:]
                if any(p[0] in ("dyn", "arr") for p in pieces):
                    env.assign(
                        name, VarValue(reason=f"${name} set by `:=` to an unknown value", origin=origin)
                    )
                else:
                    env.assign(
                        name,
                        VarValue(
                            text="".join(
                                p[1]
                                for p in pieces  # all text here
                                if p[0] == "lit" or p[0] == "val"
                            ),
                            origin=origin,
                        ),
                    )
                self._argument_mode = saved
        elif base == "+":
            if not missing:
                self._operand_pieces(operands, quoted, node, out)
        else:  # ? and :? abort the script when missing, so past this point the value is set
            if value is not None:
                self._emit_scalar(value, quoted, out)
            else:  # set, but from the environment: unknown, never empty
                out.append(("dyn", env.unknown_reason(name), False, None, not quoted))

    def _operand_pieces(self, operands: list[Node], quoted: bool, node: Node, out: list[Piece]) -> None:
        tm = self.tm
        previous_end: int | None = None
        for index, operand in enumerate(operands):
            if previous_end is not None and operand.start_byte > previous_end:
                gap = tm.data[previous_end : operand.start_byte].decode()
                out.append(("val", gap, quoted, None, None))
            self._pieces(operand, quoted, out, index == 0)
            previous_end = operand.end_byte
