"""Front-ends: turn a source file into the SGLang launches it contains.

`extract_file` picks the front-end by file kind (`file_kinds.file_kind`): `shell/` (tree-sitter-bash), `python/`
(CPython's `ast`), `docs/` (Markdown with markdown-it-py, Jupyter notebooks, reStructuredText),
`manifests/` (Kubernetes and compose YAML, Dockerfiles, GitHub Actions, SGLang `--config`
files, VS Code launch and tasks files, devcontainer.json, ECS task definitions) and
`commands/` (Makefiles, justfiles, Procfiles, systemd units, supervisord programs, tox
environments, pixi and poe tasks in TOML). Every
front-end but the shell's only loads its reader when the text mentions sglang, so other
files cost a substring search.
"""

from __future__ import annotations

import os

from speclint.core.launches import ExtractResult
from speclint.core.spans import Span
from speclint.frontends.file_kinds import file_kind, is_lintable_path
from speclint.frontends.recognise import PYTHON_MENTIONS
from speclint.frontends.unread_kinds import unread_kind

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["COMMAND_KINDS", "extract_file", "file_kind", "is_lintable_path"]


def _extract_shell(text: str, path: str) -> ExtractResult:
    import speclint.frontends.shell.script as script  # tree-sitter: loaded when a shell file is read

    if ("-f" in text and ("kubectl" in text or "oc " in text)) or (  # a manifest a here-document applies
        ("<<" in text or "sky " in text)  # or writes (`cat > compose.yml << EOF`), or SkyPilot runs
        and (".yml" in text or ".yaml" in text)
    ):
        from speclint.frontends.manifest_reader import read_unit_or_manifest

        return script.extract_shell(text, path, read_unit_or_manifest)
    return script.extract_shell(text, path)


def _extract_python(text: str, path: str) -> ExtractResult:
    if not any(mention in text for mention in PYTHON_MENTIONS) and not (
        "--speculative-" in text and _speculative_spellings(text)  # a wrapper run with SGLang's flags
    ):
        return ExtractResult()
    from speclint.frontends.python.extract import extract_python  # libcst only for newer syntax

    return extract_python(text, path)


def _speculative_spellings(text: str) -> bool:
    from speclint.frontends.python.wrapper_flags import sglang_spellings

    return sglang_spellings(text)


def _extract_yaml(text: str, path: str) -> ExtractResult:
    if (
        "sglang" not in text
        and "model-path" not in text
        and "model_path" not in text
        and "--speculative-" not in text  # a values file's flag list (`extraArgs:`)
    ):
        return ExtractResult()
    from speclint.frontends.manifests.yaml_manifest import extract_yaml  # PyYAML is only loaded when needed

    return extract_yaml(text, path)


def _doc_worth_reading(text: str) -> bool:
    """A doc that mentions sglang, a flag list (they may omit the command), or one of SGLang's
    Python APIs in a snippet that omits its imports (`sgl.Runtime(...)`, `ServerArgs(...)` in
    a doc about SGLang)."""
    if "--speculative-" in text or any(mention in text for mention in PYTHON_MENTIONS):
        return True
    if "SGLang" in text and "--" in text:  # (a flag block on a page that names it only so)
        return True
    return "ServerArgs(" in text and "sglang" in text.lower()


def _extract_markdown(text: str, path: str) -> ExtractResult:
    if not _doc_worth_reading(text):
        return ExtractResult()
    from speclint.frontends.docs.markdown import extract_markdown  # markdown-it-py: loaded only here

    return extract_markdown(text, path)


def _extract_notebook(text: str, path: str) -> ExtractResult:
    if not _doc_worth_reading(text):
        return ExtractResult()
    from speclint.frontends.docs.notebook import extract_notebook

    return extract_notebook(text, path)


def _extract_rst(text: str, path: str) -> ExtractResult:
    if not _doc_worth_reading(text):
        return ExtractResult()
    from speclint.frontends.docs.rst import extract_rst

    return extract_rst(text, path)


def _extract_dockerfile(text: str, path: str) -> ExtractResult:
    spelled = "--speculative-" in text and _speculative_spellings(text)  # (a wrapper's CMD)
    if "sglang" not in text and not spelled:
        return ExtractResult()
    from speclint.frontends.manifests.dockerfile import extract_dockerfile

    result = extract_dockerfile(text, path)
    if spelled:
        from speclint.frontends.commands.unread_speculative import say_unread_speculative

        say_unread_speculative(text, result)
    return result


