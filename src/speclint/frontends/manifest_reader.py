"""The reader the shell walker is handed for what a here-document feeds another front-end,
with Kubernetes manifests: `kubectl apply -f - << EOF` (`shell.manifest_heredoc`) read by the
YAML front-end, the rest (units, Quadlet files, Python programs) by `shell.script.read_unit`.

Handed in by the readers of shell files and of Markdown shell blocks only: the YAML
front-end reads shell itself (`run:` blocks), so the shell modules it imports cannot import
it back; shell inside a YAML file keeps `script.read_unit`, which says it did not read such a
manifest."""

from __future__ import annotations

from dataclasses import replace

from speclint.frontends.shell.script import read_unit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from speclint.core.config_files import ConfigFile
    from speclint.core.launches import ExtractResult, Launch
    from speclint.core.spans import Span


def read_unit_or_manifest(
    text: str, path: str, written: dict[str, str], move: Callable[[Span], Span], destination: str
) -> ExtractResult:
    """`script.read_unit`, and a manifest (`destination` `MANIFEST_STDIN`) read as YAML."""
    from speclint.frontends.shell.manifest_heredoc import MANIFEST_STDIN

    if destination == MANIFEST_STDIN:
        return read_manifest(text, path, move)
    return read_unit(text, path, written, move, destination)


def read_manifest(text: str, path: str, move: Callable[[Span], Span]) -> ExtractResult:
    """The manifest's launches (`yaml_manifest.extract_yaml`), every position passed through
    `move` into the script's file, with what a launch carries besides its words (its
    `--config` file, the GPUs its container is given)."""
    from speclint.frontends.manifests.yaml_manifest import extract_yaml
    from speclint.frontends.moved_spans import map_spans

    found = extract_yaml(text, path)
    moved = map_spans(found, move)
    for original, launch in zip(found.launches, moved.launches, strict=True):
        _carry(original, launch, move)
    return moved


def _carry(original: Launch, launch: Launch, move: Callable[[Span], Span]) -> None:
    launch.standalone_config = original.standalone_config
    if original.gpu_count is not None:
        launch.gpu_count = replace(original.gpu_count, span=move(original.gpu_count.span))
    if original.env_unread is not None:
        launch.env_unread = replace(original.env_unread, span=move(original.env_unread.span))
    if original.config_file is not None:
        launch.config_file = _moved_config(original.config_file, move)


def _moved_config(config: ConfigFile, move: Callable[[Span], Span]) -> ConfigFile:
    """The config file's entries with their spans in the script's file (a new object)."""
    from speclint.core.config_files import ConfigFile

    entries = [
        replace(
            e,
            key_span=move(e.key_span),
            value_span=move(e.value_span),
            item_spans=tuple(move(s) for s in e.item_spans),
        )
        for e in config.entries
    ]
    span = config.problem_span
    return ConfigFile(config.path, entries, config.problem, move(span) if span is not None else None)
