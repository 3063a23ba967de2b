"""Where systemd and Podman Quadlet read unit files from, by the file's name: what a file
on disk is (`frontends.file_kind`), and what a script or YAML file writes (`cat > x.service
<< EOF`, cloud-init's `write_files`)."""

from __future__ import annotations

import os


def drop_in_base(path: str, kind: str = ".service") -> str | None:
    """The unit a drop-in extends (`sglang.service` for `sglang.service.d/override.conf`:
    systemd.unit(5), "Description"; with `kind` ".container", a Quadlet drop-in), or None."""
    folder, name = os.path.split(path)
    parent = os.path.basename(folder)
    folder_suffix = kind + ".d"
    return (
        parent[:-2]
        if name.endswith(".conf") and parent.endswith(folder_suffix) and len(parent) > len(folder_suffix)
        else None
    )


def unit_file_kind(path: str) -> str | None:
    """'systemd' for a path a service unit or drop-in is written to, 'quadlet' for a Podman
    Quadlet `.container` or its drop-in (`x.container.d/*.conf`), else None (by the name
    alone: a file a script or YAML writes)."""
    name = os.path.basename(path)
    if name.endswith(".service") or drop_in_base(path) is not None:
        return "systemd"
    return "quadlet" if name.endswith(".container") or drop_in_base(path, ".container") else None
