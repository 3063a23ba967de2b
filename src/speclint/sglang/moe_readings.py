"""The readings behind `moe_defaults` and `moe_a2a_facts` (data/sglang_moe_defaults.json, read
from each release's wheel by tools/gen_sglang_moe_defaults.py), each parsed once; and the one
every launch asks: whether the release's --moe-runner-backend has an alias, and which
--moe-a2a-backend values it rewrites (tools/sglang_a2a_rewrites.py). Kept apart from
`moe_defaults` so that a launch that needs no MoE default or assert does not make that
module's records."""

from __future__ import annotations

import os
from functools import lru_cache

from speclint.sglang.linedata import LineData

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

FILE = LineData(os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "sglang_moe_defaults.json"))


@lru_cache(maxsize=256)
def reading(version: str, name: str) -> Any:
    """One reading of the release, parsed once (several are asked of every launch); the
    callers copy what they keep, never changing it."""
    row: dict[str, int] | None = FILE.row(version)
    index = (row or {}).get(name)
    return None if index is None else FILE.shared(index)


def moe_runner_alias(version: str) -> tuple[str, dict[str, str], str] | None:
    """(the --moe-runner-backend value that is an alias, the fields SGLang then sets, the
    function setting them) where the release has one (0.5.18+: megamoe -> the auto runner and
    --moe-a2a-backend megamoe, first in its resolution); None when not read."""
    raw = reading(version, "moe_runner_alias")
    if not isinstance(raw, dict):
        return None
    return str(raw["runner"]), {str(k): str(v) for k, v in raw["declares"].items()}, str(raw["where"])


def a2a_rewrites(version: str) -> dict[str, tuple[str, str]]:
    """{--moe-a2a-backend value: (the value SGLang sets on every platform, where)} (0.5.16+)."""
    raw = reading(version, "a2a_rewrites")
    return {str(k): (str(v["to"]), str(v["where"])) for k, v in raw.items()} if isinstance(raw, dict) else {}


def moe_kernel_handler(version: str) -> str:
    """The function SGLang's MoE runner asserts raise from, as the release names it (read:
    0.5.1-0.5.2 `__post_init__`, 0.5.3-0.5.18 `_handle_moe_kernel_config`, 0.5.19+
    `handle_moe_kernel_config` in arg_groups/moe_hook.py); releases with no flashinfer_cutlass
    branch to read it from keep the name the checks used before."""
    raw = reading(version, "moe_kernel_handler")
    return raw if isinstance(raw, str) else "_handle_moe_kernel_config"


def moe_kernel_first(version: str) -> bool:
    """The release calls its MoE-kernel handler before its all-to-all handler (read: 0.5.12+
    `__post_init__`, 0.5.19+ the resolution pipeline); False where not read."""
    return reading(version, "moe_kernel_first") is True


def a2a_handler(version: str) -> str:
    """The function holding the release's per-backend all-to-all branches and asserts (MoRI's
    dispatch budget, FlashInfer's attention-DP and runner asserts): where it rewrites ascend_tp
    (`a2a_rewrites`, read: 0.5.16-0.5.18 `_handle_a2a_moe`, 0.5.19+ `handle_a2a_moe` in
    arg_groups/moe_hook.py, as recorded); `_handle_a2a_moe` before 0.5.16 (recorded)."""
    return next((where for _, where in a2a_rewrites(version).values()), "_handle_a2a_moe")
