"""Per-release facts of the feature refusals resolve/refusals_features.py checks (found missing
by session 8's random launches against the real releases): PD-Multiplexing's asserts,
deterministic inference's attention backends, the DSA cache-layer split, the page-major KV
layout, LMCache, torch.compile without CUDA-graph padding. Read in each release's
server_args.py (0.5.19+: arg_groups/validation_hook.py, overrides.py, attention_hook.py,
model_hook.py, kv_cache_hook.py, choices.py) for every modelled release from 0.5.2 on, and
confirmed with tools/oracle on 0.5.2, 0.5.3.post3, 0.5.9, 0.5.14, 0.5.18, 0.5.21 and 0.5.23.
The read releases' entries spread `READ_FEATURES`; the others change `FEATURE_FACTS`
(traits.py applies them)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _for(releases: tuple[str, ...], base: dict[str, Any], **fields: Any) -> dict[str, dict[str, Any]]:
    return {release: {**base, **fields} for release in releases}


_CHOICES = ("flashinfer", "fa3", "triton")
_CHOICES_ASCEND = (*_CHOICES, "ascend")
_CHOICES_FA4 = ("ascend", "fa3", "fa4", "flashinfer", "triton")
_CHOICES_XPU = ("ascend", "fa3", "fa4", "flashinfer", "intel_xpu", "triton")
"""`DETERMINISTIC_ATTENTION_BACKEND_CHOICES` (0.5.3-0.5.12, 0.5.13-0.5.15, 0.5.16-0.5.18,
0.5.19+; arg_groups/choices.py from 0.5.21)."""
_RADIX_FA4 = ("ascend", "fa3", "fa4", "triton")
"""`RADIX_SUPPORTED_DETERMINISTIC_ATTENTION_BACKEND` (0.5.16+)."""

_ONLY = "Currently only {} attention backends are supported for deterministic inference with {}."
_MLA_FA3 = _ONLY.format(["fa3", "triton"], "DeepSeek models")
"""0.5.4-0.5.16: `attention_backend not in ["fa3", "triton"]`, the message listing
RADIX_SUPPORTED_DETERMINISTIC_ATTENTION_BACKEND (0.5.13-0.5.15: with ascend, below)."""

_DEEPSEEK = ("DeepseekV2ForCausalLM", "DeepseekV3ForCausalLM", "DeepseekV32ForCausalLM")
_DEEPSEEK_0_5_6 = (*_DEEPSEEK, "MistralLarge3ForCausalLM", "PixtralForConditionalGeneration")
_DEEPSEEK_0_5_9 = (*_DEEPSEEK_0_5_6, "GlmMoeDsaForCausalLM")
_DEEPSEEK_0_5_18 = (*_DEEPSEEK_0_5_9, "Glm4MoeLiteForCausalLM")
_DEEPSEEK_0_5_20 = (*_DEEPSEEK_0_5_18, "Glm5NextForConditionalGeneration")
"""`is_deepseek_model = model_arch in [...]` of `_handle_deterministic_inference`."""

_NONE: dict[str, Any] = dict(
    pdmux_check=False,
    deterministic_backends=(),
    deterministic_sees_picked_backend=False,
    deterministic_mla_backends=(),
    deterministic_mla_message="",
    deterministic_mla_architectures=(),
    lmcache_check="",
    dsa_split_check=False,
    page_major_check="",
    torch_compile_padding_check=False,
)

READ_FEATURES: dict[str, dict[str, Any]] = {
    # --enable-pdmux is a flag (0.4.9.post3+) that check_server_args does not check yet;
    # no deterministic inference, LMCache checks or DSA split
    "0.4.10.post2": dict(_NONE),
    # `_handle_deterministic_inference`: an explicit backend outside the choices, then
    # DeepSeek models outside fa3/triton; check_server_args "# Check pdmux"
    "0.5.6.post2": dict(
        _NONE,
        pdmux_check=True,
        deterministic_backends=_CHOICES,
        deterministic_sees_picked_backend=True,
        deterministic_mla_backends=("fa3", "triton"),
        deterministic_mla_message=_MLA_FA3,
        deterministic_mla_architectures=_DEEPSEEK_0_5_6,
    ),
    "0.5.14": dict(
        _NONE,
        pdmux_check=True,
        torch_compile_padding_check=True,
        deterministic_backends=_CHOICES_ASCEND,
        deterministic_mla_backends=("fa3", "triton"),
        deterministic_mla_message=_ONLY.format(["fa3", "triton", "ascend"], "DeepSeek models"),
        deterministic_mla_architectures=_DEEPSEEK_0_5_9,
    ),
    # overrides.py `_deterministic_attention_backend`, attention_hook.py (absorbed-MLA
    # models), model_hook.py (DSA split), kv_cache_hook.py `handle_cache_compatibility`
    # (LMCache: `attn_dp_enabled_of`), validation_hook.py (pdmux)
    "0.5.23": dict(
        pdmux_check=True,
        deterministic_backends=_CHOICES_XPU,
        deterministic_sees_picked_backend=False,
        deterministic_mla_backends=_RADIX_FA4,
        deterministic_mla_message=_ONLY.format(list(_RADIX_FA4), "absorbed-MLA models"),
        deterministic_mla_architectures=_DEEPSEEK_0_5_20,
        lmcache_check="attn_dp",
        dsa_split_check=True,
        page_major_check="unified",
        torch_compile_padding_check=True,
    ),
}
"""The read releases' facts (traits_read.py spreads them into their entries)."""

