"""Task runners configured in TOML: pixi (`pixi.toml`, `[tool.pixi]` of pyproject.toml) and
poethepoet (`[tool.poe]` of pyproject.toml). Every word points where the file writes it.

pixi (its "Tasks" documentation, "Advanced tasks"): `[tasks]`, `[target.PLATFORM.tasks]`,
`[feature.NAME.tasks]` (and a feature's targets) map a name to a command string, or to a
table whose `cmd` is a string or a list of strings; the string is run by pixi's shell
(deno_task_shell, a bash-like shell); a list is joined with spaces, an item holding a blank
or `[`/`]` put in double quotes (pixi's `quote`). Commands are minijinja templates:
`{{ name }}` (a task argument, `args`) is given when pixi runs: unknown. `env = {...}` is
added to the environment (`[activation.env]` to every task's); a value that names another
variable (`$X`) is worked out when pixi runs. `depends-on` names other tasks, run first.

poethepoet ("Tasks" in its documentation; `poe_tasks.toml`: the same settings at the top):
`[tool.poe.tasks]` maps a name to a string (a
`cmd` task) or a table with `cmd` (a command line that poe splits into words as a POSIX
shell would, with `$VAR` substituted, its line breaks between words, no pipes or `&&`:
read as shell code) or `shell` (a
script run by a shell; one whose `interpreter` is not a POSIX shell is not read), and `env`
(`[tool.poe.env]`: every task's), after `envfile` (a `.env` file beside the config, read from
disk: `env_files`); a `sequence` runs its items, an inline table item a task of its own, a
string item the task it names (`ref`, or the `default_item_type`), with the sequence's
environment (poe's `SequenceTask`, `RefTask`); a `script`/`expr` task runs Python: said not
read. A `{ default = "..." }` env value applies only where the environment does not set the
variable: unknown.

Words given after the task's name (`pixi run serve --port 1`, `poe serve --port 1`) are
added to the command when it runs: the command is checked as the file writes it. Any other
string in the file that names SGLang's launcher (a poe `expr`, a PDM `call`) is not read:
said so, never passed over.
"""

from __future__ import annotations

import re

from speclint.core.launches import Diagnostic, ExtractResult
from speclint.core.words import Word
from speclint.frontends import recognise
from speclint.frontends.commands.env_files import read_env_file
from speclint.frontends.commands.poe_include import PoeEnv as _PoeEnv
from speclint.frontends.commands.text import (
    Char,
    argv_item,
    pieces_of,
    shell_line,
    unique_comments,
    walk_shell,
)
from speclint.frontends.commands.toml_text import TomlDocument, TomlString, TomlTable, read_toml
from speclint.frontends.shell.embedded import Budget, ShellBuffer
from speclint.frontends.shell.pieces import line_starts, span_of

_TEMPLATE = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)
_PIXI_QUOTED = re.compile(r"[\t\r\n \[\]]")
_SHELLS = frozenset({"posix", "sh", "bash", "zsh", "dash", "ksh"})


