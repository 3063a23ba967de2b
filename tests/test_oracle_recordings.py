"""speclint's resolver against the recorded resolution of every recorded SGLang release.

tests/data/oracle/<release>.json.gz hold what each release's OWN argument handling and
resolution did with the launch battery (tools/oracle/record.py, on a fake H100 and B200;
see tests/data/oracle/README.md). Offline: SGLang is not needed. For every launch:

1. rejections agree: speclint, told the GPU the launch was recorded on (`--gpu h100` /
   `b200`), reports an error-severity finding exactly when the release refused the command
   line (argparse or resolution), and a release that refused it while parsing gets an
   argparse-kind finding from speclint;
2. every field speclint states (`explain --output-format json` "effective", i.e. the
   known values of the resolution, the GPU-dependent ones included: attention backend, page
   size, memory fraction, chunked prefill, CUDA-graph sizes) equals the recorded value.

There is no list of tolerated differences: where speclint and a release differ, the model
(src/speclint/sglang/traits.py, src/speclint/sglang/resolve/) is fixed. Fields speclint cannot
know for a release stay Unknown (with why) and are not compared. `pytest -s` prints per
release `0.5.10.post1: 352/352 launches agree (N values compared)`.

    .venv/bin/python tests/test_oracle_recordings.py 0.5.10.post1   # list the differences
"""

from __future__ import annotations

import glob
import gzip
import json
import os
import shlex
import sys
from collections import Counter
from functools import cache

import pytest

from speclint.sglang.server_fields import GRAPH_VIEWS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.environ.get("ORACLE_DATA", os.path.join(ROOT, "tests", "data", "oracle"))
RECORDINGS = sorted(glob.glob(os.path.join(DATA, "*.json.gz")))
SEEDED = sorted(glob.glob(os.path.join(DATA, "seeds", "*", "*.json.gz")))
"""Recordings of other battery draws (`record.py --seed N`, session 9's refusal differential:
seeds/<seed>/<release>.json.gz), compared launch by launch like the others."""
MIN_LAUNCHES = 300


def _argparse_code(code: str) -> bool:
    """speclint codes that say argparse itself refuses the command line: the FLG family,
    a removed flag, an algorithm outside the release's argparse choices."""
    return code.startswith("FLG") or code in ("VER001", "SPD008")


def _post_resolution(code: str) -> bool:
    """speclint errors about launches that pass argument resolution and fail later, when
    the server starts: the drafter checks (DRF*, read from the model files: they fail when
    the draft loads) and a missing draft model (SPD005: the draft worker loads the target
    again and crashes). The recordings cannot confirm these."""
    return code.startswith("DRF") or code == "SPD005"


def _version_key(v: str):
    from speclint.sglang.flags.versions import version_key

    return version_key(v)


@cache
def load(path: str) -> dict:
    with gzip.open(path, "rt") as f:
        return json.load(f)


def _absolute(argv: list[str]) -> list[str]:
    return [os.path.join(ROOT, a) if a.startswith("fixtures/") else a for a in argv]


def _relative(value):
    if isinstance(value, str):
        return value.replace(ROOT + "/", "")
    return value


def speclint_view(version: str, launch: dict):
    from speclint.core.findings import Severity
    from speclint.engine import lint_text
    from speclint.settings.options import LintOptions

    env = "".join(f"{k}={shlex.quote(v)} " for k, v in (launch.get("env") or {}).items())
    text = env + "python -m sglang.launch_server " + shlex.join(_absolute(launch["argv"])) + "\n"
    from speclint.sglang.resolve.gpu_profiles import profile

    gpu = profile(launch["gpu"])  # the fake GPU the release resolved on (H100 / B200)
    result = lint_text(text, "launch.sh", LintOptions(sglang_version=version, gpu=gpu, read_pyproject=False))
    ctx = result.contexts[0] if result.contexts else None
    errors = sorted({f.code for f in result.findings if f.severity == Severity.ERROR})
    return ctx, errors


def recorded_value(launch: dict, field: str, mode: str) -> object:
    """The value the release resolved `field` to. 0.5.23's `resolved_dict()` rewrites the
    deprecated `enable_dp_attention` for /server_info clients; its last declaration is
    what resolution set (tests/test_oracle_differential.py `sglang_value`)."""
    if mode == "resolve_once" and field == "enable_dp_attention":
        for _handler, fields in reversed(launch.get("declared") or []):
            if field in fields:
                return fields[field]
        if field in launch["changed"]:
            return launch["changed"][field][0]
    effective = launch["effective"]
    piecewise = _PIECEWISE.get(field)
    if piecewise in effective and "cuda_graph_config" not in effective:
        return effective[piecewise]  # before 0.5.14: the piecewise (prefill) CUDA graphs' fields
    graphs = _graph_config(effective.get("cuda_graph_config"))
    if (
        field.startswith("cuda_graph_")
        and (field not in effective or field in GRAPH_VIEWS)
        and graphs is not None
    ):
        # 0.5.14+ `cuda_graph_config`: speclint's cuda_graph_{max_bs,bs,backend}[_prefill], also
        # where the release has a field (the flag's) of that name: `--cuda-graph-config`'s JSON is
        # set over the flag (`hardware_flags.json_graph_views`)
        phase = "prefill" if field.endswith("_prefill") else "decode"
        part = field.removeprefix("cuda_graph_").removesuffix("_prefill")
        return (graphs.get(phase) or {}).get(part, _MISSING)
    return effective.get(field, _MISSING)