_FLAG_ONLY = (
    "0.4.0",
    "0.4.1",
    "0.4.6",
    "0.4.6.post5",
    "0.4.7",
    "0.4.9.post6",
    "0.4.10",
    "0.5.1.post3",
    "0.5.2",
)

FEATURE_FACTS: dict[str, dict[str, Any]] = {
    **_for(_FLAG_ONLY, _NONE),
    # the first deterministic inference: no DeepSeek check, "Currently only [...] attention
    # backends are supported for deterministic inference." names no backend, and no backend is
    # picked before it (None is refused: confirmed by tools/oracle)
    "0.5.3.post3": dict(
        _NONE, pdmux_check=True, deterministic_backends=_CHOICES, deterministic_sees_picked_backend=True
    ),
    **_for(
        ("0.5.4.post3", "0.5.5.post3"),
        READ_FEATURES["0.5.6.post2"],
        deterministic_mla_architectures=_DEEPSEEK,
    ),
    **_for(("0.5.7", "0.5.8.post1"), READ_FEATURES["0.5.6.post2"]),
    **_for(
        ("0.5.9", "0.5.10.post1", "0.5.11"),
        READ_FEATURES["0.5.6.post2"],
        deterministic_mla_architectures=_DEEPSEEK_0_5_9,
    ),
    # check_server_args: "--disable-cuda-graph-padding is incompatible with --enable-torch-compile."
    # `_handle_deterministic_inference` now runs before the backend is picked
    "0.5.12.post1": dict(
        READ_FEATURES["0.5.6.post2"],
        deterministic_mla_architectures=_DEEPSEEK_0_5_9,
        deterministic_sees_picked_backend=False,
        torch_compile_padding_check=True,
    ),
    "0.5.13.post1": READ_FEATURES["0.5.14"],
    # `_handle_page_major_kv_layout`: `assert backends <= {"triton"}`
    "0.5.15.post1": dict(READ_FEATURES["0.5.14"], page_major_check="triton_0_5_15"),
    # the DSA split; deepseek_deterministic_attention_backends = ["fa3", "triton"]
    "0.5.16": dict(
        READ_FEATURES["0.5.14"],
        deterministic_backends=_CHOICES_FA4,
        deterministic_mla_message=_MLA_FA3,
        dsa_split_check=True,
        page_major_check="triton_0_5_15",
    ),
    # DeepSeek models take RADIX_SUPPORTED_DETERMINISTIC_ATTENTION_BACKEND
    "0.5.17": dict(
        READ_FEATURES["0.5.14"],
        deterministic_backends=_CHOICES_FA4,
        deterministic_mla_backends=_RADIX_FA4,
        deterministic_mla_message=_ONLY.format(list(_RADIX_FA4), "DeepSeek models"),
        dsa_split_check=True,
        page_major_check="triton",
    ),
    "0.5.18": dict(
        READ_FEATURES["0.5.23"],
        deterministic_backends=_CHOICES_FA4,
        deterministic_mla_architectures=_DEEPSEEK_0_5_18,
        lmcache_check="",
        page_major_check="triton",
    ),
    # and intel_xpu
    "0.5.19": dict(
        READ_FEATURES["0.5.23"], deterministic_mla_architectures=_DEEPSEEK_0_5_18, lmcache_check=""
    ),
    "0.5.20": dict(READ_FEATURES["0.5.23"], lmcache_check=""),
    # LMCache's checks with `cfg.enable_dp_attention`
    "0.5.21": dict(READ_FEATURES["0.5.23"], lmcache_check="dp_attention"),
    "0.5.22": dict(READ_FEATURES["0.5.23"]),
}
"""{release: {trait: value}}, applied after the entries are built (traits.py)."""