class _Reader:
    def __init__(self, result: ExtractResult, path: str, text: str) -> None:
        self.result, self.path, self.text = result, path, text
        self.starts = line_starts(text)
        self.budget = Budget()
        self.read: set[int] = set()
        """The strings read as commands (`id`)."""
        self.poe_tasks = TomlTable()
        self.poe_global = _PoeEnv({}, None)
        """poe's tasks, and the environment each runs with on its own."""
        self.owners: dict[int, _Reader] = {}
        """The reader of the file a task is written in, for a task of an included file."""
        self.file: str | None = None
        """Set for the reader of a file poe includes (`poe_include`): its path."""
        self.envfile_base = path
        """Where an `envfile` name is looked up from (beside this file)."""
        self.document: TomlDocument | None = None

    # ---- pixi ----------------------------------------------------------------------------

    def pixi(self, root: TomlTable) -> None:
        activation = self.env(root.table("activation", "env"), "pixi")
        tables = [root.table("tasks")]
        for target in (root.table("target") or {}).values():
            tables.append(target.table("tasks") if isinstance(target, TomlTable) else None)
        for feature in (root.table("feature") or {}).values():
            if isinstance(feature, TomlTable):
                tables.append(feature.table("tasks"))
                for target in (feature.table("target") or {}).values():
                    tables.append(target.table("tasks") if isinstance(target, TomlTable) else None)
        for tasks in tables:
            for task in (tasks or {}).values():
                if isinstance(task, TomlString):
                    self.command(task, activation, templates=True)
                elif isinstance(task, TomlTable):
                    env = {**activation, **self.env(task.get("env"), "pixi")}
                    cmd = task.get("cmd")
                    if isinstance(cmd, TomlString):
                        self.command(cmd, env, templates=True)
                    elif isinstance(cmd, list):
                        self.pixi_list(cmd, env)

    def pixi_list(self, items: list[object], env: dict[str, Word]) -> None:
        """`cmd = [...]`: the items joined with spaces, one holding a blank quoted by pixi."""
        strings = [item for item in items if isinstance(item, TomlString)]
        if len(strings) != len(items) or "sglang" not in "".join(s.value for s in strings):
            return
        buffer = ShellBuffer(self.text, self.starts, self.budget)
        for item in strings:
            self.read.add(id(item))
            chars = _templates(item.chars, "pixi")
            if not item.value or _PIXI_QUOTED.search(item.value):
                if "$" in item.value:
                    reason = "pixi puts this item in double quotes, where `$` names a variable"
                    chars = [(None, item.begin, item.end, reason)]
                buffer.add_word(argv_item(chars))
            else:
                buffer.add_space()
                buffer.add_code(pieces_of(chars))
        walk_shell(self.result, self.path, buffer, env)

    # ---- poe -----------------------------------------------------------------------------

    def poe(self, poe: TomlTable) -> None:
        """Its tasks, those of its `groups` too (`[tool.poe.groups.NAME.tasks]`, poe's
        `ConfigPartition.collect_tasks`: a group adds a heading and an executor, no
        environment), and those of the files it includes (`poe_include`)."""
        from speclint.frontends.commands import poe_include

        tasks = _poe_tasks(poe)
        included = poe_include.included_readers(self, poe, _Reader) if self.file is None else []
        outer = _PoeEnv({}, None)
        for reader, table, _ in included:  # every task gets the included files' env first
            outer = poe_include.marked(reader.poe_env(table, outer), reader.path)
        self.poe_global = self.poe_env(poe, outer)
        for reader, table, _ in included:
            for name, task in _poe_tasks(table).items():
                if name not in tasks:  # (the first file's task of a name is the one run)
                    tasks[name] = task
                    self.owners[id(task)] = reader
                else:
                    poe_include.shadowed(reader, name, task, self.path)
        self.poe_tasks = TomlTable(tasks)
        for reader, _, _ in included:
            reader.poe_tasks, reader.owners, reader.poe_global = self.poe_tasks, self.owners, self.poe_global
        for task in self.poe_tasks.values():
            self.poe_task(task, self.poe_global, 0)
        read = {id(where) for _, _, where in included}
        for where, _ in poe_include.include_items(poe):
            if id(where) not in read:
                poe_include.said_not_read(self, where)
        for reader, _, _ in included:
            poe_include.merge_included(self, reader)
        if self.file is None:
            poe_include.scripts_not_read(self, poe)

    def poe_env(self, table: TomlTable, outer: _PoeEnv) -> _PoeEnv:
        """`envfile` (each file read from disk beside the config, in order), then `env`:
        added to `outer` (poe's `EnvVarsManager.apply_env_config`)."""
        env, unknown = dict(outer.env), outer.unknown
        files = table.get("envfile")
        for item in files if isinstance(files, list) else [files]:
            if not isinstance(item, TomlString):
                continue
            span = span_of(self.starts, item.begin, item.end)
            loaded = None if "$" in item.value else read_env_file(self.envfile_base, item.value)
            if loaded is None or loaded.missing is not None:
                state = "whose name poe works out when it runs" if loaded is None else loaded.missing
                why = f"poe loads the envfile `{item.value}` (line {span.line}), {state}, which may set it"
                env = {
                    name: Word(None, word.span, word.span, dynamic_reason=f"`{name}` may be set again: {why}")
                    for name, word in env.items()
                }
                unknown = "${name} is not assigned in this file; " + why
                continue
            for name, value in loaded.values.items():
                env[name] = Word(value, span, span, dynamic_reason=loaded.reasons.get(name))
        env.update(self.env(table.get("env"), "poe"))
        return _PoeEnv(env, unknown)

    def poe_task(self, task: object, outer: _PoeEnv, depth: int, items: str = "ref") -> None:
        """A task (a string: a `cmd` task; a list: a `sequence` whose string items are
        `items` tasks; a table: by its key) run with `outer`'s environment."""
        if depth > 20:
            return
        owner = self.owners.get(id(task), self)
        if owner is not self:  # a task of another file: read there, this file's env marked so
            from speclint.frontends.commands.poe_include import marked

            owner.poe_task(task, marked(outer, self.file or self.path), depth, items)
            return
        if isinstance(task, TomlString):
            self.command(task, outer.env, templates=False, lines=False, unknown=outer.unknown)
        elif isinstance(task, list):  # a sequence: its inline tables are tasks
            for item in task:
                if isinstance(item, TomlTable):
                    self.poe_task(item, outer, depth + 1)
                elif isinstance(item, TomlString) and items == "ref":
                    self.poe_ref(item, outer, depth)
                elif isinstance(item, TomlString) and items in ("cmd", "shell"):
                    self.poe_task(TomlTable({items: item}), outer, depth + 1)
        elif isinstance(task, TomlTable):
            env = self.poe_env(task, outer)
            cmd, shell, ref = task.get("cmd"), task.get("shell"), task.get("ref")
            if isinstance(cmd, TomlString):
                self.command(cmd, env.env, templates=False, lines=False, unknown=env.unknown)
            if isinstance(shell, TomlString) and _posix(task.get("interpreter")):
                self.command(shell, env.env, templates=False, unknown=env.unknown)
            if isinstance(ref, TomlString):
                self.poe_ref(ref, env, depth)
            kind = task.get("default_item_type")
            items = kind.value if isinstance(kind, TomlString) else "ref"
            self.poe_task(task.get("sequence"), env, depth + 1, items)
            self.poe_task(task.get("parallel"), env, depth + 1, items)  # poe's `ParallelTask`
            cases = task.get("switch")  # poe's `SwitchTask`: one case runs, each read as its task
            control = task.get("control")
            self.poe_task(
                TomlTable({"cmd": control}) if isinstance(control, TomlString) else control, env, depth + 1
            )
            for case in cases if isinstance(cases, list) else []:
                if isinstance(case, TomlTable):
                    self.poe_task(case, env, depth + 1)
            for key in ("script", "expr"):
                self.poe_python(key, task.get(key))

    def poe_ref(self, ref: TomlString, outer: _PoeEnv, depth: int) -> None:
        """A `ref` task (or a sequence's string item): the task it names (its first word; the
        words after it are its arguments) run again with `outer`'s environment, read again
        only where that environment is not the one it has on its own."""
        name = ref.value.split()[0] if ref.value.split() else ""
        target = self.poe_tasks.get(name)
        if target is not None and outer != self.poe_global:
            self.poe_task(target, outer, depth + 1)

    def poe_python(self, key: str, node: object) -> None:
        """A `script` (`module:function(...)`) or `expr` (a Python expression) task naming
        SGLang's launcher: poe runs it in Python, which speclint never does; said so."""
        if not isinstance(node, TomlString) or id(node) in self.read:
            return
        named = recognise.MENTIONS[0].search(node.value)
        if named is None:
            return
        self.read.add(id(node))
        span = span_of(self.starts, node.begin, node.end)
        how = "imports and calls" if key == "script" else "evaluates"
        what = (
            f"the poe `{key}` task at line {span.line}, which names `{named.group()}`: poe {how} it in Python, "
            "which speclint never does"
        )
        for kind, message in (
            ("launch-unread", what),
            ("launcher-not-read", f"speclint did not read this launch: {what}, so nothing in it was checked"),
        ):
            found = Diagnostic(kind, message, span)
            if found not in self.result.diagnostics:
                self.result.diagnostics.append(found)

    # ---- shared --------------------------------------------------------------------------

    def command(
        self,
        string: TomlString,
        env: dict[str, Word],
        templates: bool,
        lines: bool = True,
        unknown: str | None = None,
        runner: str = "pixi",
    ) -> None:
        """A command string read as shell code, each character at its place (`lines` False:
        a poe `cmd`, whose line breaks separate words, not commands; `unknown`: why a
        variable not set is unknown, when an envfile speclint could not read may set it)."""
        if "sglang" not in string.value:
            return
        self.read.add(id(string))
        chars = _templates(string.chars, runner) if templates else string.chars
        if not lines and "#" not in string.value:
            chars = [(" ", c[1], c[2], None) if c[0] == "\n" else c for c in chars]
        if chars:
            buffer = shell_line(self.text, self.starts, self.budget, chars)
            walk_shell(self.result, self.path, buffer, env, unknown=unknown)

    def env(self, node: object, runner: str) -> dict[str, Word]:
        """An `env` table: each string value a variable's value (one naming a variable, or a
        poe `{ default = ... }`, unknown)."""
        env: dict[str, Word] = {}
        if not isinstance(node, TomlTable):
            return env
        for name, value in node.items():
            if isinstance(value, TomlTable) and isinstance(value.get("default"), TomlString):
                default = value.get("default")
                assert isinstance(default, TomlString)
                span = span_of(self.starts, default.begin, default.end)
                why = f"`{name}` is this default only where the environment {runner} runs in does not set it"
                env[name] = Word(None, span, span, dynamic_reason=why)
            elif isinstance(value, TomlString):
                span = span_of(self.starts, value.begin, value.end)
                if "$" in value.value or "{{" in value.value:
                    why = f"`{value.value}` names a variable, worked out when {runner} runs the task"
                    env[name] = Word(None, span, span, dynamic_reason=why)
                else:
                    env[name] = Word(value.value, span, span)
        return env

    def unread(self, document: TomlDocument) -> None:
        """A `launcher-not-read` note for each string naming the launcher that was not read."""
        for string in document.strings:
            if id(string) in self.read or "sglang" not in string.value:
                continue
            named = recognise.RUNS_LAUNCHER.search(string.value)
            if named is not None:
                message = (
                    f"speclint did not read this string, which runs `{named.group(1) or named.group(2)}`: only pixi "
                    "tasks, poe `cmd`/`shell` tasks, PDM and Hatch scripts and mise tasks are read in a TOML "
                    "file, so nothing in it was checked"
                )
                span = span_of(self.starts, string.begin, string.end)
                self.result.diagnostics.append(Diagnostic("launcher-not-read", message, span))


