"""`CMD=$(cat <<EOF ... EOF)` then `eval $CMD` / `eval "$CMD"`: the command substitution's
output is the here-document's text (expanded for an unquoted delimiter, trailing newlines
removed), each character where the here-document writes it (`shell/substituted_heredoc.py`).
These launches were passed over ("All checks passed" with one launch of four read)."""

from __future__ import annotations

from fixture_file import FixtureFile

SCRIPT = FixtureFile("shell/heredoc_command_variable.sh")


def test_each_launch_in_a_here_document_variable_is_checked_at_its_words() -> None:
    found = [(code, line, column, text) for code, line, column, text, _ in SCRIPT.findings()]
    assert found == [
        ("FLG005", 9, 13, "four"),  # <<'EOF' over three lines, `eval $SERVE_CMD` joins them
        ("FLG006", 17, 23, "flashinfers"),  # <<EOF with `$MODEL` and a `\` continuation
        ("FLG005", 23, 56, "eighty"),  # `$1` in it: partly known, its known words where written
        ("SLM004", 26, 7, "$PARTLY"),  # (forms28; before: both at `$PARTLY`)
    ]


def test_the_values_are_what_bash_makes_of_the_here_document() -> None:
    from speclint.frontends import extract_file

    launches = extract_file(str(SCRIPT.path), SCRIPT.text).launches
    assert [[w.text for w in launch.args[:2]] for launch in launches] == [
        ["--model-path", "m"],
        ["--model-path", "meta-llama/Llama-3.1-8B-Instruct"],
        ["--model-path", "Qwen/Qwen3-8B"],  # `$MODEL` expanded by the unquoted delimiter
        ["--model-path", None],
    ]
    message = next(m for code, _, _, _, m in SCRIPT.findings() if code == "SLM004")
    assert "script argument" in message


def test_a_here_document_only_printed_is_no_launch() -> None:
    from speclint.engine import lint_text

    text = (
        'USAGE=$(cat <<EOF\nusage: python3 -m sglang.launch_server --model-path PATH\nEOF\n)\necho "$USAGE"\n'
    )
    result = lint_text(text, "usage.sh")
    assert [f.code for f in result.findings] == ["SLM005"]  # named, no launch: said, not checked
