"""A launch inside a shell function is read once per call, with the call's words in place of
`$1`, `"$@"`, `${@:2}` ... (after `shift`, `local x=$1`, `set --`), as bash runs it; a finding
points at the call's word when the word came from the call. What cannot be followed (an
option loop, `getopts`, an unknown number of words) stays reported as partly read."""

from __future__ import annotations

from pathlib import Path

from findings_at import findings_at

from speclint.core.launches import Launch
from speclint.core.spans import Span
from speclint.engine import lint_path, lint_text
from speclint.frontends.shell.script import extract_shell
from speclint.rules import default_selection
from speclint.settings.options import LintOptions, Selection

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "shell" / "function_calls.sh"
LAUNCH = "python -m sglang.launch_server"
DEFAULT = LintOptions(selection=Selection(select=default_selection()))
"""The rules a plain `speclint FILE` runs."""


def _found(text: str) -> list[tuple]:
    """(code, line, column, the text it points at, message) of each finding a plain run gives."""
    return findings_at(text, "run.sh", DEFAULT, message=True)


def _args(launch: Launch) -> list[str | None]:
    return [w.text for w in launch.args]


def _when(launch: Launch) -> str:
    assert launch.alternative is not None
    return launch.alternative.description


def test_the_seed_story_in_a_function_is_reported_at_the_calls_word():
    text = (
        "serve() {\n"
        f'  {LAUNCH} --model-path "$1" "${{@:2}}"\n'
        "}\n"
        "serve meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE "
        "--speculative-draft-model-path lmsys/sglang-EAGLE-LLaMA3-Instruct-8B --speculative-eagle-topk 1 "
        "--speculative-num-steps 1 --speculative-num-draft-tokens 16 --max-running-requests 8\n"
    )
    found = _found(text)
    column = text.split("\n")[3].index(" 16 ") + 2
    assert [(code, line, col, at) for code, line, col, at, _ in found] == [("SPD001", 4, column, "16")]
    assert found[0][4].startswith(
        "`--speculative-num-draft-tokens 16` is ignored: with `--speculative-eagle-topk 1`"
    )


def test_the_fixture_findings_point_at_the_body_or_the_call():
    result = lint_path(str(FIXTURE), DEFAULT)
    found = [(f.code, f.span.line, f.span.column, [n.message for n in f.notes]) for f in result.findings]
    assert found == [
        ("PAR003", 14, 57, []),  # written in run_server's body, both calls have it: once, no note
        # a default in the body that a caller's argument overrides: said as an info, no fix
        ("FLG007", 14, 79, ["the caller's value wins", "when run_server() is called at line 37"]),
        (
            "SPD001",
            34,
            89,
            ["topk 1 makes the draft a chain", "with 1 step(s) SGLang drafts 2 tokens"],
        ),
        ("DRF012", 39, 29, ["the drafter: its name says EAGLE-3 (`eagle3`)"]),
    ]
    flg007 = result.findings[1]
    assert flg007.message.startswith(
        "`--mem-fraction-static 0.85` is overridden by the caller's `--mem-fraction-static 0.9`"
    )
    assert flg007.severity.label == "info"
    assert flg007.notes[1].span.line == 37 and flg007.fix is None  # the body is shared
    assert not any(f.code == "SLM004" for f in result.findings)


