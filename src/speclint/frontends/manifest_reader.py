"""The reader the shell walker is handed for what a here-document feeds another front-end,
with Kubernetes manifests: `kubectl apply -f - << EOF` (`shell.manifest_heredoc`) read by the
YAML front-end, the rest (units, Quadlet files, Python programs) by `shell.script.read_unit`.

Handed in by the readers of shell files, of Markdown, rst and notebook shell blocks and of
Makefile recipes: the YAML front-end reads shell itself (`run:` blocks), so the shell modules
it imports cannot import it back; the YAML front-end hands its own shell the same reader
(`NodeReader.unit_reader`)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from speclint.core.launches import ExtractResult
    from speclint.core.spans import Span


def read_unit_or_manifest(
    text: str, path: str, written: dict[str, str], move: Callable[[Span], Span], destination: str
) -> ExtractResult:
    """`script.read_unit`, and a manifest (`destination` `MANIFEST_STDIN`) read as YAML
    (`yaml_manifest.read_unit_or_manifest`: the same reader the YAML front-end hands its own
    shell, `run:` blocks and CI jobs' scripts)."""
    from speclint.frontends.manifests.yaml_manifest import read_unit_or_manifest as read

    return read(text, path, written, move, destination)
