"""The launch battery the oracle records for every SGLang release (seeded, deterministic).

    from battery import battery
    cases = battery("0.5.10.post1")   # [{"argv": [...], "gpu": "H100", "env": {...}}, ...]

Every release gets the same draws (same seed), then each launch keeps only the flags that
release's schema has (``src/speclint/sglang/flags/data``: read from the release's own
``add_cli_args``), so the recordings of two releases line up launch by launch. Values
are kept as drawn: a choice the release does not offer is a real argparse rejection.

Model paths are relative to the repository root (``fixtures/models/NAME``); the recorder
makes them absolute and the stored recording relative again.

Categories: speculative decoding (algorithms in several spellings, drafts, full, partial
and missing steps/topk/draft-token triples, running-request caps, mixed chunk, overlap),
parallelism (tp, dp, attention DP, ep, pp, nnodes, MoE all-to-all), attention backends and
page sizes, context length, quantization and kv-cache dtype; each launch on a fake H100
(Hopper) or B200 (Blackwell), and a fixed list of launches named in issues.
"""

from __future__ import annotations

import random

SEED = 20261201
N_DRAWN = 330
B200_EVERY = 3  # every 3rd drawn launch runs on a fake B200, the others on a fake H100

M = "fixtures/models/"
LLAMA, QWEN3, DSV3 = M + "llama-3.1-8b-instruct", M + "qwen3-8b", M + "deepseek-v3"
EAGLE1, EAGLE3 = M + "eagle-llama-3.1-8b-instruct", M + "eagle3-llama-3.1-8b-instruct"

ALGORITHMS = (
    ["EAGLE", "EAGLE3", "NEXTN", "NGRAM", "STANDALONE"] * 4
    + ["eagle", "eagle3", "nextn", "ngram", "standalone", "DFLASH", "MEDUSA"]
    + [None] * 3
)
BACKENDS = ("flashinfer", "fa3", "triton", "flashmla", "trtllm_mha", "trtllm_mla", "fa4", "torch_native")
QUANT = ("fp8", "awq", "gptq", "w8a8_fp8", "modelopt_fp4", "bitsandbytes")
KV_DTYPES = ("auto", "fp8_e4m3", "fp8_e5m2", "bf16", "fp4_e2m1")

Launch = list  # [(flag, value or None), ...]


def _draft(algo: str | None, target: str, rng: random.Random) -> str | None:
    upper = (algo or "").upper()
    if rng.random() < 0.1:
        return None
    if upper in ("EAGLE", "NEXTN"):
        return rng.choice([None, target]) if target == DSV3 else EAGLE1
    if upper == "EAGLE3":
        return EAGLE3 if rng.random() < 0.9 else EAGLE1  # sometimes the wrong drafter kind
    if upper == "STANDALONE":
        return rng.choice([LLAMA, QWEN3])
    if upper == "DFLASH":
        return QWEN3
    return None


