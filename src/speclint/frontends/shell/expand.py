"""Turning tree-sitter argument nodes into the words a command receives, as bash would.

Quote removal, parameter expansion from the known variables, word splitting of unquoted
expansions and bash arrays are done statically; anything that would need running something
(command substitution, arithmetic, globbing, unknown variables) yields a dynamic word.
A node as the pieces of a word is the Expander's base class (word_pieces.py), variables and
`${...}` its base (parameter_expansion.py); quote removal is quoting.py.
"""

from __future__ import annotations

from dataclasses import replace

from speclint.core.records import dataclass
from speclint.core.spans import Span
from speclint.core.words import Word
from speclint.frontends.shell.fields import assemble
from speclint.frontends.shell.parameter_expansion import SPECIAL_NOT_SPLIT
from speclint.frontends.shell.plain_words import TOO_BIG, after_target, plain_words, too_big, written
from speclint.frontends.shell.quoting import unescape_unquoted
from speclint.frontends.shell.variables import MAX_ELEMENTS, MAX_VALUE_CHARS, VarValue
from speclint.frontends.shell.word_pieces import WordPieces
from speclint.frontends.shell.written_chars import quoted_chars, string_written

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from tree_sitter import Node

    from speclint.frontends.shell.fields import Piece
    from speclint.frontends.shell.text import TextMap
    from speclint.frontends.shell.variables import Env, Run
    from speclint.frontends.shell.written_chars import Partly

_NEEDS_EXPANSION = frozenset(b"\\*?[{~")
"""The bytes a word needs expanded for (a set test: a regex search costs more to start)."""
_NOT_WORDS = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect", "comment"})
"""Children of a command that give it no words."""


@dataclass(slots=True)
class Arg:
    """An argv word plus the node it was written as, when it is that whole node (needed to
    re-parse the content of a `bash -c '...'` string with exact positions)."""

    word: Word
    node: Node | None


