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
from functools import lru_cache

from speclint.sglang.linedata import LineData

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection

_FILE = LineData(os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "sglang_model_config.json"))


@lru_cache(maxsize=256)
def _reading(version: str, name: str) -> object:
    """A reading, decoded once per process (resolution asks several per launch; callers never
    change what it gives)."""
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


def unquant_unset(version: str) -> bool:
    """The release turns `--quantization unquant` into None first and takes no quantization
    from the checkpoint afterwards (`_quantization_explicitly_unset`, 0.5.11+; read by
    tools/gen_sglang_model_config.py)."""
    return _reading(version, "unquant_unset") is True


def fa3_default_architectures(version: str) -> tuple[str, ...] | None:
    """The MHA architectures the release's pick gives fa3 on Hopper (`is_fa3_default_architecture`,
    0.5.4.post3-0.5.7; read by tools/sglang_attention_arch.py); None where the pick does not call
    it or it was not read."""
    raw = _reading(version, "fa3_default_architectures")
    return tuple(str(a) for a in raw) if isinstance(raw, list) else None


def quantization_in_text_config(version: str) -> tuple[str, ...]:
    """The `model_type`s whose SGLang config class takes `quantization_config` from
    `text_config` (kimi_k25 from 0.5.10); () when not read."""
    types = _reading(version, "quantization_in_text_config")
    return tuple(str(t) for t in types) if isinstance(types, list) else ()


def text_config_copied(version: str) -> tuple[str, str] | None:
    """Whether `get_config` copies the attributes of a config's text config it lacks onto it
    (0.4.6-0.5.10), so that `text_config.quantization_config` is the checkpoint's for any model
    type: the (prefix, suffix) of the architectures it copies nothing for (Llava...ForCausalLM;
    "" not read); None when the release has no such copy or it was not read."""
    raw = _reading(version, "text_config_copied")
    return (str(raw["prefix"]), str(raw["suffix"])) if isinstance(raw, dict) else None


def attention_kind(version: str, architecture: str | None) -> str | None:
    """ "mla" or "mha": what the release's `ModelConfig` sets `attention_arch` to for a target of
    this architecture (`use_mla_backend()`), read per release from configs/model_config.py
    (`mla_architectures`: 0.5.8.post1 gives Kimi-K2.5 MHA, 0.5.9+ MLA); None where it is not
    read or the architecture's branch tests more than its name (0.5.23's Pixtral)."""
    raw = _reading(version, "mla_architectures")
    if not isinstance(raw, dict) or architecture is None:
        return None
    if architecture in raw["mla"]:
        return "mla"
    return None if architecture in raw["mla_if"] else "mha"


class QuantizationPairs:
    """What `_verify_quantization` of a release does with --quantization `asked` on a
    checkpoint whose `quant_method` differs, as read by tools/sglang_quant_hooks.py."""

    __slots__ = ("compatible", "requantization", "parsed", "overrides", "mismatch")

    def __init__(
        self, version: str, compatible: dict[str, list[str]], overrides: dict[str, object], mismatch: str
    ) -> None:
        self.compatible = {str(k): tuple(str(m) for m in v) for k, v in compatible.items()}
        requant = _reading(version, "requantization_methods")
        self.requantization = tuple(str(m) for m in requant) if isinstance(requant, list) else ()
        parsed = _reading(version, "quantization_parsed")
        self.parsed = tuple(str(m) for m in parsed) if isinstance(parsed, list) else ()
        self.overrides = overrides
        self.mismatch = mismatch

    def hooks(self, asked: str, method: str, keys: Collection[str] = ()) -> str:
        """One of "none", "override", "maybe": what the release's `override_quantization_method`
        hooks answer for the pair (`method` as the checkpoint spells it; `keys`: the other keys
        of its quantization_config; a hook that may rewrite the pair from keys the checkpoint
        does not have answers as read without them). "none" too where a hook may raise on the
        pair and none rewrites it (`raises`): the launch ends on every branch."""
        row, key = self._row(asked, method)
        if row is None:
            return "maybe"
        overridden = row.get("override", ())
        if isinstance(overridden, list) and key in overridden:
            return "override"
        doubt = self._doubt(row, key)
        if doubt is None:
            return "none"
        read = doubt.get("keys")
        if not isinstance(read, list) or "*" in read or any(k in keys for k in read):
            return "maybe"
        absent = str(doubt.get("absent", "maybe"))
        return "none" if absent == "raise" else absent

    def raises(self, asked: str, method: str) -> tuple[str, ...]:
        """The statements of the hooks that may raise on the pair where no hook rewrites it
        (`Class.helper: statement`, 0.4.9-0.4.9.post2's `assert VLLM_AVAILABLE`); ()."""
        row, key = self._row(asked, method)
        found = None if row is None else row.get("raise")
        statements = found.get(key) if isinstance(found, dict) else None
        return tuple(str(s) for s in statements) if isinstance(statements, list) else ()

    def unread(self, asked: str, method: str) -> tuple[str, ...]:
        """The hook statements the reading did not follow that the pair reaches (`Class.helper:
        statement`); () when it followed every one."""
        row, key = self._row(asked, method)
        doubt = None if row is None else self._doubt(row, key)
        found = None if doubt is None else doubt.get("unread")
        return tuple(str(s) for s in found) if isinstance(found, list) else ()

    @staticmethod
    def _doubt(row: dict[str, object], key: str) -> dict[str, object] | None:
        doubts = row.get("maybe")
        doubt = doubts.get(key) if isinstance(doubts, dict) else None
        return doubt if isinstance(doubt, dict) else None

    def _row(self, asked: str, method: str) -> tuple[dict[str, object] | None, str]:
        methods, users = self.overrides.get("methods"), self.overrides.get("users")
        if not isinstance(methods, list) or not isinstance(users, dict):
            return None, "*"
        row = users.get(asked, users.get("*"))
        return (row if isinstance(row, dict) else None), (method if method in methods else "*")


@lru_cache(maxsize=32)
def quantization_pairs(version: str) -> QuantizationPairs | None:
    """None: the release's verification or hooks were not read (nothing is said from it)."""
    compatible = _reading(version, "quantization_compatible")
    overrides = _reading(version, "quantization_overrides")
    mismatch = _reading(version, "quantization_mismatch")
    if not (isinstance(compatible, dict) and isinstance(overrides, dict) and isinstance(mismatch, str)):
        return None
    return QuantizationPairs(version, compatible, overrides, mismatch)


def generic_attention_pick(version: str, architecture: str, model_type: object) -> bool:
    """Whether the release picks the attention backend of a target of this architecture by its
    attention kind alone: its pick consults no architecture list (no
    `is_fa3_default_architecture`, 0.5.8+) and no comparison of its resolution names the
    architecture (or a part of it) or the model type (`generic_attention_pick`, read by
    tools/sglang_attention_arch.py); False where not read."""
    raw = _reading(version, "generic_attention_pick")
    if not isinstance(raw, dict):
        return False
    tested = [str(s) for s in raw["tested"]]
    return not any(s in architecture or s == model_type for s in tested)
