"""A here-document fed to a shell that reads its script from standard input (`ssh HOST <<
'EOF'` with no remote command, `bash -s << EOF`) is read as that script: a quoted delimiter
passes the lines as written, an unquoted one expands this script's variables first, and the
remote or inner shell's environment decides the rest."""

from __future__ import annotations

from pathlib import Path

from findings_at import place

from speclint.engine import lint_text
from speclint.frontends import extract_file

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "shell" / "heredoc_scripts.sh"
TEXT = FIXTURE.read_text()
LINES = TEXT.splitlines()


def _value(launch, flag: str):
    args = launch.args
    word = args[[w.text for w in args].index(flag) + 1]
    return word.text, place(LINES, word.span), word.dynamic_reason


def test_both_nodes_are_read_from_their_here_documents():
    remote, local = extract_file(str(FIXTURE), TEXT).launches
    assert _value(remote, "--node-rank") == ("0", (11, 55, "0"), None)
    assert _value(local, "--node-rank") == ("1", (17, 54, "1"), None)
    # unquoted: this script's $MODEL and $HEAD are expanded before bash reads the lines
    assert _value(local, "--model-path") == ("deepseek-ai/DeepSeek-V3", (16, 46, "$MODEL"), None)
    assert _value(local, "--dist-init-addr") == ("node01:5000", (17, 20, "$HEAD:5000"), None)
    # `\$PORT` is left for the inner bash: this script never sets PORT, so it is whatever the
    # environment both shells get holds
    assert _value(local, "--port") == (
        None,
        (17, 63, "\\$PORT"),
        "$PORT is not assigned in this file (comes from the environment)",
    )


def test_findings_point_into_the_here_documents():
    findings = [f for f in lint_text(TEXT, str(FIXTURE)).findings if f.code != "DRF011"]
    assert [(f.code, *place(LINES, f.span)) for f in findings] == [
        ("FLG003", 10, 76, "--tp"),
        ("SPD003", 12, 27, "EAGLE"),
        ("SPD001", 13, 34, "4"),
        ("FLG003", 16, 53, "--tp"),
        ("SLM004", 17, 63, "\\$PORT"),
    ]
    assert "SGLang sets speculative_num_draft_tokens to speculative_num_steps + 1 = 2" in findings[2].message


def test_a_quoted_delimiter_keeps_variables_for_the_remote_shell():
    text = "MODEL=/m\nssh n1 <<'X'\npython -m sglang.launch_server --model-path $MODEL\nX\n"
    (launch,) = extract_file("a.sh", text).launches
    assert launch.args[1].text is None
    assert launch.args[1].dynamic_reason == "$MODEL is not set on the remote host of `ssh` (line 2)"


def test_commands_that_do_not_run_the_here_document_are_not_launches():
    # (a shell script written so, `cat > run.sh`, is read: tests/test_heredoc_written_script.py)
    for command in ("cat > run.txt", "ssh n1 cat > run.sh", "bash -c 'cat'", "bash run.sh", "tee run.txt"):
        text = f"{command} <<'X'\npython -m sglang.launch_server --model-path m\nX\n"
        assert extract_file("a.sh", text).launches == [], command
