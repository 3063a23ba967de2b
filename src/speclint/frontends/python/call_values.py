"""What a call evaluates to (`evaluator.Evaluator._Call`): the builtins and library calls
that build launch strings and lists from known parts; anything else is computed when the
program runs, and unknown."""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from speclint.frontends.python import syntax as py
from speclint.frontends.python.environ import Evaluator, environ_get, environ_value
from speclint.frontends.python.values import MAX_WEIGHT, Entries, Entry
from speclint.frontends.python.whitespace import whitespace_call
from speclint.frontends.shell.pieces import Piece

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from speclint.frontends.python.positions import Positions
    from speclint.frontends.python.values import Val


class Evaluating(Evaluator, Protocol):
    """What of `evaluator.Evaluator` a call needs (it imports this module): what
    `environ.Evaluator` names, and the positions and the file's helper functions."""

    pos: Positions
    helpers: Callable[[py.Call], Val | None] | None

    def _ListComp(self, node: py.ListComp | py.GeneratorExp) -> Val: ...

    def written(self, node: py.BaseExpression) -> Val: ...


_MAX_RANGE = 64
"""The most numbers a `range(...)` is written out to (as many as a loop is unrolled)."""


def call_value(ev: Evaluating, node: py.Call) -> Val:
    """What `node` evaluates to: `dict(...)`, `str(x)`, `os.path.join`, `SEP.join(xs)`,
    `.format`, `.strip()`/`dedent`, `shlex.split`/`.split()`, `os.environ.copy()`, a helper
    the file defines; else unknown, with the reason."""
    name = ev.dotted(node.func) or ""
    args = [a for a in node.args if not a.keyword and not a.star]
    if name == "dict":
        entries = Entries()
        for arg in node.args:
            if arg.keyword is not None:
                entries.set(Entry(arg.keyword.value, ev.pos.span(arg.keyword), ev.eval(arg.value)))
            else:
                entries.merge(ev.eval(arg.value), ev.pos.span(arg))
            if entries.weight > MAX_WEIGHT:
                break
        return ev._make(node, "dict", entries.list())
    if name in ("sum", "itertools.chain", "itertools.chain.from_iterable"):  # (`flattening.NAMES`)
        from speclint.frontends.python.flattening import flattened

        if (flat := flattened(ev, node)) is not None:
            return flat
    if name in ("str", "list", "tuple") and len(args) == 1 and not node.args[0].keyword:
        inner = ev.eval(args[0].value)
        if name == "str" and inner.kind == "unknown":
            return ev.unknown(node, inner.why_unknown(), identity=inner.word_identity)
        if name == "str" and inner.kind == "const":
            return ev._make(node, "str", pieces=[Piece(str(inner.value), inner.begin, inner.end)])
        if (name == "str" and inner.kind == "str") or (name != "str" and inner.kind == "list"):
            return replace(inner, span=ev.pos.span(node))
    if name == "int" and len(args) == len(node.args) == 1:  # `int(os.getenv("PORT", "30000"))`
        inner = ev.eval(args[0].value)
        literal = (inner.text or "").strip() if inner.kind == "str" else ""
        digits = literal[1:] if literal[:1] in ("+", "-") else literal
        if digits.isascii() and digits.isdigit():  # (what else int() takes is left unknown)
            return ev._make(node, "const", int(literal))
        if inner.kind == "const" and type(inner.value) is int:
            return inner
    if name == "range" and 1 <= len(args) == len(node.args) <= 3:  # `for i in range(n_workers)`
        bounds = [b.value for b in (ev.eval(a.value) for a in args) if b.kind == "const"]
        if len(bounds) == len(args) and all(type(b) is int for b in bounds) and bounds[2:] != [0]:
            numbers = range(*(b for b in bounds if isinstance(b, int)))
            if len(numbers) <= _MAX_RANGE:
                return ev._make(node, "list", [ev._make(node, "const", number) for number in numbers])
    if name == "os.path.join" and args:
        parts = [ev.eval(a.value) for a in args]
        texts = [p.text for p in parts]
        if None not in texts and all(p.kind == "str" for p in parts):
            begin, end = ev.pos.offsets(node)
            joined = _path_join([t for t in texts if t is not None])
            return ev._make(node, "str", pieces=[Piece(joined, begin, end)])
    if (
        isinstance(node.func, py.Attribute)
        and node.func.attr.value in _TEXT_METHODS
        and len(args) == len(node.args)
    ):
        changed = _text_method(ev, node, node.func, args)  # `k.replace("_", "-")` of a known `k`
        if changed is not None:
            return changed
    if isinstance(node.func, py.Attribute) and node.func.attr.value == "join" and len(args) == 1:
        separator = ev.eval(node.func.value)
        given = args[0].value  # `" ".join(f"--{k} {v}" for k, v in cfg.items())`: read as a list
        items = ev._ListComp(given) if isinstance(given, py.GeneratorExp) else ev.eval(given)
        if separator.kind == "str" and separator.text is not None and items.kind == "list":
            return _joined(ev, node, separator, items.elements)
    if name == "shlex.join" and len(args) == len(node.args) == 1:  # `os.system(shlex.join(cmd))`
        if (items := ev.eval(args[0].value)).kind == "list":
            return _shlex_joined(ev, node, items.elements)
    if isinstance(node.func, py.Attribute) and node.func.attr.value == "format":
        from speclint.frontends.python.formatting import format_call

        if (pieces := format_call(node, ev.eval, ev.written)) is not None:
            return ev._make(node, "str", pieces=pieces)
    if (pieces := whitespace_call(ev.eval, node, name)) is not None:  # `s.strip()`, `dedent(s)`
        return ev._make(node, "str", pieces=pieces)
    source: py.BaseExpression | None = None
    if name == "shlex.split":  # `shlex.split()` without a string: computed when it runs
        source = args[0].value if args else None
    elif isinstance(node.func, py.Attribute) and node.func.attr.value == "split" and not node.args:
        source = node.func.value
    elif isinstance(node.func, py.Attribute) and node.func.attr.value == "split" and _one_blank(ev, node):
        source = node.func.value  # `.split(" ")` of a text whose words one blank each separates
    if source is not None:
        text = ev.eval(source)
        if isinstance(source, py.Name) and text.kind == "str":  # each word where it is written
            text = ev.env[source.value]
        if text.kind == "str" and name != "shlex.split":  # `str.split()`: at whitespace, no quoting
            return ev._make(node, "list", _whitespace_words(ev, node, text.pieces))
        if text.kind == "str":  # split into words when the program runs: the shell front-end splits it
            return ev._make(node, "list", [replace(text, shell_code=True)])
    if name == "os.environ.copy":
        return environ_value(ev, node)
    copied = _copied(node, name, args)  # `base.copy()`, `copy.deepcopy(base)`: the same items
    if copied is not None and (inner := ev.eval(copied)).kind in ("list", "dict"):
        return replace(inner, span=ev.pos.span(node))
    if ev.helpers is not None:
        returned = ev.helpers(node)
        if returned is not None:
            return returned
    if name in ("os.getenv", "os.environ.get") and args:
        default = args[1].value if len(args) > 1 else None
        default = next((a.value for a in node.args if a.keyword and a.keyword.value == "default"), default)
        return environ_get(ev, node, ev.eval(args[0].value).text, default)
    return ev.unknown(node, f"`{ev.pos.quote(node.func)}(...)` is computed when the program runs")


