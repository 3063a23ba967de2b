"""RoleBasedGroup (RBG, SGLang's Kubernetes operator) roles in the leader/worker pattern whose
leader and workers differ by a patch: `leaderWorkerPattern: {template, leaderTemplatePatch,
workerTemplatePatch}` (API v1alpha2), `template` + `leaderWorkerSet: {patchLeaderTemplate,
patchWorkerTemplate}` (v1alpha1).

RBG's controller builds the leader's pod as `patchPodTemplate(role.GetTemplate(),
lwp.LeaderTemplatePatch)` and the workers' with the worker patch: a strategic merge patch of
the pod template (`strategicpatch.StrategicMergePatch(..., &corev1.PodTemplateSpec{})`), which
merges a container of the patch into the template's container of the same `name` (a field the
patch sets replaces the template's, `env` merged by variable name) and adds a container only
the patch names (`role_templates._merged`, the same merge). Each side's containers are read
as they run: the image and environment of the base template, the command of the patch, each
field pointing where it is written. A base container a side leaves unpatched runs as written
(read once for both sides). A base from `templateRef` is the role template's pod with the
reference's `patch` merged in first (`role_templates.referenced_base`: RBG's order is role
template, `templateRef.patch`, then the leader's or the workers' patch); a template not in this
file leaves the image, and so the SGLang release, unknown, said at the template's name.
"""

from __future__ import annotations

import yaml

from speclint.frontends.manifests.role_templates import (
    _containers,
    _merged,
    _name,
    _read,
    referenced_base,
    role_templates,
)
from speclint.frontends.manifests.yaml_nodes import get

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.manifests.container_reader import ContainerReader as ManifestReader

_FORMS = (
    ("leaderWorkerPattern", "leaderTemplatePatch", "workerTemplatePatch"),  # v1alpha2
    ("leaderWorkerSet", "patchLeaderTemplate", "patchWorkerTemplate"),  # v1alpha1
)


def read_leader_worker_patches(reader: ManifestReader, root: yaml.Node) -> None:
    """Read the leader's and the workers' containers of each leader/worker role whose patches
    change a container, and mark the role read so the container search does not read it."""
    if not isinstance(root, yaml.MappingNode):
        return
    kind = get(root, "kind")
    if not (isinstance(kind, yaml.ScalarNode) and kind.value == "RoleBasedGroup"):
        return
    roles = get(get(root, "spec"), "roles")
    for role in roles.value if isinstance(roles, yaml.SequenceNode) else []:
        for form, leader, worker in _FORMS:
            pattern = get(role, form)
            patches = [get(pattern, leader), get(pattern, worker)]
            if not any(_containers(get(patch, "spec")) for patch in patches):
                continue  # the same pod for both: the container search reads it once
            template = get(pattern, "template") if form == "leaderWorkerPattern" else get(role, "template")
            reference = get(pattern, "templateRef") if form == "leaderWorkerPattern" else None
            unknown = where = None
            if template is not None:
                base = _containers(get(template, "spec"))
                reader.seen.add(template)
            elif isinstance(reference, yaml.MappingNode):
                base, unknown = referenced_base(reference, role_templates(get(root, "spec")))
                where = get(reference, "name")
            else:
                continue
            _role(reader, base, patches, unknown, where)
            assert pattern is not None  # (a patch was found in it)
            reader.seen.add(pattern)


def _role(
    reader: ManifestReader,
    base: list[yaml.Node],
    patches: list[yaml.Node | None],
    unknown: str | None,
    where: yaml.Node | None,
) -> None:
    """Each side's containers; `unknown`: why the image is not known where a container has none
    (a role template not in this file), said at `where` (the template's name)."""
    unpatched_read: set[int] = set()
    for patch in patches:
        patched = _containers(get(patch, "spec"))
        names = [_name(container) for container in patched]
        for container in base:
            if _name(container) not in names and id(container) not in unpatched_read:
                unpatched_read.add(id(container))
                _read(reader, container, _unknown(container, unknown), where)
        for container in patched:
            match = next((c for c in base if _name(c) == _name(container)), None)
            merged = _merged(match, container) if match is not None else container
            _read(reader, merged, _unknown(merged, unknown), where)


def _unknown(container: yaml.Node, unknown: str | None) -> str | None:
    return unknown if get(container, "image") is None else None
