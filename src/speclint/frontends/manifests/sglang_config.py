"""SGLang's own config file (`--config FILE.yaml`: a mapping whose keys are flag names).

`read_config` turns such a mapping into entries (key, value as `yaml.safe_load` gives it to
SGLang, and where both are written); `speclint.sglang.flags.config_merge` turns the entries into
flags as the checked release does. `attach_config_files` follows a launch's `--config` to
the file on disk (relative to the linted file's folder, then the working directory).
Positions of what the file says point into that file (`Span.file`).
"""

from __future__ import annotations

import os

import yaml

from speclint.core.config_files import ConfigEntry, ConfigFile
from speclint.core.launches import Launch
from speclint.core.spans import Span
from speclint.frontends.manifests.yaml_nodes import Loader
from speclint.frontends.recognise import DEFAULT_ENTRY
from speclint.frontends.shell.pieces import line_starts, span_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypeGuard

MAX_VALUE_CHARS = 64 * 1024
"""A value whose text would be longer (an alias-built list) is not followed."""


def read_config(
    text: str,
    path: str,
    node: yaml.MappingNode | None = None,
    move: Callable[[Span], Span] | None = None,
    other_file: bool = True,
) -> ConfigFile:
    """The entries of a config file's text (or of `node`, a mapping already composed from
    `text`, e.g. a `sglang_config:` section). `move` maps spans of `text` to the file;
    `other_file`: the spans are marked as being in `path`, not in the file being linted."""
    starts = line_starts(text)
    config = ConfigFile(path)

    def span(n: yaml.Node) -> Span:
        found = span_of(starts, n.start_mark.index, max(n.end_mark.index, n.start_mark.index + 1))
        found = move(found) if move is not None else found
        return Span(found.line, found.column, found.end_line, found.end_column, path if other_file else None)

    try:
        loader = Loader(text if node is None else "")  # refuses NULs and control characters
    except yaml.YAMLError as error:
        config.problem = f"SGLang cannot load the config file: {getattr(error, 'reason', None) or error}"
        config.problem_span = Span(1, 1, 1, 2, path if other_file else None)
        return config
    try:
        if node is None:
            root = loader.get_single_node()
            if root is None:
                return config  # an empty file: SGLang merges nothing
            if not isinstance(root, yaml.MappingNode):
                config.problem = "SGLang stops with 'Config file must contain a dictionary at root level'"
                config.problem_span = span(root)
                return config
            node = root
        for key, value in node.value:
            if not isinstance(key, yaml.ScalarNode):
                continue
            config.entries.append(_entry(loader, key, value, span))
    except RecursionError:
        config.problem = "the config file is nested too deeply for speclint to follow"
        config.problem_span = Span(1, 1, 1, 2, path)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        config.problem = f"SGLang cannot load the config file: {getattr(error, 'problem', None) or error}"
        config.problem_span = (
            Span(mark.line + 1, mark.column + 1, mark.line + 1, mark.column + 2, path)
            if mark is not None and move is None
            else Span(1, 1, 1, 2, path)
        )
    finally:
        loader.dispose()
    return config


def _entry(
    loader: yaml.SafeLoader, key: yaml.ScalarNode, value: yaml.Node, span: Callable[[yaml.Node], Span]
) -> ConfigEntry:
    problem = None
    try:
        constructed = loader.construct_object(value, deep=True)
        if not _small(constructed):
            constructed, problem = None, f"the value of {key.value!r} is too long to follow"
    except (yaml.YAMLError, RecursionError, ValueError, TypeError):
        constructed, problem = None, f"the value of {key.value!r} cannot be read as YAML data"
    items = tuple(span(item) for item in value.value) if isinstance(value, yaml.SequenceNode) else ()
    return ConfigEntry(str(key.value), span(key), constructed, span(value), items, problem)