def test_each_call_is_an_alternative_of_the_body_launch():
    launches = extract_shell(FIXTURE.read_text(), str(FIXTURE)).launches
    run_server = [launch for launch in launches if launch.span.line == 14]
    assert [_args(launch) for launch in run_server] == [
        ["--model-path", "/models/llama-8b", "--enable-dp-attention", "--mem-fraction-static", "0.85"]
        + ["--tp", "2", "--port", "30000"],
        ["--model-path", "/models/llama-70b", "--enable-dp-attention", "--mem-fraction-static", "0.85"]
        + ["--tp", "8", "--port", "30001", "--mem-fraction-static", "0.9"],
    ]
    assert [_when(launch) for launch in run_server] == [
        "run_server() is called at line 36",
        "run_server() is called at line 37",
    ]
    model = run_server[0].args[1]  # `local model=$1` then `"$model"`: the call's word
    assert model.span == Span(36, 14, 36, 30)
    labeled = next(launch for launch in launches if launch.span.line == 20)
    assert labeled.env["CUDA_VISIBLE_DEVICES"].text == "0,1"
    assert labeled.env["CUDA_VISIBLE_DEVICES"].span == Span(38, 30, 38, 33)  # the call's `0,1`
    assert labeled.alternative is None  # one call: one launch
    retried = next(launch for launch in launches if launch.span.line == 27)  # `"$@"` of retry()
    assert _args(retried) == ["--model-path", "/models/qwen", "--tp-size", "1", "--port", "30003"]
    assert retried.args[0].span.line == 41


def test_a_function_called_nowhere_keeps_its_own_reading():
    text = f'serve() {{\n  {LAUNCH} --model-path "$1" --tp 2\n}}\n'
    ((code, line, column, _, message),) = _found(text)
    assert (code, line, column) == ("SLM004", 2, 47)
    assert "the value of `--model-path` (argument of function serve())" in message


def test_an_option_loop_and_getopts_stay_partly_read():
    loop = (
        "start() {\n"
        "  while [[ $# -gt 0 ]]; do\n"
        '    case "$1" in\n'
        '      --tp) TP="$2"; shift 2 ;;\n'
        "      *) shift ;;\n"
        "    esac\n"
        "  done\n"
        f'  {LAUNCH} --model-path /m --tp "$TP"\n'
        "}\n"
        "start --tp 2\n"
    )
    ((code, line, column, _, message),) = _found(loop)
    assert (code, line, column) == ("SLM004", 8, 55)
    assert "the value of `--tp` ($TP is assigned only on some paths (line 2))" in message
    getopts = (
        "start() {\n"
        '  while getopts "m:" opt; do case $opt in m) MODEL=$OPTARG ;; esac; done\n'
        "  shift $((OPTIND - 1))\n"
        f'  {LAUNCH} --model-path "$MODEL" "$@"\n'
        "}\n"
        "start -m /m --tp 2\n"
    )
    ((code, line, column, _, message),) = _found(getopts)
    assert (code, line, column) == ("SLM004", 4, 47)
    assert (
        "a word that may hold any flags (argument of function start(), after the `shift` at line 3)"
        in message
    )


def test_words_split_and_default_as_bash_does():
    text = (
        "serve() {\n"
        '  set -- --model-path "$1" "${@:2}"\n'
        f'  {LAUNCH} "$@" --port "${{PORT_ARG:-${{3:-30000}}}}" $4 --nnodes "$#"\n'
        "}\n"
        'serve /m "" "" "--tp 2"\n'
    )
    (launch,) = extract_shell(text, "run.sh").launches
    # $# is 5 after `set --`: --model-path, /m, "", "", "--tp 2"
    assert _args(launch) == ["--model-path", "/m", "", "", "--tp 2", "--port", "30000", "--nnodes", "5"]
    text = f'serve() {{ {LAUNCH} --model-path /m $1 "$@"; }}\nserve "--tp 2"\nserve\n'
    first, second = extract_shell(text, "run.sh").launches
    assert _args(first) == ["--model-path", "/m", "--tp", "2", "--tp 2"]
    assert _args(second) == ["--model-path", "/m"]  # no word for an empty "$@"


def test_an_empty_array_quoted_is_no_word():
    text = f'A=()\n{LAUNCH} --model-path /m "${{A[@]}}" --tp 1\n'
    (launch,) = extract_shell(text, "run.sh").launches
    assert _args(launch) == ["--model-path", "/m", "--tp", "1"]


