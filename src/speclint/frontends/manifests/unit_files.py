"""A systemd unit (or drop-in, or Podman Quadlet file) that a YAML file writes as text:
cloud-init's `write_files:` (`path:` + `content:`), Ansible's `copy` (`dest:` + `content:`).

The destination's name says what the file is, as it does for a file speclint reads from disk
(`frontends.file_kind`): `x.service`, `x.service.d/NAME.conf` (a drop-in of `x.service`),
`x.container` (Quadlet). The content is read by the systemd (or Quadlet) front-end, its
positions moved to where each character is written in the YAML; a value the writer fills in
(Ansible's Jinja) is unknown text in the unit.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import yaml

    from speclint.core.launches import ExtractResult
    from speclint.frontends.shell.pieces import Piece


def read_unit_content(
    path: str, starts: list[int], result: ExtractResult, destination: str, pieces: list[Piece]
) -> None:
    """Read the unit written to `destination` (`frontends.unit_file_kind` says it is one)
    into `result`; its text as `pieces` (unknown runs: text the writer fills in), in the file
    at `path` whose lines start at `starts`."""
    from speclint.frontends.docs.excerpt import OffsetMap
    from speclint.frontends.moved_spans import map_spans
    from speclint.frontends.shell.pieces import Piece
    from speclint.frontends.unit_paths import drop_in_base, unit_file_kind

    written: dict[str, str] = {}
    text_pieces: list[Piece] = []
    for piece in pieces:
        if piece.text is None:
            name = f"__speclint_{len(written)}"
            written[name] = piece.reason or "not known when the file is written"
            text_pieces.append(Piece("${" + name + "}", piece.begin, piece.end))
        else:
            text_pieces.append(piece)
    mapping = OffsetMap(text_pieces, starts)
    text = mapping.text if mapping.text.endswith("\n") else mapping.text + "\n"
    if unit_file_kind(destination) == "quadlet":
        from speclint.frontends.commands.quadlet import extract_quadlet

        found = extract_quadlet(text, path, written, drop_in_base(destination, ".container"))
    else:
        from speclint.frontends.commands.systemd import extract_unit

        found = extract_unit(text, path, written, base=drop_in_base(destination))
    found = map_spans(found, mapping.move)
    result.launches.extend(found.launches)
    result.diagnostics.extend(found.diagnostics)


def destination_of(node: yaml.Node | None) -> str | None:
    """A static destination path (a scalar without `{{`), or None."""
    import yaml

    if isinstance(node, yaml.ScalarNode) and node.value and "{{" not in node.value:
        return str(node.value)
    return None
