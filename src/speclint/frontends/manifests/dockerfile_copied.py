"""A start script a Dockerfile copies from its build context (`COPY start.sh /start.sh`, then
`CMD ["/start.sh"]`, `ENTRYPOINT ["bash", "-c", "/start.sh"]`): read from disk next to the
Dockerfile (the build context speclint can see), never run.

The script is read as shell code with the stage's `ENV` and image, and its launches keep the
script's own positions: every span carries the script's path (`Span.file`), so findings
point into the script; a value from the Dockerfile (its `ENV`, its `FROM` tag) keeps its
place there. A script that is not on disk is said to be unread when the stage's image is
SGLang's, so a run that could not see it never ends as if it had been checked.
"""

from __future__ import annotations

import os
import re
from dataclasses import fields, is_dataclass, replace

from speclint.core.launches import Diagnostic, ExtractResult
from speclint.core.spans import Span
from speclint.frontends.manifests.dockerfile_scripts import WrittenScript
from speclint.frontends.recognise import names_launcher
from speclint.frontends.shell.embedded import ShellBuffer
from speclint.frontends.shell.pieces import Piece

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeVar

    from speclint.core.words import Word
    from speclint.frontends.shell.embedded import Budget

    _T = TypeVar("_T")

_SHELL = re.compile(r"#!.*\b(?:bash|sh|dash|zsh|ksh)\b")
"""A shebang naming a shell (`#!/bin/sh`, `#!/usr/bin/env bash`)."""


def read_copied(
    source: str,
    dockerfile: str,
    env: dict[str, Word],
    image: tuple[str | None, Span | None] | None,
    budget: Budget,
    result: ExtractResult,
) -> WrittenScript:
    """The launches of the copied script into `result` (then `pieces` is empty), or the
    script as unread (`pieces` None) with why."""
    from speclint.frontends.reading import read_source
    from speclint.runner.depends import note

    folder = os.path.dirname(dockerfile) if dockerfile not in ("-", "<stdin>") else None
    name = image[0] if image else None
    repository = (name or "").rsplit(":", 1)[0] if ":" in (name or "").rsplit("/", 1)[-1] else name or ""
    sglang_image = "sglang" in repository  # (not in its tag: `myorg/app:sglang-v1`)
    if folder is None:
        why = (
            f"it is copied from the build context (`{source}`), which speclint cannot see when reading stdin"
        )
        return WrittenScript(None, why, sglang_image)
    candidate = os.path.normpath(os.path.join(folder, source))
    note(os.path.abspath(candidate))  # the result cache re-checks the file (or its absence)
    text, error, size = read_source(candidate) if os.path.isfile(candidate) else (None, None, 0)
    if text is None:
        state = (
            f"cannot be read ({error or f'{size} bytes, too large'})"
            if os.path.exists(candidate)
            else "is not on disk next to the Dockerfile"
        )
        why = f"it is copied from the build context, and `{candidate}` {state}"
        return WrittenScript(None, why, sglang_image)
    first = text.split("\n", 1)[0]
    if source.endswith(".py") or (first.startswith("#!") and not _SHELL.match(first)):
        why = (
            f"it is copied from the build context, and `{candidate}` is not a shell script "
            "(speclint reads a copied start script as shell only)"
        )
        return WrittenScript(None, why, names_launcher(text.encode()))
    here = dockerfile  # (as given: a finding there is reported in the linted file)
    found = ExtractResult()
    buffer = ShellBuffer(text, None, budget)
    buffer.add_code([Piece(text, 0, len(text), exact=True)] if text else [])
    marked_env = {key: _moved(word, here) for key, word in env.items()}
    marked_image = (image[0], _moved(image[1], here)) if image and image[1] else image
    buffer.walk(candidate, found, marked_env, marked_image)
    if not found.launches:  # the script names the launcher in a form speclint did not read
        from speclint.frontends.launch_mentions import no_launch_found

        unread = no_launch_found(text, found)
        if unread is not None:
            found.diagnostics.append(unread)
    result.launches.extend(_moved(launch, candidate) for launch in found.launches)
    result.diagnostics.extend(
        Diagnostic(d.kind, d.message, _moved(d.span, candidate)) for d in found.diagnostics
    )
    return WrittenScript([])


def _moved(value: _T, file: str) -> _T:
    """`value` with every position that has no file of its own placed in `file`."""
    if isinstance(value, Span):
        return value if value.file is not None else replace(value, file=file)
    if isinstance(value, list):
        return [_moved(item, file) for item in value]  # type: ignore[return-value]
    if isinstance(value, tuple):
        return tuple(_moved(item, file) for item in value)  # type: ignore[return-value]
    if isinstance(value, dict):
        return {key: _moved(item, file) for key, item in value.items()}  # type: ignore[return-value]
    if is_dataclass(value) and not isinstance(value, type):
        changes = {}
        for entry in fields(value):
            if not entry.init:
                continue
            old = getattr(value, entry.name)
            new = _moved(old, file)
            if new is not old:
                changes[entry.name] = new
        return replace(value, **changes) if changes else value
    return value
