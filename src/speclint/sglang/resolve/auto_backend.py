"""The attention backend releases before 0.5.22 pick for the GPU when none is given
(server_args.py `_handle_attention_backend_compatibility`, `_handle_model_specific_adjustments`),
per `ReleaseTraits.auto_backend_choice` / `deepseek_blackwell_mla`. Recorded by tools/oracle on
an H100 and a B200 for the architectures in `ARCHITECTURES` (tests/test_oracle_recordings.py
compares the backend and the page size launch by launch), and for an architecture that gets
one of their picks by the release's own tests (`_as_modelled`); for other architectures, GPUs
or devices the backend stays unknown. 0.5.22+ are resolved by hardware.py."""

from __future__ import annotations

from speclint.sglang.resolve.result import is_known

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.gpu_profiles import GpuProfile
    from speclint.sglang.resolve.state import ResolutionState

MHA_FA3_DEFAULT = ("LlamaForCausalLM", "Qwen3ForCausalLM")
"""MHA targets `is_fa3_default_architecture` lists (recorded: fa3 on the H100)."""
DEEPSEEK = "DeepseekV3ForCausalLM"
MHA_NOT_FA3_DEFAULT = "an MHA architecture is_fa3_default_architecture does not list"
"""Not an architecture: what `_as_modelled` answers for an MHA target the release's
`is_fa3_default_architecture` (0.5.4.post3-0.5.7) does not list (flashinfer on Hopper)."""
ARCHITECTURES = MHA_FA3_DEFAULT + (DEEPSEEK, MHA_NOT_FA3_DEFAULT)
_HANDLER = "_handle_attention_backend_compatibility"


def choose_backend(state: ResolutionState, gpu: GpuProfile | None) -> None:
    """Set `attention_backend` when the release picks it while resolving and the pick is
    known for this GPU and target; else leave it to attention.py (unknown)."""
    traits = state.traits
    names = ("attention_backend", "prefill_attention_backend", "decode_attention_backend")
    if _prefill_is_decode(state):
        return
    arch = _as_modelled(state)
    if (
        gpu is None
        and arch == DEEPSEEK
        and traits.deepseek_blackwell_mla
        and state.get("device") == "cuda"
        and all(state.get(n) is None for n in names)
    ):
        why = "depends on the GPU: pass --gpu (SGLang picks trtllm_mla, page size 64, for it on Blackwell)"
        state.set_unknown("attention_backend", why)
        if is_known(state.get("page_size")):
            state.set_unknown("page_size", why)
        return
    if (
        gpu is None
        or gpu.vendor != "nvidia"
        or state.config.uncertain
        or arch not in ARCHITECTURES
        or state.get("device") != "cuda"
        or any(not is_known(state.get(n)) for n in names + ("page_size",))
        or state.get("attention_backend") is not None
    ):
        return
    major = (gpu.sm or 0) // 10
    if arch == DEEPSEEK and major == 10 and traits.deepseek_blackwell_mla:
        if all(state.get(n) is None for n in names):
            state.set(
                "attention_backend",
                "trtllm_mla",
                "SGLang's default for "
                + ("DeepSeek-V3" if state.target_architecture == DEEPSEEK else str(state.target_architecture))
                + " on Blackwell (SM100)",
                "_handle_model_specific_adjustments",
                "Use trtllm_mla as attention backend on sm100 for DeepseekV3ForCausalLM",
                "info",
            )
            return
        if not traits.auto_backend_choice:
            return
        # a prefill or decode backend given: no trtllm_mla, the MLA default below (flashinfer)
    rule = traits.auto_backend_choice
    if not rule or gpu.sm not in (90, 100):
        return  # no pick while resolving, or a GPU the recordings do not cover
    backend = _pick(state, rule, arch, gpu.sm)
    state.set(
        "attention_backend",
        backend,
        f"SGLang {state.version}'s default for {gpu.name}",
        _HANDLER,
        f"Attention backend not explicitly specified. Use {backend} backend by default.",
    )


