"""poe's `include` (its "Loading tasks from another file" guide; `PoeConfig._load_included_config`
and `ConfigPartition`): `include = "tasks.toml"`, a list of names, or `[[tool.poe.include]]`
tables with `path` (and `cwd`). Each file is read from disk beside the pyproject (poe resolves
a name from the project's folder; a file not there is ignored without error, as poe does), its
config under `tool.poe` when it has one, else at its top. Its tasks are added after the
project's, a name already taken keeping the first (`PoeConfig.get_tasks`); its `envfile` and
`env` apply to every task before the project's own (`RunContext`: each partition's
`apply_env_config`, included files first), its envfiles named from the project's folder (or
the include's `cwd`). Its tasks are read by a reader of that file, whose findings point into
it (`Span.file`). A name with `$` (`${POE_GIT_DIR}/tasks.toml`), a file that is not TOML
(poe also reads YAML and JSON), and an include within an included file (followed by later poe
releases, not by earlier ones) are not read: said so where the file names the launcher.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import NamedTuple, Protocol, TypeVar

from speclint.core.words import Word
from speclint.frontends.commands.toml_text import TomlString, TomlTable, read_toml

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from speclint.core.launches import ExtractResult
    from speclint.core.spans import Span
    from speclint.frontends.commands.toml_text import TomlDocument
    from speclint.frontends.shell.embedded import Budget


class PoeEnv(NamedTuple):
    """The environment poe runs a task with: the variables the file sets, and why one it
    does not set is unknown (None: only the environment poe runs in may set it)."""

    env: dict[str, Word]
    unknown: str | None


class _Reader(Protocol):
    """What is asked here of `toml_tasks`'s reader of one file."""

    result: ExtractResult
    path: str
    starts: list[int]
    budget: Budget
    read: set[int]
    file: str | None
    envfile_base: str
    document: TomlDocument | None

    def poe_env(self, table: TomlTable, outer: PoeEnv) -> PoeEnv: ...

    def unread(self, document: TomlDocument) -> None: ...


_R = TypeVar("_R", bound=_Reader)


def include_items(poe: TomlTable) -> list[tuple[TomlString, TomlString | None]]:
    """(the file's name, the include's `cwd`) of each item of `include`."""
    included = poe.get("include")
    found: list[tuple[TomlString, TomlString | None]] = []
    for item in included if isinstance(included, list) else [included]:
        where = item.get("path") if isinstance(item, TomlTable) else item
        cwd = item.get("cwd") if isinstance(item, TomlTable) else None
        if isinstance(where, TomlString):
            found.append((where, cwd if isinstance(cwd, TomlString) else None))
    return found


def included_readers(
    reader: _R, poe: TomlTable, make: Callable[[ExtractResult, str, str], _R]
) -> list[tuple[_R, TomlTable, TomlString]]:
    """A reader of each file `include` names that is on disk and TOML, with its poe table
    and the name as written; the other names are left to `_Reader.poe_include` (said not
    read where the file names the launcher)."""
    from speclint.core.launches import ExtractResult
    from speclint.frontends.reading import read_named_file

    found = []
    for where, cwd in include_items(poe):
        name = resolved(where.value)
        if "$" in name or not name.endswith(".toml") or (cwd is not None and "$" in cwd.value):
            continue
        text, full, _ = read_named_file(reader.path, name)
        document = read_toml(text) if text is not None else None
        if document is None or isinstance(document, tuple):
            continue
        root = document.root
        table = root.table("tool", "poe") or root
        included = make(ExtractResult(), full, text or "")
        included.file, included.document = full, document
        folder = os.path.dirname(reader.path)
        # envfiles of the included file: from the project's folder, or the include's `cwd`
        included.envfile_base = os.path.join(folder, cwd.value if cwd else "", "pyproject.toml")
        included.budget = reader.budget
        found.append((included, table, where))
    return found


def resolved(name: str) -> str:
    """An include's name with `${POE_ROOT}` and `${POE_CONF_DIR}` (both the project's folder for
    the project's own includes: poe's `resolve_git_path`) in place, as a name relative to it."""
    for variable in ("${POE_ROOT}/", "${POE_CONF_DIR}/"):
        if name.startswith(variable):
            return name[len(variable) :]
    return name


def marked(env: PoeEnv, file: str) -> PoeEnv:
    """`env` with each position that has no file of its own placed in `file`."""
    return PoeEnv({name: _marked_word(word, file) for name, word in env.env.items()}, env.unknown)


def _marked_word(word: Word, file: str) -> Word:
    return replace(
        word,
        span=_marked_span(word.span, file),
        origin=_marked_span(word.origin, file) if word.origin else None,
    )