def _speculative(rng: random.Random) -> Launch:
    target = rng.choice([LLAMA, LLAMA, QWEN3, DSV3])
    algo = rng.choice(ALGORITHMS)
    out: Launch = [("--model-path", target)]
    if algo is not None:
        out.append(("--speculative-algorithm", algo))
    draft = _draft(algo, target, rng)
    if draft is not None:
        out.append(("--speculative-draft-model-path", draft))
        if rng.random() < 0.08:
            out.append(("--speculative-draft-model-revision", rng.choice(["main", "v2"])))
    if rng.random() < 0.06:
        out.append(("--revision", "r1"))
    triple = {
        "--speculative-num-steps": rng.choice([1, 2, 3, 4, 5, 6]),
        "--speculative-eagle-topk": rng.choice([1, 1, 2, 4, 8]),
        "--speculative-num-draft-tokens": rng.choice([2, 4, 6, 8, 16, 32]),
    }
    mode = rng.choice(["full", "full", "full", "partial", "none", "none"])
    chosen = (
        list(triple)
        if mode == "full"
        else rng.sample(list(triple), rng.choice([1, 2]))
        if mode == "partial"
        else []
    )
    out += [(f, str(triple[f])) for f in chosen]
    if (algo or "").upper() == "NGRAM" and rng.random() < 0.5:
        out.append(("--speculative-ngram-max-bfs-breadth", str(rng.choice([0, 1, 4, 10]))))
    if rng.random() < 0.3:
        out.append(("--max-running-requests", str(rng.choice([1, 8, 32, 64, 200]))))
    if rng.random() < 0.2:
        out.append(("--enable-mixed-chunk", None))
    if rng.random() < 0.2:
        out.append(("--disable-overlap-schedule", None))
    if rng.random() < 0.3:
        out.append(("--page-size", str(rng.choice([1, 16, 32, 64]))))
    if rng.random() < 0.35:
        out.append(("--attention-backend", rng.choice(BACKENDS[:5])))
    r = rng.random()
    if r < 0.2:
        out.append(("--tp-size", str(rng.choice([2, 4, 8]))))
    elif r < 0.27:
        out += [("--tp-size", "8"), ("--dp-size", "8"), ("--enable-dp-attention", None)]
    elif r < 0.3:
        out.append(("--pp-size", "2"))
    if rng.random() < 0.04:
        out.append(("--device", "cuda"))
    return out


def _parallel(rng: random.Random) -> Launch:
    target = rng.choice([LLAMA, QWEN3, DSV3, DSV3])
    out: Launch = [("--model-path", target)]
    tp = rng.choice([1, 2, 4, 8, 8, 16])
    out.append((rng.choice(["--tp-size", "--tp-size", "--tensor-parallel-size"]), str(tp)))
    r = rng.random()
    if r < 0.3:
        out += [("--dp-size", str(rng.choice([1, 2, 4, 8, 3]))), ("--enable-dp-attention", None)]
        if rng.random() < 0.3:
            out.append(("--enable-dp-lm-head", None))
    elif r < 0.45:
        out.append(("--dp-size", str(rng.choice([2, 4]))))
    elif r < 0.55:
        out.append(("--enable-dp-attention", None))
    elif r < 0.65:
        out.append(("--attn-dp-size", str(rng.choice([2, 4, 8]))))
    if rng.random() < 0.35:
        out.append(("--ep-size", str(rng.choice([1, 2, 4, 8]))))
    if rng.random() < 0.15:
        out.append(("--enable-ep-moe", None))
    if rng.random() < 0.2:
        out.append(("--moe-a2a-backend", rng.choice(["deepep", "none", "mooncake"])))
    if rng.random() < 0.08:
        out.append(("--enable-deepep-moe", None))
    if rng.random() < 0.2:
        out.append(("--pp-size", str(rng.choice([2, 4]))))
    if rng.random() < 0.15:
        nnodes = rng.choice([2, 3, 4])
        out += [("--nnodes", str(nnodes)), ("--node-rank", "0"), ("--dist-init-addr", "10.0.0.1:5000")]
    if rng.random() < 0.15:
        out += [("--speculative-algorithm", "EAGLE")] + (
            [] if target == DSV3 else [("--speculative-draft-model-path", EAGLE1)]
        )
    if rng.random() < 0.1:
        out.append(("--max-running-requests", str(rng.choice([16, 128]))))
    return out


def _attention(rng: random.Random) -> Launch:
    target = rng.choice([LLAMA, QWEN3, DSV3])
    out: Launch = [("--model-path", target)]
    r = rng.random()
    if r < 0.6:
        out.append(("--attention-backend", rng.choice(BACKENDS)))
    elif r < 0.8:
        out.append(
            (rng.choice(["--prefill-attention-backend", "--decode-attention-backend"]), rng.choice(BACKENDS))
        )
    if rng.random() < 0.6:
        out.append(("--page-size", str(rng.choice([1, 16, 32, 64, 128]))))
    if rng.random() < 0.25:
        out.append(("--tp-size", str(rng.choice([2, 8]))))
    if rng.random() < 0.3:
        algo = "EAGLE" if target == DSV3 else "EAGLE3"
        out.append(("--speculative-algorithm", algo))
        if target != DSV3:
            out.append(("--speculative-draft-model-path", EAGLE3))
        out += [
            ("--speculative-num-steps", "3"),
            ("--speculative-eagle-topk", str(rng.choice([1, 4]))),
            ("--speculative-num-draft-tokens", "8"),
        ]
    return out


