"""Wide launch generator and field-by-field comparison for tests/test_oracle_wide.py.

Unlike tests/test_oracle_differential.py (speculative triples), these launches mix
parallelism, attention backends, page sizes, memory and chunking flags, context lengths,
quantization and KV-cache dtypes, and run per GPU profile; every field SGLang's
resolution changes is compared. A plain helper module, not a test file.
"""

from __future__ import annotations

import random
import shlex
from dataclasses import dataclass, field

from oracle_harness import model

LLAMA, QWEN3, DSV3 = model("llama-3.1-8b-instruct"), model("qwen3-8b"), model("deepseek-v3")
KIMI, KIMI_EAGLE3 = model("kimi-k2.5"), model("eagle3-kimi-k2.5")
EAGLE3 = model("eagle3-llama-3.1-8b-instruct")
TARGETS = (LLAMA, LLAMA, QWEN3, DSV3)
KIMI_SHARE = 0.03  # Kimi-K2.5 (a VLM with MLA) resolves ~10x slower in the oracle
GRAPH_PARTS = {
    ("decode", "max_bs"): "cuda_graph_max_bs",
    ("decode", "bs"): "cuda_graph_bs",
    ("prefill", "backend"): "cuda_graph_backend_prefill",
    ("prefill", "max_bs"): "cuda_graph_max_bs_prefill",
    ("prefill", "bs"): "cuda_graph_bs_prefill",
}


def _pick(rng: random.Random, *choices, none: float = 0.5):
    return None if rng.random() < none else rng.choice(choices)


def make_launch(rng: random.Random) -> tuple[list[str], dict[str, str]]:
    target = KIMI if rng.random() < KIMI_SHARE else rng.choice(TARGETS)
    argv = ["--model-path", target] + (["--trust-remote-code"] if target == KIMI else [])
    env: dict[str, str] = {}
    tp = rng.choice((1, 1, 2, 4, 8, 8))
    argv += ["--tp-size", str(tp)]
    if rng.random() < 0.1:
        argv += ["--pp-size", "2"]
    layout = rng.random()
    if layout < 0.15 and tp > 1:
        argv += ["--dp-size", str(rng.choice((2, tp))), "--enable-dp-attention"]
    elif layout < 0.25 and tp > 1:
        argv += ["--attn-dp-size", str(rng.choice((2, tp, 3)))]
    elif layout < 0.3:
        argv += ["--dp-size", "2"]
    for flag, value in (
        (
            "--attention-backend",
            _pick(rng, "fa3", "flashinfer", "triton", "flashmla", "trtllm_mha", "trtllm_mla", none=0.6),
        ),
        ("--page-size", _pick(rng, 1, 16, 32, 64, none=0.6)),
        ("--mem-fraction-static", _pick(rng, 0.7, 0.85, none=0.7)),
        ("--chunked-prefill-size", _pick(rng, 2048, 4096, -1, none=0.7)),
        ("--max-running-requests", _pick(rng, 16, 64, 256, 1024, none=0.7)),
        ("--max-total-tokens", _pick(rng, 4096, 100000, none=0.9)),
        ("--context-length", _pick(rng, 4096, 32768, 65536, 300000, none=0.7)),
        ("--kv-cache-dtype", _pick(rng, "fp8_e4m3", "fp8_e5m2", none=0.85)),
        ("--quantization", _pick(rng, "fp8", none=0.9)),
        ("--cuda-graph-max-bs-decode", _pick(rng, 32, 160, none=0.9)),
        ("--schedule-conservativeness", _pick(rng, 0.5, none=0.95)),
    ):
        if value is not None:
            argv += [flag, str(value)]
    for switch, p in (
        ("--disable-cuda-graph", 0.08),
        ("--disable-cuda-graph-padding", 0.05),
        ("--enable-mixed-chunk", 0.05),
        ("--disable-radix-cache", 0.05),
    ):
        if rng.random() < p:
            argv.append(switch)
    spec = rng.random()
    if spec < 0.15:
        argv += [
            "--speculative-algorithm",
            "EAGLE3",
            "--speculative-draft-model-path",
            KIMI_EAGLE3 if target in (KIMI, DSV3) else EAGLE3,
        ]
        if rng.random() < 0.6:
            steps, topk = rng.choice((1, 3)), rng.choice((1, 1, 4))
            argv += [
                "--speculative-num-steps",
                str(steps),
                "--speculative-eagle-topk",
                str(topk),
                "--speculative-num-draft-tokens",
                str(rng.choice((4, 8))),
            ]
    elif spec < 0.25 and target == DSV3:
        argv += ["--speculative-algorithm", "EAGLE"]
    elif spec < 0.32:
        argv += ["--speculative-algorithm", "NGRAM"]
    if "--context-length" in argv and rng.random() < 0.3:
        env["SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN"] = "1"
    return argv, env