def _small(value: object) -> bool:
    """Whether the value's text stays under MAX_VALUE_CHARS, found without writing it (an
    alias-built list can stand for billions of items, or hold itself)."""
    budget, stack, seen = MAX_VALUE_CHARS, [value], 0
    while stack:
        item = stack.pop()
        seen += 1
        if seen > 4096:
            return False
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple, set)):
            stack.extend(item)
        else:
            budget -= len(item) if isinstance(item, (str, bytes)) else 24
        if budget < 0:
            return False
    return True


def looks_like_config(node: yaml.Node | None) -> TypeGuard[yaml.MappingNode]:
    """Conservatively, a mapping written as SGLang's config: the model among its keys, and
    at least two keys and two thirds of them flags (or, for words with a dash, abbreviations of flags) of the newest
    bundled release or of 0.5.6.post2, so that a config with typos is still found."""
    if not isinstance(node, yaml.MappingNode) or len(node.value) < 2:
        return False
    keys = [k.value for k, _ in node.value if isinstance(k, yaml.ScalarNode) and isinstance(k.value, str)]
    if not any(k.replace("_", "-") in ("model-path", "model") for k in keys):
        return False
    known = [k for k in keys if _flag_like("--" + k.replace("_", "-"))]
    return len(known) >= 2 and len(known) * 3 >= len(keys) * 2


def _flag_like(option: str) -> bool:
    from bisect import bisect_left

    from ...sglang.flags.schema import load_schema, newest_version

    for version in (newest_version(), "0.5.6.post2"):
        options = load_schema(version).sorted_options
        at = bisect_left(options, option)
        if at < len(options) and (
            options[at] == option or (options[at].startswith(option) and "-" in option[2:])
        ):
            return True
    return False


def attach_config_files(launches: list[Launch], path: str) -> None:
    """For each launch with `--config FILE` (the exact token, as SGLang looks for it), read
    FILE when it is on disk. Never raises: a missing file leaves the launch as it was."""
    for launch in launches:
        if launch.kwargs_style or launch.config_file is not None:
            continue
        words = launch.args
        index = next((i for i, w in enumerate(words) if w.text == "--config"), None)
        if index is None or index + 1 >= len(words):
            continue
        name = words[index + 1].text
        if not name:
            continue
        launch.config_file = load_config_file(name, path)


def load_config_file(name: str, linted: str) -> ConfigFile | None:
    from speclint.frontends.reading import read_source

    if not name.lower().endswith((".yaml", ".yml")):
        return ConfigFile(
            name,
            problem=f"SGLang stops with 'Config file must be YAML format, got: {os.path.splitext(name)[1]}'",
        )
    from ...runner.depends import note

    folder = os.path.dirname(linted) if linted not in ("-", "<stdin>") else ""
    candidates = [name] if os.path.isabs(name) else [os.path.join(folder, name), name]
    for candidate in candidates:
        note(os.path.abspath(candidate))  # the result cache re-checks the file (or its absence)
        if not os.path.isfile(candidate):
            continue
        text, error, size = read_source(candidate)
        if text is None:
            return ConfigFile(
                candidate,
                problem=f"the config file {candidate} cannot be read ({error or f'{size} bytes, too large'})",
            )
        return read_config(text, os.path.normpath(candidate))
    return None


def config_launch(
    path: str, config: ConfigFile, where: Span, image: tuple[str | None, Span | None] | None = None
) -> Launch:
    """A config file (or a manifest's flag-key map) checked on its own, as
    `python -m sglang.launch_server --config FILE`. Without the model among its keys, the
    command line that uses it gives the model: an unknown rest of the command line."""
    from speclint.core.words import Word

    args = [Word("--config", where), Word(path, where)]
    keys = {e.key.replace("_", "-") for e in config.entries}
    if not keys & {"model-path", "model"}:
        args.append(
            Word(
                None,
                where,
                dynamic_reason="the rest of the command line that uses "
                "this config (the model among it) is not in this file",
                splat=True,
            )
        )
    image_text, image_span = image if image is not None else (None, None)
    return Launch(
        path,
        DEFAULT_ENTRY,
        where,
        args,
        {},
        image_text,
        image_span,
        config_file=config,
        standalone_config=True,
    )