def _model_memory(rng: random.Random) -> Launch:
    target = rng.choice([LLAMA, QWEN3, DSV3])
    out: Launch = [("--model-path", target)]
    if rng.random() < 0.5:
        out.append(("--context-length", str(rng.choice([2048, 8192, 32768, 131072, 200000, 1000000]))))
    if rng.random() < 0.45:
        out.append(("--quantization", rng.choice(QUANT)))
    if rng.random() < 0.5:
        out.append(("--kv-cache-dtype", rng.choice(KV_DTYPES)))
    if rng.random() < 0.2:
        out.append(("--mem-fraction-static", rng.choice(["0.7", "0.9"])))
    if rng.random() < 0.15:
        out.append(("--chunked-prefill-size", rng.choice(["-1", "4096"])))
    if rng.random() < 0.25:
        out.append(("--tp-size", str(rng.choice([2, 8]))))
    if rng.random() < 0.2:
        out.append(("--dtype", rng.choice(["auto", "float16", "bfloat16"])))
    return out


def _spec_args(algo, target, draft, *flags) -> Launch:
    out: Launch = [("--model-path", target), ("--speculative-algorithm", algo)]
    if draft is not None:
        out.append(("--speculative-draft-model-path", draft))
    it = iter(flags)
    return out + [(f, str(v)) for f, v in zip(it, it)]


_TRIPLE = ("--speculative-num-steps", 3, "--speculative-eagle-topk", 1, "--speculative-num-draft-tokens", 4)
FIXED: list[Launch] = [
    # issue 13's three correct launches and their known-bad versions
    _spec_args("EAGLE3", LLAMA, EAGLE3, *_TRIPLE),
    _spec_args("EAGLE", LLAMA, EAGLE1, *_TRIPLE),
    [("--model-path", DSV3), ("--tp-size", "8"), ("--dp-size", "8"), ("--enable-dp-attention", None)],
    _spec_args("EAGLE", LLAMA, EAGLE3, *_TRIPLE),
    _spec_args(
        "EAGLE3",
        LLAMA,
        EAGLE3,
        "--speculative-num-steps",
        3,
        "--speculative-eagle-topk",
        1,
        "--speculative-num-draft-tokens",
        16,
    ),
    _spec_args("EAGLE3", LLAMA, EAGLE3),
    _spec_args(
        "EAGLE3", LLAMA, EAGLE3, "--speculative-eagle-topk", 4, "--speculative-num-draft-tokens", 16
    ),  # partial triple
    _spec_args("NEXTN", DSV3, None, "--tp-size", 8),
    _spec_args("NGRAM", LLAMA, None),
    _spec_args("STANDALONE", LLAMA, QWEN3),
    [("--model-path", LLAMA)],
]


def _flatten(launch: Launch, options) -> list[str]:
    argv: list[str] = []
    for flag, value in launch:
        spec = options.get(flag)
        if spec is None:
            continue  # the release has no such flag
        argv.append(flag)
        if value is not None and spec.takes_value:
            argv.append(value)
    return argv


def draws(seed: int = SEED, n: int = N_DRAWN) -> list[tuple[Launch, str, dict]]:
    """The release-independent draws: (launch, gpu, env)."""
    rng = random.Random(seed)
    makers = [_speculative] * 5 + [_parallel] * 3 + [_attention] * 2 + [_model_memory] * 2
    out = [(launch, gpu, {}) for launch in FIXED for gpu in ("H100", "B200")]
    for i in range(n):
        launch = rng.choice(makers)(rng)
        env = {"SGLANG_ENABLE_SPEC_V2": "1"} if rng.random() < 0.05 else {}
        out.append((launch, "B200" if i % B200_EVERY == B200_EVERY - 1 else "H100", env))
    return out


