"""CI and task-runner configs whose command keys start SGLang: Buildkite pipelines, CircleCI
configs, Taskfiles (go-task) and Gitpod workspaces. Each command goes through the shell
front-end with every character's file position, as `ci_jobs` hands GitLab's.

- Buildkite (`.buildkite/pipeline.yml`: a top-level `steps:` list whose items have
  `command:`/`commands:`; one level of `group:` steps): a step's commands run one after another
  in one shell, with the pipeline's then the step's `env:`, in the `image:` of a `docker#...`
  plugin when it names one.
- CircleCI (`.circleci/config.yml`: `jobs:` whose jobs have `steps:`): each `run:` step (a
  string, or `command:` with its own `environment:`) is its own shell, with the job's
  `environment:`, in the job's first `docker:` image.
- Taskfile (`Taskfile.yml`: `version:` and a `tasks:` mapping): each of a task's `cmds:` (a
  string or `cmd:`; or its `cmd:`) is its own shell, with the file's then the task's `env:`;
  Task fills `{{.NAME}}` from `vars:` before the shell runs (a literal string value is used,
  anything else is an unknown value).
- Gitpod (`.gitpod.yml`: a `tasks:` list whose items have `before:`/`init:`/`command:`): a
  task's `before`, `init` and `command` run one after another in one terminal, with its `env:`,
  in the workspace `image:`.
"""

from __future__ import annotations

import yaml

from speclint.frontends.manifests.ci_jobs import _image, _lines, _mapping_env, _walk
from speclint.frontends.manifests.yaml_nodes import get, mapping_pairs

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from speclint.frontends.manifests.yaml_nodes import NodeReader
    from speclint.frontends.shell.pieces import Piece

_GITPOD_KEYS = ("before", "init", "command")


def read_runner_config(reader: NodeReader, root: yaml.Node) -> bool:
    """Read `root` when it is one of the configs above; False otherwise."""
    if not isinstance(root, yaml.MappingNode):
        return False
    steps, jobs, tasks = get(root, "steps"), get(root, "jobs"), get(root, "tasks")
    if isinstance(steps, yaml.SequenceNode) and _buildkite_steps(steps):
        env = _mapping_env(reader, get(root, "env"), {}, "Buildkite pipeline")
        for step in _buildkite_steps(steps):
            step_env = _mapping_env(reader, get(step, "env"), env, "Buildkite step")
            lines = _lines(get(step, "command")) + _lines(get(step, "commands"))
            _walk(reader, lines, step_env, _plugin_image(step), azure=False)
        return True
    if isinstance(jobs, yaml.MappingNode) and any(_job_steps(job) for _, job in mapping_pairs(jobs)):
        for _, job in mapping_pairs(jobs):
            env = _mapping_env(reader, get(job, "environment"), {}, "CircleCI job")
            docker = get(job, "docker")
            first = docker.value[0] if isinstance(docker, yaml.SequenceNode) and docker.value else None
            image = _image(get(first, "image")) if first is not None else None
            for step in _job_steps(job):
                run = get(step, "run")
                command = get(run, "command") if isinstance(run, yaml.MappingNode) else run
                run_env = _mapping_env(reader, get(run, "environment"), env, "CircleCI step")
                _walk(reader, _lines(command), run_env, image, azure=False)
        return True
    if isinstance(tasks, yaml.MappingNode) and get(root, "version") is not None:
        _taskfile(reader, root, tasks)
        return True
    if isinstance(tasks, yaml.SequenceNode) and any(
        get(task, key) is not None for task in tasks.value for key in _GITPOD_KEYS
    ):
        image = _image(get(root, "image"))
        for task in tasks.value:
            env = _mapping_env(reader, get(task, "env"), {}, "Gitpod task")
            lines = [line for key in _GITPOD_KEYS for line in _lines(get(task, key))]
            _walk(reader, lines, env, image, azure=False)
        return True
    return False


def _buildkite_steps(steps: yaml.SequenceNode) -> list[yaml.Node]:
    found: list[yaml.Node] = []
    for step in steps.value:
        inner = get(step, "steps") if get(step, "group") is not None else None
        for one in inner.value if isinstance(inner, yaml.SequenceNode) else [step]:
            if get(one, "command") is not None or get(one, "commands") is not None:
                found.append(one)
    return found


def _plugin_image(step: yaml.Node) -> yaml.ScalarNode | None:
    """The `image:` of the step's `docker#vX` plugin (`plugins: [{docker#v5.12.0: {image: ...}}]`)."""
    plugins = get(step, "plugins")
    for plugin in plugins.value if isinstance(plugins, yaml.SequenceNode) else []:
        for key, options in mapping_pairs(plugin) if isinstance(plugin, yaml.MappingNode) else []:
            if isinstance(key, yaml.ScalarNode) and key.value.split("#")[0].endswith("docker"):
                return _image(get(options, "image"))
    return None


def _job_steps(job: yaml.Node) -> list[yaml.Node]:
    steps = get(job, "steps")
    if not isinstance(steps, yaml.SequenceNode):
        return []
    return [
        step for step in steps.value if isinstance(step, yaml.MappingNode) and get(step, "run") is not None
    ]


def _taskfile(reader: NodeReader, root: yaml.MappingNode, tasks: yaml.MappingNode) -> None:
    env = _mapping_env(reader, get(root, "env"), {}, "Taskfile")
    file_vars = _vars(get(root, "vars"), {})
    for _, task in mapping_pairs(tasks):
        if isinstance(task, yaml.MappingNode):
            task_env = _mapping_env(reader, get(task, "env"), env, "Taskfile task")
            names = _vars(get(task, "vars"), file_vars)
            listed = get(task, "cmds")
            commands = listed.value if isinstance(listed, yaml.SequenceNode) else [get(task, "cmd")]
        else:  # `serve: python -m ...` / `serve: [cmd, cmd]`
            task_env, names = env, file_vars
            commands = task.value if isinstance(task, yaml.SequenceNode) else [task]
        for command in commands:
            if isinstance(command, yaml.MappingNode):
                command = get(command, "cmd")
            for line in _lines(command):
                _walk(reader, [line], task_env, None, azure=False, fill=_templates(names))


def _vars(node: yaml.Node | None, outer: dict[str, str | None]) -> dict[str, str | None]:
    """`NAME: value` over `outer`: a string's text, None for anything else (`sh:`, a map)."""
    names = dict(outer)
    for key, value in mapping_pairs(node) if isinstance(node, yaml.MappingNode) else []:
        if isinstance(key, yaml.ScalarNode):
            literal = isinstance(value, yaml.ScalarNode) and value.tag != "tag:yaml.org,2002:null"
            names[key.value] = value.value if literal else None
    return names


def _templates(names: dict[str, str | None]) -> Callable[[list[Piece]], list[Piece]]:
    from speclint.frontends.manifests.expressions import expressions_unknown

    def known(expression: str) -> str | None:
        inner = expression[2:-2].strip()
        return names.get(inner[1:]) if inner.startswith(".") and inner[1:].isidentifier() else None

    def fill(pieces: list[Piece]) -> list[Piece]:
        return expressions_unknown(
            pieces,
            (("{{", "}}"),),
            lambda shown: f"`{shown}` is a Task template, filled in when the task runs",
            known,
        )

    return fill
