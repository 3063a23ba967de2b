"""Shell front-end: argv, positions, environment, images, dynamic words and diagnostics."""

from __future__ import annotations

import glob
import os
from pathlib import Path

import pytest

from speclint.core.launches import Launch
from speclint.core.spans import Span
from speclint.core.words import Word
from speclint.engine import lint_text
from speclint.frontends import extract_file, file_kind, is_lintable_path
from speclint.frontends.shell.script import extract_shell

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "shell"
LAUNCH_SERVER = "python -m sglang.launch_server"


def extract(name: str):
    path = FIXTURES / name
    return extract_file(str(path), path.read_text())


def written(name: str, span: Span) -> str:
    """The file text a single-line span covers (checks spans against the file itself)."""
    line = (FIXTURES / name).read_text().split("\n")[span.line - 1]
    assert span.line == span.end_line
    return line[span.column - 1 : span.end_column - 1]


def texts(launch: Launch) -> list[str | None]:
    return [word.text for word in launch.args]


def word_after(launch: Launch, flag: str) -> Word:
    position = texts(launch).index(flag)
    return launch.args[position + 1]


def where(word: Word) -> tuple[int, int, int]:
    return (word.span.line, word.span.column, word.span.end_column)


# ---- the two seed stories ------------------------------------------------------------------


def test_kimi_eagle_seed_launch():
    result = extract("kimi_eagle_launch.sh")
    assert result.diagnostics == []
    (launch,) = result.launches
    assert launch.entry == LAUNCH_SERVER
    assert texts(launch) == [
        "--model-path",
        "/models/Kimi-K2.5",
        "--trust-remote-code",
        "--speculative-algorithm",
        "EAGLE",
        "--speculative-draft-model-path",
        "/models/kimi-eagle3",
        "--tp",
        "8",
        "--port",
        "30000",
        "--host",
        "0.0.0.0",
    ]
    algorithm = word_after(launch, "--speculative-algorithm")
    assert where(algorithm) == (19, 29, 34)
    assert written("kimi_eagle_launch.sh", algorithm.span) == "EAGLE"
    model = word_after(launch, "--model-path")
    assert where(model) == (17, 18, 30)  # the use site "$MODEL_DIR"
    assert model.origin == Span(5, 11, 5, 28)  # where /models/Kimi-K2.5 is assigned
    assert launch.span == Span(16, 1, 23, 19)  # first word to last; the redirect is not part
    assert set(launch.env) == {"CUDA_VISIBLE_DEVICES", "SGLANG_ENABLE_JIT_DEEPGEMM"}
    assert launch.env["CUDA_VISIBLE_DEVICES"].text == "0,1,2,3,4,5,6,7"
    assert "MODEL_DIR" not in launch.env  # plain assignments do not reach the child


def test_topk1_draft_tokens_seed_positions():
    (launch,) = extract("eagle_topk1_draft_tokens.sh").launches
    draft_tokens = word_after(launch, "--speculative-num-draft-tokens")
    assert draft_tokens.text == "16"
    assert where(draft_tokens) == (9, 87, 89)
    assert written("eagle_topk1_draft_tokens.sh", draft_tokens.span) == "16"
    assert where(word_after(launch, "--speculative-eagle-topk")) == (9, 28, 29)
    assert where(word_after(launch, "--speculative-num-steps")) == (9, 54, 55)
    assert texts(launch)[-3:] == ["--tp", "8", "--trust-remote-code"]  # `| tee` is not an arg
    draft = word_after(launch, "--speculative-draft-model-path")
    assert draft.text == "/models/kimi-eagle3" and draft.origin == Span(5, 7, 5, 26)


# ---- wrappers and control flow ---------------------------------------------------------------


