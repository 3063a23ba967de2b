"""Cloud task configs whose shell-script keys start SGLang: SkyPilot, dstack, Truss and KubeRay's
RayJob.

A SkyPilot task (`run:` plus `resources:`/`setup:`/`envs:`...) runs `setup` then `run`, each
with bash, with `envs:` set (a key without a value is given at launch time: unknown) and
`resources.image_id: docker:IMAGE` as the container. A dstack run configuration (`type:`
task, service or dev-environment) runs its `commands:` list one after another in one shell, with `env:`
(`NAME=VALUE` items or a mapping; a bare `NAME` is given at launch time) in `image:`. Both are
read by the shell front-end with every character's file position.

A Truss config (`config.yaml` with `docker_server: start_command:`) runs the start command as
shell code (truss's docker_server `server_wrapper.sh`: `bash -c "$START_COMMAND"`) in its
`base_image: image:`, with its `environment_variables:`.

A KubeRay `RayJob` (`apiVersion: ray.io/...`) submits `spec.entrypoint` to its Ray cluster as
`ray job submit` does (a shell command run on the head node, in the image of the head group's
first container), with the `env_vars` of `spec.runtimeEnvYAML` (Ray's runtime environment, a
YAML string: read as data, its values pointing at that key) set; the cluster's containers'
own commands (`ray start`) are not read.
"""

from __future__ import annotations

import yaml

from speclint.core.words import Word
from speclint.frontends.manifests.yaml_nodes import get, mapping_pairs
from speclint.frontends.shell.embedded import ShellBuffer
from speclint.frontends.shell.pieces import Piece

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.manifests.yaml_nodes import NodeReader

_SKYPILOT_KEYS = frozenset({"resources", "setup", "envs", "num_nodes", "service", "file_mounts", "workdir"})
_DSTACK_TYPES = frozenset({"task", "service", "dev-environment"})


def read_task_config(reader: NodeReader, root: yaml.Node) -> bool:
    """Read `root` when it is a SkyPilot task, a dstack run configuration or a Truss config;
    False otherwise."""
    if not isinstance(root, yaml.MappingNode):
        return False
    keys = {key.value: value for key, value in mapping_pairs(root) if isinstance(key, yaml.ScalarNode)}
    kind = keys.get("type")
    commands = keys.get("commands")
    if (
        isinstance(kind, yaml.ScalarNode)
        and kind.value in _DSTACK_TYPES
        and isinstance(commands, yaml.SequenceNode)
    ):
        env = _env(reader, keys.get("env"), "dstack")
        scripts = [[item for item in commands.value if isinstance(item, yaml.ScalarNode)]]
        image = keys.get("image")
        _walk(reader, scripts, env, image if isinstance(image, yaml.ScalarNode) else None, "")
        return True
    start = get(keys["docker_server"], "start_command") if "docker_server" in keys else None
    if isinstance(start, yaml.ScalarNode):  # a Truss config
        env = _env(reader, keys.get("environment_variables"), "Truss")
        image = get(keys.get("base_image"), "image") if "base_image" in keys else None
        _walk(reader, [[start]], env, image if isinstance(image, yaml.ScalarNode) else None, "")
        return True
    entrypoint = get(keys.get("spec"), "entrypoint") if _is_ray_job(keys) else None
    if isinstance(entrypoint, yaml.ScalarNode):
        spec = keys.get("spec")
        head = get(get(get(get(spec, "rayClusterSpec"), "headGroupSpec"), "template"), "spec")
        containers = get(head, "containers")
        first = (
            containers.value[0] if isinstance(containers, yaml.SequenceNode) and containers.value else None
        )
        image = get(first, "image")
        env = _runtime_env(reader, get(spec, "runtimeEnvYAML"))
        _walk(reader, [[entrypoint]], env, image if isinstance(image, yaml.ScalarNode) else None, "")
        return True
    run = keys.get("run")
    if isinstance(run, yaml.ScalarNode) and _SKYPILOT_KEYS & keys.keys():
        env = _env(reader, keys.get("envs"), "SkyPilot")
        import speclint.frontends.shell.sky_tasks as sky_tasks  # (`sky launch task.yaml --env`)

        if sky_tasks.CLI_ENV:
            env = {**env, **sky_tasks.CLI_ENV}
        setup = keys.get("setup")
        scripts = [[setup]] if isinstance(setup, yaml.ScalarNode) else []
        image_id = get(keys.get("resources"), "image_id") if "resources" in keys else None
        prefix = "docker:"
        image = (
            image_id if isinstance(image_id, yaml.ScalarNode) and image_id.value.startswith(prefix) else None
        )
        _walk(reader, [*scripts, [run]], env, image, prefix if image is not None else "")
        return True
    return False


