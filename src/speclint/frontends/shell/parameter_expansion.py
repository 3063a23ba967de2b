"""Variables and `${...}` parameter expansion, as the pieces of a word (see fields.Piece).

A part of `expand.Expander` (its base class), apart because it is its own part of bash:
what `$NAME`, `${NAME[@]}`, `${#NAME}` and `${NAME:-default}` become from the known variables,
and what `${NAME:=value}` assigns. The operands of an operator are expanded by the Expander.
"""

from __future__ import annotations

from dataclasses import replace

from speclint.core.spans import Span
from speclint.core.words import Word
from speclint.frontends.shell.default_operators import DefaultOperators
from speclint.frontends.shell.fields import has_unescaped
from speclint.frontends.shell.positional import count, lookup, sliced
from speclint.frontends.shell.variables import VarValue

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from speclint.frontends.shell.fields import Piece
    from speclint.frontends.shell.text import TextMap
    from speclint.frontends.shell.variables import Env

_USE_DEFAULT = ("-", ":-", "+", ":+")
"""The operators that read a value without assigning it (`:=` of an array's key is left
unknown)."""
SPECIAL_NOT_SPLIT = {"#": "$#", "?": "$?", "$": "$$", "!": "$!", "-": "$-", "0": "$0", "_": "$_"}


