"""`for i in range(2):` over a launch (a PD launcher's prefill and decode workers): the loop
is read once per number, `BASE_PORT + i` worked out, and a conditional expression the pass
decides (`"prefill" if i == 0 else "decod"`) takes its arm; `enumerate([...])` gives each
pass its index and element. Before, `i` was "a loop variable",
the port "computed when the program runs", the role "depends on a condition": one launch,
partly read, and the misspelt role of the decode worker was not found."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file

LAUNCHER = FixtureFile("python/pd_workers_loop.py")


def test_one_launch_per_pass_with_its_values():
    launches = extract_file(str(LAUNCHER.path), LAUNCHER.text).launches
    assert [[word.text for word in launch.args][2:] for launch in launches] == [
        ["--port", "30000", "--base-gpu-id", "0", "--disaggregation-mode", "prefill"],
        ["--port", "30001", "--base-gpu-id", "1", "--disaggregation-mode", "decod"],
        # `for i, role in enumerate([...])`: the index and the element of each pass
        ["--port", "30010", "--base-gpu-id", "2", "--disaggregation-mode", "prefill"],
        ["--port", "30011", "--base-gpu-id", "3", "--disaggregation-mode", "decode"],
    ]


def test_the_decode_workers_role_is_checked():
    (choice,) = LAUNCHER.findings()
    assert choice[:4] == ("FLG006", 20, 72, "decod")
    assert "`decod` is not a valid value for `--disaggregation-mode`" in choice[4]
