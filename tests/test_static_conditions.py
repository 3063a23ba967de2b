"""Arms a script's own values rule out: `USE_EAGLE3=false ... if [ "$USE_EAGLE3" = true ]`.
Their launches and findings disappear; an arm that must run is read as plain code (no "when
... runs" note); a condition that reads anything the environment may set stays two-sided."""

from __future__ import annotations

from pathlib import Path

import pytest

from speclint.engine import lint_text
from speclint.report.text import render_summary

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "shell" / "eagle3_toggle.sh"
LAUNCH = "python -m sglang.launch_server --model-path m"
SPEC = "--speculative-algorithm EAGLE3 --speculative-draft-model-path d"
SPD003 = "speculative decoding (EAGLE3) without --max-running-requests"


def _seen(text: str) -> list[tuple[str, int, int, str, list[str]]]:
    """Each finding as a user reads it: code, line, column, message start, branch notes."""
    result = lint_text(text, "run.sh")
    return [
        (
            f.code,
            f.span.line,
            f.span.column,
            f.message.split(":")[0],
            [n.message for n in f.notes if n.message.startswith("when ")],
        )
        for f in result.findings
        if f.code == "SPD003"
    ]


def _survey(first_line: str) -> str:
    text = FIXTURE.read_text()
    assert "USE_EAGLE3=false\n" in text
    return text.replace("USE_EAGLE3=false\n", first_line + "\n")


def test_a_switch_set_false_in_the_file_drops_the_speculative_arm():
    assert _seen(FIXTURE.read_text()) == []


def test_a_switch_set_true_in_the_file_reports_without_a_branch_note():
    assert _seen(_survey("USE_EAGLE3=true")) == [("SPD003", 15, 34, SPD003, [])]


@pytest.mark.parametrize(
    "first_line",
    [
        "USE_EAGLE3=${USE_EAGLE3:-false}",
        "export USE_EAGLE3=${USE_EAGLE3-false}",
        ": ${USE_EAGLE3:=false}",
        "DEFAULT=${SPEC_DEFAULT:-false}; USE_EAGLE3=$DEFAULT",
        "# USE_EAGLE3 comes from the environment",
    ],
)
def test_a_switch_the_environment_may_set_keeps_both_arms(first_line):
    assert _seen(_survey(first_line)) == [
        ("SPD003", 15, 34, SPD003, ["when the `then` branch at line 14 runs"])
    ]


def test_a_switch_set_on_only_one_path_keeps_both_arms():
    text = _survey('USE_EAGLE3=false; [ -n "$CI" ] && USE_EAGLE3=true')
    assert _seen(text) == [("SPD003", 15, 34, SPD003, ["when the `then` branch at line 14 runs"])]


def _toggle(setting: str, test: str) -> str:
    return f'{setting}\nA=()\nif {test}; then\n  A=({SPEC})\nfi\n{LAUNCH} "${{A[@]}}"\n'


ON = [("SPD003", 4, 30, SPD003, [])]
TWO_SIDED = [("SPD003", 4, 30, SPD003, ["when the `then` branch at line 3 runs"])]


@pytest.mark.parametrize(
    ("setting", "test", "expected"),
    [
        ("MODE=eagle3", "[[ $MODE == eagle3 ]]", ON),
        ("MODE=eagle", "[[ $MODE == eagle3 ]]", []),
        ("MODE=eagle3", '[[ "$MODE" = "eagle3" ]]', ON),
        ("MODE=eagle3", "[[ $MODE != eagle3 ]]", []),
        # an unquoted right side is a pattern: only plain text is decided
        ("MODE=eagle3", "[[ $MODE == eagle* ]]", TWO_SIDED),
        ("MODE=eagle3", "[[ $MODE == eagle? ]]", TWO_SIDED),
        ("DRAFT=", '[ -z "$DRAFT" ]', ON),
        ("DRAFT=d", '[ -z "$DRAFT" ]', []),
        ("DRAFT=d", "[[ -n $DRAFT ]]", ON),
        ("DRAFT=d", 'test -n "$DRAFT"', ON),
        ("N=2", '[ "$N" -gt 1 ]', ON),
        ("N=1", '[ "$N" -gt 1 ]', []),
        ("N=1", "[[ $N -ge 1 && $N -le 4 ]]", ON),
        ("N=010", "[[ $N -eq 10 ]]", TWO_SIDED),  # octal in [[ ]]: not decided
        ("N=x", '[ "$N" -eq 1 ]', TWO_SIDED),
        ("N=3", '! [ "$N" -eq 3 ]', []),
        ("A1=1 B1=", '[ "$A1" = 1 -a -n "$B1" ]', []),
        ("A1=1 B1=", '[ "$A1" = 1 -o -n "$B1" ]', ON),
        ("A1=1 B1=", '[ "$A1" = 1 ] && [ -z "$B1" ]', ON),
        ("A1=1 B1=", '[ "$A1" = 2 ] || [ -n "$B1" ]', []),
        ("A1=1", '[ "$A1" = 1 ] && [ -n "$UNSET_HERE" ]', TWO_SIDED),
        ("FLAG=false", "$FLAG", []),
        ("FLAG=true", "$FLAG", ON),
        ("FLAG=maybe", "$FLAG", TWO_SIDED),
        ("X=1", "true", ON),
        ("X=1", "false", []),
        ("X=1", "[ -f /etc/sglang.conf ]", TWO_SIDED),
        ("FLAG=true", "$FLAG && [ -e /dev/nvidia0 ]", TWO_SIDED),
    ],
)
def test_conditions_decided_by_values_written_in_the_file(setting, test, expected):
    assert _seen(_toggle(setting, test)) == expected


