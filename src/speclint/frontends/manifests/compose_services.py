"""Compose services: `entrypoint` + `command`, `environment`, `env_file` and `image`, each as
Compose interpolates it (`compose_env`), read as one launch by the YAML reader
(`yaml_manifest`)."""

from __future__ import annotations

import yaml

from speclint.core.words import Word
from speclint.frontends.manifests.yaml_nodes import get, mapping_pairs
from speclint.frontends.shell.embedded import ArgvItem, ShellBuffer

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.manifests.container_reader import ContainerReader


def read_compose_service(reader: ContainerReader, service: yaml.Node) -> None:
    """A compose service: `entrypoint` + `command` (a string split into words, a list
    word by word), `environment` and `image`, each value as Compose interpolates it
    (`compose_env`: `${TP:-2}`, `$$`, the project's `.env`)."""
    from speclint.frontends.manifests.compose_env import (
        after_equals,
        env_word,
        interpolate,
        interpolated_image,
        newlines_as_blanks,
        project_dotenv,
    )

    dotenv = reader.dotenv if reader.dotenv is not None else project_dotenv(reader.path)
    reader.dotenv = dotenv
    from speclint.frontends.manifests.compose_env_files import service_env_files

    said: list[tuple[int, int, str]] = []  # the defaults the environment decides
    env: dict[str, Word] = service_env_files(get(service, "env_file"), reader.path, reader.span)
    environment = get(service, "environment")
    if isinstance(environment, yaml.MappingNode):
        for key, value in mapping_pairs(environment):
            if isinstance(value, yaml.ScalarNode) and isinstance(key, yaml.ScalarNode):
                env[key.value] = env_word(
                    interpolate(reader.scalar_pieces(value), dotenv, said), reader.span(value)
                )
    elif isinstance(environment, yaml.SequenceNode):
        for item in environment.value:
            if isinstance(item, yaml.ScalarNode) and "=" in item.value:
                name = item.value.partition("=")[0]
                pieces = interpolate(reader.scalar_pieces(item), dotenv, said)
                env[name] = env_word(after_equals(pieces), reader.span(item))
    entrypoint, command = get(service, "entrypoint"), get(service, "command")
    buffer = ShellBuffer(reader.text, reader.starts, reader.budget)
    for part in (entrypoint, command):
        if isinstance(part, yaml.ScalarNode):
            # compose splits a string command into words (shlex); the shell parser
            # splits it the same way for the plain words a launch uses
            buffer.add_space()
            buffer.add_code(newlines_as_blanks(interpolate(reader.scalar_pieces(part), dotenv, said)))
            buffer.newlines_end_commands = False
        else:
            for item in reader.words(part):
                buffer.add_word(ArgvItem(interpolate(item.pieces, dotenv, said), item.splat))
    from speclint.frontends.manifests.gpus import compose_gpu_count

    count = len(reader.result.launches)
    image = get(service, "image")
    if isinstance(image, yaml.ScalarNode):
        image = interpolated_image(image, interpolate(reader.scalar_pieces(image), dotenv))
    reader.walk(buffer, env, image)
    if said:
        _said_defaults(reader, count, said)
    reader.set_gpus(count, compose_gpu_count(reader, service))


def _said_defaults(reader: ContainerReader, first: int, said: list[tuple[int, int, str]]) -> None:
    """The service's launches (from `first`), each word whose value is a default Compose
    uses when the environment leaves the variable unset saying so (`core.said_values`)."""
    from speclint.core.said_values import said_on
    from speclint.frontends.shell.pieces import span_of

    starts = reader.starts
    placed = [(span_of(starts, begin, end), made) for begin, end, made in said]
    for launch in reader.result.launches[first:]:
        launch.args = said_on(launch.args, placed)
        env = said_on(list(launch.env.values()), placed)
        launch.env = dict(zip(launch.env, env))
