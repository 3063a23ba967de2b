"""The container a SkyPilot task made in Python runs in: `sky.Resources(image_id="docker:IMAGE")`
given to the task's `set_resources` (chained on `sky.Task(...)`, or called on a name assigned a
task once), its tag written in the file, picks the SGLang release as a `docker run` image does,
as the task YAML's `resources.image_id: docker:IMAGE` does (`manifests.task_configs`).

The Resources may be written in the call, in a set or list of one, or through a name assigned
it once; `image_id` must be a string literal (or a name assigned one once) starting with
`docker:`. A launch read inside the `sky.Task(...)` call (its `setup` or `run`) runs in that
image. The file is parsed with CPython's `ast`, never run.
"""

from __future__ import annotations

import ast

from speclint.frontends.python.ast_places import module_attribute, node_span

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.launches import ExtractResult
    from speclint.core.spans import Span

_PREFIX = "docker:"


def attach_sky_images(text: str, result: ExtractResult) -> None:
    """Set `image` / `image_span` of the launches (that have none) read inside a `sky.Task`
    call whose resources name a docker image."""
    try:
        tree = ast.parse(text[1:] if text.startswith("\ufeff") else text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return
    lines = text.splitlines()
    bom = text.startswith("\ufeff")
    assigned = _assigned_once(tree)
    placed: list[tuple[int, int, str, Span]] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr != "set_resources" or not node.args:
            continue
        task = _task_call(node.func.value, assigned)
        image = _image(node.args[0], assigned)
        if task is not None and image is not None:
            literal, value = image
            placed.append(
                (task.lineno, task.end_lineno or task.lineno, value, node_span(literal, lines, bom))
            )
    for launch in result.launches:
        if launch.image is not None or launch.span.file is not None:
            continue
        for first, last, value, span in placed:
            if first <= launch.span.line <= last:
                launch.image, launch.image_span = value, span
                break


def _assigned_once(tree: ast.Module) -> dict[str, ast.expr]:
    """Names the file assigns exactly once (by a plain `NAME = value`), and that value."""
    values: dict[str, ast.expr] = {}
    counts: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            values[node.targets[0].id] = node.value
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            counts[node.id] = counts.get(node.id, 0) + 1
    return {name: value for name, value in values.items() if counts.get(name) == 1}


def _through_name(node: ast.expr, assigned: dict[str, ast.expr]) -> ast.expr:
    if isinstance(node, ast.Name) and node.id in assigned:
        return assigned[node.id]
    return node


def _task_call(node: ast.expr, assigned: dict[str, ast.expr]) -> ast.Call | None:
    """The `sky.Task(...)` call at the bottom of a chain of setters (`sky.Task(...)
    .set_file_mounts(...)`), or the one a name was assigned."""
    node = _through_name(node, assigned)
    while isinstance(node, ast.Call):
        if module_attribute(node.func, "sky", "Task"):
            return node
        if not isinstance(node.func, ast.Attribute):
            return None
        node = node.func.value
    return None


def _image(node: ast.expr, assigned: dict[str, ast.expr]) -> tuple[ast.expr, str] | None:
    """(the literal, the image without `docker:`) of a `sky.Resources(image_id=...)`."""
    node = _through_name(node, assigned)
    if isinstance(node, (ast.Set, ast.List, ast.Tuple)) and len(node.elts) == 1:
        node = _through_name(node.elts[0], assigned)
    if not (isinstance(node, ast.Call) and module_attribute(node.func, "sky", "Resources")):
        return None
    for keyword in node.keywords:
        if keyword.arg == "image_id":
            literal = _through_name(keyword.value, assigned)
            if isinstance(literal, ast.Constant) and isinstance(literal.value, str):
                if literal.value.startswith(_PREFIX) and len(literal.value) > len(_PREFIX):
                    return literal, literal.value[len(_PREFIX) :]
    return None
