"""Command lines typed into a running session's shell: `screen -S NAME -X stuff 'CMD\\n'`
(screen reads `\\n`, `\\r`, `^M`, `$(printf \\\\r)` as the end of a typed line) and `tmux
send-keys -t NAME 'CMD' Enter`: each ended line is read as a command line, at its place in
the string; keys typed without a line end are not run, and a launcher in them is reported."""

from __future__ import annotations

from findings_at import findings_at

LAUNCH = "python -m sglang.launch_server --model-path /m"


def findings(text: str) -> list[tuple]:
    """(code, line, column, the text it points at, message) of each finding."""
    return findings_at(text, "serve.sh", message=True)


def test_a_line_stuffed_into_a_screen_session_is_read():
    text = f"screen -dmS sg\nscreen -S sg -X stuff '{LAUNCH} --tp-size 2x\\n'\n"
    ((code, line, column, _, message),) = findings(text)
    assert (code, line, column) == ("FLG005", 2, 81)
    assert message.startswith("`2x` is not a valid value for `--tp-size`")


def test_each_way_of_ending_the_stuffed_line_is_read():
    text = (
        f'screen -S sg -p 0 -X stuff "{LAUNCH} --port 1x^M"\n'
        f'screen -d -r sg -X stuff "cd /srv && {LAUNCH} --port 2x$(printf \\\\r)"\n'
        f"screen -x sg -X stuff $'{LAUNCH} --port 3x\\n'\n"
    )
    got = findings(text)
    assert [(c, line, col) for c, line, col, _, _ in got] == [
        ("FLG005", 1, 83),
        ("FLG005", 2, 92),
        ("FLG005", 3, 23),
    ]
    assert [m.split(" is not")[0] for *_, m in got] == ["`1x`", "`2x`", "`3x`"]


def test_the_scripts_variable_in_double_quotes_is_expanded_before_screen_gets_it():
    text = f'PORT=3000x\nscreen -S sg -X stuff "{LAUNCH} --port $PORT\\n"\n'
    ((code, line, column, _, message),) = findings(text)
    assert (code, line, column) == ("FLG005", 2, 78)
    assert message.startswith("`3000x` is not a valid value for `--port`")


def test_a_stuffed_launch_without_a_line_end_is_reported_beside_a_launch():
    text = f"{LAUNCH}\nscreen -S sg -X stuff '{LAUNCH} --port 1x'\n"
    ((code, line, column, _, message),) = findings(text)
    assert (code, line, column) == ("SLM005", 2, 23)
    assert message == (
        "speclint did not read this command, typed into a `screen` session by `stuff`, which holds "
        "`python -m sglang.launch_server`: speclint reads the lines that `stuff` ends (`\\n`, `\\r`, "
        "`^M`), so nothing in this launch was checked"
    )


def test_tmux_reads_each_string_of_keys_ended_by_enter_and_reports_one_not_ended():
    text = (
        f'tmux send-keys -t t "cd /srv" Enter "{LAUNCH} --port 1x" C-m\n'
        f"tmux send-keys -t t '{LAUNCH} --port 2'\n"
    )
    got = findings(text)
    assert [(c, line, col) for c, line, col, _, _ in got] == [("FLG005", 1, 92), ("SLM005", 2, 21)]
    assert got[1][4].startswith("speclint did not read this command, typed into a tmux pane by `send-keys`")
