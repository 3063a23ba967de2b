"""The SGLang release a Python file's launches run, pinned by what the file installs:

- a nox session's `session.install("sglang[all]==0.5.6")` (nox 2024.4.15, `Session.install`:
  `pip install` of its arguments into the session's virtualenv) before a launch in the same
  session function: the launch (`session.run("python", "-m", "sglang.launch_server", ...)`)
  runs that release, as the launches after `pip install sglang==X` in a shell script do
  (`shell.python_runners.install_pin`); the last such install before the launch wins;
- inline script metadata (PEP 723, "Inline script metadata": a `# /// script` comment block,
  TOML, whose `dependencies` a runner such as `uv run script.py` or `pipx run` installs before
  running the script) that pins SGLang exactly (`"sglang[all]==0.5.3"`): every launch of the
  file without an image or pin of its own.

A range (`sglang>=0.5.3`), an unpinned name or a requirements file pins nothing. The file is
parsed with CPython's `ast` and `tomllib`, never run; what they cannot parse pins nothing.
"""

from __future__ import annotations

import ast
import re
import sys

from speclint.core.spans import Span
from speclint.frontends.python.ast_places import node_span

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.launches import ExtractResult

_BLOCK = re.compile(r"(?m)^# /// script\s*$\n((?:^#(?:| .*)$\n)*?)^# ///\s*$")
"""PEP 723's regular expression for a `script` block (its content lines start `#` or `# `)."""


def attach_install_pins(text: str, result: ExtractResult) -> None:
    """Set `image` / `image_span` of the launches (that have none) to the pin the file installs."""
    if "install" in text and "nox" in text:
        _nox_installs(text, result)
    if "# /// script" in text:
        pinned = _script_pin(text)
        if pinned is not None:
            for launch in result.launches:
                if launch.image is None and launch.span.file is None:
                    launch.image, launch.image_span = pinned


def _script_pin(text: str) -> tuple[str, Span] | None:
    """The `dependencies` entry of the file's one `# /// script` block that pins SGLang."""
    blocks = list(_BLOCK.finditer(text))
    if len(blocks) != 1:  # (PEP 723: more than one block is an error)
        return None
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # Python 3.10
        import tomli as tomllib

    from speclint.sglang.flags.versions import package_pin

    block = blocks[0]
    content = "".join(
        line[2:] if line.startswith("# ") else line[1:] for line in block.group(1).splitlines(True)
    )
    try:
        dependencies = tomllib.loads(content).get("dependencies")
    except ValueError:  # tomllib.TOMLDecodeError
        return None
    if not isinstance(dependencies, list):
        return None
    for requirement in dependencies:
        if isinstance(requirement, str) and package_pin(requirement.replace(" ", "")):
            at = text.find(requirement, block.start(1), block.end(1))
            if at < 0:
                return None  # (written with escapes: not where speclint can point)
            line = text.count("\n", 0, at) + 1
            column = at - (text.rfind("\n", 0, at) + 1) + 1
            return requirement.replace(" ", ""), Span(line, column, line, column + len(requirement))
    return None


def _nox_installs(text: str, result: ExtractResult) -> None:
    try:
        tree = ast.parse(text[1:] if text.startswith("\ufeff") else text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return
    if not any(
        isinstance(node, ast.Import | ast.ImportFrom)
        and any(
            (alias.name if isinstance(node, ast.Import) else node.module or "") == "nox"
            for alias in node.names
        )
        for node in tree.body
    ):
        return
    from speclint.sglang.flags.versions import package_pin

    lines = text.splitlines()
    bom = text.startswith("\ufeff")
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef) or not function.args.args:
            continue
        session = function.args.args[0].arg
        pins: list[tuple[int, str, Span]] = []
        for node in ast.walk(function):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "install"
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == session
            ):
                continue
            for argument in node.args:
                if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                    if package_pin(argument.value):
                        span = node_span(argument, lines, bom)
                        inner = Span(span.line, span.column + 1, span.end_line, span.end_column - 1)
                        pins.append((node.end_lineno or node.lineno, argument.value, inner))
        if not pins:
            continue
        pins.sort(key=lambda pin: pin[0])
        last = function.end_lineno or function.lineno
        for launch in result.launches:
            if launch.image is not None or launch.span.file is not None:
                continue
            if function.lineno <= launch.span.line <= last:
                before = [pin for pin in pins if pin[0] < launch.span.line]
                if before:
                    launch.image, launch.image_span = before[-1][1], before[-1][2]
