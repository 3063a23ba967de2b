"""`speclint explain`, the whole truth, for every recorded release: each field it states (its
JSON "effective", "unknown" and "adjustments", with `--gpu` and without) is a field of that
release's own `ServerArgs` (read from the wheel by tools/gen_sglang_server_fields.py), and each
value it states for an accepted launch is what the release resolved
(tests/data/oracle/<release>.json.gz, fake H100 / B200): the recorded value, or, where the
recording holds none (resolution left the field as argparse made it, post_init releases), the
release's declared default. None is never stated where SGLang set a value.

    .venv/bin/python tests/test_explain_fields.py 0.5.4.post3   # list what differs
"""

from __future__ import annotations

import os
import shlex
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from test_oracle_recordings import (  # noqa: E402
    _MISSING,
    DATA,
    RECORDED,
    _absolute,
    _relative,
    load,
    recorded_value,
)

LAUNCHES = 48
"""Launches of each recording explained (the battery's first ones: its 11 fixed launches on
both GPUs, then drawn ones); tests/test_oracle_recordings.py compares every launch's values."""


def explained(version: str, launches: list[dict], gpu: str | None) -> list[dict]:
    """`speclint explain --output-format json [--gpu GPU]`'s records for `launches`, one line
    each, in process."""
    from speclint.engine import explain_facts, lint_text
    from speclint.report.explain import explain_dict
    from speclint.settings.options import LintOptions, Selection
    from speclint.sglang.resolve.gpu_profiles import profile

    lines = []
    for launch in launches:
        env = "".join(f"{k}={shlex.quote(v)} " for k, v in (launch.get("env") or {}).items())
        lines.append(env + "python -m sglang.launch_server " + shlex.join(_absolute(launch["argv"])))
    options = LintOptions(
        sglang_version=version,
        gpu=profile(gpu) if gpu else None,
        read_pyproject=False,
        selection=Selection(select=("NONE",)),  # as `explain`: no rule runs
    )
    result = lint_text("\n".join(lines) + "\n", "launch.sh", options)
    records = [explain_dict(ctx, explain_facts(ctx)) for ctx in result.contexts]
    assert [r["line"] for r in records] == list(range(1, len(launches) + 1)), version
    return records


def _flag_given(launch: dict, field: str) -> bool:
    flag = "--" + field.replace("_", "-")
    return any(a == flag or a.startswith(flag + "=") for a in launch["argv"])


def differences(version: str, limit: int = LAUNCHES) -> list[str]:
    """What `explain` states for `version` that its ServerArgs or recording contradicts."""
    from speclint.sglang.server_fields import GRAPH_VIEWS, UNREAD, fields_of, has_field

    doc = load(os.path.join(DATA, version + ".json.gz"))
    mode, launches = doc["mode"], doc["launches"][:limit]
    declared = fields_of(version)
    assert declared, f"no ServerArgs fields read for {version}"
    problems: list[str] = []
    runs = [(None, launches)] + [(g, [x for x in launches if x["gpu"] == g]) for g in ("H100", "B200")]
    for gpu, group in runs:
        for launch, record in zip(group, explained(version, group, gpu)):
            where = f"[{gpu or 'no --gpu'} {launch['gpu']}] {shlex.join(launch['argv'])[:90]}"
            stated = set(record["effective"]) | set(record["unknown"])
            stated |= {a["field"] for a in record["adjustments"]}
            for name in sorted(n for n in stated if not has_field(version, n)):
                problems.append(f"{where}: {name} is stated; SGLang {version}'s ServerArgs has no such field")
            if not launch["ok"] or record["rejection"] is not None:
                continue
            for name, mine in record["effective"].items():
                if name in record["unknown"]:
                    continue
                theirs = recorded_value(launch, name, mode)
                if theirs is _MISSING:
                    default = declared.get(name, UNREAD)
                    if (
                        mode != "post_init"
                        or default is UNREAD
                        or name in GRAPH_VIEWS
                        or name.startswith("piecewise_cuda_graph")
                        or _flag_given(launch, name)
                    ):
                        continue
                    theirs = default
                mine = _relative(mine)
                if mine is None and theirs is not None:
                    problems.append(f"{where}: {name} stated None; SGLang sets {theirs!r}")
                elif not (mine == theirs and type(mine) is type(theirs)):
                    problems.append(f"{where}: {name} stated {mine!r}; SGLang {theirs!r}")
    return problems


