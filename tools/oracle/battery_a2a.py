"""`record.py --generator a2a`: seeded draws of launches with an MoE all-to-all backend
(MegaMoE's and FlashInfer MegaMoE's checks: attention DP, the MoE runner, SM100, the token
budget); same conventions as battery.py."""

from __future__ import annotations

import random

from battery import DSV3, QWEN3, Launch, M, _flatten

_BUDGET_ENV = "SGLANG_OPT_DEEPGEMM_MEGA_MOE_NUM_MAX_TOKENS_PER_RANK"


def a2a(version: str, seed: int, n: int) -> list[dict]:
    """`n` launches of an MoE all-to-all backend (the release's own --moe-a2a-backend choices,
    megamoe and flashinfer_megamoe drawn most) on DeepSeek-V3, Qwen3 or Kimi-K2.5 with a
    quantization, TP, attention DP (--enable-dp-attention, --dp-size alone, --attn-dp-size),
    PP, disaggregation, a chunked prefill size, dynamic chunking, a MoE runner and the MegaMoE
    token budget's environment variable; half on a B200."""
    from speclint.sglang.flags.schema import options_of

    options = options_of(version)
    spec = options.get("--moe-a2a-backend")
    backends = [str(c) for c in (spec.choices or ())] if spec is not None else []
    backends += [b for b in ("megamoe", "flashinfer_megamoe") if b in backends] * 3
    rng = random.Random(f"a2a-{seed}")
    cases = []
    for _ in range(n):
        tp = rng.choice([4, 8, 8])
        launch: Launch = [("--model-path", rng.choice([DSV3, DSV3, DSV3, QWEN3, M + "kimi-k2.5"]))]
        launch.append(("--tp-size", str(tp)))
        if rng.random() < 0.8:
            launch.append(("--quantization", rng.choice(["modelopt_fp4", "modelopt_fp4", "mxfp8", "fp8"])))
        if backends:
            launch.append(("--moe-a2a-backend", rng.choice(backends)))
        dp = rng.choice([None, None, 2, tp])
        if dp is not None:
            form = rng.choice(["enable", "enable", "alone", "attn"])
            flags = {"enable": [("--dp-size", str(dp)), ("--enable-dp-attention", None)]}
            launch += flags.get(form, [("--dp-size" if form == "alone" else "--attn-dp-size", str(dp))])
        if rng.random() < 0.2:
            launch.append(("--pp-size", "2"))
        if rng.random() < 0.2:
            launch.append(("--disaggregation-mode", rng.choice(["prefill", "decode"])))
        if rng.random() < 0.5:
            launch.append(
                ("--chunked-prefill-size", str(rng.choice([-1, 4096, 8192, 8200, 16384, 32768, 131072])))
            )
        if rng.random() < 0.1:
            launch.append(("--enable-dynamic-chunking", None))
        if rng.random() < 0.3:
            launch.append(
                (
                    "--moe-runner-backend",
                    rng.choice(["auto", "flashinfer_megamoe", "megamoe", "flashinfer_cutlass"]),
                )
            )
        case = {"argv": _flatten(launch, options), "gpu": rng.choice(["H100", "B200"])}
        if rng.random() < 0.3:
            case["env"] = {_BUDGET_ENV: str(rng.choice([4096, 16384, 65536]))}
        cases.append(case)
    return cases


