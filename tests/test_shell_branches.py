"""Shell values chosen by a branch: each alternative is checked, a finding is reported once
and says on which branch it happens; many branches stay bounded."""

from __future__ import annotations

import time
from pathlib import Path

from fixture_file import FixtureFile

from speclint.core.launches import MAX_ALTERNATIVES
from speclint.engine import lint_path, lint_text
from speclint.frontends.shell.script import extract_shell
from speclint.report.text import render_summary

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "shell"


def _findings(result):
    return {
        (f.code, f.span.line, f.span.column, f.span.end_column): [
            n.message for n in f.notes if n.message.startswith("when ")
        ]
        for f in result.findings
    }


def test_if_else_values_and_conditional_array_appends_are_checked_per_branch():
    result = lint_path(str(FIXTURES / "branch_values.sh"))
    found = _findings(result)
    # --tp-size 6 with 4 attention-DP workers: only on the else branch with MODE=dp
    assert found[("PAR002", 21, 56, 59)] == [
        "when the `else` branch at line 6 runs and the `dp)` case at line 17 runs"
    ]
    # the deprecation is on the `dp)` case whatever the other branches chose
    assert found[("PAR003", 17, 24, 45)] == ["when the `dp)` case at line 17 runs"]
    # topk 1 overrides the draft tokens appended under `if [ -n "$SPEC" ]`
    assert ("SPD001", 13, 67, 68) in found
    assert all("the `then` branch at line 11 runs" in note for note in found[("SPD001", 13, 67, 68)])
    assert "SLM004" not in {code for code, *_ in found}  # every alternative is read whole
    summary = render_summary([result])
    assert "1 launch in 1 file" in summary and "partly read" not in summary


def test_a_finding_of_every_branch_has_no_branch_note():
    text = (
        'if [ -n "$A" ]; then TP=8; else TP=4; fi\npython -m sglang.launch_server --model-path m --tp $TP\n'
    )
    result = lint_text(text, "t.sh")
    (finding,) = result.findings
    assert (finding.code, finding.span.line, finding.span.column) == ("FLG003", 2, 47)
    assert finding.notes == []


def test_a_variable_set_on_one_path_only_is_unknown_on_the_other():
    text = (
        'if [ -z "$TP" ]; then\n  TP=3\nfi\n'
        "python -m sglang.launch_server --model-path m --tp-size $TP --dp-size 2 --enable-dp-attention\n"
    )
    result = lint_text(text, "t.sh")
    found = _findings(result)
    assert found[("PAR002", 4, 57, 60)] == ["when the `then` branch at line 1 runs"]
    assert found[("SLM004", 4, 57, 60)] == ["when the `if` at line 1 is not taken"]
    partly = next(f for f in result.findings if f.code == "SLM004")
    assert "the value of `--tp-size` ($TP is not assigned in this file" in partly.message
    assert "1 launch only partly read" in render_summary([result])


def test_and_or_lists_and_case_items_are_branches():
    text = (
        '[ "$BIG" = 1 ] && TP=8 || TP=3\n'
        'case "$GPU" in\n  h100) DP=2 ;;\n  a10) DP=4 ;;\nesac\n'
        "python -m sglang.launch_server --model-path m --tp-size $TP --dp-size $DP "
        "--enable-dp-attention\n"
    )
    launches = extract_shell(text, "t.sh").launches
    assert len({launch.span for launch in launches}) == 1 and len(launches) > 1
    conditions = {c.description for launch in launches for c in launch.alternative.conditions}
    assert "the `h100)` case at line 3 runs" in conditions
    assert "no pattern of the `case` at line 2 matches" in conditions
    assert '`[ "$BIG" = 1 ] && TP=8` at line 1 fails' in conditions


def test_values_derived_from_a_branch_value_keep_their_alternatives():
    text = (
        'if [ -n "$X" ]; then TP=8; else TP=4; fi\n'
        'CMD="python -m sglang.launch_server --model-path m --tp-size $TP"\n'
        'ARGS=(--port 1)\nif [ -n "$Y" ]; then ARGS+=(--dp-size 2); fi\nARGS+=(--host h)\n'
        '$CMD "${ARGS[@]}"\n'
    )
    launches = extract_shell(text, "t.sh").launches
    argvs = sorted(tuple(w.text for w in launch.args) for launch in launches)
    assert len(argvs) == 4
    assert ("--model-path", "m", "--tp-size", "4", "--port", "1", "--dp-size", "2", "--host", "h") in argvs
    assert all(None not in argv for argv in argvs)


def test_many_branches_fall_back_to_unknown_values_quickly():
    many = "".join(f'if [ -n "$C{i}" ]; then ARGS+=(--x{i}); fi\n' for i in range(2000))
    text = "ARGS=()\n" + many + 'python -m sglang.launch_server --model-path m "${ARGS[@]}"\n'
    start = time.perf_counter()
    result = extract_shell(text, "t.sh")
    assert time.perf_counter() - start < 30  # bounded work, not 2**2000 alternatives
    (launch,) = result.launches
    assert launch.alternative is None and launch.partly_read


