"""Which physical GPUs a process sees: `CUDA_VISIBLE_DEVICES` mapped onto the GPUs the
driver reports, by UUID.

CUDA Programming Guide (environment variables): unset = every GPU; empty = none; entries are
indices, `GPU-` UUIDs (unique prefixes allowed) or MIG ids, enumerated in list order; an
invalid entry hides itself and everything after it (`0,2,-1,1` → 0 and 2). NVML and
nvidia-smi ignore the variable, so the mapping is done here.
"""

from __future__ import annotations

import re
from dataclasses import field

from speclint.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.preflight.snapshot import PhysicalGpu

_INDEX = re.compile(r"\d+")
_MIG_OF_GPU = re.compile(r"MIG-(GPU-[0-9A-Fa-f-]+)/\d+/\d+")


@dataclass(slots=True)
class Visible:
    """The GPUs CUDA will enumerate, as ordinals 0, 1, ... in `gpus` order."""

    gpus: list[PhysicalGpu]
    source: str
    """How they were chosen: 'all GPUs', 'CUDA_VISIBLE_DEVICES=0,1', '--gpus 2,3'."""
    notes: list[str] = field(default_factory=list)
    unknown: str | None = None
    """Why the mapping cannot be trusted (an entry speclint cannot map, e.g. a MIG UUID)."""
    order_ambiguous: bool = False
    """CUDA may number the GPUs differently from nvidia-smi: every GPU is checked."""
    every_gpu: list[PhysicalGpu] = field(default_factory=list)


def split_entries(value: str) -> list[str]:
    return [entry.strip() for entry in value.split(",")] if value.strip() else []


def resolve_visible(
    value: str | None, gpus: list[PhysicalGpu], source: str | None = None, device_order: str | None = None
) -> Visible:
    """Map a `CUDA_VISIBLE_DEVICES`-style list onto `gpus` (None: all of them)."""
    ordered = sorted(gpus, key=lambda g: g.index)
    if value is None:
        visible = Visible(list(ordered), source or "all GPUs (CUDA_VISIBLE_DEVICES is unset)")
        _order_note(visible, ordered, device_order, uses_indices=True)
        return visible
    visible = Visible([], source or f"CUDA_VISIBLE_DEVICES={value}")
    uses_indices = False
    for entry in split_entries(value):
        found, problem = _match_entry(entry, ordered)
        if found is None and problem == "mig":
            visible.unknown = (
                f"{entry!r} is a MIG device; speclint cannot map MIG UUIDs to "
                "a GPU (use the MIG-GPU-<uuid>/<gi>/<ci> form or GPU UUIDs)"
            )
            break
        if found is None:
            visible.notes.append(f"{entry!r} {problem}: CUDA hides it and every entry after it")
            break
        if found in visible.gpus:
            visible.notes.append(
                f"{entry!r} repeats a GPU already listed; CUDA's handling of "
                "repeats is undocumented, so it and what follows are ignored"
            )
            break
        uses_indices = uses_indices or bool(_INDEX.fullmatch(entry))
        visible.gpus.append(found)
    if value.strip() == "":
        visible.notes.append("CUDA_VISIBLE_DEVICES is empty: CUDA sees no GPU")
    _order_note(visible, ordered, device_order, uses_indices)
    return visible


def _match_entry(entry: str, gpus: list[PhysicalGpu]) -> tuple[PhysicalGpu | None, str]:
    if _INDEX.fullmatch(entry):
        found = [g for g in gpus if g.index == int(entry)]
        return (
            (found[0], "")
            if found
            else (
                None,
                f"is not a GPU index here (0-{len(gpus) - 1})"
                if gpus
                else "names a GPU, but none is present",
            )
        )
    mig = _MIG_OF_GPU.fullmatch(entry)
    if mig:
        entry = mig.group(1)
    elif entry.upper().startswith("MIG-"):
        return None, "mig"
    if entry.upper().startswith("GPU-") and len(entry) > 4:
        found = [g for g in gpus if g.uuid.lower().startswith(entry.lower())]
        if len(found) == 1:
            return found[0], ""
        return None, (
            "matches no GPU's UUID" if not found else f"is a prefix of {len(found)} GPUs' UUIDs (ambiguous)"
        )
    return None, "is not a GPU index, GPU- UUID or MIG id"


def _order_note(
    visible: Visible, gpus: list[PhysicalGpu], device_order: str | None, uses_indices: bool
) -> None:
    """CUDA numbers GPUs fastest-first unless CUDA_DEVICE_ORDER=PCI_BUS_ID; nvidia-smi numbers
    them by PCI bus. On identical GPUs the two agree; on mixed ones indices are ambiguous."""
    if not uses_indices or (device_order or "").upper() == "PCI_BUS_ID":
        return
    totals = {g.total_mib for g in gpus}
    if len(totals) > 1:
        visible.notes.append(
            "these GPUs differ (memory sizes differ) and CUDA_DEVICE_ORDER is "
            "not PCI_BUS_ID: CUDA's index order may differ from nvidia-smi's; "
            "set CUDA_DEVICE_ORDER=PCI_BUS_ID or list GPU UUIDs; every "
            "GPU is checked"
        )
        visible.order_ambiguous = True
        visible.every_gpu = list(gpus)


def pick(
    visible: Visible, ordinals: list[int] | None
) -> tuple[list[tuple[int | None, PhysicalGpu]], list[int]]:
    """(CUDA ordinal, GPU) pairs the launch uses, and the ordinals that do not exist. When
    CUDA's numbering is ambiguous: every GPU, with no ordinal."""
    count = len(visible.gpus)
    wanted = list(range(count)) if ordinals is None else list(dict.fromkeys(ordinals))
    missing = [o for o in wanted if not 0 <= o < count]
    if visible.order_ambiguous:
        return [(None, gpu) for gpu in visible.every_gpu], missing
    present: list[tuple[int | None, PhysicalGpu]] = [(o, visible.gpus[o]) for o in wanted if 0 <= o < count]
    return present, missing