def test_wrappers_and_control_flow():
    launches = extract("wrappers.sh").launches
    ports = [word_after(launch, "--port").text for launch in launches if "--port" in texts(launch)]
    # `for gpu in 0 1` gives two iterations of the loop's launch (30010, 30011)
    assert ports == [
        "30001",
        "30002",
        "30003",
        "30004",
        "30005",
        "30006",
        "30010",
        "30011",
        "30020",
        "30021",
        "30022",
    ]
    called = [launch for launch in launches if launch.span.line == 22][0]  # serve 30022
    assert word_after(called, "--port").span == Span(24, 7, 24, 12)  # the call's word
    first = launches[0]  # env -u ... timeout 600 python3.11 -X dev -u -O -m ...
    assert texts(first) == ["--tp", "2"]
    assert first.env["NCCL_DEBUG"].text == "INFO"
    assert first.env["NCCL_DEBUG"].span == Span(4, 30, 4, 34)
    assert first.env["HF_HOME"].text == "/data/hf"
    assert "LOCAL_ONLY" not in first.env
    assert launches[3].entry == "sglang serve"
    assert texts(launches[3]) == ["--model-path", "/models/m", "--port", "30003"]
    assert launches[5].span.column == 14  # inside the backgrounded subshell


def test_a_for_loop_over_known_words_runs_its_launch_once_per_word_and_a_function_argument_is_the_calls():
    launches = extract("wrappers.sh").launches
    first, second = (l for l in launches if l.span.line == 14)  # for gpu in 0 1
    assert [word_after(l, "--port").text for l in (first, second)] == ["30010", "30011"]
    assert [l.env["CUDA_VISIBLE_DEVICES"].text for l in (first, second)] == ["0", "1"]
    assert [l.alternative.description for l in (first, second) if l.alternative] == [
        "$gpu is 0 (the loop at line 13)",
        "$gpu is 1 (the loop at line 13)",
    ]
    in_function = next(l for l in launches if l.span.line == 22)
    assert word_after(in_function, "--port").text == "30022"  # `serve 30022`
    assert word_after(in_function, "--host").text == "/data/hf"


def test_non_launches_are_ignored():
    lines = {launch.span.line for launch in extract("wrappers.sh").launches}
    assert 24 not in lines and 25 not in lines  # python train.py, python -c


# ---- docker ----------------------------------------------------------------------------------


def test_docker_run_flags_image_and_env():
    first, second = extract("docker_run.sh").launches
    assert first.image == "lmsysorg/sglang:v0.5.6.post2"
    assert first.image_span == Span(8, 3, 8, 9)  # $IMAGE
    assert texts(first) == ["--model-path", "/models/Kimi-K2.5", "--tp", "8", "--host", "0.0.0.0"]
    assert {name: word.text for name, word in first.env.items()} == {
        "SGLANG_ENABLE_JIT_DEEPGEMM": "0",
        "NCCL_IB_DISABLE": "1",
        "TORCH_CUDA_ARCH_LIST": "9.0",
        "HF_TOKEN": "hf_secret",
    }
    assert first.env["SGLANG_ENABLE_JIT_DEEPGEMM"].span == Span(6, 33, 6, 34)
    assert first.env["TORCH_CUDA_ARCH_LIST"].span == Span(6, 86, 6, 89)
    assert second.image == "lmsysorg/sglang:latest"
    assert second.entry == LAUNCH_SERVER and texts(second) == ["--port", "31000"]


# ---- nested shells ---------------------------------------------------------------------------


def test_bash_c_single_quoted_maps_positions_exactly():
    launches = extract("nested_shells.sh").launches
    inner = launches[0]
    assert inner.span.line == 4 and inner.span.column == 10
    model = word_after(inner, "--model-path")
    assert model.text == "/models/Kimi-K2.5"  # exported, so the inner shell sees it
    assert written("nested_shells.sh", model.span) == '"$MODEL"'
    port = word_after(inner, "--port")
    assert port.text is None and "not exported" in (port.dynamic_reason or "")
    assert where(word_after(inner, "--tp")) == (4, 82, 83)


def test_sh_c_double_quoted_expands_outer_variables_first():
    inner = extract("nested_shells.sh").launches[1]
    assert word_after(inner, "--port").text == "30000"
    assert written("nested_shells.sh", word_after(inner, "--port").span) == "$PORT"
    name = word_after(inner, "--served-model-name")
    assert name.text == "kimi k2"
    assert written("nested_shells.sh", name.span) == '\\"kimi k2\\"'


