"""Each release's model registry and drafter facts, as tools/gen_sglang_facts.py read them
from the release's wheel (`EntryClass` in sglang/srt/models/**, `set_eagle3_layers_to_capture`,
`SpeculativeAlgorithm`, llama_eagle3.py).

`data/sglang_models.json` is one JSON array with one element per line: the header
`{"format": 1, "versions": [...], "names": [architecture names]}`, then one line per release
(header order) whose lists are indices into `names`:

    {"architectures": [...], "capture": {"plus_one": [...], ...}, "indexes_layers": [...],
     "speculative_algorithms": ["EAGLE", ...], "eagle3_aux_count_from_config": true,
     "eagle3_ignores_token_map": true, "context_override_default": false}

A lint run parses the header and the one line of the release it checks.
"""

from __future__ import annotations

import os
from functools import lru_cache

from speclint.core.records import dataclass
from speclint.sglang.linedata import LineData

TYPE_CHECKING = False
if TYPE_CHECKING:
    pass

_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "sglang_models.json")
_FILE = LineData(_DATA)


@dataclass(frozen=True, slots=True)
class ModelFacts:
    """What one release's wheel says about its models and drafters."""

    architectures: frozenset[str]
    """Every class the release registers (targets and drafters alike)."""
    capture: dict[str, frozenset[str]]
    """Aux-layer convention (speclint.sglang.checkpoints.aux_layers) -> target classes whose module
    defines `set_eagle3_layers_to_capture` with it."""
    indexes_layers: frozenset[str]
    """Targets whose capture hook indexes `self.layers[layer_id]` (IndexError past the depth)."""
    speculative_algorithms: tuple[str, ...]
    """`SpeculativeAlgorithm` names (NONE left out); empty before speculative decoding."""
    eagle3_aux_count_from_config: bool
    """llama_eagle3.py sizes `fc` from `num_aux_hidden_states` (else exactly 3 aux states)."""
    eagle3_ignores_token_map: bool
    """The EAGLE worker logs that EAGLE3 ignores --speculative-token-map (uses the draft's d2t)."""
    context_override_default: bool | None
    """SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN's default; None when it was not found."""


def read_versions() -> tuple[str, ...]:
    """Releases whose wheel was read, oldest first."""
    return _FILE.versions()


@lru_cache(maxsize=128)
def model_facts(version: str) -> ModelFacts | None:
    """The facts read from `version`'s wheel; None when it was not read."""
    raw = _FILE.row(version)
    if raw is None:
        return None
    names = _FILE.header["names"]

    def named(ids: list[int]) -> frozenset[str]:
        return frozenset(names[i] for i in ids)

    return ModelFacts(
        named(raw["architectures"]),
        {family: named(ids) for family, ids in raw["capture"].items()},
        named(raw["indexes_layers"]),
        tuple(raw["speculative_algorithms"]),
        bool(raw["eagle3_aux_count_from_config"]),
        bool(raw["eagle3_ignores_token_map"]),
        raw["context_override_default"],
    )
