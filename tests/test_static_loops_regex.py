"""A `while`/`until` loop whose condition the script's own values decide before the first
iteration (`while [ "$X" = true ]` with X=false, `until true`) never runs its body: its
launches are not read, as an `if` arm ruled out. `[[ TEXT =~ REGEX ]]` is decided when TEXT is
known and REGEX means the same to bash and to Python (no POSIX class, no `\\d`, no expansion).
File tests (`-f`, `-d`) depend on the machine: both arms stay."""

from __future__ import annotations

from speclint.engine import lint_text

LAUNCH = "python -m sglang.launch_server --model-path /m"


def seen(text: str) -> list[tuple[str, int, int, list[str]]]:
    return [
        (f.code, f.span.line, f.span.column, [n.message for n in f.notes if n.message.startswith("when ")])
        for f in lint_text(text, "run.sh").findings
    ]


def test_a_while_loop_whose_condition_fails_at_the_start_never_runs():
    text = f'USE_EAGLE=false\nwhile [ "$USE_EAGLE" = true ]; do\n  {LAUNCH} --tp-size 2x\n  break\ndone\n{LAUNCH}\n'
    assert seen(text) == []
    column = len(f"  {LAUNCH} --tp-size ") + 1
    assert seen(text.replace("USE_EAGLE=false", "USE_EAGLE=true")) == [("FLG005", 3, column, [])]


def test_an_until_loop_whose_condition_holds_at_the_start_never_runs():
    text = f"n=3\nuntil [ $n -ge 3 ]; do\n  {LAUNCH} --port 3000x\n  n=$((n + 1))\ndone\n{LAUNCH}\n"
    assert seen(text) == []
    assert seen(text.replace("n=3", "n=0")) == [("FLG005", 3, len(f"  {LAUNCH} --port ") + 1, [])]


def test_a_loop_on_what_the_environment_sets_still_runs():
    text = f'while [ "$RUN" = 1 ]; do\n  {LAUNCH} --port 3000x\ndone\n'
    assert [(c, line) for c, line, _, _ in seen(text)] == [("FLG005", 2)]


def test_a_regex_match_on_a_known_value_decides_the_arm():
    text = (
        f"VERSION=v0.5.3\nif [[ $VERSION =~ ^v0\\.4\\.[0-9]+$ ]]; then\n  {LAUNCH} --port 3000x\n"
        f"else\n  {LAUNCH} --tp-size 2x\nfi\n"
    )
    assert seen(text) == [("FLG005", 5, len(f"  {LAUNCH} --tp-size ") + 1, [])]
    assert seen(text.replace("v0.5.3", "v0.4.1")) == [("FLG005", 3, len(f"  {LAUNCH} --port ") + 1, [])]


def test_a_quoted_right_side_is_matched_as_text():
    text = f'GPU=H100-80GB\nif [[ $GPU =~ "H100" ]]; then\n  {LAUNCH} --port 3000x\nfi\n'
    assert seen(text) == [("FLG005", 3, len(f"  {LAUNCH} --port ") + 1, [])]
    assert seen(text.replace("H100-80GB", "A100-80GB")) == [("SLM005", 3, 13, [])]  # ruled out


def test_a_regex_python_reads_otherwise_and_file_tests_stay_two_sided():
    posix = f"V=x\nif [[ $V =~ ^[[:digit:]]$ ]]; then\n  {LAUNCH} --port 3000x\nfi\n"
    assert [(code, line) for code, line, _, _ in seen(posix)] == [("FLG005", 3)]
    escaped = f"V=x\nif [[ $V =~ ^\\d$ ]]; then\n  {LAUNCH} --port 3000x\nfi\n"
    assert [(code, line) for code, line, _, _ in seen(escaped)] == [("FLG005", 3)]
    file_test = f"if [ -f /etc/sglang.env ]; then\n  {LAUNCH} --port 3000x\nfi\n"
    assert [(code, line) for code, line, _, _ in seen(file_test)] == [("FLG005", 2)]
    directory = f"if [[ -d /models/llama ]]; then\n  {LAUNCH} --port 3000x\nfi\n"
    assert [(code, line) for code, line, _, _ in seen(directory)] == [("FLG005", 2)]