def _extract_vscode_tasks(text: str, path: str) -> ExtractResult:
    if "sglang" not in text:
        return ExtractResult()
    from speclint.frontends.manifests.vscode_tasks import extract_vscode_tasks

    return extract_vscode_tasks(text, path)


def _extract_vscode_workspace(text: str, path: str) -> ExtractResult:
    if "sglang" not in text:
        return ExtractResult()
    from speclint.frontends.manifests.vscode_workspace import extract_vscode_workspace

    return extract_vscode_workspace(text, path)


def _json_containers(kind: str) -> Callable[[str, str], ExtractResult]:
    def extract(text: str, path: str) -> ExtractResult:
        if "sglang" not in text:
            return ExtractResult()
        from speclint.frontends.manifests.json_containers import extract_json_containers

        return extract_json_containers(text, path, kind)

    return extract


def _extract_vscode(text: str, path: str) -> ExtractResult:
    if "sglang" not in text:
        return ExtractResult()
    from speclint.frontends.manifests.vscode_launch import extract_vscode_launch

    return extract_vscode_launch(text, path)


COMMAND_KINDS = (
    "makefile",
    "justfile",
    "procfile",
    "systemd",
    "quadlet",
    "supervisord",
    "tox",
    "pixi",
    "pyproject",
    "poe",
    "hatch",
    "mise",
)
"""The kinds of files of commands another program runs (`frontends.commands`): `#` lines in
them are comments."""


def _commands_front_end(kind: str) -> Callable[[str, str], ExtractResult]:
    def extract(text: str, path: str) -> ExtractResult:
        if (
            "sglang" not in text
            and not (kind == "makefile" and "include" in text)
            and not ("--speculative-" in text and _speculative_spellings(text))  # (a wrapper's run)
        ):
            return ExtractResult()  # (a makefile's launch may take its text from an included one)
        from speclint.frontends.commands.read import extract_commands

        return extract_commands(kind, text, path)

    return extract


_FRONT_ENDS: dict[str, Callable[[str, str], ExtractResult]] = {
    "shell": _extract_shell,
    "python": _extract_python,
    "yaml": _extract_yaml,
    "markdown": _extract_markdown,
    "notebook": _extract_notebook,
    "rst": _extract_rst,
    "dockerfile": _extract_dockerfile,
    "vscode": _extract_vscode,
    "vscode-tasks": _extract_vscode_tasks,
    "vscode-workspace": _extract_vscode_workspace,
    "devcontainer": _json_containers("devcontainer"),
    "ecs-task": _json_containers("ecs-task"),
    "json-commands": _json_containers("json-commands"),
    **{kind: _commands_front_end(kind) for kind in COMMAND_KINDS},
}


def extract_file(path: str, text: str) -> ExtractResult:
    """The launches in one file ("-" is stdin, read as shell)."""
    kind = file_kind(path, text)
    front_end = _FRONT_ENDS.get(kind or "")
    unread = unread_kind(path) if front_end is None else None
    if unread is not None:
        from speclint.core.diagnostics import Diagnostic

        language, shown = unread
        why = f"speclint does not read {language} (`{shown}`), so nothing in it was checked"
        return ExtractResult(diagnostics=[Diagnostic("launch-unread", why, Span.point(1, 1))])
    if front_end is None:
        message = (
            f"no front-end reads {os.path.basename(path) or path!r} (not a shell script, "
            "Python file, YAML manifest, Markdown or reStructuredText file, Jupyter notebook, "
            "Dockerfile, VS Code launch configuration (JSON), Makefile, justfile, Procfile, "
            "systemd service or drop-in, Podman Quadlet container, supervisord program, tox.ini, "
            "pixi.toml, pyproject.toml, poe_tasks.toml, VS Code tasks.json or .code-workspace, "
            "devcontainer.json or ECS task definition)"
        )
        from speclint.core.diagnostics import Diagnostic

        return ExtractResult(diagnostics=[Diagnostic("unsupported-input", message, Span.point(1, 1))])
    return front_end(text, path)
