"""Kubernetes `envFrom: [{configMapRef: {name: N}}]`: a container gets every key of the
ConfigMap N as an environment variable (`prefix` put before each name), under the names its
own `env:` list sets (that list wins: the Kubernetes API reference, EnvFromSource and
Container.envFrom). When the manifest file holds ConfigMap N (`kind: ConfigMap`,
`metadata.name: N`, `data:`), its values are the container's; a ConfigMap the file does not
hold, and a `secretRef`, give nothing known. An `env:` entry's `valueFrom: configMapKeyRef:
{name: N, key: K}` is read the same way: K's value in ConfigMap N of this file.
"""

from __future__ import annotations

import yaml

from speclint.core.words import Word
from speclint.frontends.manifests.yaml_nodes import Loader, get, mapping_pairs

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.manifests.yaml_nodes import NodeReader

ConfigMaps = dict[str, list[tuple[str, yaml.ScalarNode]]]
"""ConfigMap name -> its `data:` (key, value node), as written."""


def read_config_maps(text: str) -> ConfigMaps:
    """The ConfigMaps of a manifest file (every document; none when the file does not parse)."""
    found: ConfigMaps = {}
    loader = None
    try:
        loader = Loader(text)
        while loader.check_node():
            document = loader.get_node()
            kind, meta = get(document, "kind"), get(document, "metadata")
            name, data = get(meta, "name"), get(document, "data")
            if (
                isinstance(kind, yaml.ScalarNode)
                and kind.value == "ConfigMap"
                and isinstance(name, yaml.ScalarNode)
                and isinstance(data, yaml.MappingNode)
            ):
                found[name.value] = [
                    (key.value, value)
                    for key, value in mapping_pairs(data)
                    if isinstance(key, yaml.ScalarNode) and isinstance(value, yaml.ScalarNode)
                ]
    except (yaml.YAMLError, RecursionError):
        pass  # (the file's own read reports it)
    finally:
        if loader is not None:
            loader.dispose()
    return found


def env_from(reader: NodeReader, env_from_list: yaml.Node | None, maps: ConfigMaps) -> dict[str, Word]:
    """The variables a container's `envFrom:` list gives it from the file's ConfigMaps."""
    env: dict[str, Word] = {}
    if not isinstance(env_from_list, yaml.SequenceNode):
        return env
    for source in env_from_list.value:
        ref = get(source, "configMapRef")
        name = get(ref, "name")
        prefix = get(source, "prefix")
        if not isinstance(name, yaml.ScalarNode) or name.value not in maps:
            continue
        before = prefix.value if isinstance(prefix, yaml.ScalarNode) else ""
        for key, value in maps[name.value]:  # a later source wins for the same name
            env[before + key] = Word(value.value, reader.span(value), reader.span(value))
    return env


def key_refs(reader: NodeReader, env_list: yaml.Node | None, maps: ConfigMaps) -> dict[str, Word]:
    """The variables of a container's `env:` list whose `valueFrom: configMapKeyRef:` names a
    key of a ConfigMap in this file: that key's value, said where the ConfigMap writes it (a
    ConfigMap or key the file does not hold stays unknown, as `env_list` leaves it)."""
    env: dict[str, Word] = {}
    if not isinstance(env_list, yaml.SequenceNode):
        return env
    for item in env_list.value:
        name, ref = get(item, "name"), get(get(item, "valueFrom"), "configMapKeyRef")
        map_name, key = get(ref, "name"), get(ref, "key")
        if not (
            isinstance(name, yaml.ScalarNode)
            and isinstance(map_name, yaml.ScalarNode)
            and isinstance(key, yaml.ScalarNode)
        ):
            continue
        for data_key, value in maps.get(map_name.value, []):
            if data_key == key.value:
                env[name.value] = Word(value.value, reader.span(value), reader.span(value))
    return env
