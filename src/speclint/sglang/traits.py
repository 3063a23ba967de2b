"""What differs between SGLang releases in argument resolution: one `ReleaseTraits` entry
per modelled release, so handlers read named facts instead of comparing version strings.

Each entry was read in that release's source (`server_args.py`, 0.5.23's `arg_groups/`
hooks, in the wheel on PyPI); see ../shared/reference/sglang-behaviours.md B4-B10. Every
field is required, so a new release's entry has to state each fact.
"""

from __future__ import annotations

from functools import lru_cache

from speclint.core.records import dataclass
from speclint.sglang.traits_backends import (
    _KV_MLA_0_5_4,
    _KV_MLA_0_5_7,
    _KV_MLA_0_5_21,
    _QUANT_0_4_10,
    _QUANT_0_5_4,
    _QUANT_0_5_14,
    _QUANT_0_5_23,
    RECORDED_BACKEND_FACTS,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_MTP_0_5_23 = (
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
_SMALL_TREE_0_5_14 = (
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
_SMALL_TREE_0_5_6 = (
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


@dataclass(frozen=True)
class ReleaseTraits:
    """The resolution facts of one SGLang release, read in its source."""

    # --- speculative decoding (speculative.py) ---
    eagle_family: tuple[str, ...]
    """Algorithms modelled by `_handle_eagle_family` (0.4.10.post2: `__post_init__`)."""
    has_ngram: bool
    """`_handle_ngram` exists (0.5.6.post2+)."""
    upper_cases_algorithm: bool
    """0.5.14+: `speculative_algorithm.upper()`; earlier, argparse choices are case-sensitive."""
    known_algorithms: tuple[str, ...]
    """`SpeculativeAlgorithm.from_string` names (argparse choices before 0.5.14)."""
    mtp_draft_from_target: tuple[str, ...]
    """Target architectures whose missing draft path is set to the model path (B6)."""
    copies_revision_to_draft: bool
    """That MTP draft path also takes --revision as its draft revision (B6)."""
    small_tree_architectures: tuple[str, ...]
    """Architectures auto-choosing (3, 1, 4); Llama and Grok get (5, 4, 8)."""
    other_architectures_params: tuple[int, int, int]
    """Auto (steps, topk, draft tokens) for every architecture in neither list."""
    standalone_params: tuple[int, int, int] | None
    """Auto (steps, topk, draft tokens) for STANDALONE; None before it exists (B5)."""
    max_running_requests_logged: bool
    """The cap of 48 running requests logs its warning; 0.4.10.post2 is silent (B7)."""
    eagle_disables_mixed_chunk: bool
    """True before 0.5.23; 0.5.23 keeps it for EAGLE/EAGLE3 and drops it for STANDALONE."""
    eagle_overlap: str
    """'kept' (v2 worker, 0.5.14+), 'spec_v2_env' (0.5.6.post2), 'beta_spec' (0.5.3: the
    --enable-beta-spec flag instead of the variable), 'spec_v2_default' (0.5.12: off only
    for a given topk > 1 or SGLANG_ENABLE_SPEC_V2 false), 'disabled' (0.4.10.post2)."""
    cpu_disables_overlap: bool
    """0.5.23 `_disable_overlap_schedule_for_cpu` (speculative_hook.py): --device cpu runs
    speculative decoding without the overlap scheduler."""
    ngram_default_draft_tokens_flag: str | None
    """0.5.6.post2 takes NGRAM draft tokens from --speculative-ngram-max-match-window-size."""
    ngram_sets_steps: bool
    """`_handle_ngram` defaults steps to draft tokens // topk (0.5.14+, B10)."""
    ngram_devices: tuple[str, ...]
    """Device prefixes `_handle_ngram` accepts (B10)."""
    ngram_device_error: str
    """`_handle_ngram`'s ValueError for another device; empty where there is no NGRAM."""
    ngram_disables_overlap: bool
    """0.5.6.post2 `_handle_speculative_decoding`: NGRAM turns the overlap scheduler off (B8)."""
    page_tree_backends: tuple[str, ...]
    """Backends allowing topk > 1 with page_size > 1 (B9); empty: no such check."""
    has_trtllm_mha_check: bool
    """`trtllm_mha` refuses topk > 1 in `_handle_eagle_family` (B9)."""
    has_dflash: bool
    """`_handle_dflash` exists (0.5.14+)."""
    models_adaptive: bool
    """--speculative-adaptive is modelled (0.5.23 `_maybe_disable_adaptive` and
    `_init_adaptive_speculative_params`); elsewhere it makes the parameters unknown."""
    pp_disables_overlap: bool
    """--pp-size > 1 turns the overlap scheduler off (0.5.23 oracle; B8 for 0.5.14)."""
    dflash_full_handler: bool
    """0.5.23 `_handle_dflash`: refuses non-CUDA/NPU/XPU devices, attention DP without
    --enable-dp-lm-head and pp_size != 1 before the draft check, and caps running requests
    at 48 like the other handlers."""
    strips_device_index: bool
    """0.5.23 `_handle_missing_default_values`: --device cuda:1 resolves to "cuda"."""
    backend_page_sizes: bool
    """0.5.23: explicit flashmla / trtllm_mla / trtllm_mha backends change the page size the
    speculative checks read (`_mla_backend_page_constraints`), a missing one reads as 1."""
    aux_capture_algorithms: tuple[str, ...]
    """0.5.23 `handle_aux_hidden_state_capture` (validation_hook.py): the algorithms that
    name an aux capture convention; empty where the handler does not exist."""
    auto_attention_backend: bool
    """Resolution picks the attention backend for the GPU when none is given (attention.py;
    recorded: 0.4.x leaves it to the model runner)."""
    auto_backend_kept_pages: tuple[int, ...]
    """--page-size values every auto-picked backend keeps (Blackwell's trtllm_mha/trtllm_mla
    raise others to 64); empty where the backend is not picked while resolving."""
    spec_v2_algorithms: tuple[str, ...]
    """The algorithms SGLANG_ENABLE_SPEC_V2 (--enable-beta-spec) keeps the overlap scheduler
    on for (eagle_overlap 'spec_v2_env' / 'beta_spec')."""
    spec_v2_topk_one: bool
    """0.5.7-0.5.8: with spec v2 a given topk > 1 raises "Spec v2 currently only supports
    topk = 1"."""
    dflash_draft_backend: bool
    """`_resolve_dflash_draft_attention_backend` resolves the draft backend (0.5.15+, recorded)."""
    dflash_disables_overlap: bool
    """0.5.12-0.5.13 `_handle_dflash` turns the overlap scheduler off (recorded)."""
    dflash_disables_mixed_chunk: bool
    """0.5.14 `_handle_dflash` turns --enable-mixed-chunk off (recorded; 0.5.23 keeps it)."""
    trtllm_mha_pages: tuple[int, ...]
    """Page sizes a trtllm_mha backend (attention, decode or prefill) keeps; others become 64
    (attention.py). Empty: not modelled, the page size is unknown."""
    page_forces_topk_one: bool
    """0.4.6: a page size above 1 (after the backend's) turns topk > 1 into 1, logged."""
    deepep_auto_refuses_dp_attention: bool
    """0.4.6 `__post_init__`: --enable-deepep-moe in deepep_mode auto with DP attention
    raises (checks.py)."""
    draft_revision_main: bool
    """A draft path without --speculative-draft-model-revision resolves the revision to
    "main" (recorded: 0.5.3.post3 leaves it None)."""
    deprecated_action_raises: bool
    """The release's argparse `DeprecatedAction` raises `ValueError(help)` when its flag is
    used (server_args.py up to 0.5.7; later ones warn, or stop with their error_message)."""
    pp_speculative_prefill_only: bool
    """0.5.23 `check_pipeline_parallel_compat`: --pp-size > 1 drafts only with EAGLE and only
    on prefill nodes (checks.py)."""
    pp_refuses: tuple[str, ...]
    """`check_server_args` refuses --pp-size > 1 with these set (speculative_algorithm,
    enable_mixed_chunk); checks.py. Empty where no such assert exists (0.5.23)."""
    # --- parallel layout (parallel.py) ---
    parallel_steps: str
    """'post_init' (0.4.10.post2 `__post_init__`), 'handlers' (0.5.6.post2 / 0.5.14
    `_handle_data_parallelism`, `_handle_a2a_moe`), 'hooks' (0.5.23 parallel_hook.py,
    mega_moe_hook.py, overrides.py `_a2a_ep_size`)."""
    a2a_spanning: dict[str, str | None]
    """All-to-all backends whose `ep_size = tp_size` rewrite the release performs, with the
    name its log uses (None: 0.5.23 overrides.py `_A2A_EP_SPANNING_BACKENDS` logs the backend)."""
    a2a_ep_size_hook: bool
    """0.5.23 overrides.py `_a2a_ep_size` logs at INFO "... adjusted from {ep} to ..." and only
    when ep_size changes; earlier `_handle_a2a_moe` logs "{name} MoE is enabled" every time."""
    a2a_info_backends: tuple[str, ...]
    """Backends whose `_handle_a2a_moe` ep_size line is INFO, not WARNING (0.5.14 Mega MoE)."""
    flashinfer_a2a_needs_dp_attention: bool
    """0.5.14 `_handle_a2a_moe`: --moe-a2a-backend flashinfer asserts --enable-dp-attention
    and dp_size == tp_size."""
    waterfill: str | None
    """Which waterfill flag forces DeepEP: 'deepep_waterfill' (0.5.14 `_handle_a2a_moe`),
    'waterfill' (0.5.23 overrides.py `_a2a_backend_overrides`, MegaMOE kept too), None."""
    dp_lm_head_asserts: bool
    """0.5.2: --enable-dp-lm-head once attention DP is off (--dp-size 1) asserts instead of
    being turned off (recorded)."""
    separate_attn_dp_size: bool
    """0.5.23 parallel_hook.py: attention DP is `attn_dp_size` and `dp_size` counts replicas
    beside it (`handle_data_parallelism` refuses both > 1); earlier `dp_size` with
    `enable_dp_attention` is the attention-DP size."""
    replica_offset_spans_pp: bool
    """data_parallel_controller.py moves each DP replica's first GPU by tp * pp * gpu_id_step;
    0.4.10.post2 by tp * gpu_id_step."""
    quantization_verified: bool
    """`ModelConfig._verify_quantization` runs while the arguments resolve (resolve/quantization.py;
    recorded: 0.4.6.post5 builds no ModelConfig then)."""
    quantization_compatible: dict[str, tuple[str, ...]]
    """`_verify_quantization`'s `compatible_quantization_methods`: --quantization -> checkpoint
    quant_methods it accepts."""
    requantization_methods: tuple[str, ...]
    """model_config.py `REQUANTIZATION_METHODS`: online requantization of any checkpoint."""
    quantization_user_overrides: tuple[str, ...]
    """--quantization values an `override_quantization_method` hook adopts whatever the
    checkpoint (humming.py, 0.5.16+)."""
    quantization_missing: tuple[str, ...]
    """--quantization choices the release's QUANTIZATION_METHODS lacks ("Unknown quantization
    method", recorded: bitsandbytes in 0.5.4-0.5.7)."""
    auto_backend_choice: str
    """How the release picks the attention backend for an H100/B200 when none is given
    (resolve/auto_backend.py, recorded): '' (not while resolving), 'flashinfer' (0.5.4-0.5.5:
    flashinfer on Blackwell), 'tree_free' (0.5.6: trtllm_mha on Blackwell without tree
    drafting), 'given_topk' (0.5.7+: and, with speculative decoding, a topk given)."""
    deepseek_blackwell_mla: bool
    """DeepSeek-V3 on Blackwell with no backend given runs trtllm_mla (0.5.3+, recorded)."""
    deprecated_moe_flags: bool
    """`__post_init__` rewrites --enable-ep-moe (ep_size = tp_size) and --enable-deepep-moe
    (moe_a2a_backend deepep) before its handlers (0.5.2; 0.4.x in parallel.py's post_init)."""
    kv4_dtypes: tuple[str, ...]
    """KV-cache dtypes `_handle_kv4_compatibility` checks against the backend: fp4_e2m1
    (0.5.7-0.5.15), nvfp4 / fp4_mx_block16 (0.5.16-0.5.18); empty: no such check."""
    trtllm_mla_majors: tuple[int, ...]
    """Compute-capability majors an explicit trtllm_mla backend runs on ("only supported on
    Blackwell GPUs (SM100)" / "(SM100/SM12x)"); empty: no check (backend_gpu.py)."""
    trtllm_mla_kv_dtypes: tuple[str, ...]
    """KV-cache dtypes trtllm_mla accepts ("TensorRT-LLM MLA backend only supports
    kv-cache-dtype of ..."); empty: no check."""
    trtllm_mha_gpu_check: str
    """How trtllm_mha is checked against the GPU: 'sm100' (any use needs SM100),
    'prefill_sm100' (prefill SM100, decode SM90/100/120), 'hopper' (both SM90/100/120), ''."""
    fa4_prefill_only: bool
    """"FA4 backend is only supported for prefill": fa4 as the attention or decode backend
    is refused."""
    mla_prefill_graph_fixed: int | None
    """memory_hook.py: prefill CUDA graphs of an MLA model capture up to this many tokens
    (0.5.22: 2048); None: up to min(8192, chunked prefill size) (0.5.23)."""
    gpu_resolution: bool
    """0.5.23's GPU-dependent resolution and filled-in defaults are modelled (resolve/hardware.py,
    resolve/defaults.py: arg_groups/memory_hook.py, `_handle_missing_default_values`);
    elsewhere those fields are Unknown, "unverified for SGLang X"."""


_A2A_0_5_14: dict[str, str | None] = {
    "megamoe": "Mega",
    "deepep": "DeepEP",
    "mooncake": "Mooncake",
    "nixl": "Nixl",
    "ascend_fuseep": "Ascend fused EP",
    "flashinfer": "Flashinfer MoE A2A",
    "mori": "MoRI",
}
_A2A_0_5_23 = dict.fromkeys(
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
_NGRAM_CUDA_ONLY = "Ngram speculative decoding only supports CUDA device."

TRAITS: dict[str, ReleaseTraits] = {
    "0.4.10.post2": ReleaseTraits(
        eagle_family=("EAGLE", "EAGLE3"),
        has_ngram=False,
        upper_cases_algorithm=False,
        known_algorithms=("EAGLE", "EAGLE3", "NEXTN"),
        mtp_draft_from_target=("DeepseekV3ForCausalLM", "Glm4MoeForCausalLM"),
        copies_revision_to_draft=False,
        small_tree_architectures=("DeepseekV3ForCausalLM", "DeepseekV2ForCausalLM"),
        other_architectures_params=(5, 4, 8),
        standalone_params=None,
        max_running_requests_logged=False,
        eagle_disables_mixed_chunk=True,
        eagle_overlap="disabled",
        cpu_disables_overlap=False,
        ngram_default_draft_tokens_flag=None,
        ngram_sets_steps=False,
        ngram_devices=(),
        ngram_device_error="",
        ngram_disables_overlap=False,
        page_tree_backends=(),
        has_trtllm_mha_check=False,
        has_dflash=False,
        models_adaptive=False,
        pp_disables_overlap=True,
        dflash_full_handler=False,
        strips_device_index=False,
        backend_page_sizes=False,
        aux_capture_algorithms=(),
        auto_attention_backend=False,
        auto_backend_kept_pages=(),
        spec_v2_algorithms=("EAGLE",),
        spec_v2_topk_one=False,
        dflash_draft_backend=False,
        dflash_disables_overlap=False,
        dflash_disables_mixed_chunk=False,
        trtllm_mha_pages=(),
        page_forces_topk_one=False,
        deepep_auto_refuses_dp_attention=False,
        draft_revision_main=True,
        deprecated_action_raises=True,
        pp_speculative_prefill_only=False,
        pp_refuses=("speculative_algorithm", "enable_mixed_chunk"),
        parallel_steps="post_init",
        a2a_spanning={"deepep": "DeepEP"},
        a2a_ep_size_hook=False,
        a2a_info_backends=(),
        flashinfer_a2a_needs_dp_attention=False,
        waterfill=None,
        dp_lm_head_asserts=False,
        separate_attn_dp_size=False,
        replica_offset_spans_pp=False,
        mla_prefill_graph_fixed=None,
        trtllm_mla_majors=(10,),
        trtllm_mla_kv_dtypes=(),
        trtllm_mha_gpu_check="",
        auto_backend_choice="",
        deepseek_blackwell_mla=False,
        deprecated_moe_flags=False,
        kv4_dtypes=(),
        fa4_prefill_only=False,
        quantization_verified=True,
        quantization_compatible=_QUANT_0_4_10,
        requantization_methods=(),
        quantization_user_overrides=(),
        quantization_missing=(),
        gpu_resolution=False,
    ),
    "0.5.6.post2": ReleaseTraits(
        eagle_family=("EAGLE", "EAGLE3", "STANDALONE"),
        has_ngram=True,
        upper_cases_algorithm=False,
        known_algorithms=("EAGLE", "EAGLE3", "NEXTN", "STANDALONE", "NGRAM"),
        mtp_draft_from_target=(
            "DeepseekV32ForCausalLM",
            "DeepseekV3ForCausalLM",
            "Glm4MoeForCausalLM",
            "BailingMoeForCausalLM",
            "BailingMoeV2ForCausalLM",
            "MistralLarge3ForCausalLM",
            "PixtralForConditionalGeneration",
        ),
        copies_revision_to_draft=True,
        small_tree_architectures=_SMALL_TREE_0_5_6,
        other_architectures_params=(5, 4, 8),
        standalone_params=(3, 1, 4),
        max_running_requests_logged=True,
        eagle_disables_mixed_chunk=True,
        eagle_overlap="spec_v2_env",
        cpu_disables_overlap=False,
        ngram_default_draft_tokens_flag="speculative_ngram_max_match_window_size",
        ngram_sets_steps=False,
        ngram_devices=("cuda",),
        ngram_device_error=_NGRAM_CUDA_ONLY,
        ngram_disables_overlap=True,
        page_tree_backends=("flashinfer", "fa3"),
        has_trtllm_mha_check=True,
        has_dflash=False,
        models_adaptive=False,
        pp_disables_overlap=True,
        dflash_full_handler=False,
        strips_device_index=False,
        backend_page_sizes=False,
        aux_capture_algorithms=(),
        auto_attention_backend=True,
        auto_backend_kept_pages=(32, 64),
        spec_v2_algorithms=("EAGLE",),
        spec_v2_topk_one=False,
        dflash_draft_backend=False,
        dflash_disables_overlap=False,
        dflash_disables_mixed_chunk=False,
        trtllm_mha_pages=(16, 32, 64),
        page_forces_topk_one=False,
        deepep_auto_refuses_dp_attention=False,
        draft_revision_main=True,
        deprecated_action_raises=True,
        pp_speculative_prefill_only=False,
        pp_refuses=("speculative_algorithm", "enable_mixed_chunk"),
        parallel_steps="handlers",
        a2a_spanning={"deepep": "DeepEP", "mooncake": "Mooncake", "ascend_fuseep": "Ascend fused EP"},
        a2a_ep_size_hook=False,
        a2a_info_backends=(),
        flashinfer_a2a_needs_dp_attention=False,
        waterfill=None,
        dp_lm_head_asserts=False,
        separate_attn_dp_size=False,
        replica_offset_spans_pp=True,
        mla_prefill_graph_fixed=None,
        trtllm_mla_majors=(10,),
        trtllm_mla_kv_dtypes=_KV_MLA_0_5_4,
        trtllm_mha_gpu_check="sm100",
        auto_backend_choice="tree_free",
        deepseek_blackwell_mla=True,
        deprecated_moe_flags=False,
        kv4_dtypes=(),
        fa4_prefill_only=True,
        quantization_verified=True,
        quantization_compatible=_QUANT_0_5_4,
        requantization_methods=(),
        quantization_user_overrides=(),
        quantization_missing=("bitsandbytes",),
        gpu_resolution=False,
    ),
    "0.5.14": ReleaseTraits(
        eagle_family=("EAGLE", "EAGLE3", "STANDALONE"),
        has_ngram=True,
        upper_cases_algorithm=True,
        known_algorithms=("EAGLE", "EAGLE3", "NEXTN", "STANDALONE", "NGRAM", "DFLASH"),
        mtp_draft_from_target=_MTP_0_5_23[:12],
        copies_revision_to_draft=True,
        small_tree_architectures=_SMALL_TREE_0_5_14,
        other_architectures_params=(3, 1, 4),
        standalone_params=(3, 1, 4),
        max_running_requests_logged=True,
        eagle_disables_mixed_chunk=True,
        eagle_overlap="kept",
        cpu_disables_overlap=False,
        ngram_default_draft_tokens_flag=None,
        ngram_sets_steps=True,
        ngram_devices=("cuda",),
        ngram_device_error=_NGRAM_CUDA_ONLY,
        ngram_disables_overlap=False,
        page_tree_backends=("flashinfer", "fa3", "triton"),
        has_trtllm_mha_check=True,
        has_dflash=True,
        models_adaptive=False,
        pp_disables_overlap=True,
        dflash_full_handler=False,
        strips_device_index=False,
        backend_page_sizes=False,
        aux_capture_algorithms=(),
        auto_attention_backend=True,
        auto_backend_kept_pages=(32, 64),
        spec_v2_algorithms=("EAGLE",),
        spec_v2_topk_one=False,
        dflash_draft_backend=False,
        dflash_disables_overlap=False,
        dflash_disables_mixed_chunk=True,
        trtllm_mha_pages=(16, 32, 64),
        page_forces_topk_one=False,
        deepep_auto_refuses_dp_attention=False,
        draft_revision_main=True,
        deprecated_action_raises=False,
        pp_speculative_prefill_only=False,
        pp_refuses=("speculative_algorithm",),
        parallel_steps="handlers",
        a2a_spanning=_A2A_0_5_14,
        a2a_ep_size_hook=False,
        a2a_info_backends=("megamoe",),
        flashinfer_a2a_needs_dp_attention=True,
        waterfill="deepep_waterfill",
        dp_lm_head_asserts=False,
        separate_attn_dp_size=False,
        replica_offset_spans_pp=True,
        mla_prefill_graph_fixed=None,
        trtllm_mla_majors=(10, 12),
        trtllm_mla_kv_dtypes=_KV_MLA_0_5_7,
        trtllm_mha_gpu_check="prefill_sm100",
        auto_backend_choice="given_topk",
        deepseek_blackwell_mla=True,
        deprecated_moe_flags=False,
        kv4_dtypes=("fp4_e2m1",),
        fa4_prefill_only=False,
        quantization_verified=True,
        quantization_compatible=_QUANT_0_5_14,
        requantization_methods=(),
        quantization_user_overrides=(),
        quantization_missing=(),
        gpu_resolution=False,
    ),
    "0.5.23": ReleaseTraits(
        eagle_family=("EAGLE", "EAGLE3", "STANDALONE"),
        has_ngram=True,
        upper_cases_algorithm=True,
        known_algorithms=(
            "EAGLE",
            "EAGLE3",
            "NEXTN",
            "STANDALONE",
            "NGRAM",
            "DFLASH",
            "DSPARK",
            "UNO",
            "FROZEN_KV_MTP",
        ),
        mtp_draft_from_target=_MTP_0_5_23,
        copies_revision_to_draft=True,
        small_tree_architectures=_SMALL_TREE_0_5_14,
        other_architectures_params=(3, 1, 4),
        standalone_params=(3, 1, 4),
        max_running_requests_logged=True,
        eagle_disables_mixed_chunk=False,
        eagle_overlap="kept",
        cpu_disables_overlap=True,
        ngram_default_draft_tokens_flag=None,
        ngram_sets_steps=True,
        ngram_devices=("cuda", "cpu", "xpu"),
        ngram_device_error="Ngram speculative decoding only supports CUDA, CPU, or XPU devices.",
        ngram_disables_overlap=False,
        page_tree_backends=("flashinfer", "fa3", "triton"),
        has_trtllm_mha_check=True,
        has_dflash=True,
        models_adaptive=True,
        pp_disables_overlap=True,
        dflash_full_handler=True,
        strips_device_index=True,
        backend_page_sizes=True,
        aux_capture_algorithms=("EAGLE3", "DFLASH", "DSPARK"),
        auto_attention_backend=True,
        auto_backend_kept_pages=(32, 64),
        spec_v2_algorithms=("EAGLE",),
        spec_v2_topk_one=False,
        dflash_draft_backend=True,
        dflash_disables_overlap=False,
        dflash_disables_mixed_chunk=False,
        trtllm_mha_pages=(16, 32, 64, 128),
        page_forces_topk_one=False,
        deepep_auto_refuses_dp_attention=False,
        draft_revision_main=True,
        deprecated_action_raises=False,
        pp_speculative_prefill_only=True,
        pp_refuses=(),
        parallel_steps="hooks",
        a2a_spanning=_A2A_0_5_23,
        a2a_ep_size_hook=True,
        a2a_info_backends=(),
        flashinfer_a2a_needs_dp_attention=False,
        waterfill="waterfill",
        dp_lm_head_asserts=False,
        separate_attn_dp_size=True,
        replica_offset_spans_pp=True,
        mla_prefill_graph_fixed=None,
        trtllm_mla_majors=(10, 12),
        trtllm_mla_kv_dtypes=_KV_MLA_0_5_21,
        trtllm_mha_gpu_check="hopper",
        auto_backend_choice="given_topk",
        deepseek_blackwell_mla=True,
        deprecated_moe_flags=False,
        kv4_dtypes=(),
        fa4_prefill_only=False,
        quantization_verified=True,
        quantization_compatible=_QUANT_0_5_23,
        requantization_methods=("quark_mxfp4",),
        quantization_user_overrides=("humming",),
        quantization_missing=(),
        gpu_resolution=True,
    ),
}


def _like(release: str, **changes: Any) -> ReleaseTraits:  # ReleaseTraits fields, any of them
    """`release`'s traits with `changes`; the GPU-dependent resolution (hardware.py, read for
    0.5.23 and checked with a GPU there) is not claimed for the recorded releases."""
    changes.setdefault("gpu_resolution", False)
    return _replaced(TRAITS[release], changes)


def _replaced(traits: ReleaseTraits, changes: dict[str, Any]) -> ReleaseTraits:
    """`dataclasses.replace(traits, **changes)`: every field of ReleaseTraits is an init field
    and nothing else is set on it, so its instance dict holds exactly its fields (replace's
    loop over the 65 fields, ~100 times, was ~2 ms of a cold run)."""
    return ReleaseTraits(**{**vars(traits), **changes})


_SPEC_0_5_12 = dict(
    eagle_overlap="spec_v2_default",
    ngram_disables_overlap=True,
    ngram_sets_steps=False,
    dflash_disables_overlap=True,
    page_tree_backends=("flashinfer", "fa3"),
)
"""0.5.11-0.5.12 server_args.py: spec v1 (overlap off) for a given topk > 1; NGRAM turns the
overlap scheduler off and leaves steps unset; DFLASH turns it off; paged trees only on
flashinfer and fa3 (`attention_backend not in ["flashinfer", "fa3"]`)."""
_PARALLEL_0_5_14 = dict(parallel_steps=TRAITS["0.5.14"].parallel_steps, separate_attn_dp_size=False)
"""`_handle_data_parallelism` where --dp-size is still the attention-DP size (0.5.20-0.5.21)."""

# Releases recorded by tools/oracle (tests/data/oracle): each entry is the closest read
# release's with the differences its recording shows (tests/test_oracle_recordings.py
# checks every launch), and the source lines named.
TRAITS.update(
    {
        # __post_init__: auto_choose_speculative_params returns (5, 4, 8) for every
        # architecture; only DeepseekV3 takes its own path as the draft; "page_size > 1 and
        # speculative_eagle_topk > 1" sets topk 1; mixed chunk is left on.
        "0.4.6.post5": _like(
            "0.4.10.post2",
            small_tree_architectures=(),
            mtp_draft_from_target=("DeepseekV3ForCausalLM",),
            eagle_disables_mixed_chunk=False,
            page_forces_topk_one=True,
            deepep_auto_refuses_dp_attention=True,
        ),
        # recorded: as 0.4.10.post2, and `_handle_speculative_decoding` refuses topk > 1 on
        # trtllm_mha
        "0.5.1.post3": _like("0.4.10.post2", has_trtllm_mha_check=True),
        # speculative decoding as 0.5.3.post3 (its --enable-ep-moe / --enable-deepep-moe
        # rewriting is a counted known difference in tests/test_oracle_recordings.py)
        "0.5.2": _like(
            "0.5.6.post2",
            eagle_overlap="beta_spec",
            draft_revision_main=False,
            page_tree_backends=("flashinfer",),
            trtllm_mha_pages=(16, 32, 64),
            dp_lm_head_asserts=True,
        ),
        # server_args.py `_handle_speculative_decoding`: --enable-beta-spec keeps the overlap
        # scheduler for EAGLE; the draft revision stays None; topk > 1 with pages > 1 only on
        # flashinfer; NGRAM as 0.5.6.post2
        "0.5.3.post3": _like(
            "0.5.6.post2",
            eagle_overlap="beta_spec",
            draft_revision_main=False,
            page_tree_backends=("flashinfer",),
            trtllm_mha_pages=(16, 32, 64),
        ),
        # as 0.5.6.post2, without the draft revision default
        "0.5.4.post3": _like("0.5.6.post2", draft_revision_main=False, page_tree_backends=("flashinfer",)),
        "0.5.5.post3": _like("0.5.6.post2", draft_revision_main=False, page_tree_backends=("flashinfer",)),
        # recorded: resolves every battery launch as 0.5.23 does, the GPU-dependent fields
        # (memory, CUDA graphs, attention backend) on the H100 and the B200 included
        # (memory_hook.py: prefill CUDA graphs of MLA models capture up to 2048 tokens)
        "0.5.22": _like("0.5.23", gpu_resolution=True, mla_prefill_graph_fixed=2048),
        # server_args.py: SGLANG_ENABLE_SPEC_V2 also covers EAGLE3 and refuses a given topk > 1
        "0.5.7": _like("0.5.6.post2", spec_v2_algorithms=("EAGLE", "EAGLE3"), spec_v2_topk_one=True),
        # and auto_choose_speculative_params gives (3, 1, 4) to architectures it does not list
        "0.5.8.post1": _like(
            "0.5.6.post2",
            spec_v2_algorithms=("EAGLE", "EAGLE3"),
            spec_v2_topk_one=True,
            other_architectures_params=(3, 1, 4),
        ),
        # recorded: as 0.5.8.post1
        "0.5.9": _like(
            "0.5.6.post2",
            spec_v2_algorithms=("EAGLE", "EAGLE3"),
            spec_v2_topk_one=True,
            other_architectures_params=(3, 1, 4),
        ),
        # as 0.5.9, and NGRAM's default draft tokens are 12
        "0.5.10.post1": _like(
            "0.5.6.post2",
            spec_v2_algorithms=("EAGLE", "EAGLE3"),
            spec_v2_topk_one=True,
            other_architectures_params=(3, 1, 4),
            ngram_default_draft_tokens_flag=None,
        ),
        "0.5.11": _like("0.5.14", **_SPEC_0_5_12),
        "0.5.12.post1": _like("0.5.14", **_SPEC_0_5_12),
        # NGRAM and DFLASH as 0.5.12.post1, EAGLE as 0.5.14
        "0.5.13.post1": _like(
            "0.5.14", ngram_disables_overlap=True, ngram_sets_steps=False, dflash_disables_overlap=True
        ),
        # as 0.5.14, and DFLASH resolves its draft attention backend
        "0.5.15.post1": _like("0.5.14", dflash_draft_backend=True),
        "0.5.16": _like("0.5.14", dflash_draft_backend=True),
        "0.5.17": _like("0.5.14", dflash_draft_backend=True),
        # speculative decoding as 0.5.23; the parallel layout still 0.5.14's
        # (`_handle_data_parallelism`: --dp-size is the attention-DP size)
        # as 0.5.19, and EAGLE still turns mixed chunked prefill off
        "0.5.18": _like(
            "0.5.23", **_PARALLEL_0_5_14, eagle_disables_mixed_chunk=True, dflash_disables_mixed_chunk=True
        ),
        "0.5.19": _like("0.5.23", **_PARALLEL_0_5_14),
        "0.5.20": _like("0.5.23", **_PARALLEL_0_5_14),
        "0.5.21": _like("0.5.23", **_PARALLEL_0_5_14),
    }
)

for _changes in RECORDED_BACKEND_FACTS:
    for _release, _fields in _changes.items():
        TRAITS[_release] = _replaced(TRAITS[_release], _fields)

LARGE_TREE_ARCHITECTURES = ("LlamaForCausalLM", "Grok1ForCausalLM", "Grok1VForCausalLM")


@lru_cache(maxsize=256)
def modelled_release(version: str) -> str:
    """The modelled release whose resolution stands for `version`: itself when modelled,
    else the closest modelled release not newer than it (the oldest modelled one for
    releases before it). `speclint explain` says so when it differs."""
    if version in TRAITS:
        return version
    from speclint.sglang.flags.versions import version_key

    wanted = version_key(version)
    older = [v for v in TRAITS if version_key(v) <= wanted]
    return max(older, key=version_key) if older else min(TRAITS, key=version_key)


def traits_for(version: str) -> ReleaseTraits:
    """The traits SGLang `version` resolves with (its modelled release's)."""
    return TRAITS[modelled_release(version)]