@pytest.mark.parametrize("version", RECORDED)
def test_explain_states_only_the_releases_fields_and_values(version):
    problems = differences(version)
    assert not problems, f"{version}: {len(problems)} differ:\n" + "\n".join(problems[:30])


def test_fields_a_release_lacks_are_not_stated(tmp_path):
    """0.5.10 has no `grpc_worker_threads` (0.5.19+) nor `uses_mamba_radix_cache` (0.5.15+);
    0.4.0 no `cuda_graph_bs` (0.4.1.post5+), page size (0.4.4+) or prefill CUDA-graph fields."""
    from explain_runs import explain_launches

    [new] = explain_launches(tmp_path, "0.5.23", "llama-3.1-8b-instruct", gpu="h100")
    assert (
        new["effective"]["grpc_worker_threads"] == 4 and new["effective"]["uses_mamba_radix_cache"] is False
    )
    [mid] = explain_launches(tmp_path, "0.5.10", "llama-3.1-8b-instruct", gpu="h100")
    assert "grpc_worker_threads" not in mid["effective"] and "uses_mamba_radix_cache" not in mid["effective"]
    assert mid["effective"]["piecewise_cuda_graph_max_tokens"] == 8192
    [old] = explain_launches(tmp_path, "0.4.0", "llama-3.1-8b-instruct")
    for name in ("cuda_graph_bs", "page_size", "cuda_graph_backend_prefill", "cuda_graph_bs_prefill"):
        assert name not in old["effective"] and name not in old["unknown"]
    assert old["unknown"]["cuda_graph_max_bs"] == "GPU-dependent resolution is unverified for SGLang 0.4.0"


def test_a_field_the_release_never_assigns_keeps_its_default(tmp_path):
    """0.5.4.post3-0.5.6.post2 declare `speculative_moe_runner_backend: Optional[str] = None`
    and never assign it (0.5.7 makes it follow the target's runner): explain states None, no
    adjustment, as the recordings hold."""
    from explain_runs import explain_launches

    for version, value in (("0.5.5", None), ("0.5.6.post2", None), ("0.5.7", "auto")):
        [launch] = explain_launches(tmp_path, version, "llama-3.1-8b-instruct", gpu="h100")
        assert launch["effective"]["speculative_moe_runner_backend"] == value, version
        changed = [a for a in launch["adjustments"] if a["field"] == "speculative_moe_runner_backend"]
        assert bool(changed) == (value is not None), version


if __name__ == "__main__":
    for release in sys.argv[1:] or RECORDED:
        found = differences(release, int(os.environ.get("LAUNCHES", LAUNCHES)))
        print(f"{release}: {len(found)} differ")
        for line in found[: int(os.environ.get("SHOW", "10"))]:
            print("   ", line)


def test_regenerating_two_releases_reproduces_their_stored_fields():
    from pathlib import Path

    from regenerated import use_tools

    use_tools()
    from gen_sglang_schema import CACHE, wheel_path
    from gen_sglang_server_fields import read_release

    from speclint.sglang.server_fields import _FILE

    for version in ("0.4.0", "0.5.4.post3"):
        if not list(Path(CACHE).glob(f"sglang-{version}-*.whl")):
            pytest.skip(f"no wheel of {version} cached")
        row = _FILE.row(version)
        for name, reading in read_release(wheel_path(version, CACHE)):
            assert _FILE.shared(row[name]) == reading, (version, name)
