"""Ansible playbooks and task files: the tasks that start SGLang.

Read as Ansible's documentation describes them: a playbook is a list of plays (`hosts:`,
with `tasks:`, `pre_tasks:`, `post_tasks:`, `handlers:`); a task file (a role's
`tasks/main.yml`) is a list of tasks; `block:`, `rescue:` and `always:` hold tasks too. A
task runs one module, its parameters in the module's key (free-form text or a mapping) and
in `args:`; `environment:` at play, block or task level (the inner one wins) is the
process's environment. The modules read:
- `ansible.builtin.shell` (`shell`): its free-form text or `cmd` is a shell script;
- `ansible.builtin.command` (`command`): its free-form text or `cmd` is split into words
  (no shell: read as the shell front-end reads plain words), or `argv` is the word list;
- `community.docker.docker_container` (`docker_container`): `entrypoint` and `command` (a
  list, or a string split into words), `env`, and `image` picking the SGLang release;
- `kubernetes.core.k8s` (`k8s`): an inline `definition:` manifest's containers;
- `ansible.builtin.copy` (`copy`): a `content:` written to a systemd unit, drop-in or
  Quadlet file (`dest:`), read as that file (`unit_files`).
Jinja (`{{ model_path }}`, `{% if %}`) is filled in by Ansible when the task runs: an
unknown value where it is written.
"""

from __future__ import annotations

import yaml

from speclint.core.words import Word
from speclint.frontends.manifests.yaml_nodes import get, mapping_pairs
from speclint.frontends.shell.embedded import ArgvItem, ShellBuffer
from speclint.frontends.shell.pieces import Piece

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol, TypeGuard

    from speclint.core.launches import ExtractResult
    from speclint.core.spans import Span
    from speclint.frontends.shell.embedded import Budget
    from speclint.frontends.shell.walking import UnitReader

    class NodeReader(Protocol):
        """What this module uses of the YAML front-end's reader (`yaml_manifest._Reader`)."""

        text: str
        starts: list[int]
        path: str
        result: ExtractResult
        budget: Budget
        seen: set[yaml.Node]

        def span(self, node: yaml.Node) -> Span: ...

        def scalar_pieces(self, node: yaml.ScalarNode) -> list[Piece]: ...

        def find_containers(self, node: yaml.Node, depth: int) -> None: ...

        def unit_reader(self) -> UnitReader: ...


_PLAY_TASK_LISTS = ("pre_tasks", "tasks", "post_tasks", "handlers")
_BLOCK_LISTS = ("block", "rescue", "always")
_SHELL = frozenset({"shell", "ansible.builtin.shell", "ansible.legacy.shell"})
_COMMAND = frozenset({"command", "ansible.builtin.command", "ansible.legacy.command"})
_CONTAINER = frozenset({"docker_container", "community.docker.docker_container"})
_K8S = frozenset({"k8s", "kubernetes.core.k8s", "community.kubernetes.k8s"})
_COPY = frozenset({"copy", "ansible.builtin.copy", "ansible.legacy.copy"})
_MODULES = _SHELL | _COMMAND | _CONTAINER | _K8S | _COPY


def is_ansible(root: yaml.Node) -> TypeGuard[yaml.SequenceNode]:
    """A playbook (a list of plays) or a task file (a list of tasks naming a module read here)."""
    if not isinstance(root, yaml.SequenceNode) or not root.value:
        return False
    for item in root.value:
        if not isinstance(item, yaml.MappingNode):
            return False
    keys = {key.value for item in root.value for key, _ in item.value if isinstance(key, yaml.ScalarNode)}
    return bool(keys & {"hosts", "import_playbook", *_MODULES, *_BLOCK_LISTS})


def read_ansible(reader: NodeReader, root: yaml.SequenceNode) -> None:
    for item in root.value:
        env = _environment(reader, get(item, "environment"), {})
        if get(item, "hosts") is not None:
            for key in _PLAY_TASK_LISTS:
                _tasks(reader, get(item, key), env, 0)
        else:
            _task(reader, item, {}, 0)


def _tasks(reader: NodeReader, node: yaml.Node | None, env: dict[str, Word], depth: int) -> None:
    if isinstance(node, yaml.SequenceNode) and depth < 20:
        for task in node.value:
            _task(reader, task, env, depth)


def _task(reader: NodeReader, task: yaml.Node, outer: dict[str, Word], depth: int) -> None:
    if not isinstance(task, yaml.MappingNode) or task in reader.seen:
        return
    reader.seen.add(task)
    env = _environment(reader, get(task, "environment"), outer)
    for listed in _BLOCK_LISTS:
        _tasks(reader, get(task, listed), env, depth + 1)
    for key, value in mapping_pairs(task):
        if isinstance(key, yaml.ScalarNode) and key.value in _MODULES:
            _module(reader, key.value, value, get(task, "args"), env)


