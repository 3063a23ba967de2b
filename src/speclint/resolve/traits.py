"""What differs between SGLang releases in speculative-decoding resolution.

Each entry was read in that release's source (`server_args.py` / `arg_groups/
speculative_hook.py` in the wheel on PyPI); see ../shared/reference/sglang-behaviours.md B4-B10.
"""

from __future__ import annotations

from dataclasses import dataclass

_MTP_0_5_23 = (
    "DeepseekV32ForCausalLM", "DeepseekV3ForCausalLM", "DeepseekV4ForCausalLM",
    "Glm4MoeForCausalLM", "Glm4MoeLiteForCausalLM", "GlmMoeDsaForCausalLM",
    "BailingMoeForCausalLM", "BailingMoeV2ForCausalLM", "BailingMoeV2_5ForCausalLM",
    "MistralLarge3ForCausalLM", "PixtralForConditionalGeneration", "HYV3ForCausalLM",
    "HYV4ForCausalLM", "Qwen4ExpForConditionalGeneration",
)
_SMALL_TREE_0_5_14 = (
    "DeepseekV32ForCausalLM", "DeepseekV3ForCausalLM", "DeepseekV2ForCausalLM",
    "GptOssForCausalLM", "Glm4MoeForCausalLM", "Glm4MoeLiteForCausalLM",
    "GlmMoeDsaForCausalLM", "BailingMoeForCausalLM", "BailingMoeV2ForCausalLM",
    "BailingMoeV2_5ForCausalLM", "MistralLarge3ForCausalLM", "PixtralForConditionalGeneration",
    "MiMoV2ForCausalLM", "MiMoV2FlashForCausalLM",
)
_SMALL_TREE_0_5_6 = (
    "DeepseekV32ForCausalLM", "DeepseekV3ForCausalLM", "DeepseekV2ForCausalLM",
    "GptOssForCausalLM", "Glm4MoeForCausalLM", "BailingMoeForCausalLM",
    "BailingMoeV2ForCausalLM", "MistralLarge3ForCausalLM", "PixtralForConditionalGeneration",
)


@dataclass(frozen=True)
class SpeculativeTraits:
    eagle_family: tuple[str, ...]
    has_ngram: bool
    upper_cases_algorithm: bool
    """0.5.14+: `speculative_algorithm.upper()`; earlier, argparse choices are case-sensitive."""
    known_algorithms: tuple[str, ...]
    mtp_draft_from_target: tuple[str, ...]
    """Target architectures whose missing draft path is set to the model path."""
    copies_revision_to_draft: bool
    small_tree_architectures: tuple[str, ...]
    """Architectures auto-choosing (3, 1, 4); Llama and Grok get (5, 4, 8)."""
    other_architectures_params: tuple[int, int, int]
    """Auto (steps, topk, draft tokens) for every architecture in neither list."""
    standalone_params: tuple[int, int, int] | None
    max_running_requests_logged: bool
    eagle_disables_mixed_chunk: bool
    """True before 0.5.23; 0.5.23 keeps it for EAGLE/EAGLE3 and drops it for STANDALONE."""
    eagle_overlap: str
    """'kept' (v2 worker, 0.5.14+), 'spec_v2_env' (0.5.6.post2), 'disabled' (0.4.10.post2)."""
    ngram_default_draft_tokens_flag: str | None
    """0.5.6.post2 takes NGRAM draft tokens from --speculative-ngram-max-match-window-size."""
    ngram_sets_steps: bool
    ngram_devices: tuple[str, ...]
    page_tree_backends: tuple[str, ...]
    has_trtllm_mha_check: bool
    has_dflash: bool
    models_adaptive: bool = False
    """--speculative-adaptive is modelled (0.5.23 `_maybe_disable_adaptive` and
    `_init_adaptive_speculative_params`); elsewhere it makes the parameters unknown."""
    pp_disables_overlap: bool = False
    """--pp-size > 1 turns the overlap scheduler off (0.5.23 oracle; B8 for 0.5.14)."""
    dflash_full_handler: bool = False
    """0.5.23 `_handle_dflash`: refuses non-CUDA/NPU/XPU devices, attention DP without
    --enable-dp-lm-head and pp_size != 1 before the draft check, and caps running requests
    at 48 like the other handlers."""
    strips_device_index: bool = False
    """0.5.23 `_handle_missing_default_values`: --device cuda:1 resolves to "cuda"."""
    backend_page_sizes: bool = False
    """0.5.23: explicit flashmla / trtllm_mla / trtllm_mha backends change the page size the
    speculative checks read (`_mla_backend_page_constraints`), a missing one reads as 1."""