def battery(version: str, seed: int = SEED, n: int = N_DRAWN) -> list[dict]:
    """The cases for SGLang `version`: every draw with only the flags it has."""
    from speclint.sglang.flags.schema import options_of

    options = options_of(version)
    cases = []
    for launch, gpu, env in draws(seed, n):
        case = {"argv": _flatten(launch, options), "gpu": gpu}
        if env:
            case["env"] = env
        cases.append(case)
    return cases


def wide(version: str, seed: int, n: int) -> list[dict]:
    """`n` launches of the wide differential's generator (tests/oracle_wide.py: attention DP
    sizes, CUDA-graph and scheduling flags, context lengths, Kimi-K2.5), every third on a B200,
    each keeping only the flags `version` has."""
    import os
    import sys

    from speclint.sglang.flags.schema import options_of

    tests = os.path.join(
        os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "tests"
    )
    sys.path.insert(0, tests)
    try:
        from oracle_wide import make_launch  # type: ignore[import-not-found]
    finally:
        sys.path.remove(tests)
    options = options_of(version)
    rng = random.Random(seed)
    cases = []
    for i in range(n):
        argv, env = make_launch(rng)
        pairs: Launch = []
        for word in argv:
            if word.startswith("--"):
                pairs.append((word, None))
            else:
                pairs[-1] = (pairs[-1][0], word)
        case = {
            "argv": _flatten(pairs, options),
            "gpu": "B200" if i % B200_EVERY == B200_EVERY - 1 else "H100",
        }
        if env:
            case["env"] = env
        cases.append(case)
    return cases


QUANTIZED = (M + "kimi-k2.5", M + "deepseek-v3", M + "qwen3-8b-gptq-int4", LLAMA, QWEN3)
"""The model configs of the quantization generator: compressed-tensors (in text_config),
fp8, GPTQ int4, and two without a quantization_config."""


def quantization(version: str, seed: int, n: int) -> list[dict]:
    """`n` launches of a model config from fixtures/models with one of the release's own
    --quantization choices (its flag schema), sometimes a given --mem-fraction-static (which
    0.4.9-0.5.4 skip the check for), a KV-cache dtype, a dtype or a TP size; every third on a
    B200."""
    from speclint.sglang.flags.schema import options_of

    options = options_of(version)
    spec = options.get("--quantization")
    choices = [str(c) for c in (spec.choices or ())] if spec is not None else []
    rng = random.Random(seed)
    cases = []
    for i in range(n):
        launch: Launch = [("--model-path", rng.choice(QUANTIZED))]
        if choices and rng.random() < 0.9:
            launch.append(("--quantization", rng.choice(choices)))
        if rng.random() < 0.15:
            launch.append(("--mem-fraction-static", "0.8"))
        if rng.random() < 0.2:
            launch.append(("--kv-cache-dtype", rng.choice(KV_DTYPES)))
        if rng.random() < 0.15:
            launch.append(("--dtype", rng.choice(["auto", "float16", "bfloat16"])))
        if rng.random() < 0.3:
            launch.append(("--tp-size", str(rng.choice([2, 8]))))
        gpu = "B200" if i % B200_EVERY == B200_EVERY - 1 else "H100"
        cases.append({"argv": _flatten(launch, options), "gpu": gpu})
    return cases


def moe(version: str, seed: int, n: int) -> list[dict]:
    """`quantization`'s launches, most with one of the release's own --moe-runner-backend
    choices (a second generator seeded from `seed`, so `quantization`'s draws stay as they
    are), half of them on a B200 (the MoE runners' asserts and the Blackwell defaults)."""
    from speclint.sglang.flags.schema import options_of

    spec = options_of(version).get("--moe-runner-backend")
    runners = [str(c) for c in (spec.choices or ())] if spec is not None else []
    rng = random.Random(f"moe-{seed}")
    cases = quantization(version, seed, n)
    for case in cases:
        if runners and rng.random() < 0.8:
            case["argv"] = [*case["argv"], "--moe-runner-backend", rng.choice(runners)]
        if rng.random() < 0.5:
            case["gpu"] = "B200"
    return cases
