"""The values SGLang's resolution reads and writes, with every change recorded."""

from __future__ import annotations

from speclint.sglang import release
from speclint.sglang.flags.launch_config import UNKNOWN_VALUE
from speclint.sglang.resolve.result import Adjustment, Resolution, Unknown, is_known

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.identity import Identity
    from speclint.sglang.checkpoints.model_config import ModelConfig
    from speclint.sglang.flags.launch_config import LaunchConfig, Setting
    from speclint.sglang.release_traits import ReleaseTraits
    from speclint.sglang.resolve.gpu_profiles import GpuProfile
    from speclint.sglang.resolve.rejection import Rejection


MODELLED_FIELDS = (
    "model_path",
    "revision",
    "device",
    "tp_size",
    "pp_size",
    "dp_size",
    "nnodes",
    "enable_dp_attention",
    "attn_dp_size",
    "ep_size",
    "moe_a2a_backend",
    "max_running_requests",
    "enable_mixed_chunk",
    "disable_overlap_schedule",
    "page_size",
    "attention_backend",
    "prefill_attention_backend",
    "decode_attention_backend",
    "speculative_algorithm",
    "speculative_draft_model_path",
    "speculative_draft_model_revision",
    "speculative_num_steps",
    "speculative_eagle_topk",
    "speculative_num_draft_tokens",
    "speculative_token_map",
    "speculative_adaptive",
    "speculative_draft_attention_backend",
    "speculative_ngram_max_bfs_breadth",
    "speculative_ngram_max_match_window_size",
    "speculative_dflash_block_size",
    "enable_return_aux_hidden_states",
)
SPECULATIVE_OUTPUTS = (
    "speculative_num_steps",
    "speculative_eagle_topk",
    "speculative_num_draft_tokens",
    "max_running_requests",
    "enable_mixed_chunk",
    "disable_overlap_schedule",
)


_KNOWN_FIELDS: dict[str, tuple[str, ...]] = {}


def _known_fields(config: LaunchConfig) -> tuple[str, ...]:
    """The MODELLED_FIELDS this release's argparse has: the same for every launch of it."""
    names = _KNOWN_FIELDS.get(config.version)
    if names is None:
        names = _KNOWN_FIELDS[config.version] = tuple(n for n in MODELLED_FIELDS if config.knows(n))
    return names


def _identity(config: LaunchConfig, setting: Setting) -> Identity | None:
    """The identity of an unknown value given by one word (`speculative_num_steps=k`), when
    no word read later could set the field again."""
    use = setting.use
    if (
        use is None
        or not use.dynamic
        or len(use.value_words) != 1
        or config.parsed.last_unknown > use.position
    ):
        return None
    return use.value_words[0].identity


SHARED_TYPES = (type(None), bool, int, str)
"""Values whose equality says everything they show (not floats: -0.0 == 0.0)."""
_ADJUSTMENTS: dict[tuple[object, ...], Adjustment] = {}


def _adjustment(
    name: str,
    current: object,
    value: object,
    reason: str,
    handler: str,
    logged: str | None,
    level: str,
    cause: str = "",
) -> Adjustment:
    """An Adjustment is immutable and most recur in every launch of a batch (the same default
    filled in): one object per distinct change of plain values, built once per process."""
    if type(current) not in SHARED_TYPES or type(value) not in SHARED_TYPES:
        return Adjustment(name, current, value, reason, handler, logged, level, cause)
    key = (name, type(current), current, type(value), value, reason, handler, logged, level, cause)
    found = _ADJUSTMENTS.get(key)
    if found is None:
        if len(_ADJUSTMENTS) >= 4096:  # values are the launches' own (paths): stay bounded
            _ADJUSTMENTS.clear()
        found = _ADJUSTMENTS[key] = Adjustment(name, current, value, reason, handler, logged, level, cause)
    return found


class Stop(Exception):
    """SGLang raises during resolution; carries the `Rejection` speclint reports."""

    def __init__(
        self, exception: str, message: str, handler: str, fields: tuple[str, ...] = (), kind: str = ""
    ):
        from speclint.sglang.resolve.rejection import Rejection

        super().__init__(message)
        self.rejection = Rejection(exception, message, handler, fields, kind)


