"""GNU parallel and xargs run a command template once per input value: each value speclint
knows (after `:::`, or printed by `seq`/`printf`/`echo` in front of the pipe) gives one
alternative of the launch, its findings at the replacement string with a note naming the
value; an input it cannot know leaves the replaced word unknown, saying why (SLM004)."""

from __future__ import annotations

from speclint.engine import lint_text

SERVE = "python -m sglang.launch_server --model-path /m"


def findings(text: str) -> list[tuple[str, int, int, str, list[str]]]:
    return [
        (f.code, f.span.line, f.span.column, f.message, [n.message for n in f.notes])
        for f in lint_text(text, "run.sh").findings
    ]


def test_parallel_reads_a_launch_per_value_after_the_separator():
    text = f"parallel -j8 {SERVE} --port {{}} ::: 30000 3000x\n"
    ((code, line, column, message, notes),) = findings(text)
    assert (code, line, column) == ("FLG005", 1, text.index("{}") + 1)
    assert message.startswith("`3000x` is not a valid value for `--port`")
    assert notes == ["when `{}` is 3000x (an input of `parallel` at line 1)"]


def test_xargs_reads_a_launch_per_line_seq_prints():
    text = f"seq 0 7 | xargs -P8 -I{{}} {SERVE} --base-gpu-id {{}} --port 300{{}}x\n"
    got = findings(text)
    assert [(c, line, col) for c, line, col, _, _ in got] == [("FLG005", 1, text.index("300{}x") + 1)] * 8
    assert got[0][3].startswith("`3000x` is not a valid value for `--port`")
    assert got[7][4] == ["when `{}` is 7 (an input of `xargs` at line 1)"]


def test_a_finding_every_value_has_is_reported_once_without_a_note():
    text = f"printf '%s\\n' 0 1 | xargs -I % sh -c 'CUDA_VISIBLE_DEVICES=% {SERVE} --tp-size 2x'\n"
    ((code, line, column, message, notes),) = findings(text)
    assert (code, line, column, notes) == ("FLG005", 1, text.index("2x") + 1, [])
    assert message.startswith("`2x` is not a valid value for `--tp-size`")


def test_parallel_runs_a_quoted_command_string_with_numbered_groups():
    text = f'parallel "{SERVE} --dp-size {{1}} --tp-size {{2}}" ::: 1 2 ::: 2 4x\n'
    ((code, line, column, message, notes),) = findings(text)
    assert (code, line, column) == ("FLG005", 1, text.index("{2}") + 1)
    assert message.startswith("`4x` is not a valid value for `--tp-size`")
    assert notes == [
        "when the inputs are 1 4x (an input of `parallel` at line 1)",
        "when the inputs are 2 4x (an input of `parallel` at line 1)",
    ]


def test_values_appended_without_a_replacement_string_are_read_at_their_place():
    text = f"printf '%s\\n' 2 4x | xargs -n1 {SERVE} --tp-size\n"
    ((code, line, column, message, notes),) = findings(text)
    assert (code, line, column) == ("FLG005", 1, text.index("4x") + 1)
    assert message.startswith("`4x` is not a valid value for `--tp-size`")


def test_an_input_speclint_cannot_know_is_said_so():
    text = f"ls /models | xargs -I{{}} {SERVE} --port {{}}\n"
    got = findings(text)
    assert [(c, line, col) for c, line, col, _, _ in got] == [("SLM004", 1, text.rindex("{}") + 1)]
    assert "a line `xargs` reads from its standard input (line 1)" in got[0][3]
    text = f"parallel {SERVE} --port {{}} :::: ports.txt\n"
    got = findings(text)
    assert [(c, line, col) for c, line, col, _, _ in got] == [("SLM004", 1, text.index("{}") + 1)]
    assert "a line `parallel` reads from the file `ports.txt` (line 1)" in got[0][3]


def test_no_longer_reported_as_not_read():
    got = findings(f"seq 0 1 | xargs -I{{}} {SERVE} --base-gpu-id {{}}\n")
    assert got == []