def a2a_cp(version: str, seed: int, n: int) -> list[dict]:
    """`n` launches of --moe-a2a-backend megamoe around what `a2a` does not draw: context-parallel
    prefill (--enable-prefill-cp with --attn-cp-size), the decode side of the token budget
    (0.5.22+: the decode CUDA graph's largest batch, --max-running-requests, NEXTN's draft
    tokens) and small values of the budget's variable; DeepSeek-V3 or Qwen3 with NVFP4 experts,
    on a B200 or an H100."""
    from speclint.sglang.flags.schema import options_of

    options = options_of(version)
    rng = random.Random(f"a2a-cp-{seed}")
    cases = []
    for _ in range(n):
        tp = rng.choice([4, 8, 8])
        model = rng.choice([DSV3, DSV3, QWEN3])
        launch: Launch = [("--model-path", model), ("--tp-size", str(tp))]
        launch.append(("--quantization", rng.choice(["modelopt_fp4", "modelopt_fp4", "fp8"])))
        launch.append(("--moe-a2a-backend", rng.choice(["megamoe", "megamoe", "megamoe", "none"])))
        if rng.random() < 0.4:
            launch.append(("--enable-prefill-cp", None))
            if rng.random() < 0.85:
                launch.append(("--cp-strategy", rng.choice(["zigzag", "interleave"])))
        if rng.random() < 0.5:
            launch.append(("--attn-cp-size", str(rng.choice([1, 2, 4, tp]))))
        dp = rng.choice([None, None, None, 2, tp])
        if dp is not None:
            launch += rng.choice(
                [[("--attn-dp-size", str(dp))], [("--dp-size", str(dp)), ("--enable-dp-attention", None)]]
            )
        if rng.random() < 0.15:
            launch.append(("--disaggregation-mode", rng.choice(["prefill", "decode"])))
        if rng.random() < 0.5:
            launch.append(("--chunked-prefill-size", str(rng.choice([1024, 4096, 8192, 16384, 32768]))))
        if rng.random() < 0.35:
            launch.append(("--cuda-graph-max-bs-decode", str(rng.choice([8, 64, 256, 512, 1024]))))
        if rng.random() < 0.35:
            launch.append(("--max-running-requests", str(rng.choice([16, 100, 256, 1024, 4096]))))
        if model == DSV3 and rng.random() < 0.25:
            launch.append(("--speculative-algorithm", "NEXTN"))
            if rng.random() < 0.6:
                launch += [
                    ("--speculative-num-steps", "3"),
                    ("--speculative-eagle-topk", "1"),
                    ("--speculative-num-draft-tokens", str(rng.choice([2, 4]))),
                ]
        if rng.random() < 0.15:
            launch.append(("--disable-cuda-graph", None))
        case = {"argv": _flatten(launch, options), "gpu": rng.choice(["B200", "B200", "H100"])}
        if rng.random() < 0.6:
            case["env"] = {_BUDGET_ENV: str(rng.choice([64, 128, 256, 512, 1024, 2048, 4096, 16384]))}
        cases.append(case)
    return cases


KIMI = M + "kimi-k2.5"


def prefill_cp(version: str, seed: int, n: int) -> list[dict]:
    """`n` launches of --enable-prefill-cp on an MLA target (DeepSeek-V3, Kimi-K2.5; Qwen3 beside
    them): the DeepSeek override's MLA prefill-CP block (attention DP and CP sizes, the all-to-all
    backend, ep_size) under TP, --dp-size, --enable-dp-attention, --attn-dp-size (and both),
    --attn-cp-size, --cp-strategy, an all-to-all backend, --ep-size, an attention backend, NEXTN or
    EAGLE, chunked prefill, CUDA-graph and memory flags; on an H100, an H200 or a B200."""
    from speclint.sglang.flags.schema import options_of

    options = options_of(version)
    rng = random.Random(f"prefill-cp-{seed}")
    cases = []
    for _ in range(n):
        tp = rng.choice([2, 4, 8, 8, 8, 16])
        model = rng.choice([DSV3, DSV3, KIMI, KIMI, QWEN3])
        launch: Launch = [("--model-path", model), ("--tp-size", str(tp))]
        if tp == 16:
            launch.append(("--nnodes", "2"))
        if rng.random() < 0.85:  # (0.5.10-0.5.13: --enable-prefill-context-parallel)
            switch = (
                "--enable-prefill-cp"
                if "--enable-prefill-cp" in options
                else "--enable-prefill-context-parallel"
            )
            launch.append((switch, None))
        if rng.random() < 0.8:
            launch.append(("--cp-strategy", rng.choice(["zigzag", "interleave"])))
        dp = rng.choice([None, None, 2, 4, tp])
        if dp is not None:
            form = rng.choice(["enable", "alone", "attn", "attn", "both"])
            launch += {
                "enable": [("--dp-size", str(dp)), ("--enable-dp-attention", None)],
                "alone": [("--dp-size", str(dp))],
                "attn": [("--attn-dp-size", str(dp))],
                "both": [("--attn-dp-size", str(dp)), ("--dp-size", "2")],
            }[form]
        if rng.random() < 0.3:
            launch.append(("--attn-cp-size", str(rng.choice([1, 2, 4, tp]))))
        if rng.random() < 0.3:
            launch.append(("--moe-a2a-backend", rng.choice(["none", "deepep", "megamoe", "mooncake"])))
        if rng.random() < 0.2:
            launch.append(("--ep-size", str(rng.choice([1, 2, tp]))))
        if rng.random() < 0.1:
            launch.append(("--moe-dense-tp-size", "1"))
        if rng.random() < 0.3:
            launch.append(
                ("--attention-backend", rng.choice(["fa3", "flashmla", "trtllm_mla", "triton", "flashinfer"]))
            )
        if model != QWEN3 and rng.random() < 0.2:
            launch.append(("--speculative-algorithm", rng.choice(["NEXTN", "EAGLE"])))
            if rng.random() < 0.6:
                launch += [
                    ("--speculative-num-steps", str(rng.choice([1, 2, 3]))),
                    ("--speculative-eagle-topk", str(rng.choice([1, 1, 4]))),
                    ("--speculative-num-draft-tokens", str(rng.choice([2, 4, 8]))),
                ]
        if rng.random() < 0.4:
            launch.append(("--chunked-prefill-size", str(rng.choice([-1, 4096, 8192, 16384]))))
        if rng.random() < 0.2:
            launch.append(("--max-running-requests", str(rng.choice([1, 16, 256]))))
        if rng.random() < 0.2:
            launch.append(("--cuda-graph-max-bs", str(rng.choice([1, 8, 64, 512]))))
        if rng.random() < 0.15:
            launch.append(("--mem-fraction-static", rng.choice(["0.7", "0.85"])))
        if rng.random() < 0.1:
            launch.append(("--disable-cuda-graph", None))
        if rng.random() < 0.1:
            launch.append(("--page-size", str(rng.choice([1, 64]))))
        if rng.random() < 0.1:
            launch.append(("--disaggregation-mode", rng.choice(["prefill", "decode"])))
        cases.append({"argv": _flatten(launch, options), "gpu": rng.choice(["H100", "H200", "B200"])})
    return cases


