"""JSON files that hold a container's commands, read with `vscode_launch`'s JSONC parser, every
word at its place in the file.

- Dev Container configurations (`devcontainer.json`, `.devcontainer.json`): the lifecycle
  commands the container runs, `onCreateCommand`, `updateContentCommand`, `postCreateCommand`,
  `postStartCommand`, `postAttachCommand` (the devcontainer.json reference: a string is run by
  `/bin/sh`, an array is the argv with no shell, an object's values are run in parallel, each
  read so), with `containerEnv` and `remoteEnv` as their environment and the `image` picking
  the SGLang release; `initializeCommand` runs on the host, read without the image. The
  `${localEnv:X}`-style variables are unknown values.
- Amazon ECS task definitions (a JSON file with `containerDefinitions`): each container runs
  its `entryPoint` then its `command` (lists, as Docker's ENTRYPOINT and CMD; without
  `entryPoint` the command is read as the whole argv, as a `docker run` command is), with
  `environment` (`[{"name": ..., "value": ...}]`) and its `image`.
- Any other JSON file naming sglang (`json-commands`: a RunPod template's `dockerArgs`, a
  Vast.ai template's `onstart`, a `package.json` script): each string value naming sglang is
  read as a command a shell runs, each list of strings naming it as an argv, in the
  container of a sibling `image` / `imageName` key when there is one. The keys that run them
  are the tool's own; which string runs is not known, so each is read as written.
"""

from __future__ import annotations

from speclint.core.launches import ExtractResult
from speclint.core.words import Word
from speclint.frontends.manifests.vscode_launch import (
    _env,
    _literal,
    _Object,
    _Parser,
    _pieces,
    _Scalar,
    _String,
)
from speclint.frontends.shell.embedded import ArgvItem, ShellBuffer
from speclint.frontends.shell.pieces import Piece, line_starts, span_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from speclint.core.spans import Span

    PiecesOf = Callable[[str, _String], list[Piece]]
    Image = tuple[str | None, Span | None] | None

_LIFECYCLE = (
    "onCreateCommand",
    "updateContentCommand",
    "postCreateCommand",
    "postStartCommand",
    "postAttachCommand",
)


def extract_json_containers(text: str, path: str, kind: str) -> ExtractResult:
    """The launches of a `devcontainer` or `ecs-task` JSON file."""
    result = ExtractResult()
    try:
        root = _Parser(text).value()
    except (ValueError, RecursionError):
        return result  # not JSON(C): a file naming the launcher is then reported (no launch found)
    if not isinstance(root, _Object):
        return result
    reader = _Reader(text, path, result)
    if kind == "devcontainer":
        reader.devcontainer(root)
    elif kind == "json-commands":
        reader.commands(root, 0)
    else:  # (`aws ecs describe-task-definition` prints it under `taskDefinition`)
        wrapped = root.get("taskDefinition")
        if root.get("containerDefinitions") is None and isinstance(wrapped, _Object):
            root = wrapped
        definitions = root.get("containerDefinitions")
        for container in definitions if isinstance(definitions, list) else []:
            if isinstance(container, _Object):
                reader.ecs_container(container)
    return result


class _Reader:
    def __init__(self, text: str, path: str, result: ExtractResult) -> None:
        self.text, self.path, self.result = text, path, result
        self.starts = line_starts(text)

    def image(self, node: object) -> Image:
        if not isinstance(node, _String):
            return None
        return node.value, span_of(self.starts, node.begin + 1, node.end - 1)

    def devcontainer(self, root: _Object) -> None:
        env = {
            **_env(self.text, self.starts, root.get("containerEnv")),
            **_env(self.text, self.starts, root.get("remoteEnv")),
        }
        image = self.image(root.get("image"))
        for key in ("initializeCommand", *_LIFECYCLE):
            command = root.get(key)
            commands = [value for _, value in command] if isinstance(command, _Object) else [command]
            for one in commands:
                if key == "initializeCommand":  # on the host: not in the container
                    self.run(one, {}, None, _pieces)
                else:
                    self.run(one, env, image, _pieces)

    def ecs_container(self, container: _Object) -> None:
        env: dict[str, Word] = {}
        environment = container.get("environment")
        for item in environment if isinstance(environment, list) else []:
            name = item.get("name") if isinstance(item, _Object) else None
            value = item.get("value") if isinstance(item, _Object) else None
            if isinstance(name, _String) and isinstance(value, _String):
                span = span_of(self.starts, value.begin, value.end)
                env[name.value] = Word(value.value, span, span)
        argv: list[object] = []
        for key in ("entryPoint", "command"):
            listed = container.get(key)
            if isinstance(listed, list):
                argv += listed
        if argv:
            self.run(argv, env, self.image(container.get("image")), _plain)

    def commands(self, node: object, depth: int) -> None:
        """Every string (or list of strings) naming sglang below `node`, read as a command."""
        if depth > 32:
            return
        values = [value for _, value in node] if isinstance(node, _Object) else node
        if not isinstance(values, list):
            return
        image = None
        if isinstance(node, _Object):
            image = self.image(node.get("image")) or self.image(node.get("imageName"))
        for value in values:
            if isinstance(value, _String) and not isinstance(value, _Scalar):
                self.run(value, {}, image, _plain)
            elif isinstance(value, list) and value and all(_is_text(item) for item in value):
                self.run(value, {}, image, _plain)
            else:
                self.commands(value, depth + 1)

    def run(self, command: object, env: dict[str, Word], image: Image, pieces_of: PiecesOf) -> None:
        """A string run by a shell, or an argv list."""
        buffer = ShellBuffer(self.text, self.starts)
        if isinstance(command, _String):
            if "sglang" not in command.value:
                return
            buffer.add_code(pieces_of(self.text, command))
        elif isinstance(command, list) and command:
            if not any(isinstance(item, _String) and "sglang" in item.value for item in command):
                return
            for item in command:
                if isinstance(item, _String):
                    buffer.add_word(ArgvItem(pieces_of(self.text, item)))
                else:
                    buffer.add_word(ArgvItem([Piece(None, 0, 0, reason="an item that is not a string")]))
        else:
            return
        count = len(self.result.launches)
        buffer.walk(self.path, self.result, env, image)
        for launch in self.result.launches[count:]:
            for name, word in env.items():
                launch.env.setdefault(name, word)


def _plain(text: str, token: _String) -> list[Piece]:
    """A string's characters (no variables: ECS passes `${X}` as written)."""
    return _literal(text, token.begin + 1, token.end - 1) or [Piece("", token.begin, token.end)]


def _is_text(item: object) -> bool:
    return isinstance(item, _String) and not isinstance(item, _Scalar)
