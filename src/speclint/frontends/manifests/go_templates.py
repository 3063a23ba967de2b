"""Helm charts' templates: YAML written as a Go template, read without rendering it.

A chart's `templates/deployment.yaml` is not YAML until Helm renders it (`{{- if ... }}` lines,
`- {{ .Values.model | quote }}` items), and what its actions produce is known only then. So
the text is read as YAML after each action is set aside, every position unchanged:
- an action inside a line (`--tp {{ .Values.tp }}`, `"{{ .Values.image.tag }}"`) becomes an
  unknown value placed where it is written (`fill_holes`), as GitHub Actions' `${{ }}` is;
- a line holding only control actions (`if`, `else`, `end`, `range`, `with`, comments) becomes
  blank; the lines of an `else` arm are blanked too, so the `if` arm is read as the chart's
  launch and two arms never merge into one argv (the choice: the arm a chart's values switch
  on, usually the feature the chart offers);
- a line holding only an action that inserts YAML (`{{- toYaml .Values.args | nindent 12 }}`,
  `{{ include ... }}`) becomes blank and is kept in `inserts`: a container's command or args
  that such a line extends are only partly read (`insert_in`).

A file is a template when it lies in a `templates/` folder or uses Helm's own actions
(`{{ .Values`, `{{ .Release`, `{{- `, `{{ include`, ...); a literal `{{` elsewhere (`docker
inspect --format '{{.State}}'` in a compose file) is left as it is.
"""

from __future__ import annotations

import re

from speclint.frontends.manifests.helm_render import Block, Rendered, chart_values, render
from speclint.frontends.shell.pieces import Piece

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span

_ACTION = re.compile(r"\{\{.*?\}\}", re.S)
_HELM = re.compile(
    r"\{\{-|\{\{\s*(?:\.Values\b|\.Release\b|\.Chart\b|\.Capabilities\b|\.Files\b|\$\.|"
    r"(?:include|template|toYaml|tpl|if|range|with|define|block)\s|end\s*-?\}\}|else\b|/\*)"
)
_KEYWORD = re.compile(r"\{\{-?\s*(/\*|[a-z]+)")
_CONTROLS = frozenset({"if", "else", "end", "range", "with", "define", "block", "break", "continue", "/*"})
_OPENS = frozenset({"if", "range", "with", "define", "block"})
_BLANK_OR_CONTROL = re.compile(r"[ \t\r]*")


def is_template(text: str, path: str) -> bool:
    """Whether `text` is a Go template to read as such (see the module's docstring)."""
    if "{{" not in text:
        return False
    return "/templates/" in "/" + path.replace("\\", "/") or _HELM.search(text) is not None


class Template:
    """A template's text with its actions set aside (`text`, the same length), the inline
    actions (`holes`) and the whole-line actions that insert YAML (`inserts`), each as
    (begin, end, the action as written); with the chart's values (`helm_render`), what the
    actions that only look a value up write (`found`: by the action's offset)."""

    __slots__ = ("text", "holes", "inserts", "values", "found")

    def __init__(self, source: str, path: str | None = None) -> None:
        self.holes: list[tuple[int, int, str]] = []
        self.inserts: list[tuple[int, int, str]] = []
        self.values = values = chart_values(path) if path is not None else None
        self.found: dict[int, Rendered] = {}
        chars = list(source)
        actions = [(m.start(), m.end()) for m in _ACTION.finditer(source)]
        blanked = 0  # depth of arms being blanked
        stack: list[Block] = []  # the blocks open here
        index = 0
        for line_start, line_end in _lines(source):
            mine = []
            while index < len(actions) and actions[index][0] < line_end:
                mine.append(actions[index])
                index += 1
            outside = _outside(source, line_start, line_end, mine)
            whole_line = bool(mine) and _BLANK_OR_CONTROL.fullmatch(outside) is not None
            if whole_line:
                for begin, end in mine:
                    word = _keyword(source, begin)
                    if word in _OPENS:
                        opened = Block(values, source[begin:end], stack)
                        blanked += opened.blanking
                        stack.append(opened)
                    elif word == "else" and stack:
                        blanked += stack[-1].otherwise(source[begin:end], stack[:-1])
                    elif word == "end" and stack:
                        blanked -= stack.pop().blanking
                    elif word not in _CONTROLS and not blanked:
                        self.inserts.append((begin, end, _shown(source[begin:end])))
                        self._render(begin, source[begin:end], stack)
                    _blank(chars, begin, end, " ")
            elif blanked:
                _blank(chars, line_start, line_end, " ")
            else:
                for begin, end in mine:
                    self.holes.append((begin, end, _shown(source[begin:end])))
                    self._render(begin, source[begin:end], stack)
                    _blank(chars, begin, end, "x")
        self.text = "".join(chars)

    def _render(self, begin: int, action: str, stack: list[Block]) -> None:
        if self.values is not None:
            rendered = render(self.values, action, stack)
            if rendered is not None:
                self.found[begin] = rendered

    def items_at(self, begin: int, end: int) -> list[tuple[str, Span]] | None:
        """The values' list items that one action written alone from `begin` to `end` (a
        YAML item `- {{ . | quote }}` in a `range`, or a `toYaml` line) stands for."""
        hole = self.found.get(begin)
        if hole is None or hole.items is None:
            return None
        whole = next((h for h in self.holes if h[0] == begin), None)
        if whole is not None and whole[1] != end:
            return None
        return hole.items

    def fill_holes(self, pieces: list[Piece]) -> list[Piece]:
        """`pieces` (read from `text`) with each inline action made an unknown value."""
        if not self.holes:
            return pieces
        out: list[Piece] = []
        for piece in pieces:
            hits = [h for h in self.holes if h[0] < max(piece.end, piece.begin + 1) and piece.begin < h[1]]
            if not hits or piece.text is None:
                out.append(piece)
                continue
            if not piece.exact:  # (a decoded escape: the whole piece stands for the range)
                out.append(Piece(None, piece.begin, piece.end, reason=_reason(hits[0][2])))
                continue
            at = piece.begin
            for begin, end, shown in hits:
                rendered = self.found.get(begin)
                begin, end = max(begin, piece.begin), min(end, piece.end)
                if begin > at:
                    out.append(
                        Piece(piece.text[at - piece.begin : begin - piece.begin], at, begin, exact=True)
                    )
                if rendered is not None and rendered.text is not None:
                    out.append(Piece(rendered.text, begin, end, origin=rendered.origin))
                else:
                    why = rendered.reason if rendered is not None and rendered.reason else _reason(shown)
                    out.append(Piece(None, begin, end, reason=why))
                at = end
            if at < piece.end:
                out.append(Piece(piece.text[at - piece.begin :], at, piece.end, exact=True))
        return out

    def insert_in(self, begin: int, end: int) -> tuple[int, int, str] | None:
        """The first whole-line action that inserts YAML between offsets `begin` and `end`."""
        return next((found for found in self.inserts if begin <= found[0] < end), None)


