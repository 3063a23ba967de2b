"""CI pipelines whose job scripts start SGLang: GitLab CI and Azure Pipelines.

A GitLab CI job (a top-level mapping with `script:`) runs its `before_script:` then `script:`
lines one after another in one shell, with `variables:` (the pipeline's, then the job's) set,
in the job's `image:` (or `default: image:` / a top-level `image:`): the image picks the
SGLang release as a `docker run` image does. An Azure Pipelines step's `script:`/`bash:`
(under `steps:`, at any level of `stages:`/`jobs:`) runs in bash with its `env:`; the
pipeline's `$(name)` macros are filled in before the shell runs, so they are unknown values.
Both go through the shell front-end with every character's file position.
"""

from __future__ import annotations

import yaml

from speclint.core.words import Word
from speclint.frontends.manifests.yaml_nodes import get, mapping_pairs
from speclint.frontends.shell.embedded import ShellBuffer
from speclint.frontends.shell.pieces import Piece

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from speclint.frontends.manifests.yaml_nodes import NodeReader

_GITLAB_SCRIPTS = ("before_script", "script")
_AZURE_SHELL_KEYS = ("script", "bash")


def read_ci_jobs(reader: NodeReader, root: yaml.Node) -> bool:
    """Read `root` when it is a GitLab CI pipeline or an Azure pipeline; False otherwise."""
    if not isinstance(root, yaml.MappingNode):
        return False
    jobs = [job for _, job in mapping_pairs(root) if _lines(get(job, "script"))]
    if jobs:
        _gitlab(reader, root, jobs)
        return True
    steps = _azure_steps(root, 0)
    for step, script in steps:
        env = _mapping_env(reader, get(step, "env"), {}, "Azure Pipelines step")
        _walk(reader, [script], env, None, azure=True)
    return bool(steps)


def _gitlab(reader: NodeReader, root: yaml.MappingNode, jobs: list[yaml.Node]) -> None:
    pipeline_env = _mapping_env(reader, get(root, "variables"), {}, "GitLab CI pipeline")
    default_image = _image(get(get(root, "default"), "image")) or _image(get(root, "image"))
    for job in jobs:
        env = _mapping_env(reader, get(job, "variables"), pipeline_env, "GitLab CI job")
        lines = [line for key in _GITLAB_SCRIPTS for line in _lines(get(job, key))]
        _walk(reader, lines, env, _image(get(job, "image")) or default_image, azure=False)


def _lines(node: yaml.Node | None) -> list[yaml.ScalarNode]:
    """A `script:` as its lines: a string, or a list of strings (a nested list, as an
    anchor `- *setup` gives, is flattened one level, as GitLab does)."""
    if isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:str":
        return [node]
    if not isinstance(node, yaml.SequenceNode):
        return []
    lines: list[yaml.ScalarNode] = []
    for item in node.value:
        if isinstance(item, yaml.ScalarNode):
            lines.append(item)
        elif isinstance(item, yaml.SequenceNode):
            lines.extend(inner for inner in item.value if isinstance(inner, yaml.ScalarNode))
    return lines


def _azure_steps(node: yaml.Node, depth: int) -> list[tuple[yaml.Node, yaml.ScalarNode]]:
    """(step, script) for every `steps:` item with a `script:`/`bash:` string, wherever the
    pipeline nests it (`stages:` -> `jobs:` -> `steps:`)."""
    if depth > 6 or not isinstance(node, yaml.MappingNode):
        return []
    found: list[tuple[yaml.Node, yaml.ScalarNode]] = []
    for key, value in mapping_pairs(node):
        if not isinstance(key, yaml.ScalarNode):
            continue
        if key.value == "steps" and isinstance(value, yaml.SequenceNode):
            for step in value.value:
                for name in _AZURE_SHELL_KEYS:
                    script = get(step, name)
                    if isinstance(script, yaml.ScalarNode):
                        found.append((step, script))
        elif key.value in ("stages", "jobs") and isinstance(value, yaml.SequenceNode):
            for item in value.value:
                found.extend(_azure_steps(item, depth + 1))
    return found


def _image(node: yaml.Node | None) -> yaml.ScalarNode | None:
    """`image: NAME` or `image: {name: NAME, entrypoint: [...]}`."""
    if isinstance(node, yaml.MappingNode):
        node = get(node, "name")
    return node if isinstance(node, yaml.ScalarNode) and node.value else None


def _mapping_env(
    reader: NodeReader, node: yaml.Node | None, outer: dict[str, Word], where: str
) -> dict[str, Word]:
    """`NAME: value` pairs (GitLab's `NAME: {value: ..., description: ...}` too) over `outer`."""
    env = dict(outer)
    if not isinstance(node, yaml.MappingNode):
        return env
    for key, value in mapping_pairs(node):
        if not isinstance(key, yaml.ScalarNode):
            continue
        given = get(value, "value") if isinstance(value, yaml.MappingNode) else value
        span = reader.span(given if given is not None else key)
        if isinstance(given, yaml.ScalarNode) and given.tag != "tag:yaml.org,2002:null":
            env[key.value] = Word(given.value, span, span)
        else:
            reason = f"{key.value} has no value in this {where} (it is given when the pipeline runs)"
            env[key.value] = Word(None, span, span, dynamic_reason=reason)
    return env


def _walk(
    reader: NodeReader,
    lines: list[yaml.ScalarNode],
    env: dict[str, Word],
    image: yaml.ScalarNode | None,
    *,
    azure: bool,
    fill: Callable[[list[Piece]], list[Piece]] | None = None,
) -> None:
    """The lines, one after another, through the shell front-end in one shell (`fill`: what
    the tool fills in before the shell runs)."""
    if not any("sglang" in line.value for line in lines):
        return
    buffer = ShellBuffer(reader.text, reader.starts, reader.budget)
    for line in lines:
        pieces = reader.scalar_pieces(line)
        buffer.add_code(_macros_unknown(pieces) if azure else fill(pieces) if fill else pieces)
        end = line.end_mark.index
        buffer.add_code([Piece("\n", end, end)])
    count = len(reader.result.launches)
    image_info = (image.value, reader.span(image)) if image is not None else None
    buffer.walk(reader.path, reader.result, env, image_info, unit_reader=reader.unit_reader())
    for launch in reader.result.launches[count:]:
        for name, word in env.items():
            launch.env.setdefault(name, word)


def _macros_unknown(pieces: list[Piece]) -> list[Piece]:
    """Azure's `$(name)` and `${{ ... }}` are filled in before bash runs: unknown values."""
    from speclint.frontends.manifests.expressions import expressions_unknown

    return expressions_unknown(
        pieces,
        (("${{", "}}"), ("$(", ")")),
        lambda shown: f"`{shown}` is an Azure Pipelines expression, known only when the pipeline runs",
    )