def _graph_config(value: object) -> dict | None:
    """A recorded `cuda_graph_config`: a dict (0.5.19+), or the repr the 0.5.14-0.5.18
    recordings keep (`CudaGraphConfig(decode=PhaseConfig(backend='full', max_bs=512, ...),
    prefill=...)`), read with `ast` into the same dict."""
    if isinstance(value, dict):
        return value
    if not (isinstance(value, str) and value.startswith("CudaGraphConfig(")):
        return None
    import ast

    call = ast.parse(value, mode="eval").body
    assert isinstance(call, ast.Call), value
    return {
        phase.arg: {part.arg: ast.literal_eval(part.value) for part in phase.value.keywords}
        for phase in call.keywords
        if isinstance(phase.value, ast.Call)
    }


_MISSING = object()
_PIECEWISE = {
    "cuda_graph_max_bs_prefill": "piecewise_cuda_graph_max_tokens",
    "cuda_graph_bs_prefill": "piecewise_cuda_graph_tokens",
}


def compare_launch(version: str, mode: str, launch: dict, compared: Counter | None = None) -> list[str]:
    """What differs between speclint and the recording for one launch ([] = agrees);
    `compared` counts the field values compared, by field."""
    from speclint.sglang.resolve import is_known

    ctx, errors = speclint_view(version, launch)
    rejected = not launch["ok"]
    problems: list[str] = []
    fatal = [c for c in errors if not _post_resolution(c) or rejected]
    if rejected != bool(fatal):
        problems.append(
            "SGLang: "
            + (
                f"{launch['stage']} {launch['error_type']}: {str(launch['error'])[:160]}"
                if rejected
                else "accepts"
            )
            + f" / speclint errors: {errors or 'none'}"
        )
    elif (
        rejected
        and launch["stage"] == "parse"
        and launch["error_type"] == "SystemExit"
        and not any(_argparse_code(c) for c in errors)
    ):
        problems.append(
            f"argparse refuses ({str(launch['error'])[:120]}); speclint reports "
            f"{errors} but no argparse finding"
        )
    if rejected or ctx is None or ctx.resolution is None:
        return problems
    for field, mine in ctx.resolution.effective.items():
        if not is_known(mine):
            continue
        theirs = recorded_value(launch, field, mode)
        if theirs is _MISSING:
            continue
        mine = _relative(mine)
        if compared is not None:
            compared[field] += 1
        if not (mine == theirs and type(mine) is type(theirs)):
            problems.append(f"{field}: speclint {mine!r}, SGLang {theirs!r}")
    return problems


def check_release(path: str):
    """(version, launches, agreeing, values compared, [(launch, problems)])."""
    doc = load(path)
    version, mode = doc["release"], doc["mode"]
    agree, compared, disagreements = 0, Counter(), []
    for launch in doc["launches"]:
        if not launch["ok"] and _harness_artefact(launch):
            continue  # a refusal the oracle harness makes and a CUDA machine would not
        problems = compare_launch(version, mode, launch, compared)
        if problems:
            disagreements.append((launch, problems))
        else:
            agree += 1
    return version, len(doc["launches"]), agree, sum(compared.values()), disagreements


def _harness_artefact(launch: dict) -> bool:
    """tools/oracle/differential.py's HARNESS: the fake GPU's quantization registry and Marlin
    conversion (the quantization and moe draws kept under seeds/ have such launches)."""
    sys.path.insert(0, os.path.join(ROOT, "tools", "oracle"))
    from differential import _harness  # type: ignore[import-not-found]

    return _harness(launch) is not None


def _describe(launch: dict) -> str:
    env = " ".join(f"{k}={v}" for k, v in (launch.get("env") or {}).items())
    argv = [a.rsplit("/", 1)[-1] if a.startswith("fixtures/") else a for a in launch["argv"]]
    return f"[{launch['gpu']}] {env + ' ' if env else ''}{shlex.join(argv)}"