def _poe_tasks(poe: TomlTable) -> dict[str, object]:
    """A poe config's tasks, those of its `groups` too."""
    tasks = dict(poe.table("tasks") or TomlTable())
    for group in (poe.table("groups") or {}).values():
        if isinstance(group, TomlTable):
            tasks.update(group.table("tasks") or {})
    return tasks


def _templates(chars: list[Char], runner: str) -> list[Char]:
    """`chars` with each minijinja `{{ ... }}` / `{% ... %}` one unknown run."""
    value = "".join(c[0] or "\0" for c in chars)
    if "{{" not in value and "{%" not in value:
        return chars
    out: list[Char] = []
    at = 0
    for match in _TEMPLATE.finditer(value):
        out.extend(chars[at : match.start()])
        why = f"`{match.group()}` is filled in when {runner} runs the task" + (
            " (a task argument)" if runner == "pixi" else ""
        )
        out.append((None, chars[match.start()][1], chars[match.end() - 1][2], why))
        at = match.end()
    out.extend(chars[at:])
    return out


def _posix(interpreter: object) -> bool:
    """Whether poe's `interpreter` (default `posix`) is a POSIX shell."""
    if interpreter is None:
        return True
    first = interpreter[0] if isinstance(interpreter, list) and interpreter else interpreter
    return isinstance(first, TomlString) and first.value in _SHELLS


