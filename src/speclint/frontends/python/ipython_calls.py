"""A notebook exported as a script (nbconvert, jupytext): IPython's `!cmd` becomes
`get_ipython().system('cmd')`, `x = !cmd` becomes `get_ipython().getoutput('cmd')` and a
`%%bash` cell `get_ipython().run_cell_magic('bash', '', 'script')`. The first two run their
text through a shell after IPython fills in `{expression}` (and `$name`) from the notebook's
variables, so a `{...}` there is an unknown value, read as one word, never as the text
written; a `%%bash`/`%%sh` cell's script (and `%%script bash`'s) runs as written."""

from __future__ import annotations

import dataclasses

from speclint.core import patterns
from speclint.frontends.shell.pieces import Piece

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.python import syntax as py
    from speclint.frontends.python.values import Val
    from speclint.frontends.python.walking import Walking

PREFIX = "get_ipython()."
METHODS = ("system", "getoutput", "run_cell_magic")
_SHELL_MAGICS = ("bash", "sh")
_EXPRESSION = patterns.compile(r"(?<!\{)\{[^{}\n]+\}(?!\})")
_DOUBLED = patterns.compile(r"\{\{|\}\}")


def ipython_name(func: py.BaseExpression) -> str | None:
    """`get_ipython().system` for a call of one of IPython's shell methods on `get_ipython()`."""
    from speclint.frontends.python import syntax as py

    if not isinstance(func, py.Attribute) or func.attr.value not in METHODS:
        return None
    owner = func.value
    if isinstance(owner, py.Call) and not owner.args and isinstance(owner.func, py.Name):
        if owner.func.value == "get_ipython":
            return PREFIX + func.attr.value
    return None


def ipython_call(walker: Walking, call: py.Call, method: str) -> None:
    """Read the shell text of `get_ipython().system(...)` and its kin (see the module)."""
    from speclint.frontends.python.environ import launch_env

    ev = walker.evaluator()
    values = [ev.written(a.value) for a in call.args if a.keyword is None and not a.star]
    if method == "run_cell_magic":
        if len(values) < 3 or not _shell_magic(values[0], values[1]):
            return
        script = values[2]
        if script.kind == "str":
            walker.add_shell(script, launch_env(walker, None, True))
        return
    if values and values[0].kind == "str":
        expanded = dataclasses.replace(values[0], pieces=expand(values[0].pieces))
        walker.add_shell(expanded, launch_env(walker, None, True))


def _shell_magic(magic: Val, line: Val) -> bool:
    name = "".join(p.text or "\0" for p in magic.pieces) if magic.kind == "str" else ""
    if name in _SHELL_MAGICS:
        return True
    words = "".join(p.text or "\0" for p in line.pieces).split() if line.kind == "str" else []
    return name == "script" and bool(words) and words[0].rsplit("/", 1)[-1] in _SHELL_MAGICS


def expand(pieces: list[Piece]) -> list[Piece]:
    """The pieces with each `{expression}` IPython fills in made an unknown word."""
    out: list[Piece] = []
    for piece in pieces:
        text = piece.text
        if not text or ("{" not in text and "}" not in text):
            out.append(piece)
            continue
        done = 0
        for match in _EXPRESSION.finditer(text):
            begin, end = match.span()
            quoted = text[begin - 1 : begin] == '"' and text[end : end + 1] == '"'
            out.extend(_part(piece, text[done:begin], done))
            at, until = (piece.begin + begin, piece.begin + end) if piece.exact else (piece.begin, piece.end)
            reason = f"an IPython expression (`{match.group()}`), filled in when the cell runs"
            if not quoted:
                out.append(Piece('"', at, at))
            out.append(Piece(None, at, until, reason=reason))
            if not quoted:
                out.append(Piece('"', until, until))
            done = end
        out.extend(_part(piece, text[done:], done))
    return [p for p in out if p.text != ""]


def _part(piece: Piece, text: str, offset: int) -> list[Piece]:
    """The run `text` of `piece`, from its character `offset`, with `{{` and `}}` read as the
    one brace IPython's formatting leaves of them."""
    out: list[Piece] = []
    done = 0
    for match in _DOUBLED.finditer(text):
        out.append(_run(piece, text[done : match.start()], offset + done))
        at = piece.begin + offset + match.start() if piece.exact else piece.begin
        out.append(Piece(match.group()[0], at, at + 2 if piece.exact else piece.end))
        done = match.end()
    out.append(_run(piece, text[done:], offset + done))
    return out


def _run(piece: Piece, text: str, offset: int) -> Piece:
    if piece.exact:
        return Piece(text, piece.begin + offset, piece.begin + offset + len(text), exact=True)
    return dataclasses.replace(piece, text=text)
