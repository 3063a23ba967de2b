"""SGLang's benchmark helpers that launch the server through `popen_launch_server`
(`run_bench_serving(model, ..., other_server_args)`, `run_bench_serving_multi`, ...), as
tools/gen_sglang_helpers.py reads them from each release's sglang/test/test_utils.py
(`forwards`, `passes`): a call is read with the flags it passes on; one whose launch depends
on what the helper computes itself is said not read (fixtures/python/forms26)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.sglang.helpers import newest_forwarding, newest_helper, reading


def test_each_bench_helper_call_is_read_or_said_not_read() -> None:
    found = [f[:4] for f in FixtureFile("python/forms26/p02_bench_helpers.py").findings()]
    assert found == [
        ("FLG005", 19, 81, "8k"),
        ("FLG005", 22, 108, "x"),
        ("SLM005", 25, 9, "run_bench_serving_multi"),  # pd_separated=True: another command
        ("SLM005", 28, 9, "run_embeddings_benchmark_multi"),  # other_args built in the helper
        ("SLM005", 31, 9, "run_bench_one_batch_server"),  # env built in the helper
    ]


def test_what_the_helper_computes_is_named_in_the_message() -> None:
    messages = [f[4] for f in FixtureFile("python/forms26/p02_bench_helpers.py").findings()]
    assert "passes `pd_separated` another value than `False`" in messages[2]
    assert (
        "with `popen_launch_server(..., other_args=...)` whose `other_args` `run_embeddings_" in messages[3]
    )
    assert "whose `env` `run_bench_one_batch_server` computes itself (SGLang 0.5.23's" in messages[4]


def test_the_forwarding_helpers_are_recorded_from_test_utils() -> None:
    serving = newest_forwarding("run_bench_serving")
    assert serving is not None and serving.forwards == "popen_launch_server"
    passes = dict(serving.passes)
    assert (passes["model"], passes["other_args"], passes["base_url"]) == ("model", "other_server_args", None)
    assert serving.position("other_server_args") == 3
    assert dict(newest_forwarding("run_embeddings_benchmark_multi").passes)["other_args"] is None  # type: ignore[union-attr]
    # a launch helper is not a forwarding one, and a forwarding one is no launch helper
    assert newest_forwarding("popen_launch_server") is None and newest_helper("run_bench_serving") is None
    assert reading(serving.release, "run_bench_serving") is None


def test_a_launch_helper_call_building_another_command_is_said_not_read() -> None:
    from speclint.engine import lint_text

    text = (
        "from sglang.test.test_utils import popen_launch_server\n"
        'popen_launch_server("m", "http://127.0.0.1:2157", other_args=["--tp-size", "2x"])\n'
        'popen_launch_server("m", "http://127.0.0.1:2157", other_args=["--tp-size", "3x"], pd_separated=True)\n'
    )
    found = [(f.code, f.span.line) for f in lint_text(text, "test_x.py").findings]
    assert found == [("FLG005", 2), ("SLM005", 3)]  # (line 3: before, passed over in silence)
