"""The ServingRuntime an InferenceService's model names (`runtime: sglang-runtime`) when it is
written in another YAML file of the same folder (`runtime.yaml` beside `isvc.yaml`): the
model's `args:` then follow its container's, as KServe's MergeRuntimeContainers merges them
(`kserve_models`), each runtime word placed at the model's `runtime:` name and noted where it is
written in the other file.

The files are read from disk, whether or not they are linted in the same run: a file's result
depends only on what it reads, each file and the folder's listing noted as an input of the
result (`runner.depends`), so the result cache re-checks them. A name that two files of the
folder define, or one in no file there, is not settled by the folder: the model's `args:` stay
unread (SLM005), as before. A model that names only its `modelFormat`, which no runtime of its
own file supports, runs in the one KServe picks among the runtimes of the folder's other files
(the same selection, `kserve_runtimes.picked_runtime`; a tie is not settled), its words placed
at the format's name.
"""

from __future__ import annotations

import os
from dataclasses import replace

import yaml

from speclint.core.spans import Span
from speclint.core.words import Word
from speclint.frontends.manifests.kserve_runtimes import Runtime, file_runtimes, named_runtime, picked_runtime
from speclint.frontends.manifests.yaml_nodes import get
from speclint.frontends.shell.embedded import ArgvItem, ShellBuffer
from speclint.frontends.shell.pieces import Piece, span_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.manifests.container_reader import ContainerReader as ManifestReader

_MAX_FILES = 64
"""YAML files of the folder read at most for a runtime (a folder of thousands is not read)."""
_MAX_CHARS = 1_000_000


def sibling_runtime(path: str, name: str) -> tuple[yaml.MappingNode, str] | None:
    """The container of the runtime `name` written in exactly one other YAML file of `path`'s
    folder, with that file's path (as `path` names its folder); None otherwise."""
    found = [
        (runtime.container(), shown)
        for runtime, shown in _folder_runtimes(path, name)
        if named_runtime([runtime], name) is not None
    ]
    if len(found) != 1 or found[0][0] is None:
        return None
    container, shown = found[0]
    assert container is not None
    return container, shown


def format_runtime(
    path: str, model: yaml.Node, predictor: yaml.Node | None, format_name: str
) -> tuple[Runtime, str] | None:
    """The runtime KServe picks for the model's `modelFormat` (`kserve_runtimes.picked_runtime`)
    among those written in the other YAML files of `path`'s folder, with its file's path, when
    one is picked (no tie, one that supports the format); None otherwise."""
    found = _folder_runtimes(path, format_name)
    chosen, _, _ = picked_runtime([runtime for runtime, _ in found], model, predictor)
    if chosen is None:
        return None
    return next((runtime, shown) for runtime, shown in found if runtime is chosen)


def _folder_runtimes(path: str, mention: str) -> list[tuple[Runtime, str]]:
    """The runtimes of the other YAML files of `path`'s folder whose text names `mention`, each
    with its file's path (as `path` names its folder); each file read noted as an input."""
    if not os.path.isfile(path):
        return []
    from speclint.runner.depends import matching_names, note, note_glob

    folder = os.path.dirname(os.path.abspath(path))
    own = os.path.basename(path)
    names: list[str] = []
    for pattern in ("*.yaml", "*.yml"):
        note_glob(folder, pattern)
        names += [n for n in matching_names(folder, pattern) if n != own]
    found: list[tuple[Runtime, str]] = []
    for name_of_file in sorted(names)[:_MAX_FILES]:
        full = os.path.join(folder, name_of_file)
        note(full)
        try:
            with open(full, encoding="utf-8") as handle:
                text = handle.read(_MAX_CHARS)
        except (OSError, UnicodeDecodeError):
            continue
        if mention not in text:
            continue
        shown = os.path.join(os.path.dirname(path), name_of_file)
        found += [(runtime, shown) for runtime in file_runtimes(text)]
    return found


def merged_launch(
    reader: ManifestReader,
    container: yaml.MappingNode,
    shown: str,
    model: yaml.MappingNode,
    at: yaml.Node,
    said: str | None = None,
) -> None:
    """The launch of the runtime's `container` (written in `shown`) with the model's fields:
    its `command` (the model's when it sets one), the runtime's `args` then the model's, the
    runtime's `env` with the model's over it, the model's `image` else the runtime's. A word of
    the runtime stands at `at` (the model's `runtime:` name), noted where it is written."""
    begin, end = at.start_mark.index, at.end_mark.index
    at_name = str(getattr(at, "value", ""))

    def foreign(node: yaml.Node) -> Span:
        start, stop = node.start_mark, node.end_mark
        return Span(start.line + 1, start.column + 1, stop.line + 1, stop.column + 1, shown)

    def items(node: yaml.Node | None) -> list[ArgvItem]:
        listed = node.value if isinstance(node, yaml.SequenceNode) else []
        out = []
        for item in listed:
            if isinstance(item, yaml.ScalarNode):
                out.append(ArgvItem([Piece(str(item.value), begin, end)], origin=foreign(item)))
            else:
                why = f"not a string in `{shown}` line {item.start_mark.line + 1}"
                out.append(ArgvItem([Piece(None, begin, end, reason=why)], splat=True))
        return out

    command = get(model, "command")
    argv = reader.words(command) if command is not None else items(get(container, "command"))
    argv += items(get(container, "args")) + reader.words(get(model, "args"))
    here = span_of(reader.starts, begin, end)
    env: dict[str, Word] = {}
    listed = get(container, "env")
    for entry in listed.value if isinstance(listed, yaml.SequenceNode) else []:
        key, value = get(entry, "name"), get(entry, "value")
        if isinstance(key, yaml.ScalarNode):
            if isinstance(value, yaml.ScalarNode):
                env[str(key.value)] = Word(
                    str(value.value), here, foreign(value), made_by=f"set in `{shown}`"
                )
            else:
                why = f"`{key.value}` is set in `{shown}` from a source speclint does not read"
                env[str(key.value)] = Word(None, here, foreign(entry), dynamic_reason=why)
    env.update(reader.env_list(get(model, "env")))
    image = get(model, "image")
    image_info = None
    if isinstance(image, yaml.ScalarNode):
        image_info = (reader.filled_text(image), reader.span(image))
    else:
        image = get(container, "image")
        if isinstance(image, yaml.ScalarNode):  # (said where the runtime's file writes it)
            image_info = (str(image.value), foreign(image))
    buffer = ShellBuffer(reader.text, reader.starts, reader.budget)
    for item in argv:
        buffer.add_word(item)
    count = len(reader.result.launches)
    buffer.walk(reader.path, reader.result, env, image_info)
    said = said or f"written in `{shown}`, the file of the ServingRuntime `{at_name}` this model names"
    for launch in reader.result.launches[count:]:
        for name, word in env.items():
            launch.env.setdefault(name, word)
        launch.args = [
            replace(word, made_by=said) if word.origin is not None and word.origin.file == shown else word
            for word in launch.args
        ]
