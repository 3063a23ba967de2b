"""Each release's defaults and asserts behind the MoE refusals of resolve/refusals_moe_defaults.py,
read from its wheel by tools/gen_sglang_moe_defaults.py (`data/sglang_moe_defaults.json`): the
GPU-memory tiers of the default chunked prefill size, the FlashInfer-Cutlass MoE runner's
quantization and expert-parallel asserts, whether DeepSeek-V3 on SM100 takes the checkpoint's
quantization, the --quantization values refused off an SM100 GPU, and (0.5.22+) which architectures
get the DeepSeek-family Blackwell defaults and the FlashInfer TRTLLM MoE assert, and every MoE
runner's quantization assert (resolve/refusals_moe_runner.py). A release
without a row, or without a reading, was not read: the checks say
nothing for it."""

from __future__ import annotations

from functools import lru_cache

from speclint.core.records import dataclass
from speclint.sglang.moe_readings import reading as _reading

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


@dataclass(frozen=True, slots=True)
class ChunkDefaults:
    """`_handle_gpu_memory_settings`' default chunked prefill size by GPU memory."""

    tiers: tuple[tuple[int | None, int], ...]
    """(upper bound in MiB, exclusive; None: the rest, the size)."""
    where: str
    """The module and function read."""

    def for_memory(self, memory_mib: int) -> int | None:
        for bound, size in self.tiers:
            if bound is None or memory_mib < bound:
                return size
        return None


@dataclass(frozen=True, slots=True)
class FlashinferCutlass:
    """The asserts under `moe_runner_backend == "flashinfer_cutlass"`."""

    quantizations: tuple[str | None, ...]
    message: str
    """SGLang's message, `{quantization}` where it puts the value."""
    ep_message: str | None
    """The `ep_size in [1, tp_size]` assert's message (None: the release has none)."""


@lru_cache(maxsize=16)
def chunk_defaults(version: str) -> ChunkDefaults | None:
    raw = _reading(version, "chunk_defaults")
    if raw is None:
        return None
    return ChunkDefaults(tuple((bound, size) for bound, size in raw["tiers"]), raw["where"])


@lru_cache(maxsize=16)
def flashinfer_cutlass(version: str) -> FlashinferCutlass | None:
    raw = _reading(version, "flashinfer_cutlass")
    if raw is None or raw.get("message") is None:
        return None
    return FlashinferCutlass(tuple(raw["quantizations"]), raw["message"], raw["ep_message"])


def sm100_adopts_checkpoint_quantization(version: str) -> bool:
    return _reading(version, "sm100_adopts_checkpoint_quantization") is True


def sm100_adopting_architectures(version: str) -> tuple[str, ...]:
    """The architectures whose SM100 branch sets --quantization from the checkpoint's
    `quant_method` when none is given; () when none was read."""
    raw = _reading(version, "sm100_adopting_architectures")
    return tuple(raw) if isinstance(raw, list) else ()


def quantization_adopters(version: str) -> tuple[tuple[frozenset[str], bool, bool], ...] | None:
    """(architectures, gated by an SM100/Blackwell test, skipped for `--quantization unquant`)
    of each statement of the release's resolution that sets the quantization from the
    checkpoint (tools/sglang_quant_adopters.py); None where one was not placed under its
    architectures, or not read."""
    raw = _reading(version, "quantization_adopters")
    if not isinstance(raw, list):
        return None
    return tuple(
        (frozenset(site["architectures"]), bool(site["gpu_gated"]), bool(site["unset_guarded"]))
        for site in raw
    )


def sm100_only_quantization(version: str) -> dict[str, tuple[str, str]]:
    """--quantization value -> (SGLang's message, the function raising it) for the values the
    release refuses on a GPU that is not SM100 (`nvfp4_online`, 0.5.14+); {} when none."""
    raw = _reading(version, "sm100_only_quantization")
    if not isinstance(raw, dict):
        return {}
    return {str(k): (str(v["message"]), str(v["where"]).rsplit(":", 1)[-1]) for k, v in raw.items()}


