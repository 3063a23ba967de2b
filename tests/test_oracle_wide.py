"""Wide differential test: every field SGLang 0.5.23's resolution changes, per GPU profile.

1,000 seeded launches per profile (Hopper H100, Blackwell B200) mixing parallelism,
attention backends, page sizes, memory and chunking flags, context lengths, quantization,
KV-cache dtypes and speculative algorithms (tests/oracle_wide.py), each profile resolved by
the real SGLang in ONE oracle process (the two run side by side). For every launch SGLang
accepts, every field its resolution changed is compared with speclint's `explain` view
(`--gpu` set to the same profile): equal, listed unknown (with why), or different.
"different" must be 0. `pytest -m oracle -s tests/test_oracle_wide.py` prints the counts.
"""

from __future__ import annotations

import json
import os
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from oracle_harness import run_oracle
from oracle_wide import Tally, build_launches, compare_one, shell_text

from speclint.engine import lint_text
from speclint.settings.options import LintOptions
from speclint.sglang.resolve.gpu_profiles import profile

pytestmark = pytest.mark.oracle

PROFILES = {"H100": 20260523, "B200": 20260524}
N_LAUNCHES = 1000


def _oracle(gpu: str, seed: int):
    launches = build_launches(seed, N_LAUNCHES)
    t0 = time.perf_counter()
    results = run_oracle([{"argv": a, "env": e, "gpu": gpu} for a, e in launches], timeout=1500)
    dump = os.environ.get("SPECLINT_WIDE_DUMP")  # a folder: keep SGLang's answers to study
    if dump:
        with open(os.path.join(dump, f"wide-{gpu}.json"), "w") as handle:
            json.dump([{"argv": a, "env": e, "result": r} for (a, e), r in zip(launches, results)], handle)
    return gpu, launches, results, time.perf_counter() - t0


def test_every_changed_field_is_predicted_or_unknown():
    with ThreadPoolExecutor(max_workers=len(PROFILES)) as pool:
        runs = list(pool.map(lambda item: _oracle(*item), PROFILES.items()))
    failures = []
    for gpu, launches, results, elapsed in runs:
        tally = Tally()
        options = LintOptions(sglang_version="0.5.23", read_pyproject=False, gpu=profile(gpu.lower()))
        t0 = time.perf_counter()
        for (argv, env), result in zip(launches, results):
            text = shell_text(argv, env)
            ctx = lint_text(text, "wide.sh", options).contexts[0]
            compare_one(tally, text, result, ctx.resolution)
        print(
            f"\n{tally.line(gpu, len(launches))} (oracle {elapsed:.0f}s, speclint "
            f"{time.perf_counter() - t0:.1f}s)"
        )
        assert tally.accepted > len(launches) // 2  # the generator mostly writes valid launches
        assert tally.equal > tally.unknown  # most changed fields are predicted, not skipped
        failures += tally.problems[:10]
    assert not failures, "speclint differs from SGLang:\n" + "\n".join(failures)
