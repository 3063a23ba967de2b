"""What resolution produces: the effective values, each change with its reason, or SGLang's refusal."""

from __future__ import annotations

from dataclasses import field

from speclint.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.identity import Identity
    from speclint.sglang.resolve.rejection import Rejection as Rejection


class Unknown:
    """An effective value speclint cannot know (it depends on the GPU, a config not on disk, ...).

    `identity`: which value it is when the launch names it (`speculative_num_steps=k`):
    two unknowns with the same identity key are equal, `plus` apart, whatever k is."""

    __slots__ = ("reason", "identity")

    def __init__(self, reason: str, identity: Identity | None = None):
        self.reason = reason
        self.identity = identity

    def __repr__(self) -> str:
        if self.identity is not None:
            return f"<unknown: {self.identity}>"
        return f"<unknown: {self.reason}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Unknown)

    def __hash__(self) -> int:
        return 0


def is_known(value: object) -> bool:
    return not isinstance(value, Unknown)


@dataclass(frozen=True, slots=True)
class Adjustment:
    """SGLang changed `field` from what was asked (`asked`) to `effective`."""

    field: str
    asked: object
    effective: object
    reason: str
    handler: str
    """SGLang's function that makes the change (`_handle_eagle_family`)."""
    logged: str | None = None
    """The line SGLang logs when it does this; None when it is silent."""
    level: str = "warning"
    """The level of that line ("warning" or "info")."""
    cause: str = ""
    """Which kind of change this is, where a rule tells it from others of the same field and
    handler (MLA_PREFILL_CP); "" for the handler's own change."""


MLA_PREFILL_CP = "mla-prefill-cp"
"""An Adjustment's cause: the DeepSeek model override's MLA prefill-CP block set the field
(resolve/prefill_cp_mla.py), not the handler that usually sets it (PAR004 leaves its ep_size)."""
UNKNOWN_ALGORITHM = "unknown-algorithm"
"""`--speculative-algorithm` names no algorithm of the release."""
BACKEND_GPU = "backend-gpu"
"""An attention backend the GPU (or the KV-cache dtype) cannot run (0.5.23
`_mla_kv_cache_dtype_checks`, `handle_attention_backend_compatibility`)."""
TREE_DRAFT_BACKEND = "tree-draft-backend"
"""Tree drafting (topk > 1, or no topk) on an attention backend / page size SGLang refuses."""


@dataclass(slots=True)
class Resolution:
    """What SGLang makes of a launch: effective values, adjustments, and any refusal."""

    version: str
    effective: dict[str, object] = field(default_factory=dict)
    adjustments: list[Adjustment] = field(default_factory=list)
    rejection: Rejection | None = None
    target_architecture: str | None = None
    doubts: tuple[Rejection, ...] = ()
    """Refusals SGLang makes or not by what speclint cannot know (the GPU it is not told, a
    quantization hook's reading of checkpoint keys): each message says on what."""

    def adjustment(self, name: str) -> Adjustment | None:
        found = [a for a in self.adjustments if a.field == name]
        return found[-1] if found else None


def __getattr__(name: str) -> object:
    """`Rejection`, from its own module: its class is made only by a launch SGLang refuses."""
    if name == "Rejection":
        from speclint.sglang.resolve.rejection import Rejection

        return Rejection
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
