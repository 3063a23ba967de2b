"""KServe InferenceServices whose `spec.predictor.model` names a ServingRuntime (`runtime:`):
the model's container fields go into the runtime's container.

KServe's `MergeRuntimeContainers` (pkg/controller/v1beta1/inferenceservice/utils) merges the
predictor's container into the ServingRuntime's `kserve-container` with a strategic merge patch
(a field the model sets replaces the runtime's), then sets `args` to the runtime's followed by
the model's ("Strategic merge patch will replace args but more useful behaviour here is to
concatenate"). A runtime in the same file (another YAML document) is merged so, each word where
it is written; one that is not leaves the model's `args:` unread, said at the first of them.
"""

from __future__ import annotations

import yaml

from speclint.core.diagnostics import Diagnostic
from speclint.frontends.manifests.yaml_nodes import get, mapping_pairs
from speclint.frontends.shell.pieces import span_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.manifests.container_reader import ContainerReader as ManifestReader

_MODEL_ONLY = frozenset({"modelFormat", "runtime", "storageUri", "protocolVersion", "storage"})
"""`model:` fields that are KServe's, not the container's."""


def read_model(reader: ManifestReader, root: yaml.Node) -> None:
    """An InferenceService's `predictor.model` with `args:`, merged into its runtime's container."""
    if "InferenceService" not in reader.text or not isinstance(root, yaml.MappingNode):
        return
    kind = get(root, "kind")
    model = get(get(get(root, "spec"), "predictor"), "model")
    if not (isinstance(kind, yaml.ScalarNode) and kind.value == "InferenceService"):
        return
    if not isinstance(model, yaml.MappingNode) or not isinstance(get(model, "args"), yaml.SequenceNode):
        return
    reader.seen.add(id(model))
    runtime = get(model, "runtime")
    name = runtime.value if isinstance(runtime, yaml.ScalarNode) else None
    container = _runtime_container(reader.text, name) if name else None
    if container is None:
        args = get(model, "args")
        assert isinstance(args, yaml.SequenceNode)
        if not args.value or not any("--" in str(getattr(a, "value", "")) for a in args.value):
            return
        which = (
            f"the ServingRuntime `{name}`"
            if name
            else "the ServingRuntime KServe picks for its `modelFormat`"
        )
        message = (
            f"KServe adds these `args:` after those of {which}'s container (its "
            "MergeRuntimeContainers), which is not in this file: the launch they join was not "
            "checked (lint the ServingRuntime's manifest with this one)"
        )
        first, last = args.value[0], args.value[-1]
        span = span_of(reader.starts, first.start_mark.index, last.end_mark.index)
        reader.result.diagnostics.append(Diagnostic("no-launch-found", message, span))
        return
    reader.k8s_container(_merged(container, model))


def _runtime_container(text: str, name: str) -> yaml.MappingNode | None:
    """The `kserve-container` (else the first container) of the ServingRuntime or
    ClusterServingRuntime named `name` in this file's documents."""
    if "ServingRuntime" not in text:
        return None
    try:
        documents = list(yaml.compose_all(text, Loader=yaml.SafeLoader))
    except yaml.YAMLError:
        return None
    for document in documents:
        kind = get(document, "kind")
        named = get(get(document, "metadata"), "name")
        if not (isinstance(kind, yaml.ScalarNode) and kind.value.endswith("ServingRuntime")):
            continue
        if not (isinstance(named, yaml.ScalarNode) and named.value == name):
            continue
        listed = get(get(document, "spec"), "containers")
        containers = (
            [c for c in listed.value if isinstance(c, yaml.MappingNode)]
            if isinstance(listed, yaml.SequenceNode)
            else []
        )
        for container in containers:
            if getattr(get(container, "name"), "value", None) == "kserve-container":
                return container
        return containers[0] if containers else None
    return None


def _merged(runtime: yaml.MappingNode, model: yaml.MappingNode) -> yaml.MappingNode:
    fields: dict[str, tuple[yaml.Node, yaml.Node]] = {}
    for key, value in mapping_pairs(runtime):
        if isinstance(key, yaml.ScalarNode):
            fields[key.value] = (key, value)
    for key, value in mapping_pairs(model):
        if isinstance(key, yaml.ScalarNode) and key.value not in _MODEL_ONLY and key.value != "args":
            fields[key.value] = (key, value)
    runtime_args, model_args = get(runtime, "args"), get(model, "args")
    items = list(runtime_args.value) if isinstance(runtime_args, yaml.SequenceNode) else []
    if isinstance(model_args, yaml.SequenceNode):
        key = (
            fields["args"][0]
            if "args" in fields
            else next(k for k, _ in mapping_pairs(model) if getattr(k, "value", "") == "args")
        )
        fields["args"] = (
            key,
            yaml.SequenceNode(
                model_args.tag, items + list(model_args.value), model_args.start_mark, model_args.end_mark
            ),
        )
    return yaml.MappingNode(model.tag, list(fields.values()), model.start_mark, model.end_mark)
