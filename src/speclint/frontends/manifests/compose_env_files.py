"""A compose service's `env_file:` (Compose specification, `env_file`): files of `NAME=value`
lines whose values are the container's environment, under the service's `environment:`
(which wins for a name both set). A relative path is resolved from the compose file's
folder; the files are read from disk in the order listed, a later file's value winning, with
the dotenv syntax the project's `.env` has (`compose_env.parse_dotenv`). A value that
interpolates other variables is unknown, and so is every value of a file not on disk or not
readable: its names are not known, and the variables the command reads that nothing else
sets keep the reason they had. Each value points at the file's name in the compose file.
"""

from __future__ import annotations

import os

import yaml

from speclint.core.words import Word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from speclint.core.spans import Span


def service_env_files(
    node: yaml.Node | None, compose_path: str, span: Callable[[yaml.Node], Span]
) -> dict[str, Word]:
    """NAME -> its value's word, from the files `node` (the service's `env_file:`) names."""
    if node is None or not os.path.isfile(compose_path):
        return {}
    from speclint.frontends.manifests.compose_env import parse_dotenv
    from speclint.frontends.reading import read_named_file

    items = node.value if isinstance(node, yaml.SequenceNode) else [node]
    words: dict[str, Word] = {}
    for item in items:
        if isinstance(item, yaml.MappingNode):  # `- path: ./x.env` (`required: false` too)
            item = next(
                (v for k, v in item.value if isinstance(k, yaml.ScalarNode) and k.value == "path"),
                None,
            )
        if not isinstance(item, yaml.ScalarNode) or not item.value or "$" in item.value:
            continue
        content, _, _ = read_named_file(compose_path, item.value)
        if content is None:
            continue
        values = parse_dotenv(content)
        where = span(item)
        for name, text in values.items():
            reason = (
                None if text is not None else f"`{item.value}` (env_file) sets {name} from other variables"
            )
            words[name] = Word(text, where, where, dynamic_reason=reason)
    return words
