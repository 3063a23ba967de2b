"""Recorded releases that resolve, whole, as another modelled release (its entry with the later
facts included, `traits.py` `TRAITS`), with the differences each recording shows and the
source lines they were read from (tests/data/oracle/<release>.json.gz;
tests/test_oracle_recordings.py checks every launch). Data only: traits.py builds the entries."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

WHOLE_LIKE: dict[str, tuple[str, dict[str, Any]]] = {
    # recorded (session 12): each resolves the main battery (tests/data/oracle/<release>.json.gz)
    # launch for launch as the release named, with the changes given; their source differs
    # from it otherwise only where speclint does not model (the GPU's memory and chunked-prefill
    # sizes, disaggregation's decode TP/DP checks)
    # 0.4.6.post1 `__post_init__`: 0.4.6's (no DeepSeek-V3 MTP draft taken from the target,
    # no --pp-size yet); 0.4.6.post2+ add "Auto set draft_model_path DeepSeek-V3/R1" and
    # --pp-size, whose overlap-scheduler switch 0.4.6.post2-0.4.6.post3 make in
    # `check_server_args` only ("Turn off overlap scheule for pipeline parallelism."),
    # 0.4.6.post4 in `__post_init__` as 0.4.6.post5
    # 0.4.4.post4-0.4.5.post3 `auto_choose_speculative_params(self)` reads
    # `self.decrypted_config_file`, a field their ServerArgs does not define: an EAGLE launch
    # without --speculative-num-steps stops with AttributeError
    "0.4.5.post3": ("0.4.6", {"auto_params_missing_field": "decrypted_config_file"}),
    # 0.4.4.post4-0.4.5.post2: topk 1 leaves --speculative-num-draft-tokens as given (0.4.5.post3
    # adds "speculative_num_draft_tokens is adjusted to speculative_num_steps + 1 ...")
    "0.4.5.post2": ("0.4.5.post3", {"topk_one_forces_draft_tokens": False}),
    # 0.4.4.post4-0.4.5.post1: 0.4.5.post2's `__post_init__`, but --enable-flashmla sets page
    # size 64 ("FlashMLA only supports a page_size of 64, change page_size to 64.") and no
    # moe_dense_tp_size assert
    "0.4.5.post1": ("0.4.5.post2", {"enable_flashmla_pages": True}),
    "0.4.5": ("0.4.5.post1", {}),
    "0.4.4.post4": ("0.4.5.post1", {}),
    # 0.4.0.post1-0.4.1.post3: 0.4.1's `__post_init__` (DP attention makes dp_size the TP size,
    # --enable-ep-moe sets ep_size) and `check_server_args`; no speculative decoding yet
    "0.4.0.post1": ("0.4.1", {}),
    "0.4.0.post2": ("0.4.1", {}),
    "0.4.1.post1": ("0.4.1", {}),
    "0.4.1.post2": ("0.4.1", {}),
    "0.4.1.post3": ("0.4.1", {}),
    "0.4.1.post4": ("0.4.1", {"eagle_post_init": "radix_off", "topk_one_forces_draft_tokens": False}),
    "0.4.1.post5": ("0.4.1.post4", {}),
    "0.4.1.post6": ("0.4.1.post4", {}),
    "0.4.1.post7": (
        "0.4.1.post4",
        {"dp_attention_disables_overlap": False, "multinode_dp_check": "unless_dp_attention"},
    ),
    "0.4.2": ("0.4.1.post7", {}),
    "0.4.2.post1": ("0.4.1.post7", {}),
    "0.4.2.post2": ("0.4.1.post7", {}),
    "0.4.2.post3": ("0.4.1.post7", {}),
    "0.4.2.post4": ("0.4.1.post7", {}),
    "0.4.3": ("0.4.1.post7", {}),
    # 0.4.3.post1-0.4.3.post2: `if self.speculative_algorithm == "EAGLE" or ... == "NEXTN":`,
    # NEXTN not renamed
    "0.4.3.post1": ("0.4.1.post7", {"nextn_kept": True}),
    "0.4.3.post2": ("0.4.1.post7", {"nextn_kept": True}),
    # 0.4.3.post3: NEXTN renamed EAGLE, which caps running requests at 32 and asserts
    # `self.speculative_num_steps < self.speculative_num_draft_tokens`; 0.4.3.post4 comments the
    # assert out
    "0.4.3.post3": ("0.4.1.post7", {"eagle_post_init": "cap_32_steps_below_draft"}),
    "0.4.3.post4": ("0.4.1.post7", {"eagle_post_init": "cap_32"}),
    # 0.4.4.post3 `__post_init__`: 0.4.5.post2's, but the attention backend is picked (flashinfer
    # when installed), EAGLE caps running requests at 32 with no auto-chosen parameters, no
    # page-size topk rewrite, and --enable-flashmla sets page size 64
    "0.4.4.post3": (
        "0.4.5.post2",
        {
            "auto_params_missing_field": "",
            "page_forces_topk_one": False,
            "eagle_post_init": "cap_32",
            "backend_when_installed": True,
            "enable_flashmla_pages": True,
        },
    ),
    # 0.4.4.post2: --enable-deepep-moe sets ep_size = dp_size inside the DP-attention block only
    # (0.4.4.post3: "DeepEP MoE is enabled ... tensor parallel size", always)
    "0.4.4.post2": ("0.4.4.post3", {"a2a_spanning": {}, "deepep_ep_is_dp": True}),
    # 0.4.4.post1: neither --enable-flashmla nor --enable-deepep-moe yet (argparse refuses them)
    "0.4.4.post1": ("0.4.4.post2", {}),
    # 0.4.4: DP attention sets dp_size = tp_size (0.4.1.post7's block, the overlap scheduler kept)
    "0.4.4": (
        "0.4.4.post1",
        {"parallel_steps": "post_init_dp_is_tp", "dp_attention_disables_overlap": False},
    ),
    "0.4.6.post1": ("0.4.6", {}),
    "0.4.6.post2": ("0.4.6.post5", {"pp_disables_overlap": False}),
    "0.4.6.post3": ("0.4.6.post5", {"pp_disables_overlap": False}),
    "0.4.6.post4": ("0.4.6.post5", {}),
    "0.4.7.post1": ("0.4.7", {}),
    # 0.4.8 `__post_init__`: --enable-flashinfer-moe asserts modelopt_fp4 ("modelopt_fp4
    # quantization is required for Flashinfer MOE"), the flag 0.4.9.post6 renames
    "0.4.8": ("0.4.7", {"flashinfer_moe_quantization": "flags"}),
    "0.4.8.post1": ("0.4.8", {}),  # the same server_args.py resolution
    # 0.4.9 `__post_init__`: no "page_size > 1" topk rewrite and no DeepEP `auto` assert;
    # ModelConfig is built (so --quantization is verified) under a default mem fraction
    "0.4.9": (
        "0.4.8",
        {
            "page_forces_topk_one": False,
            "deepep_auto_refuses_dp_attention": False,
            "quantization_verified": True,
        },
    ),
    # 0.4.9.post1-0.4.9.post2: 0.4.9's `__post_init__` and `check_server_args` (post2 rewords
    # the --enable-dp-lm-head assert only)
    "0.4.9.post1": ("0.4.9", {}),
    "0.4.9.post2": ("0.4.9", {}),
    # 0.4.9.post3 `check_lora_server_args`: "When no initial --lora-paths is provided, you need
    # to specify both --max-lora-rank and --lora-target-modules for LoRA initialization."
    "0.4.9.post3": ("0.4.9", {"lora_needs_rank_and_modules": True}),
    # 0.4.9.post4 moves the chunked-prefill/page-size assert into check_server_args (read per
    # release by gen_sglang_server_checks.py) and the FlashInfer MoE assert after DP attention
    "0.4.9.post4": ("0.4.9.post3", {}),
    # 0.4.10.post1 `__post_init__`: 0.4.10.post2's trtllm_mla block (SM100, pages 32/64, no
    # speculative decoding) and FlashInfer MoE asserts; --enable-ep-moe leaves ep_size as 0.4.10's
    # does (no deprecated-argument block) and --enable-eplb asserts --enable-ep-moe or
    # --enable-deepep-moe (`assert self.enable_ep_moe or self.enable_deepep_moe`); with
    # --enable-flashinfer-cutlass-moe (modelopt_fp4 only) --enable-ep-moe does set
    # ep_size = tp_size ("Flashinfer cutlass MoE and EP MoE are enabled. ...")
    "0.4.10.post1": (
        "0.4.10.post2",
        {"ep_moe_sets_ep_size": False, "eplb_check": "ep_moe_flags", "cutlass_moe_ep_size": True},
    ),
    # 0.4.9.post5: 0.4.9.post6's `__post_init__` and `check_server_args`
    "0.4.9.post5": ("0.4.9.post6", {}),
    # 0.5.1 `__post_init__` (0.5.1.post2 drops it): an MTP target with page_size != 1 on
    # flashinfer raises "Speculative decoding with page_size != 1 is not supported."
    "0.5.1": ("0.5.1.post3", {"mtp_flashinfer_page_refused": True}),
    "0.5.1.post1": ("0.5.1", {}),  # the same server_args.py
    # 0.5.1.post2 server_args.py is 0.5.1.post3's but for --hicache-storage-backend-extra-config
    "0.5.1.post2": ("0.5.1.post3", {}),
    # 0.5.3: no --enable-beta-spec yet (EAGLE turns the overlap scheduler off) and no DeepseekV3
    # branch in `_handle_model_specific_adjustments` (no trtllm_mla on Blackwell while resolving)
    "0.5.3": ("0.5.3.post3", {"eagle_overlap": "disabled", "deepseek_blackwell_mla": False}),
    # 0.5.3.post1: 0.5.3's (neither --enable-beta-spec nor the DeepseekV3 Blackwell branch);
    # 0.5.3.post2 has both, as 0.5.3.post3 (server_args.py)
    "0.5.3.post1": ("0.5.3", {}),
    "0.5.3.post2": ("0.5.3.post3", {}),
    # 0.5.4.post2 `_handle_moe_kernel_config`: --moe-runner-backend cutlass is a choice, but
    # neither "cutlass MoE is only supported with fp8 quantization" nor "FP8 Cutlass MoE is only
    # supported with ep_size == 1" (0.5.4.post3 adds both)
    "0.5.4.post2": ("0.5.4.post3", {"cutlass_moe_quantizations": ()}),
    # 0.5.4.post1 layers/quantization/__init__.py still registers "bitsandbytes" (vllm's
    # BitsAndBytesConfig, a placeholder class without vllm): ModelConfig accepts it; its
    # `_handle_moe_kernel_config` asserts "modelopt_fp4 or fp8 quantization is required for
    # Flashinfer TRTLLM MoE" (0.5.4.post2 adds modelopt_fp8)
    "0.5.4.post1": (
        "0.5.4.post2",
        {"quantization_missing": (), "flashinfer_moe_quantization": "runner_0_5_4_post1"},
    ),
    # 0.5.4 `__post_init__`: 0.5.3.post3's (no attention backend picked while resolving,
    # --enable-beta-spec, no DeepSeek fp8 default), and fa4 refused as the attention backend
    # ("FA4 backend is only supported for prefill. ...")
    "0.5.4": ("0.5.3.post3", {"fa4_prefill_only": True}),
    # 0.5.5 `_handle_moe_kernel_config` words the cutlass assert as 0.5.4 did ("... for
    # Flashinfer MOE") and fa4 as the prefill backend sets page size 128 for every model
    "0.5.5": ("0.5.5.post3", {"flashinfer_moe_quantization": "runner_0_5_4", "fa4_pages": "prefill"}),
    # 0.5.5.post1-0.5.5.post2 `_handle_moe_kernel_config` and fa4 page size as 0.5.5.post3
    # ("... for Flashinfer Cutlass MOE"; page size 128 for non-MLA models only)
    "0.5.5.post1": ("0.5.5.post3", {}),
    "0.5.5.post2": ("0.5.5.post3", {}),
    # 0.5.6 `_handle_attention_backend_compatibility`: no `is_blackwell() and
    # is_no_spec_infer_or_topk_one(self)` branch (0.5.6.post2's trtllm_mha): flashinfer on Blackwell
    "0.5.6": ("0.5.6.post2", {"auto_backend_choice": "flashinfer"}),
    # 0.5.6.post1: 0.5.6.post2's resolution (its `_handle_attention_backend_compatibility`
    # picks trtllm_mha on Blackwell without spec or with topk 1)
    "0.5.6.post1": ("0.5.6.post2", {}),
    # 0.5.8's server_args.py is 0.5.8.post1's, byte for byte
    "0.5.8": ("0.5.8.post1", {}),
    "0.5.10": ("0.5.10.post1", {}),  # the same server_args.py
    "0.5.12": ("0.5.12.post1", {}),  # the same server_args.py
    "0.5.13": ("0.5.13.post1", {}),  # the same server_args.py
    # 0.5.15's server_args.py differs from 0.5.15.post1's in one line (`self` for
    # `self._resolved()` when a backend check reads attention_backend)
    "0.5.15": ("0.5.15.post1", {}),
}
"""Release -> (the modelled release whose whole entry, later facts included, it takes; its
differences)."""
