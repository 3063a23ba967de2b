"""The MoE all-to-all facts read per release into sglang_moe_defaults.json beside
`moe_defaults` (kept apart for its size): flashinfer_megamoe's checks after its model check
(tools/sglang_megamoe_dp.py) and pplx's attention-DP assert (tools/sglang_a2a_rewrites.py);
the --moe-a2a-backend values the resolution rewrites are `moe_readings.a2a_rewrites`."""

from __future__ import annotations

from speclint.core.records import dataclass
from speclint.sglang.moe_readings import reading as _reading

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any, TypeVar

    _Record = TypeVar("_Record")


def _record(cls: type[_Record], version: str, name: str) -> _Record | None:
    """The reading `name` of `version` (a JSON object whose keys are the fields of the record
    class `cls`, as tools/sglang_a2a_budgets.py writes them) as a `cls`, its lists as tuples;
    None where not read."""
    raw: Any = _reading(version, name)
    if not isinstance(raw, dict):
        return None
    fields = cls.__dataclass_fields__  # type: ignore[attr-defined]
    return cls(*(tuple(raw[f]) if isinstance(raw[f], list) else raw[f] for f in fields))


@dataclass(frozen=True, slots=True)
class MegamoeAttentionDp:
    """Beside --moe-a2a-backend flashinfer_megamoe (0.5.20+): the attention-DP assert (`enabled_by`
    "enable_dp_attention"/"attn_dp_enabled_of", `size` compared with tp_size), the runner's, SM100."""

    enabled_by: str
    size: str
    message: str
    runner_message: str | None
    sm100_message: str | None


def megamoe_attention_dp(version: str) -> MegamoeAttentionDp | None:
    """`MegamoeAttentionDp` read per release (0.5.20+); None when not read."""
    raw = _reading(version, "megamoe_architectures")
    read = raw.get("attention_dp") if isinstance(raw, dict) else {}
    if not isinstance(read, dict) or not read:
        return None
    runner, sm100 = (
        None if read.get(k) is None else str(read[k]) for k in ("runner_message", "sm100_message")
    )
    return MegamoeAttentionDp(str(read["enabled"]), str(read["size"]), str(read["message"]), runner, sm100)


def pplx_attention_dp(version: str) -> tuple[str, str, int, str, str] | None:
    """--moe-a2a-backend pplx's attention-DP assert (0.5.17+): (the switch it also asks,
    "enable_dp_attention" or "", the size field, its minimum, the message, where)."""
    raw = _reading(version, "pplx_attention_dp")
    if not isinstance(raw, dict):
        return None
    return str(raw["enabled"]), str(raw["size"]), int(raw["min"]), str(raw["message"]), str(raw["where"])


@dataclass(frozen=True, slots=True)
class TokenBudget:
    """A per-rank token budget SGLang compares with an environment variable (`EnvInt(default)`)
    and refuses with `message` past it: the fields the all-to-all budgets below share."""

    variable: str
    default: int
    message: str
    where: str

    def capacity(self, env: Mapping[str, str | None]) -> tuple[int, str] | None:
        """(the variable's value as the launch sets it, else its default; where that comes from);
        None where it is not a count speclint can read."""
        raw = env.get(self.variable, str(self.default))
        if raw is None or not raw.strip().isdigit():
            return None
        limit = int(raw)
        return limit, f"{self.variable}={limit}" if self.variable in env else f"its default {self.default}"


@dataclass(frozen=True, slots=True)
class DispatchBudget(TokenBudget):
    """--moe-a2a-backend pplx's per-rank dispatch assert (0.5.17+): `terms`' largest (the
    chunked prefill size, then the fields the release takes the max with) must not exceed the
    environment variable (`EnvInt(default)`); skipped for chunked prefill off or a decode server."""

    terms: tuple[str, ...]


def pplx_dispatch_budget(version: str) -> DispatchBudget | None:
    return _record(DispatchBudget, version, "pplx_dispatch_budget")


@dataclass(frozen=True, slots=True)
class DeepepV2:
    """--moe-a2a-backend deepep_v2's first checks (0.5.19+): the target's first architecture
    must be one it takes, then (past the `runner_after` fields' refusals) the MoE runner must be
    `runner` (auto is set to it)."""

    architectures: tuple[str, ...]
    architecture_message: str
    runner: str
    runner_message: str
    runner_after: tuple[str, ...]
    where: str


def deepep_v2(version: str) -> DeepepV2 | None:
    return _record(DeepepV2, version, "deepep_v2")


@dataclass(frozen=True, slots=True)
class DeepepV2Budget(TokenBudget):
    """`validate_deepep_v2_dispatch_token_budget`'s prefill check (0.5.19+): the prefill-buffer
    ceiling (the chunk, grown by `growth` with PP dynamic chunking; else max_prefill_tokens),
    0.5.22+ divided by tp_size // attn_dp_size (`scatter`), against the variable."""

    scatter: bool
    growth: float


def deepep_v2_budget(version: str) -> DeepepV2Budget | None:
    return _record(DeepepV2Budget, version, "deepep_v2_budget")


def pplx_runner(version: str) -> tuple[tuple[str, ...], str, str] | None:
    """--moe-a2a-backend pplx's MoE-runner assert (0.5.17+): (the runners it takes, the
    message, where)."""
    raw = _reading(version, "pplx_runner")
    if not isinstance(raw, dict):
        return None
    return tuple(str(r) for r in raw["runners"]), str(raw["message"]), str(raw["where"])


@dataclass(frozen=True, slots=True)
class DeepepV2Decode(TokenBudget):
    """`validate_deepep_v2_dispatch_token_budget`'s decode CUDA-graph check (0.5.19+,
    tools/sglang_deepep_v2_decode.py): off on a prefill server and with decode graphs off, the
    decode graph's max_bs (lowered to --max-running-requests over the attention-DP size,
    `attention_dp` "dp_size_if_enabled" or "attn_dp_size") times the tokens per request against
    the variable; `message` with {required}, {capacity}, {requests}, {tokens}."""

    attention_dp: str


def deepep_v2_decode(version: str) -> DeepepV2Decode | None:
    return _record(DeepepV2Decode, version, "deepep_v2_decode")
