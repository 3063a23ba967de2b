"""How long `fstring_parts.split_fstring` takes on the largest f-strings a file may hold (the
hostile Python inputs: 350,000 fields in one literal), and on a common one. Target: well
under a second for 350,000 fields (the split is linear: these figures double with the size).

    python bench/fstring_split.py [--runs 5]

CPU time of each form, the best of `--runs` runs.
"""

from __future__ import annotations

import argparse
import time

from speclint.frontends.python.fstring_parts import split_fstring

FIELDS = 350_000
FORMS = {
    "350,000 `{a}`": 'f"' + "{a}" * FIELDS + '"',
    "350,000 `--tp {tp} `": 'f"' + "--tp {tp} " * FIELDS + '"',
    "350,000 `{x:>{w}.{p}f}`": 'f"' + "{x:>{w}.{p}f}" * FIELDS + '"',
    "350,000 `{d['k'] = !r}`": 'f"' + "{d['k'] = !r}" * FIELDS + '"',
    "a launch": 'f"python -m sglang.launch_server --model {model} --tp {tp} --port {port!s}"',
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    for name, literal in FORMS.items():
        best = float("inf")
        for _ in range(runs):
            start = time.process_time()
            parts = split_fstring(literal)
            best = min(best, time.process_time() - start)
        assert parts is not None
        print(f"{name}: {best * 1000:.3f} ms ({len(parts)} parts, {len(literal):,} characters)")


if __name__ == "__main__":
    main()
