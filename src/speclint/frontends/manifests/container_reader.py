"""What the readers of referenced forms (`role_templates`, `kserve_models`) ask of the YAML
manifest reader: a `NodeReader` that reads one Kubernetes Container spec as a launch. Typing
only: apart so that they need not import `yaml_manifest`, which calls them."""

from __future__ import annotations

from speclint.frontends.manifests.yaml_nodes import NodeReader

TYPE_CHECKING = False
if TYPE_CHECKING:
    import yaml


class ContainerReader(NodeReader):
    def k8s_container(self, container: yaml.Node, step: bool = False) -> None:
        raise NotImplementedError  # (`yaml_manifest._Reader`'s)
