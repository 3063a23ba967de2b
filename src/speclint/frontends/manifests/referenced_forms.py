"""Launch forms of a YAML document that the container search alone does not read as they run,
read before it (each marks what it read, so the search skips it): Hydra/OmegaConf strings
(`hydra_configs`, and a group file's composed with this one: `hydra_composed`), RoleBasedGroup roles built from role templates (`role_templates`) or with
leader and worker patches (`rbg_leader_worker`), and KServe
models merged into their ServingRuntime's container (`kserve_models`)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import yaml

    from speclint.frontends.manifests.container_reader import ContainerReader as _Reader


def read_referenced_forms(reader: _Reader, root: yaml.Node) -> None:
    text = reader.text
    if "${" in text:
        from speclint.frontends.manifests.hydra_configs import read_hydra_config

        read_hydra_config(reader, root)
    if "defaults" in text and "sglang" in text.lower():  # a config group file composed with this one
        from speclint.frontends.manifests.hydra_composed import read_composed_groups

        read_composed_groups(reader, root)
    if "templateRef" in text:
        from speclint.frontends.manifests.role_templates import read_role_templates

        read_role_templates(reader, root)
    if "TemplatePatch" in text or "patchLeaderTemplate" in text or "patchWorkerTemplate" in text:
        from speclint.frontends.manifests.rbg_leader_worker import read_leader_worker_patches

        read_leader_worker_patches(reader, root)
    if "InferenceService" in text:
        from speclint.frontends.manifests.kserve_models import read_model

        read_model(reader, root)
