"""Evaluating a Python expression against the values the walker knows (name -> `Val`).

Strings keep where each character is written; anything that needs running code (a call
result, a parameter, what `os.environ` held before the program) is unknown, with a reason.
The file's own helper functions are evaluated by the walker (`helpers`, the `helper` callback).
"""

from __future__ import annotations

from dataclasses import replace

from speclint.core.identity import Identity
from speclint.frontends.python import syntax as py
from speclint.frontends.python.call_values import call_value
from speclint.frontends.python.environ import environ_value
from speclint.frontends.python.expressions import string_parts
from speclint.frontends.python.operations import is_integer, shifted_identity, truth_of
from speclint.frontends.python.positions import Positions, node_span
from speclint.frontends.python.values import (
    ITEM_WEIGHT,
    MAX_WEIGHT,
    Entries,
    Entry,
    Scope,
    Val,
    attribute_key,
    bounded,
    val_with,
)
from speclint.frontends.shell.pieces import Piece, known_text, relocated, span_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from speclint.frontends.python.values import Env


_METHODS: dict[type, Callable[..., Val] | None] = {}  # node class -> Evaluator._<its name>


class Evaluator:
    """Evaluates expressions against `env` (name → Val)."""

    def __init__(
        self,
        positions: Positions,
        env: Env,
        imports: dict[str, str],
        helpers: Callable[[py.Call], Val | None] | None = None,
    ) -> None:
        self.pos = positions
        self.env = env
        self.imports = imports
        self.helpers = helpers
        """The value a call of a function defined in the file returns (None: not one)."""
        self.deciding = True
        """Whether a condition may be decided (not in a loop body walked once for every pass)."""
        self.rebound: frozenset[str] = frozenset()
        """The names a `global`/`nonlocal` statement rebinds: a condition naming one is not
        decided (`conditions`)."""

    def unknown(
        self, node: py.Node, reason: str, splat: bool = False, identity: Identity | None = None
    ) -> Val:
        begin, end = self.pos.offsets(node)
        return Val("unknown", self.pos.span(node), begin, end, reason=reason, splat=splat, identity=identity)

    def named(self, node: py.Node, name: str, reason: str, made_at: py.Node | None = None) -> Val:
        """An unknown value the file calls `name`, made at `made_at` (a parameter, a loop
        variable), or a name the file never assigns (the same value wherever it is read)."""
        key = f"{name}@{self.pos.offsets(made_at)[0]}" if made_at is not None else f"{name}@free"
        return self.unknown(node, reason, identity=Identity(name, key))

    def _make(self, node: py.Node, kind: str, value: object = None, pieces: list[Piece] | None = None) -> Val:
        pos = self.pos
        begin, end = pos.offsets(node)
        span = (
            node_span(pos.starts, node.range)
            if pos.own_ranges and pos.lines is pos.starts and type(pos) is Positions
            else span_of(pos.starts, begin, end)
        )
        return bounded(Val(kind, span, begin, end, value, pieces or []))

    def dotted(self, node: py.BaseExpression) -> str | None:
        """`sgl.Engine` → 'sglang.Engine' through the file's imports."""
        parts: list[str] = []
        while isinstance(node, py.Attribute):
            parts.append(node.attr.value)
            node = node.value
        if not isinstance(node, py.Name):
            return None
        parts.append(self.imports.get(node.value, node.value))
        return ".".join(reversed(parts))

    def eval(self, node: py.BaseExpression) -> Val:
        try:
            method = _METHODS[kind := type(node)]
        except KeyError:  # the node class's method, looked up once per class
            method = _METHODS[kind] = getattr(Evaluator, "_" + kind.__name__, None)
        if method is None:
            return self.unknown(node, f"`{self.pos.quote(node)}` is computed when the program runs")
        return method(self, node)

    # ---- literals --------------------------------------------------------------------------

    def _Known(self, node: py.Known) -> Val:
        known: Val = node.known  # (`handed`: read where the file wrote it)
        return known

    def _SimpleString(self, node: py.SimpleString) -> Val:
        written, pos = node.value, self.pos
        first, body = written[:1], written[1:-1]
        if (  # a plain literal (most): what the general path below makes, less its calls
            type(pos) is Positions and pos.own_ranges  # (not `fixtures.Borrowed`'s placing)
            and (first == '"' or first == "'") and written[1:3] != first * 2 and body
            and "\\" not in body and "\r" not in body and "\0" not in body
        ):  # fmt: skip
            line, column, end_line, end_column = node.range
            begin, end = pos.lines[line - 1] + column, pos.lines[end_line - 1] + end_column
            pieces = [Piece(body, begin + 1, begin + 1 + len(body), exact=True)]
            span = (
                node_span(pos.starts, node.range)
                if pos.lines is pos.starts
                else span_of(pos.starts, begin, end)
            )
            value = Val("str", span, begin, end, None, pieces, weight=len(body))
            return bounded(value) if len(body) > MAX_WEIGHT else value
        prefix, quote = string_parts(written)  # (the prefix lowercased)
        if "b" in prefix:
            return self.unknown(node, "a bytes literal")
        begin, end = self.pos.offsets(node)
        opening = len(prefix) + len(quote)
        body = written[opening : len(written) - len(quote)]
        pieces = self.pos.literal(body, begin + opening, "r" in prefix)
        try:
            evaluated = string_value(node, body, prefix)
        except (SyntaxError, ValueError, MemoryError, RecursionError):  # a NUL in the literal
            return self.unknown(node, "a string literal Python cannot read")
        if not (len(pieces) == 1 and pieces[0].text is evaluated) and known_text(pieces) != evaluated:
            pieces = [Piece(str(evaluated), begin, end)]  # (one piece, the body itself: as read)
        return bounded(Val("str", span_of(self.pos.starts, begin, end), begin, end, None, pieces or []))

    def _ConcatenatedString(self, node: py.ConcatenatedString) -> Val:
        return self._join(node, [self.eval(node.left), self.eval(node.right)])

    def _FormattedString(self, node: py.FormattedString) -> Val:
        raw = "r" in node.prefix.lower()
        pieces: list[Piece] = []
        for part in node.parts:
            if isinstance(part, py.FormattedStringText):
                pieces += self.pos.literal(part.value, self.pos.offsets(part)[0], raw, fstring=True)
                continue
            assert isinstance(part, py.FormattedStringExpression)  # the only other kind of part
            value = self.eval(part.expression)
            begin, end = self.pos.formatted(part, value)
            text = value.text
            if part.format_spec or (part.conversion not in (None, "s")) or text is None:
                pieces.append(
                    Piece(
                        None,
                        begin,
                        end,
                        reason=value.why_unknown()
                        if text is None
                        else f"`{self.pos.quote(part)}` is formatted when the program runs",
                        identity=value.word_identity
                        if text is None and not part.format_spec and part.conversion in (None, "s")
                        else None,
                    )
                )
            else:
                pieces.append(Piece(text, begin, end, origin=value.origin))
        return self._make(node, "str", pieces=self.pos.joined(pieces))

    def _Integer(self, node: py.Integer) -> Val:
        return self._make(node, "const", node.evaluated_value)

    def _Float(self, node: py.Float) -> Val:
        return self._make(node, "const", node.evaluated_value)

    def _UnaryOperation(self, node: py.UnaryOperation) -> Val:
        inner = self.eval(node.expression)
        if (
            isinstance(node.operator, py.Minus)
            and inner.kind == "const"
            and isinstance(inner.value, (int, float))
            and not isinstance(inner.value, bool)
        ):
            return self._make(node, "const", -inner.value)
        return self.unknown(node, f"`{self.pos.quote(node)}` is computed when the program runs")

    def _Name(self, node: py.Name) -> Val:
        name = node.value
        if name in ("True", "False", "None"):
            return self._make(node, "const", {"True": True, "False": False, "None": None}[name])
        found = self.env.get(name)
        if found is None and self.imports.get(name) == "os.environ":  # `from os import environ`
            return environ_value(self, node)
        if found is None and self.imports.get(name) == f"sglang.test.test_utils.{name}":
            from speclint.sglang.test_constants import sglang_test_constant  # (SGLang's test constants)

            known = sglang_test_constant(name)
            if known is not None and known[0] is not None:
                begin, end = self.pos.offsets(node)
                return self._make(node, "str", pieces=[Piece(known[0], begin, end)])
            if known is not None:
                return self.named(node, name, known[1])
        if found is None:
            return self.named(node, name, f"`{name}` has no value known statically")
        return self.read(found, node)

    def written(self, node: py.BaseExpression) -> Val:
        """`node`'s value, a name's string with each piece where it is written (its
        assignment, as `str.split()` reads it), not moved to the name: the shell code a
        `subprocess.run(cmd, shell=True)` runs is placed at its words."""
        if isinstance(node, py.Name) and self.pos.relocates:
            found = self.env.get(node.value)
            if found is not None and found.kind == "str" and found.pieces:
                return found
        return self.eval(node)

    def read(self, found: Val, node: py.Node) -> Val:
        """A variable's value as used at `node`: written here, assigned at its origin (in
        SGLang's source, `fixtures.Borrowed`: where it was assigned, the file or the base)."""
        if not self.pos.relocates or found.in_place:
            return found
        begin, end = self.pos.offsets(node)
        origin = found.origin or found.span
        pieces = found.pieces
        if found.kind == "str":
            pieces = relocated(pieces, begin, end, origin)
        return val_with(found, span=self.pos.span(node), begin=begin, end=end, origin=origin, pieces=pieces)

    def _Attribute(self, node: py.Attribute) -> Val:
        name = self.dotted(node)
        if name == "os.environ":  # what the file set in it (`environ`); `.copy()`: in `_Call`
            return environ_value(self, node)
        if name == "sys.executable":
            begin, end = self.pos.offsets(node)
            return self._make(node, "str", pieces=[Piece("python", begin, end)])
        key = attribute_key(node)
        if key is not None and key in self.env:
            return self.read(self.env[key], node)
        if name is not None and name in self.env:
            return self.read(self.env[name], node)
        reason = f"`{self.pos.quote(node)}` is only known when the program runs"
        base: py.BaseExpression = node
        while isinstance(base, py.Attribute):
            base = base.value
        if name is not None and isinstance(base, py.Name):  # `args.num_steps`: one value per name
            owner = self.env.get(base.value)
            if owner is None:
                return self.named(node, name, reason)
            where = owner.origin or owner.span
            return self.unknown(node, reason, identity=Identity(name, f"{name}@{where.line}:{where.column}"))
        return self.unknown(node, reason)

    def _List(self, node: py.List | py.Tuple) -> Val:
        items: list[Val] = []
        weight = 0
        for element in node.elements:
            inner = element.value  # (a plain string: its method without `eval`'s lookup)
            value = self._SimpleString(inner) if type(inner) is py.SimpleString else self.eval(inner)
            if isinstance(element, py.StarredElement):
                if value.kind == "list":
                    items.extend(value.elements)
                else:
                    items.append(val_with(value, kind="unknown", splat=True, reason=value.why_unknown()))
            else:
                items.append(value)
            weight += ITEM_WEIGHT + value.weight
            if weight > MAX_WEIGHT:  # `[*a, *a, ...]`: stop before building it
                break
        return self._make(node, "list", items)

    _Tuple = _List

    def _Dict(self, node: py.Dict) -> Val:
        entries = Entries()
        for element in node.elements:
            if isinstance(element, py.StarredDictElement):
                entries.merge(self.eval(element.value), self.pos.span(element))
            else:
                assert isinstance(element, py.DictElement)  # the only other kind of element
                key = self.eval(element.key)
                if key.kind == "str" and key.text is not None:
                    entries.set(Entry(key.text, key.span, self.eval(element.value)))
                else:
                    entries.set(Entry(None, key.span, self.unknown(element, "a key not known statically")))
            if entries.weight > MAX_WEIGHT:
                break
        return self._make(node, "dict", entries.list())

    # ---- operators and calls ---------------------------------------------------------------

    def _BinaryOperation(self, node: py.BinaryOperation) -> Val:
        if isinstance(node.operator, py.Modulo):  # `"... %s" % (model,)`: printf-style (`formatting`)
            from speclint.frontends.python.formatting import percent_operation

            if (pieces := percent_operation(node, self.eval, self.written)) is not None:
                return self._make(node, "str", pieces=pieces)
        if not isinstance(node.operator, (py.Add, py.Subtract)):
            return self.unknown(node, f"`{self.pos.quote(node)}` is computed when the program runs")
        left, right = self.eval(node.left), self.eval(node.right)  # once each: `a + a + ...` is linear
        if is_integer(left) and is_integer(right):  # `30000 + i` in a pass of `for i in range(2)`
            a, b = left.value, right.value
            assert isinstance(a, int) and isinstance(b, int)
            return self._make(node, "const", a + b if isinstance(node.operator, py.Add) else a - b)
        if isinstance(node.operator, py.Add):
            if left.kind == right.kind == "list":
                return self._make(node, "list", list(left.elements) + list(right.elements))
            if left.kind == "list" and right.kind == "unknown":
                # `[python, -m, sglang.launch_server] + args`: the known words, then any number of
                # others (an unknown start stays unknown: it may be any program)
                return self._make(node, "list", list(left.elements) + [replace(right, splat=True)])
            if (
                left.kind in ("str", "unknown")
                and right.kind in ("str", "unknown")
                and "str" in (left.kind, right.kind)
            ):
                return self._join(node, [left, right])
        sign = 1 if isinstance(node.operator, py.Add) else -1  # `k + 1`: k's identity, shifted
        shifted = shifted_identity(left, right, sign) or (
            shifted_identity(right, left, 1) if sign == 1 else None
        )
        inner = next(
            (v for v in (left, right) if v.kind == "unknown"), None
        )  # say why that part is not known
        reason = (
            inner.why_unknown()
            if inner is not None and shifted is None
            else f"`{self.pos.quote(node)}` is computed when the program runs"
        )
        return self.unknown(node, reason, identity=shifted)

    def _ListComp(self, node: py.ListComp | py.GeneratorExp) -> Val:
        """`[x for k, v in FLAGS.items() for x in (f"--{k}", str(v))]` (`comprehensions`)."""
        from speclint.frontends.python.comprehensions import comprehension

        if (found := comprehension(node, self.scoped, self.pos.starts)) is not None:
            return self._make(node, "list", found)
        return self.unknown(node, f"`{self.pos.quote(node)}` is computed when the program runs")

    def scoped(self, names: dict[str, Val]) -> Callable[[py.BaseExpression], Val]:
        """`eval` with `names` bound over this evaluator's (a comprehension's variables)."""
        return Evaluator(self.pos, Scope(names, self.env), self.imports, self.helpers).eval

    def _join(self, node: py.Node, parts: list[Val]) -> Val:
        pieces: list[Piece] = []
        for part in parts:
            if part.kind == "str":
                pieces += part.pieces
            else:
                pieces.append(Piece(None, part.begin, part.end, reason=part.why_unknown()))
        return self._make(node, "str", pieces=pieces)

    def _Call(self, node: py.Call) -> Val:
        return call_value(self, node)

    def _Subscript(self, node: py.Subscript) -> Val:
        from speclint.frontends.python.subscripts import subscript

        if (found := subscript(self, node)) is not None:
            return found
        name = self.dotted(node.value)
        if name == "os.environ":
            return self.unknown(node, "an environment variable (read when the program runs)")
        return self.unknown(node, f"`{self.pos.quote(node)}` is computed when the program runs")

    def _BooleanOperation(self, node: py.BooleanOperation) -> Val:
        """`A or B` / `A and B` when A's truth is known (`extra_args or []` with `extra_args`
        bound to a list by a call of the function): Python's value, A or B (not a bool)."""
        left = self.eval(node.left)
        truth = truth_of(left)
        if truth is None:
            return self.unknown(node, f"`{self.pos.quote(node)}` is computed when the program runs")
        if isinstance(node.operator, py.Or):
            return left if truth else self.eval(node.right)
        return self.eval(node.right) if truth else left

    def _IfExp(self, node: py.IfExp) -> Val:
        from speclint.frontends.python.conditions import decided

        truth = decided(self, node.test, self.rebound) if self.pos.relocates and self.deciding else None
        if truth is not None:  # `"prefill" if i == 0 else "decode"` in a pass of a loop
            return self.eval(node.body if truth else node.orelse)
        return self.unknown(node, f"`{self.pos.quote(node)}` depends on a condition")


def string_value(node: py.SimpleString, body: str, prefix: str | None = None) -> str | bytes:
    """What Python reads from a string literal (`body`: between its quotes): the body itself
    when nothing in it is decoded (no backslash, no CR that Python makes a newline, no NUL
    that Python refuses), else Python's own reading (libcst's `evaluated_value`, which
    compiles the literal: a tenth of a small wrapper's time). `prefix`: the node's, lowercased."""
    prefix = node.prefix.lower() if prefix is None else prefix
    if "\\" in body or "\r" in body or "\0" in body or "b" in prefix:
        return node.evaluated_value
    return body