def extract_toml_tasks(kind: str, text: str, path: str) -> ExtractResult:
    """The launches of the tasks of a `pixi.toml` (`kind` 'pixi'), a pyproject.toml's
    `[tool.pixi]`, `[tool.poe]`, `[tool.pdm]` and `[tool.hatch]` tables (`kind` 'pyproject'), a
    `poe_tasks.toml` (`kind` 'poe'), a `hatch.toml` ('hatch') or a `mise.toml` ('mise')."""
    result = ExtractResult()
    document = read_toml(text)
    if isinstance(document, tuple):
        from speclint.core.spans import Span

        message, line, column = document
        result.diagnostics.append(
            Diagnostic(
                "syntax-error",
                f"not TOML ({message}): nothing in this file was read",
                Span.point(line, column),
            )
        )
        return result
    reader = _Reader(result, path, text)
    result.comments = [(span_of(reader.starts, b, e), text[b:e]) for b, e in document.comments]
    root = document.root
    pixi = root if kind == "pixi" else root.table("tool", "pixi")
    if pixi is not None:
        reader.pixi(pixi)
    poe = root.table("tool", "poe") if kind != "pixi" else None
    if kind == "poe" and poe is None:
        poe = root  # poe_tasks.toml: poe's settings at the top (poe's `PoeConfigFile.load`)
    if poe is not None:
        reader.poe(poe)
    if kind in ("pyproject", "hatch", "mise"):
        from speclint.frontends.commands.toml_scripts import read_scripts

        read_scripts(reader, kind, root)
    reader.unread(document)
    unique_comments(result)
    return result
