"""`sbatch [options] << EOF`: with no script file named, sbatch reads the batch script from
standard input (sbatch(1)), so the here-document is the script: read as shell, its
`#SBATCH` lines comments, with the caller's exported variables (or `--export`'s) and Slurm's
`CUDA_VISIBLE_DEVICES`; findings point inside the here-document."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.frontends import extract_file

FILE = FixtureFile("shell/sbatch_heredoc.sh")
FIXTURE, TEXT = FILE.path, FILE.text
_at, _findings = FILE.at, FILE.findings


def test_the_here_document_is_the_batch_script_with_exact_positions() -> None:
    findings = _findings()
    assert [f[:4] for f in findings] == [
        ("FLG001", 10, 53, "--tp-sise"),
        ("SLM004", 10, 72, "$PORT"),
        ("FLG005", 16, 88, "high"),
        ("SLM005", 20, 1, "python3 -m sglang.launch_server"),
    ]
    assert findings[0][4].startswith("`--tp-sise` is not an SGLang 0.5.23 flag")
    assert "did you mean `--tp-size`?" in findings[0][4]


def test_a_quoted_delimiter_leaves_variables_to_the_batch_scripts_environment() -> None:
    first = extract_file(str(FIXTURE), TEXT).launches[0]
    words = [w.text for w in first.args]
    # MODEL is exported, so sbatch (--export=ALL by default) passes it to the batch script
    assert words[words.index("--model-path") + 1] == "Qwen/Qwen2.5-7B-Instruct"
    port = first.args[words.index("--port") + 1]
    assert port.text is None
    assert port.dynamic_reason == "$PORT is not passed to the batch script of `sbatch` (line 6)"
    visible = first.env["CUDA_VISIBLE_DEVICES"]
    assert visible.text is None and "Slurm sets CUDA_VISIBLE_DEVICES" in (visible.dynamic_reason or "")


def test_an_unquoted_delimiter_expands_the_callers_values_before_sbatch() -> None:
    second = extract_file(str(FIXTURE), TEXT).launches[1]
    words = [w.text for w in second.args]
    # expanded by this script's shell, so --export=NONE does not matter to them
    assert words[words.index("--port") + 1] == "30000"
    assert words[words.index("--model-path") + 1] == "Qwen/Qwen2.5-7B-Instruct"


def test_sbatch_with_a_script_file_or_wrap_does_not_run_the_here_document() -> None:
    for command in ("sbatch job.sh", "sbatch --wrap 'hostname'", "sbatch -p gpu job.sh arg"):
        text = f"{command} <<'X'\npython -m sglang.launch_server --model-path m\nX\n"
        assert extract_file("a.sh", text).launches == [], command
    # beside a read launch, the unread here-document is reported where its launcher is
    unread = _findings()[3]
    assert unread[4].startswith("speclint did not read this here-document, given to `sbatch`")


def test_the_here_document_no_longer_reports_an_unread_launcher() -> None:
    text = (
        "sbatch -N 1 <<'X'\n#SBATCH --gres=gpu:8\npython -m sglang.launch_server --model-path m --tp 8\nX\n"
    )
    findings = lint_text(text, "a.sh").findings
    assert all(f.code not in ("SLM005", "SLM001") for f in findings)
    (launch,) = extract_file("a.sh", text).launches
    assert (launch.span.line, launch.span.column) == (3, 1)
