"""Which ServingRuntime of the linted file KServe runs an InferenceService's model in.

A model that names its runtime (`runtime: sglang-runtime`) runs in the ServingRuntime or
ClusterServingRuntime of that name. One that names only its `modelFormat` runs in the runtime
KServe picks (`ModelSpec.GetSupportingRuntimes`, pkg/apis/serving/v1beta1/predictor_model.go,
then the first of the list): among runtimes that are not `disabled`, not `multiModel`, whose
`supportedModelFormats` hold the model's format with `autoSelect: true` (`mt:<name>`, or
`mt:<name>:<version>` when the model gives a version, `RuntimeSupportsModel`), whose
`protocolVersions` hold the model's (`v1` when it sets none; any when the runtime lists none,
`IsProtocolVersionSupported`) and (newer KServe) that have a `workerSpec` when the predictor
has one and only then, the namespace's ServingRuntimes come before the ClusterServingRuntimes,
and within each the one with the highest `priority` for that format first (a runtime with a
priority before one without, `sortSupportedRuntimeByPriority`). Runtimes that tie there are
ordered by their creation time, which a file does not show: several tied at the top leave the
choice unknown, said so, as is a format no runtime of the file supports (KServe picks one of
the cluster's). Runtimes elsewhere in the cluster are not seen: the file's are taken as those
KServe lists.
"""

from __future__ import annotations

import yaml

from speclint.core.records import dataclass
from speclint.frontends.manifests.yaml_nodes import get

_SELECTION = "KServe's runtime selection (GetSupportingRuntimes)"
_ELSEWHERE = "lint the ServingRuntime's manifest with this one"


@dataclass
class Runtime:
    """A ServingRuntime (`cluster`: a ClusterServingRuntime) of the file, by name, and its spec."""

    name: str
    cluster: bool
    spec: yaml.Node | None

    @property
    def kind(self) -> str:
        return "ClusterServingRuntime" if self.cluster else "ServingRuntime"

    def container(self) -> yaml.MappingNode | None:
        """The `kserve-container` (else the first container) of the runtime."""
        listed = get(self.spec, "containers")
        containers = (
            [c for c in listed.value if isinstance(c, yaml.MappingNode)]
            if isinstance(listed, yaml.SequenceNode)
            else []
        )
        for container in containers:
            if _text(get(container, "name")) == "kserve-container":
                return container
        return containers[0] if containers else None


def file_runtimes(text: str) -> list[Runtime]:
    """The ServingRuntimes and ClusterServingRuntimes of the file's documents, in file order."""
    if "ServingRuntime" not in text:
        return []
    try:
        documents = list(yaml.compose_all(text, Loader=yaml.SafeLoader))
    except (yaml.YAMLError, RecursionError):
        return []
    found = []
    for document in documents:
        kind = _text(get(document, "kind"))
        name = _text(get(get(document, "metadata"), "name"))
        if kind in ("ServingRuntime", "ClusterServingRuntime") and name is not None:
            found.append(Runtime(name, kind == "ClusterServingRuntime", get(document, "spec")))
    return found


def named_runtime(runtimes: list[Runtime], name: str) -> Runtime | None:
    """The runtime a model names (`runtime:`), a ServingRuntime before a ClusterServingRuntime."""
    named = [runtime for runtime in runtimes if runtime.name == name]
    named.sort(key=lambda runtime: runtime.cluster)
    return named[0] if named else None


def picked_runtime(
    runtimes: list[Runtime], model: yaml.Node, predictor: yaml.Node | None
) -> tuple[Runtime | None, str, str]:
    """The runtime KServe picks for a model with no `runtime:`, or None, why it is not known and
    how to make it known."""
    format_node = get(model, "modelFormat")
    format_name = _text(get(format_node, "name"))
    if format_name is None:
        return (
            None,
            "the model names no `modelFormat.name`, which KServe's runtime selection needs",
            _ELSEWHERE,
        )
    version = _text(get(format_node, "version"))
    label = f"{format_name}:{version}" if version is not None else format_name
    protocol = _text(get(model, "protocolVersion")) or "v1"
    several_nodes = get(predictor, "workerSpec") is not None
    candidates = [
        runtime
        for runtime in runtimes
        if _supports(runtime.spec, format_name, version)
        and not _true(get(runtime.spec, "disabled"))
        and not _true(get(runtime.spec, "multiModel"))
        and _protocol_supported(runtime.spec, protocol)
        and (get(runtime.spec, "workerSpec") is not None) == several_nodes
    ]
    if not candidates:
        why = (
            f"no ServingRuntime in this file supports the model format `{label}` with `autoSelect: "
            f"true` (and protocol `{protocol}`), so {_SELECTION} takes one from the cluster, which is "
            "not in this file"
        )
        return None, why, _ELSEWHERE
    namespaced = [runtime for runtime in candidates if not runtime.cluster]
    group = namespaced or candidates
    ranked = sorted(group, key=lambda runtime: _rank(runtime.spec, format_name), reverse=True)
    top = [
        runtime
        for runtime in ranked
        if _rank(runtime.spec, format_name) == _rank(ranked[0].spec, format_name)
    ]
    if len(top) > 1:
        names = ", ".join(f"`{runtime.name}`" for runtime in top)
        why = (
            f"the {top[0].kind}s {names} of this file all support the model format `{label}` with "
            f"the same priority, so {_SELECTION} picks by their creation time, which the file does "
            "not show"
        )
        return None, why, "name the one it runs in with `runtime:`, or give that one the highest `priority`"
    return top[0], "", ""


def _supports(spec: yaml.Node | None, name: str, version: str | None) -> bool:
    formats = get(spec, "supportedModelFormats")
    for entry in formats.value if isinstance(formats, yaml.SequenceNode) else []:
        if not _true(get(entry, "autoSelect")) or _text(get(entry, "name")) != name:
            continue
        if version is None or _text(get(entry, "version")) == version:
            return True
    return False


def _protocol_supported(spec: yaml.Node | None, protocol: str) -> bool:
    listed = get(spec, "protocolVersions")
    if not isinstance(listed, yaml.SequenceNode) or not listed.value:
        return True
    return any(_text(item) == protocol for item in listed.value)


def _rank(spec: yaml.Node | None, name: str) -> tuple[int, int]:
    """(1, priority) for the first format entry of that name with a priority, else (0, 0)."""
    formats = get(spec, "supportedModelFormats")
    for entry in formats.value if isinstance(formats, yaml.SequenceNode) else []:
        if _text(get(entry, "name")) == name:
            priority = _text(get(entry, "priority"))
            if priority is not None and priority.lstrip("-").isdigit():
                return (1, int(priority))
            return (0, 0)
    return (0, 0)


def _true(node: yaml.Node | None) -> bool:
    return isinstance(node, yaml.ScalarNode) and node.value.lower() == "true"


def _text(node: yaml.Node | None) -> str | None:
    return node.value if isinstance(node, yaml.ScalarNode) and node.value != "" else None
