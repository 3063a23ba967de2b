"""`ReleaseTraits`: the named resolution facts of one SGLang release (`speclint.sglang.traits`
holds one per modelled release). Every field is required, so a new release's entry has to
state each fact."""

from __future__ import annotations

from speclint.core.records import dataclass


@dataclass(frozen=True)
class ReleaseTraits:
    """The resolution facts of one SGLang release, read in its source."""

    # --- speculative decoding (speculative*.py) ---
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
    topk_one_forces_draft_tokens: bool
    """topk 1 sets speculative_num_draft_tokens = steps + 1 ("speculative_num_draft_tokens is
    adjusted to speculative_num_steps + 1 when speculative_eagle_topk == 1", 0.4.5.post3+)."""
    dp_attention_disables_overlap: bool
    """'post_init_dp_is_tp' releases: DP attention also turns the overlap scheduler off (0.4.0-
    0.4.1.post6; 0.4.1.post7 drops it from that block)."""
    cutlass_moe_ep_size: bool
    """With --enable-flashinfer-cutlass-moe, --enable-ep-moe sets ep_size = tp_size ("Flashinfer
    cutlass MoE and EP MoE are enabled. ...", 0.4.10.post1, whose --enable-ep-moe alone leaves it)."""
    deepep_ep_is_dp: bool
    """--enable-deepep-moe sets ep_size = dp_size inside the DP-attention block and nothing
    without it ("DeepEP MoE is enabled. The expert parallel size is adjusted to be the same as
    the data parallel size", 0.4.4.post2)."""
    eagle_post_init: str
    """EAGLE as the first releases resolve it (resolve/speculative_legacy.py): 'radix_off'
    (0.4.1.post4-0.4.3.post2: radix cache, chunked prefill and overlap off, no cap), 'cap_32'
    (0.4.3.post4-0.4.4.post3: 32 running requests, overlap off), 'cap_32_steps_below_draft'
    (0.4.3.post3: and `assert self.speculative_num_steps < self.speculative_num_draft_tokens`);
    empty: `_handle_eagle_family`'s model."""
    nextn_kept: bool
    """NEXTN stays NEXTN (resolved as EAGLE, not renamed: 0.4.3.post1-0.4.3.post2)."""
    backend_when_installed: bool
    """`__post_init__` sets the attention backend to flashinfer when FlashInfer is installed,
    else triton (0.4.4-0.4.4.post3): unknown to speclint, said so."""
    auto_params_missing_field: str
    """A field `auto_choose_speculative_params(self)` reads that the release's ServerArgs does
    not define, so auto-chosen draft parameters stop with AttributeError ('decrypted_config_file',
    0.4.4.post4-0.4.5.post3); empty: none."""
    standalone_params: tuple[int, int, int] | None
    """Auto (steps, topk, draft tokens) for STANDALONE; None before it exists (B5)."""
    max_running_requests_logged: bool
    """The cap of 48 running requests logs its warning; 0.4.10.post2 is silent (B7)."""
    eagle_disables_mixed_chunk: bool
    """True before 0.5.23; 0.5.23 keeps it for EAGLE/EAGLE3 and drops it for STANDALONE."""
    eagle_overlap: str
    """'kept' (v2 worker, 0.5.14+), 'spec_v2_env' (0.5.6.post2), 'beta_spec' (0.5.3: the
    --enable-beta-spec flag instead of the variable), 'spec_v2_listed' (0.5.7-0.5.10: the
    variable keeps it only for `spec_v2_algorithms`, every other algorithm turns it off),
    'spec_v2_default' (0.5.12: off only
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
    """--pp-size > 1 turns the overlap scheduler off while resolving (0.5.23 oracle; B8 for
    0.5.14); False: only `check_server_args` does, after resolution (0.4.6.post2-0.4.6.post3,
    `# FIXME pp constraints`), and the resolved value is left unknown, said so."""
    dflash_full_handler: bool
    """0.5.23 `_handle_dflash`: refuses non-CUDA/NPU/XPU devices, attention DP without
    --enable-dp-lm-head and pp_size != 1 before the draft check. Before it (0.5.11-0.5.22)
    attention DP is refused outright and the device check is `dflash_device_check`'s."""
    dflash_device_check: bool
    """0.5.17-0.5.22 `_handle_dflash` refuses devices other than CUDA and NPU (0.5.20: and
    XPU; 0.5.21+: the platform's) first (speculative_hook.py); 0.5.23's is in the full handler."""
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
    mtp_flashinfer_page_refused: bool
    """0.5.1-0.5.1.post1 `__post_init__`: a DeepseekV3/Glm4Moe MTP target (`mtp_draft_from_target`)
    with --attention-backend flashinfer and a page size other than 1 raises "Speculative
    decoding with page_size != 1 is not supported. Please set page_size to 1."."""
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
    layernorm_sp_architectures: tuple[str, ...]
    """--enable-layernorm-sp: the architectures `validate_layernorm_sp` accepts (0.5.19+;
    empty: no flag)."""
    cp_decode_attn_tp_architectures: tuple[str, ...]
    """--enable-cp-decode-attn-tp: `CP_DECODE_ATTN_TP_SUPPORTED_ARCHS` (0.5.17+)."""
    encoder_swa_replay_check: str
    """--enable-encoder-swa-bounded-replay needs model_type deepseek_v41: 'dsv4' (0.5.21-0.5.22:
    checked for DeepseekV4ForCausalLM), 'any' (0.5.23: every model), '' (no flag)."""
    mamba_rounding_needs_float16: bool
    """--enable-mamba-cache-stochastic-rounding needs --mamba-ssm-dtype float16 (0.5.15+)."""
    flashinfer_moe_quantization: str
    """The FlashInfer MoE runners' quantization asserts (refusals.py `_MOE_QUANTIZATION`):
    'flags_ep' (0.4.10: --enable-flashinfer-cutlass-moe needs modelopt_fp4,
    --enable-flashinfer-trtllm-moe needs --enable-ep-moe), 'flags' (0.4.10.post2),
    'runner_0_5_1' ... 'runner_0_5_6', 'runner_0_5_4_post1' (the runner's own list and
    wording), '' (0.5.7+: both
    take an unquantized model; or no such runner)."""
    cutlass_moe_quantizations: tuple[str, ...]
    """Quantizations on which `--moe-runner-backend cutlass` asserts ep_size == 1: fp8
    (0.5.4-0.5.8), fp8 and mxfp8 (0.5.9+); empty: no cutlass MoE runner (refusals.py)."""
    flashinfer_a2a_check: str
    """`--moe-a2a-backend flashinfer` in `_handle_a2a_moe` (refusals.py): 'cutlass_runner'
    (0.5.9-0.5.12: the MoE runner must be flashinfer_cutlass, 'auto' included), 'dp_attention'
    (0.5.13-0.5.21: an explicit runner; the DP-attention assert is
    `flashinfer_a2a_needs_dp_attention`; 'dp_attention_auto' in 0.5.13-0.5.14, where 'auto'
    is read too), 'attn_dp' (0.5.22: attn_dp_size == tp_size > 1), 'attn_dp_or_muse' (0.5.23: or Muse Spark's TP4/EP4, TP8/EP8 prefill
    sequence parallelism), '' (no check)."""
    flashinfer_a2a_runners: tuple[str, ...]
    """The MoE runners that check accepts next (an explicit --moe-runner-backend is compared;
    'auto' is resolved per model and GPU first)."""
    mori_dispatch_check: str
    """`--moe-a2a-backend mori` asserts chunked_prefill_size <=
    SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK (default 4096): 'any' (0.5.9), 'prefill'
    (0.5.10-0.5.14: not when chunked prefill is off or on decode nodes), 'per_rank' (0.5.15+:
    the same, worded per rank), '' (no check)."""
    flex_refuses_speculative: bool
    """`--attention-backend flex_attention` asserts no speculative algorithm (0.5.3+)."""
    trtllm_mla_refuses_speculative: bool
    """`--attention-backend trtllm_mla` raises "trtllm_mla backend does not support speculative
    decoding yet." with a speculative algorithm (0.4.10.post1-0.4.10.post2 `__post_init__`)."""
    mis_needs_flashinfer: bool
    """`--enable-mis` asserts flashinfer as the prefill and decode backends (0.5.11+)."""
    tp_lm_head_a2a_check: str
    """`--enable-tp-lm-head-all-to-all` asserts attention DP: 'dp_attention' (0.5.18-0.5.21,
    resolved enable_dp_attention), 'attn_dp' (0.5.22+: attn_dp_size > 1), '' (no flag)."""
    pdmux_check: bool
    """`check_server_args` asserts that --enable-pdmux runs with pp_size 1, chunked prefill off
    (-1), no disaggregation and the overlap scheduler off (0.5.3+; refusals_features.py)."""
    deterministic_backends: tuple[str, ...]
    """`DETERMINISTIC_ATTENTION_BACKEND_CHOICES`: an explicit --attention-backend outside them
    is refused with --enable-deterministic-inference (0.5.3+); empty: no such flag."""
    deterministic_sees_picked_backend: bool
    """0.5.4-0.5.11: `_handle_attention_backend_compatibility` picks the GPU's default backend
    before `_handle_deterministic_inference`, whose check then reads it as if given."""
    deterministic_mla_backends: tuple[str, ...]
    """The attention backends deterministic inference takes for DeepSeek-family models
    (`deterministic_mla_architectures`)."""
    deterministic_mla_message: str
    """That ValueError's text up to "But you're using X." (its list and wording per release)."""
    deterministic_mla_architectures: tuple[str, ...]
    """`is_deepseek_model`: the architectures `_handle_deterministic_inference` checks."""
    lmcache_check: str
    """--enable-lmcache refusals of `handle_cache_compatibility` (0.5.21+): 'dp_attention'
    (enable_dp_attention), 'attn_dp' (0.5.22+: attention DP of any form), '' (none read)."""
    dsa_split_check: bool
    """--enable-dsa-cache-layer-split is refused for a model that is not DSA (0.5.16+)."""
    page_major_check: str
    """--enable-page-major-kv-layout without --enable-unified-memory: 'triton_0_5_15' /
    'triton' (0.5.15-0.5.16 / 0.5.17-0.5.18: the attention backends must be triton, in those
    wordings), 'unified' (0.5.19+: refused whatever the backend), '' (no such flag)."""
    torch_compile_padding_check: bool
    """`check_server_args` refuses --disable-cuda-graph-padding with --enable-torch-compile
    (0.5.12+)."""
    # --- parallel layout (parallel.py) ---
    parallel_steps: str
    """'post_init_dp_is_tp' (0.4.0 `__post_init__`: DP attention sets dp_size = tp_size),
    'post_init' (0.4.10.post2 `__post_init__`), 'handlers' (0.5.6.post2 / 0.5.14
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
    """0.5.13-0.5.21 `_handle_a2a_moe`: --moe-a2a-backend flashinfer asserts
    --enable-dp-attention and dp_size == tp_size."""
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
    quantization_missing: tuple[str, ...]
    """--quantization choices the release's QUANTIZATION_METHODS lacks ("Unknown quantization
    method", recorded: bitsandbytes in 0.5.4-0.5.7)."""
    auto_backend_choice: str
    """How the release picks the attention backend for an H100/B200 when none is given
    (resolve/auto_backend.py, recorded): '' (not while resolving), 'flashinfer' (0.5.4-0.5.5:
    flashinfer on Blackwell), 'tree_free' (0.5.6: trtllm_mha on Blackwell without tree
    drafting), 'given_topk' (0.5.7+: and, with speculative decoding, a topk given),
    'given_topk_or_dflash' (0.5.23: or DFLASH, `_forces_eagle_topk_one`; hardware.py)."""
    deepseek_blackwell_mla: bool
    """DeepSeek-V3 on Blackwell with no backend given runs trtllm_mla (0.5.3+, recorded)."""
    deprecated_moe_flags: bool
    """`__post_init__` rewrites --enable-ep-moe (ep_size = tp_size) and --enable-deepep-moe
    (moe_a2a_backend deepep) before its handlers (0.5.2; 0.4.x in parallel.py's post_init)."""
    tbo_check: str
    """--enable-two-batch-overlap without an all-to-all backend (moe_a2a_backend 'none'):
    'a2a' (refused), 'a2a_or_dp_attention' (refused without --enable-dp-attention),
    'a2a_or_attn_dp' (refused without attention DP, attn_dp_size > 1), '' (no check)."""
    eplb_check: str
    """What --enable-eplb asserts: 'ep' (ep_size > 1), 'ep_unless_scale' (and not for
    --ep-join-mode scale), 'ep_or_a2a' (ep_size > 1 or an all-to-all backend),
    'ep_moe_flags' (--enable-ep-moe or --enable-deepep-moe), '' (nothing)."""
    lora_needs_rank_and_modules: bool
    """--enable-lora without --lora-paths needs --max-lora-rank and --lora-target-modules
    (`check_lora_server_args`)."""
    prefill_refuses_fake_transfer: bool
    """`--disaggregation-mode prefill` with `--disaggregation-transfer-backend fake` asserts
    "Prefill server does not support 'fake' as the transfer backend" (0.5.10+)."""
    multinode_dp_check: str
    """`check_server_args`'s refusal of data-parallel replicas over several nodes (resolved
    dp_size > 1 with nnodes != 1): 'any' (0.4.0), 'unless_dp_attention' (0.4.6-0.5.21: "not
    supported unless dp attention!"), 'replicas' (0.5.22+ validation_hook.py: "use attention
    DP (--attn-dp-size) across nodes")."""
    ep_moe_sets_ep_size: bool
    """--enable-ep-moe sets ep_size = tp_size in `__post_init__` (every release with the
    flag but 0.4.10, where the MoE layers read the flag and ep_size stays as given)."""
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
    enable_flashmla_pages: bool
    """--enable-flashmla sets page_size = 64 in `__post_init__` ("FlashMLA only supports a
    page_size of 64, change page_size to 64.", 0.4.4.post2-0.4.5.post1; later releases key it to
    --attention-backend flashmla)."""
    fa4_prefill_only: bool
    """"FA4 backend is only supported for prefill": fa4 as the attention or decode backend
    is refused."""
    cutlass_mla_pages: str
    """"Cutlass MLA only supports a page_size of 128": which explicit backends set page size
    128: 'attention' (--attention-backend), 'attention_or_decode' (or
    --decode-attention-backend), '' (no such rule: cutlass_mla is not a choice)."""
    fa4_pages: str
    """"FA4 backend only supports page size 128": when fa4 sets page size 128: 'prefill'
    (--prefill-attention-backend fa4, any model), 'prefill_mha' (and a non-MLA model),
    'prefill_mha_sm100' (and an SM100 GPU), 'mha_sm100_topk1' (fa4 as any of the three
    backends, non-MLA, SM100, EAGLE topk at most 1), 'mha_sm100_topk1_gemma' (and
    DiffusionGemmaForBlockDiffusion gets page size 1 instead), '' (no such rule)."""
    gpu_resolution: bool
    """The GPU-dependent resolution and 0.5.23's filled-in defaults are modelled
    (resolve/hardware.py, resolve/defaults.py): set from `speclint.sglang.gpu_resolution`
    (the release's GPU-resolution functions are those of a release checked against its
    recording), whatever an entry says; elsewhere those fields are Unknown, "unverified for
    SGLang X"."""
