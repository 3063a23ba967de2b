"""The reader the shell walker is handed for what a here-document feeds another front-end,
with Kubernetes manifests: `kubectl apply -f - << EOF` (`shell.manifest_heredoc`) read by the
YAML front-end, the rest (units, Quadlet files, Python programs) by `shell.script.read_unit`.

Handed in by the readers of shell files and of Markdown shell blocks only: the YAML
front-end reads shell itself (`run:` blocks), so the shell modules it imports cannot import
it back; shell inside a YAML file keeps `script.read_unit`, which says it did not read such a
manifest."""

from __future__ import annotations

from speclint.frontends.shell.script import read_unit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from speclint.core.launches import ExtractResult
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
    `move` into the script's file (`moved_spans`: with what a launch carries besides its
    words, its `--config` file and the GPUs its container is given)."""
    from speclint.frontends.manifests.yaml_manifest import extract_yaml
    from speclint.frontends.moved_spans import map_spans

    return map_spans(extract_yaml(text, path), move)