def build_launches(seed: int, n: int) -> list[tuple[list[str], dict[str, str]]]:
    rng = random.Random(seed)
    return [make_launch(rng) for _ in range(n)]


def shell_text(argv: list[str], env: dict[str, str]) -> str:
    prefix = "".join(f"{k}={shlex.quote(v)} " for k, v in env.items())
    return prefix + "python -m sglang.launch_server " + shlex.join(argv) + "\n"


def sglang_changed(oracle: dict) -> dict[str, object]:
    """Every field SGLang's resolution changed, with its value; `cuda_graph_config` split
    into the parts speclint names (cuda_graph_max_bs, ...)."""
    out: dict[str, object] = {}
    effective = oracle["effective"]
    changed = set(oracle["raw"])
    for _handler, fields in oracle["declared"]:
        changed.update(fields)
    for name in changed:
        if name.startswith("_") or name not in effective:
            continue
        if name == "cuda_graph_config":
            graph = effective[name] or {}
            for (phase, key), mine in GRAPH_PARTS.items():
                out[mine] = (graph.get(phase) or {}).get(key)
            continue
        if name == "enable_dp_attention":  # resolved_dict() reports attn_dp_size > 1
            continue
        out[name] = effective[name]
    return out


@dataclass
class Tally:
    compared: int = 0
    equal: int = 0
    unknown: int = 0
    different: int = 0
    accepted: int = 0
    rejected: int = 0
    problems: list[str] = field(default_factory=list)
    unknown_fields: dict[str, int] = field(default_factory=dict)

    def line(self, profile: str, launches: int) -> str:
        return (
            f"[{profile}] {launches} launches ({self.accepted} accepted, {self.rejected} "
            f"rejected by SGLang): fields compared {self.compared}, equal {self.equal}, "
            f"unknown {self.unknown}, different {self.different}"
        )


def compare_one(tally: Tally, text: str, oracle: dict, resolution) -> None:
    from speclint.sglang.resolve import is_known

    if not oracle["ok"]:
        tally.rejected += 1
        return
    tally.accepted += 1
    effective = resolution.effective
    for name, value in sglang_changed(oracle).items():
        tally.compared += 1
        mine = effective.get(name, _MISSING)
        if mine is _MISSING:
            tally.different += 1
            tally.problems.append(f"{text.strip()}\n    {name}: not reported by speclint (SGLang: {value!r})")
        elif not is_known(mine):
            tally.unknown += 1
            tally.unknown_fields[name] = tally.unknown_fields.get(name, 0) + 1
        elif _same(mine, value):
            tally.equal += 1
        else:
            tally.different += 1
            tally.problems.append(f"{text.strip()}\n    {name}: speclint {mine!r}, SGLang {value!r}")


_MISSING = object()


def _same(mine: object, theirs: object) -> bool:
    if isinstance(mine, float) or isinstance(theirs, float):
        return isinstance(theirs, (int, float)) and abs(float(mine) - float(theirs)) < 1e-9
    if isinstance(mine, tuple):
        mine = list(mine)
    return mine == theirs
