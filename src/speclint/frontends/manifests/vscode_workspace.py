"""A VS Code multi-root workspace file (`NAME.code-workspace`, JSON with comments): its
`"launch": {"configurations": [...]}` section is read as a `launch.json` is
(`vscode_launch`), its `"tasks": {"tasks": [...]}` section as a `tasks.json` is
(`vscode_tasks`), each word at its place in the file (VS Code's "Multi-root Workspaces"
documentation: a workspace file holds `folders`, `settings`, `launch`, `tasks`)."""

from __future__ import annotations

from speclint.core.launches import ExtractResult
from speclint.frontends.manifests.vscode_launch import _Object, _Parser, extract_vscode_launch
from speclint.frontends.manifests.vscode_tasks import read_tasks


def extract_vscode_workspace(text: str, path: str) -> ExtractResult:
    """The launches of a workspace file's debug configurations and tasks."""
    result = extract_vscode_launch(text, path)
    try:
        root = _Parser(text).value()
    except (ValueError, RecursionError):
        return result  # not JSONC: a file naming the launcher is then reported (no launch found)
    tasks = root.get("tasks") if isinstance(root, _Object) else None
    if tasks is not None:
        read_tasks(text, path, tasks, result)
    return result