def mha_cp(version: str, seed: int, n: int) -> list[dict]:
    """`n` launches of an MHA target (Llama 3.1, Qwen3; DeepSeek-V3 beside them) with context-
    parallel prefill (--attn-cp-size, --enable-prefill-cp with or without --cp-strategy) and a
    trtllm_mha backend for prefill (--prefill-attention-backend, --attention-backend, or both
    with another decode backend), on an A100, H100, H200, B200 or RTX 5090: 0.5.19+ refuse a
    trtllm_mha prefill backend beside attention CP off SM100."""
    from speclint.sglang.flags.schema import options_of

    options = options_of(version)
    rng = random.Random(f"mha-cp-{seed}")
    cases = []
    for _ in range(n):
        tp = rng.choice([2, 4, 8, 8])
        launch: Launch = [("--model-path", rng.choice([M + "llama-3.1-8b-instruct", QWEN3, QWEN3, DSV3]))]
        launch.append(("--tp-size", str(tp)))
        if rng.random() < 0.7:
            launch.append(("--attn-cp-size", str(rng.choice([1, 2, 2, tp]))))
        if rng.random() < 0.5 and "--enable-prefill-cp" in options:
            launch.append(("--enable-prefill-cp", None))
            if rng.random() < 0.7:
                launch.append(("--cp-strategy", rng.choice(["zigzag", "interleave"])))
        form = rng.choice(["prefill", "prefill", "both", "split", "other"])
        if form in ("prefill", "split"):
            launch.append(("--prefill-attention-backend", "trtllm_mha"))
        if form == "split":
            launch.append(("--decode-attention-backend", rng.choice(["fa3", "flashinfer", "triton"])))
        if form == "both":
            launch.append(("--attention-backend", "trtllm_mha"))
        if form == "other":
            launch.append(("--prefill-attention-backend", rng.choice(["fa3", "flashinfer", "triton"])))
        if rng.random() < 0.2:
            launch.append(("--dp-size", "2"))
            if rng.random() < 0.5:
                launch.append(("--enable-dp-attention", None))
        if rng.random() < 0.2:
            launch.append(("--kv-cache-dtype", rng.choice(["fp8_e4m3", "auto"])))
        if rng.random() < 0.2:
            launch.append(("--page-size", str(rng.choice([16, 32, 64]))))
        gpu = rng.choice(["A100", "H100", "H100", "H200", "B200", "B200", "RTX5090"])
        cases.append({"argv": _flatten(launch, options), "gpu": gpu})
    return cases
