"""cloud-init user data (`#cloud-config`): `runcmd:`, `bootcmd:` and `write_files:`.

Read as cloud-init's module documentation describes them: `runcmd` (cc_runcmd) and
`bootcmd` (cc_bootcmd) are lists whose items are written, in order, into one shell script
that `sh` runs: a string item is a line of shell, a list item a command's words (quoted for
the shell). `write_files` (cc_write_files) writes each item's `content:` to its `path:`; a
systemd unit, drop-in or Quadlet file written so is read as that file (`unit_files`), an
encoded `content` (`encoding: b64`/`gzip`) is not read.
"""

from __future__ import annotations

import yaml

from speclint.frontends.manifests.yaml_nodes import get
from speclint.frontends.shell.embedded import ArgvItem, ShellBuffer
from speclint.frontends.shell.pieces import Piece

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeGuard

    from speclint.frontends.manifests.yaml_nodes import NodeReader

_MODULES = ("bootcmd", "runcmd", "write_files")
_OTHER_KINDS = ("apiVersion", "services", "jobs", "kind")
"""Keys of the YAML files other readers take (Kubernetes, compose, workflows)."""


def is_cloud_config(root: yaml.Node, text: str) -> TypeGuard[yaml.MappingNode]:
    """cloud-init user data: `#cloud-config` on the first line (cloud-init's own test), or a
    mapping with `runcmd:`, `bootcmd:` or `write_files:` and none of another kind's keys."""
    if not isinstance(root, yaml.MappingNode):
        return False
    keys = {key.value for key, _ in root.value if isinstance(key, yaml.ScalarNode)}
    if text.startswith("#cloud-config"):
        return True
    return bool(keys & set(_MODULES)) and not keys & set(_OTHER_KINDS)


def read_cloud_config(reader: NodeReader, root: yaml.MappingNode) -> None:
    for name in ("bootcmd", "runcmd"):
        commands = get(root, name)
        if isinstance(commands, yaml.SequenceNode) and _mentions(commands):
            _script(reader, commands)
    files = get(root, "write_files")
    if isinstance(files, yaml.SequenceNode):
        for item in files.value:
            _written_file(reader, item)


def _mentions(node: yaml.Node) -> bool:
    if isinstance(node, yaml.ScalarNode):
        return "sglang" in str(node.value)
    if isinstance(node, yaml.SequenceNode):
        return any(_mentions(item) for item in node.value)
    return False


def _script(reader: NodeReader, commands: yaml.SequenceNode) -> None:
    """The script cloud-init writes from the list, walked as one."""
    buffer = ShellBuffer(reader.text, reader.starts, reader.budget)
    for item in commands.value:
        end = item.end_mark.index
        if isinstance(item, yaml.ScalarNode):
            buffer.add_code(reader.scalar_pieces(item))
        elif isinstance(item, yaml.SequenceNode):
            for word in item.value:
                if isinstance(word, yaml.ScalarNode):
                    buffer.add_word(ArgvItem(reader.scalar_pieces(word)))
                else:
                    reason = "not a string"
                    span = (word.start_mark.index, word.end_mark.index)
                    buffer.add_word(ArgvItem([Piece(None, *span, reason=reason)], splat=True))
        else:
            continue
        buffer.add_code([Piece("\n", end, end)])
    buffer.walk(reader.path, reader.result, {}, unit_reader=reader.unit_reader())


def _written_file(reader: NodeReader, item: yaml.Node) -> None:
    from speclint.frontends.manifests.unit_files import destination_of, read_unit_content
    from speclint.frontends.unit_paths import unit_file_kind

    destination = destination_of(get(item, "path"))
    content = get(item, "content")
    encoding = get(item, "encoding")
    if destination is None or unit_file_kind(destination) is None or not isinstance(content, yaml.ScalarNode):
        return
    if isinstance(encoding, yaml.ScalarNode) and encoding.value not in ("", "text/plain"):
        return  # b64 / gzip: not read (the text names no launcher a reader could see)
    if "sglang" in content.value:
        read_unit_content(
            reader.path, reader.starts, reader.result, destination, reader.scalar_pieces(content)
        )
