"""What the readers of referenced forms (`role_templates`, `kserve_models`) and compose services
(`compose_services`) ask of the YAML
manifest reader: a `NodeReader` that reads one Kubernetes Container spec as a launch. Typing
only: apart so that they need not import `yaml_manifest`, which calls them."""

from __future__ import annotations

from speclint.frontends.manifests.yaml_nodes import NodeReader

TYPE_CHECKING = False
if TYPE_CHECKING:
    import yaml

    from speclint.core.words import Word
    from speclint.frontends.manifests.compose_env import DotEnv
    from speclint.frontends.shell.embedded import ShellBuffer


class ContainerReader(NodeReader):
    dotenv: DotEnv | None = None
    """The compose project's `.env`, read at the first service (`compose_services`)."""

    def k8s_container(self, container: yaml.Node, step: bool = False) -> None:
        raise NotImplementedError  # (`yaml_manifest._Reader`'s)

    def walk(self, buffer: ShellBuffer, env: dict[str, Word], image: yaml.Node | None) -> None:
        raise NotImplementedError  # (`yaml_manifest._Reader`'s: the launches a buffer holds)

    def set_gpus(self, first: int, gpus: Word | None) -> None:
        raise NotImplementedError  # (`yaml_manifest._Reader`'s: the GPUs of the launches from `first`)
