"""`ssh HOST bash -s << EOF`: ssh runs the remote command with its standard input, the
here-document, and `bash -s` reads its script from there: read as that script, on the remote
host (none of this script's variables there). Before: no launch found (SLM005 at the
launcher). `ssh -n` feeds the remote command /dev/null: still not read."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file

SSH = FixtureFile("shell/ssh_remote_shell_heredoc.sh")


def test_a_remote_shell_reading_stdin_runs_the_here_document() -> None:
    findings = [f for f in SSH.findings() if f[0] not in ("FLG003", "DRF011")]
    assert [f[:4] for f in findings] == [
        ("SLM004", 10, 55, "$RANK"),
        ("FLG001", 10, 75, "--tp-szie"),
        ("SLM005", 14, 1, "python3 -m sglang.launch_server"),
    ]
    assert "the value of `--port` ($PORT is not set on the remote host of `ssh` (line 7)" in findings[0][4]
    assert "is not an SGLang 0.5.23 flag" in findings[1][4]
    assert findings[2][4].startswith("speclint did not read this here-document, given to `ssh`")
    (launch,) = extract_file(str(SSH.path), SSH.text).launches
    model = launch.args[[w.text for w in launch.args].index("--model-path") + 1]
    assert SSH.at(model.span) == (9, 52, "Qwen/Qwen3-235B-A22B")
