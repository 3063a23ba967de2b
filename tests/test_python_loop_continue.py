"""A `for` loop over known elements with a `continue` in its body is read pass by pass when
the file's own values decide the `if` around the `continue` (`if value is False: continue`):
that pass stops there, the others go on. A `continue` no value decides leaves the loop read
once for all passes, as before (said unknown)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file

LOOP = FixtureFile("python/argv_loop_continue.py")


def test_a_decided_continue_skips_its_pass_and_the_argv_is_read():
    launch = extract_file(str(LOOP.path), LOOP.text).launches[0]
    assert [word.text for word in launch.args] == [
        "--model-path",
        "Qwen/Qwen3-8B",
        "--tp-size",
        "2",
        "--trust-remote-code",
        "--mem-fraction-statc",
        "0.85",
    ]  # `enable-torch-compile: False` skipped by `continue`


def test_the_findings_of_the_pass_by_pass_reading_and_of_an_undecided_continue():
    found = LOOP.findings()
    assert [f[:4] for f in found] == [
        ("FLG001", 23, 23, "--{key}"),
        ("SLM004", 27, 9, '["python3", "-m", "sglang.launch_server", "--model-path", "Qwen/Qwen3-8B"]'),
    ]
    assert "did you mean `--mem-fraction-static`" in found[0][4]
    assert "`other` is assigned differently on different paths (line 27)" in found[1][4]
