#!/usr/bin/env python3
"""Refusal differential: speclint's verdicts against what SGLang releases did, grouped by cause.

    tools/oracle/record.py 0.5.23 0.4.10 --seed 9101 --out-dir /tmp/diff/9101   # record
    PYTHONPATH=src .venv/bin/python tools/oracle/differential.py /tmp/diff/9101/*.json.gz

For every recorded launch (tests/data/oracle/README.md format; any battery seed), speclint
lints the same command line for the release and the GPU it was recorded on, and the launch is

- a FALSE ERROR: SGLang accepted it, speclint reports an error (the drafter checks DRF* and
  SPD005 fail later, when the draft loads, and are not counted: a recording cannot confirm
  them);
- a MISSED REFUSAL: SGLang refused it (argparse, resolution or check_server_args), speclint
  reports no error;
- a VALUE difference: both accept, and a value speclint states differs from the recorded one;
- a HARNESS ARTEFACT: SGLang refused it in a way the oracle harness causes and a CUDA machine
  would not (`HARNESS`: the fake GPU's registry and gptq_marlin conversion), speclint reports
  no error; listed with the reason, not counted in the exit status;
- an UNKNOWN value: both accept, speclint's resolution (what `speclint explain` shows) holds a
  field as unknown that the release resolved to a value other than None (``--unknown``: counted
  and grouped by field and speclint's reason; the default counts only the three kinds above).

A recording keeps the fields a launch gives, those resolution changed and those speclint models
(record.py `compact`); ``--defaults`` also compares every other field speclint states with the
release's argparse default (the flag's, read into the flag schema): a field the recording lacks
was neither given nor changed, so SGLang left it there. Its differences count as VALUE
differences too, "(not recorded: SGLang's default)" in their cause.

Disagreements are grouped by cause: a false error by speclint's code and message (numbers and
paths blanked), a missed refusal by SGLang's exception, raising function and message. Counts
per release and seed first, then each group with its count and one example launch.
``--json FILE`` writes the groups for a later run to compare against.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import shlex
import sys
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
_NUMBER = re.compile(r"(?<![A-Za-z_])-?\d+(\.\d+)?")
_PATH = re.compile(r"(/[\w.\-]+)+")


HARNESS = (
    (
        re.compile(r"_verify_quantization: Unknown quantization method: mxfp4\."),
        "the fake GPU: layers/quantization/__init__.py registers mxfp4 under `if is_cuda() ...`, "
        "which reads False while the module imports (resolve_cases.py), so the release's "
        "registry lacks it; on a CUDA machine it is registered (tools/oracle/README.md)",
    ),
    (
        re.compile(
            r"_verify_quantization: Quantization method specified in the model config \(gptq\) "
            r"does not match the quantization method specified in the `quantization` argument "
            r"\((gptq_marlin|marlin)\)"
        ),
        "the fake GPU: GPTQMarlinConfig.is_gptq_marlin_compatible returns False on its "
        "module-level `_is_cuda`, so the conversion to gptq_marlin a CUDA machine makes for "
        "--quantization gptq_marlin or marlin is not made (tools/oracle/README.md)",
    ),
)
"""Refusals the oracle harness makes that a CUDA machine would not (the raising frame and
SGLang's message, matched on the recorded error): counted as "harness artefact", with the
reason, and left out of the exit status."""


def _harness(launch: dict) -> str | None:
    text = f"{launch.get('where') or launch.get('stage')}: {launch.get('error')}"
    return next((reason for pattern, reason in HARNESS if pattern.search(text)), None)


def _post_resolution(code: str) -> bool:
    """Errors about what fails when the server loads the draft (see the module docstring)."""
    return code.startswith("DRF") or code == "SPD005"


def _template(text: str, limit: int = 110) -> str:
    text = _PATH.sub("<path>", str(text))
    return _NUMBER.sub("N", text).split("\n")[0][:limit]


def _text(launch: dict) -> str:
    env = "".join(f"{k}={shlex.quote(v)} " for k, v in (launch.get("env") or {}).items())
    argv = [os.path.join(ROOT, a) if a.startswith("fixtures/") else a for a in launch["argv"]]
    return env + "python -m sglang.launch_server " + shlex.join(argv) + "\n"


def describe(launch: dict) -> str:
    env = " ".join(f"{k}={v}" for k, v in (launch.get("env") or {}).items())
    argv = [a.rsplit("/", 1)[-1] if a.startswith("fixtures/") else a for a in launch["argv"]]
    return f"[{launch['gpu']}] {env + ' ' if env else ''}{shlex.join(argv)}"


def _defaults(version: str) -> dict[str, object]:
    """{dest: the argparse default} of the release's flags whose default reads as a literal."""
    import ast

    from speclint.sglang.flags.schema import options_of

    found = _DEFAULTS.get(version)
    if found is None:
        found = {}
        for spec in options_of(version).values():
            try:
                found.setdefault(spec.dest, ast.literal_eval(str(spec.default)))
            except (ValueError, SyntaxError):
                continue
        _DEFAULTS[version] = found
    return found


_DEFAULTS: dict[str, dict[str, object]] = {}


def classify(
    version: str, mode: str, launch: dict, unknown: bool = False, defaults: bool = False
) -> list[tuple[str, str]]:
    """[(kind, cause)] for one launch; [] when speclint and the release agree."""
    from speclint.core.findings import Severity
    from speclint.engine import lint_text
    from speclint.settings.options import LintOptions
    from speclint.sglang.resolve import is_known
    from speclint.sglang.resolve.gpu_profiles import profile

    options = LintOptions(sglang_version=version, gpu=profile(launch["gpu"]), read_pyproject=False)
    result = lint_text(_text(launch), "launch.sh", options)
    errors = [f for f in result.findings if f.severity == Severity.ERROR]
    fatal = [f for f in errors if not _post_resolution(f.code)]
    if launch["ok"] and fatal:
        return [("false error", f"{f.code}: {_template(f.message)}") for f in fatal]
    if not launch["ok"]:
        if errors:  # a drafter error agrees with a refusal (the model check comes first)
            return []
        where = launch.get("where") or launch.get("stage")
        artefact = _harness(launch)
        if artefact is not None:
            return [("harness artefact", artefact)]
        return [("missed refusal", f"{launch['error_type']} in {where}: {_template(launch['error'])}")]
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    from test_oracle_recordings import _MISSING, _relative, recorded_value  # type: ignore[import-not-found]

    out = []
    ctx = result.contexts[0] if result.contexts else None
    for field, mine in ctx.resolution.effective.items() if ctx and ctx.resolution else ():
        theirs = recorded_value(launch, field, mode)
        if not is_known(mine):
            if unknown and theirs is not _MISSING and theirs is not None:
                out.append(
                    ("unknown", f"{field}: speclint unknown ({_template(mine.reason)}), SGLang sets it")
                )
            continue
        mine = _relative(mine)
        note = ""
        if theirs is _MISSING and defaults and field in _defaults(version):
            theirs, note = _defaults(version)[field], " (not recorded: SGLang's default)"
        if theirs is not _MISSING and not (mine == theirs and type(mine) is type(theirs)):
            out.append(("value", f"{field}: speclint {mine!r}, SGLang {theirs!r}{note}"))
    return out


def run(paths: list[str], examples: int, unknown: bool = False, defaults: bool = False) -> dict:
    per_run: dict[str, Counter] = {}
    groups: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    for path in paths:
        with gzip.open(path, "rt") as f:
            doc = json.load(f)
        version, mode = doc["release"], doc["mode"]
        made = doc["made"]
        label = f"{version} {made.get('generator', 'battery')} seed {made['battery_seed']}"
        tally = per_run.setdefault(label, Counter())
        for launch in doc["launches"]:
            tally["launches"] += 1
            found = classify(version, mode, launch, unknown, defaults)
            kinds = {k for k, _ in found}
            for kind in kinds or {"agree"}:
                tally[kind] += 1
            for kind, cause in dict.fromkeys(found):
                groups[(kind, cause)].append((label, describe(launch)))
    for label, tally in per_run.items():
        print(
            f"{label}: {tally['launches']} launches, agree {tally['agree']}, false errors "
            f"{tally['false error']}, missed refusals {tally['missed refusal']}, value differences "
            f"{tally['value']}"
            + (f", unknown values {tally['unknown']}" if unknown else "")
            + (f", harness artefacts {tally['harness artefact']}" if tally["harness artefact"] else "")
        )
    for kind in ("false error", "missed refusal", "value", "unknown", "harness artefact"):
        ranked = sorted(((c, hits) for (k, c), hits in groups.items() if k == kind), key=lambda x: -len(x[1]))
        if ranked:
            print(f"\n== {kind}: {len(ranked)} causes")
        for cause, hits in ranked:
            releases = Counter(label for label, _ in hits)
            print(f"{len(hits):4d}  {cause}\n      {dict(releases)}")
            for _label, text in hits[:examples]:
                print(f"      e.g. {text}")
    return {
        "runs": {k: dict(v) for k, v in per_run.items()},
        "groups": [
            {
                "kind": k,
                "cause": c,
                "launches": [t for _, t in hits],
                "runs": dict(Counter(x for x, _ in hits)),
            }
            for (k, c), hits in groups.items()
        ],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("recordings", nargs="+", help="<release>.json.gz files made by record.py")
    ap.add_argument("--examples", type=int, default=1, help="example launches shown per cause")
    ap.add_argument("--json", help="write the counts and groups here")
    ap.add_argument("--unknown", action="store_true", help="also list values speclint leaves unknown")
    ap.add_argument(
        "--defaults",
        action="store_true",
        help="compare the fields a recording lacks with the release's argparse defaults",
    )
    args = ap.parse_args(argv)
    report = run(args.recordings, args.examples, args.unknown, args.defaults)
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(report, handle, indent=1)
    return 1 if any(g["kind"] in ("false error", "missed refusal") for g in report["groups"]) else 0


if __name__ == "__main__":
    sys.exit(main())
