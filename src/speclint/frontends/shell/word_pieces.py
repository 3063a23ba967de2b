"""An argument node as the pieces of a word (see fields.Piece), before they are split and joined.

A part of `expand.Expander` (its base class), apart because it is its own step: what each kind of
node tree-sitter-bash makes (words, strings, concatenations, substitutions) adds to a word, with
what cannot be known statically (globs, brace expansion, command output) as a dynamic piece.
Variables and `${...}` are its base class (parameter_expansion.py).
"""

from __future__ import annotations

from speclint.frontends.shell.fields import has_unescaped
from speclint.frontends.shell.parameter_expansion import ParameterExpansion
from speclint.frontends.shell.quoting import decode_ansi_c, unescape_double_quoted, unescape_unquoted
from speclint.frontends.shell.written_chars import string_parts

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from tree_sitter import Node

    from speclint.frontends.shell.fields import Piece


class WordPieces(ParameterExpansion):
    """What each kind of argument node adds to a word's pieces."""

    on_substitution: Callable[[Node], None] | None

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
            out.append(("lit", unescape_unquoted(raw), quoted, None, None))
        elif kind == "raw_string":
            out.append(("lit", tm.node_text(node)[1:-1], True, None, None))
        elif kind == "string":
            self._string_pieces(node, out)
        elif kind == "ansi_c_string":
            out.append(("lit", decode_ansi_c(tm.node_text(node)[2:-1]), True, None, None))
        elif kind == "translated_string":
            text = tm.node_text(node)
            out.append(("lit", unescape_double_quoted(text[2:-1]), True, None, None))
        elif kind == "concatenation":
            self._concatenation_pieces(node, quoted, out, first)
        elif kind == "variable_name":
            # tree-sitter-bash reads the word of `${M:-meta-llama/x}` that starts like a name
            # as (concatenation (variable_name) (word)): bash reads it as plain text
            out.append(("lit", tm.node_text(node), quoted, None, None))
        elif kind == "simple_expansion":
            last = node.named_child_count - 1
            name_node = node.named_child(last) if last >= 0 else None
            name = tm.node_text(name_node) if name_node is not None else ""
            if len(name) > 1 and name.isdigit():  # `$10` is `${1}0` (only `${10}` is the tenth)
                self._variable(name[0], quoted, out)
                out.append(("lit", name[1:], quoted, None, None))
            else:
                self._variable(name, quoted, out)
        elif kind == "expansion":
            self._expansion(node, quoted, out)
        elif kind == "command_substitution":
            if self.on_substitution is not None:
                self.on_substitution(node)
            text = " ".join(tm.node_text(node).split())
            snippet = text if len(text) <= 40 else text[:37] + "..."
            reason = f"output of command substitution `{snippet}`"
            if "SLURM" in text:
                from speclint.frontends.shell.slurm_names import slurm_source

                reason += slurm_source(text)
            out.append(("dyn", reason, False, None, not quoted))
        elif kind == "arithmetic_expansion":
            from speclint.frontends.shell.arithmetic import expansion_piece

            out.append(expansion_piece(tm.node_text(node), self.env))
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
        first = len(out)
        data = tm.data
        for start, finish, child in string_parts(tm, node):
            if child is None:
                text = data[start:finish].decode("utf-8", "surrogatepass")
                out.append(("lit", unescape_double_quoted(text), True, None, None))
            else:
                self._pieces(child, True, out, False)
        if not any(piece[0] == "arr" for piece in out[first:]):
            out.append(("lit", "", True, None, None))  # "" is still a word; "${EMPTY[@]}" is none

    def _concatenation_pieces(self, node: Node, quoted: bool, out: list[Piece], first: bool) -> None:
        children = node.children
        texts = [self.tm.node_text(c) if c.type == "word" else "" for c in children]
        raw = self.tm.node_text(node)
        if (
            self._argument_mode
            and not quoted
            and "{" in texts
            and "}" in texts
            and (has_unescaped(raw, ",") or ".." in raw)  # `{}`, `300{}`: no brace expansion
        ):
            out.append(("dyn", f"brace expansion `{self.tm.node_text(node)}`", False, None, True))
            return
        for index, child in enumerate(children):
            self._pieces(child, quoted, out, first and index == 0)
