"""The container image a Modal app's launch runs in: `modal.Image.from_registry(TAG)` (and
`Image.from_registry` imported from `modal`), its tag written in the file, picks the SGLang
release as a `docker run` image does (`sglang.flags.versions.version_from_image`).

Modal runs a function in the image its decorator names (`@app.function(image=IMG)`,
`@app.cls(image=...)`), else in its app's (`app = modal.App("x", image=IMG)`); a launch
inside such a function runs in that image. A launch in a
file that pulls one registry image and decorates no function that holds the launch with
another runs in that one. The tag is read where the file writes it: a string literal, a
module-level name assigned one string once (`SGLANG_IMAGE = "lmsysorg/sglang:v0.5.6.post2"`),
an f-string or `+` of those. An image whose build then installs SGLang (a method of its chain given text
that names sglang: `.pip_install("sglang[all]==0.4.10")`, `.uv_pip_install(...)`,
`.run_commands("pip install sglang==0.4.10")`, any image: `Image.debian_slim()...`) runs the
release the last such step pins exactly (`sglang==X`, `sglang[extras]==X`, as pip reads it),
placed at that string; a step that pins none (`sglang[all]>=0.4`, `git clone
.../sglang.git`) leaves the image's release unknown: it picks none. The file is parsed
with CPython's `ast`, never run; a file `ast` cannot parse gives no image.
"""

from __future__ import annotations

import ast
import re
from typing import NamedTuple

from speclint.core.spans import Span
from speclint.frontends.python.ast_places import module_attribute, node_span

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.launches import ExtractResult

_REINSTALL = re.compile(r"sglang(?![-_]router)", re.I)
"""Text of a chained build step that installs SGLang (not only its router package)."""
_NOT_BUILD_STEPS = frozenset({"env", "entrypoint", "workdir"})
_PINNED = re.compile(
    r"(?<![\w.-])sglang(?:\[[^\]]*\])?[ ]*==[ ]*v?\d+\.\d+\.\d+(?:\.?post\d+|rc\d+)?(?![\w.-])", re.I
)
"""An exact pin of SGLang in a build step's text (pip's requirement, `sglang[all]==0.4.6`; a release
candidate, `sglang==0.5.0rc1`, is checked against the closest older release)."""
_MAX_DEPTH = 8

_Image = tuple[str, Span]
"""(the image as written, where its text is written; or the `sglang==X` its build installs)."""


class _Str(NamedTuple):
    node: ast.Constant
    value: str