def _copied(node: py.Call, name: str, args: list[py.Arg]) -> py.BaseExpression | None:
    """What `X.copy()`, `copy.copy(X)` or `copy.deepcopy(X)` copies, else None."""
    if name in ("copy.copy", "copy.deepcopy") and len(args) == len(node.args) == 1:
        return args[0].value
    func = node.func
    if isinstance(func, py.Attribute) and func.attr.value == "copy" and not node.args:
        return func.value
    return None


def _whitespace_words(ev: Evaluating, node: py.Call, pieces: list[Piece]) -> list[Val]:
    """The words `text.split()` makes (Python's `str.split`: runs of whitespace separate
    them; quotes, `#` and `$` are characters of a word), each at its file position; a value
    not known standing alone may be any number of words."""
    from speclint.frontends.python.values import Val
    from speclint.frontends.python.whitespace_words import split_words
    from speclint.frontends.shell.pieces import span_of, unknown_reason

    words: list[Val] = []
    for word in split_words(pieces, ()):
        begin, end = word[0].begin, word[-1].end
        span = span_of(ev.pos.starts, begin, end)
        if all(p.text is None for p in word):
            reason = unknown_reason(word) or "value not known statically"
            words.append(Val("unknown", span, begin, end, reason=reason, splat=True))
        else:
            words.append(Val("str", span, begin, end, pieces=word))
    return words


def _one_blank(ev: Evaluating, node: py.Call) -> bool:
    """`text.split(" ")` that splits as `text.split()` does: the known text has no run of
    blanks, no tab or line end and no blank at either end (else `""` words come out)."""
    if len(node.args) != 1 or node.args[0].keyword is not None or node.args[0].star:
        return False
    separator = ev.eval(node.args[0].value)
    if separator.kind != "str" or separator.text != " ":
        return False
    func = node.func
    assert isinstance(func, py.Attribute)
    text = ev.eval(func.value)
    if isinstance(func.value, py.Name) and text.kind == "str":
        text = ev.env[func.value.value]
    known = text.text if text.kind == "str" else None
    return (
        known is not None
        and known == known.strip(" ")
        and "  " not in known
        and not any(c in known for c in "\t\n\r\f\v")
    )