class ResolutionState:
    def __init__(self, config: LaunchConfig, env: dict[str, str | None], target_architecture: str | None):
        self.config = config
        self.checked_version = config.version
        # the modelled release standing for this one, and its facts the handlers read
        checked = release(self.checked_version)
        self.version = checked.resolution_follows
        self.traits: ReleaseTraits = checked.traits
        import speclint.sglang.gpu_resolution as gpu_resolution

        logic = gpu_resolution.gpu_logic(self.checked_version)
        if logic is not None and self.version not in (self.checked_version, logic.release):
            logic = None  # borrowed traits: its GPU logic was checked beside its own release's only
        self.gpu_logic = logic
        """The checked release's own GPU-memory numbers; None: its GPU resolution is unverified."""
        if self.traits.gpu_resolution != (logic is not None):  # a borrowed release's
            self.traits = type(self.traits)(
                **{**vars(self.traits), "gpu_resolution": not self.traits.gpu_resolution}
            )
        self.env = env
        self.target_architecture = target_architecture
        self.target_config: ModelConfig | None = None
        """The target's `ModelConfig` when on disk (hardware.py reads its vision config)."""
        self.draft_config: ModelConfig | None = None
        """The draft's `ModelConfig` when on disk (speculative_dflash.py reads its block size)."""
        names = _known_fields(config)
        self.values: dict[str, object] = {}
        if config.every_word_read:  # then only a given field can be dynamic: ask only those
            self.values = config.values_of(names)
            names = tuple(filter(self.values.__contains__, config.given_fields()))
        for name in names:
            setting = config.get(name)
            self.values[name] = (
                Unknown("set from a value speclint cannot read", _identity(config, setting))
                if setting.dynamic
                else setting.value
            )
        self.asked = dict(self.values)
        # `get` is the values' own `dict.get`: resolution asks ~60 fields a launch, and a
        # method that only forwards costs a Python call each (`values` is never rebound)
        self.get = self.values.get  # type: ignore[method-assign,assignment]
        self.adjustments: list[Adjustment] = []
        self.doubts: list[Rejection] = []
        """Refusals that hang on what speclint cannot know (`doubt`)."""
        self.gpu: GpuProfile | None = None
        """The GPU SGLang runs on (`--gpu`), when given: set by `run_steps`."""
        self._resolve_device()

    def _resolve_device(self) -> None:
        """`_handle_missing_default_values`, before any other handler: no --device means
        `get_device()`, the machine's. speclint assumes a GPU that torch reaches as CUDA
        (NVIDIA, or AMD through ROCm): "cuda". 0.5.23 also strips a device index
        ("cuda:0" -> "cuda"); both confirmed by the oracle (tests/test_oracle_differential.py).
        """
        device = self.values.get("device")
        if "device" not in self.values or not is_known(device):
            return
        if device is None:
            self.set(
                "device",
                "cuda",
                "SGLang detects the device; speclint assumes a CUDA GPU (NVIDIA, or AMD through ROCm)",
                "_handle_missing_default_values",
            )
        elif isinstance(device, str) and ":" in device and self.traits.strips_device_index:
            self.set(
                "device",
                device.split(":")[0],
                "SGLang drops the device index",
                "_handle_missing_default_values",
            )

    def get(self, name: str) -> object:
        return self.values.get(name)

    def set(
        self,
        name: str,
        value: object,
        reason: str,
        handler: str,
        logged: str | None = None,
        level: str = "warning",
        cause: str = "",
    ) -> None:
        """`cause`: the Adjustment's (result.MLA_PREFILL_CP), where a rule must tell it apart."""
        current = self.values.get(name)
        if (
            current == value
            and type(current) is type(value)
            and (
                not isinstance(value, Unknown)
                or (isinstance(current, Unknown) and current.identity == value.identity)
            )
        ):
            return
        self.values[name] = value
        self.adjustments.append(_adjustment(name, current, value, reason, handler, logged, level, cause))

    def doubt(self, exception: str, message: str, handler: str, fields: tuple[str, ...] = ()) -> None:
        """SGLang may refuse the launch here: whether hangs on what speclint cannot know (the
        GPU it is not told, a checkpoint key); `message` says on what. Resolution goes on."""
        from speclint.sglang.resolve.rejection import Rejection

        self.doubts.append(Rejection(exception, message, handler, fields))

    def set_unknown(self, name: str, reason: str) -> None:
        self.values[name] = Unknown(reason)

    def mark_unknown(self, name: str, reason: str) -> None:
        if name in self.values or self.config.knows(name):
            self.values[name] = Unknown(reason)

    def mark_unknown_speculative(self, reason: str) -> None:
        for name in SPECULATIVE_OUTPUTS:
            # every handler keeps an explicit --max-running-requests; the rest it may change
            if (
                name == "max_running_requests"
                and self.values.get(name) is not None
                and is_known(self.values.get(name))
            ):
                continue
            self.mark_unknown(name, reason)

    def attention_dp(self) -> bool:
        size = self.values.get("attn_dp_size")
        if isinstance(size, int) and size > 1:
            return True
        return self.values.get("enable_dp_attention") is True

    def attention_backends(self) -> tuple[str, ...]:
        names = ("attention_backend", "prefill_attention_backend", "decode_attention_backend")
        return tuple(v for v in (self.values.get(n) for n in names) if isinstance(v, str))

    def result(self, rejection: Rejection | None = None) -> Resolution:
        return Resolution(
            self.checked_version,
            dict(self.values),
            list(self.adjustments),
            rejection,
            self.target_architecture,
            tuple(self.doubts),
        )


__all__ = ["ResolutionState", "Stop", "MODELLED_FIELDS", "is_known"]


def given(state: ResolutionState, name: str) -> object:
    """The launch's value of `name` (None: not given or not a flag of this release); a
    dynamic value reads as Unknown."""
    known = state.config.known_values  # (every word read: the table, without a call)
    value = known.get(name) if known is not None else state.config.known_value(name, UNKNOWN_VALUE)
    return state.get(name) if value is UNKNOWN_VALUE else value
