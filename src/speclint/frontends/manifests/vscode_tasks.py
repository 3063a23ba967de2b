"""VS Code tasks that start SGLang (`.vscode/tasks.json`, JSON with comments, read as
`launch.json` is: `vscode_launch`'s parser, every word at its place in the file).

A task of `"tasks": [...]` with `"type": "process"` runs `command` with `args` as its argv (no
shell). One with `"type": "shell"` runs a command line in the shell, built as VS Code's task
system builds it (`terminalTaskSystem.ts`, `buildShellCommandLine`): without `args`, the
`command` string as written; with `args`, the command and each argument joined with spaces,
a string holding a space outside quotes (and not wholly quoted) strong-quoted (`'...'` in
bash: one word), any other as written (shell code); an argument written as `{"value": ...,
"quoting": ...}` is quoted as it says (one word; a value the shell would still expand inside
the quotes is unknown). `options.env` (the file's own `options`, then the task's) is added
to the environment; a `linux` section's `command`, `args`, `options` and `type` replace the
task's (the launch is read as it runs on Linux). A shell task whose `options.shell.executable`
is not a POSIX shell (`pwsh`, `cmd.exe`) is not read. VS Code's `${...}` variables are unknown.
Any other string that runs the launcher (a task of another type, a `windows` command) is said
not read.
"""

from __future__ import annotations

import re

from speclint.core.launches import Diagnostic, ExtractResult
from speclint.frontends import recognise
from speclint.frontends.manifests.vscode_launch import _env, _Object, _Parser, _pieces, _Scalar, _String
from speclint.frontends.shell.embedded import ArgvItem, ShellBuffer
from speclint.frontends.shell.pieces import Piece, line_starts, span_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.words import Word

_EXPANDS = re.compile(r"[$`\\!]")
"""What bash still expands inside double quotes (weak quoting)."""


def _needs_quotes(value: str) -> bool:
    """VS Code's `needsQuotes` for bash: a space outside quotes, unless the value is wholly
    quoted."""
    if len(value) >= 2 and value[0] in "'\"" and value[0] == value[-1]:
        return False
    quote = ""
    for char in value:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == " ":
            return True
    return False


def _posix_shell(options: object) -> bool:
    """Whether a shell task's `options.shell.executable` (default: the terminal's, bash on
    Linux) is a POSIX shell."""
    shell = options.get("shell") if isinstance(options, _Object) else None
    executable = shell.get("executable") if isinstance(shell, _Object) else None
    if executable is None:
        return True
    name = re.split(r"[\\/]", executable.value)[-1] if isinstance(executable, _String) else ""
    return name in ("bash", "sh", "zsh", "dash", "ksh")