TRAITS: dict[str, SpeculativeTraits] = {
    "0.4.10.post2": SpeculativeTraits(
        eagle_family=("EAGLE", "EAGLE3"), has_ngram=False, upper_cases_algorithm=False,
        known_algorithms=("EAGLE", "EAGLE3", "NEXTN"),
        mtp_draft_from_target=("DeepseekV3ForCausalLM", "Glm4MoeForCausalLM"),
        copies_revision_to_draft=False,
        small_tree_architectures=("DeepseekV3ForCausalLM", "DeepseekV2ForCausalLM"),
        other_architectures_params=(5, 4, 8), standalone_params=None,
        max_running_requests_logged=False, eagle_disables_mixed_chunk=True,
        eagle_overlap="disabled", ngram_default_draft_tokens_flag=None, ngram_sets_steps=False,
        ngram_devices=(), page_tree_backends=(), has_trtllm_mha_check=False, has_dflash=False),
    "0.5.6.post2": SpeculativeTraits(
        eagle_family=("EAGLE", "EAGLE3", "STANDALONE"), has_ngram=True,
        upper_cases_algorithm=False,
        known_algorithms=("EAGLE", "EAGLE3", "NEXTN", "STANDALONE", "NGRAM"),
        mtp_draft_from_target=("DeepseekV32ForCausalLM", "DeepseekV3ForCausalLM",
                               "Glm4MoeForCausalLM", "BailingMoeForCausalLM",
                               "BailingMoeV2ForCausalLM", "MistralLarge3ForCausalLM",
                               "PixtralForConditionalGeneration"),
        copies_revision_to_draft=True, small_tree_architectures=_SMALL_TREE_0_5_6,
        other_architectures_params=(5, 4, 8), standalone_params=(3, 1, 4),
        max_running_requests_logged=True, eagle_disables_mixed_chunk=True,
        eagle_overlap="spec_v2_env",
        ngram_default_draft_tokens_flag="speculative_ngram_max_match_window_size",
        ngram_sets_steps=False, ngram_devices=("cuda",), page_tree_backends=("flashinfer", "fa3"),
        has_trtllm_mha_check=True, has_dflash=False),
    "0.5.14": SpeculativeTraits(
        eagle_family=("EAGLE", "EAGLE3", "STANDALONE"), has_ngram=True,
        upper_cases_algorithm=True,
        known_algorithms=("EAGLE", "EAGLE3", "NEXTN", "STANDALONE", "NGRAM", "DFLASH"),
        mtp_draft_from_target=_MTP_0_5_23[:12], copies_revision_to_draft=True,
        small_tree_architectures=_SMALL_TREE_0_5_14, other_architectures_params=(3, 1, 4),
        standalone_params=(3, 1, 4), max_running_requests_logged=True,
        eagle_disables_mixed_chunk=True, eagle_overlap="kept",
        ngram_default_draft_tokens_flag=None, ngram_sets_steps=True, ngram_devices=("cuda",),
        page_tree_backends=("flashinfer", "fa3", "triton"), has_trtllm_mha_check=True,
        has_dflash=True, pp_disables_overlap=True),
    "0.5.23": SpeculativeTraits(
        eagle_family=("EAGLE", "EAGLE3", "STANDALONE"), has_ngram=True,
        upper_cases_algorithm=True,
        known_algorithms=("EAGLE", "EAGLE3", "NEXTN", "STANDALONE", "NGRAM", "DFLASH",
                          "DSPARK", "UNO", "FROZEN_KV_MTP"),
        mtp_draft_from_target=_MTP_0_5_23, copies_revision_to_draft=True,
        small_tree_architectures=_SMALL_TREE_0_5_14, other_architectures_params=(3, 1, 4),
        standalone_params=(3, 1, 4), max_running_requests_logged=True,
        eagle_disables_mixed_chunk=False, eagle_overlap="kept",
        ngram_default_draft_tokens_flag=None, ngram_sets_steps=True,
        ngram_devices=("cuda", "cpu", "xpu"), page_tree_backends=("flashinfer", "fa3", "triton"),
        has_trtllm_mha_check=True, has_dflash=True, backend_page_sizes=True,
        models_adaptive=True, pp_disables_overlap=True, dflash_full_handler=True,
        strips_device_index=True),
}

LARGE_TREE_ARCHITECTURES = ("LlamaForCausalLM", "Grok1ForCausalLM", "Grok1VForCausalLM")


def modelled_release(version: str) -> str:
    """The modelled release whose resolution stands for `version`: itself when modelled,
    else the closest modelled release not newer than it (the oldest modelled one for
    releases before it). `speclint explain` says so when it differs."""
    if version in TRAITS:
        return version
    from speclint.flags.versions import version_key

    wanted = version_key(version)
    older = [v for v in TRAITS if version_key(v) <= wanted]
    return max(older, key=version_key) if older else min(TRAITS, key=version_key)


def traits_for(version: str) -> SpeculativeTraits:
    return TRAITS[modelled_release(version)]
