"""What a drafter's local safetensors say without loading them: tensor names and shapes.

Only the header is read (8-byte little-endian length, then JSON), never the tensors, and the
header is bounded: a checkpoint is input and may be broken or hostile. Sharded checkpoints
are followed through `model.safetensors.index.json` (`weight_map`: tensor name → shard).
"""

from __future__ import annotations

import json
import os
import struct
from dataclasses import field

from speclint.core.records import dataclass
from speclint.runner.depends import note
from speclint.sglang.checkpoints.model_config import open_regular, read_json_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MAX_HEADER_BYTES = 32 * 1024 * 1024
MAX_INDEX_BYTES = 16 * 1024 * 1024
FC_NAMES = ("fc.weight", "model.fc.weight")
"""The EAGLE fc projection as EAGLE/EAGLE3 exports name it (SGLang loads both)."""


@dataclass(slots=True)
class WeightsSummary:
    """What the headers say; `problem` is set when the files exist but cannot be read."""

    files: tuple[str, ...] = ()
    names: frozenset[str] = frozenset()
    fc_shape: tuple[int, ...] | None = None
    problem: str | None = None
    shapes: dict[str, tuple[int, ...]] = field(default_factory=dict)

    @property
    def has_d2t(self) -> bool:
        """SGLang's draft loaders keep a tensor as the draft→target map when `"d2t" in name`."""
        return any("d2t" in name for name in self.names)

    @property
    def fc_in_width(self) -> int | None:
        """Input width of fc (`torch.nn.Linear` stores [out, in])."""
        return self.fc_shape[1] if self.fc_shape and len(self.fc_shape) == 2 else None


def read_header(path: str) -> tuple[dict[str, Any] | None, str | None]:
    """(header JSON, None) or (None, why not)."""
    try:
        with open_regular(path) as handle:
            head = handle.read(8)
            if len(head) < 8:
                return None, f"{path} is too short to be a safetensors file"
            (length,) = struct.unpack("<Q", head)
            if length > MAX_HEADER_BYTES:
                return None, (
                    f"{path}: safetensors header of {length} bytes is larger than "
                    f"{MAX_HEADER_BYTES // (1024 * 1024)} MiB; not read"
                )
            data = handle.read(length)
    except OSError as error:
        return None, f"cannot read {path}: {error.strerror or error}"
    if len(data) < length:
        return None, f"{path}: safetensors header is truncated"
    try:
        header = json.loads(data.decode("utf-8", errors="replace"))
    except (ValueError, RecursionError) as error:
        return None, f"{path}: safetensors header is not valid JSON ({error})"
    if not isinstance(header, dict):
        return None, f"{path}: safetensors header is not a JSON object"
    return header, None


def _shape(entry: object) -> tuple[int, ...] | None:
    shape = entry.get("shape") if isinstance(entry, dict) else None
    if isinstance(shape, list) and all(isinstance(n, int) and not isinstance(n, bool) for n in shape):
        return tuple(shape)
    return None


def _read_index(path: str) -> tuple[dict[str, str] | None, str | None]:
    index, problem = read_json_file(path, MAX_INDEX_BYTES)
    if problem is not None:
        return None, problem
    weight_map = index.get("weight_map") if isinstance(index, dict) else None
    if not isinstance(weight_map, dict):
        return None, f"{path} has no weight_map"
    return {str(k): str(v) for k, v in weight_map.items()}, None


def summarise_weights(folder: str | None) -> WeightsSummary | None:
    """The drafter's weights in `folder`, or None when there are no safetensors there."""
    if not folder:
        return None
    single = os.path.join(folder, "model.safetensors")
    index = os.path.join(folder, "model.safetensors.index.json")
    note(single)
    note(index)
    if os.path.isfile(single):
        header, problem = read_header(single)
        if header is None:
            return WeightsSummary((single,), problem=problem)
        names = frozenset(k for k in header if k != "__metadata__")
        in_file = {name: s for name in names if name in FC_NAMES and (s := _shape(header[name]))}
        return WeightsSummary((single,), names, _fc_shape(in_file), shapes=in_file)
    if os.path.isfile(index):
        weight_map, problem = _read_index(index)
        if weight_map is None:
            return WeightsSummary((index,), problem=problem)
        names = frozenset(weight_map)
        shapes: dict[str, tuple[int, ...]] = {}
        for fc_name in FC_NAMES:
            shard = weight_map.get(fc_name)
            if shard is None:
                continue
            shard_path = os.path.join(folder, shard)
            if os.path.basename(shard) != shard or not os.path.isfile(shard_path):
                return WeightsSummary(
                    (index,), names, problem=f"shard {shard!r} of {fc_name} is not in the folder"
                )
            header, problem = read_header(shard_path)
            if header is None:
                return WeightsSummary((index, shard_path), names, problem=problem)
            if (found := _shape(header.get(fc_name))) is not None:
                shapes[fc_name] = found
        return WeightsSummary((index,), names, _fc_shape(shapes), shapes=shapes)
    return None


def _fc_shape(shapes: dict[str, tuple[int, ...]]) -> tuple[int, ...] | None:
    for name in FC_NAMES:
        if name in shapes:
            return shapes[name]
    return None