def _as_modelled(state: ResolutionState) -> str | None:
    """The architecture whose recorded pick this target gets: itself, or DeepSeek-V3 for an MLA
    architecture (`model_config_facts.attention_kind`) the release names beside DeepSeek-V3 in
    the branch that gives its DeepSeek family their Blackwell defaults (`moe_defaults.
    deepseek_branch`: the inline `model_arch in [...]` of 0.5.10-0.5.14, or the family's) and
    whose config is not a DSA one by the release's `is_deepseek_dsa` (Kimi-K2.5: oracle,
    0.5.14 on a fake H100 refused its FP4 KV cache on the fa3 it picks, as for DeepSeek-V3)."""
    arch = state.target_architecture
    if arch in ARCHITECTURES or arch is None:
        return arch
    from speclint.sglang.model_config_facts import attention_kind
    from speclint.sglang.moe_defaults import deepseek_branch

    raw = state.target_config.raw if state.target_config is not None else {}
    read = deepseek_branch(state.checked_version)
    if read is None or DEEPSEEK not in read[0] or arch not in read[0]:
        return _mha_by_kind(state, arch, raw)
    text = raw.get("text_config")
    dsa = arch in read[1] and (read[2] in raw or (isinstance(text, dict) and read[2] in text))
    if dsa or not raw or attention_kind(state.checked_version, arch) != "mla":
        return arch
    return DEEPSEEK


def _mha_by_kind(state: ResolutionState, arch: str, raw: dict[str, object]) -> str:
    """An MHA architecture (`attention_kind`) the release's pick does not tell apart from the
    others (`model_config_facts.generic_attention_pick`: 0.5.8+, no comparison of its resolution
    names it or its model type) gets the recorded MHA pick (Kimi-K2.5 in 0.5.8.post1: oracle,
    fa3 on a fake H100, trtllm_mha on a B200); where the pick calls `is_fa3_default_architecture`
    (0.5.4.post3-0.5.7, `fa3_default_architectures`) one it lists gets that pick, any other
    MHA_NOT_FA3_DEFAULT (Kimi-K2.5 in 0.5.7: oracle, flashinfer on a fake H100); an architecture
    of no known kind stays itself (not modelled)."""
    from speclint.sglang.model_config_facts import (
        attention_kind,
        fa3_default_architectures,
        generic_attention_pick,
    )

    if not raw or attention_kind(state.checked_version, arch) != "mha":
        return arch
    listed = fa3_default_architectures(state.checked_version)
    if listed is not None:  # 0.5.4.post3-0.5.7: the list decides Hopper's fa3 (oracle: 0.5.7)
        return MHA_FA3_DEFAULT[0] if arch in listed else MHA_NOT_FA3_DEFAULT
    if generic_attention_pick(state.checked_version, arch, raw.get("model_type")):
        return MHA_FA3_DEFAULT[0]
    return arch


def fa3_listed(state: ResolutionState) -> bool:
    """False where the release's pick calls `is_fa3_default_architecture` (0.5.4.post1-0.5.7,
    `fa3_default_architectures`) and its list does not name the target: flashinfer on Hopper
    (oracle, moe seeds 14005 and 15004: Kimi-K2.5 on a fake H100 on 0.5.4.post1-0.5.6.post1)."""
    from speclint.sglang.model_config_facts import fa3_default_architectures

    listed = fa3_default_architectures(state.checked_version)
    return listed is None or state.target_architecture in listed


def _prefill_is_decode(state: ResolutionState) -> bool:
    """0.5.4-0.5.21 (`_handle_attention_backend_compatibility`, 0.5.15+ overrides.py
    `_attention_backend_default`): a prefill backend equal to the decode backend becomes the
    attention backend, given or not, on any GPU (recorded on 0.5.6.post2 and 0.5.14)."""
    if not state.traits.auto_backend_choice:
        return False
    prefill = state.get("prefill_attention_backend")
    if not isinstance(prefill, str) or prefill != state.get("decode_attention_backend"):
        return False
    state.set(
        "attention_backend",
        prefill,
        "--prefill-attention-backend and --decode-attention-backend name the same backend",
        _HANDLER,
    )
    return True


def _pick(state: ResolutionState, rule: str, arch: str, sm: int) -> str:
    """fa3 on Hopper for MLA and for MHA without tree drafting (topk as given: none, or 1 on
    one-token pages); on Blackwell trtllm_mha for MHA without tree drafting ('tree_free',
    0.5.6; 'given_topk' 0.5.7+ also wants a topk given with speculative decoding;
    'flashinfer' 0.5.4-0.5.5: never), else flashinfer."""
    topk, page = state.asked.get("speculative_eagle_topk"), state.asked.get("page_size")
    tree_free = topk is None or (topk == 1 and page in (1, None))
    if arch == DEEPSEEK:
        return "fa3" if sm == 90 else "flashinfer"
    if sm == 90:
        return "fa3" if tree_free and arch != MHA_NOT_FA3_DEFAULT else "flashinfer"
    if rule == "tree_free" and tree_free:
        return "trtllm_mha"
    if (
        rule == "given_topk"
        and tree_free
        and (state.asked.get("speculative_algorithm") is None or topk is not None)
    ):
        return "trtllm_mha"
    return "flashinfer"
