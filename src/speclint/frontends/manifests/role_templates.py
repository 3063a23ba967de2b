"""RoleBasedGroup (RBG, `workloads.x-k8s.io`, SGLang's Kubernetes operator) roles that take their
pod from a role template: `roles[].<pattern>.templateRef: {name, patch}`.

The RBG API (its `rbg-with-roletemplates` example and KEP-8 "template reference"; v1alpha1 writes
the patch beside the reference, `templateRef: {name}` + `templatePatch`) gives a role
the pod `template` of the `spec.roleTemplates` entry `templateRef.name` names, with `patch`
applied over it as a strategic merge patch: a container of the patch is merged into the
template's container of the same `name` (a field the patch sets replaces the template's; `env`
is merged by variable name), a container only the patch names is added. Each role's containers
are read as they run, merged, each field pointing where it is written. A template not in this
file leaves the container's image, and so its SGLang release, unknown: said in the release
speclint checks against, never guessed from the patch alone.
"""

from __future__ import annotations

import yaml

from speclint.frontends.manifests.yaml_nodes import get, mapping_pairs

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.manifests.container_reader import ContainerReader as ManifestReader

_PATTERNS = ("standalonePattern", "leaderWorkerPattern", "customComponentsPattern")


def read_role_templates(reader: ManifestReader, root: yaml.Node) -> None:
    """Read the roles of an RBG that reference role templates (each container merged with its
    template's), and mark what is read so the container search does not read it again."""
    if "templateRef" not in reader.text or not isinstance(root, yaml.MappingNode):
        return
    kind = get(root, "kind")
    spec = get(root, "spec")
    if not (isinstance(kind, yaml.ScalarNode) and kind.value == "RoleBasedGroup"):
        return
    templates = role_templates(spec)
    listed = get(spec, "roleTemplates")
    roles = get(spec, "roles")
    read_whole: set[str] = set()
    for role in roles.value if isinstance(roles, yaml.SequenceNode) else []:
        for pattern in _PATTERNS:
            reference = get(get(role, pattern), "templateRef")
            if pattern == "leaderWorkerPattern" and side_patches(get(role, pattern)):
                continue  # (each side's pod: `rbg_leader_worker`)
            if isinstance(reference, yaml.MappingNode):
                reader.seen.add(reference)
                _role(reader, reference, get(reference, "patch"), templates, read_whole)
        reference = get(role, "templateRef")  # v1alpha1: `templateRef: {name}` + `templatePatch`
        if isinstance(reference, yaml.MappingNode) and get(role, "template") is None:
            reader.seen.add(reference)
            patch = get(role, "templatePatch")
            if patch is not None:
                reader.seen.add(patch)
            _role(reader, reference, patch, templates, read_whole)
    if isinstance(listed, yaml.SequenceNode):
        for entry in listed.value:  # a template no role reads as a whole is not run alone
            name = get(entry, "name")
            if isinstance(name, yaml.ScalarNode) and name.value not in read_whole:
                reader.seen.add(entry)


def role_templates(spec: yaml.Node | None) -> dict[str, yaml.Node]:
    """The pod template of each `spec.roleTemplates` entry, by name."""
    templates: dict[str, yaml.Node] = {}
    listed = get(spec, "roleTemplates")
    for entry in listed.value if isinstance(listed, yaml.SequenceNode) else []:
        name = get(entry, "name")
        if isinstance(name, yaml.ScalarNode) and get(entry, "template") is not None:
            templates[name.value] = get(entry, "template") or entry
    return templates


def side_patches(pattern: yaml.Node | None) -> bool:
    """Whether a leader/worker pattern's leader or worker patch changes a container."""
    return any(
        _containers(get(get(pattern, key), "spec")) for key in ("leaderTemplatePatch", "workerTemplatePatch")
    )


