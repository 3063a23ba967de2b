"""A shell script that the linted file writes with a here-document (`cat > start.sh <<EOF`,
`sudo tee /usr/local/bin/x > /dev/null <<'EOF'` with a shell shebang) is read as a script where
it is written, its `$X` expanded here for an unquoted delimiter. Before, the launch in it was
only said not read (SLM005)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file

FILE = FixtureFile("shell/heredoc_written_script.sh")


def test_the_written_scripts_launches_are_checked_at_their_lines() -> None:
    findings = FILE.findings()
    assert [f[:4] for f in findings] == [
        ("FLG006", 10, 88, "fp9"),
        ("SLM004", 15, 46, '"$1"'),
        ("FLG005", 15, 61, "two"),
    ]
    assert "`fp9` is not a valid value for `--quantization`" in findings[0][4]


def test_an_unquoted_delimiter_expands_the_files_values_first() -> None:
    start, serve = extract_file(str(FILE.path), FILE.text).launches
    assert [w.text for w in start.args] == [
        "--model-path",
        "Qwen/Qwen3-8B",
        "--tp-size",
        "2",
        "--quantization",
        "fp9",
    ]
    assert serve.args[1].text is None  # `"$1"`: the script's argument, not known


def test_a_here_document_written_to_another_file_is_not_a_script() -> None:
    from speclint.engine import lint_text

    text = "cat > notes.txt <<EOF\npython3 -m sglang.launch_server --model-path m --dp-size two\nEOF\n"
    assert [f.code for f in lint_text(text, "t.sh").findings] == ["SLM005"]
