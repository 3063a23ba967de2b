"""Launch commands from older SGLang docs, checked against 0.5.23 (issue #9): each retired
flag or abbreviation is named with the release that last accepted it and what replaces it,
once per token, with a fix where exactly one replacement is certain."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from unmodelled import unmodelled

from speclint.cli import main
from speclint.engine import lint_path, lint_text
from speclint.settings.options import LintOptions

ROOT = Path(__file__).resolve().parent.parent
SHELL = ROOT / "fixtures" / "shell"


@pytest.fixture(autouse=True)
def _in_repo_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def _findings(name: str, version: str = "0.5.23"):
    result = lint_path(str(SHELL / name), LintOptions(sglang_version=version))
    return [f for f in result.findings if f.code[:3] in ("VER", "FLG")]


def _by_place(findings):
    return {(f.code, f.span.line, f.span.column): f for f in findings}


def test_old_cuda_graph_flags():
    found = _by_place(_findings("old_docs_cuda_graph.sh"))
    max_bs = found[("FLG002", 4, 3)]
    assert max_bs.message == (
        "`--cuda-graph-max-bs` is ambiguous in SGLang 0.5.23: it could match "
        "`--cuda-graph-max-bs-decode`, `--cuda-graph-max-bs-prefill`; argparse stops the launch "
        "with 'ambiguous option'. SGLang accepted it up to 0.5.19; it was split into "
        "`--cuda-graph-max-bs-decode` and `--cuda-graph-max-bs-prefill` in 0.5.14 and read as a "
        "deprecated alias of `--cuda-graph-max-bs-decode` until 0.5.19; write "
        "`--cuda-graph-max-bs-decode`"
    )
    assert (max_bs.fix.replacement, max_bs.fix.expected) == (
        "--cuda-graph-max-bs-decode",
        "--cuda-graph-max-bs",
    )
    assert (max_bs.fix.span.column, max_bs.fix.span.end_column) == (3, 22)
    assert found[("FLG002", 4, 27)].fix.replacement == "--cuda-graph-bs-decode"
    stream = found[("VER001", 5, 3)]
    assert stream.message == (
        "`--stream-output` was last accepted by SGLang 0.5.19; 0.5.23 stops the launch with "
        "'unrecognized arguments': it was replaced by `--incremental-streaming-output` "
        "(deprecated since 0.5.10)"
    )
    assert stream.fix.replacement == "--incremental-streaming-output"
    piecewise = found[("VER001", 5, 19)]
    assert "replaced by `--cuda-graph-backend-prefill disabled`" in piecewise.message
    assert piecewise.fix.replacement == "--cuda-graph-backend-prefill disabled"
    ep = found[("VER001", 6, 3)]
    assert ep.message.startswith("`--enable-ep-moe` was last accepted by SGLang 0.5.4; ")
    assert "set `--ep-size` to the same value as `--tp-size`" in ep.message
    assert ep.fix is None  # SGLang did not carry the value over: a person decides
    assert not any(f.code == "FLG009" for f in found.values())


def test_old_speculative_launch():
    found = _by_place(_findings("old_docs_speculative.sh"))
    draft = found[("FLG002", 4, 28)]
    assert draft.message.endswith(
        "It meant `--speculative-draft-model-path` up to SGLang 0.5.1.post3; write "
        "`--speculative-draft-model-path`"
    )
    assert draft.fix.replacement == "--speculative-draft-model-path"
    assert found[("FLG002", 6, 22)].fix.replacement == "--cuda-graph-max-bs-decode"
    # the full speculative names existed since 0.4.1.post4: nothing to report
    assert not [f for f in found.values() if f.span.line == 5]


def test_one_finding_per_token():
    for name in ("old_docs_cuda_graph.sh", "old_docs_speculative.sh", "old_docs_docker_image.sh"):
        spans = [
            (f.span.line, f.span.column)
            for f in _findings(name)
            if f.code in ("VER001", "FLG002", "FLG009", "FLG001")
        ]
        assert len(spans) == len(set(spans)), name


def test_image_older_than_target():
    found = _by_place(_findings("old_docs_docker_image.sh"))
    ngram = found[("VER001", 6, 3)]
    assert ngram.message == (
        "`--speculative-ngram-max-match-window-size` was last accepted by SGLang 0.5.9; 0.5.23 "
        "stops the launch with 'unrecognized arguments': it was removed with no replacement flag"
    )
    assert ngram.fix is None
    defaults = found[("VER002", 3, 1)]
    assert defaults.message.startswith(
        "defaults of flags this launch leaves unset changed between SGLang 0.5.6.post2 (the "
        "image) and 0.5.23: "
    )
    assert "`--load-balance-method` 'round_robin' → 'auto' (0.5.8)" in defaults.message
    # checked against the image's own release: nothing is retired
    assert not [f for f in _findings("old_docs_docker_image.sh", "0.5.6.post2") if f.code.startswith("VER")]


def test_flag_only_in_newer_releases_stays_flg009():
    result = lint_text(
        "python -m sglang.launch_server --model-path m --speculative-adaptive\n",
        "x.sh",
        LintOptions(sglang_version="0.5.6.post2"),
    )
    codes = [f.code for f in result.findings]
    assert "FLG009" in codes and "VER001" not in codes
    message = next(f.message for f in result.findings if f.code == "FLG009")
    assert "does not exist yet in SGLang 0.5.6.post2 (it exists in 0.5.11 and later)" in message


def test_unmodelled_release_lints_and_explains():
    script = "python -m sglang.launch_server --model-path m --cuda-graph-max-bs 8\n"
    with unmodelled("0.5.6.post1"):  # as if neither read nor recorded: it follows 0.5.6
        result = lint_text(script, "x.sh", LintOptions(sglang_version="0.5.6.post1"))
        assert [f.code for f in result.findings if f.code.startswith(("FLG", "VER"))] == []
        out = CliRunner().invoke(main, ["explain", "--sglang-version", "0.5.6.post1", "-"], input=script)
    assert out.exit_code == 0, out.output
    assert (
        "resolution modelled on SGLang 0.5.6, the closest older release whose resolution "
        "speclint read or recorded" in out.output
    )


SPECULATIVE = (
    "python -m sglang.launch_server --model-path fixtures/models/qwen3-8b \\\n"
    "  --speculative-algorithm EAGLE3 \\\n"
    "  --speculative-draft-model-path fixtures/models/eagle3-llama-3.1-8b-instruct\n"
)


def test_explain_compare_text():
    out = CliRunner().invoke(
        main, ["explain", "--sglang-version", "0.5.6.post2", "--compare", "0.5.23", "-"], input=SPECULATIVE
    )
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[1:3] == ["  SGLang 0.5.6.post2 (from --sglang-version)", "  SGLang 0.5.23 (from --compare)"]
    rows = {line.split()[0]: line.split()[1:] for line in lines[4:] if line.startswith("    ")}
    assert rows["speculative_num_steps"] == ["5", "3"]
    assert rows["speculative_eagle_topk"] == ["4", "1"]
    assert rows["speculative_num_draft_tokens"] == ["8", "4"]
    assert rows["disable_overlap_schedule"] == ["True", "False"]
    assert "max_running_requests" not in rows  # 48 in both
    assert rows["speculative_ngram_max_match_window_size"] == ["12", "(no", "such", "setting)"]


def test_explain_compare_json():
    out = CliRunner().invoke(
        main,
        ["explain", "--output-format", "json", "--sglang-version", "0.5.6.post2", "--compare", "0.5.23", "-"],
        input=SPECULATIVE,
    )
    data = json.loads(out.output)
    assert data[0]["versions"] == ["0.5.6.post2", "0.5.23"]
    diffs = {d["field"]: d["values"] for d in data[0]["differences"]}
    assert diffs["speculative_num_steps"] == [5, 3]
    assert diffs["speculative_eagle_topk"] == [4, 1]
