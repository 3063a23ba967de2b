"""Refusals of feature switches speclint did not report (session 8's random launches against
the real releases): PD-Multiplexing's asserts, deterministic inference with an attention
backend it does not support, the DSA cache-layer split on a model without DSA, LMCache beside
streaming sessions or attention DP. Expected outcomes are the releases' own (tools/oracle's
record_release.py on a fake H100, session 8); a release without the check gives no finding."""

from __future__ import annotations

from test_refusal_checks import DSV3, LAUNCH, LLAMA, QWEN3, accepted, errors, refusal

PDMUX = LAUNCH + LLAMA + " --enable-pdmux"
CHUNKED = (
    "AssertionError: PD-Multiplexing is not compatible with chunked prefill. (add --chunked-prefill-size -1"
)


def test_pdmux_needs_chunked_prefill_off():
    for version in ("0.5.9", "0.5.14", "0.5.23"):
        refusal(version, PDMUX, "--enable-pdmux", "check_server_args", CHUNKED)
    refusal(
        "0.5.18",
        PDMUX + " --chunked-prefill-size 4096",
        "--enable-pdmux",
        "check_server_args",
        "PD-Multiplexing is not compatible with chunked prefill.",
        gpu=None,  # the size given: no GPU needed
    )
    # 0.5.2 has the flag but no check
    accepted("0.5.2", PDMUX)


def test_pdmux_needs_one_pipeline_stage_no_disaggregation_and_no_overlap():
    refusal(
        "0.5.9",
        PDMUX + " --pp-size 2",
        "--enable-pdmux",
        "check_server_args",
        "PD-Multiplexing is only supported with pipeline parallelism disabled (pp_size=1).",
    )
    off = PDMUX + " --chunked-prefill-size -1"
    refusal(
        "0.5.23",
        off + " --disaggregation-mode prefill",
        "--enable-pdmux",
        "check_server_args",
        "PD-Multiplexing is not compatible with disaggregation mode.",
    )
    for version in ("0.5.14", "0.5.23"):
        refusal(
            version,
            off,
            "--enable-pdmux",
            "check_server_args",
            "PD-Multiplexing is not compatible with overlap schedule. (add --disable-overlap-schedule",
        )
        accepted(version, off + " --disable-overlap-schedule")


def test_pdmux_says_nothing_for_a_model_not_on_disk():
    """A model handler may turn chunked prefill off (embedding, multimodal models)."""
    assert errors("0.5.23", LAUNCH + "org/unknown-model --enable-pdmux") == []


DETERMINISTIC = " --enable-deterministic-inference --attention-backend "


def test_deterministic_inference_refuses_an_explicit_backend_outside_its_choices():
    refusal(
        "0.5.23",
        LAUNCH + LLAMA + DETERMINISTIC + "flashmla",
        "--attention-backend flashmla",
        "_handle_deterministic_inference",
        "ValueError: Currently only ['ascend', 'fa3', 'fa4', 'flashinfer', 'intel_xpu', 'triton'] "
        "attention backends are supported for deterministic inference, but you explicitly "
        "specified 'flashmla'.",
    )
    refusal(
        "0.5.9",
        LAUNCH + LLAMA + DETERMINISTIC + "fa4",
        "--attention-backend fa4",
        "_handle_deterministic_inference",
        "Currently only ['flashinfer', 'fa3', 'triton'] attention backends are supported for "
        "deterministic inference, but you explicitly specified 'fa4'.",
    )
    # fa4 joined the choices in 0.5.16
    accepted("0.5.18", LAUNCH + LLAMA + DETERMINISTIC + "fa4", gpu="b200")
    # 0.5.2 has no deterministic inference: the flag itself is unknown (FLG, not SPD009)
    assert [code for code, _, _ in errors("0.5.2", LAUNCH + LLAMA + DETERMINISTIC + "flashmla")] != ["SPD009"]


def test_deterministic_inference_on_deepseek_takes_fewer_backends():
    for version, listed, models in (
        ("0.5.14", "['fa3', 'triton', 'ascend']", "DeepSeek models"),
        ("0.5.23", "['ascend', 'fa3', 'fa4', 'triton']", "absorbed-MLA models"),
    ):
        refusal(
            version,
            LAUNCH + DSV3 + DETERMINISTIC + "flashinfer",
            "--attention-backend flashinfer",
            "_handle_deterministic_inference",
            f"ValueError: Currently only {listed} attention backends are supported for "
            f"deterministic inference with {models}. But you're using flashinfer.",
        )
    accepted("0.5.23", LAUNCH + LLAMA + DETERMINISTIC + "flashinfer")
    accepted("0.5.14", LAUNCH + DSV3 + DETERMINISTIC + "triton")


def test_dsa_cache_layer_split_needs_a_dsa_model():
    says = (
        "ValueError: --enable-dsa-cache-layer-split is only supported for DSA (DeepSeek Sparse "
        "Attention) models. (DeepseekV3ForCausalLM has no DSA indexer"
    )
    for version in ("0.5.18", "0.5.23"):
        refusal(
            version,
            LAUNCH + DSV3 + " --tp-size 8 --enable-dsa-cache-layer-split",
            "--enable-dsa-cache-layer-split",
            "_handle_model_specific_adjustments",
            says,
        )
    assert errors("0.5.23", LAUNCH + "org/unknown-model --enable-dsa-cache-layer-split") == []