def reason_for_insert(shown: str) -> str:
    return f"`{shown}` inserts YAML when Helm renders the chart; speclint does not render templates"


def _reason(shown: str) -> str:
    return f"`{shown}` is filled in by Helm when the chart is rendered"


def _shown(action: str) -> str:
    action = " ".join(action.split())
    return action if len(action) <= 80 else action[:77] + "..."


def _keyword(source: str, begin: int) -> str:
    match = _KEYWORD.match(source, begin)
    return match.group(1) if match else ""


def _lines(source: str) -> list[tuple[int, int]]:
    """(start, end) of each line, its newline excluded."""
    found, at = [], 0
    while True:
        end = source.find("\n", at)
        if end == -1:
            found.append((at, len(source)))
            return found
        found.append((at, end))
        at = end + 1


def _outside(source: str, start: int, end: int, actions: list[tuple[int, int]]) -> str:
    """The line's text outside its actions (an action may run past the line's end)."""
    parts, at = [], start
    for begin, stop in actions:
        parts.append(source[at:begin])
        at = max(at, stop)
    if at < end:
        parts.append(source[at:end])
    elif at > end:  # a multi-line action: what follows it on its last line
        line_end = source.find("\n", at)
        parts.append(source[at : len(source) if line_end == -1 else line_end])
    return "".join(parts)


def _blank(chars: list[str], begin: int, end: int, fill: str) -> None:
    for i in range(begin, min(end, len(chars))):
        if chars[i] not in "\r\n":
            chars[i] = fill


def workflow_holes(pieces: list[Piece]) -> list[Piece]:
    """`pieces` with each `{{...}}` made an unknown value: an Argo Workflows or Kubeflow
    Pipelines step's parameters (`{{inputs.parameters.model}}`), filled in when the step runs."""
    out: list[Piece] = []
    for piece in pieces:
        if piece.text is None or "{{" not in piece.text:
            out.append(piece)
            continue
        matches = list(_ACTION.finditer(piece.text))
        if not matches:
            out.append(piece)
        elif not piece.exact:  # (a decoded escape: the whole piece stands for the range)
            out.append(Piece(None, piece.begin, piece.end, reason=_workflow_reason(matches[0].group())))
        else:
            at = 0
            for match in matches:
                if match.start() > at:
                    out.append(
                        Piece(
                            piece.text[at : match.start()],
                            piece.begin + at,
                            piece.begin + match.start(),
                            exact=True,
                        )
                    )
                reason = _workflow_reason(match.group())
                out.append(Piece(None, piece.begin + match.start(), piece.begin + match.end(), reason=reason))
                at = match.end()
            if at < len(piece.text):
                out.append(Piece(piece.text[at:], piece.begin + at, piece.end, exact=True))
    return out


def _workflow_reason(shown: str) -> str:
    return f"`{_shown(shown)}` is filled in by the workflow engine when the step runs"