def _marked_span(span: Span, file: str) -> Span:
    return span if span.file is not None else replace(span, file=file)


def merge_included(reader: _Reader, included: _Reader) -> None:
    """The included file's launches and diagnostics into `reader`'s result, each position
    that has no file placed in the included file."""
    from speclint.core.launches import Diagnostic
    from speclint.frontends.manifests.dockerfile_copied import _moved

    if included.document is not None:  # its strings naming the launcher that were not read
        included.unread(included.document)
    found = included.result
    reader.result.launches.extend(_moved(launch, included.path) for launch in found.launches)
    reader.result.diagnostics.extend(
        Diagnostic(d.kind, d.message, _moved(d.span, included.path)) for d in found.diagnostics
    )


def said_not_read(reader: _Reader, where: TomlString) -> None:
    """An `include` not read (`included_readers`) of a file whose text names SGLang's
    launcher (or whose name holds a variable speclint cannot know): said so, with why."""
    from speclint.frontends import recognise
    from speclint.frontends.reading import read_named_file
    from speclint.frontends.shell.pieces import span_of

    name = resolved(where.value) if reader.file is None else where.value
    text, _, _ = read_named_file(reader.path, name) if "$" not in name else (None, "", "")
    named = recognise.MENTIONS[0].search(text) if text is not None else None
    span = span_of(reader.starts, where.begin, where.end)
    if "$" in name:  # not known: whatever it holds is not checked
        what = f"the tasks poe includes from `{where.value}` (line {span.line})"
        why = "its name holds a variable poe works out when it runs"
        _said(reader, what, f"speclint did not read {what}: {why}, so no launch among them was checked", span)
        return
    if text is None or named is None:
        return
    if reader.file is not None:
        why = "an include within an included file, which later poe releases follow and earlier ones do not"
    elif not where.value.endswith(".toml"):
        why = "poe reads it as YAML or JSON, which speclint does not read here"
    else:
        error = read_toml(text)
        why = f"it is not TOML ({error[0]})" if isinstance(error, tuple) else "its `cwd` names a variable"
    what = f"the tasks poe includes from `{where.value}` (line {span.line}), which names `{named.group()}`"
    _said(reader, what, f"speclint did not read {what}: {why}, so nothing in it was checked", span)


def _said(reader: _Reader, what: str, message: str, span: Span) -> None:
    """A launch not read (`what`), said with `message` at `span` (once)."""
    from speclint.core.launches import Diagnostic

    for kind, text in (("launch-unread", what), ("launcher-not-read", message)):
        found = Diagnostic(kind, text, span)
        if found not in reader.result.diagnostics:
            reader.result.diagnostics.append(found)


def shadowed(included: _Reader, name: str, task: object, project: str) -> None:
    """A task of an included file whose name the project (or an earlier file) already has:
    poe runs that one, never this; its command strings naming the launcher are said so."""
    from speclint.core.launches import Diagnostic
    from speclint.frontends import recognise
    from speclint.frontends.shell.pieces import span_of

    strings = [task] if isinstance(task, TomlString) else []
    if isinstance(task, TomlTable):
        strings = [value for key in ("cmd", "shell") if isinstance(value := task.get(key), TomlString)]
    for string in strings:
        named = recognise.RUNS_LAUNCHER.search(string.value)
        if named is None:
            continue
        included.read.add(id(string))
        message = (
            f"speclint did not read this task: poe runs the task `{name}` of {os.path.basename(project)} "
            "or of a file included before this one (the first task of a name), never this one, so "
            "nothing in it was checked"
        )
        span = span_of(included.starts, string.begin, string.end)
        included.result.diagnostics.append(Diagnostic("launcher-not-read", message, span))


def scripts_not_read(reader: _Reader, poe: TomlTable) -> None:
    """`include_script` (a string, or tables with `script`): poe imports and calls a Python
    function whose return value is more tasks (`PoeConfig._load_include_script`), which
    speclint never does; said at each, as any launch among those tasks is not checked."""
    from speclint.core.launches import Diagnostic
    from speclint.frontends.shell.pieces import span_of

    scripts = poe.get("include_script")
    for item in scripts if isinstance(scripts, list) else [scripts]:
        where = item.get("script") if isinstance(item, TomlTable) else item
        if not isinstance(where, TomlString):
            continue
        span = span_of(reader.starts, where.begin, where.end)
        what = f"the tasks poe makes by calling `{where.value}` (`include_script`, line {span.line})"
        for kind, message in (
            ("launch-unread", what),
            (
                "launcher-not-read",
                f"speclint did not read {what}: poe imports and calls it in Python, which speclint never "
                "does, so no launch among them was checked",
            ),
        ):
            reader.result.diagnostics.append(Diagnostic(kind, message, span))
