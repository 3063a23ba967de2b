"""Per-release attention-backend and quantization facts of the recorded releases, applied
to their `ReleaseTraits` entries (speclint.sglang.traits) over the release each copies: the
backend a release picks for the GPU, the GPU and KV-cache checks of explicit backends, and
`ModelConfig._verify_quantization`. Read in each release's source (named per table) and
checked launch by launch against its recording (tests/test_oracle_recordings.py)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _for(releases: tuple[str, ...], **fields: Any) -> dict[str, dict[str, Any]]:
    """The same trait values for each of `releases` (a fresh dict each)."""
    return {release: dict(fields) for release in releases}


_KV_MLA_0_5_1 = ("fp8_e4m3", "auto")
_KV_MLA_0_5_4 = ("fp8_e4m3", "fp4_e2m1", "auto")
_KV_MLA_0_5_7 = ("fp8_e4m3", "fp4_e2m1", "bf16", "auto")
_KV_MLA_0_5_21 = ("fp8_e4m3", "bf16", "auto")

_AUTO_BACKEND: dict[str, dict[str, Any]] = {  # release -> ReleaseTraits fields
    "0.5.2": dict(
        auto_attention_backend=False,
        auto_backend_choice="",
        deepseek_blackwell_mla=False,
        deprecated_moe_flags=True,
    ),
    "0.5.3.post3": dict(auto_attention_backend=False, auto_backend_choice=""),
    **_for(("0.5.4.post3", "0.5.5.post3"), auto_backend_choice="flashinfer"),
    **_for(
        ("0.5.7", "0.5.8.post1", "0.5.9", "0.5.10.post1"),
        auto_backend_choice="given_topk",
        kv4_dtypes=("fp4_e2m1",),
    ),
    **_for(("0.5.16", "0.5.17", "0.5.18"), kv4_dtypes=("nvfp4", "fp4_mx_block16")),
}
"""The backend each release picks while resolving (recorded on the H100 and the B200;
server_args.py `_handle_attention_backend_compatibility`: `is_no_spec_infer_or_topk_one`,
`is_blackwell`), the FP4 KV-cache dtypes `_handle_kv4_compatibility` checks, 0.5.2's
deprecated MoE flags."""

_BACKEND_GPU: dict[str, dict[str, Any]] = {
    **_for(
        ("0.4.0", "0.4.1", "0.4.6", "0.4.6.post5", "0.4.7"),
        trtllm_mla_majors=(),
        trtllm_mla_kv_dtypes=(),
        trtllm_mha_gpu_check="",
    ),
    "0.4.10.post2": dict(trtllm_mla_majors=(10,), trtllm_mla_kv_dtypes=(), trtllm_mha_gpu_check=""),
    **_for(
        ("0.5.1.post3", "0.5.2", "0.5.3.post3"),
        trtllm_mla_majors=(10,),
        trtllm_mla_kv_dtypes=_KV_MLA_0_5_1,
        trtllm_mha_gpu_check="sm100",
        fa4_prefill_only=False,
    ),
    **_for(
        ("0.5.4.post3", "0.5.5.post3", "0.5.6.post2"),
        trtllm_mla_majors=(10,),
        trtllm_mla_kv_dtypes=_KV_MLA_0_5_4,
        trtllm_mha_gpu_check="sm100",
        fa4_prefill_only=True,
    ),
    "0.5.7": dict(
        trtllm_mla_majors=(10,),
        trtllm_mla_kv_dtypes=_KV_MLA_0_5_7,
        trtllm_mha_gpu_check="sm100",
        fa4_prefill_only=True,
    ),
    "0.5.8.post1": dict(
        trtllm_mla_majors=(10,),
        trtllm_mla_kv_dtypes=_KV_MLA_0_5_7,
        trtllm_mha_gpu_check="sm100",
        fa4_prefill_only=False,
    ),
    "0.5.9": dict(
        trtllm_mla_majors=(10, 12),
        trtllm_mla_kv_dtypes=_KV_MLA_0_5_7,
        trtllm_mha_gpu_check="sm100",
        fa4_prefill_only=False,
    ),
    **_for(
        (
            "0.5.10.post1",
            "0.5.11",
            "0.5.12.post1",
            "0.5.13.post1",
            "0.5.14",
            "0.5.15.post1",
            "0.5.16",
            "0.5.17",
            "0.5.18",
        ),
        trtllm_mla_majors=(10, 12),
        trtllm_mla_kv_dtypes=_KV_MLA_0_5_7,
        trtllm_mha_gpu_check="prefill_sm100",
        fa4_prefill_only=False,
    ),
    **_for(
        ("0.5.19", "0.5.20"),
        trtllm_mla_majors=(10, 12),
        trtllm_mla_kv_dtypes=_KV_MLA_0_5_7,
        trtllm_mha_gpu_check="hopper",
        fa4_prefill_only=False,
    ),
}
"""The GPU checks of explicit attention backends (resolve/backend_gpu.py), as each release's
server_args.py `_handle_attention_backend_compatibility` (0.5.19+: arg_groups/attention_hook.py,
overrides.py `_mla_kv_cache_dtype_checks`) words them: "TRTLLM MLA backend is only supported
on Blackwell GPUs (SM100)" or "(SM100/SM12x)", the KV-cache list of "TensorRT-LLM MLA backend
only supports kv-cache-dtype of ...", how trtllm_mha is checked, "FA4 backend is only
supported for prefill"."""

