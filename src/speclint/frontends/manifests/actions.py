"""GitHub Actions workflows: `run:` steps through the shell front-end, positions in the YAML.

A step's `run:` script (plain, quoted or a `|`/`>` block scalar) keeps every character's
file position. `env:` at workflow, job and step level (the inner one wins) is the script's
environment; a job's `container:` image is the image the step runs in (it picks the SGLang
version as a `docker run` image does). `${{ ... }}` expressions are filled in by GitHub
before the shell runs: speclint cannot know them, so they are unknown values. Steps with a
non-POSIX `shell:` (pwsh, cmd, python) are not read as shell. `${{ matrix.NAME }}` is read
once per value the job's `strategy.matrix` gives it (`actions_matrix`).
"""

from __future__ import annotations

import re

import yaml

from speclint.core.words import Word
from speclint.frontends.manifests.actions_matrix import (
    MATRIX_REF,
    Reading,
    job_matrix,
    mark,
    readings,
    substitute,
    unknown_reason,
)
from speclint.frontends.manifests.yaml_nodes import get, mapping_pairs
from speclint.frontends.shell.embedded import ShellBuffer
from speclint.frontends.shell.pieces import Piece

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeGuard

    from speclint.frontends.manifests.yaml_nodes import NodeReader

_POSIX_SHELLS = ("bash", "sh")


def is_workflow(root: yaml.Node, path: str) -> TypeGuard[yaml.MappingNode]:
    """A workflow file: under `.github/workflows/`, a mapping with `jobs:` and `on:`, or one
    whose `jobs:` hold `steps:` with a `run:` (an excerpt shown without its trigger)."""
    if not isinstance(root, yaml.MappingNode):
        return False
    keys = {key.value for key, _ in root.value if isinstance(key, yaml.ScalarNode)}
    in_folder = "/.github/workflows/" in "/" + path.replace("\\", "/")
    if not in_folder and "on" not in keys and _is_circleci(root, path):
        return False  # (`runner_configs`)
    return "jobs" in keys and (in_folder or "on" in keys or _has_run_steps(get(root, "jobs")))


def _is_circleci(root: yaml.MappingNode, path: str) -> bool:
    """A CircleCI config: under `.circleci/`, or jobs naming a `docker:`/`machine:` executor."""
    if "/.circleci/" in "/" + path.replace("\\", "/"):
        return True
    jobs = get(root, "jobs")
    return isinstance(jobs, yaml.MappingNode) and any(
        get(job, "docker") is not None or get(job, "machine") is not None for _, job in mapping_pairs(jobs)
    )


def _has_run_steps(jobs: yaml.Node | None) -> bool:
    if not isinstance(jobs, yaml.MappingNode):
        return False
    for _name, job in mapping_pairs(jobs):
        steps = get(job, "steps")
        if isinstance(steps, yaml.SequenceNode) and any(get(step, "run") for step in steps.value):
            return True
    return False