def _parameter(module: yaml.Node, args: yaml.Node | None, name: str) -> yaml.Node | None:
    found = get(module, name)
    return found if found is not None else get(args, name)


def _module(
    reader: NodeReader, name: str, module: yaml.Node, args: yaml.Node | None, env: dict[str, Word]
) -> None:
    if name in _K8S:
        definition = _parameter(module, args, "definition")
        if definition is not None:
            reader.find_containers(definition, depth=0)
        return
    if name in _CONTAINER:
        _container(reader, module, args, env)
        return
    if name in _COPY:
        _copied_unit(reader, module, args)
        return
    free = module if isinstance(module, yaml.ScalarNode) else _parameter(module, args, "cmd")
    buffer = ShellBuffer(reader.text, reader.starts, reader.budget)
    if isinstance(free, yaml.ScalarNode):
        if "sglang" not in free.value:
            return
        buffer.add_code(jinja_unknown(reader.scalar_pieces(free)))
    elif name in _COMMAND:
        argv = _parameter(module, args, "argv")
        if not isinstance(argv, yaml.SequenceNode):
            return
        for item in _words(reader, argv):
            buffer.add_word(item)
    else:
        return
    _walk(reader, buffer, env, None)


def _container(reader: NodeReader, module: yaml.Node, args: yaml.Node | None, env: dict[str, Word]) -> None:
    container_env = _environment(reader, _parameter(module, args, "env"), {})
    buffer = ShellBuffer(reader.text, reader.starts, reader.budget)
    for part in (_parameter(module, args, "entrypoint"), _parameter(module, args, "command")):
        if isinstance(part, yaml.ScalarNode):  # a string command is split into words
            buffer.add_space()
            buffer.add_code(jinja_unknown(reader.scalar_pieces(part)))
        elif isinstance(part, yaml.SequenceNode):
            for item in _words(reader, part):
                buffer.add_word(item)
    image = _parameter(module, args, "image")
    _walk(reader, buffer, container_env, image if isinstance(image, yaml.ScalarNode) else None)


def _copied_unit(reader: NodeReader, module: yaml.Node, args: yaml.Node | None) -> None:
    """`copy` with `content:` to a systemd unit, drop-in or Quadlet file (`unit_files`)."""
    from speclint.frontends.manifests.unit_files import destination_of, read_unit_content
    from speclint.frontends.unit_paths import unit_file_kind

    destination = destination_of(_parameter(module, args, "dest"))
    content = _parameter(module, args, "content")
    if destination is None or unit_file_kind(destination) is None or not isinstance(content, yaml.ScalarNode):
        return
    if "sglang" in content.value:
        read_unit_content(
            reader.path,
            reader.starts,
            reader.result,
            destination,
            jinja_unknown(reader.scalar_pieces(content)),
        )


def _words(reader: NodeReader, node: yaml.SequenceNode) -> list[ArgvItem]:
    return [
        ArgvItem(jinja_unknown(reader.scalar_pieces(item)))
        if isinstance(item, yaml.ScalarNode)
        else ArgvItem(
            [Piece(None, item.start_mark.index, item.end_mark.index, reason="not a string")], splat=True
        )
        for item in node.value
    ]


def _walk(
    reader: NodeReader, buffer: ShellBuffer, env: dict[str, Word], image: yaml.ScalarNode | None
) -> None:
    image_info = None
    if image is not None and "{{" not in image.value:
        image_info = (image.value, reader.span(image))
    count = len(reader.result.launches)
    buffer.walk(reader.path, reader.result, env, image_info, unit_reader=reader.unit_reader())
    for launch in reader.result.launches[count:]:
        for name, word in env.items():
            launch.env.setdefault(name, word)


def _environment(reader: NodeReader, node: yaml.Node | None, outer: dict[str, Word]) -> dict[str, Word]:
    """`environment:` (or a container's `env:`) over the outer one; a Jinja value is unknown."""
    from speclint.frontends.manifests.expressions import mapping_env

    return mapping_env(
        reader.span, node, outer, ("{{", "{%"), lambda name: f"{name} is set by Ansible when the task runs"
    )


def jinja_unknown(pieces: list[Piece]) -> list[Piece]:
    """`{{ model_path }}` and `{% ... %}` become unknown values (Ansible renders them)."""
    from speclint.frontends.manifests.expressions import expressions_unknown

    return expressions_unknown(
        pieces,
        (("{{", "}}"), ("{%", "%}")),
        lambda shown: f"`{shown}` is a Jinja expression Ansible fills in when the task runs",
    )