def referenced_base(
    reference: yaml.MappingNode, templates: dict[str, yaml.Node]
) -> tuple[list[yaml.Node], str | None]:
    """The containers of the pod a `templateRef` gives (the template's, the reference's `patch`
    merged into them: RBG applies the role template, then `templateRef.patch`, then a leader or
    worker patch), and, when the template is not in this file, why the image is not known."""
    name_node = get(reference, "name")
    name = name_node.value if isinstance(name_node, yaml.ScalarNode) else ""
    template = templates.get(name)
    base = _containers(get(template, "spec")) if template is not None else []
    patched = _containers(get(get(reference, "patch"), "spec"))
    names = [_name(container) for container in patched]
    merged = [container for container in base if _name(container) not in names]
    for container in patched:
        match = next((c for c in base if _name(c) == _name(container)), None)
        merged.append(_merged(match, container) if match is not None else container)
    unknown = None
    if template is None:
        unknown = (
            f"the RoleBasedGroup role's container comes from the role template `{name}`, which "
            "is not in this file, so the SGLang it runs is not known"
        )
    return merged, unknown


def _role(
    reader: ManifestReader,
    reference: yaml.MappingNode,
    patch: yaml.Node | None,
    templates: dict[str, yaml.Node],
    read_whole: set[str],
) -> None:
    name_node = get(reference, "name")
    name = name_node.value if isinstance(name_node, yaml.ScalarNode) else ""
    template = templates.get(name)
    base = _containers(get(template, "spec")) if template is not None else []
    patched = _containers(get(patch, "spec"))
    if template is not None and not patched:
        read_whole.add(name)  # (read by the container search, once for every role)
        return
    names = [_name(container) for container in patched]
    for container in base:
        if _name(container) not in names:
            _read(reader, container, None, None)
    for container in patched:
        match = next((c for c in base if _name(c) == _name(container)), None)
        merged = _merged(match, container) if match is not None else container
        unknown = None
        if template is None and get(container, "image") is None:
            unknown = (
                f"the RoleBasedGroup role's container comes from the role template `{name}`, which "
                "is not in this file, so the SGLang it runs is not known"
            )
        _read(reader, merged, unknown, name_node)


def _containers(spec: yaml.Node | None) -> list[yaml.Node]:
    listed = get(spec, "containers")
    return (
        [c for c in listed.value if isinstance(c, yaml.MappingNode)]
        if isinstance(listed, yaml.SequenceNode)
        else []
    )


def _name(container: yaml.Node) -> str | None:
    name = get(container, "name")
    return name.value if isinstance(name, yaml.ScalarNode) else None


def _merged(base: yaml.Node, patch: yaml.Node) -> yaml.MappingNode:
    """The patch's container merged into the template's (strategic merge: the patch's fields
    replace the template's, `env` merged by name), each value the node where it is written."""
    assert isinstance(base, yaml.MappingNode) and isinstance(patch, yaml.MappingNode)
    fields: dict[str, tuple[yaml.Node, yaml.Node]] = {}
    for key, value in [*mapping_pairs(base), *mapping_pairs(patch)]:
        if isinstance(key, yaml.ScalarNode):
            fields[key.value] = (key, value)
    env_base, env_patch = get(base, "env"), get(patch, "env")
    if isinstance(env_base, yaml.SequenceNode) and isinstance(env_patch, yaml.SequenceNode):
        patched = {_name(item) for item in env_patch.value}
        items = [item for item in env_base.value if _name(item) not in patched] + list(env_patch.value)
        key = fields["env"][0]
        fields["env"] = (
            key,
            yaml.SequenceNode(env_patch.tag, items, env_base.start_mark, env_patch.end_mark),
        )
    return yaml.MappingNode(patch.tag, list(fields.values()), patch.start_mark, patch.end_mark)


def _read(reader: ManifestReader, container: yaml.Node, unknown: str | None, where: yaml.Node | None) -> None:
    from speclint.sglang.flags.versions import UNKNOWN_RELEASE

    reader.seen.add(container)
    count = len(reader.result.launches)
    reader.k8s_container(container)
    if unknown is None:
        return
    for launch in reader.result.launches[count:]:
        launch.image = UNKNOWN_RELEASE + unknown
        launch.image_span = reader.span(where) if where is not None else launch.span