def test_ssh_remote_command():
    launches = extract("nested_shells.sh").launches
    remote = launches[2]
    assert remote.env == {}
    draft = word_after(remote, "--speculative-num-draft-tokens")
    assert where(draft) == (6, 171, 173) and draft.text == "16"
    assert written("nested_shells.sh", draft.span) == "16"
    assert texts(launches[3]) == ["--tp", "4"]  # ssh -t host python3 -m ... as plain words
    substituted = word_after(launches[4], "--mem-fraction-static")
    assert substituted.dynamic and substituted.dynamic_reason.startswith("output of command substitution")


# ---- variables, quoting, arrays --------------------------------------------------------------


def test_variables_quoting_and_arrays():
    (launch, *_) = extract("variables.sh").launches
    args = texts(launch)
    assert args[:10] == [
        "--model-path=/models/Kimi-K2.5",
        "--enable-metrics",
        "--log-level",
        "info",
        "--tp",
        "8",
        "--chat-template",
        "kimi k2.jinja",
        "--port",
        "30000",
    ]
    concatenated = launch.args[0]
    assert concatenated.origin == Span(2, 6, 2, 15)
    split = launch.args[1:4]  # unquoted $EXTRA: one word per field, each where the string writes it
    assert [word.span for word in split] == [Span(3, 8, 3, 24), Span(3, 25, 3, 36), Span(3, 37, 3, 41)]
    assert {word.expanded_at for word in split} == {Span(11, 61, 11, 67)}
    element = launch.args[7]  # "kimi k2.jinja" from the array, expanded at "${ARGS[@]}"
    assert element.span == Span(4, 32, 4, 47)
    assert element.expanded_at == Span(11, 68, 11, 80)
    appended = launch.args[9]
    assert appended.text == "30000" and appended.span == Span(5, 15, 5, 20)
    assert word_after(launch, "--dtype").text == "bfloat16"
    assert word_after(launch, "--quantization").text == "fp8"
    assert word_after(launch, "--kv-cache-dtype").text == "fp8_e5m2"
    assert word_after(launch, "--page-size").text == "16"
    assert word_after(launch, "--context-length").text == "8192"
    assert word_after(launch, "--max-total-tokens").text == "8192"  # set by ${CTX:=8192}
    assert word_after(launch, "--first-arg").text == "--tp"
    assert word_after(launch, "--all").text == "--tp 8 --chat-template kimi k2.jinja --port 30000"
    tail = args[args.index("--served-model-name") :]
    assert tail[:7] == ["--served-model-name", "my model", "a b", "tab\there", "plain space", "--empty", ""]
    nothing = launch.args[-1]
    assert nothing.text is None and nothing.splat and "UNSET_VAR" in nothing.dynamic_reason
    assert launch.env["AUTO_EXPORTED"].text == "yes"  # set -a
    assert "NAME" not in launch.env


def test_unknowable_values_are_dynamic():
    (_, launch, other) = extract("variables.sh").launches
    # SIZE comes from `if ...; then SIZE=80; else SIZE=40; fi`: one alternative per branch
    assert [word_after(a, "--mem").text for a in (launch, other)] == ["80", "40"]
    assert {word_after(a, "--mem").span for a in (launch, other)} == {Span(17, 38, 17, 43)}
    assert [written("variables.sh", word_after(a, "--mem").origin) for a in (launch, other)] == ["80", "40"]
    assert launch.span == other.span
    assert [c.description for c in launch.alternative.conditions] == ["the `then` branch at line 15 runs"]
    assert [c.description for c in other.alternative.conditions] == ["the `else` branch at line 15 runs"]
    assert (other.alternative.index, other.alternative.count) == (1, 2)
    user = word_after(launch, "--user")
    assert user.text is None and not user.splat and "`read`" in user.dynamic_reason
    host = word_after(launch, "--host")
    assert host.splat and "HOSTNAME" in host.dynamic_reason
    script_args = launch.args[texts(launch).index("--host") + 2]
    assert script_args.splat and script_args.dynamic_reason.startswith("script argument")
    unknown_array = launch.args[-1]
    assert unknown_array.splat and "BOGUS" in unknown_array.dynamic_reason


