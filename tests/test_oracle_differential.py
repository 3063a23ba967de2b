"""Differential test: speclint's resolver against the REAL SGLang 0.5.23 (issue #3).

Generates a few hundred seeded-random launch commands (speculative algorithms in every
spelling, targets of several architectures, drafts, full/partial/missing
steps/topk/draft-tokens triples, running-request caps, mixed chunk, overlap, page size
with attention backends, NGRAM breadth, parallelism), resolves them ALL in one oracle
call (tests/oracle_harness.py) on a fake H100, and a subset again on a fake B200, and
requires:

1. every field speclint reports as known equals SGLang's effective value (when SGLang
   accepts the launch);
2. speclint reports an error-severity finding exactly when SGLang rejects the command
   line (stage parse or resolve), except the narrow, counted EXCLUSIONS below (facts
   speclint cannot know, such as which attention backend SGLang picks for the GPU).

Runs only with ``pytest -m oracle``; ``pytest -m oracle -s`` prints the agreement.
"""

from __future__ import annotations

import random
import shlex
import time
from collections import Counter

import pytest
from oracle_harness import declared_by, model, run_oracle

from speclint.core.findings import Severity
from speclint.engine import lint_text
from speclint.settings.options import LintOptions
from speclint.sglang.resolve import Unknown, is_known

pytestmark = pytest.mark.oracle

SEED = 20250523
N_CONFIGS = 360
B200_EVERY = 6  # every 6th config also runs on a fake B200 (Blackwell, sm100)

LLAMA = model("llama-3.1-8b-instruct")
QWEN3 = model("qwen3-8b")
DSV3 = model("deepseek-v3")
KIMI = model("kimi-k2.5")
EAGLE1 = model("eagle-llama-3.1-8b-instruct")
EAGLE3 = model("eagle3-llama-3.1-8b-instruct")
KIMI_EAGLE3 = model("eagle3-kimi-k2.5")

SPEC_FIELDS = (
    "speculative_algorithm",
    "speculative_num_steps",
    "speculative_eagle_topk",
    "speculative_num_draft_tokens",
    "speculative_draft_model_path",
    "speculative_draft_model_revision",
    "max_running_requests",
    "enable_mixed_chunk",
    "disable_overlap_schedule",
)
PARALLEL_FIELDS = ("tp_size", "pp_size", "dp_size", "attn_dp_size", "ep_size", "enable_dp_attention")
COMPARED_FIELDS = SPEC_FIELDS + PARALLEL_FIELDS + ("device",)

ALGORITHMS = (
    ["EAGLE", "EAGLE3", "NEXTN", "STANDALONE", "NGRAM", "DFLASH"] * 4
    + ["eagle", "Eagle3", "eagle3", "nextn", "NextN", "standalone", "ngram", "dflash"]
    + ["MEDUSA", "lookahead", "EAGLE-3"]  # unknown names
    + [None, None]
)
BACKENDS = ("flashinfer", "fa3", "triton", "flashmla", "trtllm_mha")


def _draft_for(algo: str | None, target: str, rng: random.Random) -> str | None:
    """A draft folder SGLang can read (it reads the draft's config for EAGLE/EAGLE3/NEXTN)."""
    upper = (algo or "").upper()
    if rng.random() < 0.12:
        return None  # no draft: MTP targets use themselves, others ...
    if upper in ("EAGLE", "NEXTN"):
        if target in (DSV3, KIMI):
            return rng.choice([None, None, target])
        return EAGLE1
    if upper == "EAGLE3":
        return KIMI_EAGLE3 if target in (KIMI, DSV3) else EAGLE3
    if upper == "STANDALONE":
        return rng.choice([LLAMA, QWEN3])
    if upper == "DFLASH":
        return rng.choice([EAGLE3, QWEN3])
    if upper == "NGRAM":
        return None
    return rng.choice([None, EAGLE3])


