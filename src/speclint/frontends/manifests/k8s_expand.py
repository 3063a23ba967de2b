"""Kubernetes `$(VAR)` references in a container's `command`/`args`.

The kubelet expands `$(VAR)` from the container's environment before it starts the
process ("dependent environment variables"): `$$` is one `$` (so `$$(VAR)` stays literal),
an unclosed `$(` stays as written, and a name the environment lacks stays `$(VAR)`. A
LeaderWorkerSet's `LWS_GROUP_SIZE`, `LWS_LEADER_ADDRESS`, ... are added to the environment
when the pod is created, so a name the manifest does not give a literal `value:` is an
unknown value here, never the literal text. Inside a `bash -c` script the expansion happens
before bash reads the script: a known value becomes script text, an unknown one a shell
variable (exported to the script) whose value is unknown for the same reason.
"""

from __future__ import annotations

import posixpath
import re

from speclint.core.words import Word
from speclint.frontends.shell.embedded import ArgvItem
from speclint.frontends.shell.pieces import Piece, known_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from speclint.core.spans import Span

_REFERENCE = re.compile(r"\$(?:\$|\(([^)]*)\)|\{([^{}]*)\})")
_INTERPOLATION = re.compile(r"[A-Za-z_][\w-]*(?:\.[\w-]+)+|(?:oc\.\w+|hydra|now):.*")
"""What a braced `${...}` holds when it is an OmegaConf / Hydra interpolation (`${model.path}`,
`${oc.env:TP,2}`, `${hydra:runtime.cwd}`), never a shell's `${NAME}` or `${NAME:-default}`."""
_SHORT_C = re.compile(r"-[A-Za-z]*c[A-Za-z]*$")
_SHELLS = frozenset({"sh", "bash", "dash", "ash", "ksh", "zsh"})
PLACEHOLDER = "__speclint_k8s_"
"""Prefix of the shell variables standing for unknown references inside a script."""


class K8sExpander:
    """Expands the references of one container's argv; `env` is its `env:` as read
    (literal values known, `valueFrom` ones unknown). Unknown references met inside a
    script are added to `env` as placeholder variables."""

    def __init__(self, env: dict[str, Word], span: Callable[[int, int], Span]) -> None:
        self.env = env
        self.span = span
        """File span of a character range (where a reference is written)."""

    def argv(self, items: list[ArgvItem]) -> list[ArgvItem]:
        script_at = _script_index(items)
        return [
            ArgvItem(self._pieces(item.pieces, index == script_at), item.splat, item.origin, item.code)
            for index, item in enumerate(items)
        ]

    def _reason(self, name: str) -> str:
        word = self.env.get(name)
        ref = f"`$({name})`"
        reason = f"{ref}: set by Kubernetes from the container's environment when the pod starts"
        if word is not None and word.dynamic_reason:
            return f"{reason}; {word.dynamic_reason}"
        return reason

    def _value(self, name: str) -> str | None:
        word = self.env.get(name)
        if word is None or word.text is None or "$(" in word.text:
            return None  # a value naming other variables is left to the cluster
        return word.text

    def _pieces(self, pieces: list[Piece], script: bool) -> list[Piece]:
        out: list[Piece] = []
        for piece in pieces:
            if piece.text is None or "$" not in piece.text:
                out.append(piece)
                continue
            pos = 0
            for match in _REFERENCE.finditer(piece.text):
                if match.start() > pos:
                    out.append(_part(piece, pos, match.start()))
                begin, end = _range(piece, match.start(), match.end())
                name = match.group(1)
                if match.group(2) is not None:  # `${...}`: not the kubelet's (`placeholder`)
                    out.append(self._placeholder(match, piece, begin, end, script))
                elif name is None:  # `$$`: one literal `$`
                    out.append(Piece("$", begin, end))
                elif (value := self._value(name)) is not None:
                    out.append(Piece(value, begin, end))
                elif script:
                    variable = f"{PLACEHOLDER}{len(self.env)}"
                    use = self.span(begin, end)
                    self.env[variable] = Word(None, use, use, dynamic_reason=self._reason(name))
                    out.append(Piece("${" + variable + "}", begin, end))
                else:
                    out.append(Piece(None, begin, end, reason=self._reason(name)))
                pos = match.end()
            if pos < len(piece.text):
                out.append(_part(piece, pos, len(piece.text)))
        return out

    def _placeholder(self, match: re.Match[str], piece: Piece, begin: int, end: int, script: bool) -> Piece:
        """A braced `${...}`, which the kubelet passes as written: a placeholder a tool fills
        in before the manifest is applied (envsubst, a template, OmegaConf), unknown here; in
        a `bash -c` script a shell's `${NAME}` stays the script's, an interpolation (which
        bash would refuse) an unknown variable."""
        written = match.group()
        interpolation = _INTERPOLATION.fullmatch(match.group(2)) is not None
        if script and not interpolation:
            return Piece(written, begin, end, exact=piece.exact)
        reason = (
            f"`{written}` is an OmegaConf/Hydra interpolation, resolved when the config is loaded"
            if interpolation
            else f"`{written}` is passed by Kubernetes as written: a placeholder filled in before the "
            "manifest is applied (envsubst, a template), whose value is not in this file"
        )
        if not script:
            return Piece(None, begin, end, reason=reason)
        variable = f"{PLACEHOLDER}{len(self.env)}"
        use = self.span(begin, end)
        self.env[variable] = Word(None, use, use, dynamic_reason=reason)
        return Piece("${" + variable + "}", begin, end)


def _part(piece: Piece, start: int, stop: int) -> Piece:
    assert piece.text is not None
    if piece.exact:
        return Piece(piece.text[start:stop], piece.begin + start, piece.begin + stop, exact=True)
    return Piece(piece.text[start:stop], piece.begin, piece.end)


def _range(piece: Piece, start: int, stop: int) -> tuple[int, int]:
    return (piece.begin + start, piece.begin + stop) if piece.exact else (piece.begin, piece.end)


def _script_index(items: list[ArgvItem]) -> int | None:
    """Index of the script in `sh -c SCRIPT`, `bash -ec SCRIPT`, `env A=1 bash --login -c
    SCRIPT` (a shell word, then its options up to the one holding `c`); None otherwise."""
    texts = [known_text(item.pieces) for item in items]
    shell = next(
        (
            index
            for index, text in enumerate(texts)
            if text is not None and posixpath.basename(text) in _SHELLS
        ),
        None,
    )
    if shell is None:
        return None
    for index in range(shell + 1, len(texts)):
        text = texts[index]
        if text is None or not text.startswith("-"):
            return None
        if _SHORT_C.match(text):
            return index + 1 if index + 1 < len(items) else None
    return None