def test_substitutions_and_eval_are_never_executed():
    for marker in glob.glob("/tmp/speclint-executed-*"):
        os.remove(marker)
    result = extract("dynamic_no_exec.sh")
    assert glob.glob("/tmp/speclint-executed-*") == []
    (launch,) = result.launches
    tp, port, mem, ctx = (word_after(launch, flag) for flag in ("--tp", "--port", "--mem", "--ctx"))
    assert tp.text is None and tp.splat and "command substitution" in tp.dynamic_reason
    assert port.text is None and not port.splat and "`touch" in port.dynamic_reason
    assert mem.text is None and not mem.splat
    assert ctx.text == "8192"  # `$((4096 * 2))` worked out by speclint's own parser, not run


def test_eval_and_source_forget_values():
    text = 'X=1\neval "$CMD"\nY=2\npython -m sglang.launch_server --a $X --b $Y\n'
    (launch,) = extract_shell(text, "t.sh").launches
    assert launch.args[1].text is None and "eval at line 2" in launch.args[1].dynamic_reason
    assert launch.args[3].text == "2"


# ---- diagnostics -----------------------------------------------------------------------------


def test_broken_continuations():
    result = extract("broken_continuation.sh")
    first, second, third = result.launches
    assert texts(first) == ["--model-path", "/models/Kimi-K2.5"]  # --tp 8 --port never arrive
    assert texts(second) == ["--model-path", "/models/x"]
    assert texts(third) == ["--model-path", "/models/y", "--tp", "2"]
    comment, blanks, inline = result.diagnostics
    assert {d.kind for d in result.diagnostics} == {"broken-continuation"}
    assert comment.span == Span(4, 3, 4, 36) and "`--tp`" in comment.message
    assert blanks.span == Span(8, 55, 8, 57) and "trailing whitespace" in blanks.message
    assert inline.span == Span(12, 10, 12, 23) and "`--port`" in inline.message


def test_syntax_error_reports_first_error_and_keeps_launches():
    result = extract("syntax_error.sh")
    (diagnostic,) = result.diagnostics
    assert diagnostic.kind == "syntax-error"
    assert diagnostic.span == Span(4, 8, 4, 9)
    assert "unterminated double-quoted string" in diagnostic.message
    (launch,) = result.launches
    assert texts(launch) == ["--tp", "8", "--port", "30000"]


def test_missing_fi():
    result = extract_shell("if true; then\n  python -m sglang.launch_server --tp 2\n", "t.sh")
    (diagnostic,) = result.diagnostics
    assert "missing `fi`" in diagnostic.message and diagnostic.span == Span(1, 1, 1, 3)
    assert texts(result.launches[0]) == ["--tp", "2"]


# ---- details ---------------------------------------------------------------------------------


def test_comments_are_collected():
    comments = extract("eagle_topk1_draft_tokens.sh").comments
    assert comments[0] == (Span(1, 1, 1, 12), "#!/bin/bash")
    assert comments[1][0].line == 2 and comments[1][1].startswith("# EAGLE-3")


def test_columns_count_characters_not_bytes():
    text = 'echo "größe"; python -m sglang.launch_server --served-model-name "ünï" --tp 2\n'
    (launch,) = extract_shell(text, "t.sh").launches
    assert launch.args[1].text == "ünï" and where(launch.args[1]) == (1, 66, 71)
    assert where(launch.args[3]) == (1, 77, 78)


def test_interpreter_variants():
    text = (
        "/opt/venv/bin/python3 -m sglang.launch_server --a 1\n"
        "python3.12 -Xdev -W error -msglang.launch_server --b 2\n"
        "$PYTHON -m sglang.launch_server --c 3\n"
        "python -m sglang.bench_serving --d 4\n"
    )
    launches = extract_shell(text, "t.sh").launches
    assert [texts(l) for l in launches] == [["--a", "1"], ["--b", "2"], ["--c", "3"]]


