"""llm-d's modelservice chart values: a container written `modelCommand: sglangServe` with
`args:` gets its SGLang command from the chart's template, which is not in the file speclint
reads. A file with no launch gets `no-launch-found` at the mention (`launch_mentions`); beside
launches read (a doc's other YAML blocks, another container of the file) this note says it
at the container, so a clean run never hides it.
"""

from __future__ import annotations

import yaml

from speclint.core.launches import Diagnostic
from speclint.frontends.manifests.yaml_nodes import NodeReader, get


def unread_model_command(reader: NodeReader, container: yaml.Node) -> None:
    """The `launcher-not-read` note for a container whose `modelCommand` is `sglangServe`."""
    command = get(container, "modelCommand")
    if isinstance(command, yaml.ScalarNode) and command.value == "sglangServe":
        message = (
            "speclint did not read this launch: llm-d's modelservice chart renders the SGLang "
            "command for `modelCommand: sglangServe` from its own template, which is not in this "
            "file, so nothing in it was checked"
        )
        reader.result.diagnostics.append(Diagnostic("launcher-not-read", message, reader.span(command)))
