"""When an SGLang release checks --quantization while resolving, and the methods it knows on a
CUDA GPU, as tools/gen_sglang_model_config.py read them from each release's wheel
(`data/sglang_model_config.json`, one JSON array, one element per line: the header, one row
per release mapping reading name -> index, then the distinct readings).

`ModelConfig._verify_quantization` runs when `ServerArgs` builds the target's ModelConfig:
in 0.4.9-0.5.4 only under `if self.mem_fraction_static is None:` (a given
--mem-fraction-static skips it). `QUANTIZATION_METHODS` is what it checks --quantization
against; 0.5.20+ register gptq only on NPU, CPU and XPU, 0.5.4.post2-0.5.7 lack bitsandbytes.
A release without a row, or a reading left null, is not read: nothing is said from it."""

from __future__ import annotations

import os

from speclint.sglang.linedata import LineData

_FILE = LineData(os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "sglang_model_config.json"))


def _reading(version: str, name: str) -> object:
    row = _FILE.row(version)
    if not isinstance(row, dict) or name not in row:
        return None
    return _FILE.shared(row[name])


def verified_only_for_default_mem_fraction(version: str) -> bool:
    """The release builds the ModelConfig (and so checks --quantization) while resolving only
    when --mem-fraction-static is not given."""
    return _reading(version, "model_config") == "default_mem_fraction"


def cuda_quantization_methods(version: str) -> tuple[str, ...] | None:
    """The keys of the release's `QUANTIZATION_METHODS` on a CUDA GPU; None: not read."""
    methods = _reading(version, "cuda_quantization_methods")
    return tuple(str(m) for m in methods) if isinstance(methods, list) else None


def quantization_compared(version: str) -> tuple[str, ...]:
    """--quantization values the release's resolution compares (and may rewrite, as 0.5.11+ turn
    `unquant` into None) before the registry check; () when not read."""
    values = _reading(version, "quantization_compared")
    return tuple(str(v) for v in values) if isinstance(values, list) else ()