class _Reader:
    def __init__(self, text: str, path: str, result: ExtractResult) -> None:
        self.text, self.path, self.result = text, path, result
        self.starts = line_starts(text)
        self.read: set[int] = set()

    def task(self, task: _Object, base_env: dict[str, Word]) -> None:
        linux = task.get("linux")
        override = linux if isinstance(linux, _Object) else _Object()

        def field(key: str) -> object:
            return override.get(key) if override.get(key) is not None else task.get(key)

        kind, command, args, options = field("type"), field("command"), field("args"), field("options")
        if not isinstance(kind, _String) or kind.value not in ("shell", "process"):
            return
        if not isinstance(command, _String) or not isinstance(args, list | None):
            return
        if kind.value == "shell" and not _posix_shell(options):
            return  # (a task run by PowerShell or cmd.exe: said not read)
        items = args or []
        written = command.value + " ".join(item.value for item in items if isinstance(item, _String))
        if "sglang" not in written:
            return
        env = {
            **base_env,
            **_env(self.text, self.starts, options.get("env") if isinstance(options, _Object) else None),
        }
        buffer = ShellBuffer(self.text, self.starts)
        self.read.add(id(command))
        if kind.value == "process":
            buffer.add_word(ArgvItem(_pieces(self.text, command)))
            for item in items:
                pieces = self.object_word(item)
                if pieces is None:
                    assert isinstance(item, _String)
                    self.read.add(id(item))
                    pieces = _pieces(self.text, item)
                buffer.add_word(ArgvItem(pieces))
        elif not items:
            buffer.add_code(_pieces(self.text, command))
        else:
            self.shell_word(buffer, command)
            for item in items:
                self.shell_word(buffer, item)
        buffer.walk(self.path, self.result, env)

    def shell_word(self, buffer: ShellBuffer, item: object) -> None:
        """One word of a shell task's command line, as VS Code quotes it."""
        quoted = self.object_word(item)
        if quoted is not None:
            buffer.add_word(ArgvItem(quoted))
            return
        assert isinstance(item, _String)
        self.read.add(id(item))
        pieces = _pieces(self.text, item)
        if _needs_quotes(item.value) and "'" not in item.value:
            buffer.add_word(ArgvItem(pieces))  # strong-quoted: one word, as written
        elif _needs_quotes(item.value):
            reason = "VS Code puts this argument in single quotes, which its own `'` ends"
            buffer.add_word(ArgvItem([Piece(None, item.begin, item.end, reason=reason)]))
        else:
            buffer.add_space()
            buffer.add_code(pieces)

    def object_word(self, item: object) -> list[Piece] | None:
        """The pieces of an argument that is not a plain string (None for a string): a
        `{"value", "quoting"}` object's value as one word, anything else unknown."""
        if isinstance(item, _String) and not isinstance(item, _Scalar):
            return None
        if isinstance(item, _Object) and isinstance(item.get("value"), _String):
            value = item.get("value")
            assert isinstance(value, _String)
            self.read.add(id(value))
            quoting = item.get("quoting")
            strong = isinstance(quoting, _String) and quoting.value == "strong"
            if (strong and "'" not in value.value) or not _EXPANDS.search(value.value):
                return _pieces(self.text, value)
            reason = "an argument the shell still expands inside the quotes VS Code puts around it"
            return [Piece(None, value.begin, value.end, reason=reason)]
        begin, end = (item.begin, item.end) if isinstance(item, _String) else (0, 0)
        return [Piece(None, begin, end, reason="an `args` item that is not a string")]

    def unread(self, node: object, depth: int = 0) -> None:
        """A `launcher-not-read` note for each string that runs the launcher, not read."""
        if depth > 100:
            return
        if isinstance(node, _Object):
            for _, value in node:
                self.unread(value, depth + 1)
        elif isinstance(node, list):
            for item in node:
                self.unread(item, depth + 1)
        elif isinstance(node, _String) and id(node) not in self.read and "sglang" in node.value:
            named = recognise.RUNS_LAUNCHER.search(node.value)
            if named is not None:
                message = (
                    f"speclint did not read this string, which runs `{named.group(1) or named.group(2)}`: "
                    "only the `command` and `args` of `shell` and `process` tasks (as they run on Linux) are read, so nothing "
                    "in it was checked"
                )
                span = span_of(self.starts, node.begin, node.end)
                self.result.diagnostics.append(Diagnostic("launcher-not-read", message, span))


def extract_vscode_tasks(text: str, path: str) -> ExtractResult:
    """The launches of the `shell` and `process` tasks of a VS Code tasks file."""
    result = ExtractResult()
    try:
        root = _Parser(text).value()
    except (ValueError, RecursionError):
        return result  # not JSONC: a file naming the launcher is then reported (no launch found)
    read_tasks(text, path, root, result)
    return result


def read_tasks(text: str, path: str, root: object, result: ExtractResult) -> None:
    """The launches of the tasks of `root` (a tasks file's object, or a workspace file's
    `tasks` section) into `result`."""
    reader = _Reader(text, path, result)
    if isinstance(root, _Object):
        options = root.get("options")
        base = _env(text, reader.starts, options.get("env") if isinstance(options, _Object) else None)
        tasks = root.get("tasks")
        for task in tasks if isinstance(tasks, list) else []:
            if isinstance(task, _Object):
                reader.task(task, base)
    reader.unread(root)
