"""`${NAME:-default}`, `${NAME:=value}`, `${NAME:+alt}`, `${NAME:?message}` (and the same of a
function's arguments, `${1:-default}`): what the operator makes of a value known or not, and
what `:=` assigns. A base of `parameter_expansion.ParameterExpansion`, moved out of it."""

from __future__ import annotations

from speclint.frontends.shell.positional import lookup
from speclint.frontends.shell.variables import VarValue

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from speclint.core.spans import Span
    from speclint.core.words import Word
    from speclint.frontends.shell.fields import Piece
    from speclint.frontends.shell.text import TextMap
    from speclint.frontends.shell.variables import Env


class DefaultOperators:
    """What a default, alternative or required-value operator adds to a word's pieces."""

    tm: TextMap
    env: Env
    _argument_mode: bool
    _said: list[tuple[Span, str]]
    """The defaults of `${NAME:-default}` this word or value used because NAME comes from the
    environment: where each is written and what a finding on it says (`said_default`)."""

    def _pieces(self, node: Node, quoted: bool, out: list[Piece], first: bool) -> None:
        raise NotImplementedError  # the Expander's

    def _emit_scalar(self, value: VarValue, quoted: bool, out: list[Piece]) -> None:
        raise NotImplementedError  # `ParameterExpansion`'s

    def _arguments(self, name: str, found: tuple[Word, ...] | str, quoted: bool, out: list[Piece]) -> None:
        raise NotImplementedError  # `ParameterExpansion`'s

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
            if not missing and value is not None:
                self._emit_scalar(value, quoted, out)
                return
            start = len(out)
            self._operand_pieces(operands, quoted, node, out, base == "=")
            said = None
            if operands and (value is None or value.assumed):  # the environment decides
                from speclint.core.said_values import said_default

                said = said_default(self.tm.node_text(node), name, operator)
                self._said.append((self.tm.node_span(node), said))
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
                            assumed=value is None or value.assumed,
                            made_by=said,
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

    def _argument_default(
        self, name: str, operator: str, operands: list[Node], quoted: bool, node: Node, out: list[Piece]
    ) -> None:
        """`${1:-default}`, `${2:+x}`, `${1:?usage}` of a function call's arguments."""
        found = lookup(self.env, int(name), 1)
        if isinstance(found, str) or (found and found[0].text is None) or "=" in operator:
            reason = (
                found if isinstance(found, str) else found[0].dynamic_reason or self.env.positional_reason
            )
            if "=" in operator:  # bash refuses to assign to a positional parameter
                reason = f"`{self.tm.node_text(node)}` assigns to a positional parameter"
            out.append(("dyn", reason, False, None, not quoted))
            return
        missing = not found or (operator.startswith(":") and found[0].text == "")
        base = operator.lstrip(":")
        if base == "-" and missing or base == "+" and not missing:
            self._operand_pieces(operands, quoted, node, out)
        elif base != "+" and not missing:
            self._arguments(name, found, quoted, out)
        elif base == "?":  # aborts the call: nothing after it runs with this value
            out.append(("dyn", f"`{self.tm.node_text(node)}` stops the function here", False, None, False))

    def _operand_pieces(
        self, operands: list[Node], quoted: bool, node: Node, out: list[Piece], assigned: bool = False
    ) -> None:
        """The operand's pieces; unquoted, its plain text split (`operand_words`), but not the
        value `:=` assigns (kept whole, as the variable holds it)."""
        from speclint.frontends.shell.operand_words import flat_operands, split_unquoted

        tm = self.tm
        previous_end: int | None = None
        for index, operand in enumerate(flat_operands(tm, operands)):
            if previous_end is not None and operand.start_byte > previous_end:
                gap = tm.data[previous_end : operand.start_byte].decode()
                out.append(("val", gap, quoted, None, None))
            start = len(out)
            self._pieces(operand, quoted, out, index == 0)
            previous_end = operand.end_byte
            if not (quoted or assigned):  # `${SPEC:+--speculative-algorithm EAGLE}`: two words
                out[start:] = split_unquoted(tm, operand, out[start:])
