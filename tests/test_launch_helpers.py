"""Launches made through SGLang's launch test helpers read from SGLang's source
(speclint.sglang.helpers): a PD-disaggregation test's `popen_launch_pd_server` call, and a
`PDDisaggregationServerBase` subclass whose base launches through it."""

from __future__ import annotations

from pathlib import Path

import pytest

from speclint.engine import lint_path, lint_text
from speclint.settings.options import LintOptions

ROOT = Path(__file__).resolve().parent.parent
FORMS = ROOT / "tests" / "data" / "launch_helpers"


@pytest.fixture(autouse=True)
def _no_model_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "no-cache"))


def _findings(name: str) -> dict[str, tuple[int, int, int]]:
    result = lint_path(str(FORMS / name), LintOptions())
    return {f.code: (f.span.line, f.span.column, f.span.end_column) for f in result.findings}


def test_pd_server_call_is_a_launch_whose_prefill_args_are_checked():
    found = _findings("pd_prefill_bad_value.py")
    assert "SLM005" not in found
    assert found["SPD008"] == (16, 14, 20)  # `EAGLE7` in prefill_args


def test_pd_server_call_reads_the_model_and_the_entry_of_the_helper():
    (ctx,) = lint_path(str(FORMS / "pd_prefill_bad_value.py"), LintOptions()).contexts
    assert ctx.launch.entry == "python -m sglang.launch_server"
    words = [word.text for word in ctx.launch.args]
    assert words[:2] == ["--model-path", "meta-llama/Llama-3.1-8B-Instruct"]
    assert "--disaggregation-mode" in words and "prefill" in words


def test_pd_fixture_subclass_launches_are_read_through_the_helper():
    result = lint_path(str(FORMS / "pd_fixture_subclass.py"), LintOptions())
    assert len(result.contexts) == 2  # prefill and decode
    found = {f.code: (f.span.line, f.span.column, f.span.end_column) for f in result.findings}
    assert "SLM005" not in found
    assert found["FLG001"] == (7, 27, 49)  # `--speculative-algoritm` in extra_decode_args
    assert found["SLM004"][:2] == (4, 25)  # the base's name: its run-time values are unknown


def test_popen_launch_server_runs_what_the_newest_release_builds():
    """0.5.23's test_utils.py: `command = ["sglang", "serve", "--model-path", model,
    *[str(x) for x in other_args]]` when neither pd_separated nor num_replicas is given."""
    text = (
        "from sglang.test.test_utils import popen_launch_server\n"
        "popen_launch_server('org/m', 'http://127.0.0.1:2000', 600, None, ['--tp', 2])\n"
    )
    (ctx,) = lint_text(text, "t.py").contexts
    assert ctx.launch.entry == "sglang serve"
    words = [(word.text, word.span.column) for word in ctx.launch.args]
    # `--model-path` at the model argument; 2 passes through str() as every other_args item
    assert words == [("--model-path", 21), ("org/m", 22), ("--tp", 68), ("2", 75)]


def test_popen_launch_server_with_pd_separated_is_not_read_as_sglang_serve():
    """0.5.23 builds `python3 -m sglang.launch_pd_server ...` when pd_separated is true: that
    is not the command read, so no launch is claimed (the file gets no-launch-found)."""
    call = "popen_launch_server('org/m', 'http://127.0.0.1:2000', 600, other_args=['--tp-szie', '2'], {})\n"
    head = "from sglang.test.test_utils import popen_launch_server\n"
    separated = lint_text(head + call.format("pd_separated=True"), "t.py")
    assert separated.contexts == [] and [f.code for f in separated.findings] == ["SLM005"]
    plain = lint_text(head + call.format("pd_separated=False"), "t.py")
    assert [f.code for f in plain.findings] == ["FLG001"]  # `--tp-szie`