def read_workflow(reader: NodeReader, root: yaml.MappingNode) -> None:
    workflow_env = _env(reader, get(root, "env"), {})
    default_shell = _shell_of(get(get(root, "defaults") or root, "run"))
    jobs = get(root, "jobs")
    if not isinstance(jobs, yaml.MappingNode):
        return
    for _name, job in mapping_pairs(jobs):
        job_env = _env(reader, get(job, "env"), workflow_env)
        job_shell = _shell_of(get(get(job, "defaults") or job, "run")) or default_shell
        image = _image(get(job, "container"))
        steps = get(job, "steps")
        if not isinstance(steps, yaml.SequenceNode):
            continue
        matrix = job_matrix(job)
        for step in steps.value:
            run = get(step, "run")
            if not isinstance(run, yaml.ScalarNode) or "sglang" not in run.value:
                continue
            shell = _shell_of(step) or job_shell
            if shell is not None and shell.split()[0].rsplit("/", 1)[-1] not in _POSIX_SHELLS:
                continue
            from_matrix = _matrix_env([get(job, "env"), get(step, "env")])
            texts = [run.value] + [node.value for node in (image, *from_matrix.values()) if node is not None]
            choices = readings(reader, matrix, texts)
            for index, reading in enumerate(choices):  # one reading per matrix value the step reads
                env = _env(reader, get(step, "env"), job_env)
                for name, node in from_matrix.items():
                    filled = substitute(node.value, reading)
                    if filled is not None:
                        env[name] = Word(filled, reader.span(node), reader.span(node))
                buffer = ShellBuffer(reader.text, reader.starts, reader.budget)
                buffer.add_code(_expressions_unknown(reader.scalar_pieces(run), env, reading))
                count = len(reader.result.launches)
                image_info = None
                if image is not None:
                    filled = substitute(image.value, reading) if "matrix." in image.value else None
                    image_info = (filled or image.value, reader.span(image))
                buffer.walk(reader.path, reader.result, env, image_info, unit_reader=reader.unit_reader())
                for launch in reader.result.launches[count:]:
                    for name, word in env.items():
                        launch.env.setdefault(name, word)
                if len(choices) > 1:
                    mark(reader.result.launches[count:], reading, index, len(choices))


def _matrix_env(mappings: list[yaml.Node | None]) -> dict[str, yaml.ScalarNode]:
    """The `env:` values (the job's, then the step's: the inner one wins) that read the matrix
    (`TP: ${{ matrix.tp }}`): each reading of the step fills them in."""
    found: dict[str, yaml.ScalarNode] = {}
    for mapping in mappings:
        if isinstance(mapping, yaml.MappingNode):
            for key, value in mapping_pairs(mapping):
                if isinstance(key, yaml.ScalarNode):
                    found.pop(key.value, None)
                    if isinstance(value, yaml.ScalarNode) and "matrix." in value.value:
                        found[key.value] = value
    return found


def _shell_of(node: yaml.Node | None) -> str | None:
    shell = get(node, "shell") if node is not None else None
    return shell.value if isinstance(shell, yaml.ScalarNode) and shell.value else None


def _image(container: yaml.Node | None) -> yaml.ScalarNode | None:
    if isinstance(container, yaml.ScalarNode):
        return container
    image = get(container, "image") if container is not None else None
    return image if isinstance(image, yaml.ScalarNode) else None


def _env(reader: NodeReader, node: yaml.Node | None, outer: dict[str, Word]) -> dict[str, Word]:
    from speclint.frontends.manifests.expressions import mapping_env

    return mapping_env(
        reader.span,
        node,
        outer,
        ("${{",),
        lambda name: f"{name} is set by a GitHub Actions expression, known only when the workflow runs",
    )


_ENV_CONTEXT = re.compile(r"\$\{\{\s*env\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")


def _expressions_unknown(pieces: list[Piece], env: dict[str, Word], reading: Reading) -> list[Piece]:
    """`${{ ... }}` becomes an unknown value (GitHub fills it in before the shell runs), but
    `${{ env.NAME }}` is the value the workflow, job or step `env:` gives NAME (GitHub's `env`
    context) when the file writes it literally, and `${{ matrix.NAME }}` the value this
    `reading` of the job's matrix gives it (`actions_matrix`)."""
    from speclint.frontends.manifests.expressions import expressions_unknown

    def known(expression: str) -> str | None:
        match = _ENV_CONTEXT.fullmatch(expression)
        if match is None:
            matrix = MATRIX_REF.fullmatch(expression)
            return reading.values.get(matrix.group(1)) if matrix is not None else None
        word = env.get(match.group(1))
        return word.text if word is not None else None

    def describe(shown: str) -> str:
        matrix = MATRIX_REF.fullmatch(shown)
        why = unknown_reason(reading, matrix.group(1)) if matrix is not None else None
        if why is not None:
            return f"`{shown}` is a value of the job's matrix: {why}"
        return f"`{shown}` is a GitHub Actions expression, known only when the workflow runs"

    return expressions_unknown(pieces, (("${{", "}}"),), describe, known)
