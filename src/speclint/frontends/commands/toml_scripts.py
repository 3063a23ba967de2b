"""More TOML task runners, read with `toml_tasks`'s reader (every word where the file writes it):
PDM scripts and Hatch scripts (`pyproject.toml`, `hatch.toml`) and mise tasks (`mise.toml`).

- PDM (`[tool.pdm.scripts]`, its "PDM Scripts" documentation): a string, or a table's `cmd`
  string, is a command line PDM splits into words (read as a poe `cmd` is: shell words, line
  breaks between words); a table's `cmd` list is the argv; `shell` is a script run by the
  shell; `env` (over `[tool.pdm.scripts._]`'s) is its environment; `call` (Python) and
  `composite` are not read.
- Hatch (`[tool.hatch.envs.NAME.scripts]`, `[envs.NAME.scripts]` of `hatch.toml`): a string
  or a list of strings, each a command the environment's shell runs, with the environment's
  `env-vars`; Hatch's context fields (`{args}`, `{env:X}`, `{root}`) are filled in when the
  script runs: unknown values.
- mise (`[tasks.NAME]` with `run`, a string or a list run one after another, or the short
  `[tasks]` `NAME = "..."`): run by a shell, with the file's `[env]` and the task's `env`;
  its `{{ ... }}` templates are filled in when mise runs the task: unknown values.
"""

from __future__ import annotations

import re

from speclint.frontends.commands.text import Char, argv_item, walk_shell
from speclint.frontends.commands.toml_text import TomlString, TomlTable
from speclint.frontends.shell.embedded import ShellBuffer

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol

    from speclint.core.launches import ExtractResult
    from speclint.core.words import Word
    from speclint.frontends.shell.embedded import Budget

    class _Reader(Protocol):
        """`toml_tasks._Reader`, as this module uses it (no import: it imports this module)."""

        result: ExtractResult
        path: str
        text: str
        starts: list[int]
        budget: Budget
        read: set[int]

        def env(self, node: object, runner: str) -> dict[str, Word]: ...

        def command(
            self,
            string: TomlString,
            env: dict[str, Word],
            templates: bool,
            lines: bool = True,
            unknown: str | None = None,
            runner: str = "pixi",
        ) -> None: ...


_HATCH_FIELD = re.compile(r"\{[^{}]*\}")


def read_scripts(reader: _Reader, kind: str, root: TomlTable) -> None:
    """The PDM, Hatch or mise commands of a `pyproject`, `hatch` or `mise` file."""
    if kind == "pyproject":
        pdm = root.table("tool", "pdm", "scripts")
        if pdm is not None:
            _pdm(reader, pdm)
    hatch = root.table("tool", "hatch", "envs") if kind == "pyproject" else root.table("envs")
    if hatch is not None and kind in ("pyproject", "hatch"):
        _hatch(reader, hatch)
    if kind == "mise":
        _mise(reader, root)


def _pdm(reader: _Reader, scripts: TomlTable) -> None:
    shared = scripts.get("_")
    outer = reader.env(shared.get("env"), "PDM") if isinstance(shared, TomlTable) else {}
    for name, script in scripts.items():
        if name == "_":
            continue
        if isinstance(script, TomlString):
            reader.command(script, outer, templates=False, lines=False)
        elif isinstance(script, TomlTable):
            env = {**outer, **reader.env(script.get("env"), "PDM")}
            cmd, shell = script.get("cmd"), script.get("shell")
            if isinstance(cmd, TomlString):
                reader.command(cmd, env, templates=False, lines=False)
            elif isinstance(cmd, list):
                _argv(reader, cmd, env)
            if isinstance(shell, TomlString):
                reader.command(shell, env, templates=False)


def _hatch(reader: _Reader, envs: TomlTable) -> None:
    for environment in envs.values():
        if not isinstance(environment, TomlTable):
            continue
        env = reader.env(environment.get("env-vars"), "Hatch")
        for script in (environment.table("scripts") or {}).values():
            for line in script if isinstance(script, list) else [script]:
                if isinstance(line, TomlString):
                    _command(reader, line, env, _hatch_fields(line.chars))


def _mise(reader: _Reader, root: TomlTable) -> None:
    outer = reader.env(root.get("env"), "mise")
    for task in (root.table("tasks") or {}).values():
        env = outer
        if isinstance(task, TomlTable):
            env = {**outer, **reader.env(task.get("env"), "mise")}
            task = task.get("run")
        for line in task if isinstance(task, list) else [task]:
            if isinstance(line, TomlString):
                reader.command(line, env, templates=True, runner="mise")


def _command(reader: _Reader, string: TomlString, env: dict[str, Word], chars: list[Char]) -> None:
    """`string` read as shell code from `chars` (its characters, some made unknown)."""
    if "sglang" not in string.value:
        return
    reader.read.add(id(string))
    from speclint.frontends.commands.text import shell_line

    buffer = shell_line(reader.text, reader.starts, reader.budget, chars)
    walk_shell(reader.result, reader.path, buffer, env)


def _argv(reader: _Reader, items: list[object], env: dict[str, Word]) -> None:
    strings = [item for item in items if isinstance(item, TomlString)]
    if len(strings) != len(items) or "sglang" not in "".join(s.value for s in strings):
        return
    buffer = ShellBuffer(reader.text, reader.starts, reader.budget)
    for item in strings:
        reader.read.add(id(item))
        buffer.add_word(argv_item(item.chars))
    walk_shell(reader.result, reader.path, buffer, env)


def _hatch_fields(chars: list[Char]) -> list[Char]:
    """`chars` with each Hatch context field (`{args}`, `{env:X:default}`) one unknown run."""
    value = "".join(c[0] or "\0" for c in chars)
    out: list[Char] = []
    at = 0
    for match in _HATCH_FIELD.finditer(value):
        out.extend(chars[at : match.start()])
        why = f"`{match.group()}` is a Hatch context field, filled in when the script runs"
        out.append((None, chars[match.start()][1], chars[match.end() - 1][2], why))
        at = match.end()
    out.extend(chars[at:])
    return out