def test_dispatch_and_lintable_paths(tmp_path):
    script = tmp_path / "serve"
    script.write_text("#!/usr/bin/env bash\npython -m sglang.launch_server --tp 2\n")
    other = tmp_path / "notes"
    other.write_text("hello\n")
    assert is_lintable_path(str(script)) and not is_lintable_path(str(other))
    assert is_lintable_path("run.sh") and is_lintable_path("x.bash") and not is_lintable_path("a.txt")
    assert file_kind("-", "python -m sglang.launch_server") == "shell"
    assert file_kind("serve", "#!/bin/sh\n") == "shell" and file_kind("serve", "#!/usr/bin/python\n") is None
    assert len(extract_file("-", "python -m sglang.launch_server --tp 2\n").launches) == 1
    unsupported = extract_file("notes.txt", "hello")
    assert unsupported.launches == [] and unsupported.diagnostics[0].kind == "unsupported-input"


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("*.sh")))
def test_every_fixture_has_a_launch(name):
    assert extract(name).launches


def test_a_quoted_variable_is_one_word_from_where_it_is_assigned():
    """`"$NAME"`: the value's text as one word at the use site, pointing back at the
    assignment; positional, special, array, unset and oversized values as the general rules say."""
    big = "x" * (64 * 1024 + 1)
    text = (
        'M="my model"\nA=(first second)\nunset U\nB=' + big + "\n"
        f'{LAUNCH_SERVER} --model-path "$M" --a "$A" --b "$1" --c "$$" --d "$U" --e "$B" --f "$NEVER"\n'
    )
    (launch,) = extract_shell(text, "q.sh").launches
    model = word_after(launch, "--model-path")
    at = text.split("\n")[4].index('"$M"') + 1
    assert model.text == "my model" and model.span == Span(5, at, 5, at + 4)
    assert model.origin == Span(1, 3, 1, 13) and not model.dynamic and not model.splat
    assert word_after(launch, "--a").text == "first"  # an array's first element
    assert word_after(launch, "--b").dynamic and word_after(launch, "--c").dynamic
    assert word_after(launch, "--d").text == ""  # unset: an empty word, still a word
    assert word_after(launch, "--e").dynamic and "not tracked" in (
        word_after(launch, "--e").dynamic_reason or ""
    )
    never = word_after(launch, "--f")
    assert never.dynamic and not never.splat  # quoted: one word, whatever it holds


@pytest.mark.parametrize(
    ("code", "forgets"),
    [
        ('"$CMD"', True),  # unknown code
        ("'X=2'", True),
        ("'export X=2'", True),
        ("'unset X'", True),
        ("'read X'", True),
        ("'f() { X=2; }'", True),
        ("'$RUN --tp 2'", True),  # a command whose name is not known
        ("'echo hi; ls'", False),
        ("'TMP=1 echo hi'", False),  # the command's own environment, not this shell's
        ("echo hi '&&' ls", False),  # eval joins its words with blanks
    ],
)
def test_eval_forgets_values_unless_its_code_sets_none(code: str, forgets: bool) -> None:
    text = f"X=1\neval {code}\npython -m sglang.launch_server --a $X\n"
    (*_, launch) = extract_shell(text, "t.sh").launches or [None]
    assert launch is not None
    value = launch.args[1]
    assert (value.text is None and "eval at line 2" in (value.dynamic_reason or "")) is forgets
    assert forgets or value.text == "1"


def test_eval_of_a_launch_held_in_a_variable_keeps_the_script_s_values() -> None:
    """`eval "$CMD"` runs a launch; the variables after it are still known (it sets none)."""
    text = (
        'SPEC="--speculative-algorithm EAGLE --speculative-eagle-topk 1"\n'
        'CMD="python3 -m sglang.launch_server --model-path /m $SPEC"\n'
        'eval "$CMD"\n'
        'bash -c "python3 -m sglang.launch_server --model-path /n $SPEC" &\n'
    )
    first, second = extract_shell(text, "t.sh").launches
    assert [w.text for w in first.args][-2:] == ["--speculative-eagle-topk", "1"]
    assert [w.text for w in second.args] == [
        "--model-path",
        "/n",
        "--speculative-algorithm",
        "EAGLE",
        "--speculative-eagle-topk",
        "1",
    ]