def test_lmcache_refuses_streaming_sessions_and_attention_dp():
    streaming = LAUNCH + LLAMA + " --enable-lmcache --enable-streaming-session"
    for version in ("0.5.21", "0.5.23"):
        refusal(
            version,
            streaming,
            "--enable-lmcache",
            "handle_cache_compatibility",
            "NotImplementedError: LMCacheUnifiedRadixCache does not yet support streaming sessions",
        )
    # 0.5.18 has both flags and no such check
    accepted("0.5.18", streaming)
    refusal(
        "0.5.23",
        LAUNCH + LLAMA + " --tp-size 2 --attn-dp-size 2 --enable-lmcache",
        "--enable-lmcache",
        "handle_cache_compatibility",
        "LMCacheUnifiedRadixCache does not yet support DP attention",
    )


def test_page_major_kv_layout_without_unified_memory():
    page_major = LAUNCH + LLAMA + " --enable-page-major-kv-layout"
    for version in ("0.5.19", "0.5.23"):
        refusal(
            version,
            page_major + " --attention-backend triton",
            "--enable-page-major-kv-layout",
            "_handle_page_major_kv_layout",
            "AssertionError: --enable-page-major-kv-layout without --enable-unified-memory is "
            "temporarily unsupported",
        )
    # 0.5.15-0.5.18 ask for triton as the attention backend
    refusal(
        "0.5.18",
        page_major + " --attention-backend flashinfer",
        "--attention-backend flashinfer",
        "_handle_page_major_kv_layout",
        "--enable-page-major-kv-layout requires the Triton attention backend for the "
        "full-attention layers (unified-memory MLA also allows the paged MLA backends); got "
        "['flashinfer'], allowed ['triton'].",
    )
    accepted("0.5.18", page_major + " --attention-backend triton")
    # the backend picked for the GPU is not read
    accepted("0.5.18", page_major)
    # 0.5.14 has no such flag: FLG, not SPD009
    assert "SPD009" not in [code for code, _, _ in errors("0.5.14", page_major)]


def test_torch_compile_without_cuda_graph_padding():
    launch = LAUNCH + LLAMA + " --tp-size 8 --disable-cuda-graph-padding --enable-torch-compile"
    for version in ("0.5.12.post1", "0.5.23"):
        refusal(
            version,
            launch,
            "--disable-cuda-graph-padding",
            "check_server_args",
            "AssertionError: --disable-cuda-graph-padding is incompatible with --enable-torch-compile.",
        )
    accepted("0.5.11", launch)  # no such check before 0.5.12


def test_dp_lm_head_with_replicas_only():
    replicas = LAUNCH + QWEN3 + " --tp-size 1 --dp-size 2 --enable-dp-lm-head"
    refusal(
        "0.5.23",
        replicas,
        "--enable-dp-lm-head",
        "_dp_lm_head_validation",
        "AssertionError: --enable-dp-lm-head requires attention DP (--attn-dp-size).",
    )
    accepted("0.5.23", LAUNCH + QWEN3 + " --tp-size 2 --attn-dp-size 2 --enable-dp-lm-head")
    # one data-parallel rank: SGLang turns the flag off first
    accepted("0.5.23", LAUNCH + QWEN3 + " --enable-dp-lm-head")


def test_deterministic_inference_reads_the_backend_picked_first():
    """0.5.4-0.5.11 pick the GPU's backend before the check (trtllm_mha for Qwen3 on a B200);
    0.5.12+ check first and fall back to a supported one; 0.5.3 picks none (None is refused)."""
    launch = LAUNCH + QWEN3 + " --enable-deterministic-inference"
    says = "ValueError: Currently only ['flashinfer', 'fa3', 'triton'] attention backends are supported"
    refusal(
        "0.5.9", launch, "--enable-deterministic-inference", "_handle_deterministic_inference", says, "b200"
    )
    accepted("0.5.9", launch, gpu="h100")  # fa3
    accepted("0.5.9", launch, gpu=None)  # the GPU's pick is not known
    accepted("0.5.14", launch, gpu="b200")
    refusal(
        "0.5.3.post3",
        launch,
        "--enable-deterministic-inference",
        "_handle_deterministic_inference",
        says + " for deterministic inference.",
        gpu=None,
    )


def test_dp_lm_head_with_replicas_before_0_5_22():
    """`_handle_data_parallelism` keeps --enable-dp-lm-head with --dp-size > 1 and asserts DP
    attention (recorded: 0.5.9 and 0.5.14 refuse it, session 8's random launches)."""
    replicas = LAUNCH + QWEN3 + " --tp-size 1 --dp-size 2 --enable-dp-lm-head"
    for version in ("0.5.9", "0.5.14"):
        refusal(
            version,
            replicas,
            "--enable-dp-lm-head",
            "_handle_data_parallelism",
            "AssertionError: Please enable dp attention when setting enable_dp_lm_head.",
        )
    accepted("0.5.14", LAUNCH + QWEN3 + " --tp-size 2 --dp-size 2 --enable-dp-attention --enable-dp-lm-head")