def test_elif_keeps_only_the_arm_that_must_run():
    text = (
        "MODE=plain\n"
        f'if [ "$MODE" = eagle ]; then\n  {LAUNCH} {SPEC}\n'
        f'elif [ "$MODE" = plain ]; then\n  {LAUNCH}\n'
        f"else\n  {LAUNCH} {SPEC} --speculative-num-steps 3\nfi\n"
    )
    result = lint_text(text, "run.sh")
    assert result.findings == []
    assert "1 launch in 1 file" in render_summary([result])


def test_an_unknown_arm_before_one_that_must_run_keeps_both_and_drops_the_else():
    text = (
        "MODE=plain\n"
        f'if [ -n "$CI" ]; then\n  A=({SPEC})\n'
        f'elif [ "$MODE" = plain ]; then\n  A=()\n'
        f"else\n  A=({SPEC} --speculative-num-steps 3)\nfi\n"
        f'{LAUNCH} "${{A[@]}}"\n'
    )
    assert _seen(text) == [("SPD003", 3, 30, SPD003, ["when the `then` branch at line 2 runs"])]


CASE = 'case "$M" in\n  eagle) A=(' + SPEC + ");;\n  plain) A=();;\n  *) A=(--port 1);;\nesac\n"


@pytest.mark.parametrize(
    ("setting", "expected"),
    [
        ("M=eagle", [("SPD003", 3, 37, SPD003, [])]),
        ("M=plain", []),
        ("M=other", []),
        ("M=${M:-plain}", [("SPD003", 3, 37, SPD003, ["when the `eagle)` case at line 3 runs"])]),
    ],
)
def test_case_with_a_known_subject_keeps_the_matching_item(setting, expected):
    assert _seen(f'{setting}\n{CASE}{LAUNCH} "${{A[@]}}"\n') == expected


def test_a_case_with_glob_patterns_before_the_match_stays_two_sided():
    text = "M=eagle\ncase $M in\n  e*) A=();;\n  eagle) A=(" + SPEC + ");;\nesac\n" + LAUNCH + ' "${A[@]}"\n'
    assert _seen(text) == [("SPD003", 4, 37, SPD003, ["when the `eagle)` case at line 4 runs"])]


def test_a_switch_changed_in_a_loop_is_not_decided():
    text = f'E=false\nfor i in 1 2; do\n  if [ "$E" = true ]; then {LAUNCH} {SPEC}; fi\n  E=true\ndone\n'
    assert [(c, line) for c, line, *_ in _seen(text)] == [("SPD003", 3)]


def test_a_switch_read_by_an_inner_shell_is_not_decided():
    text = f"export E=false\nbash -c 'if [ \"$E\" = true ]; then {LAUNCH} {SPEC}; fi'\n"
    assert [(c, line) for c, line, *_ in _seen(text)] == [("SPD003", 2)]


@pytest.mark.parametrize(
    ("setting", "form", "expected"),
    [
        ("U=false", '[ "$U" = true ] && A+=(SPEC)', []),
        ("U=true", '[ "$U" = true ] && A+=(SPEC)', [("SPD003", 3, 48, SPD003, [])]),
        ("U=true", '[ "$U" != true ] || A+=(SPEC)', [("SPD003", 3, 49, SPD003, [])]),
        ("U=false", '[ "$U" != true ] || A+=(SPEC)', []),
        (
            "U=${U:-false}",
            '[ "$U" = true ] && A+=(SPEC)',
            [("SPD003", 3, 48, SPD003, ['when `[ "$U" = true ]` at line 3 succeeds'])],
        ),
    ],
)
def test_a_decided_test_before_and_or_runs_or_skips_the_command(setting, form, expected):
    text = f'{setting}\nA=()\n{form.replace("SPEC", SPEC)}\n{LAUNCH} "${{A[@]}}"\n'
    assert _seen(text) == expected


def test_a_switch_read_in_a_function_is_not_decided_a_caller_may_set_it():
    text = f'U=false\nrun() {{\n  if [ "$U" = true ]; then {LAUNCH} {SPEC}; fi\n}}\nU=true run\n'
    assert [(c, line) for c, line, *_ in _seen(text)] == [("SPD003", 3)]


def test_a_local_switch_in_a_function_is_decided():
    text = f'run() {{\n  local U=false\n  if [ "$U" = true ]; then {LAUNCH} {SPEC}; fi\n}}\nrun\n'
    assert _seen(text) == []
