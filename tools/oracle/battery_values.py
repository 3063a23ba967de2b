"""The launches of `record.py --generator value_types`: flags whose argparse `type` is one of
SGLang's own functions other than `human_readable_int` (speclint.sglang.flags.value_types):
0.5.14+ `--cuda-graph-config` JSON (the release's phases and keys, keys another phase has,
phases and backends it lacks, other JSON, text that is not JSON), 0.5.22+
`--cuda-graph-backend-decode/-prefill` (the retired `tc_piecewise`, choices, values outside
them), `--quantization-param-path None`, 0.5.3-0.5.4 `json_list_type` flags (JSON_LISTS: lists,
other JSON, what `json.loads` and `orjson.loads` read otherwise, text that is not JSON; after the
others, so a seed draws the others as before); each launch keeps only the flags the release has."""

from __future__ import annotations

import random

from battery import LLAMA, QWEN3

CONFIGS = (
    "{}", '{"decode": {}}', '{"decode": {"backend": "full", "max_bs": 64}}', '{"prefill": {"backend": "breakable"}}',
    '{"decode": {"bs": [1, 2, 4, 8]}, "prefill": {"max_bs": 8}}', '{"prefill": {"max_context_size": 4096}}',
    '{"decode": {"max_context_size": 8}}', '{"decode": {"backend": "tc_piecewise"}}',
    '{"prefill": {"backend": "tc_piecewise"}}', '{"decode": {"nope": 1}}', '{"verify": {}}', '{"decode": 1}',
    "[1, 2]", "{decode: {}}", "full", '{"decode": {"tc_compiler": "eager"}}', '{"prefill": {"full_prefill_max_req": 4}}',
    '{"decode": {"backend": "disabled"}}', '{"decode": {"max_bs": 32}, "prefill": {"backend": "disabled"}}',
)  # fmt: skip
BACKENDS = ("full", "breakable", "disabled", "tc_piecewise", "bogus", "Full")
PATHS = ("None", "", "/tmp/kv_scales.json")
JSON_LISTS = (
    "[1, 2, 4]", "[8192]", "[]", '{"a": 1}', "4", "[1, NaN]", "[1e400]", "[18446744073709551616]",
    '["\\ud800"]', "[1, 2", "not json",
)  # fmt: skip
JSON_LIST_FLAGS = (
    "--piecewise-cuda-graph-tokens",
    "--remote-instance-weight-loader-send-weights-group-ports",
)


def value_types(version: str, seed: int, n: int) -> list[dict]:
    """The fixed launches (each config, each backend of each phase, each path) and `n` drawn
    (a config, half with a backend flag, some with --cuda-graph-max-bs), every third on a B200;
    a launch with none of these flags on `version` is left out."""
    from speclint.sglang.flags.schema import options_of

    options = options_of(version)
    rng = random.Random(seed)
    launches = [[("--cuda-graph-config", c)] for c in CONFIGS]
    launches += [[(f"--cuda-graph-backend-{p}", b)] for p in ("decode", "prefill") for b in BACKENDS]
    launches += [[("--quantization-param-path", p)] for p in PATHS]
    for _ in range(n):
        launch = [("--cuda-graph-config", rng.choice(CONFIGS))]
        if rng.random() < 0.5:
            launch.append((f"--cuda-graph-backend-{rng.choice(['decode', 'prefill'])}", rng.choice(BACKENDS)))
        if rng.random() < 0.3:
            launch.append(("--cuda-graph-max-bs", str(rng.choice([8, 64]))))
        launches.append(launch)
    launches += [[(flag, value)] for flag in JSON_LIST_FLAGS for value in JSON_LISTS]
    cases = []
    for i, launch in enumerate(launches):
        kept = [(flag, value) for flag, value in launch if flag in options]
        if not kept:
            continue
        argv = ["--model-path", rng.choice([LLAMA, QWEN3])]
        for flag, value in kept:
            argv += [flag, value]
        cases.append({"argv": argv, "gpu": "B200" if i % 3 == 2 else "H100"})
    return cases
