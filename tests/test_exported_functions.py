"""A function that `export -f` passes to an inner bash (`bash -c 'serve 8'`, `bash -c "serve
$N"`, `nohup bash -c "..." &`, `bash << EOF`) is read with the call's words where the inner
shell calls it, as `eval "serve 8"` reads one of the same shell; a function not exported, or
called by a shell that does not import bash's exported functions (`sh -c`), keeps its own
reading with its arguments unknown."""

from __future__ import annotations

from speclint.engine import lint_text

SERVE = 'serve() {\n  python -m sglang.launch_server --model-path /m --tp-size "$1"\n}\n'


def findings(text: str) -> list[tuple[str, int, int, str, list[str]]]:
    return [
        (f.code, f.span.line, f.span.column, f.message, [n.message for n in f.notes])
        for f in lint_text(text, "serve.sh").findings
    ]


def test_each_inner_bash_call_of_an_exported_function_is_read_with_its_words():
    text = (
        SERVE
        + "export -f serve\nN=3y\nbash -c 'serve 8x'\nnohup bash -c \"cd /srv && serve $N\" > log 2>&1 &\n"
    )
    got = findings(text)
    assert [(c, line, col) for c, line, col, _, _ in got] == [("FLG005", 6, 16), ("FLG005", 7, 33)]
    assert got[0][3].startswith("`8x` is not a valid value for `--tp-size`")
    assert got[0][4] == ["when serve() is called at line 6"]
    assert got[1][3].startswith("`3y` is not a valid value for `--tp-size`")


def test_declare_fx_and_a_bash_here_document_script_pass_the_function_too():
    text = SERVE + "declare -fx serve\nbash <<'EOF'\nserve 2x\nEOF\n"
    ((code, line, column, message, _),) = findings(text)
    assert (code, line, column) == ("FLG005", 6, 7)
    assert message.startswith("`2x` is not a valid value for `--tp-size`")


def test_eval_calls_a_function_of_the_same_shell():
    text = SERVE + 'eval "serve 5x"\n'
    ((code, line, column, message, _),) = findings(text)
    assert (code, line, column) == ("FLG005", 4, 13)
    assert message.startswith("`5x` is not a valid value for `--tp-size`")


def test_a_function_not_exported_or_called_by_sh_keeps_its_arguments_unknown():
    for text in (SERVE + "bash -c 'serve 8'\n", SERVE + "export -f serve\nsh -c 'serve 8'\n"):
        ((code, line, column, message, _),) = findings(text)
        assert (code, line, column) == ("SLM004", 2, 60)
        assert "(argument of function serve())" in message