class Expander(WordPieces):
    """Expands nodes of one buffer against one `Env`."""

    def __init__(self, tm: TextMap, env: Env, on_substitution: Callable[[Node], None] | None = None):
        self.tm = tm
        self.env = env
        self.on_substitution = on_substitution
        self._argument_mode = True
        self._said: list[tuple[Span, str]] = []

    heredoc_value: Callable[[Expander, Node, Span], VarValue | None] | None = None
    """`$(cat << EOF ... EOF)`'s value (`substituted_heredoc`, handed in by the walker)."""

    # ---- public entry points -------------------------------------------------------------

    def command_words(self, node: Node) -> tuple[dict[str, Word], list[Arg]]:
        """A command's assignments before its name (`X=1 cmd`: name -> value as a word) and
        the words it receives, in the order bash expands them. The plain words (most of a
        launch) are made by one `plain_words` call, not a `words` call and list each."""
        tm = self.tm
        words = self.words
        prefix: dict[str, Word] = {}
        args: list[Arg] = []
        children = node.children
        for child, kind in zip(children, plain_words(tm, children)):
            if not isinstance(kind, str):
                args.append(Arg(kind, child))
            elif kind == "word" or kind == "number":
                args.extend(words(child))
            elif kind == "variable_assignment" and not args:
                name_node = child.child_by_field_name("name")
                value_node = child.child_by_field_name("value")
                origin = tm.node_span(value_node) if value_node is not None else tm.node_span(child)
                if name_node is not None:
                    prefix[tm.node_text(name_node)] = self.value(value_node, origin).as_word(origin)
            elif kind == "command_name":
                parts = child.named_children
                for part, part_kind in zip(parts, plain_words(tm, parts)):
                    if not isinstance(part_kind, str):
                        args.append(Arg(part_kind, part))
                    else:
                        args.extend(words(part))
            elif kind not in _NOT_WORDS and child.is_named:
                args.extend(words(child))
        parent = node.parent
        if parent is not None and parent.type == "redirected_statement" and node.type == "command":
            for redirect in parent.children:
                if redirect.type == "file_redirect":
                    for word in after_target(redirect):
                        args.extend(words(word))
        return prefix, args

    def words(self, node: Node) -> list[Arg]:
        """The words an argument node becomes (zero, one or several)."""
        tm = self.tm
        kind = node.type
        if kind == "word" or kind == "number":
            if tm.plain:
                plain = plain_words(tm, (node,))[0]
                if not isinstance(plain, str):
                    return [Arg(plain, node)]
            else:
                raw = tm.data[node.start_byte : node.end_byte]
                if _NEEDS_EXPANSION.isdisjoint(raw):
                    return [Arg(Word(raw.decode("utf-8", "surrogatepass"), tm.node_span(node)), node)]
        elif kind == "raw_string":
            return [Arg(Word(tm.node_text(node)[1:-1], tm.node_span(node)), node)]
        elif kind == "string" and node.named_child_count == 1:
            child = node.named_child(0)  # (not `named_children`: one Node made, not a list of them)
            if child.type == "expansion":
                elements = self._quoted_array(node)
                if elements is not None:
                    return elements
            else:
                quoted = self._quoted_variable(node, child)
                if quoted is not None:
                    return [quoted]
        pieces: list[Piece] = []
        self._argument_mode = True
        if self._said:
            self._said.clear()
        self._pieces(node, False, pieces, True)
        span = tm.node_span(node)
        if too_big(pieces):
            return [Arg(Word(None, span, dynamic_reason=TOO_BIG, splat=True), None)]
        fields = assemble(pieces)
        words = [field.word(span, span) for field in fields]
        if self._said:  # a default the environment decides (`${ALGO:-EAGLE}`): said on its words
            from speclint.frontends.shell.said_defaults import said_on

            words = said_on(words, self._said)
        if len(words) == 1 and (words[0].span is span or words[0].span == span):
            return [Arg(words[0], node)]
        return [Arg(word, None) for word in words]

    def _quoted_variable(self, node: Node, child: Node) -> Arg | None:
        """`"$NAME"` of a variable with a known text: the word the general path would build
        from its pieces (the text, from where it was assigned), without them; else None."""
        if (
            child.type != "simple_expansion"
            or child.start_byte != node.start_byte + 1
            or child.end_byte != node.end_byte - 1
            or not child.named_child_count
        ):
            return None
        name = self.tm.node_text(child.named_child(child.named_child_count - 1))
        if name in ("@", "*") or name.isdigit() or name in SPECIAL_NOT_SPLIT:
            return None
        value = self.env.get(name)
        if (
            value is None
            or value.reason is not None
            or value.elements is not None
            or value.element is not None
        ):
            return None
        text = value.text or ""
        if len(text) > MAX_VALUE_CHARS:
            return None
        self._argument_mode = True
        return Arg(Word(text, self.tm.node_span(node), value.origin, made_by=value.made_by), node)

    def _quoted_array(self, node: Node) -> list[Arg] | None:
        """`"${NAME[@]}"` of an array whose elements are tracked: one word per element, where
        the element is written and expanded at `node`, as the general path makes them from
        its pieces (`fields._add_element`, `Field.word`), without them; else None."""
        tm = self.tm
        raw = tm.data[node.start_byte : node.end_byte]
        if not (raw.startswith(b'"${') and raw.endswith(b'[@]}"') and raw.isascii()):
            return None
        name = raw[3:-5].decode()
        if not name.isidentifier():  # (ASCII: a bash name)
            return None
        value = self.env.get(name) if name not in SPECIAL_NOT_SPLIT else None
        if value is None or value.reason is not None or value.elements is None:
            return None
        elements = value.elements
        if len(elements) > MAX_ELEMENTS or sum(len(w.text or "") for w in elements) > MAX_VALUE_CHARS:
            return None
        self._argument_mode = True
        span = tm.node_span(node)
        words = [
            Word(element.text, element.span, element.origin, None, False, span)
            if element.text is not None
            else Word(
                None,
                element.span,
                element.origin,
                element.dynamic_reason or "unknown array element",
                element.splat or False,
                span,
            )
            for element in elements
        ]
        if len(words) == 1 and (words[0].span is span or words[0].span == span):
            return [Arg(words[0], node)]
        return [Arg(word, None) for word in words]

    def value(self, node: Node | None, origin: Span) -> VarValue:
        """An assignment's right-hand side (no word splitting, no globbing); when its text is
        the default of `${NAME:-default}` the environment decides, it says so (`made_by`)."""
        said = self._said
        if said:
            said.clear()
        found = self._value(node, origin)
        if said:
            made = {made for _, made in said}
            said.clear()
            if len(made) == 1 and found.text is not None and found.made_by is None:
                from speclint.frontends.shell.said_defaults import value_said

                return value_said(found, made.pop())
        return found

    def _value(self, node: Node | None, origin: Span) -> VarValue:
        if node is None:
            return VarValue(text="", origin=origin)
        kind = node.type
        if kind == "word" or kind == "number":  # what `_pieces` and `_joined` make of it
            text = unescape_unquoted(self.tm.node_text(node))
            if len(text) <= MAX_VALUE_CHARS:
                return VarValue(text=text, origin=origin, written=written(self.tm, node, text, 0))
        elif kind == "raw_string" or (kind == "string" and _plain_string(self.tm.node_text(node))):
            text = self.tm.node_text(node)[1:-1]  # `'...'`, `"..."` with nothing bash expands
            if len(text) <= MAX_VALUE_CHARS:
                where = written(self.tm, node, text, 1)
                if where is None and "\n" in text:  # (a string over lines: `written_chars`)
                    return VarValue(text=text, origin=origin, written=quoted_chars(self.tm, node, text))
                return VarValue(text=text, origin=origin, written=where)
        elif kind == "array":
            return VarValue(elements=self.array_elements(node), origin=origin)
        elif kind == "command_substitution" and self.heredoc_value is not None:  # `$(cat << EOF`
            found = self.heredoc_value(self, node, origin)
            if found is not None:
                if self.on_substitution is not None:
                    self.on_substitution(node)
                return found
        pieces: list[Piece] = []
        self._argument_mode = False
        try:
            self._pieces(node, True, pieces, True)
        finally:
            self._argument_mode = True
        value = self._joined(pieces, origin)
        joined = value.text
        if kind == "string" and joined is not None and value.element is None:
            chars = string_written(self.tm, node, joined, self.expanded_text, self._placed)
            return value if chars is None else VarValue(text=joined, origin=origin, written=chars)
        if kind == "string" and value.runs is not None:  # partly known: where each known run is
            from speclint.frontends.shell.written_chars import run_chars

            at = run_chars(self.tm, node, value.runs, self.expanded_text, self._placed, self._partly)
            return value if at is None else replace(value, runs_written=at)
        if kind == "concatenation" and joined is not None and value.element is None:
            from speclint.frontends.shell.written_chars import concatenation_chars

            parts = concatenation_chars(
                self.tm, node, joined, self._string_text, self.expanded_text, self._placed
            )
            return value if parts is None else VarValue(text=joined, origin=origin, written=parts)
        return value

    def _string_text(self, node: Node) -> str | None:
        """The value of one double-quoted part of a concatenation, None when not known text."""
        pieces: list[Piece] = []
        self._argument_mode = False
        try:
            self._string_pieces(node, pieces)
        finally:
            self._argument_mode = True
        texts = [piece[1] for piece in pieces if piece[0] in ("lit", "val")]
        return "".join(texts) if len(texts) == len(pieces) else None

    def expanded_text(self, node: Node) -> str | None:
        """The text of an expansion in a double-quoted string, None when not known text
        (asked after the string's value was made: no substitution reported again)."""
        pieces: list[Piece] = []
        hook, self.on_substitution, self._argument_mode = self.on_substitution, None, False
        try:
            self._pieces(node, True, pieces, False)
        finally:
            self.on_substitution, self._argument_mode = hook, True
        texts: list[str] = []
        for piece in pieces:
            if piece[0] != "lit" and piece[0] != "val":
                return None
            texts.append(piece[1])
        return "".join(texts)

    def _partly(self, node: Node) -> Partly | None:
        """The runs of `$NAME` or `${NAME}` in a double-quoted string, when partly known, and
        where each is written (`written_chars.run_chars`)."""
        raw = self.tm.node_text(node).lstrip()
        name = raw[2:-1] if raw.startswith("${") and raw.endswith("}") else raw[1:]
        value = self.env.get(name) if name.isidentifier() else None
        return (value.runs, value.runs_written) if value is not None and value.runs is not None else None

    def _placed(self, node: Node, text: str) -> tuple[list[int], list[int]] | None:
        """Where the characters of `$NAME` or `${NAME}` in a double-quoted string are written,
        when its value is `text` and known character for character (`written_chars`)."""
        raw = self.tm.node_text(node).lstrip()  # (tree-sitter-bash may start it at a blank)
        name = raw[2:-1] if raw.startswith("${") and raw.endswith("}") else raw[1:]
        value = self.env.get(name) if name.isidentifier() else None
        if value is None or value.text != text or value.reason is not None or value.written is None:
            return None
        from speclint.frontends.shell.written_chars import known_chars

        return known_chars(self.tm, (text, value.written, value.origin))

    def special_value(self, name: str, origin: Span) -> VarValue:
        """`$1`, `$@`, `$#`, `$$` ... written in text bash expands as one word (an unquoted
        here-document's lines, where tree-sitter-bash leaves them as text)."""
        pieces: list[Piece] = []
        self._variable(name, True, pieces)
        return self._joined(pieces, origin)

    def _joined(self, pieces: list[Piece], origin: Span) -> VarValue:
        """The pieces of a word expanded without splitting, as one value."""
        if too_big(pieces):
            return VarValue(reason=TOO_BIG, origin=origin)
        parts: list[str] = []
        runs: list[Run] = []  # when a part is unknown: the known and unknown runs
        for piece in pieces:
            if piece[0] == "lit" or piece[0] == "val":
                parts.append(piece[1])
            elif piece[0] == "dyn":
                runs.append(("".join(parts), "", None))
                runs.append((None, piece[1], piece[3]))
                parts = []
            else:
                payload = piece[1]
                texts = [w.text for w in payload]
                if None in texts:
                    reason = next(w.dynamic_reason for w in payload if w.text is None)
                    return VarValue(reason=reason or "unknown array element", origin=origin)
                parts.append(" ".join(t or "" for t in texts))
        if not runs:
            if len(pieces) == 1 and pieces[0][0] == "arr" and pieces[0][4] and len(pieces[0][1]) == 1:
                word = pieces[0][1][0]  # `local model=$1`: the call's word, where it is written
                return VarValue(text=word.text, origin=origin, element=word)
            return VarValue(text="".join(parts), origin=origin)
        runs.append(("".join(parts), "", None))
        reason = next(run[1] for run in runs if run[0] is None)
        known = tuple(run for run in runs if run[0] != "")
        return VarValue(reason=reason, origin=origin, runs=known if any(r[0] for r in known) else None)

    def array_elements(self, node: Node) -> tuple[Word, ...]:
        """The words of `(a b "$c")`: the plain elements made by one `plain_words` call."""
        words = self.words
        elements: list[Word] = []
        children = node.named_children
        for child, kind in zip(children, plain_words(self.tm, children)):
            if not isinstance(kind, str):
                elements.append(kind)
            elif kind != "comment":
                for arg in words(child):  # (a loop: a generator per element cost more)
                    elements.append(arg.word)
        return tuple(elements)


def _plain_string(text: str) -> bool:
    """`"..."` with nothing inside bash expands or ends (no `"`, `$`, a backquote, `\\`): what the
    regex `"[^"$`\\]*"` fullmatches, without compiling one at import."""
    inner = text[1:-1]
    return len(text) >= 2 and text[0] == text[-1] == '"' and not any(c in inner for c in '"$`\\')