class ParameterExpansion(DefaultOperators):
    """What variables and parameter expansions add to a word's pieces."""

    tm: TextMap
    env: Env
    _argument_mode: bool

    def _pieces(self, node: Node, quoted: bool, out: list[Piece], first: bool) -> None:
        raise NotImplementedError  # the Expander's

    def _variable(self, name: str, quoted: bool, out: list[Piece]) -> None:
        env = self.env
        if name in ("@", "*"):
            self._arguments(name, lookup(env, 1), quoted, out)
        elif name.isdigit() and name != "0":
            self._arguments(name, lookup(env, int(name), 1), quoted, out)
        elif name == "#" and env.positional is not None:
            found = count(env)
            if isinstance(found, str):
                out.append(("dyn", found, False, None, False))
            else:
                out.append(("val", str(found), True, None, None))
        elif name.isdigit():
            out.append(("dyn", env.positional_reason, False, None, not quoted))
        elif name in SPECIAL_NOT_SPLIT:
            out.append(("dyn", f"special parameter {SPECIAL_NOT_SPLIT[name]}", False, None, False))
        else:
            value = env.get(name)
            if value is None:
                out.append(("dyn", env.unknown_reason(name), False, None, not quoted))
            else:
                self._emit_scalar(value, quoted, out)

    def _emit_scalar(self, value: VarValue, quoted: bool, out: list[Piece]) -> None:
        if value.keys is not None:  # `$CFG` of an associative array is `${CFG[0]}` (bash)
            value = dict(value.keys).get("0") or VarValue(text="", is_set=False, origin=value.origin)
        if value.runs is not None:  # partly known: its known runs are split as any text
            for index, (text, reason, where) in enumerate(value.runs):
                if text is None:
                    out.append(("dyn", reason, False, where or value.origin, not quoted))
                else:  # (each known run's words point inside it when it is written so)
                    out.append(("val", text, quoted, value.origin, value.run_at(index)))
        elif value.reason is not None:
            out.append(("dyn", value.reason, False, value.origin, not quoted))
        elif value.elements is not None:
            if value.elements:
                head = value.elements[0]
                self._emit_array((head,), quoted, False, value.origin, out)
        elif value.element is not None:  # `local model=$1`: the call's word
            self._arguments("1", (value.element,), quoted, out)
        else:  # (where the text is written: its split words point inside it)
            if value.made_by is not None and value.origin is not None and value.assumed:
                self._said.append((value.origin, value.made_by))  # (`said_defaults`)
            out.append(("val", value.text or "", quoted, value.origin, value.written))

    def _arguments(self, name: str, found: tuple[Word, ...] | str, quoted: bool, out: list[Piece]) -> None:
        """`$1`, `"$@"`, `${@:2}` ...: the call's words (`positional.lookup`), each keeping where
        the call writes it, split as bash splits them when unquoted; or unknown."""
        if isinstance(found, str):
            out.append(("dyn", found, False, None, name == "@" or not quoted))
            return
        if not quoted:  # a word the call quoted may split here: not an edit of the call's token
            found = tuple(
                replace(w, origin=w.origin or w.span) if w.text and has_unescaped(w.text, " \t\n*?[") else w
                for w in found
            )
        if found or name == "@":
            self._emit_array(found, quoted, name == "*", None, out, True)

    def _emit_array(
        self,
        elements: tuple[Word, ...],
        quoted: bool,
        star: bool,
        origin: Span | None,
        out: list[Piece],
        arguments: bool | None = None,
    ) -> None:
        if quoted and star:
            texts = [w.text for w in elements]
            if None in texts:
                out.append(("dyn", "array with an unknown element", False, origin, False))
            else:
                out.append(("val", " ".join(t or "" for t in texts), True, origin, None))
        else:
            out.append(("arr", elements, quoted, origin, arguments))

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
        if target is None and prefix == "#" and operator is None:  # `${#}` is `$#`
            self._variable("#", quoted, out)
            return
        if target is None or prefix == "!":
            from speclint.frontends.shell.array_indices import indices

            listed = indices(self.tm, self.env, node, target) if target and operator is None else None
            if listed is not None:  # `${!NODES[@]}`: 0 to n-1
                self._emit_array(
                    listed[0], quoted, listed[1], listed[0][0].origin if listed[0] else None, out
                )
                return
            reason = f"parameter expansion `{text}`"
            if target is not None and target.type == "subscript" and target.named_children:
                keyed = env.get(tm.node_text(target.named_children[0]))
                if keyed is not None and keyed.keys is not None:  # `${!CFG[@]}`: no defined order
                    reason = keyed.reason or reason
            out.append(("dyn", reason, False, None, not quoted))
            return
        index: str | None = None
        index_node: Node | None = None
        if target.type == "subscript":
            name_node = target.child_by_field_name("name")
            index_node = target.child_by_field_name("index")
            name = tm.node_text(name_node) if name_node is not None else ""
            index = tm.node_text(index_node) if index_node is not None else ""
        else:
            name = tm.node_text(target)
        value = (
            env.get(name) if not (name.isdigit() or name in ("@", "*") or name in SPECIAL_NOT_SPLIT) else None
        )
        if value is not None and value.keys is not None and index is not None and operator is None:
            from speclint.frontends.shell.assoc_arrays import lookup as key_lookup

            if prefix != "#":  # `${CFG[tp]}`: one key's value (`assoc_arrays`)
                self._emit_scalar(key_lookup(self, name, value, index_node), quoted, out)  # type: ignore[arg-type]
                return
        if value is not None and value.keys is not None and index is not None and operator in _USE_DEFAULT:
            from speclint.frontends.shell.assoc_arrays import lookup as key_lookup

            entry = key_lookup(self, name, value, index_node)  # type: ignore[arg-type]
            self._default_operator(name, entry, operator, operands, quoted, node, out)  # `:-1`: else 1
            return
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
            if name.isdigit() and name != "0" and env.positional is not None:
                self._argument_default(name, operator, operands, quoted, node, out)
                return
            self._default_operator(name, value, operator, operands, quoted, node, out)
            return
        if operator == ":" and name in ("@", "*") and index is None and env.positional is not None:
            bounds = [self._bound(o) for o in operands if o.is_named]
            if 1 <= len(bounds) <= 2 and None not in bounds:
                found = sliced(env, bounds[0] or 0, bounds[1] if len(bounds) == 2 else None)
                if found is not None:
                    self._arguments(name, found, quoted, out)
                    return
        if (
            operator == ":"
            and index is None
            and value is not None
            and value.reason is None
            and value.text is not None
        ):
            found_text = _substring(value.text, [self._bound(o) for o in operands if o.is_named])
            if found_text is not None:  # `${GPUS:$i:4}`: characters of a known value
                out.append(("val", found_text, quoted, value.origin, None))
                return
        reason = f"parameter expansion `{text}` is not evaluated"
        if "SLURM" in text:
            from speclint.frontends.shell.slurm_names import slurm_source

            reason += slurm_source(text)
        out.append(("dyn", reason, False, None, not quoted))

    def _bound(self, node: Node) -> int | None:
        """An offset or length of `${@:offset:length}` (an arithmetic expression: `-1`,
        `(-1)`, `$N - 1`), when the script's own integers decide it."""
        from speclint.frontends.shell.arithmetic import evaluate

        return evaluate(self.tm.node_text(node), self._known_text)

    def _known_text(self, name: str) -> str | None:
        value = self.env.get(name)
        return value.text if value is not None and value.reason is None else None

    def _subscript(self, value: VarValue, name: str, index: str, quoted: bool, out: list[Piece]) -> None:
        from speclint.frontends.shell.array_indices import subscript_position

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
        elif (
            position := int(index) if index.isdigit() else subscript_position(index, self._known_text)
        ) is not None:
            spread = next((w for w in elements[:position] if w.text is None and w.splat), None)
            if spread is not None:  # `NODES=($(scontrol ...))`: where element 1 falls is unknown
                reason = spread.dynamic_reason or f"an element of ${name} of unknown length"
                out.append(("dyn", f"element {position} of ${name} ({reason})", False, None, not quoted))
            elif position < len(elements):
                self._emit_array((elements[position],), quoted, False, value.origin, out)
        else:
            out.append(("dyn", f"array index `{index}` of ${name} is not static", False, None, not quoted))

    def _length(self, value: VarValue | None, index: str | None, text: str, out: list[Piece]) -> None:
        if value is not None and value.reason is None:
            spread = value.elements is not None and any(w.text is None and w.splat for w in value.elements)
            if index in ("@", "*") and not spread:  # (`($(scontrol ...))`: any number of elements)
                count = len(value.elements) if value.elements is not None else int(value.is_set)
                out.append(("val", str(count), True, None, None))
                return
            if index is None and value.elements is None:
                out.append(("val", str(len(value.text or "")), True, None, None))
                return
        out.append(("dyn", f"length expansion `{text}`", False, None, False))


def _substring(value: str, bounds: list[int | None]) -> str | None:
    """bash's `${x:offset[:length]}` of a scalar (a negative offset counts from the end, a
    negative length is an end counted from the end), or None when a bound is unknown or bash
    would fail (an end before the start)."""
    if not 1 <= len(bounds) <= 2 or None in bounds:
        return None
    offset = bounds[0] or 0
    start = offset if offset >= 0 else len(value) + offset
    if start < 0 or start > len(value):
        return ""
    length = bounds[1] if len(bounds) == 2 else None
    end = len(value) if length is None else (start + length if length >= 0 else len(value) + length)
    return value[start:end] if end >= start else None
