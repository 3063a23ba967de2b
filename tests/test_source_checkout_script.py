"""`python python/sglang/launch_server.py ...`: SGLang's own server file run by its path, as
issue reports from a source checkout write it (and `python3 sglang/launch_server.py` from the
checkout's `python/` folder, `.../site-packages/sglang/launch_server.py`). The file ends in an
`if __name__ == "__main__":` block in every release, so it is read as `python -m
sglang.launch_server` (it was no launch at all: "All checks passed: 0 launches"). A file that
only shares the name (`tools/sglang/launch_server.py`) is not SGLang's and stays unread."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file
from speclint.frontends.recognise import DEFAULT_ENTRY, script_entry

ISSUE = FixtureFile("markdown/issue_source_checkout_script.md")


def test_the_server_file_run_by_its_path_is_a_launch():
    launches = extract_file(str(ISSUE.path), ISSUE.text).launches
    assert [launch.span.line for launch in launches] == [10, 16, 24]
    assert {launch.entry for launch in launches} == {DEFAULT_ENTRY}
    texts = [word.text for word in launches[1].args]
    assert texts[texts.index("--node-rank") + 1] == "1"


def test_its_flags_are_checked_where_written():
    found = ISSUE.findings()
    (choice,) = [f for f in found if f[0] == "FLG006"]
    assert choice[1:4] == (10, 195, "low-latency")
    assert "`low-latency` is not a valid value for `--deepep-mode`" in choice[4]
    assert sorted({f[1] for f in found}) == [10, 16, 24]  # nothing on the wrapper of line 21


def test_which_paths_are_sglangs_file():
    assert script_entry("/sgl-workspace/sglang/python/sglang/launch_server.py") == DEFAULT_ENTRY
    assert script_entry("./sglang/launch_server.py") == DEFAULT_ENTRY
    assert script_entry("/usr/lib/python3.12/site-packages/sglang/launch_server.py") == DEFAULT_ENTRY
    assert script_entry("tools/sglang/launch_server.py") is None
    assert script_entry("launch_server.py") is None
    assert script_entry("python/sglang/bench_serving.py") is None


def test_an_inline_code_span_running_the_file_is_read():
    found = [f for f in ISSUE.findings() if f[1] == 24]
    assert [f[:4] for f in found] == [("FLG005", 24, 105, "two")]
    assert "`two` is not a valid value for `--tp-size`" in found[0][4]
