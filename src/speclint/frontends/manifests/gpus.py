"""How many GPUs a manifest gives a container: the count the parallelism rules check against.

Kubernetes: `resources.limits."nvidia.com/gpu"` (else `requests`, which must equal it).
docker-compose: `deploy.resources.reservations.devices` entries for GPUs, by `count` or
`device_ids` (`count: all` is every GPU of the host: unknown here). The result is a Word
whose text is the count in decimal and whose span is where the manifest writes it.
"""

from __future__ import annotations

import yaml

from speclint.core.words import Word
from speclint.frontends.manifests.yaml_nodes import get

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.manifests.yaml_nodes import NodeReader

_K8S_GPU = "nvidia.com/gpu"


def k8s_gpu_count(reader: NodeReader, container: yaml.Node) -> Word | None:
    resources = get(container, "resources")
    for section in ("limits", "requests"):
        value = get(get(resources, section), _K8S_GPU) if resources is not None else None
        if isinstance(value, yaml.ScalarNode):
            span = reader.span(value)
            text = reader.filled_text(value).strip()
            if text.isdigit():
                return Word(str(int(text)), span, span)
            return Word(None, span, span, dynamic_reason=f"{_K8S_GPU}: {text!r} is not a count")
    return None


def compose_gpu_count(reader: NodeReader, service: yaml.Node) -> Word | None:
    devices = get(get(get(get(service, "deploy"), "resources"), "reservations"), "devices")
    if not isinstance(devices, yaml.SequenceNode):
        return None
    total, spans = 0, []
    for device in devices.value:
        capabilities = get(device, "capabilities")
        driver = get(device, "driver")
        names = [
            n.value
            for n in (capabilities.value if isinstance(capabilities, yaml.SequenceNode) else [])
            if isinstance(n, yaml.ScalarNode)
        ]
        if "gpu" not in names and not (isinstance(driver, yaml.ScalarNode) and driver.value == "nvidia"):
            continue
        count, ids = get(device, "count"), get(device, "device_ids")
        if isinstance(ids, yaml.SequenceNode):
            total += len(ids.value)
            spans.append(reader.span(ids))
        elif isinstance(count, yaml.ScalarNode):
            span = reader.span(count)
            if not count.value.strip().isdigit():
                return Word(
                    None,
                    span,
                    span,
                    dynamic_reason=f"count: {count.value} gives the container "
                    "every GPU of the host, which speclint cannot know",
                )
            total += int(count.value)
            spans.append(span)
        else:  # no count and no device_ids: compose reserves every GPU
            span = reader.span(device)
            return Word(
                None,
                span,
                span,
                dynamic_reason="a GPU reservation without count or "
                "device_ids gives the container every GPU of the host",
            )
    if not spans:
        return None
    return Word(str(total), spans[0], spans[0])