def make_config(rng: random.Random) -> list[str]:
    target = rng.choice([LLAMA, LLAMA, QWEN3, DSV3, KIMI])
    algo = rng.choice(ALGORITHMS)
    argv = ["--model-path", target]
    if algo is not None:
        argv += ["--speculative-algorithm", algo]
    draft = _draft_for(algo, target, rng)
    if draft is not None:
        argv += ["--speculative-draft-model-path", draft]
        if rng.random() < 0.1:
            argv += ["--speculative-draft-model-revision", rng.choice(["main", "v2"])]
    if rng.random() < 0.08:
        argv += ["--revision", "r1"]

    # steps / topk / draft tokens: all, some or none
    mode = rng.choice(["full", "full", "partial", "none", "none"])
    triple = {
        "--speculative-num-steps": str(rng.choice([1, 2, 3, 4, 5, 6])),
        "--speculative-eagle-topk": str(rng.choice([1, 1, 2, 4, 8])),
        "--speculative-num-draft-tokens": str(rng.choice([2, 4, 6, 8, 16, 32])),
    }
    if mode == "full":
        chosen = list(triple)
    elif mode == "partial":
        chosen = rng.sample(list(triple), rng.choice([1, 2]))
    else:
        chosen = []
    for flag in chosen:
        argv += [flag, triple[flag]]

    if (algo or "").upper() == "NGRAM" or rng.random() < 0.05:
        if rng.random() < 0.5:
            argv += ["--speculative-ngram-max-bfs-breadth", str(rng.choice([0, 1, 2, 4, 10]))]
        if rng.random() < 0.3 and "--speculative-num-draft-tokens" not in argv:
            argv += ["--speculative-num-draft-tokens", str(rng.choice([4, 8, 12]))]
    if rng.random() < 0.3:
        argv += ["--max-running-requests", str(rng.choice([1, 8, 32, 64, 200]))]
    if rng.random() < 0.25:
        argv += ["--enable-mixed-chunk"]
    if rng.random() < 0.25:
        argv += ["--disable-overlap-schedule"]
    if rng.random() < 0.35:
        argv += ["--page-size", str(rng.choice([1, 16, 32, 64]))]
    if rng.random() < 0.45:
        argv += ["--attention-backend", rng.choice(BACKENDS)]
    elif rng.random() < 0.08:
        argv += [
            rng.choice(["--decode-attention-backend", "--prefill-attention-backend"]),
            rng.choice(BACKENDS),
        ]
    if (algo or "").upper() == "DFLASH" and rng.random() < 0.3:
        argv += ["--speculative-dflash-block-size", str(rng.choice([4, 8, 16]))]
    if rng.random() < 0.08:
        argv += ["--speculative-adaptive"]
    if rng.random() < 0.08:
        argv += ["--device", rng.choice(["cuda", "cuda:0"])]
    r = rng.random()
    if r < 0.25:
        argv += ["--tp-size", str(rng.choice([2, 4, 8]))]
    elif r < 0.32:
        argv += ["--tp-size", "4", "--dp-size", "2", "--enable-dp-attention"]
    elif r < 0.37:
        argv += ["--tp-size", "4", "--attn-dp-size", rng.choice(["2", "4"])]
    elif r < 0.41:
        argv += ["--pp-size", "2"]
    if "--enable-dp-attention" in argv or "--attn-dp-size" in argv:
        if rng.random() < 0.5:
            argv += ["--enable-dp-lm-head"]
    return argv


def _spec(algo, *flags, target=LLAMA, draft=None):
    argv = ["--model-path", target, "--speculative-algorithm", algo]
    if draft is not None:
        argv += ["--speculative-draft-model-path", draft]
    return argv + [str(f) for f in flags]


