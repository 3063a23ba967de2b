"""Where systemd and Podman Quadlet read unit files from, by the file's name: what a file
on disk is (`frontends.file_kind`), and what a script or YAML file writes (`cat > x.service
<< EOF`, cloud-init's `write_files`)."""

from __future__ import annotations

import os


def drop_in_base(path: str) -> str | None:
    """The service a systemd drop-in extends (`sglang.service` for
    `sglang.service.d/override.conf`: systemd.unit(5), "Description"), or None."""
    folder, name = os.path.split(path)
    parent = os.path.basename(folder)
    return (
        parent[:-2] if name.endswith(".conf") and parent.endswith(".service.d") and len(parent) > 10 else None
    )


def unit_file_kind(path: str) -> str | None:
    """'systemd' for a path a service unit or drop-in is written to, 'quadlet' for a Podman
    Quadlet `.container`, else None (by the name alone: a file a script or YAML writes)."""
    name = os.path.basename(path)
    if name.endswith(".service") or drop_in_base(path) is not None:
        return "systemd"
    return "quadlet" if name.endswith(".container") else None