@dataclass(frozen=True, slots=True)
class DeepseekFamily:
    """Which architectures get the DeepSeek-family Blackwell (SM100) defaults, and the tests
    those defaults make (0.5.22+; tools/sglang_deepseek_family.py)."""

    attention: frozenset[str]
    """`_deepseek_family_overrides`' architectures: trtllm_mla when no backend is given."""
    moe: frozenset[str]
    """`_deepseek_moe_quant_resolution`'s: the checkpoint's quantization and MoE runner."""
    fp8_probe: frozenset[str]
    """Those whose safetensors SGLang opens for FP8 weights when the config states none."""
    runner_quantizations: tuple[str, ...]
    runner_none: bool
    runner_excluded_prefixes: tuple[str, ...]
    int4_checkpoint: dict[str, object] | None
    """{"quant_method": M, weights key: value, ...} of `config_groups.group_0.weights`."""
    dsa_architectures: frozenset[str]
    dsa_attribute: str
    """`is_deepseek_dsa`: one of these architectures whose config has this key (not None)."""


@lru_cache(maxsize=16)
def deepseek_family(version: str) -> DeepseekFamily | None:
    raw = _reading(version, "deepseek_family")
    if not isinstance(raw, dict):
        return None
    return DeepseekFamily(
        frozenset(raw["attention"]),
        frozenset(raw["moe"]),
        frozenset(raw.get("fp8_probe") or ()),
        tuple(raw["runner_quantizations"]),
        raw["runner_none"] is True,
        tuple(raw["runner_excluded_prefixes"]),
        raw["int4_checkpoint"],
        frozenset(raw["dsa"]["architectures"]),
        str(raw["dsa"]["attribute"]),
    )


def int4_trtllm_runner(version: str) -> tuple[frozenset[str], dict[str, object], tuple[str, ...]] | None:
    """(architectures, the int4 checkpoint test, architecture prefixes excluded) under which the
    release gives an SM100 GPU's int4 checkpoint (Kimi K2 / K2.5 thinking) the flashinfer_trtllm
    MoE runner whatever --quantization says (no all-to-all backend, runner auto):
    `deepseek_family` (0.5.15+) or the same test written inline (`inline_int4_runner`,
    0.5.10-0.5.14); None where neither is read."""
    family = deepseek_family(version)
    if family is not None:
        test = family.int4_checkpoint
        return (family.moe, test, family.runner_excluded_prefixes) if test else None
    raw = _reading(version, "inline_int4_runner")
    if not isinstance(raw, dict) or not raw.get("int4_checkpoint"):
        return None
    return frozenset(raw["moe"]), raw["int4_checkpoint"], tuple(raw["runner_excluded_prefixes"])


def deepseek_branch(version: str) -> tuple[frozenset[str], frozenset[str], str] | None:
    """(the architectures the release gives its DeepSeek-family Blackwell branch, those
    `is_deepseek_dsa` tests, the config key it looks for): `deepseek_family`'s attention
    architectures (0.5.15+) or the inline branch's (0.5.10-0.5.14, `inline_int4_runner`;
    0.5.8-0.5.9, `inline_trtllm_mla`); None where neither, or the DSA test, is read."""
    family = deepseek_family(version)
    if family is not None:
        return family.attention, family.dsa_architectures, family.dsa_attribute
    raw = _reading(version, "inline_int4_runner")
    names = raw.get("moe") if isinstance(raw, dict) else None
    if raw is None:
        raw = _reading(version, "inline_trtllm_mla")
        names = raw.get("attention") if isinstance(raw, dict) else None
    dsa = raw.get("dsa") if isinstance(raw, dict) else None
    if not isinstance(dsa, dict) or not isinstance(names, list):
        return None
    return frozenset(names), frozenset(dsa["architectures"]), str(dsa["attribute"])


def flashinfer_trtllm(version: str) -> tuple[tuple[str | None, ...], str] | None:
    """The FlashInfer TRTLLM MoE runner's assert: (quantizations it takes, SGLang's message
    with `{quantization}`); None when not read."""
    raw = _reading(version, "flashinfer_trtllm")
    if not isinstance(raw, dict) or not isinstance(raw.get("message"), str):
        return None
    return tuple(raw["quantizations"]), raw["message"]