def test_a_call_argument_chosen_by_a_branch_is_one_alternative_per_arm():
    text = (
        "serve() {\n"
        f'  {LAUNCH} --model-path m --speculative-algorithm EAGLE --speculative-draft-model-path "$1"'
        " --max-running-requests 4\n"
        "}\n"
        'if [ "$V3" = 1 ]; then D=org/llama-eagle3; else D=org/llama-eagle; fi\n'
        'serve "$D"\n'
    )
    ((code, line, column, message),) = [
        (f.code, f.span.line, f.span.column, [n.message for n in f.notes])
        for f in lint_text(text, "run.sh", DEFAULT).findings
    ]
    assert (code, line, column) == ("DRF012", 2, 73)
    assert message[-1] == "when the `then` branch at line 4 runs"


def test_a_test_on_an_argument_is_decided_per_call():
    text = (
        "serve() {\n"
        '  if [ "$1" = eagle ]; then\n'
        f"    {LAUNCH} --model-path m --speculative-algorithm EAGLE\n"
        "  else\n"
        f"    {LAUNCH} --model-path m --tp 2\n"
        "  fi\n"
        "}\n"
        "serve plain\n"
    )
    (launch,) = extract_shell(text, "run.sh").launches
    assert launch.span.line == 5 and launch.alternative is None


def test_calls_are_bounded_and_recursion_stops():
    calls = "".join(f"serve /m{i}\n" for i in range(20))
    text = f'serve() {{ {LAUNCH} --model-path "$1"; serve "$1"; }}\n' + calls
    launches = extract_shell(text, "run.sh").launches
    assert len(launches) == 17  # 16 calls read with their words, then one with unknown words
    assert launches[-1].args[1].dynamic_reason == (
        "argument of function serve() (speclint reads the first 16 calls of it with their words)"
    )
    assert {launch.alternative.count if launch.alternative else 0 for launch in launches} == {17}


def test_a_prefix_assignment_of_the_call_is_in_the_launch_environment():
    text = f'serve() {{ {LAUNCH} --model-path "$1" --tp 2; }}\nCUDA_VISIBLE_DEVICES=0 serve /m\n'
    ((code, line, column, _, message),) = _found(text)
    assert (code, line, column) == ("PAR001", 2, 22)
    assert message.startswith("CUDA_VISIBLE_DEVICES=0 leaves 1 GPU visible (indices 0-0), but tp 2")


def test_a_function_called_only_by_an_uncalled_one_is_read_with_that_calls_words():
    text = (
        f'inner() {{ {LAUNCH} --model-path "$1" --tp 2; }}\n'  # defined first, read second
        "outer() { inner /models/llama; }\n"
    )
    (launch,) = extract_shell(text, "run.sh").launches
    assert _args(launch) == ["--model-path", "/models/llama", "--tp", "2"]
    assert launch.args[1].span == Span(2, 17, 2, 30)
    assert _found(text) == []


def test_a_call_in_a_loop_over_known_words_is_read_per_word():
    text = (
        "serve() {\n"
        f"  {LAUNCH} --model-path /m --speculative-algorithm EAGLE --speculative-draft-model-path /d"
        ' --speculative-eagle-topk "$1" --speculative-num-steps 3 --speculative-num-draft-tokens 8'
        " --max-running-requests 4\n"
        "}\n"
        'for topk in 1 4; do serve "$topk"; done\n'
    )
    ((code, line, column, notes),) = [
        (f.code, f.span.line, f.span.column, [n.message for n in f.notes])
        for f in lint_text(text, "run.sh", DEFAULT).findings
    ]
    assert (code, line, column) == ("SPD001", 2, 201)
    assert notes[-1] == "when $topk is 1 (the loop at line 4)"


def test_a_loop_over_the_arguments_is_read_per_argument():
    text = (
        "serve_all() {\n"
        "  for model; do\n"
        f'    {LAUNCH} --model-path "$model" --speculative-algorithm EAGLE --max-running-requests 4\n'
        "  done\n"
        "}\n"
        "serve_all org/llama-eagle3 org/qwen\n"
    )
    launches = extract_shell(text, "run.sh").launches
    assert [launch.args[1].text for launch in launches] == ["org/llama-eagle3", "org/qwen"]
    assert [launch.args[1].origin for launch in launches] == [Span(6, 11, 6, 27), Span(6, 28, 6, 36)]
