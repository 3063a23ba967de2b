"""Which YAML mappings are Kubernetes Container specs besides a `containers:` list's items, and
the shell script such a spec runs besides its `command` (read by `yaml_manifest`)."""

from __future__ import annotations

import yaml

from speclint.frontends.manifests.yaml_nodes import get


def is_container(node: yaml.Node, imaged: bool = True) -> bool:
    """A mapping written as a Kubernetes Container: an `image` (unless not `imaged`) and a
    `command` or `args` (the `runner:` of an OME ClusterServingRuntime's `engineConfig`,
    `decoderConfig`, `routerConfig` and their `leader`/`worker`, each a Container spec in OME's
    API; the `extraPodSpec.mainContainer` of an NVIDIA Dynamo DynamoGraphDeployment service,
    a Container spec in Dynamo's API, whose image may be set by the operator)."""
    return (
        isinstance(node, yaml.MappingNode)
        and (not imaged or get(node, "image") is not None)
        and (get(node, "command") is not None or get(node, "args") is not None)
    )


def container_script(container: yaml.Node) -> yaml.ScalarNode | None:
    """The shell script a Container-like spec runs besides its `command`: a Tekton step's
    `script:` (run by `/bin/sh` unless its first line is a shebang: one naming a shell is read
    too) or an Argo script template's `source:`, which Argo saves to a file and passes to the
    `command` (read when that is a shell)."""
    from speclint.frontends.shell.launch import SHELLS

    script = get(container, "script")
    if isinstance(script, yaml.ScalarNode):
        first = script.value.lstrip().split("\n", 1)[0]
        words = [word.rsplit("/", 1)[-1] for word in first[2:].split()] if first.startswith("#!") else ["sh"]
        if words[:1] == ["env"]:
            words = [word for word in words[1:] if not word.startswith("-")]
        return script if words and words[0] in SHELLS else None
    source, command = get(container, "source"), get(container, "command")
    if isinstance(source, yaml.ScalarNode) and isinstance(command, yaml.SequenceNode) and command.value:
        program = command.value[0]
        if isinstance(program, yaml.ScalarNode) and program.value.rsplit("/", 1)[-1] in SHELLS:
            return source
    return None
