"""Name lists the releases read in their own source share (traits_read.py, one
`ReleaseTraits` per release, uses them): the architectures whose MTP draft is the target
itself (`mtp_draft_from_target`; 0.5.14 has the first twelve of 0.5.23's), those that take
the small default EAGLE tree (`small_tree_architectures`), the all-to-all MoE backends whose
expert parallelism spans every rank and how their messages name them (`a2a_spanning`), and
NGRAM's device refusal (`ngram_device_error`)."""

from __future__ import annotations

MTP_0_5_23 = (
    "DeepseekV32ForCausalLM",
    "DeepseekV3ForCausalLM",
    "DeepseekV4ForCausalLM",
    "Glm4MoeForCausalLM",
    "Glm4MoeLiteForCausalLM",
    "GlmMoeDsaForCausalLM",
    "BailingMoeForCausalLM",
    "BailingMoeV2ForCausalLM",
    "BailingMoeV2_5ForCausalLM",
    "MistralLarge3ForCausalLM",
    "PixtralForConditionalGeneration",
    "HYV3ForCausalLM",
    "HYV4ForCausalLM",
    "Qwen4ExpForConditionalGeneration",
)
SMALL_TREE_0_5_14 = (
    "DeepseekV32ForCausalLM",
    "DeepseekV3ForCausalLM",
    "DeepseekV2ForCausalLM",
    "GptOssForCausalLM",
    "Glm4MoeForCausalLM",
    "Glm4MoeLiteForCausalLM",
    "GlmMoeDsaForCausalLM",
    "BailingMoeForCausalLM",
    "BailingMoeV2ForCausalLM",
    "BailingMoeV2_5ForCausalLM",
    "MistralLarge3ForCausalLM",
    "PixtralForConditionalGeneration",
    "MiMoV2ForCausalLM",
    "MiMoV2FlashForCausalLM",
)
SMALL_TREE_0_5_6 = (
    "DeepseekV32ForCausalLM",
    "DeepseekV3ForCausalLM",
    "DeepseekV2ForCausalLM",
    "GptOssForCausalLM",
    "Glm4MoeForCausalLM",
    "BailingMoeForCausalLM",
    "BailingMoeV2ForCausalLM",
    "MistralLarge3ForCausalLM",
    "PixtralForConditionalGeneration",
)

A2A_0_5_14: dict[str, str | None] = {
    "megamoe": "Mega",
    "deepep": "DeepEP",
    "mooncake": "Mooncake",
    "nixl": "Nixl",
    "ascend_fuseep": "Ascend fused EP",
    "flashinfer": "Flashinfer MoE A2A",
    "mori": "MoRI",
}
A2A_0_5_17: dict[str, str | None] = dict.fromkeys(
    ("megamoe", "deepep", "mooncake", "nixl", "ascend_fuseep", "flashinfer", "mori", "pplx")
)
"""0.5.17-0.5.18 `_A2A_EP_SPANNING_BACKENDS` (0.5.17 adds pplx; its `_a2a_ep_size` logs the
change itself, so no backend's own line: None)."""
A2A_0_5_23 = dict.fromkeys(
    (
        "megamoe",
        "deepep",
        "deepep_v2",
        "mooncake",
        "nixl",
        "ascend_fuseep",
        "flashinfer",
        "flashinfer_megamoe",
        "mori",
        "pplx",
    )
)
NGRAM_CUDA_ONLY = "Ngram speculative decoding only supports CUDA device."