_QUANTIZATION: dict[str, dict[str, Any]] = {
    **_for(("0.4.0", "0.4.1", "0.4.6", "0.4.6.post5", "0.4.7"), quantization_verified=False),
    **_for(("0.5.2", "0.5.3.post3", "0.5.8.post1", "0.5.9", "0.5.10.post1"), quantization_missing=()),
}
"""model_config.py `_verify_quantization` of each recorded release, where it differs from the
release its entry copies: whether it runs while resolving, the recorded "Unknown quantization
method" lists. (Its compatible pairs, online requantizations and override hooks are read per
release by tools/gen_sglang_model_config.py: `model_config_facts.quantization_pairs`.)"""

_PAGES: dict[str, dict[str, Any]] = {
    **_for(("0.4.0", "0.4.1", "0.4.6"), cutlass_mla_pages=""),  # cutlass_mla is not a choice
    **_for(("0.4.6.post5", "0.4.7"), cutlass_mla_pages="attention"),
    **_for(("0.5.2", "0.5.3.post3"), fa4_pages=""),
    "0.5.4.post3": dict(fa4_pages="prefill"),
    "0.5.10.post1": dict(fa4_pages="prefill_mha_sm100"),
    **_for(("0.5.15.post1", "0.5.16", "0.5.17"), fa4_pages="mha_sm100_topk1"),
    "0.5.18": dict(cutlass_mla_pages="attention_or_decode", fa4_pages="mha_sm100_topk1"),
    "0.5.19": dict(cutlass_mla_pages="attention_or_decode", fa4_pages="mha_sm100_topk1"),
    **_for(("0.5.20", "0.5.21"), fa4_pages="mha_sm100_topk1"),
}
"""The page sizes cutlass_mla and fa4 force (resolve/attention.py), where a release differs
from the release its entry copies: server_args.py `_handle_attention_backend_compatibility`
("Cutlass MLA only supports a page_size of 128", "FA4 backend only supports page size 128"
and their conditions), 0.5.15+ arg_groups/overrides.py `_mla_backend_page_constraints` and
`_fa4_page_constraint`; cutlass_mla left the backend choices in 0.5.20."""

RECORDED_BACKEND_FACTS = (_AUTO_BACKEND, _BACKEND_GPU, _QUANTIZATION, _PAGES)
"""Applied in this order, each {release: {trait: value}}."""