TRIPLE_3_1_4 = (
    "--speculative-num-steps",
    3,
    "--speculative-eagle-topk",
    1,
    "--speculative-num-draft-tokens",
    4,
)
# Edge cases the random draw may miss; each one made a difference once.
FIXED_CONFIGS = [
    _spec("EAGLE3", "--speculative-adaptive", draft=EAGLE3),
    _spec("EAGLE3", "--speculative-adaptive", "--speculative-num-steps", 5, draft=EAGLE3),
    _spec(
        "EAGLE3",
        "--speculative-adaptive",
        "--speculative-num-steps",
        4,
        "--speculative-eagle-topk",
        1,
        draft=EAGLE3,
    ),  # 4 is not a candidate step
    _spec(
        "EAGLE",
        "--speculative-adaptive",
        "--speculative-eagle-topk",
        2,
        "--speculative-num-steps",
        3,
        "--speculative-num-draft-tokens",
        8,
        draft=EAGLE1,
    ),
    _spec("NEXTN", "--speculative-adaptive", "--tp-size", 8, "--attn-dp-size", 2, target=DSV3),
    _spec("STANDALONE", "--speculative-adaptive", "--speculative-num-steps", 3, draft=QWEN3),
    _spec("NGRAM", "--speculative-ngram-max-bfs-breadth", 0),
    _spec("NGRAM", "--speculative-ngram-max-bfs-breadth", 0, "--speculative-num-steps", 2),
    _spec("NGRAM", "--pp-size", 2),
    _spec("DFLASH", "--pp-size", 2, draft=QWEN3),
    _spec("DFLASH", "--tp-size", 4, "--attn-dp-size", 2, "--enable-dp-lm-head", draft=QWEN3),
    _spec("DFLASH", "--speculative-dflash-block-size", 8, "--speculative-num-draft-tokens", 8, draft=QWEN3),
    _spec(
        "EAGLE3",
        "--speculative-num-steps",
        3,
        "--speculative-eagle-topk",
        4,
        "--speculative-num-draft-tokens",
        8,
        "--attention-backend",
        "flashmla",
        draft=EAGLE3,
    ),
    _spec(
        "EAGLE3",
        "--speculative-num-steps",
        3,
        "--speculative-eagle-topk",
        4,
        "--speculative-num-draft-tokens",
        8,
        "--attention-backend",
        "trtllm_mha",
        "--page-size",
        16,
        draft=EAGLE3,
    ),
    _spec(
        "EAGLE3", "--speculative-num-steps", 3, "--attention-backend", "trtllm_mha", draft=EAGLE3
    ),  # topk None > 1: TypeError
    _spec("EAGLE3", *TRIPLE_3_1_4, "--attention-backend", "trtllm_mha", draft=EAGLE3),
    _spec(
        "NGRAM",
        "--speculative-ngram-max-bfs-breadth",
        1,
        "--page-size",
        16,
        "--attention-backend",
        "trtllm_mha",
    ),
    _spec("NGRAM", "--attention-backend", "trtllm_mha"),  # page 64 on trtllm_mha
    _spec("NGRAM", "--attention-backend", "flashinfer", "--page-size", 64),
    _spec("EAGLE", *TRIPLE_3_1_4, "--device", "cuda:1", draft=EAGLE1),
    _spec("medusa"),
    _spec("nextn", target=KIMI),
    _spec("EAGLE3", "--pp-size", 2, draft=EAGLE3),
]


def build_configs(seed: int = SEED, n: int = N_CONFIGS) -> list[list[str]]:
    rng = random.Random(seed)
    return FIXED_CONFIGS + [make_config(rng) for _ in range(n)]


def speclint_view(argv: list[str]):
    text = "python -m sglang.launch_server " + shlex.join(argv) + "\n"
    result = lint_text(text, "x.sh", LintOptions(sglang_version="0.5.23", read_pyproject=False))
    resolution = result.contexts[0].resolution if result.contexts else None
    errors = sorted({f.code for f in result.findings if f.severity == Severity.ERROR})
    return resolution, errors


def sglang_value(oracle: dict, field: str) -> object:
    """The value SGLang's resolution leaves in `field`.

    `ServerArgs.resolved_dict()` reports one field differently from the resolved record:
    the deprecated `enable_dp_attention` is overwritten with `attn_dp_size > 1` for
    /server_info clients, while `handle_deprecated_dp_attention` resolves the field to
    False (speclint models the field). Read it from the last declaration, or the input.
    """
    if field == "enable_dp_attention":
        declared = declared_by(oracle, field)
        if declared:
            return declared[-1][1]
        return oracle["raw"].get(field, oracle["effective"].get(field, "<missing>"))
    return oracle["effective"].get(field, "<missing>")


# speclint error codes for launches that pass argument resolution and fail later, when
# the server starts. SGLang's resolution accepts them, so the oracle cannot confirm them.
POST_RESOLUTION_ERRORS = {
    # EAGLE/EAGLE3 without a draft on a dense target: SGLang loads the target again as
    # the draft and crashes at embedding / lm-head wiring (sgl-project/sglang#36528).
    "SPD005": "missing draft model (fails when the draft worker loads)",
}


