"""Which files a folder walk lints: `.gitignore` respected by default, `exclude` patterns.

As in ruff: files named on the command line are always linted; folders are walked for the
kinds speclint reads, skipping hidden folders (but `.github`, `.vscode`, `.devcontainer`, `.buildkite`
and `.circleci`), the built-in
`DEFAULT_EXCLUDE`, what `exclude` / `extend-exclude` name, and what `.gitignore` files ignore (each folder's
`.gitignore` applies below it, later lines and deeper files win, `!` re-includes;
`--no-respect-gitignore` turns this off).
"""

from __future__ import annotations

import os
import stat

from speclint.runner.depends import note

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from speclint.settings.walk_options import WalkOptions


def iter_lint_paths(
    paths: list[str], walk: WalkOptions | Callable[[str], WalkOptions] | None = None
) -> Iterator[tuple[str, str | None]]:
    """Files to lint as (path, error). Folders are walked for the kinds speclint reads,
    skipping what `walk` (a `speclint.settings.options.WalkOptions`, or a callable giving one
    per walked root) excludes and `.gitignore` ignores; files named explicitly are always linted.
    Symlinked folders are not followed (no loops)."""
    from speclint.frontends import is_lintable_path

    for given in paths:
        if given == "-" or not os.path.isdir(given):
            if given != "-" and not os.path.lexists(given):
                yield given, "no such file or directory"
            else:
                yield given, None
            continue
        from speclint.runner.gitignore import gitignore_above
        from speclint.settings.walk_options import WalkOptions

        options = (walk(given) if callable(walk) else walk) or WalkOptions()
        ignores = {given: gitignore_above(given).below(given)} if options.respect_gitignore else None
        for root, dirs, files in os.walk(given, onerror=None, followlinks=False):
            note(root)  # what a walk lints follows from what the folders list
            rules = ignores.pop(root) if ignores is not None else None
            # the walked root's entries are `name`, a folder's below it `folder/name`
            below = os.path.relpath(root, given).replace(os.sep, "/")
            prefix = "" if below == "." else below + "/"

            def skipped(name: str, is_dir: bool) -> bool:
                return (
                    options.excluded(prefix + name, name)  # noqa: B023 (called only in this iteration)
                    or (rules is not None and rules.ignored(os.path.join(root, name), is_dir))  # noqa: B023
                )

            dirs[:] = sorted(
                d for d in dirs if (not d.startswith(".") or d in _HIDDEN_WALKED) and not skipped(d, True)
            )
            if ignores is not None and rules is not None:
                for name in dirs:
                    ignores[os.path.join(root, name)] = rules.below(os.path.join(root, name))
            for name in sorted(files):
                full = os.path.join(root, name)
                if _is_regular_file(full) and is_lintable_path(full) and not skipped(name, False):
                    yield full, None


_HIDDEN_WALKED = (".github", ".vscode", ".devcontainer", ".buildkite", ".circleci")
"""Hidden folders a walk enters: GitHub's workflows, VS Code's launch.json and tasks.json,
Buildkite's and CircleCI's pipelines (in them only the files a front-end reads are linted, as
anywhere)."""


def _is_regular_file(path: str) -> bool:
    """False for FIFOs, sockets, devices, dangling links and symlink loops: a folder scan
    skips them without opening them (opening a FIFO would wait for a writer forever)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False
