"""KServe InferenceServices whose `spec.predictor.model` adds `args:` to a ServingRuntime's
container: the runtime it names (`runtime:`) or the one KServe picks for its `modelFormat`
(`kserve_runtimes`); the model's container fields go into the runtime's container.

KServe's `MergeRuntimeContainers` (pkg/controller/v1beta1/inferenceservice/utils) merges the
predictor's container into the ServingRuntime's `kserve-container` with a strategic merge patch
(a field the model sets replaces the runtime's), then sets `args` to the runtime's followed by
the model's ("Strategic merge patch will replace args but more useful behaviour here is to
concatenate"). A runtime in the same file (another YAML document) is merged so, each word where
it is written; a named one in another YAML file of the folder too, its words at the model's
`runtime:` name (`kserve_siblings`); one found in neither, or a choice the file does not settle,
leaves the model's `args:` unread, said at them.
"""

from __future__ import annotations

import yaml

from speclint.core.diagnostics import Diagnostic
from speclint.frontends.manifests.kserve_runtimes import file_runtimes, named_runtime, picked_runtime
from speclint.frontends.manifests.yaml_nodes import get, mapping_pairs
from speclint.frontends.shell.pieces import span_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.manifests.container_reader import ContainerReader as ManifestReader

_MODEL_ONLY = frozenset({"modelFormat", "runtime", "storageUri", "protocolVersion", "storage"})
"""`model:` fields that are KServe's, not the container's."""


def read_model(reader: ManifestReader, root: yaml.Node) -> None:
    """An InferenceService's `predictor.model` with `args:`, merged into its runtime's container:
    the one it names, or the one KServe picks for its `modelFormat` (`kserve_runtimes`)."""
    if "InferenceService" not in reader.text or not isinstance(root, yaml.MappingNode):
        return
    kind = get(root, "kind")
    predictor = get(get(root, "spec"), "predictor")
    model = get(predictor, "model")
    if not (isinstance(kind, yaml.ScalarNode) and kind.value == "InferenceService"):
        return
    if not isinstance(model, yaml.MappingNode):
        return
    if not isinstance(get(model, "args"), yaml.SequenceNode):
        _runtime_elsewhere(reader, model, predictor)
        return
    reader.seen.add(model)
    runtime = get(model, "runtime")
    name = runtime.value if isinstance(runtime, yaml.ScalarNode) and runtime.value else None
    runtimes = file_runtimes(reader.text)
    if name is not None:
        chosen = named_runtime(runtimes, name)
        why = (
            f"the ServingRuntime `{name}`'s container (its MergeRuntimeContainers), which is not in this file"
        )
        hint = "write the ServingRuntime in this file, or in a YAML file beside it"
    else:
        chosen, reason, hint = picked_runtime(runtimes, model, predictor)
        why = f"the container of the ServingRuntime KServe picks for the model's `modelFormat`, and {reason}"
    container = chosen.container() if chosen is not None else None
    if container is None and chosen is None and name is not None and isinstance(runtime, yaml.ScalarNode):
        from speclint.frontends.manifests.kserve_siblings import merged_launch, sibling_runtime

        beside = sibling_runtime(reader.path, name)  # (in another file of this folder)
        if beside is not None:
            merged_launch(reader, beside[0], beside[1], model, runtime)
            return
    if chosen is None and name is None and _by_format(reader, model, predictor, args=True):
        return
    if container is None:
        args = get(model, "args")
        assert isinstance(args, yaml.SequenceNode)
        if not args.value or not any("--" in str(getattr(a, "value", "")) for a in args.value):
            return
        if chosen is not None:
            why = f"the {chosen.kind} `{chosen.name}`'s container, which this file gives none"
        message = (
            f"KServe adds these `args:` after those of {why}: the launch they join was not checked ({hint})"
        )
        first, last = args.value[0], args.value[-1]
        span = span_of(reader.starts, first.start_mark.index, last.end_mark.index)
        reader.result.diagnostics.append(Diagnostic("no-launch-found", message, span))
        return
    reader.k8s_container(_merged(container, model))


def _runtime_elsewhere(reader: ManifestReader, model: yaml.MappingNode, predictor: yaml.Node | None) -> None:
    """A model with no `args:` that runs in an SGLang runtime by name (`runtime: kserve-sglang`,
    `modelFormat: {name: sglang}`) kept out of this file: its launch is that runtime's, not
    read here; said at the name, not passed as "0 launches"."""
    runtime = get(model, "runtime")
    named = get(get(model, "modelFormat"), "name")
    where = next(
        (n for n in (runtime, named) if isinstance(n, yaml.ScalarNode) and "sglang" in n.value.lower()),
        None,
    )
    if where is None:
        return
    runtimes = file_runtimes(reader.text)
    hint = "write the ServingRuntime in this file, or in a YAML file beside it"
    if isinstance(runtime, yaml.ScalarNode) and runtime.value:
        if named_runtime(runtimes, runtime.value) is not None:
            return  # (its container is read where the runtime is written)
        which = f"the ServingRuntime `{runtime.value}`, which is not in this file"
        from speclint.frontends.manifests.kserve_siblings import sibling_runtime

        beside = sibling_runtime(reader.path, runtime.value)
        if beside is not None:  # (its launch is checked where it is written)
            message = (
                f"KServe runs this model in the ServingRuntime `{runtime.value}` of `{beside[1]}`: "
                f"the SGLang launch it starts is checked where that file is linted, not in this one"
            )
            reader.result.diagnostics.append(Diagnostic("no-launch-found", message, reader.span(where)))
            return
    else:
        chosen, reason, hint = picked_runtime(runtimes, model, predictor)
        if chosen is not None or _by_format(reader, model, predictor, args=False):
            return
        which = f"the runtime KServe picks for its model format, and {reason}"
    message = f"KServe runs this model in {which}: the SGLang launch it starts was not checked ({hint})"
    reader.result.diagnostics.append(Diagnostic("no-launch-found", message, reader.span(where)))


def _by_format(
    reader: ManifestReader, model: yaml.MappingNode, predictor: yaml.Node | None, args: bool
) -> bool:
    """A model naming only its `modelFormat`, in the runtime KServe picks among those of the
    other YAML files of this folder (`kserve_siblings`): its `args:` merged into that runtime's
    container (`args`), or said where that runtime's launch is checked. False where the folder
    does not settle it."""
    named = get(get(model, "modelFormat"), "name")
    if not isinstance(named, yaml.ScalarNode) or not named.value:
        return False
    from speclint.frontends.manifests.kserve_siblings import format_runtime, merged_launch

    beside = format_runtime(reader.path, model, predictor, str(named.value))
    container = beside[0].container() if beside is not None else None
    if beside is None or container is None:
        return False
    runtime, shown = beside
    if args:
        said = f"written in `{shown}`, the file of the {runtime.kind} `{runtime.name}` KServe picks for this model's format"
        merged_launch(reader, container, shown, model, named, said)
        return True
    message = (
        f"KServe runs this model in the {runtime.kind} `{runtime.name}` of `{shown}`, which it picks for "
        f"the model format `{named.value}`: the SGLang launch it starts is checked where that file is "
        "linted, not in this one"
    )
    reader.result.diagnostics.append(Diagnostic("no-launch-found", message, reader.span(named)))
    return True


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