def exclusion(argv: list[str], oracle: dict, errors: list[str]) -> str | None:
    """Why a disagreement on accept/reject is out of speclint's reach (None: it is not).

    Kept narrow: each case names the one SGLang check or speclint rule it covers."""
    if not oracle["ok"] and not errors and "--attention-backend" not in argv:
        message = str(oracle["error"] or "")
        # SGLang picks the attention backend for the GPU when none is given (fa3 on
        # Hopper; trtllm_mla / trtllm_mha on Blackwell, which also raise page_size to 64),
        # and its tree checks read that choice: topk > 1 with page_size > 1 outside
        # flashinfer/fa3/triton, or outside flashinfer for NGRAM.
        if "page_size" in message and "speculative_eagle_topk" in message:
            return "topk > 1 with page_size > 1 on an auto-chosen attention backend"
        if "trtllm_mha backend only supports topk = 1" in message:
            return "topk > 1 on an auto-chosen trtllm_mha backend"
    if oracle["ok"] and errors and all(code in POST_RESOLUTION_ERRORS for code in errors):
        return " / ".join(POST_RESOLUTION_ERRORS[code] for code in errors)
    return None


def compare(configs, results, gpu):
    """Compare speclint with SGLang on every config: returns (agreeing configs, field values
    compared, field values agreeing, problems, excluded reasons, accepted, rejected)."""
    agree = values = values_ok = accepted = rejections = 0
    problems: list[str] = []
    excluded: Counter = Counter()
    for argv, oracle in zip(configs, results):
        resolution, errors = speclint_view(argv)
        rejected = not oracle["ok"]
        cmd = shlex.join(a.rsplit("/", 1)[-1] if a.startswith("/") else a for a in argv)
        why = exclusion(argv, oracle, errors)
        if why is not None:
            excluded[why] += 1
            continue
        accepted += not rejected
        rejections += rejected
        ok = rejected == bool(errors)
        if not ok:
            problems.append(
                f"[{gpu}] {cmd}\n    SGLang: "
                + (
                    f"{oracle['stage']} {oracle['error_type']}: {str(oracle['error'])[:200]}"
                    if rejected
                    else "accepts"
                )
                + f"\n    speclint errors: {errors or 'none'}"
            )
        elif not rejected and resolution is not None:
            for field in COMPARED_FIELDS:
                mine = resolution.effective.get(field, Unknown("not modelled"))
                if not is_known(mine):
                    continue
                theirs = sglang_value(oracle, field)
                values += 1
                if mine == theirs and type(mine) is type(theirs):
                    values_ok += 1
                else:
                    ok = False
                    problems.append(f"[{gpu}] {cmd}\n    {field}: speclint {mine!r}, SGLang {theirs!r}")
        agree += ok
    return agree, values, values_ok, problems, excluded, accepted, rejections


@pytest.fixture(scope="module")
def oracle_run():
    configs = build_configs()
    b200 = configs[::B200_EVERY]
    # check_server_args() too: launch runs it before any process starts (the pipeline-
    # parallel and node-split checks speclint reports live there)
    cases = [{"argv": a, "gpu": "H100", "check": True} for a in configs] + [
        {"argv": a, "gpu": "B200", "check": True} for a in b200
    ]
    t0 = time.perf_counter()
    results = run_oracle(cases)  # one process for every case: importing SGLang takes ~5 s
    elapsed = time.perf_counter() - t0
    return configs, results[: len(configs)], b200, results[len(configs) :], elapsed


def test_speclint_agrees_with_sglang(oracle_run):
    configs, h100, b200, b200_results, oracle_s = oracle_run
    t0 = time.perf_counter()
    summaries, all_problems, floors = [], [], []
    for gpu, cfgs, res in (("fake H100", configs, h100), ("fake B200", b200, b200_results)):
        agree, values, values_ok, problems, excluded, accepted, rejected = compare(cfgs, res, gpu)
        all_problems += problems
        n_excluded = sum(excluded.values())
        excl = "; ".join(f"{n} {why}" for why, n in excluded.most_common()) or "none"
        summaries.append(
            f"oracle agreement ({gpu}): {agree}/{len(cfgs)} configs "
            f"({accepted} accepted, {rejected} rejected by SGLang), "
            f"{values_ok}/{values} field values; {n_excluded} excluded: {excl}"
        )
        # the comparison must not be vacuous, nor the exclusions grow unnoticed
        floors.append(
            accepted >= len(cfgs) // 2
            and rejected >= len(cfgs) // 10
            and values >= 5 * accepted
            and n_excluded <= len(cfgs) // 10
        )
    summary = "\n".join(summaries) + (
        f"\n(oracle {oracle_s:.1f}s for {len(h100) + len(b200)} "
        f"resolutions, speclint {time.perf_counter() - t0:.1f}s)"
    )
    print("\n" + summary)
    assert not all_problems, summary + "\n" + "\n".join(all_problems[:60])
    assert all(floors), summary