RECORDED = (
    "0.4.0",
    "0.4.0.post1",
    "0.4.0.post2",
    "0.4.1",
    "0.4.1.post1",
    "0.4.1.post2",
    "0.4.1.post3",
    "0.4.1.post4",
    "0.4.1.post5",
    "0.4.1.post6",
    "0.4.1.post7",
    "0.4.2",
    "0.4.2.post1",
    "0.4.2.post2",
    "0.4.2.post3",
    "0.4.2.post4",
    "0.4.3",
    "0.4.3.post1",
    "0.4.3.post2",
    "0.4.3.post3",
    "0.4.3.post4",
    "0.4.4",
    "0.4.4.post1",
    "0.4.4.post2",
    "0.4.4.post3",
    "0.4.4.post4",
    "0.4.5",
    "0.4.5.post1",
    "0.4.5.post2",
    "0.4.5.post3",
    "0.4.6",
    "0.4.6.post1",
    "0.4.6.post2",
    "0.4.6.post3",
    "0.4.6.post4",
    "0.4.6.post5",
    "0.4.7",
    "0.4.7.post1",
    "0.4.8",
    "0.4.8.post1",
    "0.4.9",
    "0.4.9.post1",
    "0.4.9.post2",
    "0.4.9.post3",
    "0.4.9.post4",
    "0.4.9.post5",
    "0.4.9.post6",
    "0.4.10",
    "0.4.10.post1",
    "0.4.10.post2",
    "0.5.1",
    "0.5.1.post1",
    "0.5.1.post2",
    "0.5.1.post3",
    "0.5.2",
    "0.5.3",
    "0.5.3.post1",
    "0.5.3.post2",
    "0.5.3.post3",
    "0.5.4",
    "0.5.4.post1",
    "0.5.4.post2",
    "0.5.4.post3",
    "0.5.5",
    "0.5.5.post1",
    "0.5.5.post2",
    "0.5.5.post3",
    "0.5.6",
    "0.5.6.post1",
    "0.5.6.post2",
    "0.5.7",
    "0.5.8",
    "0.5.8.post1",
    "0.5.9",
    "0.5.10",
    "0.5.10.post1",
    "0.5.11",
    "0.5.12",
    "0.5.12.post1",
    "0.5.13",
    "0.5.13.post1",
    "0.5.14",
    "0.5.15",
    "0.5.15.post1",
    "0.5.16",
    "0.5.17",
    "0.5.18",
    "0.5.19",
    "0.5.20",
    "0.5.21",
    "0.5.22",
    "0.5.23",
)
"""Every SGLang release speclint bundles (0.4.0 to 0.5.23, 92; session 13 recorded the last
41): each has a recording, and speclint resolves it as itself (a traits entry)."""


def test_every_minor_series_is_recorded_and_resolved_as_itself():
    from speclint.sglang import release
    from speclint.sglang.flags.versions import supported_versions

    recorded = {load(p)["release"] for p in RECORDINGS}
    assert set(RECORDED) <= recorded, sorted(set(RECORDED) - recorded)
    assert set(RECORDED) == set(supported_versions()), sorted(set(supported_versions()) - set(RECORDED))
    for version in sorted(recorded):
        assert release(version).resolution_exact, version


def test_recordings_are_complete():
    """Every recording covers the whole battery on a Hopper and a Blackwell GPU, and holds
    both accepted and refused launches (a broken harness refuses everything)."""
    assert RECORDINGS
    for p in RECORDINGS:
        doc = load(p)
        launches = doc["launches"]
        assert len(launches) >= MIN_LAUNCHES, (doc["release"], len(launches))
        assert set(doc["made"]["gpus"]) >= {"H100", "B200"}
        accepted = sum(1 for x in launches if x["ok"])
        assert len(launches) // 3 < accepted < len(launches), (doc["release"], accepted)


@pytest.mark.parametrize(
    "path", RECORDINGS + SEEDED, ids=[os.path.relpath(p, DATA)[:-8] for p in RECORDINGS + SEEDED]
)
def test_speclint_agrees_with_recording(path):
    version, n, agree, compared, disagreements = check_release(path)
    print(f"\n{version}: {agree}/{n} launches agree ({compared} values compared)")
    detail = "\n".join(f"{_describe(l)}\n    " + "\n    ".join(p) for l, p in disagreements[:25])
    assert not disagreements, f"{version}: {len(disagreements)} launches differ:\n{detail}"


if __name__ == "__main__":
    wanted = set(sys.argv[1:])
    for p in RECORDINGS:
        if wanted and load(p)["release"] not in wanted:
            continue
        version, n, agree, compared, disagreements = check_release(p)
        print(f"{version}: {agree}/{n} agree ({compared} values compared), {len(disagreements)} differ")
        counts = Counter(q.split(":")[0] for _, ps in disagreements for q in ps)
        print("   ", counts.most_common(12))
        for launch, problems in disagreements[: int(os.environ.get("SHOW", "8"))]:
            print("  ", _describe(launch))
            for q in problems:
                print("      ", q)


def test_recordings_keep_every_field_speclint_resolves():
    """The recorder keeps the fields speclint models (read from `resolve/state.py`, the
    list's one address) and the GPU-dependent ones: a field added to the model is recorded
    by the next recording without a second list to update."""
    sys.path.insert(0, os.path.join(ROOT, "tools", "oracle"))
    try:
        import record
    finally:
        sys.path.pop(0)
    from speclint.sglang.resolve.state import MODELLED_FIELDS

    assert record.KEEP_FIELDS[: len(MODELLED_FIELDS)] == MODELLED_FIELDS
    assert "cuda_graph_max_bs" in record.KEEP_FIELDS and len(set(record.KEEP_FIELDS)) == len(
        record.KEEP_FIELDS
    )