@pytest.mark.parametrize(
    ("words", "why"),
    [
        ("*.json", "a glob: the files present"),
        ("1 $(nproc)", "an unknown word"),
        (" ".join(str(n) for n in range(17)), "more words than alternatives kept apart"),
        ("", "`for x; do`: the positional parameters"),
    ],
)
def test_a_for_loop_whose_words_are_not_all_known_leaves_its_variable_unknown(words: str, why: str) -> None:
    head = f"for x in {words}; do" if words else "for x; do"
    text = f"{head}\n  python -m sglang.launch_server --tp $x\ndone\n"
    (launch,) = extract_shell(text, "t.sh").launches
    assert launch.args[1].text is None and launch.args[1].dynamic_reason == "loop variable $x", why


def test_a_for_loop_over_a_known_array_and_the_finding_of_one_iteration() -> None:
    text = (
        "TOPKS=(1 4)\n"
        'for topk in "${TOPKS[@]}"; do\n'
        "  python -m sglang.launch_server --model-path /m --speculative-algorithm EAGLE \\\n"
        "    --speculative-eagle-topk $topk --speculative-num-steps 1 --speculative-num-draft-tokens 16 &\n"
        "done\n"
    )
    launches = extract_shell(text, "t.sh").launches
    assert [word_after(l, "--speculative-eagle-topk").text for l in launches] == ["1", "4"]
    (finding,) = [f for f in lint_text(text, "t.sh").findings if f.code == "SPD001"]
    assert (finding.span.line, finding.span.column) == (4, text.splitlines()[3].index("16") + 1)
    assert any("when $topk is 1 (the loop at line 2)" in note.message for note in finding.notes)


def test_a_partly_known_command_held_in_a_variable_run_by_an_inner_shell() -> None:
    """`CMD="python3 -m ... $EXTRA"; sh -lc "$CMD"`: the inner shell reads the known words;
    the unknown part stands where it is written (an entrypoint script's form)."""
    text = (
        'PORT="${SGLANG_PORT:-30000}"\n'
        'CMD="python3 -m sglang.launch_server --port ${PORT} --tp-szie 2 ${EXTRA_ARGS}"\n'
        'sh -lc "${CMD}" &\n'
    )
    (launch,) = extract_shell(text, "entrypoint.sh").launches
    assert [w.text for w in launch.args][:4] == ["--port", "30000", "--tp-szie", "2"]
    assert launch.args[-1].text is None and "EXTRA_ARGS" in (launch.args[-1].dynamic_reason or "")
    codes = {f.code for f in lint_text(text, "entrypoint.sh").findings}
    assert {"FLG001", "SLM004"} <= codes


@pytest.mark.parametrize(
    ("words", "values"),
    [
        ("{0..3}", ["0", "1", "2", "3"]),
        ("{3..1}", ["3", "2", "1"]),
        ("{0..6..3}", ["0", "3", "6"]),
        ("$(seq 2)", ["1", "2"]),
        ("$(seq 0 3)", ["0", "1", "2", "3"]),
        ("$(seq 1 2 5)", ["1", "3", "5"]),
    ],
)
def test_a_for_loop_over_a_brace_range_or_seq_reads_each_iteration(words: str, values: list[str]) -> None:
    """`for i in {0..3}` / `for i in $(seq 0 3)` (one server per GPU): each iteration's
    launch, with `$((30000 + i))` and `CUDA_VISIBLE_DEVICES=$i` worked out per iteration."""
    text = (
        f"for i in {words}; do\n"
        "  CUDA_VISIBLE_DEVICES=$i python -m sglang.launch_server --port $((30000 + i)) > s_$i.log 2>&1 &\n"
        "done\n"
    )
    launches = extract_shell(text, "t.sh").launches
    assert [l.env["CUDA_VISIBLE_DEVICES"].text for l in launches] == values
    assert [word_after(l, "--port").text for l in launches] == [str(30000 + int(v)) for v in values]


@pytest.mark.parametrize("words", ["$(seq -w 0 3)", "$(seq 0 $N)", "{a..c}", "$(seq 0 99)", "{0..$N}"])
def test_a_for_loop_over_a_range_speclint_does_not_work_out_stays_unknown(words: str) -> None:
    text = f"for i in {words}; do\n  python -m sglang.launch_server --port $i\ndone\n"
    (launch,) = extract_shell(text, "t.sh").launches
    assert word_after(launch, "--port").text is None