def _is_ray_job(keys: dict[str, yaml.Node]) -> bool:
    kind, api = keys.get("kind"), keys.get("apiVersion")
    return (
        isinstance(kind, yaml.ScalarNode)
        and kind.value == "RayJob"
        and isinstance(api, yaml.ScalarNode)
        and api.value.startswith("ray.io/")
    )


def _runtime_env(reader: NodeReader, node: yaml.Node | None) -> dict[str, Word]:
    """The `env_vars` of a RayJob's `runtimeEnvYAML` (string values only, as Ray takes them),
    each at the key's value in the file."""
    if not isinstance(node, yaml.ScalarNode):
        return {}
    try:
        runtime = yaml.safe_load(node.value)
    except yaml.YAMLError:
        return {}
    env_vars = runtime.get("env_vars") if isinstance(runtime, dict) else None
    if not isinstance(env_vars, dict):
        return {}
    span = reader.span(node)
    return {
        name: Word(value, span, span)
        for name, value in env_vars.items()
        if isinstance(name, str) and isinstance(value, str)
    }


def _env(reader: NodeReader, node: yaml.Node | None, tool: str) -> dict[str, Word]:
    """`NAME: value` pairs, or `NAME=VALUE` items; a name without a value is unknown."""
    env: dict[str, Word] = {}
    pairs: list[tuple[str, yaml.Node, str | None]] = []
    if isinstance(node, yaml.MappingNode):
        for key, value in mapping_pairs(node):
            if isinstance(key, yaml.ScalarNode):
                known = isinstance(value, yaml.ScalarNode) and value.tag != "tag:yaml.org,2002:null"
                pairs.append((key.value, value, value.value if known else None))
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            if isinstance(item, yaml.ScalarNode):
                name, equals, value = item.value.partition("=")
                pairs.append((name, item, value if equals else None))
    for name, where, text in pairs:
        span = reader.span(where)
        reason = (
            None
            if text is not None
            else f"{name} has no value in this {tool} config (it is given at launch time)"
        )
        env[name] = Word(text, span, span, dynamic_reason=reason)
    return env


def _walk(
    reader: NodeReader,
    scripts: list[list[yaml.ScalarNode]],
    env: dict[str, Word],
    image: yaml.ScalarNode | None,
    image_prefix: str,
) -> None:
    """Each script (its lines one after another) through the shell front-end."""
    image_info = (image.value[len(image_prefix) :], reader.span(image)) if image is not None else None
    for lines in scripts:
        if not any("sglang" in line.value for line in lines):
            continue
        buffer = ShellBuffer(reader.text, reader.starts, reader.budget)
        for line in lines:
            buffer.add_code(reader.scalar_pieces(line))
            end = line.end_mark.index
            buffer.add_code([Piece("\n", end, end)])
        count = len(reader.result.launches)
        buffer.walk(reader.path, reader.result, env, image_info, unit_reader=reader.unit_reader())
        for launch in reader.result.launches[count:]:
            for name, word in env.items():
                launch.env.setdefault(name, word)