@dataclass(frozen=True, slots=True)
class RunnerQuantization:
    """An MoE runner's quantization assert (tools/sglang_moe_runner_asserts.py)."""

    quantizations: tuple[str | None, ...]
    message: str
    """SGLang's message, `{quantization}` where it puts the value."""
    alternative: str | None
    """The assert's other `or` term, as written (None: there is none)."""
    hybrid_nvfp4: dict[str, str] | None
    """Where that term is `nvfp4_moe_meta is not None`: the quantization_config keys and
    upper-cased values the release's ModelConfig tests before it sets that meta."""


@lru_cache(maxsize=16)
def moe_runner_quantization(version: str) -> dict[str, RunnerQuantization]:
    """MoE runner -> its quantization assert in `_handle_moe_kernel_config` (and its
    `__post_init__` forerunners); {} when none was read."""
    raw = _reading(version, "moe_runner_quantization")
    if not isinstance(raw, dict):
        return {}
    return {
        str(runner): RunnerQuantization(
            tuple(r["quantizations"]), r["message"], r["alternative"], r.get("hybrid_nvfp4")
        )
        for runner, r in raw.items()
        if isinstance(r.get("message"), str)
    }


def moe_runner_overrides(version: str) -> dict[str, tuple[str, ...]]:
    """--quantization value -> the MoE runners resolution keeps under it; any other explicit
    runner is replaced before the runners' asserts (0.5.10+: mxfp8); {} when none read."""
    raw = _reading(version, "moe_runner_overrides")
    if not isinstance(raw, dict):
        return {}
    return {str(k): tuple(v) for k, v in raw.items()}


def runner_after_quantization(version: str, quantization: object, runner: str, a2a: object) -> str | None:
    """The MoE runner the release's asserts see for `runner` given (or "auto") under this
    --quantization, on CUDA, beside this --moe-a2a-backend: the runner itself where the
    quantization picks none (or keeps it: `moe_runner_overrides`), else the one it puts in its
    place (`moe_runner_replacements`, 0.5.10+ mxfp8: flashinfer_trtllm); None where not read."""
    kept = moe_runner_overrides(version).get(str(quantization))
    if kept is None:
        return runner
    if runner != "auto" and runner in kept:
        return runner
    raw = _reading(version, "moe_runner_replacements")
    read = raw.get(str(quantization)) if isinstance(raw, dict) else None
    if not isinstance(read, dict):
        return None
    by_a2a = read["a2a"].get(a2a) if isinstance(a2a, str) else None
    return str(by_a2a or read["auto" if runner == "auto" else "other"])


@dataclass(frozen=True, slots=True)
class EnvSwitch:
    """A boolean environment variable SGLang reads with `envs.NAME.get()` (environ.py's
    `NAME = EnvBool(default)`, read per release)."""

    name: str
    default: bool
    true: tuple[str, ...]
    """The values (lowered) `EnvBool.parse` takes as True; `false` as False; any other value
    reads as the default (SGLang warns)."""
    false: tuple[str, ...]

    def value(self, env: dict[str, str | None]) -> bool | None:
        """What `get()` answers for the launch's environment; None: set to a value speclint
        cannot read (or possibly set by an env file it could not read)."""
        if self.name not in env:
            return self.default
        raw = env[self.name]
        if raw is None:
            return None
        lowered = raw.lower()
        return True if lowered in self.true else False if lowered in self.false else self.default


@dataclass(frozen=True, slots=True)
class A2aException:
    """The runner a refusal's other terms take only beside one --moe-a2a-backend (0.5.23
    flashinfer_megamoe), and the environment switch they also ask for (None: not read)."""

    runner: str
    a2a: str
    env: EnvSwitch | None


