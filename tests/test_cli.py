"""The CLI contract other tools rely on: exit codes, output formats, selection, stdin, errors."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from speclint_runs import run_speclint

ROOT = Path(__file__).resolve().parent.parent
TOPK1 = ROOT / "fixtures" / "shell" / "eagle_topk1_draft_tokens.sh"


def run(*args: str, stdin: str | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return run_speclint(*args, cwd=cwd, stdin=stdin, timeout=60)


def test_text_output_points_at_the_token_with_source_and_caret():
    result = run(str(TOPK1))
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    head = next(l for l in lines if " SPD001 " in l)
    assert head.startswith(f"{TOPK1}:9:87: SPD001 [warning] `--speculative-num-draft-tokens 16` is ignored")
    at = lines.index(head)
    assert "--speculative-num-draft-tokens 16" in lines[at + 2]
    caret = lines[at + 3]
    assert caret.endswith("^^")  # under the two characters of `16`
    assert any("= help: for a 16-token chain write `--speculative-num-steps 15`" in l for l in lines)
    assert lines[-2].startswith("Found ") and "SGLang 0.5.23" in lines[-2]
    assert lines[-1] == ("No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option).")


def test_json_output_has_the_documented_fields():
    result = run("--output-format", "json", str(TOPK1))
    assert result.returncode == 1
    findings = json.loads(result.stdout)
    spd = next(f for f in findings if f["code"] == "SPD001")
    assert spd == {
        **spd,
        "name": "topk-one-overrides-draft-tokens",
        "severity": "warning",
        "path": str(TOPK1),
        "line": 9,
        "column": 87,
        "end_line": 9,
        "end_column": 89,
    }
    for finding in findings:
        assert {
            "code",
            "name",
            "severity",
            "path",
            "line",
            "column",
            "end_line",
            "end_column",
            "message",
        } <= finding.keys()


def test_select_and_ignore_by_code_prefix_and_name():
    codes = lambda r: {f["code"] for f in json.loads(r.stdout)}  # noqa: E731
    assert codes(run("--output-format", "json", "--select", "SPD001", str(TOPK1))) == {"SPD001"}
    assert codes(run("--output-format", "json", "--select", "abbreviated-flag", str(TOPK1))) == {"FLG003"}
    everything = codes(run("--output-format", "json", "--select", "ALL", str(TOPK1)))
    assert "FLG003" in everything
    assert "FLG003" not in codes(run("--output-format", "json", "--ignore", "FLG", str(TOPK1)))


def test_fail_on_threshold_and_exit_zero():
    only_info = ["--select", "FLG003", str(TOPK1)]
    assert run(*only_info).returncode == 0  # info is below the default threshold (warning)
    assert run("--fail-on", "info", *only_info).returncode == 1
    assert run("--exit-zero", str(TOPK1)).returncode == 0


def test_clean_file_exits_zero(tmp_path):
    script = tmp_path / "ok.sh"
    script.write_text("python -m sglang.launch_server --model-path /m --tp-size 2\n")
    result = run(str(script))
    assert result.returncode == 0, result.stdout
    assert result.stdout.startswith("All checks passed")


def test_stdin_is_read_as_a_shell_script():
    result = run(
        "--output-format", "json", "-", stdin="python -m sglang.launch_server --model-path m --tp-size x\n"
    )
    assert result.returncode == 1
    [finding] = json.loads(result.stdout)
    assert (finding["code"], finding["path"], finding["line"], finding["column"]) == (
        "FLG005",
        "<stdin>",
        1,
        57,
    )


def test_missing_file_is_exit_2_and_other_files_are_still_linted():
    result = run("--output-format", "json", "does/not/exist.sh", str(TOPK1))
    assert result.returncode == 2
    assert "does/not/exist.sh: no such file or directory" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert any(f["code"] == "SPD001" for f in json.loads(result.stdout))


def test_usage_errors_exit_2():
    assert run("--output-format", "yaml", str(TOPK1)).returncode == 2
    assert run("--sglang-version", "banana", str(TOPK1)).returncode == 2
    assert run().returncode == 2


def test_sglang_version_option_changes_the_schema():
    script = "python -m sglang.launch_server --model-path m --cuda-graph-max-bs 8\n"
    old = json.loads(
        run("--output-format", "json", "--sglang-version", "0.5.6.post2", "-", stdin=script).stdout
    )
    new = json.loads(run("--output-format", "json", "--sglang-version", "0.5.23", "-", stdin=script).stdout)
    assert "FLG002" not in {f["code"] for f in old}
    assert "FLG002" in {f["code"] for f in new}


def test_docker_image_tag_picks_the_version(tmp_path):
    script = tmp_path / "docker.sh"
    script.write_text(
        "docker run --gpus all lmsysorg/sglang:v0.5.6.post2 \\\n"
        "  python3 -m sglang.launch_server --model-path m --cuda-graph-max-bs 8\n"
    )
    result = run(str(script))
    assert "FLG002" not in result.stdout
    assert f"SGLang 0.5.6.post2 (from the image lmsysorg/sglang:v0.5.6.post2 at {script}:1)" in result.stdout


def test_folders_are_scanned_recursively_for_shell_files(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.sh").write_text("python -m sglang.launch_server --model-path m --tp x\n")
    (tmp_path / "b").write_text("#!/usr/bin/env bash\npython3 -m sglang.launch_server --model m --pp x\n")
    (tmp_path / "notes.txt").write_text("python -m sglang.launch_server --bogus\n")
    result = run("--output-format", "json", str(tmp_path))
    paths = {Path(f["path"]).name for f in json.loads(result.stdout)}
    assert paths == {"a.sh", "b"}


def test_linting_never_executes_the_script(tmp_path):
    marker = tmp_path / "executed"
    script = tmp_path / "evil.sh"
    script.write_text(
        f"X=$(touch {marker})\n`touch {marker}`\neval 'touch {marker}'\n"
        f'python -m sglang.launch_server --model-path "$(touch {marker})" --tp $X\n'
    )
    result = run(str(script), str(ROOT / "fixtures"))
    assert result.returncode in (0, 1)
    assert not marker.exists()


def test_explain_shows_the_topk1_override():
    result = run("explain", str(TOPK1))
    assert result.returncode == 0
    assert (
        "speculative_num_draft_tokens: 16 → 2  (topk 1 forces steps + 1; SGLang logs one warning)"
    ) in result.stdout


def test_explain_json_has_effective_values_and_adjustments():
    result = run("explain", "--output-format", "json", str(TOPK1))
    [launch] = json.loads(result.stdout)
    assert launch["sglang_version"] == "0.5.23" and launch["line"] == 7
    assert launch["effective"]["speculative_num_draft_tokens"] == 2
    assert launch["effective"]["max_running_requests"] == 48
    assert {"field": "speculative_num_draft_tokens", "from": 16, "to": 2} == {
        k: v
        for k, v in next(
            a for a in launch["adjustments"] if a["field"] == "speculative_num_draft_tokens"
        ).items()
        if k in ("field", "from", "to")
    }