_TEXT_METHODS = {"replace": 2, "lower": 0, "upper": 0}
"""`str` methods worked out on a known text with known string arguments (their count)."""


def _text_method(ev: Evaluating, node: py.Call, func: py.Attribute, args: list[py.Arg]) -> Val | None:
    method = func.attr.value
    if len(args) != _TEXT_METHODS[method]:
        return None
    text = ev.eval(func.value)
    if isinstance(func.value, py.Name) and text.kind == "str" and method == "replace":
        written = ev.env.get(func.value.value)  # each run where it is written
        text = (
            written if written is not None and written.kind == "str" and written.text == text.text else text
        )
    given = [ev.eval(a.value) for a in args]
    if text.kind != "str" or text.text is None or any(g.kind != "str" or g.text is None for g in given):
        return None
    if method == "replace":
        if given[0].text:  # each run kept where the file writes it (`replaced`)
            return ev._make(node, "str", pieces=replaced(text.pieces, given[0].text, given[1].text or ""))
        result = text.text.replace(given[0].text or "", given[1].text or "")
    else:
        result = text.text.lower() if method == "lower" else text.text.upper()
    begin, end = ev.pos.offsets(node)
    return ev._make(node, "str", pieces=[Piece(result, begin, end)])


def replaced(pieces: list[Piece], old: str, new: str) -> list[Piece]:
    """`str.replace(old, new)` of known pieces, each character left where the file writes it
    and each replacement placed at the characters it replaces (a copy of SGLang's
    `execute_shell_command` replaces `\\`+newline in the text before it splits it)."""
    text = "".join(piece.text or "" for piece in pieces)
    owner: list[int] = []  # the piece of each character
    for number, piece in enumerate(pieces):
        owner += [number] * len(piece.text or "")
    starts: list[int] = []
    offset = 0
    for piece in pieces:
        starts.append(offset)
        offset += len(piece.text or "")

    def where(index: int) -> tuple[int, int]:
        piece = pieces[owner[index]]
        if piece.exact:
            at = piece.begin + index - starts[owner[index]]
            return at, at + 1
        return piece.begin, piece.end

    out: list[Piece] = []
    index = 0
    while index < len(text):
        found = text.find(old, index)
        stop = len(text) if found < 0 else found
        while index < stop:  # the runs of each piece up to the next match, as they were
            number = owner[index]
            piece = pieces[number]
            end = min(stop, starts[number] + len(piece.text or ""))
            run = text[index:end]
            if piece.exact:
                begin = piece.begin + index - starts[number]
                out.append(Piece(run, begin, begin + len(run), True, origin=piece.origin))
            else:
                out.append(Piece(run, piece.begin, piece.end, origin=piece.origin))
            index = end
        if found >= 0:
            if new:
                out.append(Piece(new, where(found)[0], where(found + len(old) - 1)[1]))
            index = found + len(old)
    return out


def _joined(ev: Evaluating, node: py.Call, separator: Val, items: list[Val]) -> Val:
    pieces: list[Piece] = []
    for index, item in enumerate(items):
        if index:
            pieces.append(Piece(separator.text, separator.begin, separator.end))
        if item.kind == "str":
            pieces += item.pieces
        elif item.kind == "const":
            pieces.append(Piece(item.text, item.begin, item.end))
        else:
            pieces.append(Piece(None, item.begin, item.end, reason=item.why_unknown()))
    return ev._make(node, "str", pieces=pieces)


def _shlex_joined(ev: Evaluating, node: py.Call, items: list[Val]) -> Val:
    """`shlex.join(words)`: each word quoted with `shlex.quote` (a word that needs it in single
    quotes), joined by blanks, so the shell reads each back as one word, as written; a word
    not known is one word of unknown text."""
    import shlex

    pieces: list[Piece] = []
    for index, item in enumerate(items):
        if index:
            pieces.append(Piece(" ", item.begin, item.begin))
        text = item.text if item.kind == "str" else str(item.value) if item.kind == "const" else None
        if item.splat:  # `*extra`: any number of words
            pieces.append(Piece(None, item.begin, item.end, reason=item.why_unknown()))
        elif text is None:
            unknown = Piece(None, item.begin, item.end, reason=item.why_unknown())
            pieces += [Piece('"', item.begin, item.begin), unknown, Piece('"', item.end, item.end)]
        elif shlex.quote(text) == text:
            pieces += item.pieces if item.kind == "str" else [Piece(text, item.begin, item.end)]
        elif "'" not in text and item.kind == "str":
            pieces += [Piece("'", item.begin, item.begin), *item.pieces, Piece("'", item.end, item.end)]
        else:
            pieces.append(Piece(shlex.quote(text), item.begin, item.end))
    return ev._make(node, "str", pieces=pieces)


def _path_join(texts: Iterable[str]) -> str:
    import posixpath

    return posixpath.join(*texts)