def test_many_alternatives_of_one_construct_are_bounded():
    arms = "".join(f"  v{i}) TP={i} ;;\n" for i in range(MAX_ALTERNATIVES + 5))
    text = f'case "$V" in\n{arms}esac\npython -m sglang.launch_server --tp-size $TP\n'
    (launch,) = extract_shell(text, "t.sh").launches
    assert launch.alternative is None and "paths" in launch.args[1].dynamic_reason


def test_deeply_nested_branches_do_not_crash():
    depth = 400
    text = (
        "if a; then " * depth + "TP=1; else TP=2; " + "fi; " * depth + "\n"
        "python -m sglang.launch_server --tp-size $TP\n"
    )
    result = lint_text(text, "t.sh")  # a located finding or launches, never an exception
    assert result.findings or result.contexts


def test_partly_read_alternatives_give_one_finding_per_launch():
    text = (
        'ARGS=(--model-path "$MODEL")\n'
        'if [ -n "$Q" ]; then ARGS+=(--quantization "$Q"); fi\n'
        'if [ -n "$K" ]; then ARGS+=(--kv-cache-dtype "$K"); fi\n'
        'python -m sglang.launch_server "${ARGS[@]}"\n'
    )
    result = lint_text(text, "t.sh")
    (finding,) = [f for f in result.findings if f.code == "SLM004"]
    assert (finding.span.line, finding.span.column) == (1, 20)  # "$MODEL", in every branch
    unknown = [n.message for n in finding.notes if n.message.startswith("unknown: ")]
    assert any("`--quantization`" in m for m in unknown) and any("`--kv-cache-dtype`" in m for m in unknown)
    assert "1 launch only partly read" in render_summary([result])


def test_an_arm_that_exits_never_reaches_the_launch():
    fixture = FixtureFile("shell/exit_arms.sh")
    # `*) ...; exit 1 ;;`, `else ...; exit 2`, `|| { ...; exit 1; }`: no path reaches the launch
    # with $MP, $TP or $DP unset, so nothing is "partly read"; the real error stays, once
    found = fixture.findings()
    assert "SLM004" not in {code for code, *_ in found}
    (invalid,) = [f for f in found if f[0] == "FLG006"]
    assert invalid[1:4] == (19, 114, "fa9")
    assert "`fa9` is not a valid value for `--attention-backend`" in invalid[4]
    launches = extract_shell(fixture.text, str(fixture.path)).launches
    conditions = {c.description for launch in launches for c in launch.alternative.conditions}
    assert conditions == {"the `small)` case at line 7 runs", "the `big)` case at line 8 runs"}


def test_an_exit_in_a_subshell_or_a_nested_branch_does_not_end_the_path():
    text = (
        'case "$M" in\n  a) TP=2 ;;\n  *) (echo no; exit 1) ;;\nesac\n'
        'if [ -n "$Q" ]; then\n  if [ -n "$R" ]; then exit 1; fi\n  DP=3\nfi\n'
        "python -m sglang.launch_server --model-path m --tp $TP --dp-size $DP\n"
    )
    result = lint_text(text, "t.sh")
    found = _findings(result)
    # `( ... exit 1)` leaves only the subshell: the `*)` path goes on with $TP unset
    assert "when the `*)` case at line 3 runs" in " ".join(
        note for key, notes in found.items() if key[0] == "SLM004" for note in notes
    )


def test_the_path_past_an_if_without_else_names_no_branch_taken():
    text = (
        'if [ "$A" = 1 ]; then TP=2\nelif [ "$A" = 2 ]; then TP=4\nfi\n'
        "python -m sglang.launch_server --model-path m --tp $TP\n"
    )
    launches = extract_shell(text, "t.sh").launches
    conditions = {c.description for launch in launches for c in launch.alternative.conditions}
    assert "no branch of the `if` at line 1 is taken" in conditions


def test_an_arm_calling_a_function_that_exits_never_reaches_the_launch():
    text = (
        'usage() {\n  echo "usage: $0 small|big" >&2\n  exit 1\n}\n'
        'case "$1" in\n  small) MP=Qwen/Qwen3-8B ;;\n  *) usage ;;\nesac\n'
        "python3 -m sglang.launch_server --model-path $MP --tp-size 2x\n"
    )
    found = _findings(lint_text(text, "t.sh"))
    assert "SLM004" not in {code for code, *_ in found}  # (was: $MP not assigned on `*)`)
    assert ("FLG005", 9, 60, 62) in found
    sub = text.replace("usage() {", "usage() (").replace("exit 1\n}", "exit 1\n)")
    assert "SLM004" in {code for code, *_ in _findings(lint_text(sub, "t.sh"))}  # a subshell body