def moe_runner_refusals(
    version: str,
) -> dict[str, tuple[tuple[str, ...], str, str | None, str, A2aException | None]]:
    """--quantization value -> (the explicit MoE runners it takes, SGLang's ValueError message,
    the test's other terms as written or None, the function raising it, and the runner those
    terms take only beside one --moe-a2a-backend (0.5.23 flashinfer_megamoe, with its
    environment switch), else None) for the values under which any other explicit runner is
    refused (0.5.14+: nvfp4_online); {} when none read."""
    raw = _reading(version, "moe_runner_refusals")
    if not isinstance(raw, dict):
        return {}
    return {
        str(k): (tuple(v["runners"]), str(v["message"]), v["unless"], str(v["where"]), _a2a(v))
        for k, v in raw.items()
    }


def _a2a(reading: dict[str, Any]) -> A2aException | None:
    a2a = reading.get("unless_a2a")
    if not isinstance(a2a, dict):
        return None
    env = a2a.get("env")
    switch = (
        EnvSwitch(str(env["name"]), bool(env["default"]), tuple(env["true"]), tuple(env["false"]))
        if isinstance(env, dict)
        else None
    )
    return A2aException(str(a2a["runner"]), str(a2a["moe_a2a_backend"]), switch)


def megamoe_architectures(version: str) -> tuple[tuple[str, ...], str, str] | None:
    """(the architectures `validate_flashinfer_megamoe_model` takes beside --moe-a2a-backend
    flashinfer_megamoe, its ValueError message with `{architectures}` and `{supported}`, the
    function calling it) where the release has it (0.5.20+); None when not read."""
    raw = _reading(version, "megamoe_architectures")
    if not isinstance(raw, dict):
        return None
    return tuple(str(a) for a in raw["architectures"]), str(raw["message"]), str(raw["where"])


@dataclass(frozen=True, slots=True)
class MegamoeQuantization:
    """`validate_flashinfer_megamoe_model`'s quantization check (0.5.20+), read per release."""

    quantizations: tuple[str, ...]
    """The resolved --quantization values it takes."""
    env: tuple[str, EnvSwitch] | None
    """A value it takes only where an environment switch is true (0.5.23 nvfp4_online)."""
    model_terms: tuple[str, ...]
    """ModelConfig attributes that also let it pass (is_fp4_experts, nvfp4_moe_meta); they stay
    false only for a checkpoint whose quantization_config has none of `config_keys` and whose
    architecture is none of `architectures` (what ModelConfig reads to set them)."""
    config_keys: tuple[str, ...]
    architectures: tuple[str, ...]
    message: str
    """SGLang's ValueError message, with `{quantization!r}`."""


def megamoe_quantization(version: str) -> MegamoeQuantization | None:
    """The quantization check beside --moe-a2a-backend flashinfer_megamoe; None when not read."""
    raw = _reading(version, "megamoe_architectures")
    quant = raw.get("quantization") if isinstance(raw, dict) else None
    if not isinstance(quant, dict):
        return None
    env = quant.get("env")
    switch = (
        (
            str(env["quantization"]),
            EnvSwitch(str(env["name"]), bool(env["default"]), tuple(env["true"]), tuple(env["false"])),
        )
        if isinstance(env, dict)
        else None
    )
    return MegamoeQuantization(
        tuple(quant["quantizations"]),
        switch,
        tuple(quant["model_terms"]),
        tuple(quant["config_keys"]),
        tuple(quant["architectures"]),
        str(quant["message"]),
    )


def moe_runner_lora(version: str) -> tuple[str, str, str] | None:
    """(runner prefix, SGLang's message with `{runner}`, the function raising it): the LoRA MoE
    runners refused without --enable-lora (0.5.23); None when not read."""
    raw = _reading(version, "moe_runner_lora")
    return (str(raw["prefix"]), str(raw["message"]), str(raw["where"])) if isinstance(raw, dict) else None


def megamoe_token_budget(version: str) -> dict[str, Any] | None:
    """0.5.21+ `validate_mega_moe_token_budget` (tools/sglang_megamoe.py): {"a2a", "env",
    "default", "message" with {label} {chunk} {partition} {partition_size} {alignment}
    {required} {limit}, "where", "needs": {"architectures", "quantizations", "quant_algo":
    [key, substring]}}; None when not read."""
    raw = _reading(version, "megamoe_token_budget")
    return raw if isinstance(raw, dict) else None