def attach_modal_images(text: str, result: ExtractResult) -> None:
    """Set `image` / `image_span` of the launches (that have none) which run in a Modal
    registry image of the file."""
    try:
        tree = ast.parse(text[1:] if text.startswith("\ufeff") else text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return
    try:
        found = _Images(text, tree)
    except RecursionError:
        return
    if not found.images:
        return
    for launch in result.launches:
        if launch.image is None and launch.span.file is None:
            image = found.image_at(launch.span.line)
            if image is not None:
                launch.image, launch.image_span = image


class _Images:
    """The registry images of one file and the functions that run in them."""

    def __init__(self, text: str, tree: ast.Module) -> None:
        self.lines = text.splitlines()
        self.bom = text.startswith("\ufeff")
        self.constants = _constants(tree)
        self.images: dict[int, _Image | None] = {}
        """id(from_registry call) -> its image (None: not known, or SGLang installed again)."""
        steps: list[tuple[ast.Call, str]] = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _is_from_registry(node.func):
                self.images[id(node)] = self._tag(node)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                steps.append((node, node.func.attr))
        steps.sort(key=lambda step: (step[0].end_lineno or 0, step[0].end_col_offset or 0))  # chain order
        for call, method in steps:  # a build step chained on an image: the last install wins
            bottom = _bottom(call)
            if bottom is None or method in _NOT_BUILD_STEPS:
                continue
            installs = [s for s in _string_nodes(call) if _REINSTALL.search(s.value)]
            if not installs:
                continue
            pinned = _pin(installs, self.lines, self.bom)
            if id(bottom) in self.images or (pinned is not None and _is_image(bottom.func)):
                self.images[id(bottom)] = pinned
        apps = {  # `app = modal.App("x", image=IMG)`: the image of its functions that name none
            name: self._image_of(image, 0)
            for name, value in self.constants.items()
            if isinstance(value, ast.Call) and module_attribute(value.func, "modal", "App")
            for image in [keyword.value for keyword in value.keywords if keyword.arg == "image"]
        }
        self.functions: list[tuple[int, int, _Image | None]] = []
        """(first line, last line, image) of each function or class whose decorator names its image."""
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                for decorator in node.decorator_list:
                    if not isinstance(decorator, ast.Call):
                        continue
                    named = [keyword.value for keyword in decorator.keywords if keyword.arg == "image"]
                    function = decorator.func
                    if named:
                        image = self._image_of(named[0], 0)
                    elif (
                        isinstance(function, ast.Attribute)
                        and function.attr in ("function", "cls")
                        and isinstance(function.value, ast.Name)
                        and function.value.id in apps
                    ):
                        image = apps[function.value.id]
                    else:
                        continue
                    self.functions.append((node.lineno, node.end_lineno or node.lineno, image))
        self.functions.sort(key=lambda item: item[0] - item[1])  # innermost first
        first = next(iter(self.images.values()), None)
        same = all(
            image is not None and first is not None and image[0] == first[0] for image in self.images.values()
        )
        self.only = first if same else None
        """The image of a launch no decorator places: the file's one registry image, if all
        its `from_registry` calls pull the same known one."""

    def image_at(self, line: int) -> _Image | None:
        for first, last, image in self.functions:
            if first <= line <= last:
                return image
        return self.only

    def _image_of(self, expression: ast.expr, depth: int) -> _Image | None:
        """The image an expression makes (a name of the module bound to one, or the chain)."""
        if depth > _MAX_DEPTH:
            return None
        if isinstance(expression, ast.Name) and expression.id in self.constants:
            return self._image_of(self.constants[expression.id], depth + 1)
        bottom = _bottom(expression)
        return self.images.get(id(bottom)) if bottom is not None else None

    def _tag(self, call: ast.Call) -> _Image | None:
        argument = call.args[0] if call.args else None
        for keyword in call.keywords:
            if keyword.arg == "tag":
                argument = keyword.value
        if argument is None:
            return None
        literal = argument
        if isinstance(argument, ast.Name) and argument.id in self.constants:
            literal = self.constants[argument.id]  # placed where the name's value is written
        value = self._text(literal, 0)
        return None if value is None else (value, node_span(literal, self.lines, self.bom))

    def _text(self, expression: ast.expr, depth: int) -> str | None:
        """The string an expression is, from literals and module names only."""
        if depth > _MAX_DEPTH:
            return None
        if isinstance(expression, ast.Constant):
            return expression.value if isinstance(expression.value, str) else None
        if isinstance(expression, ast.Name) and expression.id in self.constants:
            return self._text(self.constants[expression.id], depth + 1)
        if isinstance(expression, ast.BinOp) and isinstance(expression.op, ast.Add):
            left, right = self._text(expression.left, depth + 1), self._text(expression.right, depth + 1)
            return None if left is None or right is None else left + right
        if isinstance(expression, ast.JoinedStr):
            parts = []
            for part in expression.values:
                if isinstance(part, ast.FormattedValue):
                    if part.conversion != -1 or part.format_spec is not None:
                        return None
                    part = part.value  # noqa: PLW2901
                value = self._text(part, depth + 1)
                if value is None:
                    return None
                parts.append(value)
            return "".join(parts)
        return None


def _constants(tree: ast.Module) -> dict[str, ast.expr]:
    """The names a module-level statement assigns, and the expression each is given, for
    those the file writes nowhere else (no other assignment, `+=`, loop, `with ... as`,
    import or `global` write of that name, in any scope)."""
    values: dict[str, ast.expr] = {}
    for statement in tree.body:
        pairs: list[tuple[ast.expr, ast.expr]] = []
        if isinstance(statement, ast.Assign):
            pairs = [(target, statement.value) for target in statement.targets]
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            pairs = [(statement.target, statement.value)]
        for target, value in pairs:
            if isinstance(target, ast.Name):
                values[target.id] = value
    written: dict[str, int] = {}
    for node in ast.walk(tree):
        name = None
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            name = node.id
        elif isinstance(node, ast.alias):
            name = node.asname or node.name.split(".")[0]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name = node.name
        if name in values:
            written[name] = written.get(name, 0) + 1
    return {name: value for name, value in values.items() if written.get(name) == 1}


def _is_from_registry(function: ast.expr) -> bool:
    """`modal.Image.from_registry` or `Image.from_registry`."""
    return (
        isinstance(function, ast.Attribute)
        and function.attr == "from_registry"
        and module_attribute(function.value, "modal", "Image")
    )


def _bottom(expression: ast.expr) -> ast.Call | None:
    """The first call of a method chain (`A(...).b(...).c(...)` -> `A(...)`)."""
    bottom = None
    while isinstance(expression, ast.Call):
        bottom = expression
        if not isinstance(expression.func, ast.Attribute):
            break
        expression = expression.func.value
    return bottom


def _string_nodes(call: ast.Call) -> list[_Str]:
    """The string literals a call is given (not those of the chain below it)."""
    found: list[_Str] = []
    for argument in [*call.args, *(keyword.value for keyword in call.keywords)]:
        for node in ast.walk(argument):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.append(_Str(node, node.value))
    return found


def _pin(installs: list[_Str], lines: list[str], bom: bool) -> _Image | None:
    """A build step's strings that name sglang: the release they install when one pins it
    exactly (`"sglang[all]==0.4.6"`, `"pip install sglang==0.4.6"`), as written, placed at its
    string; None when none does (`sglang[all]>=0.4`, a git checkout): not known."""
    for string in reversed(installs):
        match = _PINNED.search(string.value)
        if match is not None:
            return match.group().replace(" ", ""), node_span(string.node, lines, bom)
    return None


def _is_image(function: ast.expr) -> bool:
    """`modal.Image.X` or `Image.X` (imported from modal): the start of an image's chain."""
    return isinstance(function, ast.Attribute) and module_attribute(function.value, "modal", "Image")
